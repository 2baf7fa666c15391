"""A non-editable install carries the scenario YAML and works away from the source tree.

The repository is copied to a temporary folder first (pip builds in the source tree and leaves
``build/`` behind; the real tree is shared with other work), then installed with
``pip install --no-deps --target``. The installed copy is run with ``PYTHONPATH=<target>`` from
a folder that is not the repository, so nothing can be imported from the source tree.
"""

from __future__ import annotations

import importlib.util
from importlib import metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

PROBE = r"""
import json, random, sys
from importlib import resources

import engine, scenarios
from engine import registry
from engine.session import Session

rules = registry.get("fbi-mafia")
variants = [v.name for v in rules.variants()]
session = Session(rules, "standard-3v3", seed=5)
rng = random.Random(5)
moves = 0
while not session.over and moves < 40:
    seat = session.state.awaiting()[0].seat
    text = rules.choose_input(session.state, seat, rng)
    session.submit(seat, text)
    moves += 1
print(json.dumps({
    "engine": engine.__file__,
    "scenarios": str(resources.files("scenarios")),
    "variants": variants,
    "moves": moves,
    "events": len(session.events),
    "board": session.render("host").splitlines()[0],
}))
"""


def _builds_without_network() -> bool:
    """--no-build-isolation needs a setuptools that can build wheels by itself (70.1 and
    later) or the ``wheel`` package beside an older one."""
    try:  # read the version without importing setuptools (it patches distutils in-process)
        text = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return False
    version = tuple(int(p) for p in text.split(".")[:2] if p.isdigit())
    return version >= (70, 1) or (version >= (64, 0) and importlib.util.find_spec("wheel") is not None)


def test_non_editable_install_loads_the_scenario_yaml(tmp_path: Path) -> None:
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed")
    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis",
        "tests", "transcripts"))
    target = tmp_path / "site"
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target)]
    if _builds_without_network():
        cmd.append("--no-build-isolation")
    # else: pip fetches the build requirements (setuptools, wheel) into an isolated build
    # environment, as CI's `pip install .[test]` does
    pip = subprocess.run(cmd + [str(src)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert pip.returncode == 0, pip.stdout + pip.stderr

    shipped = sorted(p.name for p in (target / "scenarios" / "fbi_mafia").glob("*.yaml"))
    assert shipped == ["modes.yaml", "roles.yaml", "suspects.yaml"]

    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()
    env = dict(os.environ, PYTHONPATH=str(target))
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60,
                           cwd=run_dir, env=env)
    assert probe.returncode == 0, probe.stderr
    got = json.loads(probe.stdout)
    assert Path(got["engine"]).resolve().is_relative_to(target.resolve())
    assert Path(got["scenarios"]).resolve().is_relative_to(target.resolve())
    assert got["variants"] == ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
    assert got["moves"] > 0 and got["events"] > got["moves"]
    assert got["board"].startswith("FBI vs Mafia, Standard 3 vs 3")

    # the installed command validates its own packaged data and plays a game
    cli = [sys.executable, "-c", "import sys, cli.main; print(cli.main.__file__, file=sys.stderr); "
           "cli.main.main(sys.argv[1:])"]
    validate = subprocess.run(cli + ["validate"], capture_output=True, text=True, timeout=60,
                              cwd=run_dir, env=env)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert Path(validate.stderr.strip()).resolve().is_relative_to(target.resolve())
    assert "ok fbi-mafia: 4 modes load and cross-check" in validate.stdout
    assert "ok mafia: 7 modes load and cross-check" in validate.stdout
    assert sorted(p.name for p in (target / "scenarios" / "mafia").glob("*.yaml")) == [
        "cards.yaml", "setups.yaml", "talk.yaml"]
    play = subprocess.run(cli + ["play", "fbi-mafia", "--mode", "duel-4v4", "--bots", "random", "--seed", "3"],
                          capture_output=True, text=True, timeout=60, cwd=run_dir, env=env)
    assert play.returncode == 0, play.stderr
    assert "\nresult: " in play.stdout
    mafia = subprocess.run(cli + ["play", "mafia", "--players", "7", "--bots", "random", "--seed", "3"],
                           capture_output=True, text=True, timeout=60, cwd=run_dir, env=env)
    assert mafia.returncode == 0, mafia.stderr
    assert "\nresult: " in mafia.stdout

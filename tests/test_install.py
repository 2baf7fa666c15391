"""A non-editable install is one import package, ``arbiter``, that carries the scenario YAML and
works away from the source tree.

What the build reads (``pyproject.toml``, the README, the package folders) is copied to a
temporary folder first (pip builds in the source tree and leaves ``build/`` behind; the real
tree is shared with other work), then installed with ``pip install
--no-deps`` into a fresh virtual environment made without pip and without the system's
site-packages, so nothing the machine already has (an older arbiter's ``engine`` package, say)
can be imported by mistake. Its runtime dependencies are lent to it by a ``.pth`` file naming
a folder of links to the test interpreter's copies, and nothing else. Everything runs with the
environment's own interpreter from a folder that is not the repository.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEPENDENCIES = ("click", "yaml", "_yaml", "tabulate", "openskill")

PROBE = r"""
import importlib, json, random
from importlib import metadata, resources

gone = {}
for name in ("engine", "cli", "scenarios"):
    try:
        importlib.import_module(name)
        gone[name] = False
    except ImportError:
        gone[name] = True

import arbiter
from arbiter.engine import registry
from arbiter.engine.session import Session

rules = registry.get("fbi-mafia")
session = Session(rules, "standard-3v3", seed=5)
rng = random.Random(5)
moves = 0
while not session.over and moves < 40:
    seat = session.state.awaiting()[0].seat
    session.submit(seat, rules.choose_input(session.state, seat, rng))
    moves += 1
game = arbiter.new_game("mafia", "6-players", seed=2)
scripts = {e.name: e.value for e in metadata.entry_points(group="console_scripts")}
print(json.dumps({
    "gone": gone,
    "arbiter": arbiter.__file__,
    "version": arbiter.__version__,
    "distribution": metadata.version("arbiter-referee"),
    "script": scripts.get("arbiter"),
    "scenarios": str(resources.files("arbiter.scenarios")),
    "variants": [v.name for v in rules.variants()],
    "moves": moves,
    "events": len(session.events),
    "board": session.render("host").splitlines()[0],
    "api_seats": list(game.seats),
}))
"""


def _builds_without_network() -> bool:
    """--no-build-isolation needs the setuptools ``pyproject.toml`` asks for (77 and later: its
    license is an SPDX expression), which builds wheels by itself."""
    try:  # read the version without importing setuptools (it patches distutils in-process)
        text = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        return False
    return tuple(int(p) for p in text.split(".")[:2] if p.isdigit()) >= (77, 0)


def _lend_dependencies(site: Path, folder: Path) -> None:
    """Links to this interpreter's copies of the runtime dependencies, named by a .pth file."""
    folder.mkdir()
    for name in DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue  # _yaml: only with libyaml
        origin = Path(spec.origin)
        source = origin.parent if origin.name == "__init__.py" else origin
        (folder / source.name).symlink_to(source)
    (site / "lent.pth").write_text(f"{folder}\n", encoding="utf-8")


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the environment's python, its site-packages) with arbiter installed from a copy: made
    once a run. Under pytest-xdist the first worker to ask makes it in the run's shared temporary
    folder while the others wait on a lock, then all use it (a pip install is seconds of CPU;
    xdist's ``xdist_group`` cannot keep these tests on one worker under pytest 9, whose node ids
    no longer take the group's suffix)."""
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed")
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: this run's own folder
        return _install(tmp_path_factory.mktemp("install"))
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, shared by its workers
    made = shared / "install.json"
    with open(shared / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, even by a failure
        if not made.exists():
            python, site = _install(Path(tempfile.mkdtemp(prefix="install-", dir=shared)))
            made.write_text(json.dumps([str(python), str(site)]), encoding="utf-8")
    python_path, site_path = json.loads(made.read_text(encoding="utf-8"))
    return Path(python_path), Path(site_path)


def _install(tmp: Path) -> tuple[Path, Path]:
    """A fresh environment in ``tmp`` with arbiter installed from a copy of the repository."""
    src = tmp / "src"  # what the build reads, and nothing else: a virtual environment made in the
    src.mkdir()  # tree as the README says (.venv, 300 MB with Ray) was copied whole at every run
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    for folder in sorted(set(config["package-dir"].values())):
        shutil.copytree(REPO / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    env_dir = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=120)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    if _builds_without_network():
        cmd.append("--no-build-isolation")
    # else: pip fetches the build requirements (setuptools, wheel) into an isolated build
    # environment, as CI's `pip install .[test]` does
    pip = subprocess.run(cmd + [str(src)], capture_output=True, text=True, timeout=300, cwd=tmp)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    _lend_dependencies(site, tmp / "lent")
    return python, site


def _run(python: Path, code_or_args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    return subprocess.run([str(python), *code_or_args], capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def test_one_import_package_named_arbiter(venv: tuple[Path, Path], tmp_path: Path) -> None:
    python, site = venv
    top = sorted(p.name for p in site.iterdir() if not p.name.endswith((".dist-info", ".pth")) and p.name != "bin")
    assert top == ["arbiter"], top
    probe = _run(python, ["-c", PROBE], tmp_path)
    assert probe.returncode == 0, probe.stderr
    got = json.loads(probe.stdout)
    assert got["gone"] == {"engine": True, "cli": True, "scenarios": True}
    assert Path(got["arbiter"]).resolve().is_relative_to(site.resolve())
    assert Path(got["scenarios"]).resolve().is_relative_to(site.resolve())
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    sys.path.insert(0, str(REPO))
    try:
        import arbiter
    finally:
        sys.path.remove(str(REPO))
    assert got["version"] == got["distribution"] == arbiter.__version__
    assert project["name"] == "arbiter-referee"
    assert got["script"] == "arbiter.cli.entry:run"
    assert got["variants"] == ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
    assert got["moves"] > 0 and got["events"] > got["moves"]
    assert got["board"].startswith("FBI vs Mafia, Standard 3 vs 3")
    assert got["api_seats"] == ["p1", "p2", "p3", "p4", "p5", "p6"]
    for game in ("fbi_mafia", "mafia", "magic_maze"):
        shipped = sorted(p.name for p in (site / "arbiter" / "scenarios" / game).glob("*.yaml"))
        assert shipped == sorted(p.name for p in (REPO / "scenarios" / game).glob("*.yaml"))


def test_the_installed_command_validates_its_data_and_plays(venv: tuple[Path, Path], tmp_path: Path) -> None:
    python, site = venv
    cli = ["-m", "arbiter"]  # the installed copy's __main__, the entry the script runs
    validate = _run(python, cli + ["validate"], tmp_path)
    assert validate.returncode == 0, validate.stdout + validate.stderr
    assert "ok fbi-mafia: 4 modes load and cross-check" in validate.stdout
    assert "ok mafia: 7 modes load and cross-check" in validate.stdout
    for args in (["fbi-mafia", "--mode", "duel-4v4", "--seed", "3"], ["mafia", "--players", "7", "--seed", "3"],
                 ["magic-maze", "--scenario", "1", "--players", "2", "--bots", "planner", "--seed", "1"]):
        if "--bots" not in args:
            args = [*args, "--bots", "random"]
        play = _run(python, cli + ["play", *args], tmp_path)
        assert play.returncode == 0, play.stderr
        assert "\nresult: " in play.stdout


def test_the_license_is_said_as_setuptools_will_go_on_building_it() -> None:
    """setuptools deprecated a license written as a table (``{ text = "MIT" }``): building
    warned that by 2027-02-18 such a project would no longer build, and the README's first
    command (``pip install .``, which fetches the newest setuptools to build with) would then
    fail on every new machine. The license is an SPDX expression, which setuptools reads from
    77 on, the version the build asks for."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["project"]["license"] == "MIT"
    assert config["build-system"]["requires"] == ["setuptools>=77"]


def test_every_package_folder_is_installed() -> None:
    """pyproject.toml lists the packages by hand (the folders map into arbiter): a new folder
    with an ``__init__.py`` that is not listed would be missing from an install. A folder of
    the games' data (YAML, no ``__init__.py``) is listed too: setuptools warned at every build
    that such a folder "would be ignored" as a package, its files carried only as its parent's
    data."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    mapped = config["package-dir"]
    found = {"arbiter"}
    for name, folder in mapped.items():
        if name == "arbiter":
            continue
        for held in [*(REPO / folder).rglob("__init__.py"), *(REPO / folder).rglob("*.yaml")]:
            rel = held.parent.relative_to(REPO / folder)
            found.add(".".join([name, *rel.parts]))
    assert sorted(config["packages"]) == sorted(found)

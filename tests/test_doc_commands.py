"""Every ``arbiter play`` command of README.md and the rules docs' code blocks runs as written
(a ``--seed 1`` added where it has none, so the run is the same each time): with no input it
plays to the end (status 0) or stops where a person would type (status 4), never a usage error.
They run in order in one folder, so the tour's ``--resume game.yaml`` finds the game its
``--transcript game.yaml`` began; the YAML blocks of a deck (``kind: deck``, ``kind: roles``)
are the files the commands name. Lines with ``...`` are sketches, not commands."""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

from tests.helpers import run

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs" / "rules").glob("*.md"))]


def _blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block."""
    return [(lang, textwrap.dedent(body))
            for lang, body in re.findall(r"^ *```(\w*)\n(.*?)^ *```", text, flags=re.S | re.M)]


def _commands(text: str) -> list[list[str]]:
    found = []
    for lang, body in _blocks(text):
        if lang not in ("", "sh"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            line = line.split("&&")[-1].strip()  # `pip install . && arbiter play ...`
            if line.startswith("arbiter play ") and "..." not in line:
                found.append(shlex.split(line, comments=True)[1:])
    return found


def test_the_docs_play_commands_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    commands = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for lang, body in _blocks(text):
            if lang == "yaml" and "kind: deck" in body:
                (tmp_path / "my-deck.yaml").write_text(body, encoding="utf-8")
            if lang == "yaml" and "kind: roles" in body:
                (tmp_path / "my-roles.yaml").write_text(body, encoding="utf-8")
        commands += [(doc.name, words) for words in _commands(text)]
    assert len(commands) >= 10
    for name, words in commands:
        if "--seed" not in words and "--resume" not in words:
            words = [*words, "--seed", "1"]
        r = run(*words, input="")
        assert r.exit_code in (0, 4), f"{name}: arbiter {' '.join(words)}: status {r.exit_code}\n{r.output[-2000:]}"


def test_the_magic_maze_rules_draw_the_board_they_name():
    """docs/rules/magic-maze.md draws a board, its symbols explained beside it, and says whose
    board it is: the start of scenario 1 with seed 2. It is that board as ``board`` draws it
    (the drawing's first 13 columns), so the page cannot drift from the program."""
    from arbiter.engine import registry
    from arbiter.engine.events import HOST
    from arbiter.engine.session import Session

    section = (ROOT / "docs" / "rules" / "magic-maze.md").read_text(encoding="utf-8").split("## The board", 1)[1]
    assert "`arbiter play magic-maze --scenario 1 --seed 2`" in section.split("```", 1)[0]
    drawing = [line[:13].rstrip() for line in next(body for lang, body in _blocks(section) if lang == "").splitlines()]
    board = Session(registry.get("magic-maze"), "1", seed=2).render(HOST).splitlines()
    assert drawing == [line.rstrip() for line in board[:len(drawing)]]
    assert board[len(drawing)].startswith("Magic Maze, scenario 1")  # the whole map: the status block follows


def test_a_match_is_resumed_as_a_tournament(tmp_path):
    """``arbiter match`` takes --resume only to point at ``arbiter tournament --resume``: its
    help does not offer an option that is always refused, and says how a match goes on."""
    help_text = run("match", "--help").output
    assert "--resume DIRECTORY" not in help_text
    assert "--resume DIRECTORY" in run("tournament", "--help").output
    assert "`arbiter tournament --resume DIR` goes on" in " ".join(help_text.split())
    r = run("match", "fbi-mafia", "a=random", "b=random", "--resume", tmp_path)
    assert r.exit_code == 2
    assert f"a match goes on as a tournament: arbiter tournament --resume {tmp_path}" in r.output

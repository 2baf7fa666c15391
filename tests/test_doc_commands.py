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


# Where each command's options are explained: a user reading these pages meets every option
# its --help lists (games and validate take none).
OPTION_DOCS = {
    "play": ["README.md", "docs/protocol.md", "docs/transcripts.md"],
    "replay": ["README.md", "docs/transcripts.md"],
    "show": ["README.md", "docs/transcripts.md"],
    "bench": ["README.md"],
    "tournament": ["docs/arena.md"],
    "match": ["docs/arena.md"],
}


def _options_of(command: str) -> list[list[str]]:
    """The long names of each option the command's --help lists (``--x/--no-x``: both)."""
    import importlib

    from arbiter.cli.main import COMMANDS

    cmd = getattr(importlib.import_module(COMMANDS[command][0]), command)
    return [[o for o in p.opts + p.secondary_opts if o.startswith("--")]
            for p in cmd.params if p.param_type_name == "option" and not p.hidden and "--help" not in p.opts]


def test_every_option_a_commands_help_lists_is_in_its_docs():
    from arbiter.cli.main import COMMANDS

    assert set(OPTION_DOCS) | {"games", "validate"} == set(COMMANDS)
    missing = []
    for command, pages in OPTION_DOCS.items():
        text = "\n".join((ROOT / page).read_text(encoding="utf-8") for page in pages)
        for names in _options_of(command):
            if not any(re.search(re.escape(name) + r"(?![\w-])", text) for name in names):
                missing.append(f"{command} {'/'.join(names)} (in none of {', '.join(pages)})")
    assert not missing, missing
    assert not _options_of("games") and not _options_of("validate")


def test_every_option_the_docs_name_is_a_commands():
    """An option named in README.md or docs/ (the tools' own aside) is one some command takes."""
    from arbiter.cli.main import COMMANDS

    taken = {name for command in COMMANDS for names in _options_of(command) for name in names} | {"--help"}
    tools = {"--check"}  # (python tools/goldens.py --check)
    named = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        named |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", doc.read_text(encoding="utf-8")))
    assert named - taken - tools == set()


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

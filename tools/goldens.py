#!/usr/bin/env python3
"""Write the golden transcripts of every game (``transcripts/GAME/*.yaml``): the one tool for it.

Each golden is one whole game written with ``engine.transcript.dump``, the canonical transcript
format, played by deterministic bots from a *recipe*. The recipes of every game are listed in
``tools/goldens.yaml``, one section per list (``fbi-mafia``, ``mafia``, ``magic-maze``,
``hidden-roles``). What each game's goldens must show between them, how a recipe is played and
how missing games are searched for is in ``tools/golden_games/`` (one module per game). When a
rules change breaks a recipe (a game no longer shows what it was chosen for), a deterministic
search replaces it and rewrites the recipes. After any intended rules change, one command:

    python tools/goldens.py                  # write every game's goldens (searching only if a recipe broke)
    python tools/goldens.py --check          # regenerate in memory, compare with the files, write nothing
    python tools/goldens.py mafia            # only the games named
    python tools/goldens.py --search GAME    # forget GAME's recipes and search afresh

Running it twice writes identical files. Review the diff after regenerating. ``--check`` exits
with 1 and names every stale, missing or extra file when the goldens are not what it writes;
the goldens are every ``*.yaml`` under ``transcripts/`` (``golden_files``: a sub-folder's, or a
folder's of no game, too), the files ``tests/test_goldens.py`` replays.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, Path(__file__).resolve().parent):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import yaml  # noqa: E402

from arbiter.engine.files import write_whole  # noqa: E402
from golden_games import GAMES  # noqa: E402

RECIPES = Path(__file__).resolve().with_name("goldens.yaml")
TRANSCRIPTS = ROOT / "transcripts"
HEADER = ("# The recipes of tools/goldens.py: the golden games of each game, one section per list.\n"
          "# Written by the tool's search when a recipe broke; review them like code.\n")


# ------------------------------------------------------------------------------------ recipes
def load_recipes() -> dict[str, Any]:
    """Every section of ``goldens.yaml`` (an absent file or section is empty)."""
    if not RECIPES.exists():
        return {}
    return yaml.safe_load(RECIPES.read_text(encoding="utf-8")) or {}


def flow(recipe: dict[str, Any]) -> str:
    """One recipe on one line: ``{scenario: '1', players: 2, bots: planner, seed: 1}``."""
    return yaml.safe_dump(recipe, default_flow_style=True, sort_keys=False, width=1 << 20).strip()


def recipes_text(doc: dict[str, Any]) -> str:
    lines = [HEADER.rstrip("\n")]
    for game in GAMES.values():
        for key, comment in game.SECTIONS.items():
            lines += [f"# {line}" if line else "#" for line in comment.splitlines()] + [f"{key}:"]
            section = doc.get(key) or []
            if isinstance(section, dict):  # per variant
                for variant, games in section.items():
                    lines.append(f"  {variant}:")
                    lines += [f"  - {flow(r)}" for r in games]
            else:
                lines += [f"- {flow(r)}" for r in section]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------ files
def label_of(out: Path) -> str:
    return str(out.relative_to(ROOT)) if out.is_relative_to(ROOT) else str(out)


def golden_files() -> list[Path]:
    """Every golden on disk, sorted: each file ``*.yaml`` under ``transcripts/``, in a game's
    folder, a sub-folder of one or a folder of no game (``tests/test_goldens.py`` replays these
    files, and ``--check`` names every one the generator did not make)."""
    return sorted(p for p in TRANSCRIPTS.rglob("*.yaml") if p.is_file())


def on_disk(out: Path) -> dict[str, str | None]:
    """The goldens in ``out``, sub-folders included: each one's path in ``out`` -> its text, or
    None for one that cannot be read as text (not UTF-8, no permission: ``unreadable``)."""
    return {p.relative_to(out).as_posix(): _text(p) for p in sorted(out.rglob("*.yaml")) if p.is_file()}


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def unreadable(path: Path) -> str:
    """Why the golden at ``path`` cannot be read as text."""
    try:
        path.read_bytes().decode("utf-8")
    except OSError as exc:
        return exc.strerror or str(exc)
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start + 1})"
    return "it changed while read"


def strays() -> list[str]:
    """Goldens outside every game's folder, which no generator makes or removes."""
    return [f"not made by the generator: {label_of(p)}" for p in golden_files()
            if p.relative_to(TRANSCRIPTS).parts[0] not in GAMES]


def compare(files: dict[str, str], out: Path) -> list[str]:
    """Differences between generated ``files`` (name -> text) and ``out``; empty when equal."""
    problems = []
    disk = on_disk(out)
    label = label_of(out)
    for name in sorted(set(files) | set(disk)):
        if name not in disk:
            problems.append(f"missing: {label}/{name}")
        elif name not in files:
            problems.append(f"not made by the generator: {label}/{name}")
        elif disk[name] is None:
            problems.append(f"cannot read it: {label}/{name}: {unreadable(out / name)}")
        elif files[name] != disk[name]:
            problems.append(f"differs: {label}/{name}")
    return problems


def write(files: dict[str, str], out: Path) -> None:
    """Make ``out`` hold exactly ``files``: remove the others, write what changed."""
    out.mkdir(parents=True, exist_ok=True)
    label = label_of(out)
    for name in sorted(set(on_disk(out)) - set(files)):
        (out / name).unlink()
        print(f"removed {label}/{name}")
    for name, text in sorted(files.items()):
        path = out / name
        if not path.exists() or _text(path) != text:
            write_whole(path, text)
            print(f"wrote {label}/{name}")
    total = sum(len(t.encode("utf-8")) for t in files.values())
    print(f"{label}: {len(files)} goldens, {total // 1024} KiB")


def out_of(game: str) -> Path:
    return TRANSCRIPTS / game


# ------------------------------------------------------------------------------------ the command
def check(games: list[str] | None = None) -> list[str]:
    """Regenerate ``games`` (default all) in memory: every way they differ from the files and
    every requirement the recipes no longer meet; empty when the goldens are up to date. With
    every game, a golden outside their folders is named too."""
    doc = load_recipes()
    problems = []
    games = games or list(GAMES)
    for name in games:
        files, missing = GAMES[name].generate(doc)
        problems += [f"{name}: {m}" for m in missing] + compare(files, out_of(name))
    return problems + (strays() if set(games) == set(GAMES) else [])


def regenerate(name: str, doc: dict[str, Any], afresh: bool) -> dict[str, Any]:
    """Write ``name``'s goldens; search new recipes into ``doc`` when some broke (or ``afresh``)."""
    game = GAMES[name]
    if afresh:
        doc = {**doc, **{key: None for key in game.SECTIONS}}
    files, missing = game.generate(doc)
    if missing:
        print(f"{name}: searching for {'; '.join(missing)}")
        doc = {**doc, **game.search(doc)}
        files, missing = game.generate(doc)
        if missing:
            raise SystemExit(f"{name}: the search left {missing}")
    write(files, out_of(name))
    return doc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"games to regenerate (default all: {', '.join(GAMES)})")
    parser.add_argument("--check", action="store_true",
                        help="regenerate in memory and compare with the files on disk; write nothing")
    parser.add_argument("--search", action="store_true", help="forget the named games' recipes and search afresh")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; the games are {', '.join(GAMES)}")
    if args.search and not args.games:
        parser.error("--search needs the games to search afresh, e.g. --search mafia")
    games = args.games or list(GAMES)
    if args.check:
        problems = check(games)
        for p in problems:
            print(p)
        if problems:
            made = [p for p in problems if not p.startswith("not made by the generator: ")]
            print("goldens are stale: run  python tools/goldens.py  and review the diff" if made else
                  "the goldens the generator makes are up to date; remove the files it does not make")
            return 1
        print(f"goldens up to date ({sum(len(on_disk(out_of(g))) for g in games)} files)")
        return 0
    doc = before = load_recipes()
    for name in games:
        doc = regenerate(name, doc, args.search)
    if doc != before or not RECIPES.exists():
        write_whole(RECIPES, recipes_text(doc))
        print(f"wrote {RECIPES.relative_to(ROOT)}")
    left = strays() if set(games) == set(GAMES) else []
    for line in left:
        print(f"{line} (left alone: remove it, or --check fails)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

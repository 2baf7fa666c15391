"""``arbiter replay`` and ``arbiter show``: transcripts re-run and looked at."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from arbiter.cli.common import EXIT_ERROR, echo_counted, explain, fail, interrupted, usage
from arbiter.cli.types import Count, ExistingPath
from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.errors import ArbiterError, UnknownSeatError, counted
from arbiter.engine.events import HOST
from arbiter.engine.files import files_under
from arbiter.engine.replays import FileCheck, check_files, default_workers


def _files(paths: tuple[str, ...]) -> tuple[list[Path], list[str]]:
    """The transcripts named: files, and every file ``*.yaml`` under a folder (``files_under``);
    and the folders that could not be looked into, each with why."""
    out: list[Path] = []
    unreadable: list[str] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            found, missed = files_under(p, (".yaml",))
            if not found and not missed:
                usage(f"{name}: no transcripts (*.yaml) in this folder", "FILES")
            out += found
            unreadable += missed
        else:
            out.append(p)
    return out, unreadable


@click.command()
@click.argument("files", nargs=-1, required=True, type=ExistingPath())
@click.option("--update", is_flag=True,
              help="Rewrite each file from the current rules (after an intended change), whole or not at all.")
@click.option("--diff/--no-diff", default=True, show_default=True,
              help="Show where a transcript diverges as a unified diff of its lines.")
@click.option("--workers", type=Count(min=1),
              help="Transcripts at once, each in a worker process (default: the machine's cores). "
                   "The report is the same with any number.")
def replay(files: tuple[str, ...], update: bool, diff: bool, workers: int | None) -> None:
    """Re-run transcripts (FILES: transcripts or folders of them) and report any divergence.

    Exit status 1 when one cannot be read, differs, or (--update) cannot be written."""
    paths, unreadable = _files(files)
    for missed in unreadable:  # (its transcripts unchecked: said, and the status says so)
        click.echo(f"FAIL {missed}")
    bad, checked = len(unreadable), [0]
    try:
        for found in check_files(paths, update=update, diff=diff, workers=workers or default_workers()):
            bad += not found.ok
            echo_counted(_report(found), checked)  # (the count is the lines reported, whenever Ctrl-C comes)
    except KeyboardInterrupt:
        interrupted(f"interrupted: {checked[0]} of {len(paths)} transcripts checked")
    except ArbiterError as exc:
        fail(exc.message)
    if bad:
        sys.exit(EXIT_ERROR)


def _unnamed(message: str, path: str) -> str:
    """A reader's message without the file's name it starts with (``PATH: ...``, ``PATH (line
    N): ...`` or ``PATH (line N on): ...``): the report's line names the file once."""
    if message.startswith(f"{path}: "):
        return message[len(path) + 2:]
    at = re.match(re.escape(path) + r" \((line \d+(?: on)?)\): ", message)
    return f"{at.group(1)}: {message[at.end():]}" if at else message


def _report(found: FileCheck) -> str:
    """What ``replay`` prints of one file: its lines, each ending in a newline."""
    if found.unreadable is not None:
        return f"FAIL {found.path}: {_unnamed(found.unreadable, str(found.path))}\n"
    lines = [f"note {note}" for note in found.notes]
    if found.problems:
        lines += [f"FAIL {found.path}:", *(f"  {problem}" for problem in found.problems)]
        return "\n".join(lines) + "\n" + "".join(found.diff)
    if found.unwritten is not None:
        lines.append(f"FAIL {found.path}: cannot write it: {found.unwritten}; the file is as it was")
    elif found.updated:
        lines.append(f"updated {found.path}: {counted(found.moves, 'move')}")
    elif found.unchanged:
        lines.append(f"unchanged {found.path}: {counted(found.moves, 'move')}, already as the current rules write it")
    else:
        if found.ending_written:
            state = "finished: " + found.result_text
        elif found.finished:
            state = f"finished: {found.result_text} (the transcript has no ending; the moves make it)"
        else:
            state = "unfinished (resumable)"
        lines.append(f"ok {found.path}: {counted(found.moves, 'move')}, {state}")
    return "\n".join(lines) + "\n"


@click.command()
@click.argument("file", required=False, type=ExistingPath(dir_okay=False))
@click.option("--seat", "--as", "seat", default=HOST, show_default=True, metavar="SEAT",
              help="Show the board as this seat saw it.")
@click.option("--at", "at", type=Count(min=0), help="After this many moves (default: the end).")
@click.option("--legend", is_flag=True,
              help="Explain the board's symbols: under FILE's board, or alone (no FILE) for every game "
                   "whose board has them.")
@click.option("--events", "story", is_flag=True,
              help="Instead of the board, tell the game to move N as SEAT's session was told it: the "
                   "protocol's answer to each move (its events, what is awaited).")
@click.option("--json/--no-json", "json_mode", default=False,
              help="With --events: one JSON object per answer, as the protocol's JSON mode writes them.")
def show(file: str | None, seat: str, at: int | None, legend: bool, story: bool, json_mode: bool) -> None:
    """Print the ASCII board of a transcript as SEAT saw it after move N,
    or (--events) the game as SEAT was told it.

    \b
    arbiter show game.yaml --seat p2 --at 10
    arbiter show game.yaml --seat p2 --events
    arbiter show --legend
    """
    try:
        if json_mode and not story:
            usage("--json is for --events (the board is text)", "--json")
        if legend and story:
            usage("--legend explains the board's symbols, and --events tells no board: ask for one of them", "--legend")
        if file is None:
            if not legend:
                usage("name a transcript FILE, or ask for --legend")
            if seat != HOST:  # (the legends are every game's, for no seat)
                usage("--as shows a FILE's board as a seat saw it; the legends alone are no one's", "--as")
            click.echo("\n\n".join(f"{r.title}\n{r.legend}" for r in registry.games() if r.legend))
            return
        t = tr.read(file)
        for note in t.notes:  # (a line cut off by a crash, ignored: said as ``replay`` says it)
            click.echo(f"note {note}", err=True)
        if at is not None and at > t.move_count:
            usage(f"{file} has {counted(t.move_count, 'move')}: there is no position after {at} (allowed: 0 to {t.move_count})",
                  "--at")
        # the board's position; for --events only the seats (the telling replays the game itself,
        # and says so first where it does not replay): the deal, before any move
        session = tr.replayed(t.until(0) if story else t if at is None else t.until(at))
        try:
            who = session.check_seat(seat.lower())
        except UnknownSeatError as exc:
            usage(explain(exc), "--seat")
        if story:
            from arbiter.engine.retell import retold  # (here: replay, in this module too, needs none of it)

            for told in retold(t if at is None else t.until(at), who, json_mode=json_mode):
                click.echo(told, nl=False)
            return
        board = session.render(who)
        click.echo(board)
        if legend and session.rules.legend and session.rules.legend not in board:  # (some boards end with it)
            click.echo(session.rules.legend)
        elif legend and not session.rules.legend:
            click.echo(f"({session.rules.title}'s board has no symbols to explain: it is written in words)")
    except ArbiterError as exc:
        fail(explain(exc))

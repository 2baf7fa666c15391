"""``arbiter replay`` and ``arbiter show``: transcripts re-run and looked at."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import click

from arbiter.cli.common import EXIT_ERROR, explain, fail, usage
from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.errors import ArbiterError, UnknownSeatError
from arbiter.engine.events import HOST
from arbiter.engine.files import write_whole


def _files(paths: tuple[str, ...]) -> list[Path]:
    """The transcripts named: files, and every ``*.yaml`` under a folder (sorted)."""
    out: list[Path] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            found = sorted(p.rglob("*.yaml"))
            if not found:
                usage(f"{name}: no transcripts (*.yaml) in this folder", "FILES")
            out += found
        else:
            out.append(p)
    return out


def _diff(path: Path, t: tr.Transcript, report: tr.ReplayReport) -> list[str]:
    """The transcript as recorded against the transcript the replay makes, as a unified diff."""
    if report.session is None:
        return []
    recorded = path.read_text(encoding="utf-8").splitlines(keepends=True)
    replayed = tr.dump(report.session, t.session).splitlines(keepends=True)
    return list(difflib.unified_diff(recorded, replayed, f"{path} (recorded)", f"{path} (replayed)", n=1))


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--update", is_flag=True,
              help="Rewrite each file from the current rules (after an intended change), whole or not at all.")
@click.option("--diff/--no-diff", default=True, show_default=True,
              help="Show where a transcript diverges as a unified diff of its lines.")
def replay(files: tuple[str, ...], update: bool, diff: bool) -> None:
    """Re-run transcripts (FILES: transcripts or folders of them) and report any divergence.

    Exit status 1 when one cannot be read, differs, or (--update) cannot be written."""
    bad = 0
    for path in _files(files):
        try:
            t = tr.read(path)
        except ArbiterError as exc:
            click.echo(f"FAIL {path}: {exc.message}")
            bad += 1
            continue
        report = tr.replay(t, update=update)
        for note in t.notes:
            click.echo(f"note {note}")
        if update and report.session is not None and report.ok:
            try:  # whole or not at all: a kill or a full disk meanwhile leaves the file as it was
                write_whole(path, tr.dump(report.session, t.session))
            except OSError as exc:
                click.echo(f"FAIL {path}: cannot write it: {exc.strerror or exc}; the file is as it was")
                bad += 1
                continue
            click.echo(f"updated {path}: {report.moves} moves")
        elif report.ok:
            result = report.session.state.result if report.session is not None else None
            if t.finished:
                state = "finished: " + (t.result or {}).get("text", "")
            elif result is not None:
                state = f"finished: {result.text} (the transcript has no ending; the moves make it)"
            else:
                state = "unfinished (resumable)"
            click.echo(f"ok {path}: {report.moves} moves, {state}")
        else:
            bad += 1
            click.echo(f"FAIL {path}:")
            for problem in report.problems:
                click.echo(f"  {problem}")
            if diff:
                click.echo("".join(_diff(path, t, report)), nl=False)
    if bad:
        sys.exit(EXIT_ERROR)


@click.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", default=HOST, show_default=True, metavar="SEAT", help="Show the board as this seat saw it.")
@click.option("--at", "at", type=click.IntRange(min=0), help="After this many moves (default: the end).")
@click.option("--legend", is_flag=True, help="Explain the board's symbols (of FILE's game, or of every game).")
def show(file: str | None, seat: str, at: int | None, legend: bool) -> None:
    """Print the ASCII board of a transcript as SEAT saw it after move N.

    \b
    arbiter show game.yaml --seat p2 --at 10
    arbiter show --legend
    """
    try:
        if file is None:
            if not legend:
                usage("name a transcript FILE, or ask for --legend")
            click.echo("\n\n".join(f"{r.title}\n{r.legend}" for r in registry.games() if r.legend))
            return
        t = tr.read(file)
        session = tr.replayed(t if at is None else t.until(at))
        try:
            who = session.check_seat(seat.lower())
        except UnknownSeatError as exc:
            usage(explain(exc), "--seat")
        click.echo(session.render(who))
        if legend and session.rules.legend:
            click.echo(session.rules.legend)
    except ArbiterError as exc:
        fail(explain(exc))

"""``arbiter games`` and ``arbiter validate``: what this version plays, and checking data.

``arbiter games`` prints rows written beforehand (``cli/listing.py``, by ``tools/make_listing.py``;
a test checks they are what the games say now), so it starts as fast as its libraries; the
engine is imported only by the functions that use it."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from tabulate import tabulate

from arbiter.cli.common import EXIT_ERROR, usage
from arbiter.cli.types import ExistingPath

WIDTHS = [11, 13, 24, 24]
"""Column widths of ``arbiter games``: with the gaps, 80 columns; longer cells wrap."""


def listing_rows() -> list[list[str]]:
    """The rows of ``arbiter games``, read from every game's rules and data."""
    from arbiter.engine import registry

    rows = []
    for rules in registry.games():
        for v in rules.variants():
            rows.append([rules.name, v.name, " ".join(v.seats), v.description])
        for extra in getattr(rules, "extra_listing", lambda: [])():
            rows.append([rules.name, *extra])
    return rows


@click.command()
def games() -> None:
    """List the games and their modes or scenarios (80 columns wide)."""
    from arbiter.cli.listing import (
        ROWS,  # listing_rows() as written by tools/make_listing.py: no game is loaded
    )

    click.echo(tabulate(ROWS, headers=["game", "mode", "seats", "description"], maxcolwidths=WIDTHS))


def _report(name: str, text: str) -> int:
    """Check one document and print its problems with their lines (``every_problem``); how many there were."""
    from arbiter.engine import registry
    from arbiter.engine.scenario import every_problem

    problems = every_problem(text, name, registry.validate_document)
    for exc in problems:
        where = f"{exc.source}:{exc.line}" if exc.line else exc.source
        path = exc.path if exc.path and not exc.path.startswith("line ") else ""
        click.echo(f"FAIL {where}: " + (f"{path}: " if path else "") + exc.problem)
    if not problems:
        click.echo(f"ok {name}")
    return len(problems)


@click.command()
@click.argument("path", required=False, type=ExistingPath())
def validate(path: str | None) -> None:
    """Check scenario YAML: the packaged data (no PATH), or a file or folder of YAML files,
    custom decks (`kind: deck`, `kind: roles`) among them.

    The problems of a file are named, each with its line and the path inside the file: one for
    each entry at fault (a card, a mode, a tile: fix it and run again for a second one in it),
    and none that only follows from another; exit status 1 when there is one."""
    from arbiter.engine import registry
    from arbiter.engine.errors import ScenarioError
    from arbiter.engine.files import files_under
    from arbiter.engine.scenario import packaged_files, packaged_text, read_file

    problems = 0
    if path is None:
        for rel in packaged_files():
            try:
                problems += _report(f"scenarios/{rel}", packaged_text(rel))
            except ScenarioError as exc:
                problems += 1
                click.echo(f"FAIL {exc.message}")
        for rules in registry.games():
            try:
                click.echo(f"ok {rules.name}: {len(rules.variants())} {rules.variant_label}s load and cross-check")
            except ScenarioError as exc:
                problems += 1
                click.echo(f"FAIL {exc.message}")
    else:
        p = Path(path)
        files, unreadable = files_under(p, (".yaml", ".yml")) if p.is_dir() else ([p], [])
        if not files and not unreadable:
            usage(f"{path}: no YAML files to check", "PATH")
        for missed in unreadable:  # (its files unchecked: said, and the status says so)
            problems += 1
            click.echo(f"FAIL {missed}")
        for f in files:
            try:
                problems += _report(str(f), read_file(f))
            except ScenarioError as exc:
                problems += 1
                click.echo(f"FAIL {exc.message}")
    if problems:
        sys.exit(EXIT_ERROR)

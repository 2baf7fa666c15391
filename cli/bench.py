"""``arbiter bench``: bot self-play for speed and results (a benchmark, never a test)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click
import tabulate as tabulating
from tabulate import tabulate

from arbiter.cli.common import SETUP_ERRORS, explain, fail, interrupted, setup_usage, usage
from arbiter.cli.types import BotKindType, Count, ExistingPath, GameType, SeedType, VariantType, check_variant
from arbiter.engine import registry
from arbiter.engine.bench import BenchResult, peak_memory_mib
from arbiter.engine.errors import counted, quoted
from arbiter.engine.session import MAX_SEED
from arbiter.engine.bench import bench as run_bench
from arbiter.engine.errors import ArbiterError

HEADERS = ["mode", "games", "games/s", "inputs/s", "ms/game", "inputs/game", "spread", "copy", "won"]
"""The first four columns are read by tools (the side-by-side speed harness): keep them."""


def _row(r: BenchResult) -> list[Any]:
    return [r.variant, r.games, f"{r.games_per_s:.1f}", f"{r.inputs_per_s:.0f}", f"{r.median_game_ms:.1f}",
            f"{r.median_inputs:.0f}", _figure(r.spread), _figure(r.median_copy_ms), f"{100 * _won(r) / r.games:.0f}%"]


def _figure(x: float) -> str:
    """A ratio or a time of the table in three figures (``4.49``, ``12.3``, ``127``; from 999.5 on,
    its whole units, ``1234``): the table keeps its width (80 columns) when a loaded machine makes
    a copy take 10 ms or more."""
    return f"{x:.2f}" if x < 9.995 else f"{x:.1f}" if x < 99.95 else f"{x:.0f}"


def _game_rows(rules: Any, results: list[BenchResult]) -> tuple[list[str], list[list[str]]]:
    """The second table, for a game that counts more than its winners (``Rules.bench_figures``:
    Hidden Roles' traitors caught, say): its headings and a row per mode, with the time per input."""
    rows = [[r.variant, *rules.bench_figures(r.tallies).values(),
             f"{1000 / r.inputs_per_s if r.inputs_per_s else 0:.2f}"] for r in results if r.tallies]
    headings = next((list(rules.bench_figures(r.tallies)) for r in results if r.tallies), [])
    return ["mode", *headings, "ms/input"], rows


def _won(r: BenchResult) -> int:
    return sum(v for k, v in r.wins.items() if k not in ("nobody", "unfinished"))


def _figures(r: BenchResult) -> dict[str, Any]:
    return {"variant": r.variant, "games": r.games, "inputs": r.inputs, "rounds_s": list(r.rounds_s),
            "seconds": r.seconds, "games_per_s": r.games_per_s, "inputs_per_s": r.inputs_per_s,
            "median_game_ms": r.median_game_ms, "median_inputs": r.median_inputs, "spread": r.spread,
            "median_copy_ms": r.median_copy_ms,
            "winners": dict(r.wins), "won": _won(r), **({"roles": dict(r.tallies)} if r.tallies else {})}


@click.command()
@click.argument("game", type=GameType())
@click.option("--mode", "--scenario", "variants", multiple=True, type=VariantType(), help="Only these modes (default: all).")
@click.option("--games", "count", type=Count(min=1), help="Games per mode (default: 50; Magic Maze 10).")
@click.option("--seed", type=SeedType(), default=1, show_default=True, help="Seed of the first game.")
@click.option("--repeat", "repeats", type=Count(min=1), default=3, show_default=True,
              help="Play the same games this many times; figures are the median round.")
@click.option("--players", type=Count(min=1),
              help="Players, for games set up by player count (Magic Maze: default 4).")
@click.option("--bots", "kind", type=BotKindType(), help="The built-in bot on every seat (default: the game's bench bot).")
@click.option("--roles", "level", type=Count(1, 5), metavar="LEVEL", help="Magic Maze: Hidden Roles at this level.")
@click.option("--deck", "deck_file", type=ExistingPath(dir_okay=False),
              help="A custom deck: Classic Mafia's cards (`kind: deck`) or Hidden Roles' (`kind: roles`).")
@click.option("--json", "json_mode", is_flag=True, help="Print one JSON object with every figure instead of the table.")
def bench(game: str, variants: tuple[str, ...], count: int | None, seed: int, repeats: int, players: int | None,
          kind: str | None, level: int | None, deck_file: str | None, json_mode: bool) -> None:
    """Bot self-play: games/s, inputs/s, medians, results, copies and peak memory.

    Every round plays the same games, so the spread (slowest round / fastest) shows how much
    the machine's noise moved the figures. Magic Maze plays its planner bots by default, so the
    'won' column is the planner's win rate. 'copy' is the median milliseconds to copy one of
    the first games as it ended (a search bot's trial, Game.copy). A progress bar shows on a terminal; Ctrl-C prints
    what was measured so far (exit status 130). Tournament throughput (workers, Ray, an exec:
    bot's cost per game): python tools/arena_bench.py (docs/arena.md)."""
    rules = registry.get(game)
    kind = kind or rules.info.bench_bot
    if kind not in rules.bot_kinds:
        usage(f"bench plays the game's built-in bots only ({', '.join(rules.bot_kinds)}), not {quoted(kind)}", "--bots")
    for v in variants:
        check_variant(rules, v)
    count = count or rules.info.bench_games
    if seed + count > MAX_SEED:  # (game i plays seed + i: the last one's must be a seed too)
        usage(f"each game plays the next seed (--seed, then --seed + 1, ...), and a seed has at most "
              f"{len(str(MAX_SEED)) - 1} digits: with {counted(count, 'game')} a mode, --seed is at most "
              f"10**100 - {count}", "--seed")
    players = players or rules.info.bench_players
    names = list(dict.fromkeys(variants)) or [v.name for v in rules.variants()]  # (a mode named twice: once)
    results: list[BenchResult] = []
    stopped = False
    progress = sys.stdout.isatty() and not json_mode
    try:
        setups = _setups(rules, names, bool(variants), players, level, deck_file)
    except SETUP_ERRORS as exc:
        setup_usage(exc)
    except ArbiterError as exc:  # a deck file that is not good data (status 1, as play says it)
        fail(explain(exc))
    try:
        with click.progressbar(length=len(setups) * count * repeats, label="playing", file=sys.stderr,
                               show_eta=True) if progress else _Nothing() as bar:
            for chosen, options in setups:
                results.append(run_bench(rules, chosen, count, seed, repeats, kind=kind, options=options,
                                         on_game=lambda: bar.update(1)))
    except ArbiterError as exc:
        fail(explain(exc))
    except KeyboardInterrupt:
        stopped = True
    if json_mode:
        click.echo(json.dumps({"game": game, "bots": kind, "repeats": repeats, "seed": seed,
                               "results": [{**_figures(r), "options": options}  # (the setup: players, level, a deck)
                                           for r, (_, options) in zip(results, setups)], "interrupted": stopped,
                               "peak_memory_mib": peak_memory_mib()}))
    else:
        tabulating.MIN_PADDING = 0  # columns as narrow as their cells: the table fits 80 columns
        click.echo(tabulate([_row(r) for r in results], headers=HEADERS, disable_numparse=True))
        for r in results:
            click.echo(f"winners of {r.variant}: " + ", ".join(f"{k} {v}" for k, v in r.wins.items()))
        headings, rows = _game_rows(rules, results)
        if rows:
            click.echo(rules.bench_legend(setups[0][1]))  # (the setups differ in their mode alone)
            click.echo(tabulate(rows, headers=headings, disable_numparse=True))
        click.echo(f"{kind} bots on every seat; median of {counted(repeats, 'round')} of the same games")
        click.echo(f"peak memory: {peak_memory_mib():.1f} MiB")
    if stopped:
        interrupted(f"interrupted: {len(results)} of {len(setups)} modes measured")


def _setups(rules: Any, names: list[str], named: bool, players: int | None, level: int | None,
            deck_file: str | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """The setups to bench: every mode named; none named, every mode that fits the players,
    level and deck given (Classic Mafia's 8 players: its 8-players mode; Magic Maze: every
    scenario). When none fits, the first mode's refusal says why."""
    if named or (players is None and level is None and deck_file is None):
        return [rules.choose_setup(name, players, deck_file, level) for name in names]
    fitting, first = [], None
    for name in names:
        try:
            fitting.append(rules.choose_setup(name, players, deck_file, level))
        except SETUP_ERRORS as exc:
            first = first or exc
    if not fitting and first is not None:
        raise first
    return fitting


class _Nothing:
    """A progress bar that shows nothing (output piped)."""

    def __enter__(self) -> _Nothing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int) -> None:
        pass

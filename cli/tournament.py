"""``arbiter tournament`` and ``arbiter match``: bots against bots over many fair games, with
tables of who is better and by how much (``engine.arena``; docs/arena.md)."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

import click
from click.shell_completion import CompletionItem

from arbiter.cli.common import explain, fail, interrupted, setup_usage, usage
from arbiter.cli.entry import output_gone, reader_gone
from arbiter.cli.types import (
    BotKindType, BotTimeout, Count, Decimal, ExistingPath, GameType, NewPath, SeedType, VariantType, check_variant,
)
from arbiter.engine import registry
from arbiter.engine.arena.config import check_configuration, check_sprt
from arbiter.engine.arena.schedule import MAX_ENTRANTS, MAX_GAMES, rounded_games
from arbiter.engine.arena.sprt import MAX_ELO
from arbiter.engine.errors import ArbiterError, ScenarioError
from arbiter.engine.scenario import deck_document


def _ray_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--ray``: an address of the forms Ray connects to (``engine.arena.pool.ray_endpoint``)."""
    if value is not None:
        from arbiter.engine.arena.pool import ray_endpoint

        try:
            ray_endpoint(value)
        except ArbiterError as exc:
            raise click.BadParameter(exc.message, param=param) from None
    return value


def _options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options ``tournament`` and ``match`` share. A match is resumed as a tournament
    (``arbiter tournament --resume DIR``): ``match`` takes ``--resume`` only to say so, and its
    help does not list it."""
    return lambda fn: _with_options(fn, hide_resume=command == "match")


def _with_options(fn: Callable[..., Any], hide_resume: bool) -> Callable[..., Any]:
    for option in reversed([
        click.option("--mode", "--scenario", "modes", multiple=True, type=VariantType(),
                     help="A mode to play; repeat for several (deals take them in turn). Default: the game's default."),
        click.option("--players", type=Count(min=1), help="Players, for games set up by player count."),
        click.option("--roles", type=Count(1, 5), metavar="LEVEL",
                     help="Magic Maze: Hidden Roles at this level (1 to 5), see docs/rules/hidden-roles.md."),
        click.option("--deck", type=ExistingPath(dir_okay=False),
                     help="A custom deck: Classic Mafia's cards (`kind: deck`) or Hidden Roles' (`kind: roles`); "
                          "kept in the tournament's folder."),
        click.option("--games", type=Count(min=1, max=MAX_GAMES), help=f"Games to play, at most {MAX_GAMES}, "
                     "rounded up to whole blocks (one game per entrant for each deal), which may pass "
                     f"{MAX_GAMES} (3 entrants: {rounded_games(MAX_GAMES, 3)}). Transcripts past game-99999 have "
                     "six digits (ls -v sorts them). Default for match: 100."),
        click.option("--workers", type=Count(min=1), help="Games at once, each in a worker process "
                     "(default: the machine's cores; with --ray, the cluster's CPUs)."),
        click.option("--out", type=NewPath(file_okay=False), help="A new or empty folder for the results "
                     "(default: arena/GAME-DATE-TIME)."),
        click.option("--resume", type=ExistingPath(file_okay=False), hidden=hide_resume,
                     help="Go on with the tournament in this folder: play only the games it has no result for."),
        click.option("--ray", "ray_address", metavar="ADDRESS", callback=_ray_address,
                     help="Play the games as Ray tasks on a cluster (HOST:PORT, ray://HOST:PORT or auto), "
                          "or on a new local Ray instance (local). Needs arbiter-referee[ray]."),
        click.option("--seed", type=SeedType(negative=True), help="The tournament's seed: it fixes every deal (default 1)."),
        click.option("--bot-timeout", type=BotTimeout(),
                     help="Seconds an exec: bot or a py: agent may take to answer (default 10)."),
        click.option("--reuse", is_flag=True, default=None, help="Keep each exec: bot process for its worker's next game "
                     "(it is told new-game), for bots slow to start."),
        click.option("--max-moves", type=Count(min=1), help="Stop a game after this many moves, unfinished "
                     "(default 20000)."),
        click.option("--sprt", nargs=2, type=Decimal(what="number of Elo points"), metavar="ELO0 ELO1", default=None,
                     help="Two entrants: stop once a sequential test decides whether the first is ELO0 (H0) or "
                          f"ELO1 (H1) Elo stronger than the second (ELO0 < ELO1, each from -{MAX_ELO} to {MAX_ELO})."),
        click.option("--alpha", type=Decimal(0, 0.5, min_open=True, max_open=True, what="probability"),
                     help="SPRT: the chance of accepting H1 when H0 holds (default 0.05)."),
        click.option("--beta", type=Decimal(0, 0.5, min_open=True, max_open=True, what="probability"),
                     help="SPRT: the chance of accepting H0 when H1 holds (default 0.05)."),
        click.option("--json", "json_mode", is_flag=True, help="Print every figure as one JSON object."),
    ]):
        fn = option(fn)
    return fn


_CONFIG_OPTIONS = ("modes", "players", "roles", "deck", "games", "seed", "bot_timeout", "reuse", "max_moves",
                   "sprt", "alpha", "beta", "out")


def _complete_spec(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """An entrant's spec: a bot of the game (``random``, ``sleuth``, ``exec:``...), named or not."""
    name, eq, kind = incomplete.rpartition("=")
    return [CompletionItem(name + eq + item.value) for item in BotKindType().shell_complete(ctx, param, kind)]


@click.command()
@click.argument("game", required=False, type=GameType())
@click.option("--entrant", "entrants", multiple=True, metavar="NAME=SPEC", shell_complete=_complete_spec,
              help="A bot: NAME=random (a built-in kind), NAME=exec:COMMAND or NAME=py:MODULE:CLASS. Two or more "
                   f"(at most {MAX_ENTRANTS}: the report compares every pair).")
@_options("tournament")
@click.pass_context
def tournament(ctx: click.Context, game: str | None, entrants: tuple[str, ...], **options: Any) -> None:
    """Bots against bots: many games, every entrant on every seat of every deal.

    \b
    arbiter tournament mafia --players 8 --entrant a=random --entrant b=sleuth \\
        --games 200
    arbiter tournament fbi-mafia --mode duel-3v3 --entrant me=exec:./mybot \\
        --entrant base=random --games 400 --workers 4 --out runs/me-vs-base
    arbiter tournament --resume runs/me-vs-base

    Each deal (a seed: the same cards, board, identities) is played once per entrant, the
    entrants rotated over the seats, so each plays every seat of it; results go to
    DIR/results.jsonl as each game ends, with every transcript in DIR/transcripts. Prints
    win rates with 95% intervals, by side and by role, forfeits, OpenSkill ratings and
    head-to-head counts (docs/arena.md). Exit status: 0 done, 1 an error, 2 a usage error,
    130 interrupted (--resume DIR goes on), 141 the report's reader went away (| head;
    the results are kept).
    """
    _run(ctx, game, entrants, options, default_games=None)


@click.command()
@click.argument("game", type=GameType())
@click.argument("first", metavar="A=SPEC", shell_complete=_complete_spec)
@click.argument("second", metavar="B=SPEC", shell_complete=_complete_spec)
@_options("match")
@click.pass_context
def match(ctx: click.Context, game: str, first: str, second: str, **options: Any) -> None:
    """Two bots: `arbiter tournament GAME --entrant A=SPEC --entrant B=SPEC`, 100 games by default.

    \b
    arbiter match mafia --players 8 random sleuth --games 200
    arbiter match fbi-mafia --mode duel-3v3 new=exec:./bot base=exec:./old \\
        --sprt 0 20

    With --sprt ELO0 ELO1 the match stops as soon as the test accepts a hypothesis about A
    against B. Exit status as for tournament; after a crash or Ctrl-C, `arbiter tournament
    --resume DIR` goes on with the match in its folder DIR.
    """
    _run(ctx, game, (first, second), options, default_games=100)


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _run(ctx: click.Context, game: str | None, entrant_texts: tuple[str, ...], o: dict[str, Any],
         default_games: int | None) -> None:
    from arbiter.engine.arena.entrants import parse_entrant
    from arbiter.engine.arena.results import CONFIG, FORMAT, Folder
    from arbiter.engine.arena.sprt import Sprt
    from arbiter.engine.arena.tournament import Tournament, configuration, folder_for

    resume = o["resume"]
    folder: Folder | None = None  # the folder this run holds (locked), once it has one
    try:
        if resume and ctx.command.name == "match":
            usage(f"a match goes on as a tournament: arbiter tournament --resume {resume}")
        if resume:
            clash = [n for n in _CONFIG_OPTIONS if _given(ctx, n)]
            if ctx.command.name == "tournament" and entrant_texts:
                clash.append("entrant")
            if clash:
                usage(f"--resume {resume}: the tournament's settings are in its tournament.json; leave out "
                      + ", ".join("--" + c.replace("_", "-") for c in clash))
            folder, config = Folder.existing(resume)
            check_configuration(config, folder.path / CONFIG)  # refused: the folder is freed below
            if game is not None and game != config["game"]:
                usage(f"--resume {resume}: it is a tournament of {config['game']}, not {game}")
            t = Tournament(config)
            if why := t.cannot_go_on_here(folder):  # (refused: the folder is freed below, as above)
                raise ArbiterError(f"{folder.path / CONFIG}: {why}")
            pool = _pool(t, folder.path, o)  # refused (Ray): the folder is freed below, nothing in it changed
        else:
            if game is None:
                usage("name a game (see `arbiter games`) or --resume a tournament's folder")
            rules = registry.get(game)
            for m in o["modes"]:
                check_variant(rules, m)
            if o["players"] is not None:
                _check_players(rules, o["players"])
            if o["deck"] is not None and rules.info.deck_kind is None:  # before the file is read, as play does
                try:
                    rules.choose_setup(None, None, o["deck"])
                except ArbiterError as exc:
                    setup_usage(exc)
            games = o["games"] or default_games
            if games is None:
                usage("how many games? --games N", "--games")
            try:
                entrants = [parse_entrant(t, rules.bot_kinds) for t in entrant_texts]
            except ArbiterError as exc:
                usage(exc.message, "--entrant" if ctx.command.name == "tournament" else None)
            sprt = None
            if o["sprt"] is not None:
                try:
                    sprt = Sprt(o["sprt"][0], o["sprt"][1], o["alpha"] or 0.05, o["beta"] or 0.05)
                    check_sprt(sprt, len(entrants))  # an error of --sprt, not of the entrants
                except ArbiterError as exc:
                    usage(exc.message, "--sprt")
            elif o["alpha"] is not None or o["beta"] is not None:
                usage("--alpha and --beta belong to --sprt")
            try:
                config = configuration(game, entrants, games, modes=tuple(o["modes"]), players=o["players"],
                                       roles=o["roles"], deck=None if o["deck"] is None else deck_document(o["deck"]),
                                       seed=1 if o["seed"] is None else o["seed"],
                                       bot_timeout=10.0 if o["bot_timeout"] is None else o["bot_timeout"],
                                       reuse=bool(o["reuse"]), max_moves=o["max_moves"] or 20_000, sprt=sprt,
                                       cwd=os.getcwd())
            except ScenarioError as exc:  # a deck file that is not good data (status 1, as play says it)
                fail(explain(exc))
            except ArbiterError as exc:
                setup_usage(exc)
            t = Tournament({"format": FORMAT, **config})
            path = folder_for(game, o["out"])
            pool = _pool(t, path, o)  # first: a pool that cannot start (Ray) leaves no folder behind
            try:
                folder = Folder.create(path, config)
            except BaseException:
                pool.close(cancel=True)
                raise
            config = {"format": FORMAT, **config}
        _play(t, folder, pool, config, o)
    except ArbiterError as exc:
        fail(explain(exc))
    finally:  # however the run ends (done, refused, interrupted), the folder is free for the next
        if folder is not None:
            folder.unlock()


def _check_players(rules: Any, players: int) -> None:
    """``--players``: a count the game is set up by, else a usage error of ``--players`` naming
    the count given and those allowed (the game's own check, ``choose_setup``)."""
    if rules.info.players is None:
        usage(f"{rules.title} is not set up by player count: leave out --players {players} (a "
              f"{rules.variant_label} fixes the seats: {', '.join(v.name for v in rules.variants())})", "--players")
    try:
        rules.choose_setup(None, players)
    except ArbiterError as exc:
        usage(explain(exc), "--players")


def _play(t: Any, folder: Any, pool: Any, config: dict[str, Any], o: dict[str, Any]) -> None:
    from arbiter.engine.arena import report
    from arbiter.engine.arena.pool import WorkerFailed  # (imported with the pool already)

    show = sys.stdout.isatty() and not o["json_mode"]
    requested = config["games"]
    note = "" if requested == len(t.games) else f" ({requested} asked, rounded up to whole blocks of {t.block})"
    if not o["json_mode"]:
        deck, level = config.get("deck"), config.get("roles")
        setup = (f", Hidden Roles level {level}" if level else "") + (
            f", custom deck {deck.get('title') or 'without a title'}" if deck else "")
        _aside(f"# {t.rules.title}{setup}: {len(t.games)} games{note}; {_entrants(t.entrants)}; "
               f"results in {folder.path}")
    bar = _Bar(show)
    try:
        outcome = t.run(folder, pool, on_progress=bar.update)
    except WorkerFailed as exc:  # not a bot's failure (a forfeit): the games recorded stay
        fail(f"{explain(exc)}; every game recorded is kept: " + ("go on with" if exc.killed else
             "once what failed is mended, go on with") + f": arbiter tournament --resume {folder.path}")
    except KeyboardInterrupt:  # a second Ctrl-C, while the first one's stop waited for the workers
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:  # the rest of that wait (at most STOP_GRACE_S; a pool's close may come twice): killed
            pool.close(cancel=True)  # with this process instead, a worker would leave its bots' children
        finally:  # that left their group running
            signal.signal(signal.SIGINT, previous)
        interrupted(f"interrupted; go on with: arbiter tournament --resume {folder.path}")
    finally:
        bar.close()
    for line in _accounted(outcome):
        _aside(line)
    try:  # (a Ctrl-C here: the games are all in the folder, and the report is read from it again)
        summary = report.summary(config, outcome.records, len(t.games), outcome.sprt)
        summary.update({"folder": str(folder.path), "requested": requested,  # (the games asked: scheduled, rounded up)
                        "played": outcome.played, "seconds": round(outcome.elapsed, 3),
                        "games_per_s": outcome.played / outcome.elapsed if outcome.elapsed > 0 else None,
                        "workers": pool.workers, "interrupted": outcome.interrupted,
                        "from_transcripts": len(outcome.recovered)})
        text = json.dumps(summary) if o["json_mode"] else report.tables(summary)
    except KeyboardInterrupt:
        interrupted(f"interrupted before the report; every game played is recorded in {folder.path}: arbiter "
                    f"tournament --resume {folder.path} {'goes on' if outcome.interrupted else 'prints the report'}")
    try:
        click.echo(text)
        if not o["json_mode"]:
            rate = f", {summary['games_per_s']:.1f} games/s" if summary["games_per_s"] else ""
            decided = not outcome.played and not outcome.interrupted and (outcome.sprt or {}).get("result")
            got = f"{len(outcome.recovered)} from their transcripts, " if outcome.recovered else ""
            click.echo(f"{len(outcome.records)} of {len(t.games)} games recorded; {got}{outcome.played} played by "
                       f"this run{', as the SPRT had decided' if decided else ''}\nin {outcome.elapsed:.1f} s{rate} "
                       f"({pool.workers} worker{'s' * (pool.workers != 1)})")
    except OSError as exc:  # the output a full disk or a closed pipe refused: the results are safe in the folder
        message = (f"cannot write the report: {exc.strerror or exc}; every result is in {folder.path}, and "
                   f"arbiter tournament --resume {folder.path} prints the report again")
        if isinstance(exc, BrokenPipeError) and output_gone():  # (| head): said on stderr, status 141
            _aside(message)
            reader_gone()
        fail(message)
    if outcome.interrupted:
        interrupted(f"interrupted; go on with: arbiter tournament --resume {folder.path}")


ENTRANTS_SHOWN = 6
"""The most entrants the run's first line names; of more, it names the first few and counts
the others (500 entrants' specs made a line of 6,000 to 9,000 characters)."""


def _entrants(entrants: list[Any]) -> str:
    """The entrants as the run's first line gives them: each ``NAME=SPEC``, or past
    ``ENTRANTS_SHOWN`` their count, the first few and how many more (the folder's
    ``tournament.json`` lists them all).

    >>> from types import SimpleNamespace as E
    >>> _entrants([E(name="a", spec="random"), E(name="b", spec="sleuth")])
    'entrants a=random, b=sleuth'
    >>> _entrants([E(name=f"e{i}", spec="random") for i in range(1, 501)])
    '500 entrants: e1=random, e2=random, e3=random, e4=random, e5=random and 495 more (tournament.json lists them)'
    """
    from arbiter.engine.arena.results import CONFIG

    named = _first_few([f"{e.name}={e.spec}" for e in entrants], ENTRANTS_SHOWN)
    return f"entrants {named}" if len(entrants) <= ENTRANTS_SHOWN else \
        f"{len(entrants)} entrants: {named} ({CONFIG} lists them)"


def _first_few(names: list[str], most: int) -> str:
    """``names`` joined, or past ``most`` of them the first ``most - 1`` and how many more (a line
    names a few of many, and counts the rest).

    >>> _first_few(["a", "b", "c"], 3), _first_few(["a", "b", "c", "d"], 3)
    ('a, b, c', 'a, b and 2 more')
    """
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most - 1])} and {len(names) - most + 1} more"


GAMES_SHOWN = 10
"""The most games the line of those recorded from their transcripts names; of more, it names
the first few and counts the others (a results file lost whole, its 20,000 games recorded
again from their transcripts, made a line of 140,000 characters)."""


def _accounted(outcome: Any) -> list[str]:
    """What the run said of the transcripts of games a stopped run left without a record
    (``Tournament._account``): those recorded from their transcripts as it started (none is
    played again; past ``GAMES_SHOWN``, the first few and how many more), and each one left as
    it is past the SPRT's decision, with why.

    >>> from types import SimpleNamespace as O
    >>> _accounted(O(recovered=list(range(4, 30)), unrecorded=[]))[0][:80]
    '# games 4, 5, 6, 7, 8, 9, 10, 11, 12 and 17 more ended without their records (a '
    """
    lines = []
    if games := outcome.recovered:
        one = len(games) == 1
        its, it, they = ("its", "it", "it") if one else ("their", "them", "they")
        named = _first_few([str(n) for n in games], GAMES_SHOWN)
        lines.append(f"# game{'s' * (not one)} {named} ended without {its} record{'s' * (not one)} "
                     f"(a run stopped before writing {it}): recorded now from {its} transcript{'s' * (not one)}, "
                     f"without the seconds {they} took or the names exec: programs gave (a transcript holds neither)")
    for game, why in outcome.unrecorded:
        lines.append(f"# game {game} has no record, and no run plays it again (past the SPRT's decision): {why}; "
                     "its transcript is left as it is")
    return lines


def _pool(t: Any, path: Any, o: dict[str, Any]) -> Any:
    """The run's workers, for the tournament's folder ``path`` (made before the folder is, so
    a pool that cannot start leaves nothing behind; a local pool starts its workers with the
    first game): no more than the tournament has games, local or on Ray (``worker_count``)."""
    from arbiter.engine.arena.pool import LocalPool, RayPool, worker_count

    if o["ray_address"] is not None:
        return RayPool(t.settings, o["workers"], o["ray_address"], len(t.games))
    return LocalPool(t.settings, worker_count(o["workers"] or os.cpu_count() or 1, len(t.games)), path)


def _aside(text: str, nl: bool = True) -> None:
    """A line on stderr beside the run (its heading, the progress bar): decoration, so a stderr
    that refuses it (``2>/dev/full``, a full disk, a reader gone) stops nothing: the games are
    played and recorded, the report printed, with the run's usual status. At the first refusal
    stderr is pointed at the null device, where the workers, started after the heading, write
    too: a ``py:`` agent's prints go to stderr, and refused they were its exception, a forfeit."""
    try:
        click.echo(text, nl=nl, err=True)
    except (OSError, ValueError):  # ValueError: stderr closed
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stderr.fileno())
            os.close(null)
        except (AttributeError, OSError, ValueError):  # no stderr at all: nothing will be written to it
            pass


class _Bar:
    """One line on stderr: games done, games/s, ETA and the leader (on a terminal only)."""

    def __init__(self, show: bool) -> None:
        self.show = show
        self._last = 0.0
        self._drawn = False

    def update(self, p: Any) -> None:
        now = time.monotonic()
        if not self.show or (now - self._last < 0.1 and p.done < p.total):
            return
        self._last = now
        width = 20
        filled = width * p.done // max(1, p.total)
        eta = "--:--" if p.eta is None else time.strftime("%M:%S", time.gmtime(p.eta)) if p.eta < 3600 else f"{p.eta / 3600:.1f} h"
        leader = f"  leader {p.leader[0][:16]} {100 * p.leader[1]:.0f}%" if p.leader else ""
        line = f"[{'#' * filled}{'.' * (width - filled)}] {p.done}/{p.total}  {p.rate:.1f} games/s  ETA {eta}{leader}"
        _aside("\r" + line[:79].ljust(79), nl=False)
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            _aside("")

"""The ``arbiter`` command. Thin: each command parses options, calls the engine, prints."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO

import click
from tabulate import tabulate

from engine import registry
from engine import transcript as tr
from engine.bench import bench as run_bench
from engine.bench import peak_memory_mib
from engine.bots import Bot, make_bot
from engine.errors import ArbiterError, ScenarioError
from engine.events import HOST
from engine.lines import LineReader
from engine.match import Match
from engine.protocol import Protocol
from engine.scenario import load_file, load_packaged, packaged_files
from engine.session import Session


def fail(message: str) -> None:
    raise click.ClickException(message)


def explain(exc: ArbiterError) -> str:
    """An engine error as one message, with what is allowed when the engine says."""
    if not exc.allowed:
        return exc.message
    return f"{exc.message} (allowed: {', '.join(exc.allowed)})"


def _finite(param: click.Parameter, value: float) -> float:
    if value != value:  # NaN passes range checks
        raise click.BadParameter("must be a number of seconds", param=param)
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arbiter")
def main() -> None:
    """arbiter: a referee for tabletop hidden-role games.

    Moves are text lines (docs/protocol.md); every game can be recorded as a transcript that
    replays exactly.
    """
    for stream in (sys.stdout, sys.stderr):  # the protocol's output is UTF-8, whatever the locale
        if getattr(stream, "encoding", "utf-8").lower().replace("-", "") != "utf8":
            try:
                stream.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
            except (AttributeError, ValueError):
                pass


@main.command()
def games() -> None:
    """List the games and their modes or scenarios."""
    rows = []
    for rules in registry.games():
        for v in rules.variants():
            rows.append([rules.name, v.name, " ".join(v.seats), v.description])
    click.echo(tabulate(rows, headers=["game", "mode", "seats", "description"]))


def _bot_specs(specs: tuple[str, ...], all_bots: str | None, seats: tuple[str, ...], person: str | None,
               recorded: dict[str, str] | None = None) -> dict[str, str]:
    """Which seat each bot plays: the recorded bots of a resumed game, then ``--bots KIND`` on
    every seat but the person's, then each ``--bot SEAT=KIND``."""
    wanted: dict[str, str] = dict(recorded or {})
    if all_bots:
        wanted.update({s: all_bots for s in seats if s != person})
    for spec in specs:
        seat, sep, kind = spec.partition("=")
        seat = seat.strip().lower()
        if not sep or not kind.strip():
            fail(f"--bot {spec!r}: expected SEAT=random or SEAT=exec:COMMAND")
        if seat not in seats:
            fail(f"--bot {spec!r}: no seat {seat!r}; seats: {', '.join(seats)}")
        wanted[seat] = kind.strip()
    return {s: wanted[s] for s in seats if s in wanted}


def _start_bots(wanted: dict[str, str], session: Session, timeout: float, logs: Path | None) -> dict[str, Bot]:
    bots: dict[str, Bot] = {}
    try:
        for seat, kind in wanted.items():
            log = logs.with_name(f"{logs.stem}.{seat}.stderr.log") if logs is not None and kind.startswith("exec:") else None
            bots[seat] = make_bot(kind, seat, session.seed, timeout, session.rules.bot_kinds, log=log)
    except ArbiterError:
        for bot in bots.values():
            bot.close()
        raise
    return bots


def _check_resumed(t: tr.Transcript, game: str | None, variant: str | None, players: int | None,
                   deck_file: str | None, seed: int | None, transcript_path: str | None, resume: str) -> None:
    """Refuse options that contradict the game a transcript records (they cannot apply)."""
    wrong = []
    if game is not None and game != t.game:
        wrong.append(f"it is a game of {t.game}, not {game}")
    if seed is not None and seed != t.seed:
        wrong.append(f"its seed is {t.seed}, not {seed}")
    if variant is not None and variant != t.variant:
        wrong.append(f"its mode is {t.variant}, not {variant}")
    recorded_players = t.options.get("players", len(t.seats))
    if players is not None and players != recorded_players:
        wrong.append(f"it has {recorded_players} players, not {players}")
    if deck_file is not None:
        rules = registry.get(t.game)
        if rules.choose_setup(t.variant, None, deck_file)[1].get("deck") != t.options.get("deck"):
            wrong.append(f"its deck is not the deck of {deck_file}")
    if transcript_path is not None and Path(transcript_path).resolve() != Path(resume).resolve():
        wrong.append("a resumed game goes on in its own transcript (leave out --transcript)")
    if wrong:
        raise click.UsageError(f"--resume {resume}: " + "; ".join(wrong))


@main.command()
@click.argument("game", required=False)
@click.option("--mode", "--scenario", "variant", help="The mode or scenario (see `arbiter games`).")
@click.option("--players", type=click.IntRange(min=1), help="Number of players, for games set up by it (Classic Mafia: the default deck for N).")
@click.option("--deck", "deck_file", type=click.Path(exists=True, dir_okay=False),
              help="A custom deck of cards (Classic Mafia; YAML `kind: deck`, see docs/rules/mafia.md).")
@click.option("--seed", type=int, help="Seed of the game's random generator (chosen and recorded when absent).")
@click.option("--moves", "moves", type=click.File("rb"),
              help="Read input lines from FILE ('-' for stdin) instead of the terminal.")
@click.option("--transcript", "transcript_path", type=click.Path(dir_okay=False),
              help="Write the transcript to this new file as the game goes.")
@click.option("--force", is_flag=True, help="Let --transcript replace a file that exists.")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False),
              help="Continue the unfinished game in this transcript (appends to it), as it was played: "
                   "same seat, same bots, unless you say otherwise.")
@click.option("--bot", "bot_specs", multiple=True, metavar="SEAT=KIND",
              help="Let a bot play SEAT: random (planner: Magic Maze), or exec:COMMAND for a program. Repeatable.")
@click.option("--bots", "all_bots", metavar="KIND",
              help="A built-in bot on every seat but yours (--as): random, or planner (Magic Maze).")
@click.option("--bot-timeout", type=click.FloatRange(min=0.01, max=3600.0),
              callback=lambda ctx, param, value: value if value is None else _finite(param, value),
              help="Seconds an external bot may take to answer (0.01 to 3600; default 10).")
@click.option("--max-moves", type=click.IntRange(min=1), help="Stop after this many moves (the transcript stays resumable).")
@click.option("--realtime/--no-realtime", default=None,
              help="Stamp every typed line with the wall clock (seconds since the start), for real-time games.")
@click.option("--as", "as_seat", metavar="SEAT", help="Play as this seat: see only what it may know.")
@click.option("--json/--no-json", "json_mode", default=None, help="Answer every line with one JSON object.")
def play(game: str | None, variant: str | None, players: int | None, deck_file: str | None,
         seed: int | None, moves: IO[bytes] | None, transcript_path: str | None, force: bool,
         resume: str | None, bot_specs: tuple[str, ...], all_bots: str | None, bot_timeout: float | None,
         max_moves: int | None, realtime: bool | None, as_seat: str | None, json_mode: bool | None) -> None:
    """Play GAME: moves come from the terminal, a file or bots; answers go to stdout.

    \b
    arbiter play fbi-mafia --bots random --seed 1
    arbiter play fbi-mafia --mode duel-3v3 --bot mafia=random --as fbi
    arbiter play mafia --players 8 --bots random --seed 3
    """
    writer = None
    bots: dict[str, Bot] = {}
    try:
        recorded: dict[str, object] = {}
        if resume:
            t, session = tr.resume(resume)
            _check_resumed(t, game, variant, players, deck_file, seed, transcript_path, resume)
            recorded = t.settings()
            was = recorded.get("as")
            if as_seat is not None and as_seat.lower() != (was or HOST):
                raise click.UsageError(
                    f"--resume {resume}: this game was played as {was or 'the host (no --as)'}; a resumed "
                    f"session keeps its seat (`arbiter show {resume}` shows the whole board)")
            as_seat = str(was) if was else None
        else:
            if not game:
                fail("name a game (see `arbiter games`) or --resume a transcript")
            rules = registry.get(game)
            chosen, options = rules.choose_setup(variant, players, deck_file)
            session = Session(rules, chosen, seed=seed, options=options)
        perspective = session.check_seat(as_seat.lower()) if as_seat else HOST
        json_mode = bool(recorded.get("json", False)) if json_mode is None else json_mode
        realtime = bool(recorded.get("realtime", False)) if realtime is None else realtime
        bot_timeout = float(recorded.get("bot_timeout", 10.0)) if bot_timeout is None else bot_timeout  # type: ignore[arg-type]
        person = perspective if perspective != HOST else None
        wanted = _bot_specs(bot_specs, all_bots, session.seats, person, recorded.get("bots"))  # type: ignore[arg-type]
        if person in wanted:
            fail(f"--as {as_seat}: that seat is played by a bot")
        settings = {"as": person, "bots": wanted, "json": json_mode, "realtime": realtime, "bot_timeout": bot_timeout}
        log_base = Path(resume or transcript_path) if (resume or transcript_path) else None
        if resume:
            writer = tr.TranscriptWriter(resume, session, resume=len(t.log))
            if settings != {k: recorded.get(k) for k in settings}:
                session.note({"session": settings})
        elif transcript_path:
            if Path(transcript_path).exists() and not force:
                raise click.UsageError(
                    f"--transcript {transcript_path}: the file exists; to go on with its game use "
                    f"`arbiter play --resume {transcript_path}`, to replace it add --force")
            writer = tr.TranscriptWriter(transcript_path, session, overwrite=force, settings=settings)
        protocol = Protocol(session, perspective, json_mode=json_mode)
        bots = _start_bots(wanted, session, bot_timeout, log_base)
        if moves is not None:
            lines: LineReader | None = LineReader(moves)
        elif len(bots) == len(session.seats) or session.over:
            lines = None
        else:
            lines = LineReader(click.get_binary_stream("stdin"))
        if json_mode:
            click.echo(protocol.opening().json(), nl=False)
        else:
            click.echo(f"# {session.rules.title}, {session.variant.title}, seed {session.seed}; "
                       f"seats: {' '.join(session.seats)}" + (f"; you are {perspective}" if as_seat else ""))
            if not session.moves:
                for event in session.events.visible_to(perspective):
                    click.echo(f"# event: {event.text}")
            if lines is not None and not session.over:
                if session.state.realtime:  # no turns to wait for: show the board straight away
                    for line in session.render(perspective).splitlines():
                        click.echo(f"# {line}")
                click.echo("# one command per line; `help` lists them, `board` shows the board")
                for a in session.state.awaiting_seen_by(perspective):
                    click.echo(f"# awaiting: {a.seat} {a.kind}: {a.hint}")
        if resume and session.over and not json_mode:
            click.echo(f"# the moves of {resume} had already ended the game; its ending is written again")
        match = Match(protocol, bots, lines, max_moves=max_moves, realtime=realtime)
        for out in match.run():
            click.echo(out, nl=False)
        if match.stopped and not json_mode:
            click.echo(f"# stopped after {len(session.moves)} moves (--max-moves)"
                       + (f"; resume with: arbiter play --resume {writer.path}" if writer else ""))
        if session.over and not json_mode:
            click.echo(protocol.handle("board") or "", nl=False)
    except ArbiterError as exc:
        fail(explain(exc))
    except KeyboardInterrupt:
        click.echo("\ninterrupted" + (f"; the transcript {writer.path} can be resumed" if writer else ""), err=True)
        sys.exit(130)
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly
        sys.stderr.close()
        sys.exit(0)
    finally:
        for bot in bots.values():
            bot.close()
        if writer is not None:
            writer.close()


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--update", is_flag=True, help="Rewrite each file from the current rules (after an intended change).")
def replay(files: tuple[str, ...], update: bool) -> None:
    """Re-run transcripts and report any divergence (exit status 1 when one differs)."""
    bad = 0
    for path in files:
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
            Path(path).write_text(tr.dump(report.session), encoding="utf-8")
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
    if bad:
        sys.exit(1)


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", default=HOST, show_default=True, help="Show the board as this seat saw it.")
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
                fail("name a transcript FILE, or ask for --legend")
            click.echo("\n\n".join(f"{r.title}\n{r.legend}" for r in registry.games() if r.legend))
            return
        t = tr.read(file)
        session = tr.replayed(t if at is None else t.until(at))
        click.echo(session.render(session.check_seat(seat.lower())))
        if legend and session.rules.legend:
            click.echo(session.rules.legend)
    except ArbiterError as exc:
        fail(explain(exc))


@main.command()
@click.argument("path", required=False, type=click.Path(exists=True))
def validate(path: str | None) -> None:
    """Check scenario YAML: the packaged data (no PATH), or a file or folder of YAML files."""
    problems = 0
    if path is None:
        sources = [(f"scenarios/{rel}", lambda rel=rel: load_packaged(rel)) for rel in packaged_files()]
    else:
        p = Path(path)
        files = sorted(p.rglob("*.y*ml")) if p.is_dir() else [p]
        sources = [(str(f), lambda f=f: load_file(f)) for f in files]
        if not sources:
            fail(f"{path}: no YAML files to check")
    for name, load in sources:
        try:
            registry.validate_document(load())
            click.echo(f"ok {name}")
        except ScenarioError as exc:
            problems += 1
            click.echo(f"FAIL {exc.message}")
    if path is None:
        for rules in registry.games():
            try:
                click.echo(f"ok {rules.name}: {len(rules.variants())} {rules.variant_label}s load and cross-check")
            except ScenarioError as exc:
                problems += 1
                click.echo(f"FAIL {exc.message}")
    if problems:
        sys.exit(1)


@main.command()
@click.argument("game")
@click.option("--mode", "--scenario", "variants", multiple=True, help="Only these modes (default: all).")
@click.option("--games", "count", type=click.IntRange(min=1), help="Games per mode (default: 50; Magic Maze 10).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game.")
@click.option("--repeat", "repeats", type=click.IntRange(min=1), default=3, show_default=True,
              help="Play the same games this many times; figures are the median round.")
@click.option("--players", type=click.IntRange(min=1),
              help="Players, for games set up by player count (Magic Maze: default 4).")
@click.option("--bots", "kind", help="The built-in bot on every seat (default: the game's bench bot).")
def bench(game: str, variants: tuple[str, ...], count: int | None, seed: int, repeats: int, players: int | None,
          kind: str | None) -> None:
    """Bot self-play: games/s, inputs/s, medians, results and peak memory (a benchmark, not a test).

    Every round plays the same games, so the spread (slowest round / fastest) shows how much
    the machine's noise moved the figures. Magic Maze plays its planner bots by default, so the
    results column is the planner's win rate."""
    try:
        rules = registry.get(game)
        kind = kind or rules.bench_bot
        count = count or rules.bench_games
        players = players or rules.bench_players
        if kind not in rules.bot_kinds:
            fail(f"--bots {kind}: {rules.title} has the built-in bots {', '.join(rules.bot_kinds)}")
        names = list(variants) or [v.name for v in rules.variants()]
        rows = []
        for name in names:
            chosen, options = rules.choose_setup(name, players)
            r = run_bench(rules, chosen, count, seed, repeats, kind=kind, options=options)
            won = sum(v for k, v in r.wins.items() if k not in ("nobody", "unfinished"))
            rows.append([chosen, r.games, f"{r.games_per_s:.1f}", f"{r.inputs_per_s:.0f}",
                         f"{r.median_game_ms:.1f}", f"{r.median_inputs:.0f}", f"{r.spread:.2f}",
                         " ".join(f"{k}:{v}" for k, v in r.wins.items()), f"{100 * won / r.games:.0f}%"])
    except ArbiterError as exc:
        fail(explain(exc))
    click.echo(tabulate(rows, headers=["mode", "games", "games/s", "inputs/s", "median ms/game",
                                       "median inputs", "spread", "winners", "won"]))
    click.echo(f"{kind} bots on every seat; {repeats} rounds of the same games per mode; figures from the median round")
    click.echo(f"peak memory: {peak_memory_mib():.1f} MiB")


if __name__ == "__main__":
    main()

"""``arbiter play``: one game, its moves from the terminal, a file, a pipe or bots."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import IO, Any

import click

from arbiter.cli.common import (
    EXIT_REFUSED, EXIT_UNFINISHED, SETUP_ERRORS, explain, fail, interrupted, setup_usage, usage,
)
from arbiter.cli.types import (
    BotKindType, BotSpecType, BotTimeout, Count, ExistingPath, GameType, MovesFile, NewPath, SeatType, SeedType,
    VariantType, check_kind, check_seat, check_variant, stdin_bytes,
)
from arbiter.cli.entry import output_failed, output_refused
from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bots import Bot, close_all, make_bot
from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, counted, quoted
from arbiter.engine.events import HOST
from arbiter.engine.files import dangling_link, not_regular
from arbiter.engine.lines import LineReader, Timeout, printable
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol, event_line
from arbiter.engine.session import Session



def _bot_specs(specs: tuple[str, ...], all_bots: str | None, session: Session, person: str | None,
               recorded: dict[str, str] | None = None) -> dict[str, str]:
    """Which seat each bot plays: the recorded bots of a resumed game, then ``--bots KIND`` on
    every seat but the person's, then each ``--bot SEAT=KIND``."""
    rules = session.rules
    wanted: dict[str, str] = dict(recorded or {})
    if all_bots:
        check_kind(rules, all_bots, "--bots")
        wanted.update({s: all_bots for s in session.seats if s != person})
    given: dict[str, str] = {}
    for spec in specs:
        seat, sep, kind = spec.partition("=")
        if not sep or not kind.strip():
            usage(f"{quoted(spec, COMMAND_CHARS)}: expected SEAT=KIND, e.g. p1=random or p1=exec:COMMAND", "--bot")
        seat = check_seat(session.seats, seat, "--bot")
        if seat in given:  # (the last one played it, silently: a typo for another seat, most likely)
            usage(f"{seat} is given a bot twice ({quoted(given[seat], COMMAND_CHARS)}, then "
                  f"{quoted(spec, COMMAND_CHARS)}); give each seat one --bot", "--bot")
        given[seat] = spec
        check_kind(rules, kind.strip(), "--bot")
        wanted[seat] = kind.strip()
    return {s: wanted[s] for s in session.seats if s in wanted}


def _same_file(path: str, other: IO[bytes] | str | None) -> bool:
    """Whether the file at ``path`` (links followed) is ``other``: an open file (``--moves``, its
    standard input for ``-``) or a path (``--deck``)."""
    try:
        mine = os.stat(path)
        theirs = os.fstat(other.fileno()) if hasattr(other, "fileno") else os.stat(other) if other else None
    except (OSError, ValueError):  # (nothing there yet; a stream with no file behind it)
        return False
    return theirs is not None and (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)


def _start_bots(wanted: dict[str, str], session: Session, timeout: float, logs: Path | None,
                recorded: tuple[str, tuple[str, ...]] | None = None) -> dict[str, Bot]:
    """The bots, each ``exec:`` one with its stderr log beside the transcript (``logs``).
    ``recorded``: a resumed transcript and the seats whose bots it names (not given anew), so
    that a bot of its that cannot start says where it came from (an edited ``session``)."""
    bots: dict[str, Bot] = {}
    try:
        for seat, kind in wanted.items():
            log = logs.with_name(f"{logs.stem}.{seat}.stderr.log") if logs is not None and kind.startswith("exec:") else None
            bots[seat] = make_bot(kind, seat, session.seed, timeout, session.rules.bot_kinds, log=log)
    except ArbiterError as exc:
        close_all(bots.values())
        if recorded is not None and seat in recorded[1]:
            raise ArbiterError(f"{recorded[0]}: the bot its session ran for {seat} cannot start: {exc.message}; "
                               f"give the seat another with --bot {seat}=KIND") from None
        raise
    return bots


def _programs_named_again(wanted: dict[str, str], given: dict[str, str], resume: str) -> None:
    """Refuse to start a program (``exec:``, ``py:``) that a resumed transcript's header names
    and the command line does not: a transcript is a record people pass around (a bug report,
    a tournament's folder), and ``--resume`` once ran whatever command its header held, with
    nothing to say so. Named again (``--bot SEAT=SPEC``), it runs, as any bot given."""
    programs = {s: k for s, k in wanted.items() if s not in given and k.startswith(("exec:", "py:"))}
    if programs:
        again = " ".join("--bot " + shlex.quote(printable(f"{s}={k}")) for s, k in programs.items())
        usage(f"{resume}: its session ran programs as bots ({', '.join(printable(s) for s in programs)}); a resumed "
              f"session starts a program its transcript names only when you name it again: add {again} "
              "(or name another bot for the seat)", "--resume")


def _resume_contradictions(t: tr.Transcript, given: dict[str, Any], resume: str) -> None:
    """Refuse options that contradict the game a transcript records: they cannot apply."""
    wrong = []
    if given["game"] is not None and given["game"] != t.game:
        wrong.append(f"it is a game of {t.game}, not {given['game']}")
    if given["seed"] is not None and given["seed"] != t.seed:
        wrong.append(f"its seed is {t.seed}, not {given['seed']}")
    if given["variant"] is not None and given["variant"] != t.variant:
        wrong.append(f"its mode is {t.variant}, not {given['variant']}")
    recorded_players = t.options.get("players", len(t.seats))
    if given["players"] is not None and given["players"] != recorded_players:
        wrong.append(f"it has {recorded_players} players, not {given['players']}")
    recorded_deck = t.options.get("deck")
    if given["level"] is not None and isinstance(recorded_deck, dict):  # (a custom deck brings its own level)
        wrong.append(f"it plays a custom deck (level {recorded_deck.get('level')}), not --roles {given['level']}")
    elif given["level"] is not None and given["level"] != t.options.get("roles"):
        wrong.append(f"its level is {t.options.get('roles') or 'none'}, not {given['level']}")
    if given["deck_file"] is not None:
        rules = registry.get(t.game)
        try:  # (the deck as this game would be set up with it: its mode and its players, as recorded)
            options = rules.choose_setup(t.variant, recorded_players, given["deck_file"])[1]
        except SETUP_ERRORS as exc:
            try:  # a deck that reads, but does not fit this game (another size): not its deck
                rules.choose_setup(None, None, given["deck_file"])
                options = {}
            except SETUP_ERRORS:  # (a deck that cannot be read, say: the usage error of --deck, as for a new game)
                setup_usage(exc)
        if recorded_deck is None:
            wrong.append(f"it plays no custom deck, not the deck of {given['deck_file']}")
        elif options.get("deck") != recorded_deck:
            wrong.append(f"its deck is not the deck of {given['deck_file']}")
    if given["transcript_path"] is not None and Path(given["transcript_path"]).resolve() != Path(resume).resolve():
        wrong.append("a resumed game goes on in its own transcript (leave out --transcript)")
    if wrong:
        usage(f"--resume {resume}: " + "; ".join(wrong))


class _Numbered:
    """The lines of ``--moves FILE`` as the game reads them, numbered, with the first few that
    were refused (``SHOWN_REFUSED``) and how many were: the protocol's ``?`` answer does not
    repeat the line, and a file of many lines ended with status 3 and no word of which."""

    def __init__(self, reader: LineReader, protocol: Protocol) -> None:
        self._reader, self._protocol = reader, protocol
        self._number, self._last, self._counted = 0, "", 0
        self.refused: list[str] = []  # the first few refused, each as "line N 'TEXT'"
        self.count = 0

    def read_line(self, timeout: float | None) -> Any:
        self.settle()
        line = self._reader.read_line(timeout)
        if line is not None and not isinstance(line, Timeout):
            self._number += 1
            self._last = f"line {self._number}" + (f" {quoted(line, 40)}" if isinstance(line, str) else "")
        return line

    def settle(self) -> None:
        """Count the line read last as refused if it was (its answer is given before the next is read)."""
        if self._protocol.refused > self._counted:
            self.count += 1
            if len(self.refused) < SHOWN_REFUSED:
                self.refused.append(self._last)
        self._counted = self._protocol.refused

    def said(self, name: str) -> str:
        """The run's word on the refused lines of the file ``name``."""
        self.settle()
        more = f", and {self.count - len(self.refused)} more" if self.count > len(self.refused) else ""
        return f"--moves {name}: {counted(self.count, 'line')} refused: {', '.join(self.refused)}{more}"


SHOWN_REFUSED = 5
"""How many refused lines of ``--moves FILE`` the run names as it ends."""


def _lines(moves: IO[bytes] | None, protocol: Protocol, json_mode: bool) -> Any:
    """Where the person's lines come from: a file or pipe (``--moves``, or stdin when it is
    not a terminal), or the terminal itself, with a prompt, editing and completion."""
    if moves is not None:
        return _Numbered(LineReader(moves), protocol)
    if not json_mode and sys.stdin is not None and sys.stdin.isatty() and sys.stdout.isatty():
        from arbiter.cli.terminal import TerminalLines

        return TerminalLines(protocol)
    return LineReader(stdin_bytes())


def _header(session: Session, protocol: Protocol, perspective: str, as_seat: str | None, typing: bool,
            begun: tr.Transcript | None = None) -> None:
    """The ``#`` lines before the first answer: the game, the seats, the events of the deal this
    session may see (its own card, say), what is awaited. ``begun``: the transcript of a resumed
    game, whose deal is told again as it was dealt (``board`` shows the game as it is now)."""
    seed = f"seed {session.seed}" if perspective == HOST or session.over else "seed told at the end"
    click.echo(f"# {session.rules.title}, {session.variant.title}, {seed}; "
               f"seats: {' '.join(session.seats)}" + (f"; you are {perspective}" if as_seat else ""))
    opening = session
    if session.moves and begun is not None:
        click.echo("# resumed; the game began so (`board` shows it as it is now):")
        opening = tr.replayed(begun.until(0))
    if not opening.moves:
        for event in opening.events.visible_to(perspective):
            click.echo(f"# {event_line(event, perspective)}")
    if typing and not session.over:
        if session.state.realtime:  # no turns to wait for: show the board straight away
            for line in session.render(perspective).splitlines():
                click.echo(f"# {line}")
        click.echo("# one command per line; `help` lists them, `board` shows the board")
        for a in session.state.awaiting_seen_by(perspective):
            click.echo(f"# awaiting: {a.seat} {a.kind}: {a.hint}")


@click.command()
@click.argument("game", required=False, type=GameType())
@click.option("--mode", "--scenario", "variant", type=VariantType(), help="The mode or scenario (see `arbiter games`).")
@click.option("--players", type=Count(min=1), help="Number of players, for games set up by it (Classic Mafia: the default deck for N).")
@click.option("--deck", "deck_file", type=ExistingPath(dir_okay=False),
              help="A custom deck: Classic Mafia's cards (`kind: deck`) or Hidden Roles' (`kind: roles`).")
@click.option("--roles", "level", type=Count(1, 5), metavar="LEVEL",
              help="Magic Maze: Hidden Roles at this level (1 to 5), see docs/rules/hidden-roles.md.")
@click.option("--seed", type=SeedType(), help="Seed of the game's random generator (chosen and recorded when absent).")
@click.option("--moves", "moves", type=MovesFile(), metavar="FILE",
              help="Read input lines from FILE ('-' for stdin) instead of the terminal.")
@click.option("--transcript", "transcript_path", type=NewPath(dir_okay=False),
              help="Write the transcript to this new file as the game goes.")
@click.option("--force", is_flag=True, help="Let --transcript replace a file that exists.")
@click.option("--resume", type=ExistingPath(dir_okay=False),
              help="Continue the unfinished game in this transcript (appends to it), as it was played: "
                   "same seat, same bots, unless you say otherwise.")
@click.option("--bot", "bot_specs", multiple=True, type=BotSpecType(),
              help="Let a bot play SEAT: a built-in KIND (random; planner in Magic Maze), exec:COMMAND (a program) "
                   "or py:MODULE:CLASS (a Python class, in-process). Repeatable.")
@click.option("--bots", "all_bots", type=BotKindType(), help="A bot on every seat but yours (--as), of any KIND --bot takes.")
@click.option("--bot-timeout", type=BotTimeout(),
              help="Seconds an exec: bot or a py: agent may take to answer (0.01 to 3600; default 10).")
@click.option("--max-moves", type=Count(min=1),
              help="Stop once the game has this many moves, a resumed game's counted from its start "
                   "(the transcript stays resumable).")
@click.option("--realtime/--no-realtime", default=None,
              help="Stamp every typed line with the wall clock (seconds since the start), for real-time games.")
@click.option("--as", "as_seat", type=SeatType(), help="Play as this seat: see only what it may know.")
@click.option("--json/--no-json", "json_mode", default=None, help="Answer every line with one JSON object.")
def play(game: str | None, variant: str | None, players: int | None, deck_file: str | None, level: int | None,
         seed: int | None, moves: IO[bytes] | None, transcript_path: str | None, force: bool,
         resume: str | None, bot_specs: tuple[str, ...], all_bots: str | None, bot_timeout: float | None,
         max_moves: int | None, realtime: bool | None, as_seat: str | None, json_mode: bool | None) -> None:
    """Play GAME: moves come from the terminal, a file or bots; answers go to stdout.

    \b
    arbiter play fbi-mafia --bots random --seed 1
    arbiter play fbi-mafia --mode duel-3v3 --bot mafia=random --as fbi
    arbiter play mafia --players 8 --as p3 --bots random

    Exit status: 0 done, 1 an error, 2 a usage error, 3 a line of --moves FILE was refused,
    4 the input ended before the game did (resume it), 130 interrupted, 141 the output's
    reader went away (| head).
    """
    writer = lines = claimed = None
    bots: dict[str, Bot] = {}
    refused, unfinished = 0, False
    output_error: OSError | None = None
    try:
        recorded: dict[str, Any] = {}
        if resume:
            claimed = tr.claim(resume)  # (before it is read: no other process writes it meanwhile)
            t, session = tr.resume(resume)
            _resume_contradictions(t, {"game": game, "variant": variant, "players": players, "deck_file": deck_file,
                                       "seed": seed, "transcript_path": transcript_path, "level": level}, resume)
            recorded = t.settings()
            was = recorded.get("as")
            if as_seat is not None and as_seat.lower() != (was or HOST):
                usage(f"--resume {resume}: this game was played as {was or 'the host (no --as)'}; a resumed "
                      f"session keeps its seat (`arbiter show {resume}` shows the whole board)")
            as_seat = str(was) if was else None
        else:
            if not game:
                usage("name a game (see `arbiter games`) or --resume a transcript")
            rules = registry.get(game)
            check_variant(rules, variant)
            try:
                chosen, options = rules.choose_setup(variant, players, deck_file, level)
            except SETUP_ERRORS as exc:
                setup_usage(exc)
            session = Session(rules, chosen, seed=seed, options=options)
        perspective = check_seat(session.seats, as_seat, "--as") if as_seat else HOST
        json_mode = bool(recorded.get("json", False)) if json_mode is None else json_mode
        realtime = bool(recorded.get("realtime", False)) if realtime is None else realtime
        bot_timeout = float(recorded.get("bot_timeout", 10.0)) if bot_timeout is None else bot_timeout
        person = perspective if perspective != HOST else None
        wanted = _bot_specs(bot_specs, all_bots, session, person, recorded.get("bots"))
        anew = _bot_specs(bot_specs, all_bots, session, person) if resume else wanted  # (the others: the transcript's)
        if resume:
            _programs_named_again(wanted, anew, resume)
        if person in wanted:
            usage(f"{person} is played by a bot (--bot {person}={wanted[person]}); a seat is a person's or a bot's",
                  "--as")
        settings = {"as": person, "bots": wanted, "json": json_mode, "realtime": realtime, "bot_timeout": bot_timeout}
        if force and not (transcript_path and not resume):
            usage("--force lets --transcript FILE replace a file that exists, and " + (
                "a resumed game goes on in its own transcript" if resume else "no --transcript is named"), "--force")
        folder = os.path.dirname(os.path.abspath(transcript_path)) if transcript_path and not resume else None
        if folder is not None and not os.path.isdir(folder):
            usage(f"{transcript_path}: there is no folder {folder} to write it in", "--transcript")
        kind = not_regular(transcript_path) if transcript_path and not resume else None
        if kind:
            usage(f"{transcript_path}: not a regular file ({kind}); a transcript needs a file of its own",
                  "--transcript")
        nowhere = dangling_link(transcript_path) if transcript_path and not resume else None
        if nowhere:  # (neither a game to resume nor a file to replace: "the file exists" misled)
            writable = os.path.isdir(os.path.dirname(os.path.realpath(transcript_path)))
            if not (force and writable):
                usage(f"{transcript_path} is {nowhere} (to {os.readlink(transcript_path)}): it holds no game to "
                      "resume; remove it" + (", or add --force to write the transcript where it leads" if writable
                                             else " or name another file"), "--transcript")
        elif transcript_path and not resume and os.path.lexists(transcript_path) and not force:
            usage(f"{transcript_path}: the file exists; to go on with its game use "
                  f"`arbiter play --resume {transcript_path}`, to replace it add --force", "--transcript")
        inputs = (("--moves", moves) if moves is not None else ("standard input", sys.stdin), ("--deck", deck_file))
        for option, read in inputs:
            if transcript_path and not resume and _same_file(transcript_path, read):
                usage(f"{transcript_path} is the file of {option}, which the game reads: --force would replace it "
                      "with the transcript; name another file", "--transcript")
        protocol = Protocol(session, perspective, json_mode=json_mode)
        log_base = Path(resume or transcript_path) if (resume or transcript_path) else None
        # the bots first: a bot that cannot start ends the run before the record is touched
        bots = _start_bots(wanted, session, bot_timeout, log_base,
                           (resume, tuple(s for s in wanted if s not in anew)) if resume else None)
        if resume:
            writer, claimed = tr.TranscriptWriter(resume, session, resume=len(t.log), claimed=claimed), None
            if settings != {k: recorded.get(k) for k in settings}:
                session.note({"session": settings})
        elif transcript_path:
            writer = tr.TranscriptWriter(transcript_path, session, overwrite=force, settings=settings)
        typing = not (len(bots) == len(session.seats) and moves is None) and not session.over
        lines = _lines(moves, protocol, json_mode) if typing else None
        if json_mode:
            click.echo(protocol.opening().json(), nl=False)
        else:
            _header(session, protocol, perspective, as_seat, lines is not None, t if resume else None)
            if resume and session.over:
                click.echo(f"# the moves of {resume} had already ended the game; its ending is written again")
        match = Match(protocol, bots, lines, max_moves=max_moves, realtime=realtime)
        show = getattr(lines, "show", None) or (lambda out: click.echo(out, nl=False))  # (a terminal's keeps its prompt)
        for out in match.run():
            show(out)
        if hasattr(lines, "finish"):
            lines.finish()
        if match.stopped and not json_mode:
            click.echo(f"# stopped after {counted(match.moves_seen(), 'move')} (--max-moves)"
                       + (f"; resume with: arbiter play --resume {writer.path}" if writer else ""))
        if session.over and not json_mode:
            click.echo(protocol.handle("board") or "", nl=False)
            if perspective != HOST:  # (the seed decides every secret: a seat is told it only now)
                click.echo(f"# the seed was {session.seed}")
        refused = protocol.refused if moves is not None else 0
        unfinished = not session.over and not match.stopped and not protocol.done
    except ArbiterError as exc:
        fail(explain(exc))
    except KeyboardInterrupt:
        over = writer is not None and writer.session.over  # (the ending is written as the game ends)
        interrupted("\ninterrupted" + (f"; the transcript {writer.path} is complete" if over else
                                       f"; the transcript {writer.path} can be resumed" if writer else ""))
    except OSError as exc:  # the transcript's disk refused a write (said once it is closed), or stdout did
        if not (writer is not None and writer.error is not None) and not output_refused(exc):
            raise
        output_error = exc
    finally:
        if hasattr(lines, "restore"):  # the terminal's modes as the person had them, on every way out
            lines.restore()
        close_all(bots.values())
        if claimed is not None:  # (claimed to resume, not handed to a writer: a usage error, say)
            claimed.close()
        if writer is not None:
            try:
                writer.close()
            except ArbiterError as exc:  # (its disk is full, say: what it holds resumes)
                fail(explain(exc))
    if output_error is not None:
        over = writer is not None and writer.session.over
        output_failed(output_error, f"; the transcript {writer.path} is complete" if over else
                      f"; the transcript {writer.path} can be resumed" if writer else "")
    if refused and isinstance(lines, _Numbered):
        name = getattr(moves, "name", None)
        click.echo(lines.said(name if isinstance(name, str) and not name.startswith("<") else "-"), err=True)
    if unfinished:
        # the input ended (Ctrl-D at a terminal, the end of a pipe or of --moves FILE): say on
        # stderr what it left, so that a script sees why the status is 4 and stdout stays the game's
        at_terminal = hasattr(lines, "restore")
        click.echo(("\n" if at_terminal else "") + "the input ended before the game did; " + (
            f"resume it with: arbiter play --resume {writer.path}" if writer is not None else
            "no transcript was kept to resume it from (--transcript FILE keeps one)"), err=True)
    if refused:
        sys.exit(EXIT_REFUSED)
    if unfinished:
        sys.exit(EXIT_UNFINISHED)

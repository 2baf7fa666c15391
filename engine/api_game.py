"""The library's ``Game``: one game in progress, played, watched and recorded by a caller (the
host, who sees everything), each seat shown only what it may know; and the multi-agent loop
(``agent_iter``, ``step``). Games are started by ``engine/api.py`` (``new_game``, ``load_game``).
"""

from __future__ import annotations

import copy
import errno
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from arbiter.engine import transcript as tr
from arbiter.engine.agents import answer_words, news
from arbiter.engine.api_arguments import checked_count, checked_path, checked_time, seconds_name
from arbiter.engine.errors import InputError, UnknownSeatError, counted, quoted
from arbiter.engine.events import HOST, Event
from arbiter.engine.game import Result, checked_text
from arbiter.engine.session import Choices, Session, seed_shown

REFUSALS_IN_A_ROW = 20
"""How many answers in a row ``agent_iter`` takes that the game refused and that changed
nothing (nor did time meanwhile) before it stops with a ``RuntimeError``: an agent may retry a
refused answer, but one that answers what the game refuses for ever would hold the loop for
ever. (``arbiter play`` forfeits a bot at its first refused answer.)"""


class Game:
    """One game in progress, seen from the host (who sees everything); every per-seat method
    shows only what that seat may know. Refused inputs raise the typed errors of
    ``engine.errors`` (``SyntaxInputError``, ``IllegalMoveError``, ``NotYourTurnError``,
    ``AmbiguousMoveError``, ``GameOverError``, ``TimeError``, ...) and change nothing."""

    def __init__(self, session: Session) -> None:
        if not isinstance(session, Session):  # (an AttributeError once the game was first shown or played)
            raise TypeError(f"Game: a game is made of a Session (or started by new_game, load_game), "
                            f"not {type(session).__name__}")
        self.session = session
        self._observed: dict[str, tuple[int, int, int]] = {}  # per seat, what its observations told (``agents.news``)
        self._answered = False  # whether ``play`` or ``step`` answered since ``agent_iter`` last asked

    def copy(self) -> Game:
        """An independent game at the same point (as python-chess's ``Board.copy``): playing on
        one changes nothing of the other, their transcripts, observations and generators
        alike; the rules and the mode's data, which no game changes, are shared. A copy records
        to no listener of the original (a transcript file the original writes).
        ``copy.copy`` and ``copy.deepcopy`` make the same copy: a shallow one shared the game.

        >>> from arbiter.engine.api import new_game
        >>> game = new_game("mafia", players=6, seed=1)
        >>> twin = game.copy()
        >>> _ = twin.play("p1", "pass")
        >>> len(twin.session.moves), len(game.session.moves)
        (1, 0)
        """
        return self.__deepcopy__({})

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        """``copy``, in ``memo``: copied with its session, or its session's state, in one
        ``copy.deepcopy`` (an environment keeping both), the copy's session is the copied one,
        not a second, unlinked game."""
        twin = memo[id(self)] = Game(copy.deepcopy(self.session, memo))
        twin._observed = dict(self._observed)
        return twin

    def __repr__(self) -> str:
        """Which game (a Hidden Roles game with its level, as ``new_game``'s ``roles=``), where it
        stands and who is awaited (as the host knows it), on one short line: the default
        ``<arbiter.engine.api.Game object at 0x...>`` told a notebook or a debugger nothing of it.

        >>> from arbiter.engine.api import new_game
        >>> game = new_game("fbi-mafia", "duel-3v3", seed=1)
        >>> game
        <Game fbi-mafia duel-3v3 seed=1: 0 moves, awaiting mafia>
        >>> _ = game.play("mafia", "surrender")
        >>> game
        <Game fbi-mafia duel-3v3 seed=1: over after 1 move (surrender), won by fbi>
        """
        session, done = self.session, len(self.session.moves)
        when = f" at {seconds_name(session.clock_ms)} s" if self.realtime else ""
        moves = counted(done, "move")
        result = session.state.result
        if result is None:
            now = f"{moves}{when}, awaiting {' '.join(self.awaiting()) or 'no one'}"
        else:
            won = f"won by {' '.join(result.winners)}" if result.winners else "no one won"
            now = f"over{when} after {moves} ({result.reason}), {won}"
        seed = seed_shown(self.seed)
        level = self.session.rules.public_options(self.session.state).get("level")  # (Hidden Roles')
        played = f"{self.variant} roles={level}" if level else self.variant
        deck = self.session.options.get("deck")  # (a custom deck's: its title; the game's own says nothing)
        if isinstance(deck, dict):
            title = self.session.options.get("title", deck.get("title"))
            played += f" deck={quoted(title, 40)}" if isinstance(title, str) else " deck=custom"
        return f"<Game {self.name} {played} seed={seed}: {now}>"

    # -- facts ---------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.session.rules.name

    @property
    def variant(self) -> str:
        return self.session.variant.name

    @property
    def seed(self) -> int:
        return self.session.seed

    @property
    def seats(self) -> tuple[str, ...]:
        return self.session.seats

    @property
    def realtime(self) -> bool:
        """True when there are no turns: every seat may act at any moment (Magic Maze)."""
        return self.session.state.realtime

    @property
    def time(self) -> float:
        """The game's clock, in seconds."""
        return self.session.clock_ms / 1000

    @property
    def over(self) -> bool:
        return self.session.over

    @property
    def result(self) -> Result | None:
        """How the game ended (None while it goes on): a copy, so that changing it changes
        neither the game nor its transcript."""
        result = self.session.state.result
        return None if result is None else replace(result, scores=copy.deepcopy(result.scores))

    def awaiting(self, seat: str = HOST) -> list[str]:
        """The seats awaited now (every seat, in a real-time game; none once it is over), as
        ``seat`` may know them: the host (the default) knows every one; a seat is not told who
        is awaited in secret (Classic Mafia's night roles), as its protocol session is not.

        >>> from arbiter.engine.api import new_game
        >>> game = new_game("mafia", players=6, seed=2)
        >>> for seat in game.seats:
        ...     _ = game.play(seat, "pass")
        >>> game.awaiting(), game.awaiting("p5"), game.awaiting("p6")  # night: p6's role is awake
        (['p6'], [], ['p6'])
        """
        state, who = self.session.state, self.session.check_seat(seat)
        awaited = state.awaiting() if who == HOST else state.awaiting_seen_by(who)
        return list(dict.fromkeys(a.seat for a in awaited if a.seat in self.seats))

    def legal(self, seat: str) -> list[str]:
        """Every input ``seat`` may send now, exactly as it may be sent (its give-up input
        included, last); templates such as ``say TEXT`` are ``forms``. The host, who does not
        play, has none: asking for them is an ``UnknownSeatError``, as ``play``'s is."""
        return self.session.state.legal_inputs(self._player(seat))

    def choices(self, seat: str) -> Choices:
        """What ``seat`` may send now: ``legal``, ``forms`` and ``resign`` apart."""
        return self.session.choices(self._player(seat))

    def forms(self, seat: str) -> list[str]:
        return self.choices(seat).forms

    def _player(self, seat: str) -> str:
        """``seat``, a seat of the game; the host, who does not play, is refused as the protocol's
        ``legal host`` is (its legal inputs were FBI vs Mafia's ``surrender``, which ``play``
        refuses, and in Magic Maze a ``ValueError`` or a ``KeyError`` from inside the game)."""
        seat = self.session.check_seat(seat)
        if seat == HOST:
            raise UnknownSeatError("the host does not play; name a seat", self.seats)
        return seat

    # -- playing -------------------------------------------------------------------------------
    def play(self, seat: str, text: str, time: float | None = None) -> list[Event]:
        """Play ``text`` (the words after the seat) for ``seat``, at ``time`` seconds (default:
        the clock plus the game's step); the events it caused, all of them (the host's).

        The words are read as the protocol reads a line's: white space (a tab, a carriage
        return) is collapsed, and one line's end at the very end (``"pass\\n"``, ``"\\r\\n"``, as
        ``readline()`` leaves it on a line) ends the line, as the protocol's reader takes
        it off; ``step`` reads an agent's answer so too. A line's end inside the words is two
        lines, not one input (``"say hi\\nvote p2"`` would be read as one ``say``): refused, as
        any other control character, an over-long text or a lone surrogate is, with a
        ``SyntaxInputError`` naming it and its column, changing nothing.

        >>> from arbiter.engine.api import new_game
        >>> game = new_game("mafia", players=6, seed=1)
        >>> [e.kind for e in game.play("p1", "pass\\n")], game.session.moves[-1].text
        (['pass'], 'pass')
        """
        if not isinstance(text, str):
            raise TypeError(f"play: the input is its words (a str), not {type(text).__name__}")
        self._answered = True  # (an answer to ``agent_iter``, accepted or refused)
        if text.endswith("\n"):  # (one line's end, as ``lines`` reads a line: its "\r" is white space)
            text = text[:-1]
        self._seat_first("play", seat, text)
        session = self.session
        at = session.clock_ms + session.state.clock_step_ms if time is None else checked_time("play", time)
        start = len(session.events)
        try:
            passed = []
            if self.realtime and seat in session.seats:  # (else refused)
                checked_text(text)  # (words no game reads are refused before time passes, as submit refuses them)
                passed = self._moments_before(at)
            return _handed(passed + session.submit(session.check_seat(seat), text, at))
        except InputError as exc:
            if len(session.events) > start:  # time changed the game before the input came: say so
                _time_acted_first(exc, seat, session.events.since(start), at)
            raise

    def _seat_first(self, method: str, seat: str, text: str | None) -> None:
        """Refuse a seat and an input given the wrong way round (``play("pass", "p1")``) as the
        ``UnknownSeatError`` it is, saying which comes first: "no seat 'pass'" alone left the
        caller to find out why."""
        seats = self.seats
        if isinstance(seat, str) and seat not in seats and seat != HOST and text in seats:
            raise UnknownSeatError(f"{method}: no seat {quoted(seat)} in this game: {method} takes the seat first, "
                                   f"then its input ({method}({text!r}, {quoted(seat)})?)", seats)

    def wait(self, time: float | None = None) -> list[Event]:
        """Let time pass with nobody acting, to ``time`` seconds or, by default, to the next
        moment time alone changes the game (a real-time game's sand, a vote closing). A time
        before the clock is a ``TimeError``, as ``play``'s is (``wait(5)`` at 30 s is not
        "wait 5 seconds"), and changes nothing."""
        if time is not None:
            at = checked_time("wait", time)
            return _handed(self._moments_before(at) + self.session.advance_to(at))
        deadline = self.session.state.next_deadline()
        if deadline is None:
            return []
        return _handed(self.session.advance_to(max(deadline, self.session.clock_ms)))

    def _moments_before(self, at: int) -> list[Event]:
        """Time passed up to (not to) ``at`` ms moment by moment, as the referee's loop passes
        it: each moment time alone changes the game before ``at`` is a tick of its own, and the
        clock stops where the game ends (``wait(500)`` once left the clock, and the transcript's
        tick, at 500 in a game the sand ended at 180)."""
        session, events = self.session, []
        while not session.over:
            deadline = session.state.next_deadline()
            if deadline is None or not session.clock_ms < deadline < at:
                break
            events += session.advance_to(deadline)
        return events

    # -- what a seat may know ------------------------------------------------------------------
    def view(self, seat: str = HOST) -> dict[str, Any]:
        return self.session.state.view(self.session.check_seat(seat))

    def board(self, seat: str = HOST) -> str:
        """The ASCII board as ``seat`` sees it."""
        return self.session.render(self.session.check_seat(seat))

    def events(self, seat: str = HOST) -> list[Event]:
        """``seat``'s event stream, from the start. The host's (the default) is the game's log:
        each event's ``index`` is its place there, its ``to`` whom it is for. A seat's is told
        as its protocol session tells it: numbered from 0 in the order the seat sees them, and
        an event meant for some seats only is meant for it alone (``to``: the seat), so neither
        tells the seat how many events it was not told, nor who else was told one."""
        who = self.session.check_seat(seat)
        seen = self.session.events.visible_to(who)
        if who != HOST:
            seen = [e._replace(index=i, to=None if e.to is None else (who,)) for i, e in enumerate(seen)]
        return _handed(seen)

    def observation(self, seat: str) -> str:
        """The text of what ``seat`` has learned since its last observation (the other seats'
        moves it may know of, ``move: SEAT INPUT``, and its new events, ``event: TEXT``, in the
        order they happened; then what is awaited as it may know it, or the result): what an
        agent is shown."""
        who = self.session.check_seat(seat)
        text, self._observed[seat] = news(self.session, who, self._observed.get(seat, (0, 0, 0)))
        return text

    # -- the end -------------------------------------------------------------------------------
    def outcome(self, seat: str) -> int | None:
        """1 if ``seat`` won, 0 if it lost, None while the game goes on. When no side wins (a
        Classic Mafia game no side can win any more, whose living loners still win; a Magic Maze
        game without Hidden Roles lost to the sand) the others' outcome is 0."""
        self._player(seat)  # (the host refused while the game goes on too)
        result = self.session.state.result
        if result is None:
            return None
        return 1 if seat in result.winners else 0

    def returns(self) -> dict[str, int]:
        """Every seat's outcome (see ``outcome``), once the game is over."""
        if self.result is None:
            raise ValueError("the game is not over")
        return {s: 1 if s in self.result.winners else 0 for s in self.seats}

    # -- records -------------------------------------------------------------------------------
    def transcript(self) -> str:
        """The game's transcript, as text."""
        return tr.dump(self.session)

    def save(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the transcript to ``path`` whole (never over a file that exists, unless told:
        ``FileExistsError``; never over one another process is writing, a game going on in it:
        ``transcript.TranscriptInUse``); a crash or a kill meanwhile leaves the file that was
        there, if any, as it was (``files.write_whole``). A folder's path is an
        ``IsADirectoryError``, with or without ``overwrite``."""
        p = Path(checked_path("save", path))
        if not isinstance(overwrite, bool):  # (``overwrite="no"`` wrote over the file)
            raise TypeError(f"save: overwrite is True or False, not {type(overwrite).__name__}")
        if p.is_dir():  # ("File exists", or with overwrite "not a regular file", named no folder)
            raise IsADirectoryError(errno.EISDIR, "save: this is a folder: name the transcript's file in it", str(p))
        tr.put_whole(p, self.transcript(), replace=overwrite)
        return p

    # -- many agents ---------------------------------------------------------------------------
    def agent_iter(self, max_inputs: int = 100_000) -> Iterator[tuple[str, str, Choices]]:
        """The multi-agent loop, in the spirit of PettingZoo's: yields ``(seat, observation,
        choices)`` for each seat whose input is awaited; answer with ``step(seat, text)``
        (``None``: nothing now, in a real-time game; an input played with ``play`` is an answer
        too). In a real-time game every seat that may send something now is asked in turn (a
        Hidden Roles phantom, which may only talk, too); when a whole round of seats had nothing to do, time passes to the next moment
        it changes the game. Ends when the game is over, or once ``max_inputs`` inputs were played
        (a whole number from 0: another value is a ``TypeError`` or a ``ValueError`` at once):
        moves put on record, as ``arbiter play --max-moves`` counts them, but only the loop's own
        (not a loaded game's earlier moves, which ``--max-moves`` counts). An answer the game
        refused (its ``InputError`` caught by the caller) is not one: the seat is asked again,
        as an agent retrying may want; but ``REFUSALS_IN_A_ROW`` answers in a row that
        changed nothing end the loop with a ``RuntimeError`` (an agent answering garbage for
        ever would hold it for ever; the referee forfeits a bot at its first refused answer)."""
        return self._agent_loop(checked_count("agent_iter", max_inputs))

    def _agent_loop(self, max_inputs: int) -> Iterator[tuple[str, str, Choices]]:
        session, inputs, refused = self.session, 0, 0
        while not self.over and inputs < max_inputs:
            idle = True
            # (real time: every seat that may send something, a phantom that may only talk too,
            # which the game does not await)
            seats = [s for s in self.seats if _may_send(self.choices(s))] if self.realtime else self.awaiting()
            for seat in seats:
                if self.over or inputs >= max_inputs:  # (a real-time round stops there too)
                    break
                self._answered, before = False, (len(session.moves), len(session.events), session.clock_ms)
                yield seat, self.observation(seat), self.choices(seat)
                if len(session.moves) > before[0]:  # (an answer by ``play`` counts too)
                    idle, inputs, refused = False, inputs + len(session.moves) - before[0], 0
                elif self._answered:  # refused, or time acted first (``step``): the seat is asked again
                    idle = False
                    changed = (len(session.events), session.clock_ms) != before[1:]
                    refused = 0 if changed else refused + 1
                    if refused >= REFUSALS_IN_A_ROW:
                        raise RuntimeError(f"agent_iter: {refused} answers in a row were refused, the last "
                                           f"{seat}'s, and nothing else changed the game: the loop stops "
                                           f"(an agent that answers what the game refuses would be asked "
                                           f"for ever)")
                elif not self.realtime:
                    raise RuntimeError(f"agent_iter: {seat} was asked for an input and gave none (step)")
                if not self.realtime:
                    break  # a turn game: ask again who is awaited
            if idle and self.realtime and not self.over:
                before = self.session.clock_ms
                if not self.wait() and self.session.clock_ms == before:
                    break  # nothing can change the game any more (a change may say nothing: go on)

    def step(self, seat: str, text: str | None) -> list[Event]:
        """Answer ``agent_iter``: play ``text`` for ``seat`` (None: nothing now). Where time would
        change the game before the answer's moment (a vote closing), it lets time do so and
        returns those events, playing nothing: the agent chose without knowing, and
        ``agent_iter`` asks the seat again. A seat the game
        does not have is an ``UnknownSeatError`` before time acts, as ``play``'s is: time
        acting first once let a misspelt seat move the game's clock. An answer that is neither
        words nor None is a ``TypeError`` first, as ``play``'s is. The answer is read as the
        referee reads a ``py:`` agent's (``agents.answer_words``): white space collapsed, a
        line's end too, and the seat's own name in front left out; so the same agent plays
        the same here and under ``arbiter play --bot SEAT=py:...``."""
        if text is not None and not isinstance(text, str):
            raise TypeError(f"step: the input is its words (a str) or None, not {type(text).__name__}")
        if text is not None:
            self._answered = True  # (an answer refused is one too: ``agent_iter`` bounds them)
        self._seat_first("step", seat, text)
        self._player(seat)
        if text is None:
            return []
        at = self.session.clock_ms + self.session.state.clock_step_ms
        if self.realtime and self.session.state.changes_by_time(at):
            return self.wait()  # time acts first (the sand, a vote): the agent is asked again
        return self.play(seat, answer_words(text, seat))


def _time_acted_first(exc: InputError, seat: str, events: list[Event], at: int) -> None:
    """Add to a refusal that time changed the game before the input's moment: a move ``legal``
    listed at the clock, played at the clock plus the game's step, can find a vote closed or
    the sand run out, and "no vote is open" alone blamed the move. Only a change ``seat`` may
    see counts: a refusal that grew its words from another seat's private event (a mission
    settled at a clock mark) told the seat that a card it cannot see was dealt. The first
    public change is quoted (the caller is the host; a seat's secret is quoted to no one)."""
    if not any(e.visible_to(seat) for e in events):
        return
    shown = next((e.text for e in events if e.to is None), None)
    exc.message += (f" (time acted first: this input came at {seconds_name(at)} s"
                    + (f", after {shown!r})" if shown else ")"))
    exc.args = (exc.message, *exc.args[1:])


def _may_send(choices: Choices) -> bool:
    return bool(choices.legal or choices.forms)


def _handed(events: list[Event]) -> list[Event]:
    """Events as handed to a caller: each with a copy of its data, so that changing one changes
    neither the game's log nor its transcript's digest of it. An empty ``data`` is a dict too,
    the log's own: it gets a fresh one (a key added to the log's made the transcript's digest
    of the log differ from its replay's)."""
    return [e._replace(data=copy.deepcopy(e.data) if e.data else {}) for e in events]

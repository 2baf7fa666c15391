"""The contract every game keeps (``docs/architecture.md``), checked by random play, the way
OpenSpiel runs a random simulation over every registered game: a game registered tomorrow is
checked without a test of its own.

``check_contract(rules, variant, options, seed)`` plays one random game and checks, as it goes:

- every input ``legal_inputs`` lists (a sample at each checked step) is accepted, each tried on
  a copy of the game;
- a refused input (mutations of legal ones, other seats' inputs, garbage) changes nothing: the
  state, the log and the clock are exactly as before;
- a copy of the game (``Session.copy``) plays the chosen input as the game then does (the same
  log entries and events), and playing it changes nothing of the game;
- what a copy shares is not changed by any input: the state's ``constants`` are, at the end,
  the same objects with the same contents as at the start, and so are the contents of the
  frozen dataclasses it held at the start;
- every seat's and the host's view is JSON, their boards render (no empty lines), their event
  streams only hold what they may see, and ``awaiting`` is empty exactly when the game is over;
- what a seat's session is shown of another seat's move is the move's public form;
- a turn game (``realtime`` False) never has a deadline: the session asks only real-time games
  whether time alone changes them;
- the transcript of the game replays it exactly (same moves, result and event digest).

It returns a ``ContractReport`` (what was checked, and every breach found) and never raises
for a breach, so a test can show them all.
"""

from __future__ import annotations

import io
import json
import pickle
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine import transcript
from arbiter.engine.errors import ArbiterError, InputError
from arbiter.engine.events import HOST
from arbiter.engine.game import Rules, shared_values, state_fields  # noqa: F401  (state_fields: read here too)
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

GARBAGE = ("", "frobnicate", "x y z", "0", "pass pass", "say", "@@", "move", "vote", "kill a99", "shift row 99 left")


@dataclass
class ContractReport:
    game: str
    variant: str
    seed: int
    inputs: int = 0
    accepted_checked: int = 0
    refused_checked: int = 0
    copies_checked: int = 0
    views_checked: int = 0
    finished: bool = False
    breaches: list[str] = field(default_factory=list)

    def breach(self, what: str) -> None:
        if len(self.breaches) < 20:
            self.breaches.append(f"{self.game} {self.variant} seed {self.seed}: {what}")


def state_snapshot(session: Session) -> bytes:
    """Everything an input could change: the state (with its events and chance), the log,
    the moves and the clock."""
    return pickle.dumps((state_fields(session.state), session.entries, session.moves, session.clock_ms))


def _mutations(text: str, rng: random.Random) -> list[str]:
    words = text.split()
    out = []
    if words:
        out.append(" ".join(words[:-1] + [words[-1] + "x"]))
        out.append(" ".join(words + ["extra"]))
        out.append(" ".join([words[0]] + ["zz"] * (len(words) - 1)))
    return out + [rng.choice(GARBAGE)]


def _check_views(session: Session, report: ContractReport) -> None:
    state = session.state
    for seat in (*session.seats, HOST):
        try:
            json.dumps(state.view(seat))
        except (TypeError, ValueError) as exc:
            report.breach(f"view({seat}) is not JSON: {exc}")
        board = session.render(seat)
        if not board or any(not line.strip() for line in board.splitlines()):
            report.breach(f"the board of {seat} is empty or has an empty line")
        for e in session.events.visible_to(seat):
            if seat != HOST and e.to is not None and seat not in e.to:
                report.breach(f"{seat} sees event {e.index} ({e.kind}) meant for {e.to}")
    report.views_checked += 1
    if (not state.awaiting()) != session.over:
        report.breach(f"awaiting is {'empty' if not state.awaiting() else 'not empty'} while the game is "
                      f"{'over' if session.over else 'on'}")


def _choose(session: Session, rng: random.Random) -> tuple[str, str] | None:
    """A random input some awaited seat may send (the give-up input rarely), or None."""
    seats = list(dict.fromkeys(a.seat for a in session.state.awaiting()))
    rng.shuffle(seats)
    for seat in seats:
        choices = session.choices(seat)
        options = list(choices.legal) + [f.replace("TEXT", "hello there") for f in choices.forms]
        if choices.resign and rng.random() < 0.01:
            options = [choices.resign]
        if options:
            return seat, rng.choice(options)
    return None


def check_contract(rules: Rules, variant: str, options: dict[str, Any], seed: int, *, max_inputs: int = 400,
                   every: int = 7, sample: int = 6) -> ContractReport:
    """Play one random game of ``rules`` and check the contract along the way (see the module);
    the accepted and refused samples are checked every ``every`` inputs."""
    report = ContractReport(rules.name, variant, seed)
    rng = random.Random(f"contract:{rules.name}:{variant}:{seed}")
    session = Session(rules, variant, seed=seed, options=options)
    fixed = shared_values(session.state)  # (a frozen dataclass held now may be let go later: no matter)
    fixed_then, constants = pickle.dumps(fixed), [getattr(session.state, n) for n in session.state.constants]
    _check_views(session, report)
    for step in range(max_inputs):
        if session.over:
            break
        if session.state.realtime and rng.random() < 0.05:  # time passes with nobody acting
            session.advance_to(session.clock_ms + rng.randint(1, 4000))
            continue
        step_ms = session.state.clock_step_ms
        if not session.state.realtime and session.state.next_deadline() is not None:
            report.breach("a turn game has a deadline: the session asks only real-time games (realtime) for one")
            break
        if session.state.changes_by_time(session.clock_ms + step_ms):  # time acts before any input could
            session.advance_to(max(session.state.next_deadline() or 0, session.clock_ms))
            continue
        chosen = _choose(session, rng)
        if chosen is None:
            deadline = session.state.next_deadline()
            if deadline is None:
                report.breach("no seat has an input and time cannot end the game")
                break
            session.advance_to(max(deadline, session.clock_ms))
            continue
        seat, text = chosen
        twin = None
        if step % every == 0:
            _check_accepted(session, seat, rng, report, sample)
            _check_refused(session, seat, text, rng, report)
            twin = _played_copy(session, seat, text, report)
        watcher = next((s for s in session.seats if s != seat), None)
        try:
            if watcher is not None:
                response = Protocol(session, watcher).move(seat, text, None, referee=True)
                move = session.moves[-1]
                shown = response.payload["input"]
                if shown != move.public:
                    report.breach(f"{watcher} was shown {shown!r} of {seat}'s move, its public form is {move.public!r}")
            else:
                session.submit(seat, text)
        except InputError as exc:
            report.breach(f"{seat} {text!r} was chosen from what it may send but refused: {exc.kind}: {exc.message}")
            break
        report.inputs += 1
        if twin is not None:
            if twin.entries != session.entries or list(twin.events) != list(session.events):
                report.breach(f"a copy played {seat} {text!r} otherwise than the game: "
                              f"{twin.entries[-1:]} vs {session.entries[-1:]}")
            report.copies_checked += 1
        if step % every == 0:
            _check_views(session, report)
    report.finished = session.over
    _check_views(session, report)
    if pickle.dumps(fixed) != fixed_then or any(
            value is not getattr(session.state, n) for n, value in zip(session.state.constants, constants)):
        report.breach("what a copy shares (the state's constants, its frozen data) changed during the game")
    _check_replay(session, report)
    return report


def trial_copies(session: Session, also: Iterable[Any] = ()) -> Callable[[], Session]:
    """Copies of the game to try inputs on, all alike, each read from one pickle of it (the
    game itself must not change while its copies are used). The game's data (``Session.shared``:
    the state's constants, its frozen dataclasses such as a scenario), the rules and the record so
    far (events, moves, chance outcomes) are shared, not copied: nothing changes them, and each
    copy's lists are its own, so what a trial appends stays in the trial; ``also`` names more
    objects to share. (A pickle's round trip that leaves the shared objects out by reference:
    a few times faster than ``copy.deepcopy`` with a memo, for the same copy; and a game pickled
    once for many copies, as the value-path tests try many inputs at one position.)"""
    shared = session.shared()
    chance = session.chance
    for record in (*session.events, *session.moves, *chance.records, *chance._recorded, *also):
        shared[id(record)] = record
    buffer = io.BytesIO()
    SharingPickler(buffer, shared).dump(session)
    blob = buffer.getvalue()

    def copy() -> Session:
        copied = SharingUnpickler(io.BytesIO(blob), shared.__getitem__).load()
        assert isinstance(copied, Session) and copied is not session
        return copied

    return copy


class SharingPickler(pickle.Pickler):
    """A pickler that leaves out the objects of ``shared`` (by ``id``), naming them instead. (A
    subclass: Python 3.13's C pickler no longer takes ``persistent_id`` set on an instance.)"""

    def __init__(self, file: io.BytesIO, shared: dict[int, Any]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = shared

    def persistent_id(self, obj: Any) -> Any:
        return id(obj) if id(obj) in self._shared else None


class SharingUnpickler(pickle.Unpickler):
    """An unpickler that finds what ``SharingPickler`` left out with ``find``."""

    def __init__(self, file: io.BytesIO, find: Callable[[Any], Any]) -> None:
        super().__init__(file)
        self._find = find

    def persistent_load(self, pid: Any) -> Any:
        return self._find(pid)


def _check_accepted(session: Session, seat: str, rng: random.Random, report: ContractReport, sample: int) -> None:
    legal = session.state.legal_inputs(seat)
    copies = trial_copies(session)  # the game pickled once for the position, a fresh copy each try
    for text in rng.sample(legal, min(sample, len(legal))):
        trial = copies()
        try:
            trial.submit(seat, text, session.clock_ms)  # now: legal_inputs speaks of this moment
            report.accepted_checked += 1
        except InputError as exc:
            report.breach(f"legal input {seat} {text!r} refused: {exc.kind}: {exc.message}")


def _check_refused(session: Session, seat: str, text: str, rng: random.Random, report: ContractReport) -> None:
    def refusable(who: str) -> list[tuple[str, str]]:
        """Mutations of ``text`` that ``who`` may not send: not legal, and not a form's words."""
        legal = set(session.state.legal_inputs(who))
        free = tuple(f.split()[0] + " " for f in session.state.input_forms(who))
        return [(who, t) for t in _mutations(text, rng) if t not in legal and not (t + " ").startswith(free)]

    others = [s for s in session.seats if s != seat]
    tries = refusable(seat) + (refusable(rng.choice(others)) if others else [])
    before = state_snapshot(session)
    for who, attempt in tries:
        try:
            session.submit(who, attempt, session.clock_ms)
        except InputError:
            report.refused_checked += 1
            if state_snapshot(session) != before:
                report.breach(f"the refused input {who} {attempt!r} changed the game")
                return
            continue
        except ArbiterError as exc:
            report.breach(f"{who} {attempt!r} raised {type(exc).__name__}, not an input error")
            return
        report.breach(f"{who} {attempt!r} was accepted but is not among its legal inputs")
        return


def _played_copy(session: Session, seat: str, text: str, report: ContractReport) -> Session | None:
    """A copy of the game (``Session.copy``) with ``seat``'s ``text`` played on it, the game
    itself checked unchanged by that; None (and a breach) if the copy refused it."""
    before = state_snapshot(session)
    twin = session.copy()
    try:
        twin.submit(seat, text)
    except InputError as exc:
        report.breach(f"a copy of the game refused {seat} {text!r}: {exc.kind}: {exc.message}")
        return None
    if state_snapshot(session) != before:
        report.breach(f"playing {seat} {text!r} on a copy changed the game")
    return twin


def _check_replay(session: Session, report: ContractReport) -> None:
    try:
        t = transcript.parse(transcript.dump(session))
        result = transcript.replay(t)
    except ArbiterError as exc:
        report.breach(f"the transcript does not read: {exc}")
        return
    if not result.ok or result.session is None:
        report.breach("the transcript does not replay: " + "; ".join(result.problems))
        return
    if [(m.seat, m.text, m.time_ms) for m in result.session.moves] != \
            [(m.seat, m.text, m.time_ms) for m in session.moves]:
        report.breach("the replay's moves differ")
    if result.session.events.digest() != session.events.digest():
        report.breach("the replay's event log differs")

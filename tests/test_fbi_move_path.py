"""FBI vs Mafia's value path (``Session.submit_move`` -> ``FbiMafiaState.apply_move``, what the
bench's bots use) accepts and refuses exactly what the text path (``Session.submit`` of the
value's words, ``move_name``) does: over random games of every mode, at every 8th input, the
awaited seat tries some of its legal moves (every one of them at every 32nd input), the other
seats one of them, and any seat values that are wrong in every way a value can be (cells off
the board or of the wrong type, a suspect by name, a token or an answer where none belongs,
shifts out of range, words instead of a value), by words and by value, on a copy of the game (a
fresh one after an accepted input). Both paths must raise the same error (type, message and
allowed list) and leave the game as it was, or accept it with the same recorded move, the same
events and the same state after (compared field by field with the types of every value).
``well_formed`` (the values applied as they are) is checked to hold of exactly the values
``parse_move`` reads back from their words, a planted lax value path to be caught, and the
bench's games by value to be the bots' games by words."""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from arbiter.engine import contract, registry
from arbiter.engine.bench import play_random
from arbiter.engine.bots import RandomBot
from arbiter.engine.errors import ArbiterError
from arbiter.engine.games.fbi_mafia.grid import cells as all_cells
from arbiter.engine.games.fbi_mafia.moves import FORMS, TOKENS, Move, move_name, parse_move, well_formed
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = [v.name for v in FBI.variants()]


def odd_values(size: int, rng: random.Random) -> list[Any]:
    """Values a bot should never send, of every kind of wrong (and a few right ones written
    unusually): each is judged by both paths all the same."""
    c = (1, 1)
    out: list[Any] = [
        Move("kill", cells=((size, 0),)), Move("kill", cells=((0, -1),)), Move("kill", cells=((True, 0),)),
        Move("kill", cells=((1.0, 1),)), Move("kill", cells=([1, 1],)), Move("kill", cells=[c]),
        Move("kill", cells=()), Move("kill", cells=(c, c)), Move("arrest", cells=(c,), token="bomb"),
        Move("defuse", cells=(c,), token="protection"), Move("defuse", cells=(c,), token="bomb"),
        Move("defuse", cells=(c,), token="threat"), Move("prepare", cells=(c, (1, 2)), token="protection"),
        Move("prepare", cells=(c,)), Move("swap", cells=(c, (1, 2))), Move("swap", cells=(c, (3, 3))),
        Move("threat", cells=(c, c)), Move("threat", cells=(c, (0, 1), (0, 2), (0, 3))), Move("threat"),
        Move("protect", answer=True), Move("protect", answer=False), Move("detonate", answer=True),
        Move("detonate", answer=1), Move("kill", answer=True), Move("protect", cells=(c,), answer=True),
        Move("keep", name="ada"), Move("keep", name="Ada"), Move("evidence", name="nobody"),
        Move("evidence", name="a1"), Move("evidence", cells=(c,)), Move("keep", cells=(c,)),
        Move("masquerade"), Move("inspect"), Move("skip"), Move("masquerade", cells=(c,)),
        Move("inspect", token="bomb"), Move("skip", line="row"), Move("surrender", index=0),
        Move("fly", cells=(c,)), Move("KILL", cells=(c,)), Move("shift", line="row", index=0, delta=1),
        Move("shift", line="col", index=size - 1, delta=-2), Move("shift", line="row", index=size, delta=1),
        Move("shift", line="row", index=0, delta=3), Move("shift", line="row", index=0, delta=True),
        Move("shift", line="column", index=0, delta=1), Move("shift", line="diagonal", index=0, delta=1),
        Move("shift", line="row", index=-1, delta=1), Move("shift", line="row", index=0, delta=1, cells=(c,)),
        Move("shift", line="row", index=0, delta=1, token="bomb"), Move("kill", cells=(c,), line="row"),
        "kill b2", "KILL  b2", "shift row 1 left", "skip", "", "protect yes", "threat a1 b1",
    ]
    out += [Move(verb, cells=(rng.choice(all_cells(size)),)) for verb in sorted(FORMS)]
    return out


def strict(value: Any) -> Any:
    """``value`` with the type of every part spelt out (so ``1 == True`` and ``1 == 1.0`` do not
    pass for equal), sets sorted: what two states must share to be the same game.

    The exact built-in types that make up almost all of a state are answered first, each as
    ``_strict_any`` answers it (an ``int`` or a ``str`` has no ``__dict__`` and is no container
    or dataclass, so it is its type and itself; a ``dict``, ``list`` or ``tuple`` is each part's
    ``strict``): the same value, without the general checks' cost on every string and number."""
    t = type(value)
    if t is str or t is int or t is bool or t is float or value is None:
        return (t.__name__, value)
    if t is tuple or t is list:
        return (t.__name__, [strict(v) for v in value])
    if t is dict:
        return ("dict", [(strict(k), strict(v)) for k, v in value.items()])
    return _strict_any(value)


def _strict_any(value: Any) -> Any:
    """``strict`` of any value (of the types above too: the same answer)."""
    if isinstance(value, dict):
        return ("dict", [(strict(k), strict(v)) for k, v in value.items()])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(strict(v)) for v in value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [strict(v) for v in value])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a value: its fields (not a memo it carries)
        return (type(value).__name__, [(f.name, strict(getattr(value, f.name))) for f in dataclasses.fields(value)])
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return (type(value).__name__, strict(vars(value)))
    return (type(value).__name__, value)


def trial_copies(session: Session) -> Callable[[], Session]:
    """Copies of the game to try inputs on (``contract.trial_copies``: the game pickled once,
    each copy read from those bytes, as ``contract._copy`` makes one), which also share the
    session's record entries: they are never changed, only appended to, and each copy's lists
    are its own. The game is not changed while its copies are tried (only the copies are
    submitted to)."""
    return contract.trial_copies(session, also=session.entries)


def facts(session: Session, events_from: int, entries_from: int) -> Any:
    """The game as it stands after an input (the game before it being the same): every
    attribute of the state, the events from ``events_from`` on with all their fields, the
    entries from ``entries_from`` on, the last move, the clock and the chance (its last records
    and its generator's state), with every count."""
    state = {k: v for k, v in vars(session.state).items() if k not in ("events", "chance")}
    events = [(e.index, e.kind, e.text, e.data, e.to) for e in session.events.since(events_from)]
    moves = [(m.n, m.seat, m.text, m.time_ms, m.public) for m in session.moves[-1:]]
    chance = session.chance
    return (strict((state, len(session.events), events, session.entries[entries_from:], len(session.moves), moves,
                    session.clock_ms, chance.records[-3:], len(chance.records), chance._next)),
            chance._rng.getstate())


def unchanged(session: Session) -> bytes:
    """What a refused input must leave as it was (``state_snapshot``, but the event log and the
    chance's records stand by their lengths: they are only appended to)."""
    state = {k: v for k, v in vars(session.state).items() if k not in ("events", "chance")}
    chance = session.chance
    return pickle.dumps((state, len(session.events), len(session.entries), session.moves, session.clock_ms,
                         len(chance.records), chance._next, chance._rng.getstate()))


def submit(session: Session, seat: str, value: Any, by_value: bool, before: bytes | None = None) -> tuple:
    """What submitting ``value`` for ``seat`` does to ``session``, by value or by words
    (``before``: ``unchanged(session)`` when it is known already)."""
    before = unchanged(session) if before is None else before
    events, entries = len(session.events), len(session.entries)
    try:
        if by_value:
            session.submit_move(seat, value)
        else:
            session.submit(seat, value if isinstance(value, str) else move_name(value))
    except ArbiterError as exc:
        assert unchanged(session) == before, (seat, value)
        return ("refused", type(exc), exc.message, exc.allowed)
    except Exception as exc:  # noqa: BLE001 (a value not even its words can be made of: the same failure)
        assert unchanged(session) == before, (seat, value)
        return ("failed", type(exc), str(exc))
    return ("accepted", session.moves[-1].text, facts(session, events, entries))


def compare(session: Session, tries: list[tuple[str, Any]], counts: dict[str, int]) -> None:
    """Each of ``tries`` by words, then by value, on a copy of ``session`` (a fresh one for each
    path once an input was accepted); the two outcomes must be equal."""
    trial_copy = trial_copies(session)
    trial = trial_copy()
    # What a refusal must leave, the same before every try: each try is made on a fresh copy
    # (all alike: read from the same bytes) or on one a refusal was just held to have left
    # exactly so.
    before = unchanged(trial)
    for seat, value in tries:
        by_words = submit(trial, seat, value, by_value=False, before=before)
        if by_words[0] == "accepted":
            trial = trial_copy()
        by_value = submit(trial, seat, value, by_value=True, before=before)
        assert by_value == by_words, (seat, value)
        if by_value[0] == "accepted":
            trial = trial_copy()
        counts[by_words[0]] += 1


@pytest.mark.parametrize("mode", MODES)
def test_the_value_path_accepts_and_refuses_as_the_words(mode):
    counts = {"accepted": 0, "refused": 0, "failed": 0}
    for seed in (1, 2):
        rng = random.Random(f"move-path:{mode}:{seed}")
        session = Session(FBI, mode, seed=seed)
        bots = {s: RandomBot(s, seed) for s in session.seats}
        steps = 0
        while not session.over:
            if steps % 8 == 0:
                awaited = session.state.awaited_seats()[0]
                legal = [m for m in session.state.legal_moves(awaited) if m.verb != "surrender"]
                every = steps % 32 == 0  # now and then every legal move, else some
                tries = [(awaited, m) for m in (legal if every else rng.sample(legal, min(len(legal), 8)))]
                tries += [(rng.choice(session.seats), v) for v in rng.sample(odd_values(session.state.size, rng), 16)]
                tries += [(s, rng.choice(legal)) for s in session.seats if s != awaited and legal]
                tries.append((rng.choice(session.seats), Move("surrender")))
                compare(session, tries, counts)
            steps += 1
            seat = session.state.awaited_seats()[0]
            session.submit_move(seat, bots[seat].choose_move(session))
    assert counts["accepted"] > 150 and counts["refused"] > 300 and counts["failed"], counts


def test_well_formed_values_are_exactly_what_the_words_read_back():
    """A value is applied as it is only when its words read back to it, field by field with
    the types; every value ``parse_move`` reads from canonical words is well formed."""
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for size in (5, 6, 7):
        values = odd_values(size, rng)
        values += [Move(verb, cells=tuple(rng.choice(all_cells(size + 1)) for _ in range(k)), token=token)
                   for verb in sorted(FORMS) for k in range(4) for token in (None, *TOKENS)]
        values += [Move("shift", line=line, index=i, delta=d) for line in ("row", "col") for i in range(-1, size + 1)
                   for d in range(-3, 4)]
        values += [Move(v, answer=a) for v in sorted(FORMS) for a in (True, False)]
        for value in values:
            ok = well_formed(value, size)
            seen[ok] += 1
            if ok:
                back = parse_move(move_name(value), size)
                assert strict(back) == strict(value) and repr(back) == repr(value), value
            elif isinstance(value, Move) and value.name is None:
                try:
                    back = parse_move(" ".join(move_name(value).split()), size)
                except Exception:  # noqa: BLE001, S112 (words that do not read: nothing to compare)
                    continue
                assert strict(back) != strict(value), value
    assert seen[True] > 200 and seen[False] > 1000, seen


@pytest.mark.parametrize("mode", MODES)
def test_bench_games_by_value_are_the_games_by_words(mode):
    """``play_random`` (values) plays the very games the bots' words play."""
    for seed in (1, 2, 3):
        fast = play_random(FBI, mode, seed)
        slow = Session(FBI, mode, seed=seed)
        bots = {s: RandomBot(s, seed) for s in slow.seats}
        while not slow.over:
            seat = slow.state.awaited_seats()[0]
            slow.submit(seat, bots[seat].choose(slow))
        assert fast.entries == slow.entries and fast.events.digest() == slow.events.digest()


def test_a_planted_difference_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison is not vacuous: a value path that applies every ``Move`` as it is (a cell
    of floats, a token where none belongs, a suspect by name) is caught."""
    from arbiter.engine.games.fbi_mafia import state as fm_state

    monkeypatch.setattr(fm_state, "well_formed", lambda move, size: isinstance(move, Move))
    session = Session(FBI, "standard-3v3", seed=1)
    rng = random.Random(1)
    caught = 0
    for value in odd_values(session.state.size, rng):
        try:
            compare(session, [(session.state.awaited_seats()[0], value)], {"accepted": 0, "refused": 0, "failed": 0})
        except AssertionError:
            caught += 1
    assert caught >= 5, caught

"""Invariants of Classic Mafia that hold after every input of any game (``docs/rules/mafia.md``).

Hypothesis chooses the player count, the game's seed, the seed of the generator that picks
every input, and the talk: inputs come from the built-in random bot of each seat, or from a
uniform choice among the legal inputs of the awaited seats (with generated talk, talk from
seats nobody waits for, and now and then a living player who leaves). After every input the
whole state and the new events are checked (deaths at dawn, verdicts, arrests, who sees
what), a sample of the legal inputs is tried on a copy of the game, and a few inputs that are
not legal are tried on the game itself, which must refuse them and stay unchanged. A staged
game checks what an arrest does to the Boss.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bots import RandomBot
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.contract import SharingPickler, SharingUnpickler
from arbiter.engine.errors import InputError
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.games.mafia.rules import variant_name
from arbiter.engine.games.mafia.moves import VERBS
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT, NOMINATE, VOTE
from arbiter.engine.session import Session

MAFIA = registry.get("mafia")
MAX_INPUTS = 3000
# Events only some seats may see; a public one of these kinds would leak a secret.
PRIVATE_KINDS = {"card", "team", "night-act", "suggest", "team-say", "arrested", "night-summary"}
TALK = st.text(  # any text a protocol line may hold (the others are refused as words: test_api)
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")) | st.sampled_from("\t "), min_size=1, max_size=40,
).filter(lambda t: bool(t.split()))


@dataclass
class Tracker:
    """What the checks remember between inputs (the event log is read incrementally)."""

    seen: int = 0
    out_events: Counter = field(default_factory=Counter)
    reveals: Counter = field(default_factory=Counter)
    expelled_on: Counter = field(default_factory=Counter)
    game_over: int = 0
    jailed: str | None = None  # arrested last night: its night action tonight must be a pass
    arrested: list = field(default_factory=list)
    expect_killed: dict = field(default_factory=dict)  # night -> who its acts should kill at dawn
    killed: dict = field(default_factory=dict)  # night -> who was killed at its dawn


def side(state: MafiaState, seat: str) -> str:
    return state.data.cards[state.card[seat]].side


def check_invariants(state: MafiaState, t: Tracker | None) -> None:
    """Check the state; with a tracker, also the event log (read from where it stopped)."""
    seats = state.seats
    # the cards dealt are the deck, one per seat
    assert Counter(state.card.values()) == Counter(state.deck)
    assert len(state.card) == len(seats)
    # nobody is both out and alive; the out are exactly those with a fate, and shown
    out = {s for s in seats if not state.alive[s]}
    living = state.living()
    assert set(living) == set(seats) - out
    assert set(state.fate) == out, (state.fate, out)
    assert out <= state.shown
    # the counts of the living by side match their cards
    by_side = Counter(side(state, s) for s in living)
    assert state.counts() == {k: by_side[k] for k in ("town", "mafia", "loner")}

    if t is None:
        t = Tracker(seen=len(state.events))  # a copy with a fresh log: its past is not here
        t.out_events.update({s: 1 for s in out})
        t.reveals.update({s: 1 for s in state.seats if state.result is not None and s not in out})
        t.game_over = int(state.result is not None)
    for e in state.events.since(t.seen):
        if e.kind in PRIVATE_KINDS:
            assert e.to is not None, f"a {e.kind} event is public: {e.text}"
        if e.kind == "card":
            assert e.to == (e.data["seat"],), e
        if e.kind == "team":
            assert set(e.to or ()) == set(e.data["members"]), e
        if e.to is None and "card" in e.data:
            assert e.kind in ("out", "reveal"), e
        if e.kind == "night-summary":
            # deaths at dawn: the Mafia's, the Police's and the Fighter's victims, but for the
            # Seducer's guest, and only those still in the game
            acts = e.data["acts"]
            for step, (actor, verb, target) in acts.items():
                if actor == t.jailed:
                    assert verb == "pass", f"{actor} is under arrest but used its power: {e.text}"
            guest = acts["seducer"][2] if acts.get("seducer", [None, "pass"])[1] == "seduce" else None
            victims = {acts[k][2] for k in ("mafia", "police", "fighter")
                       if k in acts and acts[k][1] in ("kill", "shoot")}
            alive_before = {x for x in state.seats if x not in t.out_events}
            t.expect_killed[e.data["night"]] = (victims - {guest}) & alive_before
            assert set(e.data["saved"]) == victims & {guest} & alive_before, e
            police = acts.get("police")
            t.jailed = police[2] if police and police[1] == "arrest" else None
            if t.jailed:
                assert t.jailed not in t.arrested, f"{t.jailed} arrested twice"
                t.arrested.append(t.jailed)
        if e.kind == "out":
            t.out_events[e.data["seat"]] += 1
            assert not state.alive[e.data["seat"]]
            fate = e.data["fate"]
            if fate.startswith("killed in night "):
                t.killed.setdefault(int(fate.split()[-1]), set()).add(e.data["seat"])
        if e.kind == "reveal":
            t.reveals[e.data["seat"]] += 1
        if e.kind == "verdict" and "counts" in e.data:
            # the most votes, alone and at least one, expel; a first-round tie goes to a re-vote
            counts = e.data["counts"]
            top = max(counts.values(), default=0)
            leaders = [c for c, n in counts.items() if n == top]
            outcome = {k: e.data[k] for k in ("expelled", "protected", "tied") if k in e.data}
            if top == 0 or len(leaders) > 1 and e.data["round"] == 2:
                assert outcome == {}, e  # nobody leaves
            elif len(leaders) > 1:
                assert outcome == {"tied": leaders}, e  # one re-vote among the tied
            elif leaders[0] == state.shielded:  # (the day's protection: dawn is inputs away)
                assert outcome == {"protected": leaders[0]}, e
            else:
                assert outcome == {"expelled": leaders[0]}, e
        if e.kind == "verdict" and "expelled" in e.data:
            t.expelled_on[e.data["day"]] += 1
        if e.kind == "morning" and "no_vote" in e.data:  # the Chameleon bans a living player
            assert e.data["no_vote"] not in t.out_events, e
        if e.kind == "nominate":
            assert e.data["seat"] != e.data["nominee"], e
        if e.kind == "game-over":
            t.game_over += 1
    t.seen = len(state.events)
    for night, killed in t.killed.items():
        assert killed == t.expect_killed.get(night), (night, killed, t.expect_killed.get(night))
    assert not set(t.expect_killed) - set(t.killed) - {n for n, k in t.expect_killed.items() if not k}
    # one `out` event per player out, none for the living; at most one expulsion a day
    assert set(t.out_events) == out and set(t.out_events.values()) <= {1}, t.out_events
    assert set(t.expelled_on.values()) <= {1}, t.expelled_on
    # the out have no inputs at all
    for s in out:
        assert state.legal_inputs(s) == [], s

    if state.result is None:
        assert t.game_over == 0 and not t.reveals
        awaited = state.awaiting()
        assert awaited, f"nobody is awaited in {state.phase_text()}"
        assert len({a.seat for a in awaited}) == len(awaited), awaited
        for a in awaited:
            assert state.alive[a.seat], f"{a.seat} is awaited but out"
            acts = [m for m in state.legal_inputs(a.seat) if m != "leave"]
            assert acts, f"{a.seat} is awaited ({a.kind}) with nothing to do"
        if state.phase == NOMINATE:
            assert {a.seat for a in awaited} == {s for s in living if s not in state.done_nominating}
        elif state.phase == VOTE:
            assert len(awaited) == 1 and awaited[0].seat == state.current_voter()
            assert awaited[0].seat != state.no_vote
        else:
            assert state.phase == NIGHT and state.step() is not None
        # a game goes on only while no side has won
        c = state.counts()
        assert 1 <= c["mafia"] <= c["town"], c
    else:
        r = state.result
        assert state.awaiting() == []
        assert all(state.legal_inputs(s) == [] for s in seats)
        assert t.game_over == 1
        # every card is shown: by an `out` event (while playing) or a `reveal` at the end
        assert set(t.reveals.values()) <= {1}
        assert set(t.out_events) | set(t.reveals) == set(seats)
        assert not set(t.out_events) & set(t.reveals)
        assert state.shown == set(seats)
        # the winning side obeys the win rules ...
        c = state.counts()
        if c["mafia"] == 0 and c["town"] > 0:
            assert r.winner == "town", (r, c)
        elif c["mafia"] > c["town"]:
            assert r.winner == "mafia", (r, c)
        elif c["mafia"] == 0:
            assert r.winner is None, (r, c)
        else:
            raise AssertionError(f"the game ended with {c}: no side has won")
        # ... and the winners are that side's players, alive or out, and the living loners
        expected = [s for s in seats if (r.winner is not None and side(state, s) == r.winner)
                    or (side(state, s) == "loner" and state.alive[s])]
        assert list(r.winners) == expected, (r.winners, expected)
        assert r.scores == {s: "won" if s in expected else "lost" for s in seats}


def check_views(state: MafiaState, seat: str) -> None:
    """A seat's view holds only the cards it may know: its own, its team's, the out's."""
    view = state.view(seat)
    team = state.team_of(seat)
    for s in view["cards"]:
        assert (s == seat or s in state.shown or (team is not None and state.team_of(s) == team)), (seat, s)
    assert view["card"] == state.card[seat]
    step = state.step()
    if "suggestions" in view:  # a team's conference: only its awake members see it
        assert step is not None and seat in state.awake_team(step.name), (seat, state.phase_text())
    assert "night_acts" not in view and "jailed" not in view and "shielded" not in view


def copies_of(state: MafiaState) -> Callable[[], MafiaState]:
    """Copies to try inputs on: the data is shared (never changed), the event log is fresh (one
    new log a copy, wherever the state refers to its log), everything else the state's own; the
    copy ``copy.deepcopy(state, {id(state.data): state.data, id(state.events): EventLog()})``
    makes. The state is pickled once (the data and the log left out by reference) and each copy
    read from those bytes: the state is not changed while its copies are tried (only the copies
    are applied to), so each copy is the one a deepcopy made then."""
    shared = {id(state.data): state.data, id(state.events): state.events}
    buffer = io.BytesIO()
    SharingPickler(buffer, shared).dump(state)
    blob = buffer.getvalue()

    def copy() -> MafiaState:
        fresh = EventLog()
        found = {id(state.data): state.data, id(state.events): fresh}  # (the copy's own log, empty)
        copied = SharingUnpickler(io.BytesIO(blob), found.__getitem__).load()
        assert type(copied) is type(state) and copied is not state and copied.events is fresh
        return copied

    return copy


def concrete(text: str, rng: random.Random, talk: list[str]) -> str:
    return "say " + rng.choice(talk) if text == "say TEXT" else text


def try_legal_sample(session: Session, rng: random.Random, talk: list[str], k: int = 2) -> None:
    """Every legal input of an awaited seat is accepted (a sample, tried on a copy)."""
    state = session.state
    pairs = [(a.seat, m) for a in state.awaiting() for m in state.input_forms(a.seat) + state.legal_inputs(a.seat)]
    copy = copies_of(state)
    for seat, m in rng.sample(pairs, min(k, len(pairs))):
        twin = copy()
        try:
            twin.apply(seat, concrete(m, rng, talk), session.clock_ms + 1000)
        except InputError as exc:
            raise AssertionError(f"legal input {seat} {m!r} refused in {state.phase_text()}: {exc.message}") from None
        check_invariants(twin, None)


def try_illegal(session: Session, rng: random.Random, tries: int = 2) -> None:
    """An input outside a seat's legal inputs is refused, and changes nothing."""
    state = session.state
    for _ in range(tries):
        seat = rng.choice(state.seats)
        verb = rng.choice(VERBS)
        if verb in ("say", "leave"):
            text, form = ("say hello", "say TEXT") if verb == "say" else ("leave", "leave")
        else:
            text = form = f"{verb} {rng.choice(state.seats + ('', 'p0', 'host'))}".strip()
        if form in state.legal_inputs(seat) + state.input_forms(seat):
            continue
        before = (repr(state.view(HOST)), len(state.events), len(session.moves), len(session.entries))
        try:
            session.submit(seat, text)
        except InputError:
            pass
        else:
            raise AssertionError(f"{seat} {text!r} was accepted but is not among {state.legal_inputs(seat)}")
        after = (repr(state.view(HOST)), len(state.events), len(session.moves), len(session.entries))
        assert after == before, f"the refused input {seat} {text!r} changed the game"


def next_input(session: Session, rng: random.Random, talk: list[str], bots: dict[str, RandomBot] | None,
               leave_chance: float) -> tuple[str, str]:
    state = session.state
    living = state.living()
    if rng.random() < leave_chance:
        return rng.choice(living), "leave"
    if rng.random() < 0.05:  # talk from anyone who may talk now, awaited or not
        talkers = [s for s in living if "say TEXT" in state.input_forms(s)]
        if talkers:
            return rng.choice(talkers), "say " + rng.choice(talk)
    seat = rng.choice(state.awaiting()).seat
    if bots is not None:
        text = bots[seat].choose(session)
        assert text is not None, f"the random bot of {seat} had nothing to send"
        return seat, text
    options = state.input_forms(seat) + [m for m in state.legal_inputs(seat) if m != "leave"]
    return seat, concrete(rng.choice(options), rng, talk)


def play(players: int, seed: int, rng: random.Random, talk: list[str], *, bots: bool, leave_chance: float,
         checks: bool = True, legal_k: int = 2) -> tuple[Session, list[tuple[str, str]]]:
    session = Session(MAFIA, variant_name(players), seed=seed)
    state = session.state
    assert isinstance(state, MafiaState)
    players_bots = {s: RandomBot(s, seed) for s in session.seats} if bots else None
    tracker = Tracker()
    inputs: list[tuple[str, str]] = []
    if checks:
        check_invariants(state, tracker)
    for _ in range(MAX_INPUTS):
        if session.over:
            break
        if checks:
            try_legal_sample(session, rng, talk, legal_k)
            try_illegal(session, rng)
        seat, text = next_input(session, rng, talk, players_bots, leave_chance)
        at_night = state.phase == NIGHT
        session.submit(seat, text)
        inputs.append((seat, text))
        if checks:
            check_invariants(state, tracker)
            check_views(state, rng.choice(state.seats))
            # a night input is secret down to who sent it; a day input or a departure is public
            secret = session.moves[-1].public is None
            assert secret == (at_night and text != "leave"), (seat, text)
    assert session.over, f"{players} players, seed {seed}: no result after {MAX_INPUTS} inputs"
    return session, inputs


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(6, 12),
    seed=st.integers(0, 2**31 - 1),
    rng_seed=st.integers(0, 2**32 - 1),
    talk=st.lists(TALK, min_size=1, max_size=4),
    bots=st.booleans(),
    leave_chance=st.sampled_from([0.0, 0.01, 0.05]),
)
def test_invariants_hold_after_every_input(players, seed, rng_seed, talk, bots, leave_chance):
    play(players, seed, random.Random(rng_seed), talk, bots=bots, leave_chance=leave_chance)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(6, 12),
    seed=st.integers(0, 2**31 - 1),
    rng_seed=st.integers(0, 2**32 - 1),
    talk=st.lists(TALK, min_size=1, max_size=4),
    bots=st.booleans(),
)
def test_same_seed_and_inputs_give_the_same_transcript(players, seed, rng_seed, talk, bots):
    first, inputs = play(players, seed, random.Random(rng_seed), talk, bots=bots, leave_chance=0.02, checks=False)
    again, inputs_again = play(players, seed, random.Random(rng_seed), talk, bots=bots, leave_chance=0.02,
                               checks=False)
    assert inputs_again == inputs
    text = tr.dump(first)
    assert tr.dump(again) == text
    # the same inputs sent into a fresh session make the same transcript, byte for byte
    fresh = Session(MAFIA, variant_name(players), seed=seed)
    for seat, line in inputs:
        fresh.submit(seat, line)
    assert tr.dump(fresh) == text
    # and the transcript, read back, replays exactly
    report = tr.replay(tr.parse(text))
    assert report.ok, report.problems
    assert tr.dump(report.session) == text


@pytest.mark.parametrize("players", range(6, 13))
def test_every_legal_input_of_every_awaited_seat_is_accepted(players):
    # not a sample: each legal input of each awaited seat, tried on a copy, at every input
    play(players, players, random.Random(players), ["all of them"], bots=False, leave_chance=0.02,
         legal_k=10**6)


@pytest.mark.parametrize("players", range(6, 13))
def test_random_bots_end_every_game_within_the_bound(players):
    for seed in range(25):
        session, inputs = play(players, seed, random.Random(seed), ["hello"], bots=True, leave_chance=0.0,
                               checks=False)
        assert len(inputs) < MAX_INPUTS


def test_the_invariant_check_catches_a_broken_state():
    session = Session(MAFIA, "8-players", seed=1)
    state = session.state
    check_invariants(state, Tracker())
    victim = state.living()[0]
    state.alive[victim] = False  # out, but without a fate, an `out` event or a shown card
    with pytest.raises(AssertionError):
        check_invariants(state, Tracker())


def test_the_invariant_check_catches_wrong_winners():
    session = Session(MAFIA, "6-players", seed=1)
    state = session.state
    rng = random.Random(0)
    while not session.over:
        seat = state.awaiting()[0].seat
        session.submit(seat, rng.choice([m for m in state.legal_inputs(seat) if m != "leave"]))
    tracker = Tracker()
    check_invariants(state, tracker)
    loser = next(s for s in state.seats if s not in state.result.winners)
    state.result = type(state.result)(state.result.winner, state.result.reason, state.result.text,
                                      state.result.winners + (loser,), state.result.scores)
    with pytest.raises(AssertionError):
        check_invariants(state, tracker)


# -- arrests ----------------------------------------------------------------------------------


def _arrest_the_boss() -> tuple[Session, MafiaState]:
    """Nine players: p1 Boss, p2 and p3 Mafia, p4 Agent, p5 Chief, p6 Police, p7 p8 Civilians,
    p9 Fighter. Night 1 the Chief arrests the Boss; night 2 the Boss's action is skipped."""
    cards = ["boss", "mafia", "mafia", "agent", "chief", "police", "civilian", "civilian", "fighter"]
    session = Session(MAFIA, "9-players", seed=0, recorded=[ChanceRecord("deal", cards)])
    state = session.state
    assert isinstance(state, MafiaState)

    def go(*lines: str) -> None:
        for line in lines:
            seat, _, text = line.partition(" ")
            session.submit(seat, text)

    go(*[f"p{i} pass" for i in range(1, 10)])
    go("p4 protect p7", "p2 pass", "p3 pass", "p1 kill p8", "p6 pass", "p5 arrest p1", "p9 pass")
    go(*[f"{s} pass" for s in state.living()])
    go("p4 protect p7")
    if not (state.jailed == "p1" and state.step() is not None and state.step().name == "mafia"):
        raise RuntimeError(f"set-up went wrong: {state.phase_text()}, jailed {state.jailed}")
    return session, state


def test_an_arrested_boss_hands_the_kill_on_and_cannot_act():
    session, state = _arrest_the_boss()
    # p2 takes the kill over: p3 confers with p2, then p2 is awaited; p1 is neither
    assert [(a.seat, a.kind) for a in state.awaiting()] == [("p3", "confer")]
    assert "kill p7" in state.legal_inputs("p2") and "suggest p7" not in state.legal_inputs("p2")
    assert state.legal_inputs("p1") == ["leave"]
    for text in ("kill p7", "say hello", "suggest p7", "pass"):
        with pytest.raises(InputError):
            session.submit("p1", text)
    # the arrested Boss hears nothing of the team tonight
    start = len(state.events)
    session.submit("p3", "say p7 is dangerous")
    session.submit("p3", "suggest p7")
    assert [(a.seat, a.kind) for a in state.awaiting()] == [("p2", "night")]
    session.submit("p2", "kill p7")
    assert [e.kind for e in state.events.since(start) if e.visible_to("p1")] == ["narration"]  # the Police wake
    assert [e.kind for e in state.events.since(start) if e.visible_to("p2")][:3] == ["team-say", "suggest", "night-act"]


def test_an_arrested_boss_learns_it_privately():
    # docs/rules/mafia.md, Arrest: the arrested player "learns privately that they are under
    # arrest", also when another Mafia player takes over the kill
    session, state = _arrest_the_boss()
    told = [e for e in state.events if e.kind == "arrested"]
    assert len(told) == 1 and told[0].to == ("p1",), told
    assert told[0].data == {"night": 2}
    assert "suggestions" not in state.view("p1") and "step" not in state.view("p1")
    assert state.view("p1").get("under_arrest") is True


@pytest.mark.parametrize("players, seed", [(6, 1), (9, 2), (12, 3)])
def test_legal_inputs_hold_no_template_and_say_text_is_a_form_exactly_when_talk_is_accepted(players, seed):
    """``legal_inputs`` lists only inputs a bot can send as they are; ``say TEXT`` is listed by
    ``input_forms`` exactly when a ``say`` of that seat would be accepted (tried on a copy)."""
    session = Session(MAFIA, variant_name(players), seed=seed)
    state = session.state
    bots = {s: RandomBot(s, seed) for s in session.seats}
    checked = Counter()
    while not session.over:
        copy = copies_of(state)
        for seat in state.seats:
            legal, forms = state.legal_inputs(seat), state.input_forms(seat)
            assert not [m for m in legal if any(w.isupper() for w in m.split())], legal
            assert forms in ([], ["say TEXT"])
            try:
                copy().apply(seat, "say hello", session.clock_ms + 1000)
                accepted = True
            except InputError:
                accepted = False
            assert accepted == (forms == ["say TEXT"]), (seat, state.phase_text(), forms)
            checked[accepted] += 1
        seat = state.awaiting()[0].seat
        session.submit(seat, bots[seat].choose(session))
    assert checked[True] >= 50 and checked[False] >= 50, checked

"""Hidden information in Magic Maze: the order of the tile stack and of the solo action deck.

Everything else in Magic Maze is public, but two things lie face down: the stack of mall tiles
(apart from a scenario's ``on_top`` tiles, placed on top in a known order) and, in solo play,
the deck of action tiles. Nothing a seat can see or try may depend on their order until an
explore or a draw turns the next one over.

The method is the *twin game* of tests/fbi_twins.py. Each secret is one chance outcome
(the "stack" shuffle, which holds only the shuffled tiles, never ``on_top``; the "solo-deck"
shuffle), so a twin is the same game with a reordered outcome: the two top tiles swapped, the
two bottom ones swapped (a difference that shows only late), everything reshuffled; the same
for the solo deck. Both twins receive the same inputs (a planner bot's, random legal ones,
talk, the pawn). After every input, for every seat: the event stream (kind, text, data), the
view, the ASCII board, the legal inputs, the input forms and the answers to a fixed set of
*probes* (inputs the seat might try, in canonical words: listed ones are never applied, the
others must be refused alike: kind, message and allowed list) must be identical, until an
explore or a draw shows a different tile in the twins (the legitimate divergence; a tile that
happens to be the same in both shows nothing, and the comparison goes on).

Found by these tests: a refusal of an exploration that would overlap the mall named the
stack's top tile ("tile 5 would overlap ..."); a seat could stare at itself though its legal
inputs left that out.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import GameOverError, InputError
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.moves import Move
from arbiter.engine.games.magic_maze.state import HEROES, MazeState
from arbiter.engine.session import Session

MAZE = registry.get("magic-maze")
PAIR_STEPS = 100  # inputs per twin pair at most
REVEALING = ("explore", "draw")  # the events that turn a face-down tile over
GAMES = [  # scenario, players, seeds
    ("2", 1, (1, 2)), ("5", 1, (1,)), ("2", 2, (1, 2)), ("5", 3, (1, 2)), ("7", 4, (1,)),
]


# ------------------------------------------------------------------------------------ twins
def records(scenario: str, players: int, seed: int) -> list[ChanceRecord]:
    s = Session(MAZE, scenario, seed=seed, options={"players": players})
    return list(s.chance.records)


def start(scenario: str, players: int, seed: int, recs: list[ChanceRecord]) -> Session:
    return Session(MAZE, scenario, seed=seed, options={"players": players}, recorded=recs)


def perturbations(recs: list[ChanceRecord], rng: random.Random) -> list[tuple[str, list[ChanceRecord]]]:
    """Twins of ``recs`` that differ only in a face-down order."""
    out = []
    for i, rec in enumerate(recs):
        if rec.label not in ("stack", "solo-deck"):
            continue
        order = list(rec.outcome)
        variants = {"top": order[1::-1] + order[2:], "bottom": order[:-2] + order[:-3:-1]}
        shuffled = list(order)
        while shuffled == order:
            rng.shuffle(shuffled)
        variants["reshuffled"] = shuffled
        for name, outcome in variants.items():
            twin = list(recs)
            twin[i] = ChanceRecord(rec.label, outcome)
            out.append((f"{rec.label}-{name}", twin))
    return out


# ------------------------------------------------------------------------------------ probes
def probe_inputs(state: MazeState, seat: str) -> list[str]:
    """Inputs ``seat`` might try now, in canonical words (an accepted one is exactly an entry
    of its legal list): every hero with every direction (1 to 3 squares and too far), its
    escalator and its exploration; a vortex to every vortex square; an exploration by the
    crystal ball at every exploration square and at the start tile's centre; a draw; talk;
    the pawn; a stare at every seat, its own included."""
    squares = list(state.mall.squares())
    vortexes = [state.square_name(g) for g in squares if state.kind(g)[0] == "vortex"]
    doors = [state.square_name(g) for g in squares if state.kind(g)[0] == "explore"]
    out = []
    for hero in HEROES:
        for d in ("north", "east", "south", "west"):
            out += [f"move {hero} {d} {n}" for n in (1, 2, 3, 9)]
        out += [f"escalator {hero}", f"explore {hero}"] + [f"vortex {hero} {v}" for v in vortexes]
    out += [f"explore {sq}" for sq in doors + [state.square_name(squares[5])]]
    out += ["draw", "say hello", "say", "pawn p1"] + [f"stare {s}" for s in state.seats]
    return out


def probe(session: Session, seat: str, legal: set[str], forms: list[str]) -> list[tuple[str, Any]]:
    """Each probe answered: "accepted" when listed (in ``legal``, or talk while ``say TEXT``
    is a form; never applied), else the refusal. An unlisted input that is accepted raises
    AssertionError (the game has then changed: the pair ends)."""
    out: list[tuple[str, Any]] = []
    for text in probe_inputs(session.state, seat):
        if text in legal or (text.startswith("say ") and "say TEXT" in forms):
            out.append((text, "accepted"))
            continue
        try:
            session.submit(seat, text, session.clock_ms)
        except InputError as err:
            out.append((text, (err.kind, err.message, err.allowed)))
            continue
        raise AssertionError(f"{seat} {text!r} was accepted but is not in its legal list")
    return out


def seen(session: Session, seat: str, board: bool) -> dict[str, Any]:
    st = session.state
    out = {"view": st.view(seat), "legal": st.legal_inputs(seat), "forms": st.input_forms(seat)}
    if board:
        out["board"] = session.render(seat)
    return out


# ------------------------------------------------------------------------------------ comparing
class Pair:
    """Two twins fed the same inputs and compared after each, for every seat."""

    def __init__(self, a: Session, b: Session, stats: Counter, label: str) -> None:
        self.a, self.b, self.stats, self.label = a, b, stats, label
        self.inputs: list[str] = []
        self.seen_a = self.seen_b = 0  # events already compared

    def where(self) -> str:
        return f"{self.label}, after {len(self.inputs)} inputs (last: {'; '.join(self.inputs[-5:])})"

    def compare(self, probe_now: bool) -> bool:
        """Compare the twins; False when they legitimately diverged (a different tile shown)."""
        ea, eb = self.a.events.since(self.seen_a), self.b.events.since(self.seen_b)
        self.seen_a, self.seen_b = len(self.a.events), len(self.b.events)
        for x, y in zip(ea, eb):
            if (x.kind, x.text, x.data, x.to) != (y.kind, y.text, y.data, y.to):
                assert x.kind == y.kind and x.kind in REVEALING, \
                    f"events differ: {(x.kind, x.text)} vs {(y.kind, y.text)}; {self.where()}"
                self.stats[f"diverged at {x.kind}"] += 1
                return False
        assert len(ea) == len(eb), f"one twin has more events: {ea[len(eb):] or eb[len(ea):]}; {self.where()}"
        if self.a.over or self.b.over:
            assert self.a.state.result == self.b.state.result, self.where()
            self.stats["game over"] += 1
            return False
        board = len(self.inputs) % 5 == 0
        for seat in self.a.seats:
            sa, sb = seen(self.a, seat, board), seen(self.b, seat, board)
            diff = [k for k in sa if sa[k] != sb[k]]
            assert not diff, f"{seat}'s {diff} differ: {[(sa[k], sb[k]) for k in diff][:1]}; {self.where()}"
            if probe_now:
                pa = probe(self.a, seat, set(sa["legal"]), sa["forms"])
                pb = probe(self.b, seat, set(sb["legal"]), sb["forms"])
                if pa != pb:
                    k = next(i for i, (x, y) in enumerate(zip(pa, pb)) if x != y)
                    raise AssertionError(f"{seat}'s answers to {pa[k][0]!r} differ: {pa[k][1]} vs {pb[k][1]}; "
                                         + self.where())
                self.stats["refusals compared"] += sum(1 for _, r in pa if r != "accepted")
                self.stats["accepted"] += sum(1 for _, r in pa if r == "accepted")
        self.stats["steps compared"] += 1
        return True

    def play(self, seat: str, text: str) -> None:
        """``text`` in both twins; the sand may run out before it (the game ends, in both)."""
        self.inputs.append(f"{seat} {text}")
        ends = []
        for s in (self.a, self.b):
            try:
                s.submit(seat, text)
                ends.append(None)
            except GameOverError as err:
                ends.append(err.message)
        assert ends[0] == ends[1], f"{ends}; {self.where()}"


def next_input(session: Session, rng: random.Random) -> tuple[str, str] | None:
    """Mostly the planner's next move (it explores, so tiles get turned over); else a random
    legal input of a random seat, talk included."""
    st = session.state
    if rng.random() < 0.75:
        for seat in st.seats:
            text = MAZE.bot_input("planner", st, seat, rng)
            if text is not None:
                return seat, text
    seat = rng.choice(st.seats)
    options = st.legal_inputs(seat) + st.input_forms(seat)
    if not options:
        return None
    text = rng.choice(options)
    return seat, ("say " + rng.choice(["left!", "the elf", "hurry up"]) if text == "say TEXT" else text)


def run_pair(scenario: str, players: int, seed: int, name: str, recs: list[ChanceRecord],
             twin: list[ChanceRecord], stats: Counter) -> None:
    pair = Pair(start(scenario, players, seed, recs), start(scenario, players, seed, twin), stats,
                f"scenario {scenario}, {players}p, seed {seed}, twin {name}")
    rng = random.Random(f"maze-twins:{scenario}:{players}:{seed}:{name}")
    for step in range(PAIR_STEPS):
        if not pair.compare(probe_now=step % 2 == 0):
            return
        chosen = next_input(pair.a, rng)
        if chosen is None:
            stats["no input"] += 1
            return
        pair.play(*chosen)
    stats["step budget"] += 1


# ------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("scenario, players, seeds", GAMES, ids=[f"s{s}-{p}p" for s, p, _ in GAMES])
def test_the_face_down_orders_stay_hidden_until_a_tile_is_turned(scenario: str, players: int,
                                                                 seeds: tuple[int, ...]) -> None:
    stats: Counter = Counter()
    for seed in seeds:
        recs = records(scenario, players, seed)
        for name, twin in perturbations(recs, random.Random(f"maze-perturb:{scenario}:{players}:{seed}")):
            run_pair(scenario, players, seed, name, recs, twin, stats)
    assert stats["steps compared"] >= 60, stats
    assert stats["refusals compared"] >= 1000 and stats["accepted"] >= 100, stats
    assert stats["diverged at explore"] >= 1, stats  # the twins do differ, and it shows
    if players == 1:
        assert stats["diverged at draw"] >= 1, stats


def test_on_top_tiles_are_public_and_twins_keep_them() -> None:
    """Scenario 5 puts tile 15 on top: it is not part of the shuffled outcome, so every twin
    has it on top, and its exploration shows the same tile in both."""
    recs = records("5", 2, 1)
    for _name, twin in perturbations(recs, random.Random(0)):
        a, b = start("5", 2, 1, recs), start("5", 2, 1, twin)
        assert a.state.stack[0] == b.state.stack[0] == "15"
        assert a.state.stack != b.state.stack or a.state.deck != b.state.deck


def staged_overlap(stack: list[str]) -> Session:
    """Scenario 1 whose exploration square 1a.c1 cannot be explored: tile 19 (not in
    scenario 1) lies across the place a tile would take (staging: on the staggered lattice no
    sequence of explorations overlaps), and the orange hero stands on 1a.c1."""
    rest = [t for t in mm.load().scenarios["1"].stack if t not in stack]
    s = Session(MAZE, "1", seed=0, options={"players": 2},
                recorded=[ChanceRecord("stack", stack + rest), ChanceRecord("heroes", list(HEROES))])
    st = s.state
    st.mall.place("19", st.data.tiles["19"], (-6, 4), 0)
    for hero in HEROES:
        st.heroes[hero] = None
    for hero, sq in zip(HEROES, ("1a.a1", "1a.d1", "1a.a4", "1a.c1")):
        st.heroes[hero] = st.mall.parse_square(sq)
    return s


def test_an_overlap_refusal_does_not_name_the_top_tile() -> None:
    """Twins whose stacks differ in the top tile, both at the staged overlap: every seat's
    legal inputs and refusals (the exploration's among them) must be the same."""
    order = [str(n) for n in range(2, 10)]
    a = staged_overlap(["5"] + [t for t in order if t != "5"])
    b = staged_overlap(["3"] + [t for t in order if t != "3"])
    assert a.state.stack[0] != b.state.stack[0]
    stats: Counter = Counter()
    pair = Pair(a, b, stats, "staged overlap")
    pair.seen_a, pair.seen_b = len(a.events), len(b.events)
    assert pair.compare(probe_now=True)
    with pytest.raises(InputError) as info:
        a.submit("p2", "explore orange")
    assert info.value.message == "the next tile would overlap 19.a3 here; this square cannot be explored"


def test_planted_refusal_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machinery is not vacuous: a refusal naming the top of the stack must be reported."""
    original = MazeState._plan_escalator

    def chatty(self: MazeState, seat: str, move: Move):
        try:
            return original(self, seat, move)
        except InputError as err:
            err.message += f" (next tile: {self.stack[0]})"
            raise

    monkeypatch.setattr(MazeState, "_plan_escalator", chatty)
    recs = records("2", 2, 1)
    name, twin = perturbations(recs, random.Random(0))[0]
    with pytest.raises(AssertionError, match="answers to 'escalator"):
        run_pair("2", 2, 1, name, recs, twin, Counter())


def test_planted_legality_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and so must a legal list that depends on the solo deck's order."""
    original = MazeState.legal_inputs

    def picky(self: MazeState, seat: str) -> list[str]:
        out = original(self, seat)
        return out + ["draw"] if self.solo and self.deck and self.deck[0] == "north" else out

    monkeypatch.setattr(MazeState, "legal_inputs", picky)
    recs = records("2", 1, 1)
    failures = 0
    for name, twin in perturbations(recs, random.Random(0)):
        try:
            run_pair("2", 1, 1, name, recs, twin, Counter())
        except AssertionError as err:
            failures += "legal" in str(err)
    assert failures >= 1

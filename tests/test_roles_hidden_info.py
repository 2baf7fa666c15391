"""Hidden information in Hidden Roles: a seat knows its own card, and nothing of another seat's
card until that card is revealed (docs/rules/hidden-roles.md, "What each seat knows").

The method is the *twin game* of tests/test_maze_hidden_info.py and tests/mafia_twins.py.
The deal is one chance outcome (``roles``: the shuffled cards, dealt top first with the redraw
rule), so for a seat S a twin is the same game whose ``roles`` outcome gives OTHER seats other
cards, S's own staying put: two other seats exchange their cards, or another seat's card is
exchanged with one left in the deck (a card the game can use, so the deal takes the same
places). Both twins get the same inputs: mostly the planner's next move (so tiles are turned,
heroes reach items, hourglasses flip and missions move), else a random input that its seat
may send in BOTH twins (accusations, votes, the eye card, the pawn, stares, talk, abandoning,
divining), or time passing. After every input, S's event stream (kind, text, data, audience),
view, board (every few inputs), legal inputs, input forms, awaited inputs as S sees them, the
game's next deadline, and S's answers to a set of probes (inputs S might try: every verb of the
expansion with every seat, and the base game's; the ones S's legal inputs and forms list are
left out, as they would be accepted) must be identical, until a differing card legitimately
shows: the first event that differs must be a card revealed, or a mission announced failed
(which reveals it). The checks count what they compare, and planted leaks must be caught.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import GameOverError, InputError
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState
from arbiter.engine.session import Session

from tests.roles_twins import REVEALING, next_input, start, twins

MAZE = registry.get("magic-maze")
GAMES = [  # scenario, players, level, seed, steps
    ("2", 3, 1, 1, 70), ("3", 4, 2, 2, 70), ("4", 5, 3, 1, 60), ("7", 8, 3, 3, 40), ("6", 6, 4, 1, 60),
    ("5", 7, 5, 2, 50), ("1", 4, 5, 4, 90),
]


# ------------------------------------------------------------------------------------ twins


# ------------------------------------------------------------------------------------ probes
def probe_inputs(state: HiddenRolesState, me: str) -> list[str]:
    seats = state.seats
    out = [f"accuse {x}" for x in seats] + [f"accuse {seats[0]} {x}" for x in seats[1:3]]
    out.append("accuse " + " ".join(x for x in seats if x != me))  # nobody left to vote on it
    out += ["vote yes", "vote no", "flip", "pass", "abandon", "say hello"]
    out += [f"eye {x}" for x in seats] + [f"pawn {x}" for x in seats] + [f"stare {x}" for x in seats[:3]]
    out += [f"divine {x} {m}" for x in seats[:4] for m in ("mage-first", "quick-hands", "mute")]
    vortexes = [state.square_name(g) for g in state.mall.squares() if state.kind(g)[0] == "vortex"]
    for hero in ("purple", "yellow", "green", "orange"):
        out += [f"move {hero} {d} {n}" for d in ("north", "east", "south", "west") for n in (1, 2, 9)]
        out += [f"escalator {hero}", f"explore {hero}"] + [f"vortex {hero} {v}" for v in vortexes[:3]]
    return out


def probe(s: Session, me: str) -> list[tuple[str, Any]]:
    legal = set(s.state.legal_inputs(me))
    talk = "say TEXT" in s.state.input_forms(me)
    out: list[tuple[str, Any]] = []
    for text in probe_inputs(s.state, me):
        if text in legal or (talk and text.startswith("say ")):
            out.append((text, "accepted"))
            continue
        try:
            s.submit(me, text, s.clock_ms)
        except InputError as err:
            out.append((text, (err.kind, err.message, err.allowed)))
            continue
        raise AssertionError(f"{me} {text!r} was accepted but is not in its legal list")
    return out


def seen(s: Session, me: str, board: bool) -> dict[str, Any]:
    st = s.state
    out = {"view": st.view(me), "legal": st.legal_inputs(me), "forms": st.input_forms(me),
           "awaiting": st.awaiting_seen_by(me), "deadline": st.next_deadline()}
    if board:
        out["board"] = s.render(me)
    return out


# ------------------------------------------------------------------------------------ comparing
class Pair:
    def __init__(self, a: Session, b: Session, me: str, stats: Counter, label: str) -> None:
        self.a, self.b, self.me, self.stats, self.label = a, b, me, stats, label
        self.inputs: list[str] = []
        self.count = 0  # events of ``me``'s stream compared

    def where(self) -> str:
        return f"{self.label}, as {self.me}, after {len(self.inputs)} inputs (last: {'; '.join(self.inputs[-5:])})"

    def compare(self, probe_now: bool) -> bool:
        ea = [(e.kind, e.text, e.data, e.to) for e in self.a.events.visible_to(self.me)][self.count:]
        eb = [(e.kind, e.text, e.data, e.to) for e in self.b.events.visible_to(self.me)][self.count:]
        for x, y in zip(ea, eb):
            if x != y:
                assert x[0] in REVEALING or y[0] in REVEALING, f"{self.me} sees {x[:2]} vs {y[:2]}; {self.where()}"
                self.stats[f"diverged at {x[0] if x[0] in REVEALING else y[0]}"] += 1
                return False
            self.count += 1
        if len(ea) != len(eb):
            extra = ea[len(eb):] or eb[len(ea):]
            assert extra[0][0] in REVEALING, f"one twin shows {self.me} more: {extra[0][:2]}; {self.where()}"
            self.stats[f"diverged at {extra[0][0]}"] += 1
            return False
        if self.a.over or self.b.over:
            assert self.a.over and self.b.over, self.where()
            self.stats["game over"] += 1
            return False
        sa, sb = seen(self.a, self.me, len(self.inputs) % 4 == 0), seen(self.b, self.me, len(self.inputs) % 4 == 0)
        diff = [k for k in sa if sa[k] != sb[k]]
        assert not diff, f"{self.me}'s {diff} differ: {[(sa[k], sb[k]) for k in diff][:1]}; {self.where()}"
        if probe_now:
            pa, pb = probe(self.a, self.me), probe(self.b, self.me)
            if pa != pb:
                k = next(i for i, (x, y) in enumerate(zip(pa, pb)) if x != y)
                raise AssertionError(f"{self.me}'s answers to {pa[k][0]!r} differ: {pa[k][1]} vs {pb[k][1]}; "
                                     + self.where())
            self.stats["refusals compared"] += sum(1 for _, r in pa if r != "accepted")
        self.stats["steps compared"] += 1
        return True

    def play(self, seat: str, text: str | int) -> None:
        """``text`` from ``seat`` in both twins (a number: time passes that many ms)."""
        self.inputs.append(f"{seat} {text}" if isinstance(text, str) else f"wait {text} ms")
        ends = []
        for s in (self.a, self.b):
            try:
                if isinstance(text, int):
                    s.advance_to(s.clock_ms + text)
                else:
                    s.submit(seat, text)
                ends.append(None)
            except GameOverError as err:
                ends.append(err.message)
        assert (ends[0] is None) == (ends[1] is None), f"{ends}; {self.where()}"


def run_pair(game: tuple, me: str, name: str, recs: list[ChanceRecord], twin: list[ChanceRecord],
             stats: Counter) -> None:
    scenario, players, level, seed, steps = game
    pair = Pair(start(scenario, players, level, seed, recs), start(scenario, players, level, seed, twin), me, stats,
                f"scenario {scenario}, {players}p, level {level}, seed {seed}, twin {name}")
    assert pair.a.state.cards[me] == pair.b.state.cards[me] and pair.a.state.cards != pair.b.state.cards
    rng = random.Random(f"roles-twins:{scenario}:{players}:{level}:{seed}:{me}:{name}")
    for step in range(steps):
        if not pair.compare(probe_now=step % 3 == 0):
            return
        chosen = next_input(pair, rng)
        if chosen is None:
            continue
        pair.play(*chosen)
    stats["step budget"] += 1


# ------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("game", GAMES, ids=[f"s{g[0]}-{g[1]}p-level{g[2]}" for g in GAMES])
def test_other_seats_cards_stay_hidden_until_revealed(game: tuple) -> None:
    scenario, players, level, seed, _ = game
    stats: Counter = Counter()
    base = start(scenario, players, level, seed)
    seats = ["p1", f"p{players}"]
    if level == 1:  # the traitor's twins differ only between heroes: look from the heroes
        seats = [x for x in base.seats if base.state.cards[x] == "hero"][:2]
    for me in seats:
        for name, twin in twins(base, me, random.Random(f"{game}:{me}")):
            run_pair(game, me, name, list(base.chance.records), twin, stats)
    assert stats["steps compared"] >= 25, stats
    assert stats["refusals compared"] >= 500, stats


def test_the_twins_do_diverge_when_a_card_shows() -> None:
    """Not vacuous: an upheld accusation shows the accused card, and the twins part there."""
    base = start("3", 4, 2, 2)
    traitorish = {x: c for x, c in base.state.cards.items()}
    me = "p1"
    name, twin = twins(base, me, random.Random(1))[0]
    a, b = start("3", 4, 2, 2, list(base.chance.records)), start("3", 4, 2, 2, twin)
    differ = next(x for x in a.seats if a.state.cards[x] != b.state.cards[x])
    accuser = next(x for x in a.seats if x not in (differ,))
    stats: Counter = Counter()
    pair = Pair(a, b, me, stats, name)
    assert pair.compare(probe_now=True)
    pair.play(accuser, f"accuse {differ}")
    assert pair.compare(probe_now=False)
    for voter in a.state.vote.voters:
        pair.play(voter, "vote yes")
    assert not pair.compare(probe_now=False) and stats["diverged at reveal"] == 1, (stats, traitorish)


def test_a_planted_refusal_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal that tells something of the other seats' cards must be reported."""
    original = HiddenRolesState._plan_vote

    def chatty(self: HiddenRolesState, seat: str, move: Any):
        try:
            return original(self, seat, move)
        except InputError as err:
            err.message += f" (cards in play: {sorted(self.cards.values())})"
            raise

    monkeypatch.setattr(HiddenRolesState, "_plan_vote", chatty)
    game = ("4", 5, 3, 1, 10)
    base = start(*game[:4])
    name, twin = twins(base, "p1", random.Random(0))[-1]
    with pytest.raises(AssertionError, match="answers to 'vote"):
        run_pair(game, "p1", name, list(base.chance.records), twin, Counter())


def test_a_planted_view_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = HiddenRolesState.roles_view

    def nosy(self: HiddenRolesState, seat: str) -> dict:
        return original(self, seat) | {"traitors": sum(c == "traitor" for c in self.cards.values())}

    monkeypatch.setattr(HiddenRolesState, "roles_view", nosy)
    game = ("3", 4, 2, 2, 10)
    base = start(*game[:4])
    failures = 0
    for name, twin in twins(base, "p1", random.Random(0)):
        try:
            run_pair(game, "p1", name, list(base.chance.records), twin, Counter())
        except AssertionError as err:
            failures += "view" in str(err)
    assert failures >= 1


def test_a_seat_sees_the_same_through_a_sand_out_vote_and_the_accusers_flip() -> None:
    """States the random twins seldom reach: the sand out while a vote is open, then the
    accuser's flip window. Two games that differ only in p1's card (both heroes' rule cards)
    give p4 the same views, legal lists, forms, awaited inputs and refusals at each of them."""
    from tests.helpers import roles_game
    from tests.roles_staging import play

    games = [roles_game("3", [first, "dwarf-averse", "traitor", "clean-record"], level=3)
             for first in ("mute", "mage-averse")]
    assert games[0].state.card_of("p1") != games[1].state.card_of("p1")

    def both_see() -> None:
        a, b = (seen(s, "p4", board=True) | {"probe": probe(s, "p4")} for s in games)
        assert a == b

    for s in games:
        play(s, "@178 p2 accuse p3")
        s.advance_to(180_000)
        assert s.state.sand_out and s.state.vote is not None
    both_see()
    for s in games:
        play(s, "@181 p1 vote yes", "@182 p4 vote yes")
        assert s.state.flip_window is not None and "p3" in s.state.eliminated
    both_see()
    for s in games:
        play(s, "@183 p2 flip")
        assert not s.state.sand_out
    both_see()

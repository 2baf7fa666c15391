"""Hidden information in Classic Mafia: twins whose deals differ by two swapped cards, played
by script and by inputs legal in both.

The method (twin games that differ only in what the seat may not know, compared after
every input) and the twins themselves: ``tests/mafia_twins.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arbiter.engine.errors import NotYourTurnError
from arbiter.engine.events import Event
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT
from arbiter.engine.session import Session

from tests.helpers import mafia_game
from tests.mafia_twins import (
    CARDS12,
    CARDS7,
    CARDS8,
    PLAYERS,
    dealing,
    setup_cards,
    side_of,
    swapped,
    team_of,
    Twin,
)


def test_the_staged_deal_is_what_the_twins_assume() -> None:
    for cards in (CARDS7, CARDS8, CARDS12, dealing(9, 1), dealing(11, 2)):
        s = mafia_game(cards)
        assert [s.state.card[x] for x in s.seats] == cards
        assert sorted(cards) == sorted(setup_cards(len(cards)))


# ------------------------------------------------------------------ swapped cards: scripted
def test_a_civilian_cannot_tell_a_mafia_and_a_civilian_apart_until_one_is_out() -> None:
    """p2 (Mafia) and p7 (Civilian) swap cards; p6, a Civilian, watches two days and nights."""
    a, b = mafia_game(CARDS8), mafia_game(swapped(CARDS8, "p2", "p7"))
    tw = Twin(a, b, "p6", sigma={"p2": "p7", "p7": "p2"})
    tw.play("p1 say good morning", "p2 say I am a simple villager", "p7 say so am I")
    tw.everyone("pass")
    assert a.state.phase == NIGHT
    tw.play("p3 seduce p4",
            "p2 say p5 looks like police", "p2 suggest p5", "p1 say agreed", "p1 kill p5",
            "p4 say hm", "p5 say arrest p2?", "p5 suggest p2", "p4 arrest p2",
            "p8 ban p1")
    assert a.state.day == 2 and not a.state.alive["p5"]
    # night 2: p2 is under arrest in A (a Mafia: the Boss kills alone) and in B (a Civilian)
    tw.play("p6 nominate p8")
    tw.everyone("pass")
    tw.roll_call(lambda voter: None if voter in ("p2", "p7") else "p8")
    assert not a.state.alive["p8"] and a.state.phase == NIGHT
    tw.play("p3 seduce p6")
    aw_a, aw_b = a.state.awaiting(), b.state.awaiting()
    assert [x.seat for x in aw_a] == ["p1"] and [x.seat for x in aw_b] == ["p7"]  # p2 jailed in A only; the head waits for p7
    tw.step("p1 kill p6", "p1 kill p6")
    tw.play("p4 shoot p3")
    assert a.state.day == 3 and a.state.alive["p6"] and not a.state.alive["p3"]
    assert tw.stopped is None and tw.compared >= 35
    # day 3: p7 is expelled; its card shows the difference, and the streams agree up to it
    tw.play("p6 nominate p7")
    tw.everyone("pass")
    tw.roll_call(lambda voter: "p7" if voter != "p7" else None)
    assert tw.stopped == "reveal"
    assert not a.state.alive["p7"]


def test_a_civilian_cannot_tell_a_loner_and_a_police_apart() -> None:
    """p8 (Chameleon) and p5 (Police) swap cards; p7 watches. The Chameleon's night step is
    played by p8 in A and p5 in B, the Police conference by p5 in A and p8 in B."""
    a, b = mafia_game(CARDS8), mafia_game(swapped(CARDS8, "p5", "p8"))
    tw = Twin(a, b, "p7", sigma={"p5": "p8", "p8": "p5"})
    tw.everyone("pass")
    tw.play("p3 seduce p1", "p2 pass", "p1 kill p6", "p5 say who?", "p5 suggest p2", "p4 arrest p2", "p8 ban p4")
    assert a.state.day == 2 and not a.state.alive["p6"]
    tw.everyone("pass")
    # p2 is under arrest: the Boss kills alone; the Police shoot the Boss
    tw.play("p3 seduce p4", "p1 kill p3", "p5 suggest p1", "p4 shoot p1", "p8 ban p4")
    assert tw.stopped is None and a.state.day == 3 and not a.state.alive["p1"] and not a.state.alive["p3"]
    assert tw.compared >= 25
    assert a.state.no_vote == "p4"  # the ban is public; who banned is not
    tw.play("p7 nominate p8")
    tw.everyone("pass")
    tw.roll_call(lambda voter: "p8")
    assert tw.stopped == "reveal" and not a.state.alive["p8"]


# -------------------------------------------------------- swapped cards: inputs legal in both
def known_to(cards: list[str], seat: str) -> set[str]:
    seats = [f"p{i}" for i in range(1, len(cards) + 1)]
    mine = cards[seats.index(seat)]
    team = team_of(mine)
    return {seat} | ({s for s, c in zip(seats, cards) if team and team_of(c) == team})


def swap_pairs(cards: list[str], seat: str, rng: random.Random, k: int = 3) -> list[tuple[str, str]]:
    """Up to ``k`` pairs of seats unknown to ``seat`` holding cards of different kinds, different
    sides first (a Mafia and a Civilian, a loner and a Police, ...)."""
    seats = [f"p{i}" for i in range(1, len(cards) + 1)]
    known = known_to(cards, seat)
    free = [s for s in seats if s not in known]
    card = dict(zip(seats, cards))
    pairs = [(x, y) for i, x in enumerate(free) for y in free[i + 1:] if card[x] != card[y]]
    rng.shuffle(pairs)
    pairs.sort(key=lambda p: side_of(card[p[0]]) == side_of(card[p[1]]))
    out, kinds = [], set()
    for x, y in pairs:
        kind = frozenset((card[x], card[y]))
        if kind not in kinds:
            kinds.add(kind)
            out.append((x, y))
    return out[:k]


def viewer(cards: list[str], role: str) -> str | None:
    """The seat watching the twins: a Civilian, a non-head Police or Chief, a Mafia, a loner."""
    wanted = {"civilian": ("civilian",), "police": ("police", "chief"), "mafia": ("mafia",),
              "loner": ("chameleon", "fighter"), "leader": ("seducer", "agent")}[role]
    for card in wanted:
        if card in cards:
            return f"p{cards.index(card) + 1}"
    return None


def run_random_twins(n: int, role: str, seeds: tuple[int, ...], budget: int = 90) -> Counter:
    stats: Counter = Counter()
    for seed in seeds:
        cards = dealing(n, seed)
        seat = viewer(cards, role)
        if seat is None:
            continue
        rng = random.Random(f"twin-pairs:{n}:{seed}:{role}")
        for x, y in swap_pairs(cards, seat, rng):
            tw = Twin(mafia_game(cards), mafia_game(swapped(cards, x, y)), seat, sigma={x: y, y: x})
            play_rng = random.Random(f"twin-play:{n}:{seed}:{seat}:{x}:{y}")
            for _ in range(budget):
                if tw.stopped:
                    break
                if not tw.random_step(play_rng):
                    tw.stopped = "no input legal in both"
            stats["pairs"] += 1
            stats["compared"] += tw.compared
            stats["inputs"] += len(tw.inputs)
            stats["hidden actors"] += tw.hidden_actors
            stats[tw.stopped or "budget"] += 1
    return stats


@pytest.mark.parametrize("n", PLAYERS)
def test_swapped_cards_unknown_to_a_civilian_stay_hidden_from_it(n: int) -> None:
    stats = run_random_twins(n, "civilian", (1, 2, 3))
    assert stats["pairs"] >= 6, stats
    assert stats["compared"] >= 200, stats
    assert stats["reveal"] >= 3, "the twins seldom reached a reveal: the swaps changed nothing visible?"
    assert stats["hidden actors"] >= 10, stats  # night inputs sent by different seats in the twins


@pytest.mark.parametrize("role", ["police", "mafia", "loner", "leader"])
@pytest.mark.parametrize("n", [8, 11, 12])
def test_swapped_cards_stay_hidden_from_other_seats(n: int, role: str) -> None:
    stats = run_random_twins(n, role, (1, 2))
    if stats["pairs"] == 0:
        pytest.skip(f"no {role} seat in the {n}-player deck")
    assert stats["compared"] >= 60, stats


def test_planted_view_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machinery is not vacuous: a view that shows everyone's card must be reported."""
    original = MafiaState.view

    def leaky(self: MafiaState, seat: str) -> dict[str, Any]:
        v = original(self, seat)
        v["spy"] = dict(self.card)
        return v

    monkeypatch.setattr(MafiaState, "view", leaky)
    with pytest.raises(AssertionError, match=r"view fields \['spy'\]"):
        run_random_twins(8, "civilian", (1,))


def test_planted_refusal_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and so must a refusal that names who is awake at night."""
    original = MafiaState._need_head

    def chatty(self: MafiaState, seat: str, step, verb: str) -> None:
        try:
            original(self, seat, step, verb)
        except NotYourTurnError as err:
            raise NotYourTurnError(f"{err.message}; {self.step_head(step)} is awake") from None

    monkeypatch.setattr(MafiaState, "_need_head", chatty)
    with pytest.raises(AssertionError, match=r"can tell the twins apart: \['probes'\]"):
        run_random_twins(8, "civilian", (1,))


def test_planted_event_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and so must Mafia talk sent to everyone."""
    original = Session.submit

    def loud(self: Session, seat: str, text: str, time_ms: int | None = None) -> list[Event]:
        st = self.state
        step = st.step() if isinstance(st, MafiaState) else None
        out = original(self, seat, text, time_ms)
        if step is not None and step.name == "mafia" and text.startswith("say"):
            self.events.emit("say", f"{seat}: {text[4:]}", {"seat": seat})
        return out

    monkeypatch.setattr(Session, "submit", loud)
    a = mafia_game(CARDS8)
    b = mafia_game(CARDS8)
    tw = Twin(a, b, "p6")
    tw.everyone("pass")
    tw.play("p3 seduce p4")
    with pytest.raises(AssertionError, match="differ|apart"):
        tw.step("p2 say kill p6", "p2 say kill p7")

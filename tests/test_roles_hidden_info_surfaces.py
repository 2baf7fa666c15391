"""Hidden information in Hidden Roles beyond the state: every way a seat is told the game.

``test_roles_hidden_info.py`` compares what the state gives a seat (its view, events, legal
inputs, forms, awaited inputs, refusals). A seat is told the game through more than that:

- a program bot (``exec:``): the ``option:`` and ``deck:`` lines before its first go, then
  before each go the other seats' moves and its events since the last one (``Session.told``),
  its ``legal:``/``form:`` lines and the ``go`` line (``ProcessBot._block``, called here as
  the referee calls it, without a process);
- an agent (``engine.agents``): what ``new_game`` is given, and its observations;
- the library (``engine.api.Game``): ``events(seat)`` (renumbered for the seat),
  ``awaiting(seat)``, ``choices(seat)``;
- a protocol session played as the seat: its opening (text and JSON) and its answers to every
  meta-command (text and JSON);
- ``arbiter show --events --seat`` (``engine.retell``): the game told again from its transcript.

Each must be the same, line for line and in the same number and order, in two games that
differ only in cards the seat may not know. Private events (another seat's card, its mission
done, its card switching sides) lie between the seat's own in the game's log: the event log's
global numbering, its length, or anything counted from them would tell the seat they happened.
Twins: random ones (``tests/roles_twins.py``) played with inputs legal in both, any deal
(hypothesis: scenario, players, level, seed) with the clock alone running, and staged ones
that reach what random play seldom does (a clock mark settling another seat's mission, a
variable card switching sides, a mission done by the other seats' inputs). A planted leak of the
log's numbering is caught.
"""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine import transcript as tr
from arbiter.engine.agents import agent_info, news
from arbiter.engine.api import Game
from arbiter.engine.programs import ProcessBot
from arbiter.engine.errors import GameOverError
from arbiter.engine.events import Event
from arbiter.engine.protocol import Protocol
from arbiter.engine.retell import retold
from arbiter.engine.session import Session
from arbiter.engine.transcript_reader import Transcript

from tests.helpers import roles_game
from tests.roles_twins import REVEALING, next_input, start, twins

META = ("awaiting", "legal", "view", "board", "score", "time", "seats", "events", "events 2")


class Told:
    """Everything one seat is told of one game, kept as a bot and an agent keep it: each
    ``look`` adds what is new since the last one (a bot's block before its go, an agent's
    observation) and what the library and a protocol session would answer now."""

    def __init__(self, session: Session, seat: str) -> None:
        self.session, self.seat = session, seat
        self.bot = SimpleNamespace(seat=seat, _told=(0, 0, 0), _set_up=False)  # a ProcessBot's own state
        self.agent = (0, 0, 0)  # where the agent's last observation ended (``news``)

    def look(self) -> dict[str, Any]:
        s, me = self.session, self.seat
        block = ProcessBot._block(self.bot, s)  # type: ignore[arg-type]
        observation, self.agent = news(s, me, self.agent)
        game = Game(s)
        out: dict[str, Any] = {
            "bot block": block, "agent info": agent_info(s, me), "observation": observation,
            "api events": [tuple(e) for e in game.events(me)], "api awaiting": game.awaiting(me),
            "api choices": game.choices(me).as_dict(),
        }
        for json_mode in (False, True):
            p = Protocol(s, me, json_mode=json_mode)
            opening = p.opening()
            out[f"opening {json_mode}"] = opening.json() if json_mode else opening.text()
            for command in META:
                out[f"{command} {json_mode}"] = p.handle(command)
        return out


def stream(s: Session, me: str) -> list[tuple[str, str, dict, tuple | None]]:
    return [(e.kind, e.text, e.data, e.to) for e in s.events.visible_to(me)]


class Twins:
    """Two games fed the same inputs, ``me``'s telling compared after each, until a card that
    differs between them shows (the first event of ``me``'s stream that differs is a card
    revealed, or a mission announced failed, which reveals it)."""

    def __init__(self, a: Session, b: Session, me: str, stats: Counter) -> None:
        self.a, self.b, self.me, self.stats = a, b, me, stats
        self.told = (Told(a, me), Told(b, me))
        self.inputs: list[str] = []
        self.parted = False
        self.agreed = 0  # the log entries the last look agreed after

    def where(self) -> str:
        return f"as {self.me}, after {len(self.inputs)} inputs (last: {'; '.join(self.inputs[-4:])})"

    def compare(self) -> bool:
        """Compare; False once the twins have legitimately parted (or the game is over)."""
        if self.parted:
            return False
        sa, sb = stream(self.a, self.me), stream(self.b, self.me)
        k = next((i for i, (x, y) in enumerate(zip(sa, sb)) if x != y), min(len(sa), len(sb)))
        if k < len(sa) or k < len(sb):
            first = [x[k][0] for x in (sa, sb) if k < len(x)]
            assert any(kind in REVEALING for kind in first), f"{self.me} sees {first} first; {self.where()}"
            self.stats["parted at a reveal"] += 1
            self.parted = True
            return False
        la, lb = (t.look() for t in self.told)
        diff = [key for key in la if la[key] != lb[key]]
        assert not diff, f"{self.me}'s {diff[0]} differs: {la[diff[0]]!r} vs {lb[diff[0]]!r}; {self.where()}"
        self.stats["looks compared"] += 1
        assert len(self.a.entries) == len(self.b.entries), self.where()
        self.agreed = len(self.a.entries)
        if self.a.over:
            self.parted = True
            return False
        return True

    def play(self, line: str) -> None:
        """``[@SECONDS] SEAT WORDS`` or ``@SECONDS`` (time passes) in both games."""
        words = line.split()
        at = round(float(words.pop(0)[1:]) * 1000) if words[0].startswith("@") else None
        self.inputs.append(line)
        for s in (self.a, self.b):
            try:
                if not words:
                    s.advance_to(at)
                else:
                    s.submit(words[0], " ".join(words[1:]), at)
            except GameOverError:
                pass

    def retold_alike(self) -> None:
        """``arbiter show --events --seat`` tells both transcripts, to where the last look agreed,
        to ``me`` alike (text and JSON)."""
        told = []
        for s in (self.a, self.b):
            t = tr.parse(tr.dump(s))
            t = Transcript(t.game, t.variant, t.data, t.seed, t.seats, t.options, t.log[:self.agreed])
            told.append([*retold(t, self.me), *retold(t, self.me, json_mode=True)])
        assert told[0] == told[1], self.where()
        self.stats["retellings compared"] += 1


# ------------------------------------------------------------------------------------ random twins
GAMES = [("3", 4, 2, 2, 40), ("4", 5, 3, 1, 40), ("1", 4, 5, 4, 50), ("6", 6, 4, 1, 40)]


@pytest.mark.parametrize("game", GAMES, ids=[f"s{g[0]}-{g[1]}p-level{g[2]}" for g in GAMES])
def test_every_way_a_seat_is_told_the_game_is_the_same_in_random_twins(game: tuple) -> None:
    scenario, players, level, seed, steps = game
    base = start(scenario, players, level, seed)
    stats: Counter = Counter()
    me = "p1" if level > 1 else next(x for x in base.seats if base.state.cards[x] == "hero")
    for name, recs in twins(base, me, random.Random(f"surfaces:{game}")):
        pair = Twins(start(scenario, players, level, seed, list(base.chance.records)),
                     start(scenario, players, level, seed, recs), me, stats)
        assert pair.a.state.cards[me] == pair.b.state.cards[me] and pair.a.state.cards != pair.b.state.cards
        rng = random.Random(f"surfaces:{game}:{name}")
        for _ in range(steps):
            if not pair.compare():
                break
            chosen = next_input(pair, rng)
            if chosen is not None:
                seat, text = chosen
                pair.play(f"@{(pair.a.clock_ms + text) / 1000}" if isinstance(text, int) else f"{seat} {text}")
        pair.retold_alike()
    assert stats["looks compared"] >= 40, stats


@settings(max_examples=25)
@given(scenario=st.sampled_from("1234567"), players=st.integers(3, 8), level=st.integers(1, 5),
       seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
def test_the_deal_and_the_clock_alone_tell_a_seat_the_same_in_twins(scenario: str, players: int, level: int,
                                                                     seed: int, pick: random.Random) -> None:
    """Any scenario, player count and level: the seat is told the same at the deal (its own card,
    the settings, the opening), then at every moment time alone changes the game (the clock marks
    of the deck, which settle missions and switches privately; the sand) until the game ends or a
    card shows."""
    base = start(scenario, players, level, seed)
    heroes = [x for x in base.seats if base.state.cards[x] == "hero"]
    me = pick.choice(heroes if level == 1 else list(base.seats))  # (at level 1 the traitor's twins are all alike)
    stats: Counter = Counter()
    pairs = twins(base, me, pick)
    for _, recs in pairs:
        pair = Twins(start(scenario, players, level, seed, list(base.chance.records)),
                     start(scenario, players, level, seed, recs), me, stats)
        while pair.compare():
            pair.play(f"@{pair.a.state.next_deadline() / 1000}")
        pair.retold_alike()
    assert stats["looks compared"] >= len(pairs), stats


# ------------------------------------------------------------------------------------ staged twins
def staged(cards_a: list[str], cards_b: list[str], me: str, lines: list[str], *, scenario: str = "2",
           level: int = 4) -> tuple[Twins, Counter]:
    """Twins dealt ``cards_a`` and ``cards_b`` (``me``'s card the same), played by ``lines``."""
    i = int(me[1:]) - 1
    assert cards_a[i] == cards_b[i] and cards_a != cards_b
    stats: Counter = Counter()
    pair = Twins(roles_game(scenario, cards_a, level=level), roles_game(scenario, cards_b, level=level), me, stats)
    assert pair.compare()
    for line in lines:
        pair.play(line)
        assert pair.compare(), f"the twins parted at {line!r}: {stats}"
    pair.retold_alike()
    return pair, stats


def private_to(s: Session, seat: str, kind: str) -> list[Event]:
    return [e for e in s.events if e.to == (seat,) and e.kind == kind and e.data.get("seat") == seat]


def test_a_clock_mark_that_settles_another_seats_mission_tells_the_seat_nothing() -> None:
    """Level 5: at 110 s the clock mark settles slow-fingers (no theft before 110 s) for its
    holder, p4, alone. p1 is told the same at every look whether p4 holds it or not, though the
    game's log holds one event more in one twin; then the table goes on (talk, the pawn, the eye
    card, an accusation, its vote)."""
    pair, stats = staged(["mage-first", "elf-last", "decoy", "slow-fingers"],
                         ["mage-first", "elf-last", "decoy", "barbarian-first"], "p1",
                         ["@50 p2 say hold on", "@109.5", "@110.5", "@111 p3 pawn p1", "@112 p2 eye p3",
                          "@113 p1 say who?", "@114 p2 accuse p3", "@115 p4 vote no", "@116 p1 stare p4"], level=5)
    assert len(private_to(pair.a, "p4", "mission")) == 1 and not private_to(pair.b, "p4", "mission")
    assert len(pair.a.events) == len(pair.b.events) + 1
    assert stats["looks compared"] == 10


def test_a_variable_card_switching_sides_tells_the_other_seats_nothing() -> None:
    """Level 4: prodded-traitor switches to the heroes once the pawn is put in front of it twice;
    a plain traitor does not. p1 puts the pawn in front of p3 twice (p2 in between): p1, and p4,
    are told the same whichever p3 holds."""
    lines = ["@10 p1 pawn p3", "@11 p2 pawn p4", "@12 p1 pawn p3", "@13 p4 eye p2", "@14 p3 say hi",
             "@15 p2 accuse p4", "@16 p1 vote no", "@17 p3 stare p1"]
    for me in ("p1", "p4"):
        pair, stats = staged(["nervous-hero", "watched-hero", "prodded-traitor", "wronged-hero"],
                             ["nervous-hero", "watched-hero", "traitor", "wronged-hero"], me, lines)
        assert [e.data["side"] for e in private_to(pair.a, "p3", "switch")] == ["hero"]
        assert not private_to(pair.b, "p3", "switch")
        assert stats["looks compared"] == len(lines) + 1


def test_a_mission_done_by_the_other_seats_inputs_tells_the_other_seats_nothing() -> None:
    """Level 5: nuisance (a traitor's mission: the pawn in front of its holder twice) is done
    by p1's and p3's pawns, and p2 alone is told. p4, a hero, is told the same as where p2
    holds barbarian-first, whose mission nothing settles here."""
    pair, stats = staged(["mage-first", "nuisance", "elf-last", "dwarf-last"],
                         ["mage-first", "barbarian-first", "elf-last", "dwarf-last"], "p4",
                         ["@5 p1 pawn p2", "@6 p3 pawn p4", "@7 p3 pawn p2", "@8 p2 say thanks", "@9 p4 pawn p1",
                          "@20"], level=5)
    assert len(private_to(pair.a, "p2", "mission")) == 1 and not private_to(pair.b, "p2", "mission")
    assert stats["looks compared"] == 7


def test_a_planted_leak_of_the_logs_numbering_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a seat's ``event:`` lines numbered as the game's log numbers them would tell
    it how many events it was not told (here: another seat's mission settled at a clock mark)."""
    real = Session.told

    def numbered(self: Session, seat: str, since: tuple[int, int, int] = (0, 0, 0)):
        lines, since_now = real(self, seat, since)
        count = iter(e.index for e in self.events.visible_to(seat, since[0]))
        return [f"{line} [{next(count)}]" if line.startswith("event: ") else line for line in lines], since_now

    monkeypatch.setattr(Session, "told", numbered)
    with pytest.raises(AssertionError, match="bot block"):
        staged(["mage-first", "elf-last", "decoy", "slow-fingers"], ["mage-first", "elf-last", "decoy", "barbarian-first"],
               "p1", ["@110.5", "@111 p3 pawn p1"], level=5)

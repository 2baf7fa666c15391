"""Hidden information in Classic Mafia: a seat never learns what docs/rules/mafia.md ("What
each seat sees") keeps from it.

The main method is the *twin game* of tests/test_hidden_info.py. Every secret of a Mafia game
is the deal (the "deal" chance outcome: seat k gets card k) and the night's inputs. For a seat S
we play two games that differ ONLY in something S may not know:

- ``swap``: two seats S knows nothing about (not S, not S's team) exchange their cards. The
  same inputs are played in both; a night input, secret down to who sent it, is sent in the
  twin by the seat playing the same part (holding the same card; in a team step the head, or
  the member at the same place in seat order), a day input by the same seat. Inputs are scripted or drawn from the inputs legal in both twins.
- ``night``: the same deal, but a night role chooses differently (the Mafia talks, suggests or
  kills otherwise, the Police confer or arrest otherwise, the Seducer, Agent, Chameleon or
  Fighter picks another target) in a way that leads to the same public morning.

After every input S's view, ASCII board, event stream (kind, text, data), awaited inputs as S
may know them, legal inputs, input forms, the framed protocol response to the input in a
session played as S (text and JSON), S's answers to every meta-command, and the refusals of
moves S might try (probes: every verb with every seat while S is awake or awaited, talk, pass,
abstain; what S's legal inputs and forms list is left out, as it would be accepted) must be
identical in the twins, until a secret legitimately shows: one of the swapped
seats leaves the game (its card is shown) or the game ends (every card is shown). At that
point the streams must agree up to the revealing event. The checks count what they compare,
and planted leaks must be caught, so the machinery is not vacuous.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.bots import RandomBot
from arbiter.engine.errors import InputError, NotYourTurnError
from arbiter.engine.events import HOST, Event
from arbiter.engine.game import SECRET_SEAT
from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol, Response
from arbiter.engine.session import Session
from tests.helpers import mafia_game

MAFIA = registry.get("mafia")
PLAYERS = tuple(range(6, 13))
META = ("awaiting", "view", "board", "events", "events 3", "score", "time", "seats")
NIGHT_VERBS = ("seduce", "protect", "kill", "suggest", "shoot", "arrest", "ban")
# p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 p7 Civilians, p8 Chameleon.
CARDS8 = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
# p1 Boss, p2 Mafia, p3 Agent, p4 Chief, p5 p6 Civilians, p7 Fighter.
CARDS7 = ["boss", "mafia", "agent", "chief", "civilian", "civilian", "fighter"]
# p1 Boss, p2 p3 p4 Mafia, p5 Seducer, p6 Chief, p7 p8 Police, p9 p10 p11 Civilians, p12 Fighter.
CARDS12 = ["boss", "mafia", "mafia", "mafia", "seducer", "chief", "police", "police",
           "civilian", "civilian", "civilian", "fighter"]


# ------------------------------------------------------------------------------------- the deal
def setup_cards(n: int) -> list[str]:
    return [card for card, k in md.load().setups[n].items() for _ in range(k)]


def dealing(n: int, seed: int) -> list[str]:
    cards = setup_cards(n)
    random.Random(f"mafia-deal:{n}:{seed}").shuffle(cards)
    return cards


def team_of(card: str) -> str | None:
    return md.load().cards[card].team


def side_of(card: str) -> str:
    return md.load().cards[card].side


def swapped(cards: list[str], x: str, y: str) -> list[str]:
    i, j = int(x[1:]) - 1, int(y[1:]) - 1
    out = list(cards)
    out[i], out[j] = out[j], out[i]
    return out


def test_the_staged_deal_is_what_the_twins_assume() -> None:
    for cards in (CARDS7, CARDS8, CARDS12, dealing(9, 1), dealing(11, 2)):
        s = mafia_game(cards)
        assert [s.state.card[x] for x in s.seats] == cards
        assert sorted(cards) == sorted(setup_cards(len(cards)))


# ----------------------------------------------------------------------------- what S can see
def word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.IGNORECASE)


def stream(session: Session, seat: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.kind, e.text, e.data) for e in session.events.visible_to(seat)]


def probes(session: Session, seat: str) -> list[str] | None:
    """Moves ``seat`` might try now that must be refused (their refusals are compared): while
    the seat is awaited or awake, every verb with every seat, else with itself and one other;
    talk, passing and abstaining; less what the seat's legal inputs and input forms list (those
    would be accepted; they are compared as lists). None once the game is over."""
    st = session.state
    if session.over:
        return None
    listed = set(st.legal_inputs(seat))
    talk = "say TEXT" in st.input_forms(seat)
    step = st.step()
    awake = any(a.seat == seat for a in st.awaiting()) or (
        step is not None and step.team is not None and seat in st.awake_team(step.team))
    targets = session.seats if awake else (seat, [s for s in session.seats if s != seat][-1])
    out = [f"{verb} {t}" for verb in (*NIGHT_VERBS, "nominate", "vote") for t in targets]
    out += ["say hello", "pass", "abstain", "frobnicate p1"]
    return [t for t in out if t not in listed and not (talk and t.startswith("say "))]


def observe(session: Session, seat: str) -> dict[str, Any]:
    """Everything the protocol lets ``seat``'s session learn, apart from move responses."""
    st = session.state
    out: dict[str, Any] = {
        "view": st.view(seat),
        "render": session.render(seat),
        "events": stream(session, seat),
        "awaiting": [a.as_dict() for a in st.awaiting_seen_by(seat)],
        "legal": st.legal_inputs(seat),
        "forms": st.input_forms(seat),
    }
    p = Protocol(session, seat)  # a session's JSON mode changes how a response is written, not what it holds:
    for command in (*META, f"legal {seat}"):  # each response compared as both
        response = p.respond(command)
        assert response is not None
        out[f"{command!r} (text)"] = response.text()
        out[f"{command!r} (json)"] = response.json()
    tries = probes(session, seat)
    if tries:
        p = Protocol(session, seat)
        moves = len(session.moves)
        out["probes"] = [p.handle(f"{seat} {t}") for t in tries]
        assert len(session.moves) == moves, f"a probe of {seat} was accepted: {out['probes']}"
    return out


def difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = [k for k in a if a[k] != b.get(k)]
    if not keys:
        return ""
    k = keys[0]
    if k == "view":
        fields = sorted(f for f in set(a[k]) | set(b[k]) if a[k].get(f) != b[k].get(f))
        return f"view fields {fields}: {[(a[k].get(f), b[k].get(f)) for f in fields]}"
    if k == "events":
        i = next((i for i, (x, y) in enumerate(zip(a[k], b[k])) if x != y), min(len(a[k]), len(b[k])))
        return f"events from #{i}: {a[k][i:i + 2]} vs {b[k][i:i + 2]}"
    return f"{keys}: {str(a[k])[:600]!r} vs {str(b[k])[:600]!r}"


REVEALING = ("out", "reveal")


def first_reveal(events: list[Event], secret: set[str]) -> int:
    """Index (in a seat's stream) of the first event that legitimately shows a secret of the twins."""
    for i, e in enumerate(events):
        if e.kind == "game-over" or (e.kind in REVEALING and e.data.get("seat") in secret):
            return i
    return len(events)


class Twin:
    """Two games fed the same inputs through sessions played as ``seat``, compared after each."""

    def __init__(self, a: Session, b: Session, seat: str, sigma: dict[str, str] | None = None,
                 secret: set[str] | None = None) -> None:
        self.a, self.b, self.seat = a, b, seat
        self.sigma = dict(sigma or {})  # night actor in A -> night actor in B
        self.secret = set(secret if secret is not None else self.sigma)  # seats whose 'out' reveals the difference
        self.pa, self.pb = Protocol(a, seat), Protocol(b, seat)
        self.compared = 0
        self.responses = 0
        self.hidden_actors = 0  # night inputs sent by different seats in the twins
        self.stopped: str | None = None
        self.inputs: list[str] = []
        self.check()

    # -- comparing ----------------------------------------------------------------------------
    def where(self) -> str:
        return f"seat {self.seat}, after {len(self.inputs)} inputs (last: {'; '.join(self.inputs[-5:])})"

    def check(self) -> None:
        oa, ob = observe(self.a, self.seat), observe(self.b, self.seat)
        diff = difference(oa, ob)
        assert not diff, f"{self.seat} can tell the twins apart: {diff}; {self.where()}"
        self.compared += 1

    def revealed(self) -> bool:
        return self.a.over or self.b.over or any(
            not self.a.state.alive[s] or not self.b.state.alive[s] for s in self.secret)

    def check_up_to_reveal(self) -> None:
        sa, sb = self.a.events.visible_to(self.seat), self.b.events.visible_to(self.seat)
        ka, kb = first_reveal(sa, self.secret), first_reveal(sb, self.secret)
        assert ka == kb, f"the reveal comes at #{ka} in one twin and #{kb} in the other; {self.where()}"
        pa = [(e.kind, e.text, e.data) for e in sa[:ka]]
        pb = [(e.kind, e.text, e.data) for e in sb[:kb]]
        assert pa == pb, f"{self.seat}'s streams differ before the reveal: {difference({'events': pa}, {'events': pb})}"
        if ka < len(sa):
            assert sa[ka].kind == sb[kb].kind and sa[ka].data.get("seat") == sb[kb].data.get("seat"), (sa[ka], sb[kb])

    # -- playing -------------------------------------------------------------------------------
    def night(self) -> bool:
        return self.a.state.phase == NIGHT and not self.a.over

    def twin_actor(self, seat: str) -> str:
        """The seat of B that plays ``seat``'s night part: the seat holding the same card, but in
        a team step the head for the head and the members in seat order for the members (who
        heads a team without its Boss or Chief depends on seat order, which a swap changes)."""
        if not self.night():
            return seat
        sa, sb = self.a.state, self.b.state
        step = sa.step()
        if step is not None and step.team:
            order = [(st.step_head(step), st.awake_team(step.team)) for st in (sa, sb)]
            oa, ob = ([h] + [x for x in team if x != h] for h, team in order)
            if seat in oa and len(oa) == len(ob):
                return ob[oa.index(seat)]
        return self.sigma.get(seat, seat)

    def mapped(self, line: str) -> str:
        seat, _, text = line.partition(" ")
        if self.night() and text != "leave":
            seat = self.twin_actor(seat)
        return f"{seat} {text}"

    def step(self, line_a: str, line_b: str | None = None) -> None:
        """Play ``line_a`` in A and ``line_b`` (default: the same input, by the twin's actor) in
        B, as the referee plays a bot's move in the seat's session."""
        assert self.stopped is None, f"the twins already stopped: {self.stopped}"
        line_b = line_b if line_b is not None else self.mapped(line_a)
        rb = self._move(self.pb, line_b)
        ra = self._move(self.pa, line_a)
        self._after(line_a, ra, rb)

    @staticmethod
    def _move(p: Protocol, line: str) -> Response:
        seat, _, text = line.partition(" ")
        return p.move(seat, text, None, referee=True)

    def _after(self, line: str, ra: Response, rb: Response) -> None:
        self.inputs.append(line)
        if self.revealed():
            assert ra.headline == rb.headline, (ra.headline, rb.headline)
            self.check_up_to_reveal()
            self.stopped = "reveal"
            return
        assert ra.text() == rb.text(), f"responses differ: {ra.text()!r} vs {rb.text()!r}; {self.where()}"
        assert ra.json() == rb.json(), f"JSON responses differ: {ra.json()} vs {rb.json()}; {self.where()}"
        self.responses += 1
        self.check()

    def play(self, *lines: str) -> None:
        for line in lines:
            self.step(line)

    def everyone(self, text: str) -> None:
        """Every living player answers the nominations with ``text`` (e.g. pass)."""
        for s in self.a.state.living():
            if any(x.seat == s for x in self.a.state.awaiting()):
                self.step(f"{s} {text}")

    def roll_call(self, choose) -> None:
        """Each voter called votes ``choose(voter)`` (a candidate) or abstains (None)."""
        while self.stopped is None and self.a.state.phase == "vote" and not self.a.over:
            voter = self.a.state.current_voter()
            target = choose(voter)
            self.step(f"{voter} vote {target}" if target else f"{voter} abstain")

    def random_step(self, rng: random.Random) -> bool:
        """One input legal in both twins (A's choice; B's actor mapped at night); False if none."""
        night = self.night()
        actors = list(dict.fromkeys(x.seat for x in self.a.state.awaiting()))
        rng.shuffle(actors)
        for actor in actors:
            st = self.a.state
            options = st.input_forms(actor) + [m for m in st.legal_inputs(actor) if m != "leave"]
            rng.shuffle(options)
            options.sort(key=lambda m: m == "say TEXT" and rng.random() < 0.8)  # talk now and then
            for text in options:
                if text == "say TEXT":
                    text = "say " + " ".join(rng.choice(["I", "think", "p2", "is", "lying", "trust", "me"])
                                             for _ in range(rng.randint(1, 4)))
                actor_b = self.twin_actor(actor) if night else actor
                try:
                    rb = self._move(self.pb, f"{actor_b} {text}")
                except InputError:
                    continue  # refused: nothing changed in B
                ra = self._move(self.pa, f"{actor} {text}")
                self.hidden_actors += actor_b != actor
                self._after(f"{actor} {text}", ra, rb)
                return True
        return False


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


# ------------------------------------------------------------------- night choices (same deal)
def night_twin(cards: list[str], watchers: list[str], script_a: list[str], script_b: list[str],
               after: list[str]) -> list[Twin]:
    """Play the same deal twice: ``script_a`` / ``script_b`` (paired line by line) then
    ``after`` (the same public inputs in both), watched by every seat of ``watchers``."""
    assert len(script_a) == len(script_b)
    twins = []
    for seat in watchers:
        tw = Twin(mafia_game(cards), mafia_game(cards), seat, secret=set())
        for la, lb in zip(script_a, script_b):
            tw.step(la, lb)
        for line in after:
            if line == "*pass":
                tw.everyone("pass")
            elif line.startswith("*vote "):
                target = line.split()[1]
                tw.roll_call(lambda voter, t=target: t)
            else:
                tw.step(line)
        assert tw.stopped is None
        twins.append(tw)
    return twins


DAY_PASS = ["*pass"]
EIGHT = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]


def test_mafia_talk_and_suggestions_never_reach_other_seats() -> None:
    a_night = ["p3 seduce p4", "p2 say let us take p6 tonight", "p2 suggest p6", "p1 say fine", "p1 kill p7",
               "p4 arrest p8", "p8 ban p3"]
    b_night = ["p3 seduce p4", "p2 say no, p7 is the danger", "p2 suggest p4", "p1 say hmm, p4 then?", "p1 kill p7",
               "p4 arrest p8", "p8 ban p3"]
    after = ["p6 say who did it?", "p6 nominate p1", "*pass", "*vote p1"]
    watchers = [s for s in EIGHT if s not in ("p1", "p2")]
    twins = night_twin(CARDS8, watchers, ["p1 pass", "p2 pass", "p3 pass", "p4 pass", "p5 pass", "p6 pass", "p7 pass",
                                           "p8 pass"] + a_night,
                       ["p1 pass", "p2 pass", "p3 pass", "p4 pass", "p5 pass", "p6 pass", "p7 pass", "p8 pass"] + b_night,
                       after)
    assert all(tw.compared >= 20 for tw in twins)
    s = twins[0].a
    assert not s.state.alive["p1"] and not s.state.alive["p7"]  # p7 killed, p1 expelled: all public
    talk = [e for e in s.events if e.kind in ("team-say", "suggest") or (e.kind == "night-act" and e.data["step"] == "mafia")]
    assert len(talk) == 4
    for e in talk:
        assert e.to is not None and set(e.to) <= {"p1", "p2"}, e
        for seat in watchers:
            assert not e.visible_to(seat)


def test_the_mafia_kill_choice_is_hidden_when_the_seducer_saves_the_victim() -> None:
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p6", "p2 suggest p6", "p1 kill p6", "p4 shoot p8", "p8 ban p3"]
    b = pass_all + ["p3 seduce p7", "p2 suggest p7", "p1 kill p7", "p4 shoot p8", "p8 ban p3"]
    twins = night_twin(CARDS8, ["p4", "p5", "p6", "p7"], a, b, ["*pass", "p3 seduce p5", "p1 kill p4"])
    s = twins[0].a
    assert s.state.alive["p6"] and s.state.alive["p7"] and not s.state.alive["p8"]
    saved = [e for e in s.events if e.kind == "night-summary" and e.data["saved"]]
    assert saved and saved[0].data["saved"] == ["p6"] and saved[0].to == ()


def test_police_conference_and_arrest_stay_with_the_police() -> None:
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p1", "p1 kill p6", "p5 say arrest p1?", "p5 suggest p1", "p4 say yes", "p4 arrest p1",
                    "p8 ban p3"]
    b = pass_all + ["p3 seduce p1", "p1 kill p6", "p5 say what about p2", "p5 suggest p2", "p4 say no", "p4 arrest p2",
                    "p8 ban p3"]
    # night 2: in A the Boss (p1) is under arrest and p2 kills; in B p2 is, and the Boss kills
    a2 = ["p3 seduce p4", "p2 kill p7", "p4 shoot p8", "p8 ban p3"]
    b2 = ["p3 seduce p4", "p1 kill p7", "p4 shoot p8", "p8 ban p3"]
    watchers = ["p3", "p6", "p7", "p8"]
    for seat in watchers:
        tw = Twin(mafia_game(CARDS8), mafia_game(CARDS8), seat, secret=set())
        for la, lb in zip(a, b):
            tw.step(la, lb)
        if tw.stopped is None and tw.a.state.alive[seat]:
            tw.everyone("pass")
            for la, lb in zip(a2, b2):
                tw.step(la, lb)
        assert tw.stopped is None and tw.compared >= 15
    s = tw.a
    assert s.state.day == 3 and not s.state.alive["p7"] and not s.state.alive["p8"]
    police = {"p4", "p5"}
    for e in s.events:
        if e.kind in ("team-say", "suggest") or (e.kind == "night-act" and e.data.get("step") == "police"):
            assert e.to is not None and set(e.to) <= police, e
        if e.to is None:
            assert e.kind not in ("night-act", "arrested", "night-summary"), e
            assert "arrest" not in json.dumps(e.data), e
            assert not re.search(r"arrest(ed)? p\d+|under arrest", e.text), e
    for seat in ("p3", "p6", "p7", "p8"):  # not even the words reach the others
        for e in s.events.visible_to(seat):
            assert "arrest p" not in e.text and "suggests" not in e.text and "(to the Police)" not in e.text, e


def test_an_arrested_mafia_member_neither_hears_nor_sees_the_team_that_night() -> None:
    """10 players, p1 Boss, p2 p3 Mafia: the Police arrest p2 in night 1. In night 2 the team
    confers without p2; p2's sessions are identical whatever p1 and p3 say and suggest."""
    cards = ["boss", "mafia", "mafia", "seducer", "chief", "police", "civilian", "civilian", "civilian", "chameleon"]
    ten = [f"p{i}" for i in range(1, 11)]
    pre = [f"{x} pass" for x in ten] + ["p4 seduce p7", "p1 kill p7", "p5 arrest p2", "p10 ban p4"]
    pre += [f"{x} pass" for x in ten] + ["p4 seduce p8"]
    a = pre + ["p3 say p9 is the Police", "p3 suggest p9", "p1 say no, p6", "p1 kill p6"]
    b = pre + ["p3 say let us wait", "p3 suggest p8", "p1 say fine", "p1 kill p6"]
    tw = Twin(mafia_game(cards), mafia_game(cards), "p2", secret=set())
    for i, (la, lb) in enumerate(zip(a, b)):
        if i == len(pre):
            st = tw.a.state
            assert st.jailed == "p2" and st.step().name == "mafia" and st.awake_team("mafia") == ["p1", "p3"]
            assert [x.seat for x in st.awaiting_seen_by("p2")] == [SECRET_SEAT]
            assert "suggestions" not in st.view("p2") and "suggestions:" not in tw.a.render("p2")
        tw.step(la, lb)
    assert tw.stopped is None and tw.compared > len(a)
    told = [e for e in tw.a.events.visible_to("p2") if e.kind == "arrested"]
    assert len(told) == 1 and told[0].data["night"] == 2  # told at its team's call, privately


def test_the_police_shot_stays_with_the_police_when_the_morning_is_the_same() -> None:
    """The Mafia and the Police hit p6 and p7, in one order or the other: the same two deaths."""
    pass_all = [f"{s} pass" for s in EIGHT]
    a = pass_all + ["p3 seduce p4", "p2 suggest p6", "p1 kill p6", "p5 suggest p7", "p4 shoot p7", "p8 ban p3"]
    b = pass_all + ["p3 seduce p4", "p2 suggest p7", "p1 kill p7", "p5 suggest p6", "p4 shoot p6", "p8 ban p3"]
    twins = night_twin(CARDS8, ["p3", "p6", "p7", "p8"], a, b, ["*pass", "p3 seduce p5"])
    s = twins[0].a
    assert not s.state.alive["p6"] and not s.state.alive["p7"] and s.state.night == 2
    assert all(tw.compared >= 20 for tw in twins)


@pytest.mark.parametrize("role", ["seducer", "agent", "chameleon", "fighter", "fighter-target"])
def test_the_night_choices_of_loners_and_leaders_stay_private(role: str) -> None:
    """A twin where the role chose another target, leading to the same public morning."""
    if role == "seducer":  # the Mafia's victim is not the Seducer's guest in either twin
        cards, actor = CARDS8, "p3"
        pre = [f"{s} pass" for s in EIGHT]
        a = pre + ["p3 seduce p6", "p1 kill p5", "p4 arrest p7", "p8 ban p2"]
        b = pre + ["p3 seduce p7", "p1 kill p5", "p4 arrest p7", "p8 ban p2"]
    elif role == "agent":  # the protected player does not top tomorrow's vote in either twin
        cards, actor = CARDS7, "p3"
        pre = [f"p{i} pass" for i in range(1, 8)]
        a = pre + ["p3 protect p5", "p1 kill p7", "p4 arrest p2"]
        b = pre + ["p3 protect p6", "p1 kill p7", "p4 arrest p2"]
    elif role == "chameleon":  # both banned players die tonight: no ban is announced
        cards, actor = CARDS8, "p8"
        pre = [f"{s} pass" for s in EIGHT]
        a = pre + ["p3 seduce p2", "p1 kill p6", "p4 shoot p7", "p8 ban p6"]
        b = pre + ["p3 seduce p2", "p1 kill p6", "p4 shoot p7", "p8 ban p7"]
    elif role == "fighter":  # the Fighter kills the Mafia's victim, or passes
        cards, actor = CARDS7, "p7"
        pre = [f"p{i} pass" for i in range(1, 8)]
        a = pre + ["p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 kill p5"]
        b = pre + ["p3 protect p4", "p1 kill p5", "p4 arrest p2", "p7 pass"]
    else:  # the Fighter and the Police shoot the same two players in the other order
        cards, actor = CARDS12, "p12"
        pre = [f"p{i} pass" for i in range(1, 13)]
        a = pre + ["p5 seduce p6", "p1 kill p5", "p6 shoot p9", "p12 kill p10"]
        b = pre + ["p5 seduce p6", "p1 kill p5", "p6 shoot p10", "p12 kill p9"]
    seats = [f"p{i}" for i in range(1, len(cards) + 1)]
    watchers = [s for s in seats if s != actor and not (role == "fighter-target" and team_of(cards[int(s[1:]) - 1]) == "police")]
    twins = night_twin(cards, watchers, a, b, ["*pass"])
    s = twins[0].a
    assert s.state.day == 2
    acts = [e for e in s.events if e.kind == "night-act" and e.data.get("step") in ("seducer", "agent", "chameleon", "fighter")]
    assert acts
    for e in acts:  # each goes to the one seat that acted
        assert e.to is not None and len(e.to) == 1 and s.state.card[e.to[0]] == e.data["step"], e
        assert e.data.get("seat", e.to[0]) == e.to[0], e
    for tw in twins:
        assert tw.compared >= len(a) + 1
    if role == "agent":  # the protection shows only when it holds, and never who gave it
        tw = Twin(mafia_game(CARDS7), mafia_game(swapped(CARDS7, "p3", "p6")), "p5", sigma={"p3": "p6", "p6": "p3"})
        tw.play(*pre, "p3 protect p2", "p1 kill p7", "p4 arrest p1", "p7 pass", "p5 nominate p2")
        tw.everyone("pass")
        tw.roll_call(lambda voter: "p2")
        assert tw.stopped is None
        verdict = [e for e in tw.a.events if e.kind == "verdict"][-1]
        assert verdict.data.get("protected") == "p2" and "protection holds" in verdict.text
        assert not word("p3").search(verdict.text) and "p3" not in json.dumps(verdict.data)


# ------------------------------------------------------------------------------- random games
def random_game(n: int, seed: int) -> Iterator[tuple[Session, str | None, str | None, list[Event]]]:
    """(session, seat, input, events) after each input of a random bots' game."""
    s = Session(MAFIA, f"{n}-players", seed=seed)
    bots = {x: RandomBot(x, seed) for x in s.seats}
    yield s, None, None, list(s.events)
    while not s.over and len(s.moves) < 800:
        seat = s.state.awaiting()[0].seat
        text = bots[seat].choose(s)
        assert text is not None
        events = s.submit(seat, text)
        yield s, seat, text, events


SEEDS = (1, 2, 3, 4)


@pytest.mark.parametrize("n", PLAYERS)
def test_awaiting_at_night_shows_one_secret_entry_to_the_rest(n: int) -> None:
    seen: Counter = Counter()
    for seed in SEEDS:
        for s, _seat, _text, _events in random_game(n, seed):
            st = s.state
            awaited = st.awaiting()
            step = st.step()
            for seat in s.seats:
                mine = st.awaiting_seen_by(seat)
                if step is None or s.over:
                    assert mine == awaited, (seat, mine, awaited)
                    seen["day"] += 1
                    continue
                team = st.awake_team(step.name) if step.name in ("mafia", "police") else []
                if seat in team:
                    assert mine == awaited, (seat, mine)
                    assert {a.seat for a in mine} <= set(team)
                    seen["team"] += 1
                elif any(a.seat == seat for a in awaited):
                    assert mine == [a for a in awaited if a.seat == seat]
                    seen["actor"] += 1
                else:
                    assert len(mine) == 1 and mine[0].seat == SECRET_SEAT and mine[0].kind == "night", mine
                    assert step.wake in mine[0].hint
                    for a in awaited:
                        assert not word(a.seat).search(mine[0].hint), (a.seat, mine[0].hint)
                    seen["secret"] += 1
            if step is not None and not s.over:
                # the same through the protocol: a non-team seat's session prints one '-' line
                outsiders = [x for x in s.seats if all(a.seat != x for a in awaited)
                             and not (step.name in ("mafia", "police") and x in st.awake_team(step.name))]
                for x in outsiders[:2]:
                    lines = Protocol(s, x).handle("awaiting").splitlines()
                    assert lines[1:] == [f"awaiting: - night: night {st.night}: {step.wake}", ""], lines
                    obj = json.loads(Protocol(s, x, json_mode=True).handle("awaiting"))
                    assert obj["awaiting"] == [{"seat": "-", "kind": "night", "hint": f"night {st.night}: {step.wake}"}]
    assert seen["secret"] >= 100 and seen["day"] >= 100 and seen["actor"] >= 5, seen


@pytest.mark.parametrize("n", PLAYERS)
def test_private_events_go_to_their_owners_only(n: int) -> None:
    kinds: Counter = Counter()
    for seed in SEEDS:
        last_step = None
        for s, seat, text, events in random_game(n, seed):
            st = s.state
            for e in events:
                kinds[e.kind] += 1
                if e.kind == "card":
                    assert e.to == (e.data["seat"],)
                elif e.kind == "team":
                    assert e.to == tuple(x for x in s.seats if team_of(st.card[x]) == e.data["team"])
                elif e.kind in ("team-say", "suggest"):
                    team = last_step.name
                    assert e.to == tuple(st.awake_team(team)) and seat in e.to and team in ("mafia", "police"), e
                elif e.kind == "night-act":
                    if e.data["step"] in ("mafia", "police"):
                        assert seat in e.to and set(e.to) <= set(st.team_seats(e.data["step"])), e
                    else:
                        assert e.to == (seat,), e
                elif e.kind == "arrested":
                    assert e.to is not None and len(e.to) == 1 and e.to[0] == st.jailed, e
                elif e.kind == "night-summary":
                    assert e.to == ()
                else:
                    assert e.to is None, e
            last_step = st.step()
            if text is not None and st.phase == NIGHT and not s.over:
                assert text.split()[0] != "leave"
    for kind in ("card", "team", "team-say", "suggest", "night-act", "night-summary"):
        assert kinds[kind] >= 1 or (kind in ("team-say", "suggest") and n < 7), (kind, kinds)


@pytest.mark.parametrize("n", [6, 8, 12])
def test_the_night_summary_is_for_the_host_only(n: int) -> None:
    summaries = 0
    for seed in SEEDS:
        s = None
        for s, _seat, _text, _events in random_game(n, seed):
            pass
        assert s is not None
        mine = [e for e in s.events if e.kind == "night-summary"]
        summaries += len(mine)
        for e in mine:
            assert e.to == () and e.visible_to(HOST)
            for seat in s.seats:
                assert not e.visible_to(seat)
                assert e not in s.events.visible_to(seat)
        assert all(e in s.events.visible_to(HOST) for e in mine)
        host_events = json.loads(Protocol(s, json_mode=True).handle("events"))["events"]
        assert sum(1 for e in host_events if e["kind"] == "night-summary") == len(mine)
        for seat in s.seats:
            obj = json.loads(Protocol(s, seat, json_mode=True).handle("events"))
            assert not any(e["kind"] == "night-summary" for e in obj["events"])
            assert "seen by the host" not in Protocol(s, seat).handle("events")
    assert summaries >= 4


# ---------------------------------------------------------------------------- the protocol
@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
def test_a_seat_session_shows_another_seats_night_move_as_a_secret_input(json_mode: bool) -> None:
    """Every seat's session, as the referee plays each move in it (Protocol.move, referee=True)."""
    night = ["p3 seduce p6", "p2 say p7?", "p2 suggest p7", "p1 kill p7", "p5 say p1?", "p5 suggest p1",
             "p4 arrest p1", "p8 ban p2"]
    checked = Counter()
    for x in EIGHT:
        s = mafia_game(CARDS8)
        p = Protocol(s, x, json_mode=json_mode)
        for seat in EIGHT:
            p.move(seat, "pass", None, referee=True)
        for line in night:
            actor, _, text = line.partition(" ")
            step = s.state.step()
            team = s.state.awake_team(step.name) if step.name in ("mafia", "police") else [actor]
            start = len(s.events)
            out = p.render(p.move(actor, text, None, referee=True))
            caused = [e.text for e in s.events.since(start) if e.visible_to(x)]
            if json_mode:
                obj = json.loads(out)
                shown = (obj["seat"], obj["input"])
                assert [e["text"] for e in obj["events"]] == caused
            else:
                head = out.splitlines()[0]
                shown = (head,)
                assert [ln[7:] for ln in out.splitlines() if ln.startswith("event: ")] == caused
            if x == actor:
                assert shown == ((actor, text) if json_mode else (f"= {actor} {text}",)), out
                checked["own"] += 1
                continue
            assert shown == ((None, None) if json_mode else ("= - (a secret input)",)), (x, line, out)
            if x in team:  # the team learns its members' moves from the events sent to it
                assert any(word(actor).search(c) for c in caused), (x, line, caused)
                checked["team"] += 1
            else:
                assert text not in out and not NIGHT_MOVE.search(out), (x, line, out)
                assert all(c in ("The Mafia wakes and chooses a victim.", "The Police wake; the Chief shoots or arrests.",
                                 "The Chameleon wakes and chooses who may not vote tomorrow.")
                           or c.startswith(("Morning", "p7 was killed", "Day 2", "p2 may not vote"))
                           for c in caused), (x, line, caused)
                checked["outsider"] += 1
    assert checked["outsider"] >= 40 and checked["team"] >= 4 and checked["own"] == len(night), checked


def test_protocol_move_in_a_seat_session_redacts_night_moves_text_and_json() -> None:
    """The real Protocol.move, as the referee calls it for a bot, in p6's session."""
    for json_mode in (False, True):
        s = mafia_game(CARDS8)
        p = Protocol(s, "p6", json_mode=json_mode)
        host = Protocol(s)
        for x in EIGHT:
            p.move(x, "pass", None, referee=True)
        for line, wakes in [("p3 seduce p6", "The Mafia wakes"), ("p2 suggest p7", None),
                            ("p1 kill p7", "The Police wake"), ("p4 arrest p1", "The Chameleon wakes"),
                            ("p8 ban p2", "Morning of day 2")]:
            actor, _, text = line.partition(" ")
            out = p.render(p.move(actor, text, None, referee=True))
            if json_mode:
                obj = json.loads(out)
                assert obj["ok"] and obj["seat"] is None and obj["input"] is None, obj
                texts = [e["text"] for e in obj["events"]]
                assert (texts == []) if wakes is None else texts[0].startswith(wakes), texts
            else:
                assert out.startswith("= - (a secret input)\n"), out
                if wakes is None:
                    assert out == "= - (a secret input)\nawaiting: - night: night 1: The Mafia wakes and chooses a victim.\n\n"
                else:
                    assert out.splitlines()[1].startswith(f"event: {wakes}"), out
            assert text not in out and not word(actor).search(out.splitlines()[0] if not json_mode else "")
        # the host sees it all
        assert "seen by the host" in host.handle("events")
        assert ("p1", "kill p7") in [(m.seat, m.text) for m in s.moves] and s.state.day == 2


# --------------------------------------------------------------------- a Match as a Civilian
NIGHT_MOVE = re.compile(r"\b(?:seduce|protect|kill|suggest|shoot|arrest|ban)\s+p\d+\b", re.IGNORECASE)
REVEAL_KINDS = ("out", "reveal", "game-over", "morning")
DAY_KINDS = ("nominate", "vote")  # a night move that ends the night shows the day's (public) awaited inputs
DAY_AWAITING = re.compile(r"awaiting: p\d+ (?:nominate|vote): day \d+")


def night_leaks(out: str, json_mode: bool, mafia: list[str], revealing: set[str]) -> list[str]:
    """What a printed response to a night move tells that the Civilian may not know: a Mafia
    seat's name or a night move's words, outside the events that legitimately reveal them
    (deaths, the ban, the end)."""
    problems = []
    if json_mode:
        obj = json.loads(out)
        if obj.get("command") == "move" and (obj["seat"] is not None or obj["input"] is not None):
            problems.append(f"a night move is named: seat {obj['seat']!r}, input {obj['input']!r}")
        obj["events"] = [e for e in obj.get("events", []) if e["text"] not in revealing]
        obj["awaiting"] = [a for a in obj.get("awaiting", []) if a["kind"] not in DAY_KINDS]
        obj.pop("result", None)
        lines = [json.dumps(obj)]
    else:
        lines = [line for line in out.splitlines() if not (line.startswith("event: ") and line[7:] in revealing)
                 and not line.startswith("result: ") and not DAY_AWAITING.match(line)]
        if not out.startswith("= - (a secret input)\n"):
            problems.append(f"a night move's headline is not secret: {out.splitlines()[0]!r}")
    for line in lines:
        for seat in mafia:
            if word(seat).search(line):
                problems.append(f"Mafia seat {seat} printed: {line!r}")
        if NIGHT_MOVE.search(line):
            problems.append(f"a night move printed: {line!r}")
    return problems


def civilian_match(n: int, seed: int, json_mode: bool) -> tuple[list[str], Counter]:
    """Play a Match with random bots on every seat but a Civilian's, whose lines come from a
    list; return the problems found in what the Civilian's session printed."""
    s = Session(MAFIA, f"{n}-players", seed=seed)
    me = next(x for x in s.seats if s.state.card[x] == "civilian")
    mafia = [x for x in s.seats if side_of(s.state.card[x]) == "mafia"]
    protocol = Protocol(s, me, json_mode=json_mode)
    bots = {x: RandomBot(x, seed) for x in s.seats if x != me}
    lines = [f"{me} say hello", f"{me} pass", f"{me} abstain"] * 60
    night_moves: list[tuple[bool, Response]] = []
    original = protocol.move

    def move(seat: str, text: str, time_ms: int | None, *, referee: bool = False) -> Response:
        night = s.state.phase == NIGHT and not s.over and text.split()[:1] != ["leave"]
        response = original(seat, text, time_ms, referee=referee)
        night_moves.append((night, response))
        return response

    protocol.move = move  # type: ignore[method-assign]
    problems: list[str] = []
    stats: Counter = Counter()
    for out in Match(protocol, bots, lines).run():
        night, response = night_moves[-1] if night_moves else (False, None)
        if response is None or protocol.render(response) != out or not night:
            continue
        revealing = {e.text for e in s.events if e.kind in REVEAL_KINDS and e.visible_to(me)}
        problems += night_leaks(out, json_mode, mafia, revealing)
        stats["night outputs"] += 1
    stats["night moves"] = sum(1 for night, _ in night_moves if night)
    stats["moves"] = len(s.moves)
    stats["over"] = s.over
    return problems, stats


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_a_match_as_a_civilian_prints_nothing_of_the_night(n: int, json_mode: bool) -> None:
    total: Counter = Counter()
    for seed in (1, 2, 3):
        problems, stats = civilian_match(n, seed, json_mode)
        assert not problems, problems[:5]
        total.update(stats)
    assert total["night outputs"] >= 6, total
    # a secret input that shows nothing (a Mafia suggestion, night talk) is not printed at all
    assert total["night moves"] > total["night outputs"], total


def test_planted_public_input_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """If night inputs were shown to every session, the Match check above would fail."""
    monkeypatch.setattr(MafiaState, "public_input", lambda self, seat, text: text)
    found = []
    for json_mode in (False, True):
        problems, stats = civilian_match(8, 1, json_mode)
        assert stats["night outputs"] >= 3
        found += problems
    assert any("a night move printed" in p for p in found), found[:5]
    assert any("Mafia seat" in p for p in found), found[:5]
    assert any("not secret" in p or "is named" in p for p in found), found[:5]


# ------------------------------------------------------------------------- suspected leaks
def test_the_clock_does_not_count_the_mafias_night_talk() -> None:
    pre = [f"{s} pass" for s in EIGHT] + ["p3 seduce p4"]
    quiet = pre + ["p1 kill p7", "p4 arrest p8", "p8 ban p3"]
    chatty = pre + ["p2 say p7 tonight", "p1 say yes", "p2 suggest p7", "p1 kill p7", "p4 arrest p8", "p8 ban p3"]
    outs = []
    for script in (quiet, chatty):
        s = mafia_game(CARDS8)
        p = Protocol(s, "p6", json_mode=True)
        printed = []
        for line in script:
            actor, _, text = line.partition(" ")
            r = p.move(actor, text, None, referee=True)
            if r.payload["seat"] is not None or r.payload["events"]:
                printed.append(r.json())  # what a Match prints for p6
        printed.append(p.handle("time"))
        outs.append(printed)
    assert outs[0] == outs[1]


def test_an_arrested_civilian_is_not_told_by_its_view() -> None:
    pre = [f"{s} pass" for s in EIGHT] + ["p3 seduce p4", "p1 kill p5"]
    a = pre + ["p4 arrest p6", "p8 ban p3"]
    b = pre + ["p4 arrest p7", "p8 ban p3"]
    tw = Twin(mafia_game(CARDS8), mafia_game(CARDS8), "p6", secret=set())
    for la, lb in zip(a, b):
        tw.step(la, lb)

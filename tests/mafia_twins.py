"""The twin games of Classic Mafia's hidden-information tests (``test_mafia_hidden_info_*.py``):
a seat never learns what docs/rules/mafia.md ("What each seat sees") keeps from it.

The main method is the *twin game* of tests/fbi_twins.py. Every secret of a Mafia game
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
session played as S (text and JSON), the opening a session of S resumed there is told, S's
answers to every meta-command, and the refusals of
moves S might try (probes: every verb with every seat while S is awake or awaited, talk, pass,
abstain; what S's legal inputs and forms list is left out, as it would be accepted) must be
identical in the twins, until a secret legitimately shows: one of the swapped
seats leaves the game (its card is shown) or the game ends (every card is shown). At that
point the streams must agree up to the revealing event. The checks count what they compare,
and planted leaks must be caught, so the machinery is not vacuous.
"""

from __future__ import annotations

import random
import re
from typing import Any

from arbiter.engine import registry
from arbiter.engine.errors import InputError
from arbiter.engine.events import Event
from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.table import NIGHT
from arbiter.engine.protocol import Protocol, Response
from arbiter.engine.session import Session

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
    opening = p.opening()  # what a session resumed here is told first
    out["opening (text)"], out["opening (json)"] = opening.text(), opening.json()
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


# the seats of an 8-player game, for the night choices' twins

EIGHT = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"]

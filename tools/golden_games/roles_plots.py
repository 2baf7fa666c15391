"""The Hidden Roles games of ``tools/goldens.py``: the role-aware planner bot plays on
every seat (as ``--bots planner`` does: the heist, and the accusations, votes and divining it
decides from its seat's view), and a *plot* stages, before the bots act, what they would seldom
do on their own, decided from the host's knowledge of the game: who accuses whom and how the
others vote, when a hero abandons, what a traitor divines, what sets a variable card off.

Every plot is deterministic (no randomness but the game's seeded chance), so a recipe (level,
scenario, players, plot, seed) always gives the same transcript. ``shows`` says what a game
shows, so the tool can check each recipe still gives what it was chosen for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arbiter.engine import registry
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState
from arbiter.engine.session import Session

RULES = registry.get("magic-maze")
MAX_INPUTS = 600
Step = tuple[str | None, str | None, int | None]
"""A plot's next input: (seat, words, time in ms or None for the next step); (None, None, ms):
let time pass to ms."""


def heroes(st: HiddenRolesState) -> list[str]:
    return [s for s in st.seats if st.in_game(s) and st.side_of(s) == "hero"]


def traitors(st: HiddenRolesState) -> list[str]:
    return [s for s in st.seats if st.in_game(s) and st.side_of(s) == "traitor"]


class Plot:
    """Nothing scripted: the bots play (``heist``). A plot answers the votes
    it opened (every voter yes, or the first no) and the accuser's flip, and a phantom taunts
    the heroes once, in the first silence it may talk in."""

    start = 10  # the plot acts once this many inputs were played

    def __init__(self) -> None:
        self.acted = False
        self.taunted = False
        self.answer = "yes"
        self.vote_gap_ms = 400

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        return None

    def next(self, s: Session) -> Step | None:
        st = s.state
        assert isinstance(st, HiddenRolesState)
        taunt = next((x for x in st.phantoms if "say TEXT" in st.input_forms(x)), None)
        if taunt is not None and not self.taunted:
            self.taunted = True
            return taunt, "say you will never make it in time", None
        if st.vote is not None and self.answer != "silence":
            waiting = st.vote.waiting(st.out)
            if waiting:
                return waiting[0], f"vote {self.answer}", s.clock_ms + self.vote_gap_ms
        if st.flip_window is not None:
            flip = st.time_left_ms() * 2 < st.scenario.timer_ms
            return st.flip_window.accuser, "flip" if flip else "pass", s.clock_ms + 400
        if st.divining is not None:
            return self.divining(s, st)
        if not self.acted and len(s.moves) >= self.start and st.vote is None and st.flip_window is None \
                and not st.sand_out:
            step = self.opening(s, st)
            if step is not None:
                self.acted = step[0] is not None  # a wait first: the opening comes after it
                return step
        return None

    def divining(self, s: Session, st: HiddenRolesState) -> Step | None:
        return None


class Catch(Plot):
    """A hero accuses a traitor; everyone votes yes."""

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        h, t = heroes(st), traitors(st)
        return (h[0], f"accuse {t[0]}", None) if h and t else None


class Frame(Plot):
    """A traitor (or, when there is none, a hero) accuses a hero; everyone votes yes."""

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        h, t = heroes(st), traitors(st)
        accuser = t[0] if t else h[-1]
        target = next((x for x in h if x != accuser), None)
        return (accuser, f"accuse {target}", None) if target else None


class Doubt(Plot):
    """An accusation the first voter rejects, then one nobody votes on (rejected at 5 s)."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = "no"
        self.second = False

    def next(self, s: Session) -> Step | None:
        st = s.state
        assert isinstance(st, HiddenRolesState)
        if self.acted and not self.second and len(s.moves) >= 30 and st.vote is None and st.flip_window is None:
            self.second, self.answer = True, "silence"
            return st.seats[0], f"accuse {st.seats[-1]}", None
        return super().next(s)

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        return st.seats[-1], f"accuse {st.seats[0]}", None


class Abandon(Plot):
    """The last hero in the game abandons the heist."""

    start = 15

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        h = heroes(st)
        return (h[-1], "abandon", None) if h and not st.theft else None


class LateVote(Plot):
    """Time passes until 1.5 s of sand are left; a hero accuses a traitor; the votes come a
    second apart, so the sand runs out during the vote; the accuser flips the empty timer."""

    start = 12

    def __init__(self) -> None:
        super().__init__()
        self.waited = False
        self.vote_gap_ms = 1000

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        h, t = heroes(st), traitors(st)
        if not (h and t):
            return None
        if not self.waited:
            self.waited = True
            return None, None, st.deadline_ms - 1500
        return h[0], f"accuse {t[0]}", s.clock_ms + 100


class Trigger(Plot):
    """Sets a variable card off: the eye card twice in front of a thin-skinned hero, the pawn
    twice in front of a prodded traitor, a wronged hero accused and cleared."""

    start = 8

    def __init__(self) -> None:
        super().__init__()
        self.queue: list[Step] = []

    def next(self, s: Session) -> Step | None:
        st = s.state
        assert isinstance(st, HiddenRolesState)
        if self.queue and st.vote is None:
            return self.queue.pop(0)
        return super().next(s)

    def opening(self, s: Session, st: HiddenRolesState) -> Step | None:
        cards = {x: st.card_of(x).id for x in st.seats}
        for seat, card in cards.items():
            others = [x for x in st.seats if x != seat and st.in_game(x)]
            if card == "watched-hero" and len(others) >= 2:
                self.queue = [(others[0], f"eye {others[1]}", None), (others[1], f"eye {seat}", None)]
                return others[0], f"eye {seat}", None
            if card == "prodded-traitor" and len(others) >= 2:
                self.queue = [(others[0], f"pawn {others[1]}", None), (others[1], f"pawn {seat}", None)]
                return others[0], f"pawn {seat}", None
            if card == "wronged-hero" and others:
                self.answer = "no"
                return others[0], f"accuse {seat}", None
        return None


class Divine(Plot):
    """Level 5: after the escape each traitor names the mission of a face-down hero mission
    card, rightly (``divine``) or wrongly (``guess``)."""

    right = True

    def divining(self, s: Session, st: HiddenRolesState) -> Step | None:
        assert st.divining is not None
        seat = st.divining.waiting()[0]
        for target in st.divine_targets(seat):
            card = st.card_of(target)
            if card.kind == "hero-mission":
                named = card.id if self.right else next(m for m in st.hero_missions() if m != card.id)
                return seat, f"divine {target} {named}", s.clock_ms + 2000
        return seat, "pass", s.clock_ms + 2000


class Guess(Divine):
    right = False


PLOTS: dict[str, Callable[[], Plot]] = {
    "heist": Plot, "catch": Catch, "frame": Frame, "doubt": Doubt, "abandon": Abandon, "late-vote": LateVote,
    "trigger": Trigger, "divine": Divine, "guess": Guess,
}


def options_of(recipe: dict[str, Any]) -> dict[str, Any]:
    """A recipe's game options: its level's deck, or with ``deck`` (card -> count) a custom
    deck of that level, as ``--deck FILE`` sets one up (``out_of_order_start: true`` too, with
    the recipe's)."""
    if "deck" in recipe:
        deck = {"title": "golden custom deck", "level": recipe["level"], "cards": dict(recipe["deck"])}
        if recipe.get("out_of_order_start"):
            deck["out_of_order_start"] = True
        return {"players": recipe["players"], "deck": deck}
    return {"players": recipe["players"], "roles": recipe["level"]}


def play(recipe: dict[str, Any]) -> Session:
    """One whole game of Hidden Roles: the planner on every seat, and the recipe's plot."""
    s = Session(RULES, recipe["scenario"], seed=recipe["seed"], options=options_of(recipe))
    plot = PLOTS[recipe["plot"]]()
    rng = random.Random(0)  # the bots' one source of chance (a traitor's sabotage)
    last = -1
    for _ in range(MAX_INPUTS):
        if s.over:
            break
        step = plot.next(s)
        if step is not None:
            seat, text, at = step
            if seat is None:
                assert at is not None
                s.advance_to(max(at, s.clock_ms))
            else:
                assert text is not None
                s.submit(seat, text, at)
            continue
        at = s.clock_ms + s.state.clock_step_ms
        if s.state.changes_by_time(at):  # time acts first (the sand, a vote, a mark)
            s.advance_to(max(s.state.next_deadline() or at, s.clock_ms))
            continue
        n = len(s.seats)
        for k in range(1, n + 1):
            seat = s.seats[(last + k) % n]
            text = RULES.bot_input("planner", s.state, seat, rng)
            if text is not None:
                s.submit(seat, text)
                last = s.seats.index(seat)
                break
        else:
            deadline = s.state.next_deadline()
            if deadline is None:
                break
            s.advance_to(max(deadline, s.clock_ms))
    return s


def shows(s: Session) -> set[str]:
    """What a game shows, in the words the recipes use."""
    out = set()
    st = s.state
    assert isinstance(st, HiddenRolesState)
    for e in s.events:
        if e.kind == "verdict":
            out.add("upheld" if e.data["upheld"] else "rejected")
        if e.kind == "eliminate":
            out.add("traitor-eliminated" if e.data["why"] == "accused" else "mission-eliminated")
        if e.kind == "failed":
            out.add("failed-mission")
        if e.kind == "switch":
            out.add("switch")
        if e.kind == "abandon":
            out.add("abandon")
        if e.kind == "divine" and e.data.get("right"):
            out.add("divine-right")
        if e.kind == "divine" and e.data.get("right") is False:
            out.add("divine-wrong")
        if e.kind == "sand":
            out.add("sand-during-vote")
        if e.kind == "flip" and e.data.get("seat"):
            out.add("accuser-flip")
        if e.kind == "say" and e.data["seat"] in st.phantoms:
            out.add("phantom-talk")
    if st.result is not None:
        out.add(f"end-{st.result.reason}")
        if st.result.reason == "wrong-accusation":
            out.add("hero-accused")
    if st.phantoms:
        out.add("phantom")
    if st.setup.out_of_order_start:
        out.add("out-of-order-start")
    return out

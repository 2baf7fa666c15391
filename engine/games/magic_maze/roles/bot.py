"""The ``planner`` bot of Hidden Roles: the base game's team planner, made role-aware. It plays
from what its seat may know: the public board (the planner reads nothing else), its seat's
``roles_view`` (its own card and side, the public facts: revealed cards, eliminations, the open
vote, the divining), and who played what (``HiddenRolesState.inputs``, public like the
transcript's moves). It never reads another seat's card, so twin games that differ only in
secrets it does not know get the same choices from it (``tests/test_roles_bot.py``).

**The watch.** Every seat reads the same public record of how each seat has played, the
``Watch`` kept on the state (like the planner's cache; nothing in it is secret). Each time any
seat's bot is asked in a new position, the watch first judges the inputs made since the last
position it saw, against the team plan of that position, then notes the new plan:

- a heist input, not a step of the plan, that made the moved hero's way to its goal longer or
  took a hero off its item (``LONGER`` points), or brought it no nearer (``WASTED``);
- the seat holding the plan's next action that did something else, or nothing while time
  passed (``STALL``; half when another seat played instead); a stare saying "I cannot" with a
  deck of special rules, half, once per step;
- the plan's step played as planned earns a little trust (``TRUST``);
- a vote against the record (no on a seat the record suspects, yes on one it clears), and an
  accusation of a seat the record clears (``VOTE``).

**A hero** plays the heist as the base planner. A step its own special rule forbids is
replaced: one square at a time, another step of the plan it holds, else a stare at the next
seat ("I cannot"); that seat answers with the pawn, and once the pawn is there any seat plays a
step of the plan that needs none of the blocked seat's actions. A step that would fail its own
mission (a hero leaving first or last, a vortex) gives way to another step it holds. It
accuses the seat with the highest score once it reaches ``THRESHOLD`` (from level 2, every seat
beyond ``THRESHOLD + 1`` with it, as long as one seat is left to vote), not a seat whose
accusation was rejected unless new evidence came; it votes yes when every accused seat is
suspect enough (``VOTE_YES``), else no; it abandons (level 2 on) only when every other seat
still in the game is a suspect; the accuser flips when a flip is worth it.

**A traitor** plays the plan most of the time and sabotages now and then: when it holds the
plan's step (more often when that step is a flip), it plays the misleading step that costs the
team most, or a wasted one, or stalls with a stare; it watches its own score as the heroes see
it and lies low beyond a caution drawn each time. It votes yes on every accusation (an upheld
accusation of a hero wins the game for the traitors); once its own score reaches ``VOTE_YES``
it strikes first, accusing the most suspect other seat; at level 5 it divines the hero missions
that the public record points at (who completed the theft, who explored two tiles), else a
mission for the most trusted seat.

Randomness only from the ``rng`` the rules pass in; ties follow seat order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import Move, action_needed, move_name
from arbiter.engine.games.magic_maze.roles.moves import RoleMove, Seats
from arbiter.engine.games.magic_maze.roles.state import HERO_VERBS, HiddenRolesState
from arbiter.engine.games.magic_maze.tiles import Cell

THRESHOLD = 2.0
"""The score at which a hero accuses."""
VOTE_YES = 1.5
"""The score from which a hero votes yes (below it, the record clears the seat)."""
LONGER, WASTED, STALL, TRUST, VOTE = 1.0, 0.5, 0.5, 0.03, 0.75
SABOTAGE_P, FLIP_SABOTAGE_P = 0.4, 0.8
"""How often a traitor holding the plan's step sabotages it (a flip: more often)."""


@dataclass
class Snapshot:
    """The team plan of one position: its goal, its next step and who holds it; and, read only
    when an input is judged against it, each hero's distance to its goal, the goal's squares it
    can reach and every step of the plan. Those are read from ``plan``, the position's analysis,
    whose searches answer for that position however late they are asked (while no tile joins:
    the judge reads them only when none did)."""

    key: tuple[int, int, int]
    phase: str
    tiles: int
    wanted: Move | None
    holder: str | None
    plan: planner.Analysis | None = None
    listed: list[Move] | None = None  # every step of the plan, when the position needed them all
    home: frozenset[str] = frozenset()  # the heroes on their items (before the theft)

    def dist(self, hero: str) -> int | None:
        """How many inputs ``hero`` is from the nearest of its goal's squares (None: it can
        reach none)."""
        return self.plan.distance(hero) if self.plan is not None else None

    def goal(self, hero: str, g: Cell) -> bool:
        """Whether ``g`` is one of the goal's squares that ``hero`` can reach."""
        return self.plan is not None and self.plan.reaches(hero, g)

    @cached_property
    def options(self) -> frozenset[str]:
        """Every step of the plan, in words (``planner.plans`` of that position)."""
        if self.listed is None:
            assert self.plan is not None
            self.listed = self.plan.candidates()  # the first is ``wanted``: the list is not empty
        return frozenset(move_name(m) for m in self.listed)


@dataclass
class Watch:
    """The table's public record (see the module): each seat's score and what it is made of."""

    snap: Snapshot | None = None
    seen: int = 0  # inputs judged
    score: dict[str, float] = field(default_factory=dict)
    notes: list[tuple[str, str, float]] = field(default_factory=list)  # (seat, why, points)
    rejected: dict[tuple[str, ...], float] = field(default_factory=dict)  # accused -> their score then
    cannot: set[tuple[str, str]] = field(default_factory=set)  # (seat, step) it said it cannot play

    def add(self, seat: str, why: str, points: float) -> None:
        self.score[seat] = self.score.get(seat, 0.0) + points
        self.notes.append((seat, why, points))

    def of(self, seat: str) -> float:
        return self.score.get(seat, 0.0)


def watch_of(state: HiddenRolesState) -> Watch:
    """The table's watch of ``state``, brought up to date (see the module)."""
    w: Watch = state.__dict__.setdefault("_roles_watch", Watch())
    key = (len(state.events), state.now_ms, len(state.inputs))
    if w.snap is not None and w.snap.key == key:
        return w
    new = state.inputs[w.seen:]
    w.seen = len(state.inputs)
    now = _snapshot(state, key)
    if w.snap is not None:
        _judge(state, w, w.snap, now, new)
        for e in state.events.since(w.snap.key[0]):
            if e.kind == "verdict" and e.to is None and not e.data["upheld"]:
                accused = tuple(e.data["accused"])
                w.rejected[accused] = max(w.of(s) for s in accused)
    w.snap = now
    return w


def _snapshot(state: HiddenRolesState, key: tuple[int, int, int]) -> Snapshot:
    if state.result is not None or state.divining is not None or state.sand_out:
        return Snapshot(key, "none", len(state.mall.placed), None, None, listed=[])
    a = planner.analyse(state)
    # the plan's first step without the whole list (``Analysis.best`` is its first); none: the
    # whole list, as ``planner.choose`` reads it (an unjamming step, or nothing)
    listed = None if a.best is not None else planner.plans(state)
    wanted = a.best if listed is None else next(iter(listed), None)
    holder = None
    if wanted is not None and not state.solo:
        need = action_needed(wanted)
        holder = next((s for s, hand in zip(state.seats, state.hands) if need in hand), None)
    return Snapshot(key, a.phase, len(state.mall.placed), wanted, holder, a, listed,
                    frozenset(h for h in a.heroes if _home(state, h)))


def _judge(state: HiddenRolesState, w: Watch, before: Snapshot, after: Snapshot,
           new: list[tuple[str, str, int]]) -> None:
    """Score the inputs ``new``, made between the positions ``before`` and ``after``."""
    heist = [(s, t) for s, t, _ in new if t.split()[0] in HERO_VERBS]
    for seat, text, _ in new:
        verb = text.split()[0]
        if verb == "vote":
            _judge_vote(state, w, seat, text)
        elif verb == "accuse":
            accused = tuple(text.split()[1:])
            if max(w.of(s) for s in accused) < VOTE_YES:
                w.add(seat, f"accused {' '.join(accused)}, whom the record clears", VOTE)
    holder, wanted = before.holder, before.wanted
    if holder is None or wanted is None or before.phase == "none":
        return
    if len(heist) == 1 and len(new) == 1:
        seat, text = heist[0]
        if text == move_name(wanted):
            if seat == holder:
                w.add(seat, "played the plan's step", -TRUST)
            return
        _judge_step(state, w, before, after, seat, text)
        answered = len(state.inputs) > 1 and state.inputs[-2][0] == holder and state.inputs[-2][1].startswith("stare")
        if seat != holder and not answered:
            w.add(holder, f"held {action_needed(wanted)} and let {seat} play instead", STALL / 2)
        return
    if not heist:
        stared = any(s == holder and t.startswith("stare") for s, t, _ in new)
        stalled = any(s == holder and t.split()[0] not in ("vote", "accuse", "flip", "pass") for s, t, _ in new)
        if stared and _rules_in_deck(state):  # "I cannot": a special rule may forbid it (once a step)
            if (holder, move_name(wanted)) not in w.cannot:
                w.cannot.add((holder, move_name(wanted)))
                w.add(holder, f"held {action_needed(wanted)} and said it cannot", STALL / 2)
        elif stalled or (not new and after.key[1] > before.key[1]):
            w.add(holder, f"held {action_needed(wanted)} and stalled", STALL)


def _rules_in_deck(state: HiddenRolesState) -> bool:
    """Whether the game's deck (public: the cards dealt from, not only the seats' cards) holds
    special rules, which may keep a hero from a step. Not the catalogue of every card the deck
    file describes, which holds them at every level."""
    cards = state.setup.deck.cards
    return any(cards[name].kind == "hero-rule" for name in set(state.setup.cards))


def _judge_step(state: HiddenRolesState, w: Watch, before: Snapshot, after: Snapshot, seat: str,
                text: str) -> None:
    """Score one heist input that was not the plan's step (see the module)."""
    verb, hero = text.split()[:2]
    if verb == "explore" or before.phase != after.phase or before.tiles != after.tiles:
        return  # an exploration, a new goal: progress
    if text in before.options:
        return  # another step of the plan
    wanted = before.wanted
    if wanted is not None and wanted.verb == "move" and text.startswith(f"move {wanted.hero} {move_name(wanted).split()[2]}"):
        return  # part of the plan's step (fewer squares)
    if hero in before.home and not _home(state, hero):
        w.add(seat, f"{text}: the {hero} hero left its item", LONGER)
        return
    was = before.dist(hero)
    if was is None:
        return
    where = state.heroes.get(hero)
    if where is None or before.goal(hero, where):
        return  # out of the mall, or onto its goal
    now = after.dist(hero)
    if now is None or now > was:
        w.add(seat, f"{text}: the {hero} hero's way got longer", LONGER)
    elif now == was:
        w.add(seat, f"{text}: a wasted step", WASTED)


def _judge_vote(state: HiddenRolesState, w: Watch, seat: str, text: str) -> None:
    accused = _last_accused(state)
    if accused is None:
        return
    suspect = all(w.of(s) >= VOTE_YES for s in accused)
    if text == "vote no" and suspect:
        w.add(seat, f"voted no on {' '.join(accused)}, whom the record suspects", VOTE)
    elif text == "vote yes" and not suspect:
        w.add(seat, f"voted yes on {' '.join(accused)}, whom the record clears", VOTE / 2)


def _last_accused(state: HiddenRolesState) -> tuple[str, ...] | None:
    for seat, text, _ in reversed(state.inputs):
        if text.startswith("accuse "):
            return tuple(text.split()[1:])
    return None


# ------------------------------------------------------------------------------------ a seat's view
@dataclass
class Seat:
    """What one seat knows of the roles: its own card and side, and the public facts."""

    seat: str
    side: str
    card: str
    rule: str | None
    level: int
    view: dict[str, Any]
    lone_traitor: bool = False
    """The deck (public) holds one card only that can be a traitor's."""

    def known(self, other: str) -> str | None:
        """``other``'s side when this seat knows it: revealed, or a traitor holding the deck's only
        card that can be a traitor's (the level-1 deck; a custom deck may hold more)."""
        if other in self.view["revealed"]:
            return str(self.view["revealed"][other]["side"])
        if self.lone_traitor and self.side == "traitor" and self.card == "traitor":
            return "hero"
        return None


def seat_of(state: HiddenRolesState, seat: str) -> Seat:
    view = state.roles_view(seat)
    you = view["you"]
    card = state.setup.deck.cards[you["card"]]  # the seat's own card: public data of the deck
    rule = card.rule.name if card.rule is not None and you["side"] == "hero" and card.kind == "hero-rule" else None
    deck = state.setup.deck.cards
    lone = sum(deck[c].kind in ("traitor", "traitor-mission", "variable") for c in state.setup.cards) == 1
    return Seat(seat, you["side"], you["card"], rule, view["level"], view, lone)


def choose(state: HiddenRolesState, seat: str, rng: random.Random) -> Move | None:
    """What ``seat`` plays now, or None (another seat's turn, or nothing to do)."""
    if state.result is not None:
        return None
    w = watch_of(state)
    me = seat_of(state, seat)
    view = me.view
    if view["divining"] is not None:
        return _divine(state, me, w, rng) if seat in view["divining"]["waiting"] else None
    if view["flip"] is not None and view["flip"]["seat"] == seat:
        return RoleMove("flip") if planner.flip_wanted(state) else RoleMove("pass")
    if view["vote"] is not None and seat in view["vote"]["waiting"]:
        return _vote(me, w, tuple(view["vote"]["accused"]))
    if state.sand_out or seat in view["eliminated"]:
        return None
    if view["vote"] is None and view["flip"] is None:
        move = _accusation(state, me, w)
        if move is not None:
            return move
    if me.side == "hero":
        if _abandon_wanted(state, me, w):
            return RoleMove("abandon")
        return _hero_step(state, me)
    return _traitor_step(state, me, w, rng)


# ------------------------------------------------------------------------------------ votes
def _suspects(state: HiddenRolesState, me: Seat, w: Watch) -> list[str]:
    """The other seats still in the game that this seat does not know to be heroes, most
    suspect first (ties: seat order)."""
    out = [s for s in _others_in_game(state, me) if me.known(s) != "hero"]
    return sorted(out, key=lambda s: -w.of(s))


def _others_in_game(state: HiddenRolesState, me: Seat) -> list[str]:
    """The seats still in the game but this one, in seat order (as the seat's view has them)."""
    return [s for s in state.seats if s != me.seat and s not in me.view["eliminated"]]


def _vote(me: Seat, w: Watch, accused: tuple[str, ...]) -> RoleMove:
    if me.side == "traitor":
        return RoleMove("vote", answer="yes")  # an upheld accusation of a hero wins the game
    sure = all(me.known(s) == "traitor" or (me.known(s) is None and w.of(s) >= VOTE_YES) for s in accused)
    return RoleMove("vote", answer="yes" if sure else "no")


def _accusation(state: HiddenRolesState, me: Seat, w: Watch) -> RoleMove | None:
    if me.rule == "never-accuses":
        return None
    if me.side == "hero":
        suspects = _suspects(state, me, w)
        if not suspects or w.of(suspects[0]) < THRESHOLD:
            return None
        top = suspects[0]
        group = [top] + ([s for s in suspects[1:] if w.of(s) >= THRESHOLD + 1] if state.setup.multi else [])
        # an accusation leaves one voter at least: the least suspect seat still in the game stays out
        group = group[:len(_others_in_game(state, me)) - 1]
        if not group:
            return None
    else:  # a traitor about to be accused strikes first: the most suspect other seat
        if w.of(me.seat) < VOTE_YES:
            return None
        others = [s for s in _others_in_game(state, me) if me.known(s) != "traitor"]
        if not others:
            return None
        group = [max(others, key=lambda s: w.of(s))]
    accused = tuple(s for s in state.seats if s in group)
    if accused in w.rejected and max(w.of(s) for s in accused) < w.rejected[accused] + 1:
        return None  # rejected before: only new evidence brings it back
    move = RoleMove("accuse", accused=Seats(accused))
    return move if state.would_accept(me.seat, move) else None


def _abandon_wanted(state: HiddenRolesState, me: Seat, w: Watch) -> bool:
    if not state.setup.multi or state.theft:
        return False
    others = _others_in_game(state, me)
    return bool(others) and all(me.known(s) == "traitor" or w.of(s) >= THRESHOLD for s in others)


# ------------------------------------------------------------------------------------ the heist
def _hero_step(state: HiddenRolesState, me: Seat) -> Move | None:
    """The base planner's step, or (its own rule forbids it) what the module says instead."""
    seat = me.seat
    wanted = planner.choose(state, seat)
    if wanted is None:
        return _help_blocked(state, me)
    if state.would_accept(seat, wanted):
        return _keeping_mission(state, me, wanted)
    if wanted.verb == "move" and me.rule == "single-steps":
        step = Move("move", hero=wanted.hero, direction=wanted.direction, squares=1)
        if state.would_accept(seat, step):
            return step
    held = state.actions_of(seat)
    for other in planner.plans(state)[1:]:
        if action_needed(other) in held and state.would_accept(seat, other):
            return other
    last = state.inputs[-1] if state.inputs else None
    after = last[1].split()[1] if last is not None and last[0] == seat and last[1].startswith("stare") else seat
    ask = _next_in_game(state, after)
    if ask == seat:
        ask = _next_in_game(state, seat)
    return None if ask is None else Move("stare", seat=ask)  # "I cannot": that seat answers (_help_blocked)


def _keeping_mission(state: HiddenRolesState, me: Seat, step: Move) -> Move:
    """``step``, or when it would fail the seat's own pending mission (a hero leaving first or
    last, a hero travelling by vortex or escalator), another step of the plan that it holds
    and that does not; none: ``step`` all the same (the team's heist first)."""
    if not _fails_mission(state, me, step):
        return step
    held = state.actions_of(me.seat)
    for other in planner.plans(state):
        if (other != step and action_needed(other) in held and not _fails_mission(state, me, other)
                and state.would_accept(me.seat, other)):
            return other
    return step


def _fails_mission(state: HiddenRolesState, me: Seat, step: Move) -> bool:
    mission = me.view["you"].get("mission")
    pred = state.setup.deck.cards[me.card].mission  # the seat's own card (public deck data)
    if mission is None or pred is None or mission["status"] != "pending":
        return False
    if pred.name == "hero-never-uses":
        return step.hero == pred["hero"] and step.verb == pred["action"]
    if pred.name not in ("hero-leaves-first", "hero-leaves-last") or step.hero is None:
        return False
    a = planner.analyse(state)
    steps = a.maps[step.hero].first_steps() if step.hero in a.maps else []
    leaves = any(r.first == step and state.exit_usable(g, step.hero) for g, r in steps)
    if not leaves:
        return False
    if pred.name == "hero-leaves-first":
        return not state.escaped and step.hero != pred["hero"]
    inside = [h for h, g in state.heroes.items() if g is not None]
    return step.hero == pred["hero"] and len(inside) > 1


def _help_blocked(state: HiddenRolesState, me: Seat) -> Move | None:
    """The last input was a stare by the seat holding the plan's step (it cannot play it): the
    seat it stared at gives it the pawn (a hero who may act only with the pawn needs it); when
    the pawn is there already, any seat plays a step of the plan that needs none of its
    actions."""
    if not state.inputs:
        return None
    seat, text, _ = state.inputs[-1]
    w = state.__dict__.get("_roles_watch")
    if not text.startswith("stare ") or seat == me.seat or w is None or w.snap is None or w.snap.holder != seat:
        return None
    if not (state.pawn == seat and state.pawn_by != seat):
        move = Move("pawn", seat=seat)
        return move if text == f"stare {me.seat}" and state.would_accept(me.seat, move) else None
    theirs, mine = state.actions_of(seat), state.actions_of(me.seat)
    for other in planner.plans(state):
        need = action_needed(other)
        if need not in theirs and need in mine and state.would_accept(me.seat, other):
            return other
    return None


def _next_in_game(state: HiddenRolesState, seat: str) -> str | None:
    i = state.seats.index(seat)
    for s in state.seats[i + 1:] + state.seats[:i]:
        if state.in_game(s):
            return s
    return None


def _traitor_step(state: HiddenRolesState, me: Seat, w: Watch, rng: random.Random) -> Move | None:
    """The plan's step, or now and then a sabotage of it (see the module)."""
    seat = me.seat
    wanted = planner.choose(state, seat)
    if wanted is None or not state.would_accept(seat, wanted):
        return None
    wanted = _keeping_mission(state, me, wanted)
    flip = w.snap is not None and w.snap.phase == "flip"
    if rng.random() >= (FLIP_SABOTAGE_P if flip else SABOTAGE_P):
        return wanted
    caution = rng.uniform(0.8, THRESHOLD + 1.0)
    if w.of(seat) + WASTED > caution:
        return wanted
    bad = _sabotage(state, seat, rng)
    if bad is not None:
        return bad
    ask = _next_in_game(state, seat)
    return Move("stare", seat=ask) if ask is not None and w.of(seat) + STALL <= caution else wanted


def _sabotage(state: HiddenRolesState, seat: str, rng: random.Random) -> Move | None:
    """A step of a hero, with an action ``seat`` holds, that brings it no nearer its goal
    (never onto an hourglass or out of the mall): a wasted one, or (a coin) one that leads
    away."""
    a = planner.analyse(state)
    held = {x for x in state.actions_of(seat) if x != "explore"}
    if not held:
        return None
    wasted: list[Move] = []
    away: list[tuple[int, Move]] = []
    for h in a.heroes:
        goals = a.goals.get(h) or _home(state, h)
        if not goals:
            continue
        was = min(a.maps[h][g].length for g in goals) if h in a.goals else 0
        for g, route in sorted(planner.routes(state, h, held, False).first_steps()):
            if state.exit_usable(g, h) or g in goals:
                continue
            now = planner.routes(state, h, a.actions, a.flip, start=g).nearest(goals)
            if now is None:
                continue
            if now == was:
                wasted.append(route.first)
            elif now > was:
                away.append((now - was, route.first))
    away = [m for m in away if state.would_accept(seat, m[1])]
    wasted = [m for m in wasted if state.would_accept(seat, m)]
    if away and (not wasted or rng.random() < 0.5):  # the step that costs the team most
        most = max(d for d, _ in away)
        pool = [m for d, m in away if d == most]
    else:
        pool = wasted
    return pool[rng.randrange(len(pool))] if pool else None


def _home(state: HiddenRolesState, hero: str) -> set:
    """Before the theft, the item square ``hero`` stands on (a goal it has reached), if so."""
    g = state.heroes.get(hero)
    return {g} if g is not None and not state.theft and state.kind(g) == ("item", hero) else set()


# ------------------------------------------------------------------------------------ divining
def _divine(state: HiddenRolesState, me: Seat, w: Watch, rng: random.Random) -> RoleMove:
    """Name the hero mission the public record points at: who completed the theft, who
    explored two tiles; else a mission for the most trusted seat."""
    targets = state.divine_targets(me.seat)  # the rules' own lists (public), and of the missions only those
    missions = [m for m in state.hero_missions() if state.may_be_dealt(m)]  # (any other is wrong)
    if not targets or not missions:
        return RoleMove("pass")
    explored: dict[str, int] = {}
    theft = next((e.index for e in state.events.visible_to(me.seat) if e.kind == "theft"), None)
    thief = None
    for seat, text, at in state.inputs:
        if text.startswith("explore"):
            explored[seat] = explored.get(seat, 0) + 1
        if theft is not None and at <= theft:
            thief = seat  # the last input before the theft's event made it
    guesses: list[tuple[str, str]] = []
    if thief in targets and "master-thief" in missions:
        guesses.append((thief, "master-thief"))
    for seat in sorted(explored, key=lambda s: -explored[s]):
        if explored[seat] >= 2 and seat in targets and "pathfinder" in missions:
            guesses.append((seat, "pathfinder"))
    if guesses:
        target, mission = guesses[0]
    else:
        target = min(targets, key=lambda s: w.of(s))
        mission = missions[rng.randrange(len(missions))]
    return RoleMove("divine", seat=target, mission=mission)

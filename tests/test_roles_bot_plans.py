"""The role-aware planner bot reads only what it needs of the team plan, and chooses exactly as
it did when it read the whole plan.

``engine/games/magic_maze/roles/bot.py`` reads, at each position, the plan's first step
(``Analysis.best``), and only when an input is judged against that position each hero's distance
to its goal, whether a square is one of its goal's squares and every step of the plan. Kept here,
never in the engine, is the way it was first written: ``reference_snapshot`` builds every plan
and every goal at each position (``planner.plans``, ``Analysis.goals``, each map searched to its
end) and ``reference_judge_step`` reads them. On seeded Hidden Roles games of every level, every
seat's choice at every position must be the reference's, and so must the generator it leaves
and the table's record (the watch: scores, notes, rejected accusations, "I cannot"s). The
reference runs on its own memos (planner analysis and watch), so the engine reads its searches
as lazily as in any game. At one position in two, a fresh snapshot's reads (each hero's
distance, its goal's squares, every step of the plan) must also be the whole plan's, while a
flip is wanted with every budget too (a game seldom leaves a hero beyond it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest

from arbiter.engine import registry
from arbiter.engine.bench import play_random
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import Move, action_needed, move_name
from arbiter.engine.games.magic_maze.roles import bot
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState
from arbiter.engine.games.magic_maze.tiles import Cell

MAZE = registry.get("magic-maze")


# ------------------------------------------------------------------------------------ the reference
@dataclass
class ReferenceSnapshot:
    """The team plan of one position, as first written: every hero's distance to its goal, the
    goal's squares each can reach, and every step of the plan, all worked out at once."""

    key: tuple[int, int, int]
    phase: str
    tiles: int
    wanted: Move | None
    holder: str | None
    dist: dict[str, int]
    goals: dict[str, frozenset]
    options: frozenset[str] = frozenset()
    home: frozenset[str] = frozenset()


def reference_reads(a: planner.Analysis) -> tuple[dict[str, int], dict[str, frozenset]]:
    """Each hero's distance to its goal and the goal's squares it can reach, from the whole goals."""
    dist = {h: min(a.maps[h][g].length for g in gs) for h, gs in a.goals.items() if gs}
    return dist, {h: frozenset(gs) for h, gs in a.goals.items()}


def reference_snapshot(state: HiddenRolesState, key: tuple[int, int, int]) -> ReferenceSnapshot:
    if state.result is not None or state.divining is not None or state.sand_out:
        return ReferenceSnapshot(key, "none", len(state.mall.placed), None, None, {}, {})
    a = planner.analyse(state)
    options = planner.plans(state)
    wanted = options[0] if options else None
    holder = None
    if wanted is not None and not state.solo:
        need = action_needed(wanted)
        holder = next((s for s, hand in zip(state.seats, state.hands) if need in hand), None)
    dist, goals = reference_reads(a)
    return ReferenceSnapshot(key, a.phase, len(state.mall.placed), wanted, holder, dist, goals,
                             frozenset(move_name(m) for m in options), frozenset(h for h in a.heroes if bot._home(state, h)))


READ: Counter = Counter()
"""How often the reference's judge read each part of the whole plan (the test's reach)."""


def reference_judge_step(state: HiddenRolesState, w: bot.Watch, before: ReferenceSnapshot, after: ReferenceSnapshot,
                         seat: str, text: str) -> None:
    """One heist input that was not the plan's step, judged from the whole plan, as first written."""
    verb, hero = text.split()[:2]
    if verb == "explore" or before.phase != after.phase or before.tiles != after.tiles:
        return
    READ["options"] += 1
    if text in before.options:
        READ["another step of the plan"] += 1
        return
    wanted = before.wanted
    if wanted is not None and wanted.verb == "move" and text.startswith(f"move {wanted.hero} {move_name(wanted).split()[2]}"):
        return
    if hero in before.home and not bot._home(state, hero):
        w.add(seat, f"{text}: the {hero} hero left its item", bot.LONGER)
        return
    READ["distance"] += 1
    if hero not in before.dist:
        return
    where = state.heroes.get(hero)
    if where is None or where in before.goals.get(hero, ()):
        return
    READ["distance after"] += 1
    was, now = before.dist[hero], after.dist.get(hero)
    if now is None or now > was:
        w.add(seat, f"{text}: the {hero} hero's way got longer", bot.LONGER)
    elif now == was:
        w.add(seat, f"{text}: a wasted step", bot.WASTED)


REFERENCE = {"_snapshot": reference_snapshot, "_judge_step": reference_judge_step}
"""The bot's parts as first written; the rest of the bot is the engine's own."""

MEMOS = ("_planner_cache", "_roles_watch")


class Referee:
    """The reference bot beside the engine's in one game, on the same state: its own memos
    (planner analysis, watch), swapped in for each of its choices, and the first-written parts.
    ``ask`` stands for the engine's ``choose``: the engine's choice, checked against the
    reference's, for the seat asked and (at a new position) every other seat."""

    def __init__(self, engine: Callable[..., Move | None], stats: Counter) -> None:
        self.engine, self.stats = engine, stats
        self.memos: dict[str, Any] = {}
        self.seen: tuple[int, int, int] | None = None

    @contextmanager
    def playing(self, state: HiddenRolesState) -> Iterator[None]:
        engines = {k: state.__dict__.pop(k) for k in MEMOS if k in state.__dict__}
        state.__dict__.update(self.memos)
        parts = {name: getattr(bot, name) for name in REFERENCE}
        for name, part in REFERENCE.items():
            setattr(bot, name, part)
        try:
            yield
        finally:
            for name, part in parts.items():
                setattr(bot, name, part)
            self.memos = {k: state.__dict__.pop(k) for k in MEMOS if k in state.__dict__}
            state.__dict__.update(engines)

    def both(self, state: HiddenRolesState, seat: str, rng: random.Random) -> Move | None:
        twin = random.Random()
        twin.setstate(rng.getstate())
        got = self.engine(state, seat, rng)
        with self.playing(state):
            want = self.engine(state, seat, twin)
            theirs = record(state.__dict__.get("_roles_watch"))
        at = f"input {len(state.inputs)}, {seat}"
        assert got == want, f"{at}: the bot chose {got!r}, the whole plan {want!r}"
        assert rng.getstate() == twin.getstate(), f"{at}: the generators parted"
        assert record(state.__dict__.get("_roles_watch")) == theirs, f"{at}: the records parted"
        self.stats["choices"] += 1
        self.stats["inputs"] += got is not None
        return got

    def ask(self, state: HiddenRolesState, seat: str, rng: random.Random) -> Move | None:
        move = self.both(state, seat, rng)
        at = (len(state.events), state.now_ms, len(state.inputs))
        if at != self.seen:  # a new position: every other seat too (and one in two, the plan's reads)
            self.seen = at
            self.stats["new positions"] += 1
            ref = self.memos["_roles_watch"].snap
            if self.stats["new positions"] % 2 and ref.key == at:
                check_position(state, ref, self.stats)
            for other in state.seats:
                if other != seat:
                    self.both(state, other, random.Random(f"{at}:{other}"))
        return move


def record(w: bot.Watch | None) -> tuple | None:
    return None if w is None else (w.score, w.notes, w.rejected, w.cannot, w.seen)


def same_reads(snap: bot.Snapshot, ref: ReferenceSnapshot, squares: dict[str, set[Cell]]) -> None:
    """The snapshot's lazy reads answer as the whole plan: each hero's distance, whether each of
    ``squares`` is one of its goal's squares, and every step of the plan."""
    assert (snap.phase, snap.tiles, snap.wanted, snap.holder, snap.home) == \
        (ref.phase, ref.tiles, ref.wanted, ref.holder, ref.home)
    for h, gs in squares.items():
        assert snap.dist(h) == ref.dist.get(h), h
        for g in sorted(gs):
            assert snap.goal(h, g) == (g in ref.goals.get(h, ())), (h, g)
    assert snap.options == ref.options


def check_position(state: HiddenRolesState, ref: ReferenceSnapshot, stats: Counter) -> None:
    """A fresh analysis of the position, read lazily through a snapshot, against the reference's
    (the goal's squares of each hero and where it stands, or now and then every square); while
    a flip is wanted, also with every budget up to the furthest hourglass (those a hero cannot
    reach in time are no goal of it)."""
    memo = state.__dict__.pop("_planner_cache", None)
    try:
        snap = bot._snapshot(state, ref.key)
    finally:
        state.__dict__["_planner_cache"] = memo
    a, every = snap.plan, stats["positions"] % 20 == 0
    stats["positions"] += 1
    if a is None:
        return same_reads(snap, ref, {})
    squares = {h: set(state.mall.squares()) if every else {*a.targets.get(h, ()), a.maps[h].start} for h in a.heroes}
    same_reads(snap, ref, squares)
    if a.phase != "flip":
        return
    near = {h: a.maps[h].nearest(a.targets[h]) for h in a.heroes}
    for budget in range(max((d for d in near.values() if d is not None), default=0) + 2):
        cut = bot.Snapshot(ref.key, a.phase, ref.tiles, snap.wanted, snap.holder, replace(a, budget=budget))
        dist, goals = reference_reads(cut.plan)  # type: ignore[arg-type]
        for h in a.heroes:
            assert cut.dist(h) == dist.get(h), (budget, h)
            for g in a.targets[h]:
                assert cut.goal(h, g) == (g in goals.get(h, ())), (budget, h, g)
        stats["flip budgets"] += 1
        stats["a hero beyond the budget"] += any(h not in dist and near[h] is not None for h in a.heroes)


# ------------------------------------------------------------------------------------ the games
GAMES = [("1", 4, 1, 3), ("1", 3, 2, 5), ("2", 3, 3, 2), ("2", 5, 4, 3), ("1", 4, 5, 5)]
"""(scenario, players, level, seed): seeded bot games, one of each level."""


def test_every_seats_choice_is_the_whole_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games are played by the engine's bot (its inputs go in); at each position every seat
    is asked of both bots, the seat the match asks with its own generator, the others with one
    made for the question."""
    engine = bot.choose
    stats: Counter = Counter()
    READ.clear()
    for scenario, players, level, seed in GAMES:
        monkeypatch.setattr(bot, "choose", Referee(engine, stats).ask)
        session = play_random(MAZE, scenario, seed, kind="planner", options={"players": players, "roles": level})
        monkeypatch.setattr(bot, "choose", engine)
        assert session.over
        stats["notes"] += len(bot.watch_of(session.state).notes)
    assert stats["choices"] >= 2000 and stats["inputs"] >= 500 and stats["notes"] >= 300, stats
    assert stats["positions"] >= 200 and stats["a hero beyond the budget"] >= 50, stats
    assert READ["options"] >= 50 and READ["another step of the plan"] >= 3 and READ["distance after"] >= 20, READ

"""The planner's search of the mall: every square a hero can reach, with the shortest way there.

A breadth-first search whose straight moves are the board's ``slide`` (the other heroes
standing still), with vortexes (before the theft) and escalators when the team holds them. It
goes only as far as what is asked of it needs: a square not found yet, the nearest of some
squares, the squares one input away, whether one of those is on a shortest way, or the whole
map. Squares are found in the same order however far it has gone, so how it is asked never
changes an answer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterator, Mapping
from copy import copy
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from arbiter.engine.games.magic_maze.moves import DIR_NAME, Move
from arbiter.engine.games.magic_maze.tiles import Cell

if TYPE_CHECKING:
    from arbiter.engine.games.magic_maze.board import BoardFacts


class Route(NamedTuple):
    """The shortest way found to a square: how many inputs, and the first of them (None for
    the square the hero stands on)."""

    length: int
    first: Move | None


_route = partial(tuple.__new__, Route)  # Route(length, first) from (length, first), without a Python call

NOWHERE: frozenset[Cell] = frozenset()
OFF = (-1, None)  # the route to a square not found


class Search(Mapping[Cell, Route]):
    """Every square ``hero`` can reach from ``start`` (by default where it stands) with the
    actions ``actions``, each with its ``Route``, in the order found. Moves take only the stops
    the team wants: up to an unused hourglass, and onto it only when ``flip_ok`` (one flip is
    the point of that move). It searches no further from an exit where the hero leaves.

    It reads a snapshot of the board taken when it is made, so it answers for that moment
    however late it is asked (the mall is shared: no tile may join meanwhile)."""

    def __init__(self, board: BoardFacts, hero: str, actions: Collection[str], flip_ok: bool,
                 start: Cell | None = None) -> None:
        board = board.snapshot()
        start = start if start is not None else board.heroes[hero]
        assert start is not None
        self.board, self.hero, self.flip_ok = board, hero, flip_ok
        self.tiles = len(board.mall.placed)
        self.context = board.slide_context(hero)
        self.fresh = set(board.unused("hourglass"))
        self.leaves = board.usable_exits(hero)
        self._take(actions)
        # A straight move that crosses a square already searched from goes nowhere new beyond it:
        # that square's own move the same way reached everything further, first. Not so for the
        # barbarian past a live camera while cameras lock: the cameras it disables on the way
        # may unlock hourglasses that a move from that square finds locked.
        barbarian_unlocks = hero == "yellow" and self.context[1] >= 2
        self.cameras = (set(board.unused("camera"))
                        if barbarian_unlocks else NOWHERE)
        self._begin(start)

    def _take(self, actions: Collection[str]) -> None:
        """Move with ``actions``: the straight moves of the directions among them, the vortexes
        (before the theft) and the escalators."""
        self.directions = [d for d in "NESW" if DIR_NAME[d] in actions]
        self.vortexes = (self.board.free_vortexes(self.hero) if "vortex" in actions and not self.board.theft else [])
        self.escalator = "escalator" in actions

    def _begin(self, start: Cell) -> None:
        """Nothing searched yet: only ``start`` found."""
        self.start = start
        self.found: dict[Cell, tuple[int, Move | None]] = {start: (0, None)}  # Routes, as plain pairs
        self.queue = deque([start])  # found, not yet searched from
        self.searched: set[Cell] = set()
        self.along: dict[Cell, tuple[int, Move | None]] | None = None  # see ``through``

    def again(self, actions: Collection[str] | None = None, start: Cell | None = None) -> Search:
        """The search of the same moment, hero and stops with other ``actions`` or from another
        ``start`` (by default this one's), as ``routes`` would make it: the board is not read again."""
        other = copy(self)
        if actions is not None:
            other._take(actions)
        other._begin(start if start is not None else self.start)
        return other

    # -- reading ---------------------------------------------------------------------------------
    def __getitem__(self, g: Cell) -> Route:
        """The route to ``g`` (KeyError when it cannot be reached)."""
        if g not in self.found and self.queue:
            self._grow(watch={g})
        return _route(self.found[g])

    def get(self, g: Cell, default: Route | None = None) -> Route | None:  # type: ignore[override]
        """The route to ``g``, or ``default`` when ``g`` cannot be reached."""
        return _route(self.found[g]) if g in self else default

    def __contains__(self, g: object) -> bool:
        if g not in self.found and self.queue:
            self._grow(watch={g})  # type: ignore[arg-type]
        return g in self.found

    def __iter__(self) -> Iterator[Cell]:
        self._grow()
        return iter(self.found)

    def __len__(self) -> int:
        self._grow()
        return len(self.found)

    def first_steps(self) -> list[tuple[Cell, Route]]:
        """The squares one input away and their routes, in the order found."""
        self._grow(limit=1)
        return [(g, _route(r)) for g, r in self.found.items() if r[0] == 1]

    def nearest(self, targets: Collection[Cell], below: int | None = None) -> int | None:
        """The length of the shortest way to any of ``targets``; None when none is reachable
        (with ``below``: none at fewer inputs than that). It searches only that far: breadth
        first, a target found is as near as any target not found yet."""
        found = self.found
        if not any(t in found for t in targets):
            self._grow(watch=set(targets), limit=None if below is None else below - 1)
        length = min((found[t][0] for t in targets if t in found), default=None)
        return length if length is not None and (below is None or length < below) else None

    def reaches_beyond(self, targets: Collection[Cell], length: int) -> bool:
        """Whether one of ``targets`` may be more than ``length`` inputs away: found that far,
        or not found while the search goes on."""
        found = self.found
        return any(found[t][0] > length if t in found else bool(self.queue) for t in targets)

    def at_length(self, targets: Collection[Cell], length: int) -> list[Cell]:
        """Those of ``targets`` whose shortest way takes ``length`` inputs (it searches until
        every square that near is found)."""
        self._grow(limit=length)
        return [t for t in targets if t in self.found and self.found[t][0] == length]

    def through(self, g: Cell, targets: Collection[Cell]) -> bool:
        """Whether ``g``, a square one input away where the hero does not leave, is on a
        shortest way to the nearest of ``targets``: whether the search from ``g`` reaches one
        of them in one input less than this one does.

        That search goes only along this one's shortest ways: a square ``k`` inputs from ``g``
        is at most ``k + 1`` from here (by ``g``), and on a way from ``g`` that short exactly
        (else a target would be nearer from here), so a square it finds otherwise is not
        searched from (it may be found, further than it is: never near enough to count)."""
        near = self.nearest(targets)  # every square nearer than that is found
        if not near:
            return False
        assert g not in self.leaves and self.found.get(g, OFF)[0] == 1, "not a square one input away"
        onward = self.again(start=g)
        onward.along = self.found
        return onward.nearest(targets, near) == near - 1

    # -- searching -------------------------------------------------------------------------------
    def _grow(self, watch: Collection[Cell] = NOWHERE, limit: int | None = None) -> None:
        """Search on, one found square at a time in the order found, until a square of
        ``watch`` is found, the next square to search from is ``limit`` inputs away or more, or
        nothing is left."""
        board, hero, found, queue, searched = self.board, self.hero, self.found, self.queue, self.searched
        assert len(board.mall.placed) == self.tiles, "a tile joined since the search began"
        context, fresh, leaves, directions = self.context, self.fresh, self.leaves, self.directions
        slide, dwarf, flip_ok = board.slide, hero == "orange", self.flip_ok
        openings, known = board.mall.openings, board.mall.known_openings(dwarf)
        ends = board.mall.escalators if self.escalator else {}
        others, cameras, along = context[0], self.cameras, self.along
        while queue:
            g = queue[0]
            length, first = found[g]
            if limit is not None and length >= limit:
                return
            queue.popleft()
            if along is not None and first is not None and along.get(g, OFF)[0] != length + 1:
                continue  # off the shortest ways it goes along (``through``): not searched from
            searched.add(g)
            # every square first found from g: one input further, the same first input (from
            # the start, none yet: each square's own)
            ahead = (length + 1, first) if first is not None else None
            hit = False
            for d, step in known[g] if g in known else openings(g, dwarf):  # the ways out, walls aside
                if (step in searched and step not in cameras) or d not in directions:
                    continue  # a move into a searched square finds nothing new (see __init__)
                line = slide(hero, g, d, context)
                stop_at = searched  # where the move finds nothing new beyond
                if cameras and not cameras.isdisjoint(line):  # only before the first camera on the way
                    stop_at = searched.intersection(line[:min(line.index(c) for c in cameras if c in line)])
                for h in line:
                    if h in found:
                        if h in stop_at or h in fresh:
                            break
                        continue
                    if h in fresh and not flip_ok:  # an unused hourglass the team does not want
                        break
                    found[h] = ahead or (1, Move("move", hero=hero, direction=d, squares=line.index(h) + 1))
                    hit = hit or h in watch
                    if h not in leaves:
                        queue.append(h)
                    if h in fresh:  # the move ends on it: the flip
                        break
            if first is None:  # the start: a vortex leads from here to each free one (found once)
                for v in self.vortexes:
                    if v != g and v not in found:
                        found[v] = (1, Move("vortex", hero=hero, square=board.square_name(v)))
                        hit = hit or v in watch
                        if v not in leaves:
                            queue.append(v)
            h = ends.get(g)
            if h is not None and h not in others and h not in found:
                found[h] = ahead or (1, Move("escalator", hero=hero))
                hit = hit or h in watch
                if h not in leaves:
                    queue.append(h)
            if hit:
                return


def routes(board: BoardFacts, hero: str, actions: Collection[str], flip_ok: bool,
           start: Cell | None = None) -> Search:
    """Every square ``hero`` can reach (from ``start``, by default where it stands), with the
    shortest way there, in the order found (a ``Search``: it searches as far as it is read)."""
    return Search(board, hero, actions, flip_ok, start)

"""Explicit chance: every random outcome of a game goes through one ``Chance`` object.

In a new game, outcomes come from the game's own seeded generator and are recorded. In a
replay they come from the recorded list, so a transcript keeps replaying even if the
generator changes. Each outcome carries a label saying what it decided.

>>> c = Chance(seed=7)
>>> c.shuffle("deck", ["a", "b", "c"]) == c.records[0].outcome
True
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from arbiter.engine.errors import ChanceMismatchError, quoted

T = TypeVar("T")


@dataclass(frozen=True)
class ChanceRecord:
    """One chance outcome: what it decided and the result (a list of names or numbers)."""

    label: str
    outcome: list[Any]


class Chance:
    """The single source of randomness for one game.

    ``recorded`` holds outcomes to reuse (a replay); when it runs out, or with ``strict=False``
    when a label does not match, outcomes are drawn from the seeded generator instead.
    ``on_record`` is called with every outcome as it is decided, so a transcript can be written
    incrementally.
    """

    def __init__(
        self,
        seed: int,
        recorded: Sequence[ChanceRecord] = (),
        *,
        strict: bool = True,
        on_record: Callable[[ChanceRecord], None] | None = None,
    ) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._recorded = list(recorded)
        self._next = 0
        self.strict = strict
        self.records: list[ChanceRecord] = []
        self.on_record = on_record

    def __deepcopy__(self, memo: dict[int, Any]) -> Chance:
        """The same chance in a copy of the game (``Session.copy``): a generator of its own in the
        same state, lists of their own holding the same outcomes (never changed once drawn), and
        ``on_record`` copied with the game (the copy's record). A generator copied through
        ``getstate`` takes 17 us; ``copy.deepcopy`` walks its 625 numbers in 370."""
        twin = copy.copy(self)
        memo[id(self)] = twin
        twin._rng = rng = random.Random.__new__(random.Random)
        rng.setstate(self._rng.getstate())
        twin._recorded, twin.records = list(self._recorded), list(self.records)
        twin.on_record = copy.deepcopy(self.on_record, memo)
        return twin

    @property
    def unused(self) -> list[ChanceRecord]:
        """Recorded outcomes not consumed (yet)."""
        return self._recorded[self._next :]

    def _take(self, label: str, check: Callable[[list[Any]], bool],
              fits: Callable[[], str]) -> list[Any] | None:
        if self._next >= len(self._recorded):
            return None
        rec = self._recorded[self._next]
        if rec.label != label or not check(rec.outcome):
            if self.strict:
                found = f"{rec.outcome!r}"
                found = found if len(found) <= 200 else found[:200] + "..."
                raise ChanceMismatchError(
                    f"chance outcome {self._next + 1}: the game asked for {quoted(label)}, "
                    + (f"the transcript has {quoted(rec.label)} there ({found})" if rec.label != label else
                       f"and the transcript's {found} is not {fits()}")
                )
            self._recorded = self._recorded[: self._next]  # rules changed: draw from here on
            return None
        self._next += 1
        return list(rec.outcome)

    def _record(self, label: str, outcome: list[Any]) -> None:
        rec = ChanceRecord(label, list(outcome))
        self.records.append(rec)
        if self.on_record is not None:
            self.on_record(rec)

    # Each draw is made from the generator even when a recorded outcome is used, so the
    # generator stays in step: a resumed game draws what the uninterrupted game would have.
    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of ``items`` (which must be distinct and hashable)."""
        pool = list(items)
        drawn = list(pool)
        self._rng.shuffle(drawn)
        outcome = self._take(label, lambda o: sorted(map(repr, o)) == sorted(map(repr, pool)),
                             lambda: f"an order of the {len(pool)} items it shuffles")
        outcome = drawn if outcome is None else outcome
        self._record(label, outcome)
        return outcome

    def choice(self, label: str, options: Sequence[T]) -> T:
        """One of ``options``, uniformly."""
        pool = list(options)
        drawn = [pool[self._rng.randrange(len(pool))]]
        outcome = self._take(label, lambda o: len(o) == 1 and o[0] in pool,
                             lambda: f"one of its {len(pool)} options") or drawn
        self._record(label, outcome)
        return outcome[0]

    def randint(self, label: str, low: int, high: int) -> int:
        """An integer in ``[low, high]``, uniformly."""
        drawn = [self._rng.randint(low, high)]
        outcome = self._take(
            label, lambda o: len(o) == 1 and isinstance(o[0], int) and low <= o[0] <= high,
            lambda: f"one whole number from {low} to {high}",
        ) or drawn
        self._record(label, outcome)
        return outcome[0]

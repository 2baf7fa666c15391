"""The sequential probability ratio test of a two-entrant match, on wins and losses.

Wald's test on the decided results, with fastchess's bounds and logistic Elo model (fastchess
approximates the log-likelihood ratio with a normal law, a generalised SPRT, and counts draws;
this one is exact on wins and losses and leaves draws out). Under the logistic Elo model an entrant ``elo``
points stronger wins a decisive game with probability ``p(elo) = 1 / (1 + 10 ** (-elo / 400))``.
H0 says the first entrant is ``elo0`` stronger than the second, H1 that it is ``elo1`` stronger.
After ``w`` wins and ``l`` losses of the first, the log-likelihood ratio is

    LLR = w * ln(p1 / p0) + l * ln((1 - p1) / (1 - p0))

and the test accepts H1 once ``LLR >= ln((1 - beta) / alpha)``, H0 once
``LLR <= ln(beta / (1 - alpha))``, and goes on in between. A draw adds nothing to the LLR.

The outcomes a tournament feeds it are its blocks (``engine.arena.stats.block_result``): the
same deal played with the entrants swapped over every seat, won by the entrant whose seats won
more often, as fastchess scores game pairs; so the Elo of the hypotheses is per block (in a
duel, per pair of games with sides swapped, where it is about twice the per-game Elo).

ELO0 and ELO1 are finite numbers from ``-MAX_ELO`` to ``MAX_ELO`` (1000): there ``p`` is
between 0.0032 and 0.9968, so ``p`` and ``1 - p`` are well inside (0, 1) in floating point and the
LLR is finite (at 1e308, or infinity, ``p`` is exactly 0 or 1 and its logarithm fails). A
configuration that breaks a bound (``--sprt``, or a hand-edited ``tournament.json``) is an
``SprtError`` naming the values.

>>> t = Sprt(0, 10)
>>> t.status(0, 0), t.status(400, 0), t.status(5000, 5000)
(None, 'H1', 'H0')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from arbiter.engine.errors import ArbiterError, quoted

MAX_ELO = 1000
"""The largest Elo difference a hypothesis may state, either way (see the module's text)."""


class SprtError(ArbiterError, ValueError):
    """An SPRT that cannot be run (also a ``ValueError``, as the dataclass's callers expect)."""


def win_probability(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        """Refuse hypotheses and error rates the test cannot be computed with (before any game,
        not as a ``math`` error in the middle of a run)."""
        if not all(finite(x) and abs(x) <= MAX_ELO for x in (self.elo0, self.elo1)):
            raise SprtError(f"SPRT's ELO0 and ELO1 are finite numbers from -{MAX_ELO} to {MAX_ELO}, not "
                            f"{_shown(self.elo0)} and {_shown(self.elo1)}")
        if not self.elo0 < self.elo1:
            raise SprtError(f"SPRT needs ELO0 < ELO1, not {self.elo0:g} and {self.elo1:g}")
        if not all(finite(x) and 0 < x < 0.5 for x in (self.alpha, self.beta)):
            raise SprtError(f"SPRT's alpha and beta are between 0 and 0.5, not {_shown(self.alpha)} "
                            f"and {_shown(self.beta)}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, losses: int) -> float:
        p0, p1 = win_probability(self.elo0), win_probability(self.elo1)
        return wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))

    def status(self, wins: int, losses: int) -> str | None:
        """``H1`` or ``H0`` once accepted, else None (go on)."""
        value = self.llr(wins, losses)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None

    def as_dict(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


def finite(x: object) -> bool:
    """A real, finite number (a JSON ``true`` is not one; a whole number is, however long, where
    ``math.isfinite`` raised ``OverflowError`` for one past a float's range)."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and (isinstance(x, int) or math.isfinite(x))


def _shown(x: object) -> str:
    """A value as an error shows it: a number briefly, anything else as written."""
    if isinstance(x, float) or (isinstance(x, int) and not isinstance(x, bool) and abs(x) < 10 ** 15):
        return f"{x:g}"
    return quoted(x)  # (a whole number too long for ``:g``, which overflows past a float's range)

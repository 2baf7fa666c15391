"""The schedule: which games a tournament plays, fair to every entrant.

A game is a *deal* (a seed: it fixes every chance outcome of the game, so the cards, the board
and the identities are the same whoever plays) and an *assignment* of entrants to its seats.
Each deal is played as a *block* of ``k`` games, ``k`` the number of entrants: in rotation
``r`` (``0 .. k-1``) seat ``i`` (in the game's seat order) is played by entrant ``(i + r) mod k``.
This cyclic Latin square generalises the colour swap of chess to ``n`` seats and ``k`` entrants:

- within every block, every entrant plays every seat of that deal exactly once (seat ``i`` sees
  entrants ``i, i+1, ..., i+k-1 (mod k)``: all of them), whatever ``n`` and ``k``; so every
  entrant holds every card, character or side of every deal equally often;
- every entrant plays the same number of seats per block (``n``), and the same multiset of
  seat counts per game: when ``k`` does not divide ``n``, ``n mod k`` entrants hold one seat
  more than the others in each game, and over a block each entrant is one of them equally often;
- with ``k > n``, ``n`` entrants play each game and the others sit it out, each equally often.

Not balanced: who sits beside or across whom. With ``k > n`` entrants only meet those within
``n - 1`` places of them in the cyclic order (with 3 entrants in a 2-seat game, every pair
meets once a block, but on one seat pairing only); for balanced pairs play each pair its own
match. ``games`` is rounded up to whole blocks, so a tournament plays ``k * ceil(games / k)``.

Deals cycle through the setups (modes) in order; deal ``d``'s seed derives from the
tournament's seed and ``d`` alone, so the same tournament seed plays the same games however
many workers play them, and in whatever order.

A tournament asks for at most ``MAX_GAMES`` games: the schedule is built whole, in memory, before
the first game (about 0.4 kB a game, whatever the seats and entrants), and a run keeps every
game's record in memory too (4 to 7 kB each). It has at most ``MAX_ENTRANTS`` entrants, whose
report stays quick and small; that also bounds a block, which is played whatever ``games`` asks.

>>> s = schedule(7, [Setup("duel-3v3", {}, ("mafia", "fbi"))], ["a", "b"], 3)
>>> [(g.index, g.deal, g.rotation, g.entrants) for g in s]
[(0, 0, 0, ('a', 'b')), (1, 0, 1, ('b', 'a')), (2, 1, 0, ('a', 'b')), (3, 1, 1, ('b', 'a'))]
>>> s[0].seed == s[1].seed != s[2].seed
True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine.errors import ArbiterError, quoted
from arbiter.engine.session import CHOSEN_SEEDS

MAX_GAMES = 100_000
"""The most games a tournament may ask for. Measured with ``tracemalloc`` on Classic Mafia, 12
players (the most seats of any game), 2 entrants: the schedule takes 413 bytes a game, 40 MiB
at this cap (394 MiB at 1,000,000); the records a run holds take 7.4 kB a game there (3.9 kB
in an FBI vs Mafia duel), 0.7 GiB at this cap, so the two stay under 1 GiB together. A million
games would hold some 7 GiB of records by the end of the run."""

MAX_ENTRANTS = 500
"""The most entrants a tournament may have. The report compares every pair of them: its
head-to-head table (and ``--json``'s ``head_to_head``) has a row for each of the ``k(k - 1)/2``
pairs, 124,750 at this limit, most of them empty when entrants outnumber a game's seats (each
meets only those near it in the rotation). Measured on a 2-core machine with no game played,
the report of 500 entrants (``report.summary`` and its tables or JSON) took 0.4 to 0.7 s and
130 MiB, where 1,000 took 1.8 to 3.5 s and 520 MiB, on top of the records a run holds (up to
0.7 GiB at ``MAX_GAMES``). It also bounds the rounding of ``games`` up to whole blocks: fewer
than ``MAX_GAMES + MAX_ENTRANTS`` games (100,485 at most, with 495 entrants)."""


@dataclass(frozen=True)
class Setup:
    """A mode (variant) and its options, and the seats it has."""

    variant: str
    options: dict[str, Any]
    seats: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    """One scheduled game: its place in the schedule, its deal, and who plays which seat."""

    index: int
    deal: int
    rotation: int
    seed: int
    variant: str
    seats: tuple[str, ...]
    entrants: tuple[str, ...]
    """The entrant of each seat, in seat order."""
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def assignment(self) -> dict[str, str]:
        """seat -> entrant."""
        return dict(zip(self.seats, self.entrants))


FORMAT = 2
"""The format of the tournaments this arbiter makes (``tournament.json``'s ``format``)."""

DEAL_SEEDS = {1: 2**31, 2: CHOSEN_SEEDS}
"""How many seeds a deal's seed is drawn from, by the tournament folder's format (its
``tournament.json``). Format 1 drew them below 2**31: a seat's board and the built-in bots'
choices come from the deal's seed, so an entrant could try every one until its board matched
and learn every card of the deal, whatever the tournament's seed. Format 2 (every tournament
made now) draws them below 2**53; a tournament of format 1 is resumed with the deals it began
with."""


def deal_seed(tournament_seed: int, deal: int, form: int = FORMAT) -> int:
    """The seed of deal ``deal``: from the tournament's seed and the deal's number alone (and the
    folder's format, ``DEAL_SEEDS``).

    >>> deal_seed(1, 0) == deal_seed(1, 0) != deal_seed(1, 1)
    True
    >>> deal_seed(1, 0, 1) < 2**31 <= deal_seed(1, 0, 2) < 2**53
    True
    """
    digest = hashlib.sha256(f"arbiter-arena:{tournament_seed}:{deal}".encode()).digest()
    if form == 1:
        return int.from_bytes(digest[:4], "big") % DEAL_SEEDS[1]
    return int.from_bytes(digest[:8], "big") % DEAL_SEEDS[form]


def check_games(games: object) -> int:
    """``games`` when a tournament may ask for that many: a whole number from 1 to ``MAX_GAMES``
    (not ``true``).

    >>> check_games(MAX_GAMES + 1)
    Traceback (most recent call last):
    arbiter.engine.errors.ArbiterError: a tournament plays from 1 to 100000 games, not 100001
    """
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ArbiterError(f"a tournament plays from 1 to {MAX_GAMES} games, not {quoted(games)}")
    return games


def check_entrant_count(entrants: int) -> int:
    """``entrants`` when a tournament may have that many: at most ``MAX_ENTRANTS``, as its report
    has a row for each pair of them (and a block of their games, one per entrant, is played
    whatever ``games`` asks).

    >>> check_entrant_count(MAX_ENTRANTS + 1)
    Traceback (most recent call last):
    arbiter.engine.errors.ArbiterError: 501 entrants are too many: ...; give at most 500 entrants
    """
    if entrants > MAX_ENTRANTS:
        raise ArbiterError(f"{entrants} entrants are too many: the report has a head-to-head row for each pair "
                           f"of entrants, {_pairs(entrants)} here, past the {_pairs(MAX_ENTRANTS)} of "
                           f"{MAX_ENTRANTS}; give at most {MAX_ENTRANTS} entrants")
    return entrants


def _pairs(entrants: int) -> int:
    return entrants * (entrants - 1) // 2


def block_size(entrants: int) -> int:
    """Games per deal: one rotation per entrant."""
    return entrants


def rounded_games(games: int, entrants: int) -> int:
    """``games`` rounded up to whole blocks.

    >>> rounded_games(5, 2), rounded_games(200, 3)
    (6, 201)
    """
    size = block_size(entrants)
    return size * max(1, math.ceil(games / size))


def rotation(seats: int, entrants: int, r: int) -> tuple[int, ...]:
    """The entrant (by number) of each seat in rotation ``r``.

    >>> rotation(5, 2, 0), rotation(5, 2, 1), rotation(2, 3, 2)
    ((0, 1, 0, 1, 0), (1, 0, 1, 0, 1), (2, 0))
    """
    return tuple((i + r) % entrants for i in range(seats))


def schedule(seed: int, setups: Sequence[Setup], entrants: Sequence[str], games: int, form: int = FORMAT) -> list[Game]:
    """Every game of a tournament, in order: ``rounded_games(games, len(entrants))`` of them
    (``games`` and the count of entrants checked first: a number past the cap would fill the
    memory before any game);
    ``form``: the folder's format, which says how deals' seeds are drawn (``DEAL_SEEDS``)."""
    check_games(games)
    k = check_entrant_count(len(entrants))
    out: list[Game] = []
    total = rounded_games(games, k)
    deal = 0
    while len(out) < total:
        setup = setups[deal % len(setups)]
        s = deal_seed(seed, deal, form)
        for r in range(block_size(k)):
            who = tuple(entrants[e] for e in rotation(len(setup.seats), k, r))
            out.append(Game(len(out), deal, r, s, setup.variant, setup.seats, who, dict(setup.options)))
        deal += 1
    return out

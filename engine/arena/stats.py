"""Figures from a tournament's results: win rates with 95% Wilson intervals per entrant, by
side and by role, forfeits by kind, and head-to-head counts with an Elo difference.

Everything counts *seats*: in a hidden-role game one entrant may hold several seats of a game,
on different sides, and each seat wins or loses with its side. A seat's outcome is ``won`` or
``lost`` in a finished game; an unfinished game (a move limit, a machine that could not
start a bot) counts for no one and is reported apart. Seats are not independent trials: seats of
one game on the same side share their outcome, and a deal is played with the entrants swapped
over its seats. So every interval reads its spread from the deals (``design_effect``), as chess
engines read game pairs: wider than the seats' own where an entrant holds many seats of a side,
narrower where swapping the seats cancels a deal's luck.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine.bots import STDERR_TAIL

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

FORFEIT_KINDS = ("timeout", "crash", "illegal", "protocol", "other")


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``.

    >>> [round(x, 4) for x in wilson(7, 10)]
    [0.3968, 0.8922]
    >>> wilson(0, 0)
    (0.0, 1.0)

    At all wins (or none) the end is exactly 1 (or 0), which floating point alone misses by a
    rounding error (a finite Elo for an infinite one):

    >>> wilson(10, 10)[1], wilson(0, 1000)[0]
    (1.0, 0.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    return low, 1.0 if wins >= n else min(1.0, centre + half)


def score_interval(wins: int, draws: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a score (a win 1, a draw 1/2, a loss 0) over ``n`` games: Wilson's
    score interval with the variance of such a game (trinomial), the draw rate held at the one
    seen, ``d = draws / n``. A game of expected score ``p`` then varies by ``p(1 - p) - d/4``,
    less than a decisive game's ``p(1 - p)``: the ends are the ``p`` where
    ``(score - p)^2 = z^2 (p(1 - p) - d/4) / n``. Without draws it is ``wilson``; Wilson's
    interval of the score with draws counted as half wins is wider (at 40% draws it holds the
    true score 99% of the time, not 95%).

    >>> [round(x, 4) for x in score_interval(7, 0, 10)] == [round(x, 4) for x in wilson(7, 10)]
    True
    >>> [round(x, 4) for x in score_interval(93, 97, 240)], [round(x, 4) for x in wilson(93 + 97 / 2, 240)]
    ([0.541, 0.6353], [0.5264, 0.6499])

    At all wins (or no score at all) the end is exactly 1 (or 0), as ``wilson``'s. When every
    game was drawn the variance seen is none, which would make the interval the score alone (a
    certain +0 Elo after one drawn game): the games say nothing of the spread, and the interval
    is Wilson's of the score, as if each draw were a coin's toss (the widest there is).

    >>> score_interval(0, 1, 1) == wilson(0.5, 1)
    True
    """
    if n <= 0:
        return 0.0, 1.0
    if draws == n:
        return wilson(n / 2, n, z)
    score, d, c = (wins + draws / 2) / n, draws / n, z * z / n
    b = 2 * score + c
    root = math.sqrt(max(0.0, b * b - 4 * (1 + c) * (score * score + c * d / 4)))
    low, high = (b - root) / (2 * (1 + c)), (b + root) / (2 * (1 + c))
    return (0.0 if score <= 0 else max(0.0, low)), (1.0 if score >= 1 else min(1.0, high))


@functools.lru_cache(maxsize=256)
def t_quantile(df: int, level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` (a whole number, at least 1)
    degrees of freedom: the ``t`` with ``P(|T| <= t) = level``. Its distribution function has a
    closed form for whole ``df`` (a finite sum of powers of ``cos(atan(t / sqrt(df)))``), found
    here by bisection; at many degrees of freedom it is the normal quantile's.

    >>> [round(t_quantile(n), 3) for n in (1, 2, 5, 30)]
    [12.706, 4.303, 2.571, 2.042]
    """
    if df < 1:
        raise ValueError(f"Student's t needs at least one degree of freedom, not {df}")
    if df > 200 and level == 0.95:  # the sum grows with df: Cornish-Fisher's series in 1/df (to 1e-7 here)
        z = Z95
        return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
                + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))

    def inside(t: float) -> float:  # P(|T| <= t)
        theta = math.atan(t / math.sqrt(df))
        s, c2 = math.sin(theta), math.cos(theta) ** 2
        term, total = 1.0, 1.0
        if df % 2 == 0:  # sin(theta) (1 + c2/2 + 1*3/(2*4) c2^2 + ... up to c2^((df-2)/2))
            for k in range(1, df // 2):
                term *= c2 * (2 * k - 1) / (2 * k)
                total += term
            return s * total
        if df == 1:
            return 2 * theta / math.pi
        # odd: (2/pi) (theta + sin cos (1 + 2/3 c2 + 2*4/(3*5) c2^2 + ... up to c2^((df-3)/2)))
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + s * math.sqrt(c2) * total)

    low, high = 0.0, 1.0
    while inside(high) < level:
        high *= 2
    for _ in range(64):  # from [0, 2^k] to a float's precision
        mid = (low + high) / 2
        low, high = (mid, high) if inside(mid) < level else (low, mid)
    return (low + high) / 2


def deal_score_interval(deals: Sequence[tuple[int, int, int]], z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a score over games played in deals, ``deals`` holding each deal's
    ``(wins, draws, games)``: the games of one deal are not independent (the same cards, seats
    and chance, the entrants swapped over them), so the spread of the score is read from the
    deals' own scores, as chess engines read game pairs (the pentanomial count).

    The score is that of every game together. Its variance is the deals' (a ratio estimate over
    clusters: ``B / (B - 1) * sum((T_d - S n_d)^2) / N^2`` for ``B`` deals, ``T_d`` a deal's
    score in its ``n_d`` games, ``N`` games, score ``S``). Over the variance of as many
    independent games that is the *design effect*; the interval is ``score_interval``'s over
    ``N`` divided by it (the same wins, draws and losses in a smaller or larger number of
    games), with Student's t of ``B - 1`` degrees of freedom for ``z``, since the variance is
    read from ``B`` deals. With one game a deal, or one deal, or deals that all scored alike
    (no spread to read), it is ``score_interval`` of the deals, each one trial scoring its
    games' score (one game a deal: the games' own): the games of a deal may share their
    outcome, so they count as one, as wide as the deals allow.

    >>> [round(x, 3) for x in deal_score_interval([(2, 0, 2)] * 10)]
    [0.722, 1.0]

    Swapping sides in a deal cancels the deal's luck: a pair of duels won by the stronger side
    each time is a draw of the pair, so the interval is narrower than the games' own:

    >>> [round(x, 3) for x in score_interval(30, 0, 40)]
    [0.598, 0.858]
    >>> [round(x, 3) for x in deal_score_interval([(2, 0, 2)] * 10 + [(1, 0, 2)] * 10)]
    [0.615, 0.849]

    and a deal that one entrant wins (or loses) whatever its side makes it wider:

    >>> [round(x, 3) for x in deal_score_interval([(2, 0, 2)] * 15 + [(0, 0, 2)] * 5)]
    [0.51, 0.896]
    """
    wins, draws, games = (sum(d[i] for d in deals) for i in range(3))
    effect = design_effect(deals)
    if effect is None:
        blocks = [d for d in deals if d[2] > 0]
        return score_interval(sum(w / n for w, _, n in blocks), sum(d / n for _, d, n in blocks), len(blocks), z)
    return score_interval(wins / effect[0], draws / effect[0], games / effect[0], effect[1])


def design_effect(deals: Sequence[tuple[int, int, int]]) -> tuple[float, float] | None:
    """For ``deal_score_interval`` (whose text says how): the design effect of deals of
    ``(wins, draws, games)`` and the quantile to use for ``z`` (Student's t of deals - 1
    degrees of freedom), or None where the deals show no spread to read (each deal is then one
    trial): one game a deal, one deal, or deals that all scored alike (to a float's rounding:
    deals alike of 11 games each leave about 1e-31 of spread, which read as a spread gave an
    interval of no width)."""
    blocks = [d for d in deals if d[2] > 0]
    if len(blocks) < 2 or max(d[2] for d in blocks) < 2:
        return None
    wins, draws, games = (sum(d[i] for d in blocks) for i in range(3))
    score = (wins + draws / 2) / games
    per_game = (wins + draws / 4) / games - score * score  # a game's variance: E[x^2] - S^2
    spread = sum((w + d / 2 - score * n) ** 2 for w, d, n in blocks)
    if per_game <= 1e-12 or spread <= 1e-12 * games * games:
        return None
    variance = len(blocks) / (len(blocks) - 1) * spread / (games * games)
    return variance * games / per_game, t_quantile(len(blocks) - 1)


def elo(score: float) -> float | None:
    """The Elo difference of an expected score (logistic model); None at 0 or 1 (infinite).

    >>> round(elo(0.75), 1), elo(0.5)
    (190.8, 0.0)
    """
    if score <= 0 or score >= 1:
        return None
    return -400 * math.log10(1 / score - 1) + 0.0  # (+ 0.0: at 0.5, 0.0 where the JSON said -0.0)


@dataclass
class Tally:
    """Seats played and won, and of which deals (``add``'s ``deal``): the seats an entrant holds
    in one deal are not independent (seats of one side share their outcome; the same deal is
    played with the entrants swapped over its seats), so the interval reads its spread from the
    deals, as ``deal_score_interval`` does. Seats added without a deal are a deal each."""

    seats: int = 0
    wins: int = 0
    deals: dict[Any, list[int]] = field(default_factory=dict, compare=False, repr=False)
    """Deal -> [seats won, seats played] in it, in the order first added (the seats added
    without a deal are only counted: a deal each)."""

    def add(self, won: bool, deal: Any = None) -> None:
        self.seats += 1
        self.wins += int(won)
        if deal is not None:  # (a seat without its deal is counted, not kept: a run's progress keeps many)
            counts = self.deals.setdefault(deal, [0, 0])
            counts[0] += int(won)
            counts[1] += 1

    @property
    def rate(self) -> float | None:
        """Seats won of seats played; None (no figure, not 0) when no seat was played."""
        return self.wins / self.seats if self.seats else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """Wilson's interval of the rate, over the seats divided by the deals' design effect with
        Student's t for its quantile (``design_effect``). Where the deals show no spread (one
        seat a deal, one deal, deals alike), Wilson's of the deals, each one trial scoring the
        share of its seats won: seats of a deal may share their outcome (a Magic Maze team's
        all win or all lose), so they count as one, as wide as the deals allow. A seat counted
        without its deal is a deal of its own."""
        if not self.seats:
            return None
        dealt = [(w, 0, n) for w, n in self.deals.values()]
        alone_won = self.wins - sum(w for w, _, _ in dealt)
        alone_lost = self.seats - sum(n for _, _, n in dealt) - alone_won
        dealt += [(1, 0, 1)] * alone_won + [(0, 0, 1)] * alone_lost
        effect = design_effect(dealt)
        if effect is None:
            return wilson(sum(w / n for w, _, n in dealt), len(dealt))
        return wilson(self.wins / effect[0], self.seats / effect[0], effect[1])

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.interval or (None, None)
        return {"seats": self.seats, "wins": self.wins, "rate": self.rate, "low": lo, "high": hi}


def finished(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r.get("finished")]


def deal_of(record: dict[str, Any], position: int) -> Any:
    """The deal a game's record belongs to (its ``deal``); a record without one (written by
    hand, or by a test) is a deal of its own, told apart by its ``position`` in its list."""
    return record["deal"] if "deal" in record else ("game", position)


def forfeit_kind(reason: str) -> str:
    """Which kind of forfeit (one of ``FORFEIT_KINDS``) a bot's failure reason is, read from the
    referee's words only: what the bot wrote to stderr, quoted after them, cannot change it.

    >>> forfeit_kind("no answer within 0.5 s"), forfeit_kind("illegal input 'x': syntax: ...")
    ('timeout', 'illegal')
    >>> forfeit_kind("the bot exited (status 1); its stderr ends: no answer within 1 s")
    'crash'
    >>> forfeit_kind("illegal input 'no answer within 1 s': syntax: unknown action 'no'")
    'illegal'
    >>> forfeit_kind("the agent m:Slow gave no answer within 2 s"), forfeit_kind("the agent m:C raised KeyError: 'x'")
    ('timeout', 'crash')
    """
    text = reason.split(STDERR_TAIL, 1)[0].lower()
    head = re.split("['\"]", text, maxsplit=1)[0]  # what a bot sent is quoted after the referee's words
    if head.startswith("no answer within"):
        return "timeout"
    if head.startswith("illegal input"):
        return "illegal"
    if head.startswith("the agent "):  # a py: agent's failure; what it raised follows, unquoted
        return "timeout" if re.match(r"the agent \S+ gave no answer within ", head) else "crash"
    if any(w in head for w in ("not asked for", "longer than", "cannot be read", "empty line", "stopped reading",
                               "stamped its line", "answer nothing")):
        return "protocol"
    if any(w in head for w in ("exited", "closed its", "raised", "cannot start", "killed by", "was closed",
                               "had no input", "answered")):
        return "crash"
    return "other"


def entrant_table(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per entrant: games played (finished), seats, seats won, win rate and interval (None when
    it held no seat of a finished game), forfeits. One pass over the records (a pass per
    entrant was a run's report's cost times its entrants)."""
    tallies = {name: Tally() for name in entrants}
    games = dict.fromkeys(entrants, 0)
    forfeits = dict.fromkeys(entrants, 0)
    for r in records:
        for f in r.get("forfeits", []):
            if f["entrant"] in forfeits:
                forfeits[f["entrant"]] += 1
    for i, r in enumerate(finished(records)):
        outcome, played = r["outcome"], set()
        for s, e in r["seats"].items():
            if e in tallies:
                tallies[e].add(outcome.get(s) == "won", deal_of(r, i))
                played.add(e)
        for e in played:
            games[e] += 1
    return {name: {"games": games[name], **tallies[name].as_dict(), "forfeits": forfeits[name]} for name in entrants}


def by_key(records: Sequence[dict[str, Any]], entrants: Sequence[str], key: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Per entrant, per side (``key="sides"``) or role (``"roles"``): seats, wins, rate, interval."""
    tallies: dict[str, dict[str, Tally]] = {name: {} for name in entrants}
    for i, r in enumerate(finished(records)):
        for seat, name in r["seats"].items():
            label = r[key].get(seat, "?")
            tallies[name].setdefault(label, Tally()).add(r["outcome"].get(seat) == "won", deal_of(r, i))
    return {name: {label: t.as_dict() for label, t in sorted(by.items())} for name, by in tallies.items()}


def side_rates(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every seat of every finished game, by side: how often each side wins whoever plays it."""
    tallies: dict[str, Tally] = {}
    for i, r in enumerate(finished(records)):
        for seat in r["seats"]:
            tallies.setdefault(r["sides"].get(seat, "?"), Tally()).add(r["outcome"].get(seat) == "won", deal_of(r, i))
    return {side: t.as_dict() for side, t in sorted(tallies.items())}


def forfeit_table(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, dict[str, int]]:
    """Per entrant, forfeits by kind (only kinds that happened)."""
    out: dict[str, dict[str, int]] = {name: {} for name in entrants}
    for r in records:
        for f in r.get("forfeits", []):
            kinds = out.setdefault(f["entrant"], {})
            kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    return out


def pair_result(record: dict[str, Any], a: str, b: str) -> str | None:
    """How ``a`` did against ``b`` in one finished game: ``win``, ``loss`` or ``draw``; None when
    they were never on opposite sides in it.

    They meet when a seat of ``a`` and a seat of ``b`` are on different sides. Each such pair
    of seats in which one won and the other lost is a point to the winner; the game goes to
    whoever has more points (a draw when equal). In a two-seat duel that is simply who won.

    >>> r = {"finished": True, "seats": {"x": "a", "y": "b"}, "sides": {"x": "fbi", "y": "mafia"},
    ...      "outcome": {"x": "lost", "y": "won"}}
    >>> pair_result(r, "a", "b"), pair_result(r, "b", "a")
    ('loss', 'win')
    """
    if not record.get("finished"):
        return None
    seats = record["seats"]
    return _met([s for s, e in seats.items() if e == a], [s for s, e in seats.items() if e == b],
                record["sides"], record["outcome"])


def _met(mine: list[str], theirs: list[str], sides: dict[str, Any], outcome: dict[str, Any]) -> str | None:
    """``pair_result`` of the seats ``mine`` against the seats ``theirs`` of a finished game."""
    met, points = False, 0
    for x in mine:
        for y in theirs:
            if sides.get(x) == sides.get(y):
                continue
            met = True
            wx, wy = outcome.get(x) == "won", outcome.get(y) == "won"
            points += (wx and not wy) - (wy and not wx)
    if not met:
        return None
    return "win" if points > 0 else "loss" if points < 0 else "draw"


def block_result(block: Sequence[dict[str, Any]], a: str, b: str) -> str | None:
    """How ``a`` did against ``b`` over one block (a deal played once per rotation): ``win``
    when its seats won more often than ``b``'s, ``loss`` when less, else ``draw``; None when a
    game of it did not finish. In a duel a block is a game pair with sides swapped: ``win`` is
    winning both, ``draw`` one each.

    >>> g = lambda x, y, w: {"finished": True, "seats": {"x": x, "y": y}, "outcome": {"x": w, "y": "lost"}}
    >>> block_result([g("a", "b", "won"), g("b", "a", "lost")], "a", "b")
    'win'
    >>> block_result([g("a", "b", "won"), g("b", "a", "won")], "a", "b")
    'draw'
    """
    if not block or not all(r.get("finished") for r in block):
        return None
    score = {a: 0, b: 0}
    for r in block:
        for seat, entrant in r["seats"].items():
            if entrant in score and r["outcome"].get(seat) == "won":
                score[entrant] += 1
    return "win" if score[a] > score[b] else "loss" if score[a] < score[b] else "draw"


def head_to_head(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> list[dict[str, Any]]:
    """Every pair (in entrant order): games where they met, wins each, draws, the deals those
    games came from, the first's score with its interval (``deal_score_interval``: a draw is
    half a win and varies less than a win or a loss; the spread is read from the deals, whose
    games are not independent), and the Elo difference that score means (with its interval);
    the score and the Elo figures are None for a pair that never met. A record without a
    ``deal`` is a deal of its own.

    ``sides_even`` says whether the pair met as often on each side as the other way round: over
    the pairs of their seats on opposite sides that the score counts, ``a`` on side X against
    ``b`` on side Y as often as ``b`` on X against ``a`` on Y (None when they never met);
    ``sides_uneven`` is the share of those pairs of seats not mirrored so (0: even; 1: they
    always met one way round). The schedule gives every entrant every seat alike, not every pair: with more entrants than a
    game has seats, three bots alike in a duel with a 78% side met each other always on the
    same sides, and the score read the side's edge as the bots' (+220 Elo, 95% CI [+162, +278],
    for bots that were the same program); so may seats that the entrants do not divide, and a
    block cut short.

    One pass over the records, each game adding to the pairs of entrants that played it (a
    pass per pair was the report's whole cost with many entrants: 36 s for 48)."""
    order = {name: i for i, name in enumerate(entrants)}
    # (a, b) -> its counts {win, loss, draw}; deal -> [wins, draws, games] in the order first met;
    # (a's side, b's side) -> pairs of seats so met
    pairs: dict[tuple[str, str], tuple[dict[str, int], dict[Any, list[int]], dict[tuple[str, str], int]]] = {}
    for position, r in enumerate(records):
        if not r.get("finished"):
            continue
        sides, outcome = r["sides"], r["outcome"]
        held: dict[str, list[str]] = {}  # entrant -> its seats, in the record's order
        for s, e in r["seats"].items():
            if e in order:
                held.setdefault(e, []).append(s)
        present = sorted(held, key=order.__getitem__)
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                res = _met(held[a], held[b], sides, outcome)
                if res is None:
                    continue
                counts, deals, faced = pairs.setdefault((a, b), ({"win": 0, "loss": 0, "draw": 0}, {}, {}))
                counts[res] += 1
                for x in [str(sides.get(s)) for s in held[a]]:
                    for y in [str(sides.get(s)) for s in held[b]]:
                        if x != y:
                            faced[(x, y)] = faced.get((x, y), 0) + 1
                deal = deals.setdefault(deal_of(r, position), [0, 0, 0])
                deal[0] += res == "win"
                deal[1] += res == "draw"
                deal[2] += 1
    # a pair that never met has no figure at all: most pairs, with more entrants than a game has seats
    # (each meets only those fewer than that many places from it in the rotation), so each is this row's copy
    never = {"games": 0, "deals": 0, "a_wins": 0, "b_wins": 0, "draws": 0, "sides_even": None, "sides_uneven": None,
             **dict.fromkeys(("a_score", "a_score_low", "a_score_high", "elo", "elo_low", "elo_high"))}
    out = []
    for i, a in enumerate(entrants):
        for b in entrants[i + 1:]:
            pair = pairs.get((a, b))
            if pair is None:
                out.append({"a": a, "b": b, **never})
                continue
            counts, deals, faced = pair
            n = sum(counts.values())  # (a pair is kept once they met: n > 0)
            met = sum(faced.values())
            unmirrored = sum(abs(k - faced.get((y, x), 0)) for (x, y), k in faced.items() if (y, x) not in faced
                             or x < y)
            row: dict[str, Any] = {"a": a, "b": b, "games": n, "deals": len(deals), "a_wins": counts["win"],
                                   "b_wins": counts["loss"], "draws": counts["draw"], "sides_even": not unmirrored,
                                   "sides_uneven": unmirrored / met if met else 0.0}
            score = (counts["win"] + counts["draw"] / 2) / n
            lo, hi = deal_score_interval([tuple(d) for d in deals.values()])
            out.append({**row, "a_score": score, "a_score_low": lo, "a_score_high": hi,
                        "elo": elo(score), "elo_low": elo(lo), "elo_high": elo(hi)})
    return out

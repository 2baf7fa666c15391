"""The report of a tournament: every figure as one JSON-ready object (``summary``), and the
same as text tables that fit 80 columns (``tables``).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

from arbiter.engine.arena import rating, stats
from arbiter.engine.arena.schedule import block_size
from arbiter.engine.errors import counted


def summary(config: dict[str, Any], records: Sequence[dict[str, Any]], scheduled: int,
            sprt: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything a tournament's results say, as one object. Once an SPRT has decided, the
    tables count the games of the blocks up to its decision: games that were running then
    finish and are recorded, but how many there are depends on the workers and the timing
    (``after_decision`` says how many were left out)."""
    names = [e["name"] for e in config["entrants"]]
    done = list(records)
    after: list[dict[str, Any]] = []
    if sprt is not None and sprt.get("result") is not None:
        after = [r for r in done if r["game"] >= sprt["games"]]
        done = [r for r in done if r["game"] < sprt["games"]]
    return {
        "game": config["game"],
        "entrants": config["entrants"],
        "scheduled": scheduled,
        "recorded": len(done) + len(after),
        "after_decision": len(after),
        "unfinished": sum(1 for r in done if not r.get("finished")),
        "not_started": sum(1 for r in done if r.get("error") is not None),  # (among the unfinished)
        "not_started_why": next((r["error"] for r in done if r.get("error") is not None), None),
        "part_blocks": _part_blocks(done, block_size(len(names))),
        "table": stats.entrant_table(done, names),
        "sides": stats.by_key(done, names, "sides"),
        "side_rates": stats.side_rates(done),
        "roles": stats.by_key(done, names, "roles"),
        "forfeits": stats.forfeit_table(done, names),
        "ratings": rating.rate(done, names),
        "head_to_head": stats.head_to_head(done, names),
        "sprt": sprt,
        "names": _declared(done),
    }


def _part_blocks(records: Sequence[dict[str, Any]], size: int) -> int:
    """How many of ``records`` belong to deals recorded in fewer than ``size`` games (a block
    cut short: a run stopped, or still going): there the entrants have not yet held every seat
    of the deal, so the tables' balance (each entrant on every seat equally often; *vs all* as
    its edge) holds only for the rest."""
    games: dict[Any, int] = {}
    for r in records:
        if "deal" in r and r.get("error") is None:  # (a game the machine could not start is played again)
            games[r["deal"]] = games.get(r["deal"], 0) + 1
    return sum(n for n in games.values() if n < size)


def _declared(records: Sequence[dict[str, Any]]) -> dict[str, list[str]]:
    """The names ``exec:`` programs gave themselves, per entrant."""
    out: dict[str, set[str]] = {}
    for r in records:
        for seat, name in r.get("names", {}).items():
            out.setdefault(r["seats"][seat], set()).add(name)
    return {k: sorted(v) for k, v in out.items()}


def _fixed(x: float, places: int = 1, sign: bool = False) -> str:
    """``x`` to ``places`` decimals (with its sign, ``sign``), never ``-0.0``: a value that
    rounds to zero is shown as zero (``+0.0``), like the column's other values."""
    return f"{round(x, places) + 0.0:{'+' if sign else ''}.{places}f}"  # + 0.0: -0.0 is 0.0


def _pct(x: float | None) -> str:
    """A rate as a percentage; ``-`` when there is none (no seat, a pair that never met). Only a
    rate of exactly 1 (or 0), all won (or none), is ``100.0`` (``0.0``): one that rounds there but
    is not (999,999 of a million; a score of 0.9995 beside a finite Elo figure) is ``>99.9``
    (``<0.1``), no wider than ``100.0``.

    >>> [_pct(x) for x in (1, 0.9995, 0.999, 0.0004, 0, None)]
    ['100.0', '>99.9', '99.9', '<0.1', '0.0', '-']
    """
    if x is None:
        return "-"
    shown = _fixed(100 * x)
    if shown == "100.0" and x < 1:
        return ">99.9"
    if shown == "0.0" and x > 0:
        return "<0.1"
    return shown


def _interval(d: dict[str, Any]) -> str:
    """A 95% interval of a rate, ``LOW-HIGH``; its ends are bounds of an estimate, not counts,
    so shown to one decimal rounded outward (``_bound``), so the interval shown holds the one
    computed: a rate shown ``>99.9`` beside an interval ``100.0-100.0`` (its low end 99.996%)
    read as though the interval left the rate out. ``_pct``'s ``<0.1`` and ``>99.9`` there would
    read as an arrow (``<0.1->99.9``).

    >>> _interval({"low": 0.99996, "high": 1.0}), _interval({"low": 0.0, "high": 0.0004})
    ('99.9-100.0', '0.0-0.1')
    """
    return "-" if d["low"] is None else f"{_bound(d['low'], up=False)}-{_bound(d['high'], up=True)}"


BOUND_SLACK = 1e-9
"""How far (in tenths of a percentage point) an interval's end may lie past a figure of one
decimal and still be shown as that figure: the float's own noise (``0.123`` is a little less
than 0.123), not a part of the interval."""


def _bound(x: float, up: bool) -> str:
    """An interval's end ``x`` as a percentage to one decimal, rounded away from the interval's
    inside: down for its low end, up (``up``) for its high end.

    >>> _bound(0.12345, False), _bound(0.12345, True), _bound(0.123, False), _bound(1.0, True)
    ('12.3', '12.4', '12.3', '100.0')
    """
    tenths = 1000 * x
    return _fixed((math.ceil(tenths - BOUND_SLACK) if up else math.floor(tenths + BOUND_SLACK)) / 10)


def _elo(x: float | None, score: float | None = None) -> str:
    """An Elo difference as the head-to-head table shows it, with the score it comes from
    (None when the pair never met): a score of 1 (or 0) is an infinitely large difference,
    ``+inf`` (``-inf``), where the JSON, which has no infinity, says null; ``-`` is no figure
    at all (the pair never met)."""
    if x is None:
        if score is not None and score >= 1:
            return "+inf"
        if score is not None and score <= 0:
            return "-inf"
        return "-"
    return f"{round(x) + 0:+d}"  # + 0: no "-0"


def _name(name: str, width: int = 10) -> str:
    """An entrant's name in a table: cut to ``width`` characters (the JSON has it whole)."""
    return name if len(name) <= width else name[: width - 1] + "~"


def _labels(names: Sequence[str], width: int = 10) -> dict[str, str]:
    """Each entrant's name in the tables, at most ``width`` characters and told apart: a long
    name is cut (``_name``); when cut names would be alike (``bot-version-1``, ``bot-version-2``
    are both ``bot-versi~``), each of them keeps as much of its end as tells them apart
    (``bot-vers~1``), else its place in the entrant list, so that no two rows of a table stand
    for entrants it cannot tell apart.

    >>> _labels(["bot-version-1", "bot-version-2", "short"])
    {'bot-version-1': 'bot-vers~1', 'bot-version-2': 'bot-vers~2', 'short': 'short'}
    >>> list(_labels(["abcdefghi1-xxxxxxxx", "abcdefghi2-xxxxxxxx"]).values())
    ['abcdefgh~1', 'abcdefgh~2']
    >>> list(_labels(["bot-version-1", "bot-version-2", "bot-version-10"]).values())
    ['bot-vers~1', 'bot-vers~2', 'bot-ver~10']
    """
    labels = {n: _name(n, width) for n in names}
    taken: dict[str, list[str]] = {}
    for n in names:
        taken.setdefault(labels[n], []).append(n)

    def apart(cut: dict[str, str], others: set[str]) -> bool:
        return len(set(cut.values())) == len(cut) and not others & set(cut.values())

    for alike in (group for group in taken.values() if len(group) > 1):
        long = [n for n in alike if len(n) > width]  # a whole name that fits keeps it
        others = {labels[n] for n in names if n not in long}
        for tail in range(1, width - 1):
            cut = {n: n[: width - 1 - tail] + "~" + n[-tail:] for n in long}
            if apart(cut, others):
                # a number at the end is kept whole (bot-version-10 as bot-ver~10, not bot-vers~0)
                digits = {n: len(n) - len(n.rstrip("0123456789")) for n in long}
                whole = {n: n[: width - 1 - t] + "~" + n[-t:] for n in long
                         for t in [max(tail, digits[n]) if digits[n] < width - 1 else tail]}
                cut = whole if apart(whole, others) else cut
                break
        else:
            cut = {n: n[: width - 1 - len(str(i))] + "~" + str(i)
                   for i, n in enumerate(names, 1) if n in long}
        labels.update(cut)
    return labels


def _width(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


_UNPLAIN = re.compile(r"[^\0 -~]")
"""A character ``_grid`` leaves to ``tabulate`` (in cells joined by NULs): outside printable
ASCII, as a tab, a line break, an escape, or a wide letter of a custom deck's role."""


def _grid(rows: list[list[Any]], headers: list[str]) -> str:
    """``rows`` (cells of strings and whole numbers) under ``headers``, as tabulate's ``simple``
    table with no padding and no number parsing: each column as wide as its widest cell or
    header, cells left-aligned two spaces apart, each line's end stripped. Made here where every
    cell is printable ASCII with no space at either end, as every cell the tables make is:
    ``tabulate`` infers each cell's type, strips and measures it, which was nine tenths of the
    report's time with many entrants: some 30 us for each pair's row of the head-to-head table,
    17 s for the 499,500 pairs of 1,000 entrants. Anything else ``tabulate`` formats, as before.

    >>> print(_grid([["a", 10], ["bcd", ""]], ["x", "count"]))
    x    count
    ---  -----
    a    10
    bcd
    """
    cells = rows
    try:
        joined = "\0".join(chain(headers, *rows))
    except TypeError:  # a whole number: shown as f"{x}", as tabulate shows it parsing none
        cells = [list(map(str, row)) for row in rows]
        joined = "\0".join(chain(headers, *cells))
    if (len({len(headers), *map(len, cells)}) > 1 or _UNPLAIN.search(joined)
            or joined.startswith(" ") or joined.endswith(" ") or " \0" in joined or "\0 " in joined):
        import tabulate as tabulating
        from tabulate import tabulate

        tabulating.MIN_PADDING = 0
        return tabulate(rows, headers=headers, disable_numparse=True, tablefmt="simple")
    del joined
    widths = [max(len(h), max(map(len, map(itemgetter(i), cells)), default=0)) for i, h in enumerate(headers)]
    line = "  ".join(f"{{:<{w}}}" for w in widths).format
    return "\n".join([line(*headers).rstrip(), "  ".join("-" * w for w in widths).rstrip(),
                      *[line(*row).rstrip() for row in cells]])


class _Lines(list):  # type: ignore[type-arg]
    """Lines of text; a line too long for 80 columns is wrapped (tables fit by themselves)."""

    def append(self, text: str) -> None:
        if "\n" in text or len(text) <= 80:
            super().append(text)
        else:
            super().extend(textwrap.wrap(text, 80, subsequent_indent="  "))


def tables(report: dict[str, Any]) -> str:
    """The report as text: entrants, ratings, sides, roles, forfeits, head-to-head, SPRT."""
    names = [e["name"] for e in report["entrants"]]
    label = _labels(names)
    out: list[str] = _Lines()
    ratings = report["ratings"]
    order = sorted(names, key=lambda n: (-ratings[n]["ordinal"], n))
    rows = []
    for n in order:
        t, r = report["table"][n], ratings[n]
        rows.append([label[n], t["games"], t["seats"], t["wins"], _pct(t["rate"]), _interval(t),
                     _fixed(r["mu"], 2), _fixed(r["sigma"], 2), _fixed(r["ordinal"], 2)])
    # (its forfeits are the forfeits table's, below: a column of them took a row of 6-digit counts,
    # 600,000 seats of 12-seat games, to 87 columns)
    out.append(_grid(rows, ["entrant", "games", "seats", "won", "win%", "95% CI", "mu", "sigma", "ordinal"]))
    out.append("win% counts seats (an entrant may hold several seats of a game); 95% CI: its spread read "
               "from the deals (the seats of a deal are not independent); mu/sigma/ordinal: OpenSkill "
               "(Plackett-Luce), ordinal = mu - 3 sigma")
    # by side
    sides = sorted({s for n in names for s in report["sides"][n]})
    if sides:
        rows = []
        for side in sides:
            base = report["side_rates"].get(side)
            for n in names:
                d = report["sides"][n].get(side)
                if d:
                    rows.append([side, label[n], d["seats"], d["wins"], _pct(d["rate"]), _interval(d),
                                 _fixed(100 * (d["rate"] - base["rate"]), sign=True) if base else ""])
        out.append("")
        out.append(_grid(rows, ["side", "entrant", "seats", "won", "win%", "95% CI", "vs all"]))
        out.append("vs all: the entrant's win% on the side minus the side's win% over every seat")
    # by role: one column per entrant when that fits 80 columns, else one row per role and entrant
    # (a side's or a role's name is never cut: a long one widens its table)
    roles = sorted({r for n in names for r in report["roles"][n]})
    if 1 < len(roles) <= 40:
        wide = []
        for role in roles:
            cells = [role]  # whole: two roles never share a row
            for n in names:
                d = report["roles"][n].get(role)
                cells.append(f"{d['wins']}/{d['seats']} {_pct(d['rate'])}%" if d else "-")
            wide.append(cells)
        text = _grid(wide, ["role", *[label[n] for n in names]])
        if _width(text) > 80:
            text = _grid([[role, label[n], d["seats"], d["wins"], _pct(d["rate"])]
                          for role in roles for n in names if (d := report["roles"][n].get(role))],
                         ["role", "entrant", "seats", "won", "win%"])
        out.append("")
        out.append(text)
        out.append("role: seats won / seats played, win%")
    # forfeits
    kinds = sorted({k for n in names for k in report["forfeits"].get(n, {})})
    out.append("")
    if kinds:
        rows = [[label[n], *[report["forfeits"][n].get(k, 0) for k in kinds]] for n in names]
        out.append(_grid(rows, ["forfeits", *kinds]))
    else:
        out.append("forfeits: none")
    # head-to-head
    rows = []
    for h in report["head_to_head"]:
        # the scores the Elo figures come from; none when they never met (no figure, not an infinite one)
        score, low, high = h["a_score"], h["a_score_low"], h["a_score_high"]
        uneven = "*" if h["sides_even"] is False else ""
        rows.append([f"{label[h['a']]} - {label[h['b']]}{uneven}", f"{h['a_wins']}", f"{h['b_wins']}", f"{h['draws']}",
                     _pct(h["a_score"]), _elo(h["elo"], score),
                     "-" if low is None else f"[{_elo(h['elo_low'], low)},{_elo(h['elo_high'], high)}]"])
    out.append("")
    # (no column of the games they met, the sum of the three counts: with it, a row of 6-digit counts
    # and a lopsided pair's Elo took 89 columns; at its widest, 100,000 games, the row is 80)
    out.append(_grid(rows, ["pair (a - b)", "a won", "b won", "drawn", "a score%", "Elo", "95% CI"]))
    out.append("a won, b won, drawn: the games where they held seats on opposite sides (their sum: the games "
               "they met), each going to whose seats won more of those pairings; 95% CI: of the score, its "
               "spread read from the deals those games came from (the games of a deal are not independent)")
    if any(h["sides_even"] is False for h in report["head_to_head"]):
        out.append("*: met on each side unequally often, so the score holds the sides' edge as well as theirs (the "
                   "schedule gives every entrant every seat alike, not every pair every side: with more entrants "
                   "than seats, seats the entrants do not divide, a block cut short, or a game left unfinished); "
                   "a match of the two alone plays every deal both ways round")
    if report["unfinished"]:
        out.append(f"unfinished games (no result; counted for no one): {report['unfinished']}")
    if report.get("not_started"):  # (a machine's failure: said, or a run of none looked like one of results)
        again = f"arbiter tournament --resume {report['folder']}" if report.get("folder") else "--resume"
        out.append(f"of them, games the machine could not start (no file, memory or process to be had; {again} "
                   f"plays them again): {report['not_started']}; the first: {report['not_started_why']}")
    if report.get("part_blocks"):
        out.append(f"{counted(report['part_blocks'], 'game')} of blocks not played whole (the run stopped before "
                   "their other rotations, or a game of them could not start): the entrants did not all hold "
                   "their seats, so the tables' balance holds for the other games only")
    if report["names"]:
        out.append("names the programs gave: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in report["names"].items()))
    sprt = report.get("sprt")
    if sprt:
        # what the test shows: which hypothesis the results favour, not a bound on the difference
        verdict = {"H1": f"H1 accepted ({sprt['first']} {sprt['elo1']:+g} Elo rather than {sprt['elo0']:+g})",
                   "H0": f"H0 accepted ({sprt['first']} {sprt['elo0']:+g} Elo rather than {sprt['elo1']:+g})",
                   None: "no decision yet"}[sprt["result"]]
        void = sprt.get("void", 0)
        void_text = f", {void} void: a game of it unfinished" if void else ""
        out.append("")
        out.append(f"SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g} alpha={sprt['alpha']:g} beta={sprt['beta']:g}: "
                   f"LLR {_fixed(sprt['llr'], 2)} (bounds {sprt['lower']:.2f}, {sprt['upper']:.2f}) after "
                   f"{counted(sprt['blocks'], 'block')} of {block_size(len(names))} games (+{sprt['wins']} -{sprt['losses']} "
                   f"={sprt['draws']}{void_text}; a block is won by whose seats won more of the same deal): {verdict}")
        decided = sprt["wins"] + sprt["losses"]
        if sprt["result"] is None and sprt["draws"] > decided:
            out.append(f"{sprt['draws']} of the {sprt['draws'] + decided} counted blocks were drawn, and a drawn block "
                       "adds nothing to the LLR: the test moves on decided blocks only (bots that play alike draw "
                       "most of them, and identical ones never decide)")
        if after := report.get("after_decision"):
            out.append(f"{after} game{'s that were' if after > 1 else ' that was'} running when it decided: "
                       "recorded, not counted in the tables above")
    return "\n".join(out)

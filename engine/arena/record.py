"""A game's record (one line of ``results.jsonl``) checked against the game the schedule has
under its number, as a resumed run reads it back: every key a worker writes
(``engine.arena.runner``), of its type, and what says which game it is (``deal``, ``rotation``,
the tournament's seed and the deal's, the mode, its options, who held which seat) equal to the
schedule's. A record that does not fit (a stub, another tournament's line, a key of the wrong
type) is a file changed by hand: ``check_record`` says what is wrong in it, and the results
file's reader refuses it naming the line, before the tables or the SPRT count it.

>>> from arbiter.engine.arena.schedule import Game
>>> g = Game(0, 0, 0, 7, "duel", ("m", "f"), ("a", "b"))
>>> check_record({"game": 0}, g, 1)
Traceback (most recent call last):
ValueError: "deal" is missing
"""

from __future__ import annotations

import json
from typing import Any

from arbiter.engine.arena.runner import TRANSCRIPTS, transcript_name
from arbiter.engine.arena.schedule import Game
from arbiter.engine.arena.sprt import finite
from arbiter.engine.arena.stats import FORFEIT_KINDS
from arbiter.engine.errors import quoted

KEYS = ("game", "deal", "rotation", "tournament_seed", "seed", "variant", "options", "seats", "finished", "result",
        "outcome", "sides", "roles", "forfeits", "names", "moves", "error", "transcript", "time")
"""Every key of a game's record (``time`` is added by the worker after the game; it is null in
a record made from the game's transcript, ``engine.arena.runner.record_from_transcript``)."""

RESULT_KEYS = ("winner", "reason", "text", "winners")


def check_record(record: dict[str, Any], game: Game, tournament_seed: int) -> None:
    """Nothing when ``record`` is one a run of this tournament writes for ``game``; else a
    ``ValueError`` saying what is wrong (the first thing found)."""
    for key in KEYS:
        if key not in record:
            raise ValueError(f'"{key}" is missing')
    unknown = sorted(set(record) - set(KEYS))
    if unknown:
        raise ValueError(f'"{unknown[0]}" is not a key of a game\'s record')
    expected = {"deal": game.deal, "rotation": game.rotation, "tournament_seed": tournament_seed, "seed": game.seed,
                "variant": game.variant, "options": json.loads(json.dumps(game.options)), "seats": game.assignment,
                "transcript": f"{TRANSCRIPTS}/{transcript_name(game.index)}"}
    for key, value in expected.items():
        if not _same(record[key], value):
            where, got, wanted = _difference(record[key], value)  # (two long values cut alike showed no difference)
            raise ValueError(f'"{key}"{where} is {got}, but this tournament\'s game {game.index} has '
                             f"{wanted} (a record of another tournament?)")
    seats = set(game.seats)
    finished = record["finished"]
    if not isinstance(finished, bool):
        raise ValueError(f'"finished" is true or false, not {_shown(finished)}')
    winners = _result(record["result"], finished, seats)
    outcome = record["outcome"]
    if not isinstance(outcome, dict) or set(outcome) != seats:
        raise ValueError(f'"outcome" gives each seat of the game ({", ".join(game.seats)}) its outcome, '
                         f"not {_shown(outcome)}")
    for seat, value in outcome.items():
        allowed = ("won" if seat in winners else "lost") if finished else "none"
        if value != allowed:
            raise ValueError(f'"outcome" of {seat} is {_shown(value)}, but the result says {allowed!r}')
    for key in ("sides", "roles"):
        if not _labels(record[key]) or set(record[key]) != seats:
            raise ValueError(f'"{key}" gives each seat of the game ({", ".join(game.seats)}) a name, '
                             f"not {_shown(record[key])}")
    _forfeits(record["forfeits"], game.assignment)
    if not _labels(record["names"]) or not set(record["names"]) <= seats:
        raise ValueError('"names" gives seats of the game the names their programs gave, '
                         f'not {_shown(record["names"])}')
    moves = record["moves"]
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise ValueError(f'"moves" is a whole number from 0 up, not {_shown(moves)}')
    if record["error"] is not None and not isinstance(record["error"], str):
        raise ValueError(f'"error" is null or why the game could not start, not {_shown(record["error"])}')
    spent = record["time"]  # (null: a record made from the game's transcript, which does not hold it)
    if spent is not None and (isinstance(spent, bool) or not isinstance(spent, (int, float)) or not finite(spent)
                              or spent < 0):
        raise ValueError(f'"time" is the seconds the game took, from 0 up (or null), not {_shown(spent)}')


def _result(result: object, finished: bool, seats: set[str]) -> set[str]:
    """The winning seats of a record's ``result``: null when the game did not finish, else
    ``{"winner", "reason", "text", "winners"}`` naming seats of the game."""
    if not finished:
        if result is not None:
            raise ValueError(f'"result" of an unfinished game is null, not {_shown(result)}')
        return set()
    shape = '{"winner": NAME or null, "reason": TEXT, "text": TEXT, "winners": [SEAT, ...]}'
    if not (isinstance(result, dict) and set(result) == set(RESULT_KEYS)
            and (result["winner"] is None or isinstance(result["winner"], str))
            and isinstance(result["reason"], str) and isinstance(result["text"], str)
            and isinstance(result["winners"], list) and all(isinstance(s, str) for s in result["winners"])):
        raise ValueError(f'"result" of a finished game is {shape}, not {_shown(result)}')
    if not set(result["winners"]) <= seats:
        raise ValueError(f'"result" names winners that are no seats of the game: {_shown(result["winners"])}')
    return set(result["winners"])


def _forfeits(forfeits: object, assignment: dict[str, str]) -> None:
    """A list of ``{"seat", "entrant", "kind", "reason"}``: a seat of the game, the entrant
    that held it, one of ``FORFEIT_KINDS``."""
    shape = '[{"seat": SEAT, "entrant": NAME, "kind": KIND, "reason": TEXT}, ...]'
    if not isinstance(forfeits, list):
        raise ValueError(f'"forfeits" is {shape}, not {_shown(forfeits)}')
    for f in forfeits:
        if not (isinstance(f, dict) and set(f) == {"seat", "entrant", "kind", "reason"}
                and all(isinstance(v, str) for v in f.values())):
            raise ValueError(f'"forfeits" is {shape}, not {_shown(f)} in it')
        if assignment.get(f["seat"]) != f["entrant"]:
            raise ValueError(f'"forfeits" names {quoted(f["entrant"])} on seat {quoted(f["seat"])}, which the game does not '
                             "have it on")
        if f["kind"] not in FORFEIT_KINDS:
            raise ValueError(f'"forfeits" has a kind {quoted(f["kind"])}; the kinds are {", ".join(FORFEIT_KINDS)}')


def _labels(value: object) -> bool:
    """A JSON object of strings."""
    return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())


def _same(value: object, expected: object) -> bool:
    """Equal and of the same JSON types all through (``true`` is not 1, nor 1.0 the whole 1)."""
    if type(value) is not type(expected):
        return False
    if isinstance(value, dict):
        assert isinstance(expected, dict)
        return value.keys() == expected.keys() and all(_same(value[k], expected[k]) for k in value)
    if isinstance(value, list):
        assert isinstance(expected, list)
        return len(value) == len(expected) and all(_same(a, b) for a, b in zip(value, expected))
    return value == expected


def _difference(value: object, expected: object, where: str = "") -> tuple[str, str, str]:
    """Where two values first differ (``_same`` says they do), as the path into them (``.deck.title``,
    ``[2]``) and each value there as an error shows it (``nothing`` for a key one lacks).

    >>> _difference({"deck": {"title": "Friday", "civilian": 2}}, {"deck": {"title": "Friday night", "civilian": 2}})
    ('.deck.title', '"Friday"', '"Friday night"')
    """
    if isinstance(value, dict) and isinstance(expected, dict):
        for key in [*expected, *(k for k in value if k not in expected)]:
            if key not in value or key not in expected:
                return (f"{where}.{key}", _shown(value[key]) if key in value else "nothing",
                        _shown(expected[key]) if key in expected else "nothing")
            if not _same(value[key], expected[key]):
                return _difference(value[key], expected[key], f"{where}.{key}")
    if isinstance(value, list) and isinstance(expected, list) and len(value) == len(expected):
        for i, (a, b) in enumerate(zip(value, expected)):
            if not _same(a, b):
                return _difference(a, b, f"{where}[{i}]")
    return where, _shown(value), _shown(expected)


def _shown(value: object, width: int = 60) -> str:
    """A value as an error shows it: its JSON, cut to ``width`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."

r"""Reading transcripts: the ``Transcript`` model and ``parse``/``read``, which check what they
read (the keys, the types, the log's entries, the times) and tell a transcript a crash cut short,
whose torn last line or ending is left out with a note, from one that was edited, which is
refused naming where. The format and the writer are in ``transcript``, which hands these out
too (``transcript.read``, ``transcript.parse``).

>>> t = parse("format: 1\ngame: mafia\nvariant: 8-players\ndata: sha256:x\nseed: 3\nseats: [p1]\nlog:\n"
...           "- {move: {n: 1, seat: p1, text: pass, time: 1.5}}\n", "t.yaml")
>>> t.move_count, t.finished, time_ms(t.log[0]["move"]["time"])
(1, False, 1500)
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from arbiter.engine import yamlio
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.clock import MAX_MS, parse_seconds, seconds_name
from arbiter.engine.errors import TranscriptError, counted, quoted
from arbiter.engine.files import FileTooLarge, not_utf8, read_bytes_capped
from arbiter.engine.logline import read_block, read_entry_line
from arbiter.engine.session import MAX_SEED, bot_timeout_seconds

FORMAT = 1
KEYS = ("format", "game", "variant", "data", "seed", "seats", "options", "session", "log", "result", "events")
"""The keys of a transcript, in the order they are written; no other is read."""

def _log_end(data: bytes) -> int:
    """The offset just after the last whole line of the log (lines ``- ...`` after ``log:``)."""
    start = data.find(b"\nlog:\n")
    if start < 0:
        return len(data) if data.endswith(b"\n") else (data.rindex(b"\n") + 1 if b"\n" in data else 0)
    end = start + len(b"\nlog:\n")
    while True:
        nl = data.find(b"\n", end)
        if nl < 0 or not data.startswith(b"- ", end):
            return end
        end = nl + 1


@dataclass
class Transcript:
    """A transcript as read from a file."""

    game: str
    variant: str
    data: str
    seed: int
    seats: list[str]
    options: dict[str, Any]
    log: list[dict[str, Any]]
    result: dict[str, Any] | None = None
    events: dict[str, Any] | None = None
    source: str = "transcript"
    notes: list[str] = field(default_factory=list)
    session: dict[str, Any] | None = None
    torn_ending: str | None = None
    """The text of an ending a crash cut off, as the file holds it (left out of ``result``):
    the replay checks that it is the start of the ending the moves give."""

    @property
    def chance(self) -> list[ChanceRecord]:
        return [ChanceRecord(e["chance"]["what"], list(e["chance"]["outcome"])) for e in self.log if "chance" in e]

    @property
    def finished(self) -> bool:
        """Whether the transcript holds its ending (a game whose ending a crash cut off is
        finished too, which only a replay tells)."""
        return self.result is not None

    def settings(self) -> dict[str, Any]:
        """How ``arbiter play`` ran the session: the header's ``session`` and any later
        ``session`` notes (a resumed session that changed its bots), the latest winning."""
        out = dict(self.session or {})
        for entry in self.log:
            note = entry.get("note")
            if isinstance(note, dict) and isinstance(note.get("session"), dict):
                out.update(note["session"])
        return out

    @property
    def move_count(self) -> int:
        return sum(1 for e in self.log if "move" in e)

    def until(self, moves: int) -> Transcript:
        """The game as it stood after its first ``moves`` moves (with the chance they caused).

        >>> t = Transcript("g", "v", "sha256:x", 1, [], {}, [{"move": {}}, {"chance": {}}, {"move": {}}])
        >>> len(t.until(1).log), t.until(1).result
        (2, None)
        """
        if not 0 <= moves <= self.move_count:
            raise TranscriptError(f"{self.source} has only {counted(self.move_count, 'move')}; there is no position after {moves}")
        if moves == self.move_count:
            return self
        kept: list[dict[str, Any]] = []
        count = 0
        for entry in self.log:
            if "move" in entry:
                if count == moves:
                    break
                count += 1
            kept.append(entry)
        return Transcript(self.game, self.variant, self.data, self.seed, self.seats, self.options, kept,
                          source=self.source, notes=self.notes)


MAX_BYTES = 256 * 1024 * 1024
"""The largest transcript the referee reads (a whole tournament's longest game is far smaller)."""
_RESULT_KEYS = ("winner", "reason", "text", "winners", "scores")


def _yaml(text: str) -> Any:
    return yamlio.load(text, yamlio.STRICT, yamlio.FAST_STRICT)  # the writer repeats no key: an edit did


def _yaml_error(exc: yaml.YAMLError, source: str, text: str, first_line: int = 0) -> TranscriptError:
    """``exc``, raised reading ``text`` (the part of the file from line ``first_line + 1``)."""
    line, _, problem = yamlio.error_place(exc, text)
    where = f" (line {first_line + line})" if line is not None else ""
    return TranscriptError(f"{source}{where}: not valid YAML: {problem}")


def _ending_problem(doc: dict[str, Any]) -> str | None:
    """Why a transcript's ending (``result`` and ``events``) is incomplete, if it is: a crash
    while it was written. None when it is whole, or absent altogether."""
    if "result" not in doc and "events" not in doc:
        return None
    result, events = doc.get("result"), doc.get("events")
    if not isinstance(result, dict) or any(k not in result for k in _RESULT_KEYS):
        return "result"
    if not isinstance(events, dict) or not isinstance(events.get("count"), int) \
            or not isinstance(events.get("digest"), str):
        return "events"
    return None


def _not_a_cut_ending(ending: dict[Any, Any], text: str) -> str | None:
    """Why an ending that reads as YAML cannot be the start of one the writer wrote, which a
    crash cut short (``result`` with its keys in order, the last of them perhaps cut, then
    ``events``); None when it can. An edited ending is refused rather than read as a crash's."""
    keys = list(ending)
    if keys not in (["result"], ["result", "events"], ["events"]):
        foreign = [str(k) for k in keys if k not in ("result", "events")]
        return (f"unexpected key {quoted(foreign[0])} (an ending has result, then events)" if foreign
                else "result and events out of order")
    result = ending.get("result")
    if "events" in ending:
        if "result" not in ending:
            return "events without a result"
        if ending["events"] is not None and (not isinstance(ending["events"], dict)  # None: "events: " cut
                                             or set(ending["events"]) - {"count", "digest"}):
            return f"events: expected {{count: N, digest: TEXT}}, found {quoted(ending['events'])}"
        if not isinstance(result, dict) or any(k not in result for k in _RESULT_KEYS):
            return "result: incomplete, though events follow it"
    if isinstance(result, str) and _RESULT_KEYS[0].startswith(result) and "events" not in ending \
            and text.lstrip().startswith("result:\n"):
        return None  # "result:\n  win": cut inside the first key, which YAML reads as a text
    if result is not None and not isinstance(result, dict):
        return f"result: expected a mapping, found {type(result).__name__}"
    if isinstance(result, dict) and list(result) != list(_RESULT_KEYS[:len(result)]):
        return f"result: keys {', '.join(map(str, result))} (the writer writes {', '.join(_RESULT_KEYS)}, in order)"
    return None


def _not_a_cut_text(rest: str) -> str | None:
    """None when ``rest``, the text after the log, could be an ending a crash cut short; else
    what in it could not be. ``rest`` begins as an ending does but does not read as YAML.

    The writer writes an ending as ``result:``, its indented lines, then one ``events:`` line,
    and nothing after it; a crash keeps a start of that text, perhaps followed by NUL bytes
    where the disk never got the last block. A second document (``---``), a line of other text,
    or anything after the events line was put there by hand. It is refused rather than left out
    with the ending, which ``replay --update`` then rewrote the file without."""
    lines = rest.rstrip("\0").split("\n")
    first, events = True, False
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        if events:
            return f"text after its events line: {quoted(line)}"
        events = line.startswith("events:") and i < len(lines) - 1  # (a whole events line)
        last = i == len(lines) - 1  # (cut short: the start of a line the writer writes)
        if not (line.startswith(("result:", "events:") if first else (" ", "events:"))
                or (last and "events:".startswith(line))):
            return f"a line that is no part of an ending: {quoted(line)}"
        first = False
    return None


def _edited_ending(source: str, line: int, problem: str) -> TranscriptError:
    """The refusal of an ending from ``line`` on that a hand changed, not a crash cut short."""
    return TranscriptError(f"{source} (line {line} on): its ending was edited, not cut off by a crash: {problem}")


def _by_lines(text: str, source: str, entries: list[Any] | None = None) -> tuple[dict[str, Any], list[str], str | None]:
    """Read a transcript the writer wrote but a crash cut short: the header, then the log line
    by line up to the last whole entry; an ending that does not read whole is left out (the
    result follows from the moves) and handed back as its text, for the replay to check.
    ``entries``: the log's whole lines, if they are read already (by ``_fast_document``)."""
    data = text.encode("utf-8")
    head_end = data.find(b"\nlog:\n")
    if head_end < 0:
        raise TranscriptError(f"{source}: not a transcript, or cut off before its log began")
    log_start = head_end + len(b"\nlog:\n")
    log_end = _log_end(data)
    head = data[:head_end + 1].decode("utf-8")
    try:
        doc = _yaml(head)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, source, head) from None
    if not isinstance(doc, dict):
        raise TranscriptError(f"{source}: not a transcript (expected a YAML mapping)")
    body = data[log_start:log_end].decode("utf-8")
    notes: list[str] = []
    torn = None
    read = (entries, len(body)) if entries is not None else _log_lines(body, 0)  # (body: lines "- ...")
    if read is not None:
        log = read[0]
    else:
        try:
            log = _yaml(body) or []
        except yaml.YAMLError as exc:
            raise _yaml_error(exc, source, body, data[:log_start].count(b"\n")) from None
    rest = data[log_end:].decode("utf-8")
    if log and _entry_problem(log[-1]) and not rest.strip():  # "- {move: {n: 4" cut mid-entry
        log, rest = log[:-1], body.splitlines(keepends=True)[-1] + rest
    if rest.strip():
        try:
            ending = _yaml(rest)
        except yamlio.DuplicateKey as exc:  # whole, but edited: not an ending a crash cut off
            raise _yaml_error(exc, source, rest, data[:log_end].count(b"\n")) from None
        except yaml.YAMLError:
            ending = None
        if isinstance(ending, dict) and set(ending) <= {"result", "events"} and not _ending_problem(ending):
            doc.update(ending)
        elif isinstance(ending, dict) and (problem := _not_a_cut_ending(ending, rest)):
            raise _edited_ending(source, data[:log_end].count(b"\n") + 1, problem)
        elif rest.lstrip().startswith(("result:", "events:")):
            if problem := _not_a_cut_text(rest):  # (``replay --update`` would drop what follows)
                raise _edited_ending(source, data[:log_end].count(b"\n") + 1, problem)
            notes.append(f"{source}: its ending was cut off; the result follows from the moves")
            torn = rest
        elif "\n" not in rest:
            notes.append(f"{source}: its last line was cut off and is ignored")
        else:
            raise TranscriptError(f"{source}: unexpected text after the log: {quoted(rest.strip())}")
    doc["log"] = log
    return doc, notes, torn


def _log_lines(text: str, start: int) -> tuple[list[Any], int] | None:
    """The log entries on the lines of ``text`` from ``start`` that begin with ``- `` (each
    ending with a line break), as the YAML library reads those lines, and where they end: each
    line read without the library (``read_entry_line``) or, a line that is not plain (a quoted
    note), by the library alone, a whole flow mapping on it. None when a line is neither
    (the library must read the lines together)."""
    log = []
    end = start
    while text.startswith("- ", end):
        nl = text.index("\n", end) + 1
        line = text[end:nl]
        entry = read_entry_line(line)
        if entry is None:  # not plain (a quoted note): the library reads the line, whole on it
            if not (line.startswith("- {") and line.endswith("}\n")):
                return None
            try:
                alone = _yaml(line)
            except yaml.YAMLError:
                return None
            if not (isinstance(alone, list) and len(alone) == 1 and isinstance(alone[0], dict)):
                return None
            entry = alone[0]
        log.append(entry)
        end = nl
    return log, end


def _fast_document(text: str) -> dict[str, Any] | None:
    """A whole transcript as the writer writes it (header, one line per log entry, an ending),
    read with the YAML library only for a header, an ending or a log line that is not plain
    (``read_block``, ``read_entry_line``); None for any other text, which is then read by the
    YAML library whole. The same document as ``_yaml(text)``: a log line that is not plain is
    a whole flow mapping on its line, and the header and the ending are read apart,
    allowed only when their keys and ``log`` are all different and nothing indented follows
    the log (``test_transcript_reading`` compares with the library)."""
    cut = text.find("\nlog:\n")
    if cut < 0 or not text.endswith("\n"):
        return None
    read = _log_lines(text, cut + len("\nlog:\n"))
    if read is None:
        return None
    log, end = read
    first = next((ln for ln in text[end:].split("\n") if ln.strip() and not ln.startswith("#")), "")
    if not log or first[:1].isspace():  # an indented line after the log would continue its last entry
        return None
    opening, ending = text[:cut + 1], text[end:]
    head, rest = read_block(opening), read_block(ending) if ending.strip() else {}
    try:
        head = _yaml(opening) if head is None else head
        rest = (_yaml(ending) or {}) if rest is None else rest
    except yaml.YAMLError:
        return None
    if not isinstance(head, dict) or not isinstance(rest, dict) or "log" in head or "log" in rest \
            or set(head) & set(rest):
        return None
    return {**head, "log": log, **rest}


def _load_yaml(text: str, source: str) -> tuple[Any, list[str], str | None]:
    if not text.endswith("\n") and "\nlog:\n" in text:
        # A crash cut the last line. When the text before it is a transcript as the writer
        # writes it, the library reads the whole text as a mapping or refuses it (a 20 MB text
        # for a torn line at its end), and either goes to _by_lines (below): go there, with the
        # log read once, here.
        whole = _fast_document(text[:text.rindex("\n") + 1])
        if isinstance(whole, dict):
            return _by_lines(text, source, whole["log"])
    doc = _fast_document(text)
    entries = doc["log"] if doc is not None else None  # (read fast: _by_lines need not read them again)
    if doc is None:
        try:
            doc = _yaml(text)
        except yaml.YAMLError as exc:
            if "\nlog:\n" not in text:
                raise _yaml_error(exc, source, text) from None
            return _by_lines(text, source)
    if isinstance(doc, dict):
        log = doc.get("log")
        torn_entry = not text.endswith("\n") and isinstance(log, list) and log and _entry_problem(log[-1])
        if (torn_entry or _ending_problem(doc)) and "\nlog:\n" in text:
            return _by_lines(text, source, entries)  # a crash cut the last entry or the ending
        if not text.endswith("\n") and "\n" in text and "\nlog:\n" in text:
            return _by_lines(text, source)  # a last line cut short that still reads
    return doc, [], None


def _key_line(text: str, key: str) -> int | None:
    """The line (from 1) of the top-level ``key`` of the document ``text`` (``yamlio.line_of``);
    of a file a crash cut (its last line torn), read from its header, whole before its log."""
    line = yamlio.line_of(text, [key])
    if line is None and (log := text.find("\nlog:")) >= 0:
        line = yamlio.line_of(text[:log + 1], [key])
    return line


def parse(text: str, source: str = "transcript") -> Transcript:
    """Read a transcript's text; problems are reported as ``TranscriptError`` with the source.
    An anchor or alias is refused: the writer writes none, and one value of many copies (the
    "billion laughs") would make writing it back or comparing it endless."""
    try:
        with yamlio.refusing_aliases():
            doc, notes, torn = _load_yaml(text, source)
    except yamlio.AliasFound as exc:  # (read in parts, the text's own line is found by its mark)
        token = re.search(rf"(?<![^\s\[{{,])[{'*' if exc.what == 'alias' else '&'}]{re.escape(exc.name)}(?![^\s\]}},])",
                          text)
        where = f" (line {text.count(chr(10), 0, token.start()) + 1})" if token else ""
        raise TranscriptError(f"{source}{where}: the transcript holds {exc}, which arbiter never writes") from None
    if not isinstance(doc, dict):
        raise TranscriptError(f"{source}: not a transcript (expected a YAML mapping)")
    if "format" not in doc:
        data = ("; it is game data (game, kind): `arbiter validate FILE` checks it"
                if {"game", "kind"} <= doc.keys() else "")
        raise TranscriptError(f"{source}: no format: not an arbiter transcript (one begins with "
                              f"'format: {FORMAT}'){data}")
    if doc["format"] != FORMAT or type(doc["format"]) is not int:
        raise TranscriptError(f"{source}: format {quoted(doc['format'])} is not supported (this arbiter reads {FORMAT})")
    def at(key: str) -> str:  # where a header or ending key is, as the YAML library's own refusals say it
        line = _key_line(text, key)
        return f" (line {line})" if line is not None else ""

    unknown = [str(key) for key in doc if key not in KEYS]
    if unknown:
        raise TranscriptError(f"{source}{at(unknown[0])}: unknown key {quoted(unknown[0])} "
                              f"(a transcript has {', '.join(KEYS)})")
    for key, kind, what in (("game", str, "text"), ("variant", str, "text"), ("data", str, "text"),
                            ("seed", int, "a whole number"), ("seats", list, "a list")):
        if key not in doc:
            raise TranscriptError(f"{source}: {key}: missing (a transcript's header gives game, variant, data, "
                                  "seed and seats)")
        if not isinstance(doc[key], kind) or isinstance(doc[key], bool):
            raise TranscriptError(f"{source}{at(key)}: {key}: {_as_written(doc[key])} is not {what}")
    if not -MAX_SEED < doc["seed"] < MAX_SEED:
        raise TranscriptError(f"{source}{at('seed')}: seed: a number of {len(str(abs(doc['seed'])))} digits "
                              f"(a seed has at most {len(str(MAX_SEED)) - 1})")
    if "log" not in doc:  # (the writer writes it with the header, in one go: an edit or a cut file)
        raise TranscriptError(f"{source}: log: missing (a transcript's header ends with 'log:'; this one was "
                              "cut or edited before it)")
    log = doc.get("log") or []
    if not isinstance(log, list):
        raise TranscriptError(f"{source}{at('log')}: log: expected a list")
    for key in ("options", "result", "events", "session"):
        if doc.get(key) is not None and not isinstance(doc[key], dict):
            raise TranscriptError(f"{source}{at(key)}: {key}: expected a mapping, found {type(doc[key]).__name__}")
    if isinstance(doc.get("events"), dict) and set(doc["events"]) - {"count", "digest"}:
        extra = next(str(k) for k in doc["events"] if k not in ("count", "digest"))
        raise TranscriptError(f"{source}{at('events')}: events: unknown key {quoted(extra)} (events has count, digest)")
    odd = [k for k in doc.get("options") or {} if not isinstance(k, str)]  # (the writer names each option)
    if odd:  # (FBI vs Mafia's refusal of any option sorted their names: a TypeError's traceback)
        raise TranscriptError(f"{source}{at('options')}: options: the key {quoted(odd[0])} is not text "
                              "(an option is named by a word)")
    seats = [str(s) for s in doc["seats"]]
    if isinstance(doc.get("session"), dict) and (problem := settings_problem(doc["session"], seats)):
        raise TranscriptError(f"{source}{at('session')}: session: {problem}")
    if isinstance(doc.get("result"), dict) and not isinstance(doc["result"].get("text", ""), str):
        raise TranscriptError(f"{source}{at('result')}: result.text: expected text")
    moves = 0
    for i, entry in enumerate(log):
        problem = _entry_problem(entry)
        if problem is None and "note" in entry:  # (a note is rare: the other entries pay one look)
            problem = _note_problem(entry, seats)
        if problem:
            raise TranscriptError(f"{source}: log[{i}]: {problem}")
        if "move" in entry:
            moves += 1
            if type(entry["move"].get("n")) is not int or entry["move"]["n"] != moves:  # (not 2.0, not true)
                raise TranscriptError(f"{source}: log[{i}]: move n: {quoted(entry['move'].get('n'))}, but it is move "
                                      f"{moves} of the log (moves are numbered from 1, in order)")
    return Transcript(
        game=doc["game"], variant=str(doc["variant"]), data=doc["data"], seed=doc["seed"],
        seats=seats, options=dict(doc.get("options") or {}), log=log,
        result=doc.get("result"), events=doc.get("events"), source=source, notes=notes,
        session=doc.get("session"), torn_ending=torn,
    )


_ENTRY_KEYS = {"move": ("n", "seat", "text", "time"), "tick": ("time",), "chance": ("what", "outcome")}


def _as_written(value: Any) -> str:
    """A value of the header as YAML writes it, cut to 60 characters, for a refusal of it: the
    ``true`` or the ``2001-12-14`` of the file, not Python's ``True`` or
    ``datetime.date(2001, 12, 14)``.

    >>> _as_written(True), _as_written(["fbi-mafia"])
    ('true', '[fbi-mafia]')
    >>> import datetime; _as_written(datetime.date(2001, 12, 14))
    '2001-12-14 (a date, as YAML reads it)'
    """
    text = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=1 << 20).strip()[1:-1]
    text = text if len(text) <= 60 else text[:57] + "..."
    return f"{text} (a date, as YAML reads it)" if isinstance(value, datetime.date) else text


def _entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict) or len(entry) != 1:
        return "expected one of {chance: ...}, {move: ...}, {tick: ...}, {note: ...}"
    (kind, body), = entry.items()
    if not isinstance(body, dict):
        return f"{kind}: expected a mapping"
    if kind == "chance":
        if not isinstance(body.get("what"), str) or not isinstance(body.get("outcome"), list):
            return "chance: needs what (text) and outcome (list)"
    elif kind == "move" and not (isinstance(body.get("seat"), str) and isinstance(body.get("text"), str)):
        return "move: needs seat and text"
    elif kind not in ("chance", "move", "tick", "note"):
        return f"unknown entry {quoted(kind)}"
    if kind != "note" and len(body) != len(_ENTRY_KEYS[kind]):  # the writer writes these keys and no other
        extra = [str(k) for k in body if k not in _ENTRY_KEYS[kind]]
        if extra:
            return f"{kind}: unknown key {quoted(extra[0])} (a {kind} has {', '.join(_ENTRY_KEYS[kind])})"
    if kind in ("move", "tick") and (problem := _time_problem(body.get("time"))):
        return f"{kind}: {problem}"
    return None


SETTINGS = ("as", "bots", "json", "realtime", "bot_timeout", "entrants", "tournament")
"""What a ``session`` header (or a ``{note: {session: ...}}`` entry) may say of how ``arbiter
play`` ran the session, which ``--resume`` restores; a tournament's game adds which entrant
played each seat and where the game stands in its tournament (its seed and index)."""


def settings_problem(settings: dict[str, Any], seats: list[str]) -> str | None:
    """What is wrong with a ``session`` mapping, or None: its keys are ``SETTINGS``; ``as`` is
    one of the game's seats (or null: the host); ``bots`` maps seats to bot kinds (text), and
    ``entrants`` seats to entrants' names; ``json`` and ``realtime`` are true or false;
    ``bot_timeout`` is seconds as ``bot_timeout_seconds`` takes them; ``tournament`` holds whole numbers
    ``seed`` and ``game`` (from 0).

    >>> settings_problem({"as": "p1", "bots": {"p2": "random"}, "bot_timeout": 2.5}, ["p1", "p2"])
    >>> settings_problem({"bots": ["p1"]}, ["p1", "p2"])
    "bots: expected a mapping of seat to bot (p2: random), found ['p1']"
    """
    unknown = [str(k) for k in settings if k not in SETTINGS]
    if unknown:
        return f"unknown key {quoted(unknown[0])} (a session has {', '.join(SETTINGS)})"
    who = settings.get("as")
    if who is not None and (not isinstance(who, str) or who not in seats):
        return f"as: {quoted(who)} is not a seat of this game ({' '.join(seats)}; null: the host)"
    for key, example, what in (("bots", "random", "a bot (random, exec:COMMAND, ...)"),
                               ("entrants", "alice", "an entrant's name")):
        mapping = settings.get(key)
        if mapping is None:
            continue
        if not isinstance(mapping, dict):
            return f"{key}: expected a mapping of seat to {key[:-1]} ({seats[-1]}: {example}), found {quoted(mapping)}"
        for seat, name in mapping.items():
            if not isinstance(seat, str) or seat not in seats:
                return f"{key}: {quoted(seat)} is not a seat of this game ({' '.join(seats)})"
            if not isinstance(name, str) or not name.strip():
                return f"{key}.{seat}: expected {what}, found {quoted(name)}"
    for key in ("json", "realtime"):
        if key in settings and not isinstance(settings[key], bool):
            return f"{key}: expected true or false, found {quoted(settings[key])}"
    if "bot_timeout" in settings:
        try:
            bot_timeout_seconds(settings["bot_timeout"])
        except (TypeError, ValueError) as exc:
            return f"bot_timeout: expected {exc}, found {quoted(settings['bot_timeout'])}"
    place = settings.get("tournament")
    if place is not None and not (isinstance(place, dict) and set(place) == {"seed", "game"} and all(
            isinstance(place[k], int) and not isinstance(place[k], bool) for k in place) and place["game"] >= 0):
        return f"tournament: expected {{seed: N, game: N}} (whole numbers, game from 0), found {quoted(place)}"
    return None


def _note_problem(entry: dict[str, Any], seats: list[str]) -> str | None:
    """A note that says how a resumed session ran (``{note: {session: ...}}``) is read as the
    header's ``session`` is."""
    note = entry.get("note")
    if not isinstance(note, dict) or "session" not in note:
        return None
    if not isinstance(note["session"], dict):
        return f"note: session: expected a mapping, found {type(note['session']).__name__}"
    problem = settings_problem(note["session"], seats)
    return f"note: session: {problem}" if problem else None


def _time_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < math.inf:
        return f"time must be seconds (a number not below 0), found {quoted(value)}"
    if value > MAX_MS / 1000:
        return f"time {quoted(value)} is later than the clock runs ({seconds_name(MAX_MS)} seconds at most)"
    if type(value) is float and round(value * 1000) / 1000 != value:  # what _time writes reads back exactly
        return f"time {quoted(value)} is finer than a millisecond (at most 3 decimals)"
    return None


def time_ms(value: int | float) -> int:
    """A log entry's time (seconds, as YAML read it) in milliseconds."""
    if type(value) is int and 0 <= value < 1_000_000_000:  # the commonest: what parse_seconds reads of "N.000"
        return value * 1000
    return parse_seconds(f"{value:.3f}")


def read(path: str | Path) -> Transcript:
    p = Path(path)
    try:
        data = read_bytes_capped(p, MAX_BYTES)  # a regular file only: a device or a pipe may never end
    except FileTooLarge as exc:
        raise TranscriptError(f"{p}: {exc.size} bytes is larger than a transcript can be "
                              f"({MAX_BYTES // (1024 * 1024)} MiB at most)") from None
    except OSError as exc:
        raise TranscriptError(f"{p}: cannot read: {exc.strerror or exc}") from None
    return parse(_text_of(data, p), str(p))


def _text_of(data: bytes, p: Path) -> str:
    """A transcript's bytes as text (UTF-8). A last line a crash cut inside a character is still
    only a torn line (its bytes decoded with a replacement mark), which the reader leaves out
    as it leaves out any torn last line; any other byte that is not UTF-8 is refused, naming
    its line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        whole = data.rfind(b"\n") + 1  # the end of the last whole line
        if exc.start >= whole:
            return data[:whole].decode("utf-8") + data[whole:].decode("utf-8", "replace")
        raise TranscriptError(f"{p}: cannot read: {not_utf8(exc)}; a transcript is UTF-8") from None

"""The lines of a transcript's log, written and read without the YAML library where they
are plain (words, whole numbers, decimal times, lists and mappings of them), the same text and
the same values as the library's (checked by ``test_transcripts`` and ``test_transcript_reading``).
A transcript has one line per accepted input, so replaying one is mostly reading them; its
header and its ending are read alike (``read_block``), where the library took a tenth of a
replay's time."""

from __future__ import annotations

import re
from typing import Any

import yaml

from arbiter.engine.yamlio import SIMPLE_KEY_CHARS


def _flow(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 20, sort_keys=False).strip()


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.'/();-]*(?: [A-Za-z0-9_.'/();-]+)*")
_RESOLVED = frozenset("yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF null Null NULL".split())


def _fast_flow(value: Any, quoted: bool = False) -> str | None:
    """``value`` in YAML's flow style as ``yaml.safe_dump`` writes it, for the plain shapes a
    log entry has (words, whole numbers, decimal times, lists and mappings of them, other texts
    as values as the library writes them, ``_library_text``); None for anything else (then the
    YAML library writes it all). ``test_transcripts`` checks the two agree.
    With ``quoted``, a string that is not a plain word is written in single quotes (``''`` for
    a quote), and None and the booleans as ``null``, ``true``, ``false``: the form the reader
    accepts back (``_echo``)."""
    if isinstance(value, str):
        if _word(value):
            return value
        if quoted:
            return "'" + value.replace("'", "''") + "'"
        return _library_text(value) if value.isprintable() else None  # (a line break: written by indent)
    if isinstance(value, bool) or value is None:
        return _CONSTANT_WORDS[value] if quoted else None  # (written by the library, read back here)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        return text if "." in text and "e" not in text and "n" not in text else None
    if isinstance(value, list):
        parts = [_fast_flow(v, quoted) for v in value]
        return None if None in parts else "[" + ", ".join(parts) + "]"  # type: ignore[arg-type]
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            if not isinstance(k, str):
                return None
            key = _fast_flow(k, True) if quoted else k if _word(k) else None  # (a key is not a value)
            val = _fast_flow(v, quoted)
            if key is None or val is None:
                return None
            out.append(f"{key}: {val}")
        return "{" + ", ".join(out) + "}"
    return None


_TEXTS: dict[str, str] = {}
_TEXTS_MAX = 4096


def _library_text(value: str) -> str:
    """A string that is not a plain word (a player's talk with a comma, say) as the YAML
    library writes it as a value in flow style (quoted, mostly), asked of the library once per
    string: bots say the same few things over and over. (A printable one, on one line, is written
    alike wherever it stands as a value in a flow collection: how the library quotes a scalar
    depends on being in one, not on how deep, and on being a key or not.)"""
    text = _TEXTS.get(value)
    if text is None:
        if len(_TEXTS) >= _TEXTS_MAX:
            _TEXTS.clear()
        text = _TEXTS[value] = _flow({"k": value})[len("{k: "):-1]
    return text


def entry_line(entry: dict[str, Any]) -> str:
    return _move_line(entry) or "- " + (_fast_flow(entry) or _flow(entry)) + "\n"


_MOVE_KEYS = ("n", "seat", "text", "time")


def _move_line(entry: dict[str, Any]) -> str | None:
    """The commonest line, an accepted input (``- {move: {n: 1, seat: p1, text: pass, time: 1}}``),
    written by one format: the line ``_fast_flow`` writes for the entry, its values written
    here where they have the session's types (a whole number, plain words, a whole time) and
    by ``_fast_flow`` otherwise, in a third of its time (a line per input, which every game
    with a transcript pays). None for an entry of another shape, or a value ``_fast_flow``
    leaves to the library. (``_read_move`` reads it back.)"""
    move = entry.get("move")
    if len(entry) != 1 or type(move) is not dict or tuple(move) != _MOVE_KEYS:
        return None
    n, seat, text, time = move.values()
    if type(n) is not int:
        n = _fast_flow(n)
    if type(seat) is not str or not _word(seat):
        seat = _fast_flow(seat)
    if type(text) is not str or not _word(text):
        text = _fast_flow(text)
    if type(time) is not int:
        time = _fast_flow(time)
    if n is None or seat is None or text is None or time is None:
        return None
    return f"- {{move: {{n: {n}, seat: {seat}, text: {text}, time: {time}}}}}\n"


_CONSTANTS: dict[str, Any] = {"null": None, "true": True, "false": False}
"""The words YAML reads as None and the booleans and writes for them."""
_CONSTANT_WORDS = {v: k for k, v in _CONSTANTS.items()}
_WORD_END = re.compile(r"[,:\]}]")
_DIGITS = 640
"""The most digits a number read here has (in the patterns below): Python converts any
whole number this long, whatever ``sys.set_int_max_str_digits`` says (it allows no limit
below 640). A longer one is left to the YAML library, which reads it or refuses it clearly
(``yamlio.NumberTooLong``); the writer writes no such number."""
_NUMBER = f"[0-9]{{1,{_DIGITS}}}"
_INT = re.compile(rf"-?(?:0|[1-9][0-9]{{0,{_DIGITS - 1}}})")
_FLOAT = re.compile(rf"-?{_NUMBER}\.{_NUMBER}")
_FAST_DEPTH = 8  # log entries nest three deep; anything deeper is left to the YAML library


def _read_flow(text: str, i: int, depth: int = 0) -> tuple[Any, int]:
    """One value of ``_fast_flow``'s shapes read from ``text`` at ``i``: the value and where it
    ends. Raises ``ValueError`` on anything else (the caller then leaves the text to YAML)."""
    if depth > _FAST_DEPTH:
        raise ValueError("too deep")
    opener = text[i:i + 1]
    if opener == "{" or opener == "[":
        closer = "}" if opener == "{" else "]"
        out: Any = {} if opener == "{" else []
        i += 1
        if text[i:i + 1] == closer:
            return out, i + 1
        while True:
            if opener == "{":
                at = i
                key, i = _read_flow(text, i, depth + 1)
                if not isinstance(key, str) or text[i:i + 2] != ": " or i - at > SIMPLE_KEY_CHARS:
                    raise ValueError("not a key")  # (past SIMPLE_KEY_CHARS, YAML refuses the ":")
                out[key], i = _read_flow(text, i + 2, depth + 1)
            else:
                value, i = _read_flow(text, i, depth + 1)
                out.append(value)
            if text[i:i + 1] == closer:
                return out, i + 1
            if text[i:i + 2] != ", ":
                raise ValueError("not a separator")
            i += 2
    if opener == "'":
        return _read_quoted(text, i)
    found = _WORD_END.search(text, i)
    end = found.start() if found else len(text)
    word = text[i:end]
    if not word:
        raise ValueError("empty")
    if _INT.fullmatch(word):
        return int(word), end
    if _FLOAT.fullmatch(word):
        return float(word), end
    if word in _CONSTANTS:
        return _CONSTANTS[word], end
    return word, end


def _read_quoted(text: str, i: int) -> tuple[str, int]:
    """A single-quoted string at ``i`` (the YAML writer quotes a text it cannot write plain, such
    as a player's words with a comma): on one line its only escape is ``''`` for a quote, and
    it is never read as anything but a string. Printable characters only (anything else, a tab
    or a line separator, is left to the library)."""
    out = []
    j = i + 1
    while True:
        k = text.index("'", j)  # ValueError: no closing quote
        out.append(text[j:k])
        if text[k + 1:k + 2] != "'":
            break
        out.append("'")
        j = k + 2
    value = "".join(out)
    if not value.isprintable():
        raise ValueError("not printable")
    return value, k + 1


def _echo(value: Any) -> str | None:
    """``value`` as ``_fast_flow`` writes it, but a string it cannot write plain in single
    quotes: a line read by ``_read_flow`` must be exactly this, so a plain word is never one
    YAML would read as another type (``yes``, ``1.0e3``; ``null``, ``true`` and ``false`` are
    None and the booleans to both) and a quoted one is always text."""
    return _fast_flow(value, quoted=True)


_MOVE = re.compile(rf"- \{{move: \{{n: ([1-9][0-9]{{0,{_DIGITS - 1}}}), seat: ([^,:\[\]{{}}]+), "
                   rf"text: ([^,:\[\]{{}}]+), time: ({_NUMBER}(?:\.{_NUMBER})?)\}}\}}\n")


def _word(text: str) -> bool:
    """Whether ``_fast_flow`` writes the string ``text`` as it is."""
    return _PLAIN.fullmatch(text) is not None and text not in _RESOLVED


def _read_move(line: str) -> dict[str, Any] | None:
    """The commonest line, an accepted input (``- {move: {n: 1, seat: p1, text: pass, time: 1}}``),
    read by one pattern: the same value ``_read_flow`` reads, on the same condition (written
    back, it is the line)."""
    m = _MOVE.fullmatch(line)
    if m is None:
        return None
    n, seat, text, at = m.groups()
    time: int | float = float(at) if "." in at else int(at)
    if not (_word(seat) and _word(text) and (repr(time) if "." in at else str(time)) == at):
        return None
    return {"move": {"n": int(n), "seat": seat, "text": text, "time": time}}


def read_entry_line(line: str) -> Any:
    """A log line (``- {...}`` and its newline) read without the YAML library; None unless the
    line is exactly what ``_echo`` writes for the value read (anything else is left to the
    YAML library). Its plain words are what ``_fast_flow`` writes, which is what YAML writes
    (``test_transcripts``) and reads back; its single-quoted strings are text to YAML whatever
    they hold. So a line read here is the value YAML would read (``test_transcript_reading``
    compares the two)."""
    if line.startswith("- {move: "):
        move = _read_move(line)
        if move is not None:
            return move
    if not line.startswith("- {"):
        return None
    try:
        value, end = _read_flow(line, 2)
    except (ValueError, IndexError):
        return None
    if end != len(line) - 1 or not isinstance(value, dict) or _echo(value) != line[2:-1]:
        return None
    return value


# -- a transcript's header and ending -----------------------------------------------------------

_KEY = re.compile(r"([A-Za-z][A-Za-z0-9_]*):(?: (.+))?")
_BESIDE_A_KEY = re.compile(r"sha256:[0-9a-f]{64}|[0-9]+-[a-z][a-z0-9-]*")
"""Plain texts written beside a key, not in a list or a mapping: a data hash, a variant's
name such as ``12-players`` (no YAML type but text starts with digits and a dash and a letter)."""


def _read_value(parts: list[str]) -> tuple[bool, Any]:
    """A value of ``read_block``: its lines joined as YAML folds them (a line break and the
    spaces around it are one space); whether it is one that reads so, and its value."""
    lines = [p.strip(" ") for p in parts]
    text = " ".join(lines)
    if _BESIDE_A_KEY.fullmatch(text):
        return True, text
    try:
        value, end = _read_flow(text, 0)
    except (ValueError, IndexError):
        return False, None
    if end != len(text) or _echo(value) != text:
        return False, value
    if len(lines) > 1:
        breaks, at = set(), -1
        for line in lines[:-1]:
            at += len(line) + 1
            breaks.add(at)
        if _breaks_a_key(text, breaks):
            return False, value
    return True, value


def _breaks_a_key(text: str, breaks: set[int]) -> bool:
    """Whether one of ``breaks`` (where ``text``, a value ``_read_flow`` reads, had a line
    break) is inside a key of a mapping: YAML reads a key on one line only (a break in a
    quoted text, in a value or between items folds into a space). One pass over ``text``."""
    depth: list[str] = []  # the brackets open
    in_key = begun = quoted = False  # in a mapping's key, any of it read yet, in a quoted text
    last = ""  # the last character before this one that is not a space, outside quoted texts
    i = 0
    while i < len(text):
        ch = text[i]
        if i in breaks and in_key and begun:
            return True
        if quoted:
            if ch == "'":
                if text[i + 1:i + 2] == "'":
                    i += 2
                    continue
                quoted = False
        elif ch == "'" and last in ("", "{", "[", ",", ":"):  # a quoted text's first quote
            quoted, begun = True, True
        elif ch in "{[":
            depth.append(ch)
            in_key, begun = ch == "{", False
        elif ch in "}]":
            depth.pop()
            in_key = False
        elif ch == ",":
            in_key, begun = depth[-1:] == ["{"], False
        elif ch == ":" and in_key and text[i + 1:i + 2] == " ":
            in_key = False
        elif ch != " ":
            begun = True
        if ch != " " and not quoted:
            last = ch
        i += 1
    return False


def read_block(text: str) -> dict[str, Any] | None:
    """A transcript's header or its ending (block-style YAML, as the transcript writer writes
    them) read without the YAML library, where every line is one the writer writes for plain
    values: comments at the left margin before the first key; ``key: value``, or ``key:`` and
    the mapping below it, two spaces further in (``_FAST_DEPTH`` mappings deep at most); each
    value on its line and the lines below it indented deeper (a list, a mapping or a quoted
    text the writer wrapped), read as the one line YAML folds them into, by ``_read_flow``, and
    exactly what ``_echo`` writes of what it read, or a data hash or a variant's name
    (``_BESIDE_A_KEY``). None for any other text (the library then reads it, or refuses it).
    So what it reads is what the library reads (``test_transcript_reading`` compares them, on
    what the writer writes and on random edits)."""
    if "\t" in text or "\r" in text or text and not text.endswith("\n"):
        return None
    out: dict[str, Any] = {}
    open_ = [(0, out)]  # the mappings being read, each with its keys' margin, innermost last
    key, parts, margin_of_key = "", [], -1  # the value being read: its key, its lines, the key's margin
    for line in text.split("\n")[:-1]:
        margin = len(line) - len(line.lstrip(" "))
        if parts and margin > margin_of_key:  # a line of the value above, wrapped
            if margin == len(line):  # a blank line: a line break of its own in YAML's folding
                return None
            parts.append(line)
            continue
        if parts:
            ok, open_[-1][1][key] = _read_value(parts)
            if not ok:
                return None
            parts = []
        if line.startswith("#") and not out and line.isprintable():  # (YAML breaks a line at \u2028, say)
            continue
        while open_[-1][0] > margin and open_[-1][1]:  # a mapping ends (an empty one never does)
            open_.pop()
        into = open_[-1][1]
        found = _KEY.fullmatch(line, margin)
        if open_[-1][0] != margin or found is None or not _word(found[1]) or found[1] in into:
            return None
        # (A key longer than YAML reads, SIMPLE_KEY_CHARS, is still read here, where the library
        # refuses it ("could not find expected ':'", naming neither the key nor its length):
        # the writer writes no such key, and the reader refuses a header's or a session's key
        # it does not know by its start and length. A flow mapping's key is held to the limit.)
        key, margin_of_key = found[1], margin
        if found[2] is not None:
            parts = [found[2]]
        elif len(open_) < _FAST_DEPTH:  # (deeper: the library's, which refuses what nests too deep)
            into[key] = inner = {}
            open_.append((margin + 2, inner))
        else:
            return None
    if parts:
        ok, open_[-1][1][key] = _read_value(parts)
        if not ok:
            return None
    return out if all(m for _, m in open_) else None

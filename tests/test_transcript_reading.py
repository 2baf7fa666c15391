"""The fast reading of transcripts gives what the YAML library gives: every golden's lines and
whole text, lines of any entry the writer may write, and lines edited at random (which are
either read the same or left to the library)."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine import transcript as tr
from arbiter.engine import transcript_reader as reader
from arbiter.engine import yamlio
from arbiter.engine.logline import _echo, entry_line, read_block, read_entry_line
from tests.helpers import REFUSED_FLOW_COLON
from tests.transcript_staging import _VALUES, _WORDS

ROOT = Path(__file__).resolve().parents[1]
GOLDENS = sorted((ROOT / "transcripts").rglob("*.yaml"))


@functools.cache
def golden_log_lines(path: Path) -> tuple[str, ...]:
    """A golden's log lines (``- ...``), read once a process: the random edits of a thousand
    examples start from them, and a golden never changes while the tests run."""
    return tuple(line for line in path.read_text(encoding="utf-8").splitlines(keepends=True) if line.startswith("- "))


@functools.cache
def golden_blocks(path: Path) -> tuple[str, ...]:
    """A golden's header and ending (``blocks_of``), read once a process, as its log lines."""
    return tuple(blocks_of(path.read_text(encoding="utf-8")))


def typed(value: Any) -> Any:
    """``value`` with every scalar's type beside it (so True is not 1, nor 1.0 is 1)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, repr(value))


def yaml_line(line: str) -> Any:
    """What the YAML library reads from one log line (the entry), or an exception's type."""
    try:
        doc = yamlio.load(line)  # the loader transcripts are read with
    except yaml.YAMLError:
        return yaml.YAMLError
    return doc[0] if isinstance(doc, list) and len(doc) == 1 else doc


def agrees(line: str) -> bool:
    """The fast reader leaves ``line`` to the library, or reads what the library reads."""
    fast = read_entry_line(line)
    if fast is None:
        return True
    library = yaml_line(line)  # (read once: the same line reads the same)
    return library is not yaml.YAMLError and typed(fast) == typed(library)


def test_there_are_goldens_to_read():
    assert len(GOLDENS) >= 40


def test_every_golden_reads_as_the_yaml_library_reads_it_and_fast():
    for path in GOLDENS:
        text = path.read_text(encoding="utf-8")
        fast = reader._fast_document(text)
        assert fast is not None, f"{path}: the writer's own transcript is not read fast"
        assert typed(fast) == typed(yamlio.load(text)), path


def test_every_golden_line_reads_as_the_yaml_library_reads_it():
    lines = [line for path in GOLDENS for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
             if line.startswith("- ")]
    assert len(lines) > 3000
    read = 0
    for line in lines:
        fast = read_entry_line(line)
        if fast is not None:
            read += 1
            assert typed(fast) == typed(yaml_line(line)), line
    assert read > 0.95 * len(lines)


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["move", "chance", "tick", "note"]), body=st.dictionaries(_WORDS, _VALUES, max_size=4))
def test_any_line_the_writer_writes_reads_back_as_the_library_reads_it(kind, body):
    line = entry_line({kind: body})
    assert agrees(line)
    if read_entry_line(line) is not None:
        assert typed(read_entry_line(line)) == typed({kind: body})


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
       | st.text(alphabet="ab ,:;'#-{}[]&*?|>!%@`\"yes", max_size=20))
def test_a_players_words_the_writer_quotes_read_as_the_library_reads_them(text):
    line = entry_line({"move": {"n": 3, "seat": "p1", "text": "say " + text, "time": 2}})
    assert agrees(line)


def test_words_the_writer_single_quotes_are_read_without_the_library():
    """A player's words with a comma or a colon are single-quoted by the writer; such lines (a
    talkative Classic Mafia game has one in ten) are read fast, quotes doubled inside too."""
    for entry, line in [
        ({"move": {"n": 78, "seat": "p3", "text": "say I trust p8, for now.", "time": 61}},
         "- {move: {n: 78, seat: p3, text: 'say I trust p8, for now.', time: 61}}\n"),
        ({"move": {"n": 1, "seat": "p1", "text": "say it's p2: look", "time": 1}},
         "- {move: {n: 1, seat: p1, text: 'say it''s p2: look', time: 1}}\n"),
        ({"note": {"said": "yes"}}, "- {note: {said: 'yes'}}\n"),
    ]:
        assert entry_line(entry) == line  # what the writer (the YAML library) writes
        fast = read_entry_line(line)
        assert fast is not None and typed(fast) == typed(yaml_line(line)) == typed(entry)


_EDITS = "{}[],:; -#'\"&*!|>%@`?~.0123456789eE+abpxyzYNTF\t\\\n"


@settings(max_examples=1000, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 3))
def test_lines_edited_at_random_are_read_as_the_library_reads_them_or_left_to_it(seed, edits):
    rng = random.Random(seed)
    lines = golden_log_lines(GOLDENS[rng.randrange(len(GOLDENS))])
    line = lines[rng.randrange(len(lines))][:-1]
    for _ in range(edits):
        at = rng.randrange(len(line) + 1)
        how = rng.randrange(3)
        char = _EDITS[rng.randrange(len(_EDITS))]
        line = line[:at] + char + line[at + (how > 0):] if how < 2 else line[:at] + line[at + 1:]
    assert agrees(line + "\n")


def test_a_transcript_edited_around_its_log_is_read_as_the_library_reads_it():
    text = GOLDENS[0].read_text(encoding="utf-8")
    head, log_and_end = text.split("\nlog:\n", 1)
    variants = [
        text.replace("\nlog:\n", "\nlog:\n# a comment\n", 1),  # a comment: the library's
        text + "# trailing comment\n",
        text + "log: []\n",  # a second log key: the library's (the last wins there)
        head + "\nresult: 1\nlog:\n" + log_and_end,  # a key in both the header and the ending
        text.replace("\n- {", "\n  - {", 1),  # an indented entry
        text.rstrip("\n"),  # no last newline
        text.replace("}\n- {", "}\n  n: 1\n- {", 1),  # an indented line inside the log
        text.split("\nresult:")[0] + "\n  n: 1\n" if "\nresult:" in text else text + "  n: 1\n",
        text.replace("\n- {", "\n- {note: 'a\n  b'}\n- {", 1),  # a quoted note on two lines
        text.replace("\n- {", "\n- {note: 'it''s'}\n- {", 1),  # a quoted note on one line
    ]
    for changed in variants:
        fast = reader._fast_document(changed)
        if fast is not None:
            assert typed(fast) == typed(yamlio.load(changed))


def test_a_move_line_is_read_by_its_pattern_as_by_the_general_reader():
    from arbiter.engine.logline import _echo, _read_flow, _read_move, _word

    def general(line: str) -> Any:  # read_entry_line's general reading, on its condition
        try:
            value, end = _read_flow(line, 2)
        except (ValueError, IndexError):
            return None
        return value if end == len(line) - 1 and _echo(value) == line[2:-1] else None

    lines = [line for path in GOLDENS for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
             if line.startswith("- {move: ")][::4]
    rng = random.Random(5)
    for line in lines + [line.replace("time: ", "time: 0", 1) for line in lines[:50]] + [
            line.replace(", time: ", ".0, time: ", 1) for line in lines[:50]]:
        for edited in (line, line.replace("text: ", "text: " + rng.choice(["yes ", "1", "- ", "#", "'", "on"]), 1)):
            by_pattern, by_general = _read_move(edited), general(edited)
            if by_pattern is not None:
                assert typed(by_pattern) == typed(by_general) == typed(yaml_line(edited)), edited
            elif by_general is not None:  # the pattern reads plain words only; a quoted text is the general reader's
                assert any(isinstance(v, str) and not _word(v) for v in by_general["move"].values()), edited


def test_a_moves_time_is_written_as_before():
    from arbiter.engine.clock import seconds_name
    from arbiter.engine.session import _time

    def as_before(ms: int) -> int | float:
        text = seconds_name(ms)
        return float(text) if "." in text else int(text)

    rng = random.Random(3)
    for ms in [*range(0, 5000), *(k * 1000 for k in range(5000)), *(rng.randrange(10**12) for _ in range(5000))]:
        assert typed(_time(ms)) == typed(as_before(ms)), ms


def test_a_semicolon_is_a_plain_character_to_the_writer_and_the_reader():
    """The library writes a text with a semicolon plain (``;`` is no indicator in YAML, first
    or inside; only words made plain by ``_PLAIN`` start with a letter); the talk of Classic
    Mafia's bots has one ("Not p5; too obvious."), so such lines are written and read fast."""
    for text in ("say Not p5; too obvious.", "say a;b ;c; d;", "say x ;"):
        entry = {"move": {"n": 33, "seat": "p5", "text": text, "time": 27}}
        line = entry_line(entry)
        assert line == "- " + tr._flow(entry) + "\n" and f"text: {text}," in line  # plain, as the library writes it
        fast = read_entry_line(line)
        assert fast is not None and typed(fast) == typed(yaml_line(line)) == typed(entry)


# -- the header and the ending (read_block) --------------------------------------------------


def blocks_of(text: str) -> list[str]:
    """A transcript's header (from its first line to ``log:``) and its ending, if it has one."""
    head, rest = text.split("\nlog:\n", 1)
    ending = rest[rest.index("\nresult:") + 1:] if "\nresult:" in rest else ""
    return [head + "\n"] + ([ending] if ending else [])


def block_agrees(text: str) -> bool:
    """``read_block`` leaves ``text`` to the library, or reads what the library reads."""
    from arbiter.engine.logline import read_block

    fast = read_block(text)
    if fast is None:
        return True
    try:
        return typed(fast) == typed(yamlio.load(text))
    except yaml.YAMLError:
        return False


def test_every_goldens_header_and_ending_are_read_without_the_library():
    from arbiter.engine.logline import read_block

    endings = 0
    for path in GOLDENS:
        for block in blocks_of(path.read_text(encoding="utf-8")):
            fast = read_block(block)
            assert fast is not None, f"{path}: {block[:200]!r} is left to the library"
            assert typed(fast) == typed(yamlio.load(block)), path
            endings += block.startswith("result:")
    assert endings > 40


_KEYS = st.from_regex(r"[a-z][a-z0-9_]{0,9}", fullmatch=True)
_GAME_SCALARS = st.one_of(
    _KEYS, st.text(alphabet="ab :',.#-'\"", max_size=30),
    st.integers(-10**12, 10**12), st.booleans(), st.none(), st.integers(0, 10**9).map(lambda ms: ms / 1000))
_GAME_VALUES = st.one_of(_GAME_SCALARS, st.lists(_GAME_SCALARS, max_size=14), st.dictionaries(_KEYS, _GAME_SCALARS, max_size=8))
"""What a header or an ending holds beside a key: a scalar, or a list or a mapping of them
(written in flow style, wrapped at the writer's width)."""


def _nested(keys: Any, values: Any) -> Any:
    """Mappings of ``keys`` to ``values`` or to such mappings, three deep."""
    return st.dictionaries(keys, st.one_of(values, st.dictionaries(keys, st.one_of(
        values, st.dictionaries(keys, values, min_size=1, max_size=3)), min_size=1, max_size=4)), min_size=1, max_size=6)


def _texts(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in [k, *_texts(v)]]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [value] if isinstance(value, str) else []


@settings(max_examples=60, deadline=None)
@given(value=_nested(_KEYS, _GAME_VALUES))
def test_any_header_or_ending_of_game_values_reads_back_as_the_library_reads_it(value):
    """The writer's block of values such as the games' (words, numbers, times, booleans,
    nothing, texts it may quote, long lists and mappings it wraps, nested mappings): read as
    the library reads it, and without the library where every text is a plain word."""
    from arbiter.engine.logline import _word, read_block

    text = tr.HEADER + tr._block(value)
    fast = read_block(text)
    assert block_agrees(text)
    if fast is not None:
        assert typed(fast) == typed(value)
    elif all(_word(t) for t in _texts(value)):  # (a mapping of nothing but scalars is written in flow style)
        assert text.startswith(tr.HEADER + "{"), text


def test_the_writers_plain_headers_and_endings_are_read_without_the_library():
    """What the writer writes for the games' own values: wrapped lists and mappings, quoted
    texts with colons and quotes, booleans and nothing, nested mappings."""
    from arbiter.engine.logline import read_block

    seats = [f"p{i}" for i in range(1, 13)]
    for value in [
        {"format": 1, "game": "mafia", "variant": "12-players", "data": "sha256:" + "ab" * 32, "seed": 2**31 - 1,
         "seats": seats, "options": {}, "session": {"as": None, "bots": {s: "exec:python3 my bot.py --deep 3" for s in seats},
                                                     "json": False, "realtime": True, "bot_timeout": 0.25}},
        {"result": {"winner": None, "reason": "time", "text": "It's over: 'nobody' wins, " * 8, "winners": [],
                    "scores": {"escaped": 0, "theft": False, "players": {s: {"card": "hero", "won": True, "why": "the heroes escaped"}
                                                                          for s in seats}}},
         "events": {"count": 140, "digest": "sha256:" + "0f" * 32}},
    ]:
        text = tr._block(value)
        fast = read_block(text)
        assert fast is not None, text
        assert typed(fast) == typed(yamlio.load(text)) == typed(value)


_BLOCK_EDITS = "{}[],:; -#'\"&*!|>%@`?~.0123456789eE+abpxyzYNTF\t\\\n\r\ufeff\u2028"


@settings(max_examples=1500, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), edits=st.integers(1, 3))
def test_headers_and_endings_edited_at_random_are_read_as_the_library_reads_them_or_left_to_it(seed, edits):
    rng = random.Random(seed)
    blocks = golden_blocks(GOLDENS[rng.randrange(len(GOLDENS))])
    text = blocks[rng.randrange(len(blocks))]
    for _ in range(edits):  # a character put in, changed or taken out, spaces or a blank line put in
        at = rng.randrange(len(text) + 1)
        how = rng.randrange(5)
        char = _BLOCK_EDITS[rng.randrange(len(_BLOCK_EDITS))] if how < 3 else " " * rng.randrange(1, 5)
        char = "\n" + char if how == 4 else char
        text = text[:at] + char + text[at + (how == 1):] if how != 2 else text[:at] + text[at + 1:]
    assert block_agrees(text)


def test_what_yaml_reads_otherwise_is_left_to_the_library():
    from arbiter.engine.logline import read_block

    for text in ["a:\n", "a:\n  b:\n", "a:\n    b: 1\n", "a: [1,\n2]\n", "a: 'x\n\n  y'\n", "a: 1 # c\n",
                 "on: 1\n", "a: yes\n", "a: 0x10\n", "a: 1.\n", "a: 2026-12-01\n", "a: b: c\n", "a:\nb: 1\n",
                 "---\na: 1\n", "a: 1\n...\n", "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: |\n  x\n", "a: x\n  #c\n",
                 "a: 1\na: 2\n", "\ufeffa: 1\n", "a: 1\n  b: 2\n", "a:\n  b: 1\n c: 2\n", "a: [b: 2]\n", "a: 1", "",
                 "a: 'x\u2028y'\n", "a:  1\n", "a: [1,\n  # c\n  2]\n", "  a: 1\n", "a: ~\n", "a: Null\n", "a: True\n",
                 "a: 'x:\n   \n  y'\n", "a:\n  b: 'p:\n    \n    q'\n", "a: x\n   \n  y\n",  # (a blank line: a line break)
                 "a: {b: 0, t\n    heft: false}\n", "a: {b: 0, 't\n    heft': false}\n", "a: {it's\n    x: 1}\n",  # (a key: one line)
                 "".join("  " * i + f"k{i}:\n" for i in range(150)) + "  " * 150 + "x: 1\n"]:  # (too deep for the library)
        assert block_agrees(text), text
    # and what it reads, read as YAML reads it: folded lines, plain words that stay words
    for text, value in [("a: [1,\n 2]\n", {"a": [1, 2]}), ("a: x\n  y\n", {"a": "x y"}),
                        ("a: {b: 0,\n    theft: false}\n", {"a": {"b": 0, "theft": False}}),
                        ("a: {b: it's\n    x, c: 'y:\n    z'}\n", {"a": {"b": "it's x", "c": "y: z"}}),
                        ("a: 'x:  \n    y'\n", {"a": "x: y"}), ("a: 12-players\n", {"a": "12-players"}),
                        ("a: 0-inf\n", {"a": "0-inf"}), ("a:\n  b: 1-e5\n", {"a": {"b": "1-e5"}}),
                        ("a:\n  b:\n    c: null\n  d: true\ne: -3\n", {"a": {"b": {"c": None}, "d": True}, "e": -3})]:
        assert read_block(text) == value == yamlio.load(text), text


def test_a_character_yaml_does_not_allow_is_named_by_the_line_it_is_on(tmp_path: Path) -> None:
    """In the header and in the log (read line by line when the whole does not read): the
    line of the file, not the library's 'position N' of a part of it. (An ending that does
    not read is one a crash cut off: it is left out, and the replay says so.)"""
    golden = next(p for p in GOLDENS if p.parent.name == "fbi-mafia")
    lines = golden.read_text(encoding="utf-8").splitlines(keepends=True)
    log_at = lines.index("log:\n")
    for number in (3, log_at + 3, log_at + 10):  # a header line, log lines
        bad = list(lines)
        bad[number - 1] = bad[number - 1].rstrip("\n") + "\x07\n"
        path = tmp_path / f"bad{number}.yaml"
        path.write_text("".join(bad), encoding="utf-8")
        try:
            reader.read(path)
        except reader.TranscriptError as exc:
            assert str(exc) == (f"{path} (line {number}): not valid YAML: the character U+0007 is not allowed "
                                "in YAML (a control character)"), exc
        else:
            raise AssertionError(f"line {number} with a BEL was read")


# -- a crash's torn last line -----------------------------------------------------------------


def _library_reads(monkeypatch, text: str) -> tuple[reader.Transcript, list[str]]:
    """``text`` read as a transcript, and the texts the YAML library was handed meanwhile."""
    handed: list[str] = []
    load = yamlio.load

    def counting(part: str, *args: Any, **kwargs: Any) -> Any:
        handed.append(part)
        return load(part, *args, **kwargs)

    monkeypatch.setattr(yamlio, "load", counting)
    return reader.parse(text, "t.yaml"), handed


def test_a_torn_last_line_costs_no_more_than_reading_the_file_once(monkeypatch):
    """A long game whose last line a crash tore (``- {move: {n: 9, seat: p1, text: "x``) was
    read by the YAML library whole, which refused it at its end, then again line by line: a
    20 MB transcript took 72 s to replay, against 20 s whole. Now the library reads only what
    it reads in a whole file (the header, a line that is not plain) and the torn line, and
    what is read is the same: the whole lines, and a note that the last one was cut off."""
    golden = max(GOLDENS, key=lambda p: p.stat().st_size)
    text = golden.read_text(encoding="utf-8")
    log = text[text.index("\nlog:\n") + len("\nlog:\n"):]
    lines = [line for line in log.splitlines(keepends=True) if line.startswith("- ")]
    whole = text[:text.index("\nlog:\n") + len("\nlog:\n")] + "".join(lines)
    assert len(lines) > 200
    for torn in ('- {move: {n: 1, seat: p1, text: "x', "- {move: {n: 1, seat: p1, te", "- {note: {seat: p1, why: 'a",
                 "- {chance: {what: board, outcome: [a, b", "- ", "-", "result:\n  winner: maf", "result:\n  winner: x\n"):
        t, handed = _library_reads(monkeypatch, whole + torn)
        not_plain = sum(len(line) for line in lines if read_entry_line(line) is None)
        head = len(text[:text.index("\nlog:\n") + 1])
        assert sum(map(len, handed)) <= head + not_plain + 2 * len(torn), torn  # (a torn ending's whole lines: twice)
        expected = reader.parse(whole, "t.yaml")
        assert typed(t.log) == typed(expected.log) and t.result is None, torn
        assert t.notes == (["t.yaml: its ending was cut off; the result follows from the moves"] if "result" in torn
                           else ["t.yaml: its last line was cut off and is ignored"]), torn


# -- keys near the length YAML reads ----------------------------------------------------------

_LONG = yamlio.SIMPLE_KEY_CHARS
_KEY_CHARS = st.sampled_from(["a", "b", "_", "z", "9", " ", "'", ",", ":", "\u00e9", "\u4e2d", "\U0001f600"])


@st.composite
def _long_keys(draw: Any) -> str:
    """A key whose length as written (quotes, and a quote doubled inside them, included) is
    near the longest YAML reads: plain words, or texts the writer quotes (with characters of
    more than one byte, which YAML counts as one)."""
    written = draw(st.integers(_LONG - 3, _LONG + 3))
    if draw(st.booleans()):
        return "k" + "a" * (written - 1)  # a plain word, written as it is
    unit = "".join(draw(st.lists(_KEY_CHARS, min_size=1, max_size=6)))
    key = ("x" + unit * written)[:written]
    while len(_fast_flow_key(key)) > written:  # (the quotes around it, a quote inside written twice)
        key = key[:written - (len(_fast_flow_key(key)) - len(key))]
    return key


def _fast_flow_key(key: str) -> str:
    """``key`` as a transcript's log line has it (``_echo``: plain, or in single quotes)."""
    return _echo({key: 1})[1:-len(": 1}")]


def _reads(text: str) -> Any:
    try:
        return yamlio.load(text)
    except yaml.YAMLError:
        return yaml.YAMLError


@settings(max_examples=100, deadline=None)
@given(key=_long_keys(), where=st.sampled_from(["entry", "inner", "deep", "after"]))
def test_a_key_near_the_length_yaml_reads_is_read_as_the_library_reads_it(key, where):
    """YAML reads a key written plainly (or quoted) of at most 1,024 characters, quotes
    included; the fast reader read any, so a line the library refuses ("did not find
    expected ',' or '}'") was read, and refused later as an unknown entry, or read whole (a
    note's key). Now it reads such a key only as far as the library does, and leaves a longer
    one to it, in a log line and in a header's or ending's value alike."""
    written = _fast_flow_key(key)
    value = {"entry": {key: 1}, "inner": {"note": {key: "x"}}, "deep": {"note": {"a": [1, {key: 2}]}},
             "after": {"note": {"seat": "p1", key: None}}}[where]
    line = "- " + _echo(value) + "\n"
    fast, library = read_entry_line(line), _reads(line)
    assert (library is yaml.YAMLError) == (len(written) > _LONG), (len(written), line[:40])
    assert (fast is None) == (library is yaml.YAMLError), (len(written), line[:40])  # read iff the library reads it
    if fast is not None:
        assert typed(fast) == typed(library[0]) == typed(value)
    block = "result:\n  scores: " + _echo(value) + "\n"
    assert (read_block(block) is None) == (_reads(block) is yaml.YAMLError), (len(written), block[:40])
    assert block_agrees(block)


def test_a_log_line_with_a_key_longer_than_yaml_reads_is_refused_as_the_library_refuses_it():
    """In a transcript, whatever the entry: the library's words, the line, and how long the
    key is (a note's key was read; a move's was refused as an unknown key, with no line)."""
    golden = next(p for p in GOLDENS if p.parent.name == "mafia")
    lines = golden.read_text(encoding="utf-8").splitlines(keepends=True)
    log_at = lines.index("log:\n")
    key = "k" * 1100
    for bad in (f"- {{note: {{{key}: 1}}}}\n", f"- {{{key}: 1}}\n",
                f"- {{move: {{n: 1, seat: p1, text: x, time: 1, {key}: 1}}}}\n"):
        text = "".join(lines[:log_at + 3] + [bad] + lines[log_at + 3:])
        try:
            reader.parse(text, "t.yaml")
        except reader.TranscriptError as exc:
            assert str(exc) == (f"t.yaml (line {log_at + 4}): not valid YAML: {REFUSED_FLOW_COLON} "
                                "(YAML reads a key of at most 1024 characters; this one has 1100)"), exc
        else:
            raise AssertionError(f"{bad[:30]}... was read")

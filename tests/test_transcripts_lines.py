"""Transcripts (docs/transcripts.md): log lines, headers and endings written
without the YAML library, as the library writes them.

Known bugs are pinned by ``xfail(strict=True)`` tests (search for ``bug:``). Shared games,
policies and strategies: ``tests/transcript_staging.py``.
"""

from __future__ import annotations

import functools
import os

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.clock import parse_seconds
from arbiter.engine.errors import SyntaxInputError
from arbiter.engine.session import Session

from tests.helpers import LIBYAML
from tests.transcript_staging import _VALUES, _WORDS, FBI, moves_of


# =========================================================================== fast lines
@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["move", "chance", "tick", "note"]), body=st.dictionaries(_WORDS, _VALUES, max_size=4))
def test_a_log_line_is_what_the_yaml_library_writes(kind, body):
    entry = {kind: body}
    assert tr.entry_line(entry) == "- " + tr._flow(entry) + "\n"


_MOVE_TEXTS = _WORDS | st.sampled_from(["shift row 2 +1", "say hi, all", "say it's me", "say 'q'", "say a: b",
                                          "say tab\there", "say a\u2028b", "say caf\u00e9", "vote p3", "pass"])
_TIMES = st.one_of(st.integers(-3, 10**12), st.integers(0, 10**9).map(lambda ms: ms / 1000), st.floats(allow_nan=True),
                   st.sampled_from([1.5e-05, 2.5e+16, float("inf"), -0.0, 0.5]), st.booleans(), st.none(), st.just("1.5"))


@settings(max_examples=300, deadline=None)
@given(n=st.one_of(st.integers(-3, 10**12), st.booleans(), st.just(1.0)), seat=_WORDS | st.just(1), text=_MOVE_TEXTS,
       time=_TIMES)
@example(n=1, seat="p1", text="shift row 2 +1", time=3)  # a text the library quotes: the format, through its memo
@example(n=2, seat="p1", text="say tab\there", time=3)  # a text the library writes its own way: left to it
@example(n=3, seat="P 1", text="pass", time=1.5)
def test_a_move_line_is_what_the_yaml_library_writes(n, seat, text, time):
    """An accepted input's line, written by its own format (``_move_line``) where it has the
    session's shape, is the YAML library's line for the entry, whatever its values hold."""
    from arbiter.engine import logline

    entry = {"move": {"n": n, "seat": seat, "text": text, "time": time}}
    assert tr.entry_line(entry) == "- " + tr._flow(entry) + "\n"
    if type(n) is int and type(seat) is str and logline._word(seat) and type(text) is str and text.isprintable() \
            and type(time) is int:
        assert logline._move_line(entry) is not None  # the format is in use, not left to the others


@pytest.mark.parametrize("entry", [
    {"move": {"seat": "p1", "n": 1, "text": "pass", "time": 0}},  # another order: its own line
    {"move": {"n": 1, "seat": "p1", "text": "pass"}},
    {"move": {"n": 1, "seat": "p1", "text": "pass", "time": 0, "x": 1}},
    {"move": {"n": 1, "seat": "p1", "text": "pass", "time": 0}, "note": {}},
    {"move": [1, 2]},
])
def test_entries_of_another_shape_are_left_to_the_general_writer(entry):
    from arbiter.engine import logline

    assert logline._move_line(entry) is None
    assert tr.entry_line(entry) == "- " + tr._flow(entry) + "\n"


def test_entries_are_flushed_at_once_and_synced_at_most_a_moment_later(tmp_path, monkeypatch):
    """A killed process loses nothing (each entry is flushed before the game goes on); a power
    cut loses at most SYNC_EVERY_S (a sync follows every write within that); syncs are batched.

    On the writer's own clock, made here, and its timers fired by hand: timed with the real ones,
    the test failed on a loaded machine (a slow move was more syncs, a late timer thread no sync
    in the time it waited)."""
    from types import SimpleNamespace

    now = [1000.0]
    timers = []  # (when it is due, what it calls), as the writer set them

    class Timer:
        def __init__(self, delay, call):
            self.due, self.call, self.cancelled = now[0] + delay, call, False
            timers.append(self)

        def start(self):
            pass

        def cancel(self):
            self.cancelled = True

    def fire_due():
        for t in [t for t in timers if not t.cancelled and t.due <= now[0]]:
            t.cancelled = True
            t.call()

    synced = []
    real = os.fsync
    monkeypatch.setattr(tr, "time", SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(tr, "threading", SimpleNamespace(Lock=tr.threading.Lock, Timer=Timer))
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(now[0]), real(fd)))
    whole = play_random(FBI, "standard-3v3", 4)
    path = tmp_path / "t.yaml"
    session = Session(FBI, "standard-3v3", seed=4)
    writer = tr.TranscriptWriter(path, session)
    step = 0.03  # seconds between moves
    for seat, text, at in moves_of(whole)[:60]:
        now[0] += step
        fire_due()
        last_write = now[0]
        session.submit(seat, text, at)
        assert path.read_text(encoding="utf-8").count("{move:") == len(session.moves)  # flushed already
        pending = [t for t in timers if not t.cancelled]
        assert synced[-1] == last_write or (len(pending) == 1 and pending[0].due <= last_write + tr.SYNC_EVERY_S)
    # 60 moves over 1.8 s: a sync at the start, then one per SYNC_EVERY_S at most, not one a move
    assert len(synced) <= 2 + 60 * step / tr.SYNC_EVERY_S, f"{len(synced)} syncs for 60 moves: not batched"
    assert synced[-1] < last_write  # the last write waits for its sync ...
    now[0] = last_write + tr.SYNC_EVERY_S
    fire_due()
    assert synced[-1] == now[0]  # ... which comes within SYNC_EVERY_S, on its own
    writer.close()


# -- the header and the ending: libyaml's emitter where it writes what the pure-Python one does --
def _python_block(value):
    return yaml.safe_dump(value, default_flow_style=None, allow_unicode=True, width=100, sort_keys=False)


_ASCII = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=160)
_TRICKY = st.lists(st.sampled_from(
    ["a", "b:", ": ", "#", " #", "- ", "'", '"', " ", "yes", "No", "null", "~", "1e3", "0x1f", "0o7", "1_0", ".5",
     "@", "`", "!", "&a", "*a", "?", "|", ">", "%", "[", "]", "{", "}", ",", "x" * 45, "exec:python bot.py --x=1",
     "sha256:0f51b3", "2026-12-01", "12:30", "+1", "-", "---", "...", "=", "<<"]), max_size=16).map("".join)
_KEY = (st.text(alphabet="abcxyz_-019", min_size=1, max_size=15) | _ASCII | _TRICKY).map(
    lambda k: k[:tr._KEY_MAX] or "k")
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), _ASCII, _TRICKY)
_PLAIN = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=8), st.dictionaries(_KEY, inner, max_size=6)),
                      max_leaves=12)


@settings(max_examples=100, suppress_health_check=list(HealthCheck), deadline=None)  # 6,000 larger ones agreed too
@given(st.dictionaries(_KEY, _PLAIN, min_size=1, max_size=6))
def test_plain_headers_and_endings_are_written_as_the_pure_python_emitter_writes_them(value):
    """``_block`` hands a value of plain texts to libyaml's emitter, which must write exactly
    the text of the pure-Python one (YAML's special words, quotes, long texts folded at 100
    columns, keys up to the limit)."""
    assert tr._plain(value)
    assert tr._block(value) == _python_block(value)


@pytest.mark.parametrize("value", [
    {"text": "caf\u00e9"}, {"text": "tab\there"}, {"text": "a\nb"}, {"text": "\x85"}, {"t": "\U0001f600"},
    {"k" * (tr._KEY_MAX + 1): 1}, {"": 1}, {"x": {"": 1}}, {1: "a"}, {"x": float("nan")},
    {"deep": [{"a": ["ok", "not \u00e9"]}]},
])
def test_other_headers_and_endings_go_to_the_pure_python_emitter(value):
    """Anything else (a character past ASCII or a control one, a long or empty key, a key that is
    not a text, NaN) is left to the pure-Python emitter, as it always was: the two may
    write them differently."""
    assert not tr._plain(value)
    assert tr._block(value) == _python_block(value)


@pytest.mark.skipif(not LIBYAML, reason="this PyYAML has no libyaml")
def test_the_emitters_differ_where_the_gate_says_they_may():
    """The gate is not idle: on a value it refuses, libyaml's emitter writes another text."""
    c_dump = functools.partial(yaml.dump, Dumper=yaml.CSafeDumper, default_flow_style=None, allow_unicode=True,
                               width=100, sort_keys=False)
    for value in ({"t": "\U0001f600"}, {"": 1}, {"#" + "x" * 126: [None]}, {"t": "|\x85,="}):
        assert c_dump(value) != _python_block(value), value


def test_texts_the_library_quotes_are_asked_of_it_once_and_the_memo_stays_bounded(monkeypatch):
    """A talk text with a comma is written as the YAML library writes it, from a memo of its
    answers (bots repeat themselves); past ``_TEXTS_MAX`` texts the memo starts again, and the
    lines are the library's throughout."""
    from arbiter.engine import logline

    monkeypatch.setattr(logline, "_TEXTS", {})
    monkeypatch.setattr(logline, "_TEXTS_MAX", 50)
    asked = []
    real = logline._flow
    monkeypatch.setattr(logline, "_flow", lambda value: (asked.append(value), real(value))[1])
    def line(i: int, text: str) -> str:
        entry = {"move": {"n": i + 1, "seat": "p1", "text": text, "time": i}}
        written = logline.entry_line(entry)
        assert written == "- " + real(entry) + "\n"
        return written

    for i in range(100):  # ten texts over and over: each asked once
        line(i, f"say {i % 10}, or: not")
    assert len(asked) == 10
    for i in range(200):  # two hundred texts: the memo never holds more than its bound
        line(i, f"say {i}, and {i}")
        assert len(logline._TEXTS) <= 50


def test_a_tournaments_writer_puts_the_whole_file_in_place_at_its_close(tmp_path, monkeypatch):
    """``durable=False`` (a tournament's games, whose record is the results line written after):
    nothing reaches the disk until the close, which puts the whole transcript in place at once,
    the same bytes as the durable writer's; until then the file it replaces stays as it was (a
    worker killed mid-game leaves no part of a transcript). Cut anywhere, the text still replays
    as far as it goes."""
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    whole = play_random(FBI, "standard-3v3", 6)
    path = tmp_path / "t.yaml"
    path.write_text("a crashed run's transcript\n", encoding="utf-8")
    session = Session(FBI, "standard-3v3", seed=6)
    writer = tr.TranscriptWriter(path, session, durable=False, overwrite=True)
    for seat, text, at in moves_of(whole):
        session.submit(seat, text, at)
    assert session.over and not synced
    assert path.read_text(encoding="utf-8") == "a crashed run's transcript\n"
    writer.close()
    assert synced  # the file (and its folder) synced once it is whole
    assert path.read_text(encoding="utf-8") == tr.dump(session)
    assert [p.name for p in tmp_path.iterdir()] == ["t.yaml"]  # no temporary file left
    text = path.read_text(encoding="utf-8")
    for cut in (len(text) // 3, len(text) // 2 + 7):
        report = tr.replay(tr.parse(text[:cut]))
        assert report.ok, report.problems


@given(st.integers(min_value=-10, max_value=10**12) | st.sampled_from([0, 999_999_999, 10**9, -1, True, False])
       | st.floats(min_value=-1, max_value=2e9))
def test_an_entry_time_is_read_as_its_decimal_seconds(value):
    """``time_ms`` reads a whole number of seconds at once; it must read what the decimal form
    ``N.000`` reads (and refuse what that form refuses)."""
    try:
        want: int | str = parse_seconds(f"{value:.3f}")
    except SyntaxInputError as exc:
        want = exc.message
    try:
        got: int | str = tr.time_ms(value)
    except SyntaxInputError as exc:
        got = exc.message
    assert got == want

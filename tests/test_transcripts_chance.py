"""Transcripts (docs/transcripts.md): recorded chance, and time.

Known bugs are pinned by ``xfail(strict=True)`` tests (search for ``bug:``). Shared games,
policies and strategies: ``tests/transcript_staging.py``.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.chance import Chance, ChanceRecord
from arbiter.engine.clock import parse_seconds, seconds_name
from arbiter.engine.errors import ChanceMismatchError, SyntaxInputError
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.transcript_staging import FBI, deck_burner, has_rebuild, moves_of
from tests.transcript_staging import finished  # noqa: F401 (a fixture, asked for by name)


# =========================================================================== chance
def test_chance_draws_are_recorded_and_reproducible():
    a, b = Chance(7), Chance(7)
    items = list(range(20))
    assert a.shuffle("x", items) == b.shuffle("x", items)
    assert a.choice("y", "abcdef") == b.choice("y", "abcdef")
    assert a.randint("z", 1, 100) == b.randint("z", 1, 100)
    assert [r.label for r in a.records] == ["x", "y", "z"]
    assert a.records == b.records
    assert sorted(a.records[0].outcome) == items


@pytest.mark.parametrize("game, variant, options", [("mafia", "8-players", {}), ("magic-maze", "2", {"players": 3})])
def test_a_chance_line_moved_elsewhere_in_the_log_does_not_replay(game, variant, options):
    """Recorded outcomes were used in order wherever they stood, so a deal moved after move 5
    replayed ok, while ``show --at 3`` (the lines before move 4) dropped it and drew another.
    (Moved past another draw, it is the wrong draw, refused as ever.)"""
    from arbiter.engine import registry

    whole = play_random(registry.get(game), variant, 3, options=options)
    lines = tr.dump(whole).splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("- {move")) - 1  # the setup's last draw
    after = next(i for i, line in enumerate(lines) if line.startswith("- {move: {n: 5,"))
    moved = lines[:first] + lines[first + 1:after + 1] + [lines[first]] + lines[after + 1:]
    assert tr.replay(tr.parse("".join(lines))).ok
    report = tr.replay(tr.parse("".join(moved)))
    at = first - lines.index("log:\n") - 1  # (the chance line's place in the log)
    assert len(report.problems) == 1 and report.problems[0].startswith(f"log[{at}] is ")
    assert report.problems[0].endswith("(a chance outcome stands where the game draws it)")


@pytest.mark.parametrize("where, note", [("first", "{seat: mafia, forfeit: hello}"),  # before the deal's draws
                                         ("after move 1", '{seat: mafia, forfeit: "a\\x1b[2Jb"}')])  # unescaped
def test_a_note_moved_or_edited_by_hand_does_not_replay_and_the_reason_says_it_is_the_note(where, note):
    """A note is kept where it stands and as arbiter writes it (one printable line); one moved
    before the chance lines, or holding a control character arbiter writes escaped, was
    refused as "a chance outcome stands where the game draws it", which sent the reader to
    the chance lines."""
    lines = tr.dump(Session(FBI, "duel-3v3", seed=1)).splitlines(keepends=True)
    log = lines.index("log:\n") + 1
    at = log if where == "first" else log + 3  # (the duel's two draws, then its first move)
    lines.insert(at, f"- {{note: {note}}}\n")
    if where != "first":
        lines.insert(log + 2, "- {move: {n: 1, seat: mafia, text: shift row 1 left, time: 1}}\n")
    report = tr.replay(tr.parse("".join(lines)))
    assert len(report.problems) == 1, report.problems
    assert report.problems[0].endswith("(a note stands where it was written, as arbiter writes it: one printable "
                                       "line, a control character escaped)"), report.problems


def test_recorded_outcomes_are_reused_in_order():
    recorded = [ChanceRecord("deck", ["c", "a", "b"]), ChanceRecord("pick", ["b"]), ChanceRecord("die", [6]),
                ChanceRecord("deck", ["b", "c", "a"])]
    seen = []
    c = Chance(1, recorded, on_record=seen.append)
    assert c.shuffle("deck", ["a", "b", "c"]) == ["c", "a", "b"]
    assert c.unused == recorded[1:]
    assert c.choice("pick", ["a", "b", "c"]) == "b"
    assert c.randint("die", 1, 6) == 6
    assert c.shuffle("deck", ["a", "b", "c"]) == ["b", "c", "a"]
    assert c.unused == []
    assert seen == recorded == c.records


@pytest.mark.parametrize("end", [1, 6])
def test_a_recorded_integer_at_either_end_of_its_range_is_reused(end):
    assert Chance(1, [ChanceRecord("die", [end])]).randint("die", 1, 6) == end  # strict: a misfit would raise


@pytest.mark.parametrize("bad", [ChanceRecord("other", ["a", "b", "c"]), ChanceRecord("deck", ["a", "b"]),
                                 ChanceRecord("deck", ["a", "b", "d"])])
def test_strict_chance_refuses_an_outcome_that_does_not_fit(bad):
    with pytest.raises(ChanceMismatchError):
        Chance(1, [bad]).shuffle("deck", ["a", "b", "c"])
    with pytest.raises(ChanceMismatchError):
        Chance(1, [ChanceRecord("die", [7])]).randint("die", 1, 6)
    with pytest.raises(ChanceMismatchError):
        Chance(1, [ChanceRecord("pick", ["z"])]).choice("pick", ["a", "b"])


def test_lenient_chance_draws_anew_from_a_mismatch_on():
    recorded = [ChanceRecord("deck", ["c", "a", "b"]), ChanceRecord("die", [9]), ChanceRecord("deck", ["a", "b", "c"])]
    c = Chance(3, recorded, strict=False)
    assert c.shuffle("deck", ["a", "b", "c"]) == ["c", "a", "b"]
    value = c.randint("die", 1, 6)
    assert 1 <= value <= 6
    assert c.unused == []  # the rest is dropped


def _changed_generator(monkeypatch) -> None:
    """Stand-in for a future change of the random generator: it still runs (the generator is
    kept in step with recorded outcomes) but produces different outcomes."""
    monkeypatch.setattr(random.Random, "shuffle", lambda self, x: x.reverse())
    monkeypatch.setattr(random.Random, "randrange", lambda self, *a, **k: 0)
    monkeypatch.setattr(random.Random, "randint", lambda self, low, high: low)


def test_replay_survives_a_changed_generator(monkeypatch, finished):
    texts = {mode: tr.dump(s) for mode, s in finished.items()}
    _changed_generator(monkeypatch)
    assert Chance(1).shuffle("x", [1, 2, 3]) == [3, 2, 1]  # the patch is in force
    for mode, text in texts.items():
        report = tr.replay(tr.parse(text))
        assert report.ok, (mode, report.problems)
        assert tr.dump(report.session) == text


def test_replay_of_a_game_with_a_mid_game_chance_uses_the_recorded_outcome(monkeypatch):
    s = Session(FBI, "duel-3v3", seed=11)
    while not has_rebuild(s):
        assert not s.over and len(s.moves) < 400, "precondition: the deck burner forces a rebuild"
        s.submit(*deck_burner(s))
    for _ in range(5):
        s.submit(*deck_burner(s))
    text = tr.dump(s)
    _changed_generator(monkeypatch)
    report = tr.replay(tr.parse(text))
    assert report.ok, report.problems
    assert tr.dump(report.session) == text


def test_draws_after_the_recorded_outcomes_continue_the_original_sequence():
    items = list(range(30))
    original = Chance(7)
    first = original.shuffle("a", items)
    second = original.shuffle("b", items)
    resumed = Chance(7, [ChanceRecord("a", first)])
    assert resumed.shuffle("a", items) == first
    assert resumed.shuffle("b", items) == second


# =========================================================================== time
@given(st.integers(min_value=0, max_value=999_999_999_999))
def test_seconds_round_trip(ms):
    name = seconds_name(ms)
    assert parse_seconds(name) == ms
    assert name == name.strip() and not name.endswith(".") and not (("." in name) and name.endswith("0"))
    assert len(name.partition(".")[2]) <= 3


@given(st.integers(0, 999_999_999), st.text(alphabet="0123456789", max_size=3))
def test_parsed_decimal_text_names_the_same_time(whole, frac):
    text = f"{whole}.{frac}" if frac else str(whole)
    ms = parse_seconds(text)
    assert ms == whole * 1000 + (int(frac.ljust(3, "0")) if frac else 0)
    assert parse_seconds(seconds_name(ms)) == ms
    assert float(seconds_name(ms)) == float(text)


@pytest.mark.parametrize("bad", ["-1", "1.2345", "", "x", "1e3", "1,5", "+1", "1.5.5", " 1", "1 ", "1.", "-0"])
def test_bad_seconds_are_refused(bad):
    with pytest.raises(SyntaxInputError):
        parse_seconds(bad)


SCHEDULE = ["@0.001", "", "@1.5", "@2", "", "tick@3.25", "@60", "", "@61.999", "@3600.5", "", "@123456.789",
            "@123456.789", "", "@999999999.999"]
CLOCKS = [1, 1001, 1500, 2000, 3000, 4250, 60000, 61000, 61999, 3600500, 3601500, 123456789, 123456789,
          123457789, 999999999999]


def test_times_in_transcripts_replay_exactly(tmp_path):
    whole = play_random(FBI, "standard-3v3", 3)
    session = Session(FBI, "standard-3v3", seed=3)
    path = tmp_path / "timed.yaml"
    writer = tr.TranscriptWriter(path, session)
    p = Protocol(session)
    for stamp, m in zip(SCHEDULE, whole.moves):
        if stamp.startswith("tick"):
            assert p.handle(f"{stamp[4:]} time").startswith("= ")
            stamp = ""
        line = f"{stamp} {m.seat} {m.text}"
        assert p.handle(line).startswith("= "), line
    writer.close()
    times = [m.time_ms for m in session.moves]
    assert times == CLOCKS
    report = tr.replay(tr.read(path))
    assert report.ok, report.problems
    assert [m.time_ms for m in report.session.moves] == times
    assert report.session.clock_ms == session.clock_ms
    assert tr.dump(report.session) == path.read_text(encoding="utf-8")


@functools.cache
def _duel_moves() -> tuple:
    return tuple(moves_of(play_random(FBI, "duel-3v3", 2)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(st.one_of(st.none(), st.integers(0, 10**8)), min_size=1, max_size=12),
       ticks=st.lists(st.booleans(), min_size=12, max_size=12))
def test_any_times_replay_exactly(steps, ticks):
    session = Session(FBI, "duel-3v3", seed=2)
    for k, (step, (seat, text, _)) in enumerate(zip(steps, _duel_moves())):
        if ticks[k]:
            session.advance_to(session.clock_ms + 7)
        at = None if step is None else session.clock_ms + step
        session.submit(seat, text, at)
    text = tr.dump(session)
    report = tr.replay(tr.parse(text))
    assert report.ok, report.problems
    assert [m.time_ms for m in report.session.moves] == [m.time_ms for m in session.moves]
    assert report.session.clock_ms == session.clock_ms
    assert tr.dump(report.session) == text


def test_a_clock_stepped_past_the_largest_stamp_still_replays():
    session = Session(FBI, "standard-3v3", seed=1)
    p = Protocol(session)
    assert p.handle("@999999999.999 bandit shift row 1 right").startswith("= ")
    if p.handle("undercover shift row 1 right").startswith("= "):  # accepted: it must replay
        now = p.handle("time").split("time: ")[1].strip()
        assert p.handle(f"@{now} time").startswith("= ")
        report = tr.replay(tr.parse(tr.dump(session)))
        assert report.ok, report.problems

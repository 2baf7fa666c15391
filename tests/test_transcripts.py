"""Transcripts (docs/transcripts.md): determinism, dump/parse/replay round trips, tamper
detection, incremental writing, crash tolerance, resuming, recorded chance, and time.

Known bugs are pinned by ``xfail(strict=True)`` tests (search for ``bug:``).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.chance import Chance, ChanceRecord
from arbiter.engine.clock import parse_seconds, seconds_name
from arbiter.engine.errors import ChanceMismatchError, SyntaxInputError, TranscriptError
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------------------------ helpers
def moves_of(session: Session) -> list[tuple[str, str, int]]:
    return [(m.seat, m.text, m.time_ms) for m in session.moves]


def replay_moves(mode: str, seed: int, moves, *, until: int | None = None) -> Session:
    s = Session(FBI, mode, seed=seed)
    for seat, text, t in moves[:until]:
        s.submit(seat, text, t)
    return s


def roundtrip(session: Session) -> tr.ReplayReport:
    return tr.replay(tr.parse(tr.dump(session)))


def log_index(t: tr.Transcript, pred) -> int:
    return next(i for i, e in enumerate(t.log) if pred(e))


def deck_burner(session: Session) -> tuple[str, str]:
    """A deterministic policy that draws identity cards whenever it can (forcing a deck
    rebuild, a chance outcome drawn mid-game) and otherwise plays the first legal input."""
    awaited = session.state.awaiting()[0]
    legal = [m for m in session.state.legal_inputs(awaited.seat) if m != "surrender"]
    for preferred in ("masquerade", "inspect", "protect no", "detonate no"):
        if preferred in legal:
            return awaited.seat, preferred
    return awaited.seat, legal[0]


def has_rebuild(session: Session) -> bool:
    return any("chance" in e and e["chance"]["what"] == "identity-deck-rebuilt" for e in session.entries)


@pytest.fixture(scope="module")
def finished() -> dict[str, Session]:
    """One whole random game per mode."""
    out = {mode: play_random(FBI, mode, 4) for mode in MODES}
    for s in out.values():
        assert s.over, "precondition: the random game ends"
    return out


# =========================================================================== determinism
@pytest.mark.parametrize("mode", MODES)
def test_same_seed_same_transcript_bytes(mode, finished, tmp_path):
    first = tr.dump(finished[mode])
    second = tr.dump(play_random(FBI, mode, 4))
    assert first == second
    assert first != tr.dump(play_random(FBI, mode, 5)), "different seeds should give different games"
    # the same game written as it goes gives the same bytes
    path = tmp_path / "game.yaml"
    session = Session(FBI, mode, seed=4)
    writer = tr.TranscriptWriter(path, session)
    for seat, text, t in moves_of(finished[mode]):
        session.submit(seat, text, t)
    writer.close()
    assert path.read_bytes() == first.encode("utf-8")
    # and the same inputs through the protocol, too
    path2 = tmp_path / "game2.yaml"
    session2 = Session(FBI, mode, seed=4)
    writer2 = tr.TranscriptWriter(path2, session2)
    p = Protocol(session2)
    for m in finished[mode].moves:
        assert p.handle(f"{m.seat} {m.text}").startswith("= ")
    writer2.close()
    assert path2.read_bytes() == first.encode("utf-8")


def test_transcripts_are_identical_across_processes_and_hash_seeds(finished):
    """Byte-identical across processes, whatever Python's string hash seed is."""
    code = (
        "import hashlib, sys\n"
        "from arbiter.engine import registry, transcript as tr\n"
        "from arbiter.engine.bench import play_random\n"
        "R = registry.get('fbi-mafia')\n"
        f"for mode in {MODES!r}:\n"
        "    print(hashlib.sha256(tr.dump(play_random(R, mode, 4)).encode()).hexdigest())\n"
    )
    expected = [hashlib.sha256(tr.dump(finished[m]).encode()).hexdigest() for m in MODES]
    for hash_seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300, check=True).stdout.split()
        assert out == expected, f"PYTHONHASHSEED={hash_seed} gives other transcripts"


# =========================================================================== round trip
@pytest.mark.parametrize("mode", MODES)
def test_dump_parse_replay_round_trip(mode, finished):
    session = finished[mode]
    text = tr.dump(session)
    t = tr.parse(text)
    assert t.finished and t.game == "fbi-mafia" and t.variant == mode and t.seed == 4
    assert t.seats == list(session.seats)
    assert t.data == session.variant.data_hash
    assert t.log == session.entries
    report = tr.replay(t)
    assert report.ok, report.problems
    assert report.moves == len(session.moves)
    assert report.session.events.digest() == session.events.digest() == t.events["digest"]
    assert len(report.session.events) == t.events["count"]
    assert report.session.state.result.as_dict() == t.result
    assert tr.dump(report.session) == text


def test_unfinished_transcript_round_trip():
    session = Session(FBI, "duel-3v3", seed=9)
    whole = play_random(FBI, "duel-3v3", 9)
    for seat, text, t in moves_of(whole)[:30]:
        session.submit(seat, text, t)
    t = tr.parse(tr.dump(session))
    assert not t.finished and t.result is None and t.events is None
    report = tr.replay(t)
    assert report.ok, report.problems
    assert report.moves == 30
    assert tr.dump(report.session) == tr.dump(session)


@pytest.fixture()
def transcript(finished) -> tr.Transcript:
    return tr.parse(tr.dump(finished["standard-3v3"]))


def test_replay_detects_a_tampered_move(transcript):
    t = copy.deepcopy(transcript)
    # the undercover only ever shifts by 1: a shift by 2 is well formed but illegal
    i = log_index(t, lambda e: "move" in e and e["move"]["seat"] == "undercover")
    t.log[i]["move"]["text"] = "shift row 1 right 2"
    report = tr.replay(t)
    assert not report.ok
    assert any(f"log[{i}]" in p and "illegal" in p for p in report.problems), report.problems


def test_replay_detects_a_move_by_the_wrong_seat(transcript):
    t = copy.deepcopy(transcript)
    i = log_index(t, lambda e: "move" in e and e["move"]["seat"] == "bandit")
    t.log[i]["move"]["seat"] = "operative"
    report = tr.replay(t)
    assert any(f"log[{i}]" in p and "not-your-turn" in p for p in report.problems), report.problems


def test_replay_detects_a_removed_move(transcript):
    t = copy.deepcopy(transcript)
    i = log_index(t, lambda e: "move" in e and e["move"]["n"] == 5)
    del t.log[i]
    assert not tr.replay(t).ok


def test_replay_detects_a_tampered_move_in_the_text(finished):
    text = tr.dump(finished["standard-3v3"])
    lines = text.splitlines(keepends=True)
    n = next(k for k, line in enumerate(lines) if line.startswith("- {move:") and "seat: undercover" in line)
    parsed = yaml.safe_load(lines[n])[0]
    parsed["move"]["text"] = "shift row 1 right 2"
    lines[n] = "- " + yaml.safe_dump(parsed, default_flow_style=True, width=1 << 20).strip() + "\n"
    t = tr.parse("".join(lines))
    index = t.log.index(parsed)
    report = tr.replay(t)
    assert any(f"log[{index}]" in p for p in report.problems), report.problems


def test_replay_detects_a_tampered_result(transcript, finished):
    t = copy.deepcopy(transcript)
    t.result["winner"] = "fbi" if t.result["winner"] == "mafia" else "mafia"
    report = tr.replay(t)
    assert any("result differs" in p for p in report.problems), report.problems
    t2 = copy.deepcopy(transcript)
    t2.result["text"] = "Nobody wins."
    assert not tr.replay(t2).ok


def test_replay_detects_a_tampered_event_digest(transcript):
    t = copy.deepcopy(transcript)
    t.events["digest"] = "sha256:" + "0" * 64
    report = tr.replay(t)
    assert any("event log" in p for p in report.problems), report.problems
    t2 = copy.deepcopy(transcript)
    t2.events["count"] += 1
    assert not tr.replay(t2).ok


def test_replay_update_repairs_a_tampered_result(transcript, finished):
    original = tr.dump(finished["standard-3v3"])
    t = copy.deepcopy(transcript)
    t.result = {**t.result, "winner": "nobody", "text": "made up"}
    t.events = {"count": 1, "digest": "sha256:bad"}
    assert not tr.replay(t).ok
    report = tr.replay(t, update=True)
    assert report.ok, report.problems
    repaired = tr.dump(report.session)
    assert repaired == original
    again = tr.replay(tr.parse(repaired))
    assert again.ok, again.problems


def test_replay_detects_changed_data_hash_and_update_rewrites_it(transcript, finished):
    t = copy.deepcopy(transcript)
    t.data = "sha256:" + "f" * 64
    report = tr.replay(t)
    assert any("scenario data changed" in p for p in report.problems), report.problems
    fixed = tr.replay(t, update=True)
    assert fixed.ok, fixed.problems
    assert tr.dump(fixed.session) == tr.dump(finished["standard-3v3"])


def test_replay_detects_changed_seats(transcript):
    t = copy.deepcopy(transcript)
    t.seats = list(reversed(t.seats))
    assert any("seats" in p for p in tr.replay(t).problems)


@pytest.mark.parametrize("tamper", ["label", "missing-name", "duplicate-name", "wrong-type"])
def test_replay_detects_a_chance_outcome_that_does_not_fit(transcript, tamper):
    t = copy.deepcopy(transcript)
    i = log_index(t, lambda e: "chance" in e and e["chance"]["what"] == "identity-deck")
    chance = t.log[i]["chance"]
    if tamper == "label":
        chance["what"] = "identity-decks"
    elif tamper == "missing-name":
        chance["outcome"] = chance["outcome"][:-1]
    elif tamper == "duplicate-name":
        chance["outcome"] = chance["outcome"][:-1] + chance["outcome"][:1]
    else:
        chance["outcome"] = list(range(len(chance["outcome"])))
    report = tr.replay(t)
    assert not report.ok
    assert any("chance" in p for p in report.problems), report.problems
    with pytest.raises(ChanceMismatchError):
        Session(FBI, t.variant, seed=t.seed, recorded=t.chance)


def test_replay_detects_a_reordered_chance_outcome(transcript):
    """A permutation of the board still fits the request, but the game then differs."""
    t = copy.deepcopy(transcript)
    i = log_index(t, lambda e: "chance" in e and e["chance"]["what"] == "board")
    outcome = t.log[i]["chance"]["outcome"]
    outcome[0], outcome[-1] = outcome[-1], outcome[0]
    assert not tr.replay(t).ok


def test_replay_reports_unused_chance_outcomes(transcript):
    t = copy.deepcopy(transcript)
    t.log.append({"chance": {"what": "identity-deck-rebuilt", "outcome": ["Ada"]}})
    report = tr.replay(t)
    assert any("never used" in p for p in report.problems), report.problems


def test_replay_ignores_notes(transcript):
    t = copy.deepcopy(transcript)
    t.log.insert(5, {"note": {"seat": "bandit", "forfeit": "test"}})
    assert tr.replay(t).ok


def test_replay_names_a_refused_tick_by_its_time(transcript):
    """A tick the clock cannot take (it runs backwards) is refused by its place and its time,
    as a refused move is by its words."""
    t = copy.deepcopy(transcript)
    i = log_index(t, lambda e: "move" in e and e["move"]["n"] == 4)
    assert t.log[i]["move"]["time"] > 1, "precondition: the fourth move is stamped after 1 s"
    t.log.insert(i + 1, {"tick": {"time": 1}})
    report = tr.replay(t)
    assert not report.ok
    assert report.problems == [f"log[{i + 1}] {{'time': 1}}: refused on replay: time: "
                               f"time 1 is before the clock ({t.log[i]['move']['time']}); the clock never runs backwards"]
    assert len(report.session.moves) == 4  # it stopped there


def test_until_keeps_each_position_with_the_chance_its_moves_drew():
    """``until(k)``: the first k moves, each followed by the chance outcomes it drew, and nothing
    of the k+1-th; the whole game at its last move, and no position outside the game."""
    t = tr.parse(tr.dump(play_random(FBI, "duel-3v3", 8)))  # a game whose identity deck is rebuilt mid-game
    moves = [k for k, e in enumerate(t.log) if "move" in e]
    assert t.move_count == len(moves) and any("chance" in e for e in t.log[moves[0]:])  # the case is there
    for k in range(t.move_count + 1):
        cut = t.until(k)
        end = moves[k] if k < len(moves) else len(t.log)  # the k+1-th move's place
        assert cut.log == t.log[:end], k
        assert cut.move_count == k and (cut.result is None) == (k < t.move_count)
    for k in (-1, t.move_count + 1):
        with pytest.raises(TranscriptError, match=f"has only {t.move_count} moves; there is no position after {k}"):
            t.until(k)


def test_a_closed_writer_hears_no_more_of_its_session(tmp_path):
    """Closing a writer takes it off the session's listeners: the game may go on (a caller that
    stopped recording), the file stays as closed, and a second writer can take over."""
    whole = play_random(FBI, "standard-3v3", 2)
    session = Session(FBI, "standard-3v3", seed=2)
    path = tmp_path / "first.yaml"
    writer = tr.TranscriptWriter(path, session)
    moves = moves_of(whole)
    for seat, text, t in moves[:5]:
        session.submit(seat, text, t)
    writer.close()
    assert session.listeners == []
    closed = path.read_bytes()
    for seat, text, t in moves[5:10]:
        session.submit(seat, text, t)  # no write to a closed file
    assert path.read_bytes() == closed
    writer.close()  # twice is harmless
    assert tr.parse(closed.decode("utf-8")).move_count == 5


@pytest.mark.parametrize("bad", [
    "not: a transcript\n", "- a list\n", "format: 2\n", "", "format: 1\ngame: fbi-mafia\n",
])
def test_parse_rejects_non_transcripts(bad):
    with pytest.raises(TranscriptError):
        tr.parse(bad)


def test_parse_rejects_a_malformed_log_entry_naming_it(finished):
    text = tr.dump(finished["duel-3v3"]).replace("- {move: {n: 3,", "- {mvoe: {n: 3,", 1)
    with pytest.raises(TranscriptError, match=r"log\[\d+\]"):
        tr.parse(text)


@pytest.mark.parametrize(("entry", "problem"), [
    ("[1, 2]", "expected one of {chance: ...}, {move: ...}, {tick: ...}, {note: ...}"),
    ("{tick: {time: 1}, note: {a: b}}", "expected one of {chance: ...}, {move: ...}, {tick: ...}, {note: ...}"),
    ("{move: [p1, pass]}", "move: expected a mapping"),
    ("{chance: {what: 3, outcome: [a]}}", "chance: needs what (text) and outcome (list)"),
    ("{chance: {what: deal, outcome: a}}", "chance: needs what (text) and outcome (list)"),
    ("{move: {n: 1, seat: 7, text: pass, time: 1}}", "move: needs seat and text"),
    ("{move: {n: 1, seat: bandit, text: [pass], time: 1}}", "move: needs seat and text"),
    ("{undo: {n: 1}}", "unknown entry 'undo'"),
    ("{move: {n: 1, seat: bandit, text: pass, time: soon}}", "move: time must be seconds (a number not below 0), found 'soon'"),
    ("{move: {n: 1, seat: bandit, text: pass}}", "move: time must be seconds (a number not below 0), found None"),
    ("{tick: {time: -1}}", "tick: time must be seconds (a number not below 0), found -1"),
    ("{tick: {time: true}}", "tick: time must be seconds (a number not below 0), found True"),
])
def test_each_malformed_log_entry_is_refused_by_what_is_wrong_with_it(finished, entry: str, problem: str) -> None:
    """A log entry of the wrong shape is refused with its place and what is wrong with it, for
    each way it can be wrong, before anything replays."""
    text = tr.dump(finished["duel-3v3"])
    text = text.replace("\nlog:\n", f"\nlog:\n- {entry}\n", 1)
    with pytest.raises(TranscriptError) as caught:
        tr.parse(text, "t.yaml")
    assert caught.value.message == f"t.yaml: log[0]: {problem}"


# =========================================================================== written as it goes
def test_every_entry_is_on_disk_after_each_submit(tmp_path):
    path = tmp_path / "live.yaml"
    whole = play_random(FBI, "standard-4v4", 6)
    session = Session(FBI, "standard-4v4", seed=6)
    writer = tr.TranscriptWriter(path, session)
    on_disk = tr.parse(path.read_text(encoding="utf-8"))
    assert on_disk.log == session.entries and len(on_disk.log) >= 2  # the setup's chance is there at once
    assert not on_disk.finished
    for k, (seat, text, t) in enumerate(moves_of(whole)):
        before = len(session.entries)
        session.submit(seat, text, t)
        raw = path.read_text(encoding="utf-8")  # the writer is still open
        log_lines = [line for line in raw.splitlines(keepends=True) if line.startswith("- ")]
        assert len(log_lines) == len(session.entries)
        assert yaml.safe_load("".join(log_lines[before:])) == session.entries[before:]
        assert ("\nresult:" in raw) == session.over
        if k % 25 == 0 or session.over:
            on_disk = tr.parse(raw)
            assert on_disk.log == session.entries and on_disk.notes == []
            assert on_disk.finished == session.over
    assert session.over
    assert on_disk.result == session.state.result.as_dict()
    assert on_disk.events == {"count": len(session.events), "digest": session.events.digest()}
    # refused inputs and meta-commands leave the file alone
    size = path.stat().st_size
    p = Protocol(session)
    for line in ("board", "view", "events", "bandit shift row 1 right", "nobody", "legal bandit"):
        p.handle(line)
    assert path.stat().st_size == size
    writer.close()
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


def test_notes_and_ticks_are_written_as_they_happen(tmp_path):
    path = tmp_path / "live.yaml"
    session = Session(FBI, "standard-3v3", seed=1)
    writer = tr.TranscriptWriter(path, session)
    p = Protocol(session)
    assert p.handle("@4 time").startswith("= ")
    assert tr.parse(path.read_text(encoding="utf-8")).log[-1] == {"tick": {"time": 4}}
    session.note({"seat": "bandit", "forfeit": "testing"})
    assert tr.parse(path.read_text(encoding="utf-8")).log[-1] == {"note": {"seat": "bandit", "forfeit": "testing"}}
    writer.close()
    report = tr.replay(tr.read(path))
    assert report.ok, report.problems
    assert report.session.clock_ms == 4000


def _partial(tmp_path: Path, mode: str = "standard-3v3", seed: int = 3, n: int = 12) -> tuple[Path, Session, Session]:
    whole = play_random(FBI, mode, seed)
    path = tmp_path / "partial.yaml"
    session = Session(FBI, mode, seed=seed)
    writer = tr.TranscriptWriter(path, session)
    for seat, text, t in moves_of(whole)[:n]:
        session.submit(seat, text, t)
    writer.close()
    return path, session, whole


def _cut_cases():
    """(cut position in the last log line) for every place a crash could stop the write."""
    whole = play_random(FBI, "standard-3v3", 3)
    session = replay_moves("standard-3v3", 3, moves_of(whole), until=12)
    last = tr.dump(session).splitlines(keepends=True)[-1]
    assert last.startswith("- ") and last.endswith("\n")
    return list(range(3, len(last) - 1))


@pytest.mark.parametrize("cut", _cut_cases())
def test_a_cut_off_last_line_is_ignored_with_a_note(tmp_path, cut):
    path, session, _ = _partial(tmp_path)
    text = path.read_text(encoding="utf-8")
    head, last = text[: text.rstrip("\n").rindex("\n") + 1], text[text.rstrip("\n").rindex("\n") + 1:]
    assert last.startswith("- ")
    path.write_text(head + last[:cut], encoding="utf-8")
    t = tr.read(path)
    assert t.notes and "cut off" in t.notes[0]
    assert t.log == session.entries[:-1]
    report = tr.replay(t)
    assert report.ok, report.problems


@pytest.mark.parametrize("cut", [1, 2])
def test_a_last_line_cut_after_the_dash_is_ignored_with_a_note(tmp_path, cut):
    path, session, _ = _partial(tmp_path)
    text = path.read_text(encoding="utf-8")
    head = text[: text.rstrip("\n").rindex("\n") + 1]
    path.write_text(head + "- "[:cut], encoding="utf-8")
    t = tr.read(path)
    assert t.notes and t.log == session.entries[:-1]


def test_a_broken_transcript_is_reported_not_crashed(tmp_path):
    path, _, _ = _partial(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("log:\n", "log:\n  - [unclosed\n", 1), encoding="utf-8")
    with pytest.raises(TranscriptError, match=str(path).replace("\\", "\\\\")):
        tr.read(path)


# =========================================================================== resume
@pytest.mark.parametrize("mode,seed,cut", [("standard-3v3", 3, 12), ("duel-4v4", 2, 40), ("standard-4v4", 6, 1),
                                           ("duel-3v3", 9, 0)])
def test_a_partial_transcript_resumes_to_the_same_file(tmp_path, mode, seed, cut):
    path, _, whole = _partial(tmp_path, mode, seed, cut)
    t = tr.read(path)
    assert not t.finished
    report = tr.replay(t)
    assert report.ok, report.problems
    resumed = report.session
    writer = tr.TranscriptWriter(path, resumed, resume=len(t.log))
    for seat, text, at in moves_of(whole)[cut:]:
        resumed.submit(seat, text, at)
    writer.close()
    one_go = tmp_path / "one-go.yaml"
    s = Session(FBI, mode, seed=seed)
    w = tr.TranscriptWriter(one_go, s)
    for seat, text, at in moves_of(whole):
        s.submit(seat, text, at)
    w.close()
    assert path.read_bytes() == one_go.read_bytes() == tr.dump(whole).encode("utf-8")
    assert tr.replay(tr.read(path)).ok


def test_resume_twice(tmp_path):
    path, _, whole = _partial(tmp_path, "standard-3v3", 3, 5)
    moves = moves_of(whole)
    for stop in (20, 50, len(moves)):
        t = tr.read(path)
        report = tr.replay(t)
        assert report.ok, report.problems
        writer = tr.TranscriptWriter(path, report.session, resume=len(t.log))
        for seat, text, at in moves[report.moves:stop]:
            report.session.submit(seat, text, at)
        writer.close()
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


def test_resume_after_a_crash_mid_line(tmp_path):
    path, session, whole = _partial(tmp_path, "standard-3v3", 3, 12)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:-10], encoding="utf-8")  # the crash cut the last entry
    t = tr.read(path)
    assert t.notes
    report = tr.replay(t)
    assert report.ok, report.problems
    writer = tr.TranscriptWriter(path, report.session, resume=len(t.log))
    for seat, text_, at in moves_of(whole)[report.moves:]:
        report.session.submit(seat, text_, at)
    writer.close()
    final = tr.read(path)
    assert final.notes == []
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


def test_resume_before_a_mid_game_chance_gives_the_same_game(tmp_path):
    mode, seed = "standard-3v3", 11
    whole = Session(FBI, mode, seed=seed)
    while not has_rebuild(whole):
        assert not whole.over and len(whole.moves) < 400, "precondition: the deck burner forces a rebuild"
        whole.submit(*deck_burner(whole))
    for _ in range(10):
        whole.submit(*deck_burner(whole))
    n = len(whole.moves)

    path = tmp_path / "partial.yaml"
    s = Session(FBI, mode, seed=seed)
    w = tr.TranscriptWriter(path, s)
    for _ in range(20):
        s.submit(*deck_burner(s))
    w.close()
    assert not has_rebuild(s)
    t = tr.read(path)
    report = tr.replay(t)
    assert report.ok, report.problems
    resumed = report.session
    w = tr.TranscriptWriter(path, resumed, resume=len(t.log))
    while len(resumed.moves) < n:
        resumed.submit(*deck_burner(resumed))
    w.close()
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


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


# =========================================================================== fast lines
_WORDS = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
    st.text(alphabet="abcXYZ019 _.'/()-:;#,[]{}!&*?|>%@`\"", max_size=12),
    st.sampled_from(["yes", "No", "null", "on", "OFF", "1.5", "12", "0x1f", "1e3", "~", "-", "a: b", "a #b", " a", "a "]),
)
_SCALARS = st.one_of(_WORDS, st.integers(-10**12, 10**12), st.booleans(), st.none(),
                     st.integers(0, 10**9).map(lambda ms: ms / 1000), st.floats(allow_nan=True))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(_WORDS, inner, max_size=3)), max_leaves=12)


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
    cut loses at most SYNC_EVERY_S (a sync follows every write within that); syncs are batched."""
    import time as clock

    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(clock.monotonic()), real(fd)))
    whole = play_random(FBI, "standard-3v3", 4)
    path = tmp_path / "t.yaml"
    session = Session(FBI, "standard-3v3", seed=4)
    writer = tr.TranscriptWriter(path, session)
    for seat, text, at in moves_of(whole)[:60]:
        last_write = clock.monotonic()
        session.submit(seat, text, at)
        assert path.read_text(encoding="utf-8").count("{move:") == len(session.moves)  # flushed already
    assert len(synced) < 20, f"{len(synced)} syncs for 60 moves: they are not batched"
    clock.sleep(tr.SYNC_EVERY_S * 2.5)
    assert synced[-1] >= last_write  # the last write was synced after it was made, on its own
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


def test_a_tournaments_writer_writes_the_same_file_synced_once_at_its_close(tmp_path, monkeypatch):
    """``durable=False`` (a tournament's games, whose record is the results line written after):
    the same bytes as the durable writer's, through the buffer, one sync at the close; cut
    anywhere before then, the file still replays as far as it goes."""
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    whole = play_random(FBI, "standard-3v3", 6)
    path = tmp_path / "t.yaml"
    session = Session(FBI, "standard-3v3", seed=6)
    writer = tr.TranscriptWriter(path, session, durable=False)
    for seat, text, at in moves_of(whole):
        session.submit(seat, text, at)
    assert session.over and not synced
    writer.close()
    assert len(synced) == 1
    assert path.read_text(encoding="utf-8") == tr.dump(session)
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

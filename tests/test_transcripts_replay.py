"""Transcripts (docs/transcripts.md): determinism, and dump/parse/replay round
trips with tamper detection.

Known bugs are pinned by ``xfail(strict=True)`` tests (search for ``bug:``). Shared games,
policies and strategies: ``tests/transcript_staging.py``.
"""

from __future__ import annotations

import copy
import hashlib
import os
import re
import subprocess
import sys

import hypothesis
import hypothesis.strategies as st
import pytest
import yaml

from arbiter.engine import transcript as tr
from arbiter.engine import transcript_reader as reader
from arbiter.engine.bench import play_random
from arbiter.engine.clock import MAX_MS
from arbiter.engine.errors import ChanceMismatchError, TranscriptError
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from arbiter.engine.session import _time as session_time

from tests.helpers import precondition, run
from tests.transcript_staging import FBI, MODES, ROOT, log_index, moves_of
from tests.transcript_staging import finished  # noqa: F401 (a fixture, asked for by name)


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
    with pytest.raises(ChanceMismatchError) as caught:
        Session(FBI, t.variant, seed=t.seed, recorded=t.chance)
    n = sum(1 for e in t.log[:i + 1] if "chance" in e)  # the message says why it does not fit
    assert caught.value.message.startswith(f"chance outcome {n}: the game asked for 'identity-deck', ")
    size = len(transcript.log[i]["chance"]["outcome"])
    assert ("the transcript has 'identity-decks' there ([" if tamper == "label" else
            f"is not an order of the {size} items it shuffles") in caught.value.message


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
    t = tr.parse(tr.dump(play_random(FBI, "duel-3v3", 14)))  # a game whose identity deck is rebuilt mid-game
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
    ("{tick: {time: .nan}}", "tick: time must be seconds (a number not below 0), found nan"),
    ("{tick: {time: .inf}}", "tick: time must be seconds (a number not below 0), found inf"),
    ("{tick: {time: 1.0004}}", "tick: time 1.0004 is finer than a millisecond (at most 3 decimals)"),
    ("{tick: {time: 1000000000}}", "tick: time 1000000000 is later than the clock runs (999999999.999 seconds at most)"),
    ("{move: {n: 1, seat: bandit, text: pass, time: 1, by: me}}", "move: unknown key 'by' (a move has n, seat, text, time)"),
    ("{tick: {time: 1, why: slow}}", "tick: unknown key 'why' (a tick has time)"),
    ("{chance: {what: deal, outcome: [a], seen: [p1]}}", "chance: unknown key 'seen' (a chance has what, outcome)"),
])
def test_each_malformed_log_entry_is_refused_by_what_is_wrong_with_it(finished, entry: str, problem: str) -> None:
    """A log entry of the wrong shape is refused with its place and what is wrong with it, for
    each way it can be wrong, before anything replays."""
    text = tr.dump(finished["duel-3v3"])
    text = text.replace("\nlog:\n", f"\nlog:\n- {entry}\n", 1)
    with pytest.raises(TranscriptError) as caught:
        tr.parse(text, "t.yaml")
    assert caught.value.message == f"t.yaml: log[0]: {problem}"


# ---------------------------------------------------------------------- what the reader refuses
@pytest.mark.parametrize("edit, refusal", [
    # (the value as the file writes it: it was Python's True, ['fbi-mafia'], datetime.date(2001, 12, 14))
    (("seed: 1\n", "seed: true\n"), "seed: true is not a whole number"),
    (("seed: 1\n", "seed: 2001-12-14\n"), "seed: 2001-12-14 (a date, as YAML reads it) is not a whole number"),
    (("seed: 1\n", ""), "seed: missing (a transcript's header gives game, variant, data, seed and seats)"),
    (("game: fbi-mafia\n", "game: [fbi-mafia]\n"), "game: [fbi-mafia] is not text"),
    (("format: 1\n", ""), "t.yaml: no format: not an arbiter transcript (one begins with 'format: 1')"),
    (("format: 1\n", "format: 1.0\n"), "format 1.0 is not supported"),
    (("seats:", "comment: edited by hand\nseats:"), "unknown key 'comment'"),
    # an option named by a number: FBI vs Mafia's refusal sorted the names, a TypeError's traceback
    (("options: {}\n", "options: {1: 2}\n"), "t.yaml (line {line}): options: the key 1 is not text"),
    (("events: {count:", "events: {by: me, count:"), "events: unknown key 'by' (events has count, digest)"),
    (("{n: 3,", "{n: 4,"), "log[4]: move n: 4, but it is move 3 of the log"),
    (("{n: 2,", "{n: true,"), "move n: True, but it is move 2"),
    (("{n: 2,", "{n: 2.0,"), "move n: 2.0, but it is move 2"),  # (a number, not the whole number the writer writes)
    # a key given twice (YAML keeps the last one silently): in the header, a log line, the ending
    (("seed: 1\n", "seed: 1\nseed: 2\n"), "t.yaml (line {line+1}): not valid YAML: the key 'seed' is given twice"),
    (("{n: 2, seat:", "{n: 2, n: 2, seat:"), "t.yaml (line {line}): not valid YAML: the key 'n' is given twice"),
    (("\nresult:", "\nresult: {winner: mafia}\nresult:"),
     "t.yaml (line {line+1}): not valid YAML: the key 'result' is given twice"),
])
def test_an_edited_transcript_is_refused_where_it_was_edited(tmp_path, edit, refusal):
    """Fields the replay does not otherwise re-derive are checked as read: a changed move number,
    a seed or format of another type, a key no transcript has or one given twice; each was once
    read as if whole."""
    session = play_random(FBI, "standard-3v3", 1)
    text = tr.dump(session)
    old, new = edit
    precondition(text.count(old) >= 1, f"no {old!r} to edit")
    line = text[:text.index(old) + (old[0] == "\n")].count("\n") + 1  # where the edit begins
    refusal = refusal.replace("{line}", str(line)).replace("{line+1}", str(line + 1))
    with pytest.raises(TranscriptError, match=re.escape(refusal)):
        tr.parse(text.replace(old, new, 1), "t.yaml")
    assert tr.replay(tr.parse(text)).ok


@pytest.mark.parametrize("ending, problem", [
    ("result: 5\nevents: {count: 1, digest: x}\n", "result: incomplete, though events follow it"),
    ("{result}events: 5\n", "events: expected {count: N, digest: TEXT}, found 5"),
    ("{result}events: \nextra: 1\n", "unexpected key 'extra' (an ending has result, then events)"),
    ("events: {count: 1, digest: x}\nresult:\n  winner: y\n", "result and events out of order"),
    ("events: {count: 1, digest: x}\n", "events without a result"),
    ("result:\n  reason: x\n  winner: y\n", "result: keys reason, winner (the writer writes winner, reason, text"),
    ("result: [mafia]\n", "result: expected a mapping, found list"),
    ("result: winner\n", "result: expected a mapping, found str"),
    # text that does not read as YAML, after an ending or within it: a hand's, not a crash's
    ("{result}events: {count: 1, digest: x}\n---\nformat: 1\n", "text after its events line: '---'"),
    ("{result}events: {count: 1, digest: x}\nnotes: [\n", "text after its events line: 'notes: ['"),
    ("{result}---\n", "a line that is no part of an ending: '---'"),
    ("{result}result: [\n", "a line that is no part of an ending: 'result: ['"),
    ("result:\n  winner: [\nseen by me\n", "a line that is no part of an ending: 'seen by me'"),
])
def test_an_edited_ending_is_not_taken_for_one_a_crash_cut(ending, problem):
    """A crash leaves the start of the ending the writer wrote, which the reader leaves out (the
    moves say how the game ended); an ending that cannot be such a start was edited, and is
    refused rather than quietly dropped (it once was, and the game read as unfinished)."""
    text = tr.dump(play_random(FBI, "standard-3v3", 1))
    head, whole = text[:text.index("\nresult:") + 1], text[text.index("\nresult:") + 1:]
    result = whole[:whole.index("events:")]
    line = head.count("\n") + 1
    with pytest.raises(TranscriptError, match=re.escape(
            f"t.yaml (line {line} on): its ending was edited, not cut off by a crash: {problem}")):
        tr.parse(head + ending.replace("{result}", result), "t.yaml")
    events = whole[whole.index("events:"):]
    for cut in (result[:result.index("reason:")], result, result + "events: ", result + "ev",
                result + events[:-5], result + events[:-5] + "\0" * 100):  # what a crash leaves
        t = tr.parse(head + cut, "t.yaml")
        assert t.result is None and t.notes == ["t.yaml: its ending was cut off; the result follows from the moves"]


def test_replay_update_never_drops_text_after_an_ending(tmp_path):
    """A file holding a second transcript after its ending (``cat a.yaml b.yaml``) read as one
    whose ending a crash cut: ``replay`` said it did not replay, but ``replay --update``
    rewrote it without the second, which was lost. Both refuse it; the file stays."""
    text = tr.dump(play_random(FBI, "standard-3v3", 1))
    path = tmp_path / "t.yaml"
    path.write_text(text + "---\n" + text, encoding="utf-8")
    for update in ([], ["--update"]):
        r = run("replay", *update, path)
        assert r.exit_code == 1 and "its ending was edited, not cut off by a crash: text after its events line: " \
            "'---'" in r.output, r.output
        assert f"FAIL {path}: line " in r.output and r.output.count(str(path)) == 1, r.output  # (named once)
        assert path.read_text(encoding="utf-8") == text + "---\n" + text


def test_a_header_cut_before_its_log_is_no_transcript_to_resume(tmp_path):
    """The header is written whole with its ``log:``; a file without it was cut or edited: it
    once replayed as resumable, and a resume appended entries no reader could place."""
    text = tr.dump(play_random(FBI, "standard-3v3", 1))
    cut = tmp_path / "t.yaml"
    cut.write_text(text[:text.index("\nlog:\n") + 1], encoding="utf-8")
    with pytest.raises(TranscriptError, match=r"log: missing \(a transcript's header ends with 'log:'"):
        tr.read(cut)
    r = run("play", "--resume", cut)
    assert r.exit_code != 0 and "log: missing" in r.output and cut.read_text(encoding="utf-8") == text[:text.index("\nlog:\n") + 1]


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(st.integers(0, MAX_MS))
def test_every_time_the_writer_writes_reads_back_as_itself(ms):
    """The reader refuses a time finer than a millisecond; every time the writer writes passes
    that check and reads back to the same millisecond."""
    value = session_time(ms)
    assert reader._time_problem(value) is None and tr.time_ms(value) == ms


@pytest.mark.parametrize("edit, words", [
    (lambda text: text.replace("\nseats:", "\nbogus: 2\nseats:"), "line 7: unknown key 'bogus'"),
    (lambda text: text.replace("\nseed: 1\n", "\nseed: 1.5\n"), "line 6: seed: 1.5 is not a whole number"),
    (lambda text: text.replace("\noptions: {}\n", "\noptions: [1]\n"), "line 8: options: expected a mapping"),
    (lambda text: text.replace("\nseed: 1\n", '\n"seed": 1.5\n'), "line 6: seed: 1.5 is not a whole number"),
    # the key's words at the start of an earlier line, inside a quoted value: the key's own line
    (lambda text: text.replace("variant: 6-players\n", 'variant: "6-players\nseed: x"\n').replace(
        "\nseed: 1\n", "\nseed: 1.5\n"), "line 7: seed: 1.5 is not a whole number"),
    (lambda text: text.replace("\nseed: 1\n", "\nseed: 1.5\n").replace("\n", "\r"),
     "line 6: seed: 1.5 is not a whole number"),  # (lines ended by CR alone, as the YAML library reads them)
    (lambda text: text.replace("\nseed: 1\n", "\nseed: 1.5\n")[:-20],
     "line 6: seed: 1.5 is not a whole number"),  # (a file a crash cut: its last line torn)
])
def test_a_header_key_refused_is_named_with_its_line(tmp_path, edit, words) -> None:
    """A key or value of the header refused named no line (a log entry, a key given twice and an
    anchor did): the line of the header key it is about."""
    t = tmp_path / "t.yaml"
    assert run("play", "mafia", "--players", 6, "--seed", 1, "--bots", "random", "--transcript", t).exit_code == 0
    with pytest.raises(TranscriptError) as caught:
        tr.parse(edit(t.read_text(encoding="utf-8")), "t.yaml")
    assert str(caught.value).startswith("t.yaml (" + words.replace(": ", "): ", 1)), str(caught.value)

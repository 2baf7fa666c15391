"""Transcripts (docs/transcripts.md): incremental writing, crash tolerance, and
resuming.

Known bugs are pinned by ``xfail(strict=True)`` tests (search for ``bug:``). Shared games,
policies and strategies: ``tests/transcript_staging.py``.
"""

from __future__ import annotations

import errno
import unicodedata
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arbiter.engine import transcript as tr
from arbiter.engine.bench import play_random
from arbiter.engine.errors import TranscriptError
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.transcript_staging import FBI, _partial, deck_burner, has_rebuild, moves_of, replay_moves


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


class _FillsUp:
    """A transcript file on a disk that fills up: the write of ``text`` holding ``at`` writes
    the text's first half, then the system refuses it (ENOSPC), and every later write."""

    def __init__(self, file, at: str) -> None:
        self.file, self.at, self.full = file, at, False

    def write(self, text: str) -> int:
        if self.full or self.at in text:
            self.full = True
            self.file.write(text[: len(text) // 2])
            self.file.flush()
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.file.write(text)

    def __getattr__(self, name):
        return getattr(self.file, name)


def test_a_write_the_disk_refuses_mid_game_stops_the_writer_and_what_it_holds_resumes(tmp_path):
    """A full disk mid-game ended ``play`` with two chained tracebacks and no word of the file.
    The writer raises the system's error (never a refusal of the move), writes nothing more,
    and its close says what happened and how to resume; the file resumes (its torn line goes)."""
    whole = play_random(FBI, "standard-3v3", 2)
    path = tmp_path / "t.yaml"
    session = Session(FBI, "standard-3v3", seed=2)
    writer = tr.TranscriptWriter(path, session)
    writer._file = _FillsUp(writer._file, "n: 6,")
    with pytest.raises(OSError, match="No space left"):
        for move in whole.moves:
            session.submit(move.seat, move.text, move.time_ms)
    assert len(session.moves) == 6 and writer.error is not None
    with pytest.raises(OSError):  # every later entry: the same refusal, nothing written
        session.submit(whole.moves[6].seat, whole.moves[6].text, whole.moves[6].time_ms)
    size = path.stat().st_size
    with pytest.raises(TranscriptError) as caught:
        writer.close()
    assert caught.value.message == (f"cannot write the transcript {path}: No space left on device; what it holds "
                                    f"can be resumed: arbiter play --resume {path}")
    assert path.stat().st_size == size
    t, resumed = tr.resume(path)
    assert [m.text for m in resumed.moves] == [m.text for m in whole.moves[:5]]
    assert any("cut off" in note for note in t.notes)


def test_a_transcript_with_crlf_line_ends_is_read_but_not_resumed(tmp_path):
    """A CRLF transcript (a Windows checkout) resumed: the referee appended LF lines to it, and a
    crash mid-line then left a file that neither replayed nor resumed. It is read and replayed
    as ever; resuming it is refused, and the file is left as it was."""
    whole = play_random(FBI, "standard-3v3", 2)
    path = tmp_path / "t.yaml"
    text = tr.dump(whole)
    cut = text.index("\n", text.index("n: 5,")) + 1  # the game as it stood after five moves
    for end in ("\r\n", "\r"):
        path.write_bytes(text[:cut].replace("\n", end).encode())
        before = path.read_bytes()
        assert tr.replay(tr.read(path)).ok
        with pytest.raises(TranscriptError, match="its lines end in CRLF or CR"):
            tr.resume(path)
        assert path.read_bytes() == before


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


# any character at all: surrogates (which ``characters()`` leaves out unless asked) and the
# characters that end or garble a line asked for apart, or they would rarely come
_ANY_CHAR = st.one_of(st.characters(exclude_categories=()),
                      st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, exclude_categories=()),
                      st.sampled_from("\n\r\t\x00\x1b\x85\u2028\u2029\\"))


@settings(max_examples=150, deadline=None)
@given(st.text(_ANY_CHAR, max_size=30))
@example("bad \udc80 byte")
def test_any_text_in_a_note_is_recorded_printable_and_the_transcript_replays(text):
    """A note's text comes from bots too (an agent's exception); one holding a lone surrogate
    once made the transcript unreadable (\\uDC80 written, which no reader takes). Whatever the
    text, the note is recorded printable, one line, read back as recorded, and the game replays;
    text that was printable already is recorded as it is."""
    session = Session(FBI, "duel-3v3", seed=1)
    session.note({"seat": "bandit", "forfeit": text, "said": {text: [text]}})
    (entry,) = [e["note"] for e in session.entries if "note" in e]
    recorded = entry["forfeit"]
    assert not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in recorded)
    assert entry == {"seat": "bandit", "forfeit": recorded, "said": {recorded: [recorded]}}
    if not any(unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in text):
        assert recorded == text
    t = tr.parse(tr.dump(session))
    assert t.log == session.entries
    assert tr.replay(t).ok


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


def test_a_transcript_being_written_is_written_by_one_process_only(tmp_path) -> None:
    """Two ``play --resume`` of one file at once both appended to it, and the file, with two
    games' lines in one log, read neither way. A writer holds its file's claim (an advisory
    lock) until it is closed: a resume meanwhile is refused before the file is read, saying
    why, and changes nothing; once the writer is closed, the file resumes."""
    from tests.helpers import run

    path = tmp_path / "g.yaml"
    session = Session(FBI, "duel-3v3", seed=3)
    writer = tr.TranscriptWriter(path, session)
    session.submit("mafia", "shift row 1 left")
    held = path.read_bytes()
    with pytest.raises(TranscriptError, match="is being written by another arbiter process"):
        tr.claim(path)
    r = run("play", "--resume", path, "--moves", "/dev/null")
    assert r.exit_code == 1 and "is being written by another arbiter process" in r.output, r.output
    assert "one game, one writer; resume it once that process has ended" in r.output, r.output
    assert path.read_bytes() == held
    # nor is it replaced (--force; Game.save's overwrite): the game went on in the file put out of the way
    r = run("play", "fbi-mafia", "--transcript", path, "--force", "--moves", "/dev/null")
    assert r.exit_code == 1 and "is being written by another arbiter process" in r.output, r.output
    assert "one game, one writer; replace it once that process has ended" in r.output, r.output
    from arbiter.engine.api import new_game

    with pytest.raises(tr.TranscriptInUse):
        new_game("mafia", players=6, seed=1).save(path, overwrite=True)
    assert path.read_bytes() == held
    session.submit("fbi", "shift row 1 left")  # the writer goes on as if nobody had asked
    writer.close()
    t, again = tr.resume(path)
    resumed = tr.TranscriptWriter(path, again, resume=len(t.log))  # claimed now: its own, then
    with pytest.raises(TranscriptError, match="another arbiter process"):
        tr.TranscriptWriter(path, tr.resume(path)[1], resume=len(t.log))
    resumed.close()
    assert [m.text for m in tr.replayed(tr.read(path)).moves] == ["shift row 1 left", "shift row 1 left"]
    tr.claim(path).close()  # every claim let go


def test_a_file_replaced_that_cannot_be_read_is_replaced_as_before(tmp_path, monkeypatch) -> None:
    """--force takes the lock of the file it replaces, opening it to read; one it cannot open
    (no permission: root reads anything, so the opening is made to fail here) cannot be a
    game this process could tell from another's, and is replaced as it was before the lock."""
    path = tmp_path / "g.yaml"
    path.write_text("a file one may not read\n")
    real = Path.open

    def refused(self, mode="r", *args, **kwargs):
        if self == path and mode == "rb":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refused)
    tr.put_whole(path, "the new one\n", replace=True)
    assert path.read_text() == "the new one\n"

"""The tournament's folder as a run keeps it: its results file (a torn last line cut, a line
that is not a game's record refused), its lock, its configuration's format, folders that cannot be
made, the names of the files a worker returns, and the kinds of forfeit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arbiter.engine.arena import stats
from arbiter.engine.arena.results import Folder, FolderError, ResultsWriter, read_results
from tests.helpers import system_can_name


# -- the results file ------------------------------------------------------------------------------


def test_a_torn_last_line_is_ignored_and_cut_before_appending(tmp_path: Path):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"game": 0}) + "\n" + json.dumps({"game": 1}) + "\n" + '{"game": 2, "fin')
    records, end = read_results(path)
    assert [r["game"] for r in records] == [0, 1]
    w = ResultsWriter(path)
    w.append({"game": 2})
    w.close()
    assert [r["game"] for r in read_results(path)[0]] == [0, 1, 2]
    assert path.read_text().count("\n") == 3
    path.write_text(json.dumps({"game": 0}) + "\nnot json\n" + json.dumps({"game": 1}) + "\n")
    with pytest.raises(FolderError, match="line 2"):
        read_results(path)
    path.write_text(json.dumps({"game": 0}) + "\n" + json.dumps({"game": 0}) + "\n")
    assert len(read_results(path)[0]) == 1, "a game recorded twice counts once"


@pytest.mark.parametrize("tail, mine", [(b"", {1, 2}), (b'{"game": 3}', {1, 2, 3}), (b'{"game": 3}\0\0', {1, 2, 3}),
                                        (b'{"game": 3, "fin', {1, 2})])
def test_the_games_a_writer_wrote_are_read_as_a_resume_reads_them(tmp_path: Path, tail: bytes, mine: set[int]):
    """``written`` (what an interrupted run counts as its own records) reads its lines as
    ``read_results`` does: a last record lacking only its newline (a crash after its last byte,
    or NUL bytes where its newline never reached the disk) is whole, a torn one is not; a line
    of an earlier run is not this writer's."""
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"game": 0}) + "\n")
    w = ResultsWriter(path)
    w.append({"game": 1})
    w.append({"game": 2})
    with path.open("ab") as f:  # (what a crash mid-append left)
        f.write(tail)
    assert w.written() == mine
    assert {r["game"] for r in read_results(path)[0]} == mine | {0}
    w.close()


def test_a_game_recorded_again_is_one_the_machine_could_not_start_or_refused(tmp_path: Path):
    """A run records a game once; a resume records again only a game the machine could not
    start (its ``error``), whose new record is the game's. Two other records of one game, which
    counted as the first said, were a hand edit no one was told of."""
    path = tmp_path / "results.jsonl"
    failed = {"game": 0, "error": "cannot start bot for p1: [Errno 24] Too many open files"}
    played = {"game": 0, "error": None, "moves": 40}
    path.write_text("".join(json.dumps(r) + "\n" for r in (failed, {"game": 1, "error": None}, played)))
    assert read_results(path)[0] == [played, {"game": 1, "error": None}]
    path.write_text("".join(json.dumps(r) + "\n" for r in (played, {**played, "moves": 41})))
    with pytest.raises(FolderError, match=r"line 2 records game 0 again, otherwise than line 1; a run records a "
                                          r"game once: the file was changed by hand\?"):
        read_results(path)


@pytest.mark.parametrize("line", ["", "[1]", '{"x": 1}', '{"game": "3"}', "null"])
def test_a_line_that_is_not_a_games_record_is_refused_before_the_last(tmp_path: Path, line: str):
    """Only the last line may be torn or garbled (a crash mid-write); any other line that is
    not a game's record (an empty line, JSON of another shape) means the file was changed by
    hand, and is refused rather than read past, or the rest cut off by the next append. So is
    a whole last line that reads as JSON (no crash writes one); one that does not is ignored."""
    path = tmp_path / "results.jsonl"
    path.write_text(line + "\n" + json.dumps({"game": 1}) + "\n")
    with pytest.raises(FolderError, match="line 1 is not a game's record"):
        read_results(path)
    path.write_text(json.dumps({"game": 1}) + "\n" + line + "\n" + '{"game": 2, "fin')  # then a torn line
    with pytest.raises(FolderError, match="line 2 is not a game's record"):
        read_results(path)
    path.write_text(json.dumps({"game": 1}) + "\n" + line + "\n")  # the last line
    if line:  # whole JSON: refused
        with pytest.raises(FolderError, match="line 2 is not a game's record"):
            read_results(path)
    else:  # not JSON: garbled by a crash, ignored
        assert read_results(path) == ([{"game": 1}], len(json.dumps({"game": 1})) + 1)


def test_a_folder_is_held_by_one_run_at_a_time(tmp_path: Path):
    first = Folder.create(tmp_path / "t", {"game": "mafia"})
    with pytest.raises(FolderError, match="being played by another run right now"):
        Folder.existing(tmp_path / "t")
    first.unlock()
    first.unlock()  # twice is harmless
    again, config = Folder.existing(tmp_path / "t")
    assert config == {"format": 2, "game": "mafia"}
    again.unlock()


@pytest.mark.parametrize("text", ['{"format": 3}', '{"format": true}', '{"format": 1.0}', "[1, 2]", '{"game": "mafia"}'])
def test_a_configuration_of_another_format_is_refused(tmp_path: Path, text: str):
    (tmp_path / "tournament.json").write_text(text)
    with pytest.raises(FolderError, match=r"not a tournament of this arbiter \(formats 1, 2; this file has "):
        Folder.existing(tmp_path)


def test_a_folder_that_cannot_be_made_is_refused_with_the_systems_reason(tmp_path: Path):
    long = tmp_path / ("x" * 300) / "t"
    with pytest.raises(FolderError) as err:
        Folder.create(long, {})
    assert str(err.value) == f"cannot make the tournament's folder {long}: File name too long"


@pytest.mark.parametrize("under", ["file/t", "file/a/t"])
def test_a_folder_under_a_file_is_refused_naming_the_file(tmp_path: Path, under: str):
    """The default ``arena/GAME-...`` with a file named ``arena`` once said only "File exists"
    (and a deeper path "Not a directory"): which file is in the way is said."""
    (tmp_path / "file").write_text("x")
    with pytest.raises(FolderError) as err:
        Folder.create(tmp_path / under, {})
    assert str(err.value) == f"cannot make the tournament's folder {tmp_path / under}: {tmp_path / 'file'} is a file, not a folder"
    assert (tmp_path / "file").read_text() == "x" and sorted(tmp_path.iterdir()) == [tmp_path / "file"]


@pytest.mark.parametrize("name", ["../escape.yaml", "sub/game.yaml", ".hidden", ".."])
def test_files_a_worker_returns_with_a_bad_name_are_refused(tmp_path: Path, name: str):
    folder = Folder.create(tmp_path / "t", {})
    with pytest.raises(FolderError, match="a worker returned a file with a bad name"):
        folder.write_files({name: "x"})
    folder.write_files({"game-00001.yaml": "text"})
    assert (folder.transcripts / "game-00001.yaml").read_text() == "text"
    assert sorted(p.name for p in tmp_path.rglob("*")) == sorted(
        [".lock", "game-00001.yaml", "t", "tournament.json", "transcripts"])
    folder.unlock()


def test_the_transcripts_listed_are_those_named_as_a_run_names_them(tmp_path: Path):
    """``transcript_games`` counts a file only when its name is the one ``transcript_name`` gives
    its game: not another count of zeros, other scripts' digits, a temporary file or a log."""
    from arbiter.engine.arena.runner import transcript_name

    folder = Folder.create(tmp_path / "t", {})
    names = [transcript_name(7), transcript_name(123456), "game-000008.yaml", "game-\u0669\u0669\u0669\u0669\u0669.yaml",
             "game-0009.yaml", "game-00010.yaml.tmp", ".game-00011.yaml.7-0.tmp", "game-00012.p1.stderr.log",
             "game-00013.yml", "notes.txt"]
    for name in names:
        if system_can_name(name):  # (other scripts' digits cannot name a file under a Latin-1 locale)
            (folder.transcripts / name).write_text("x")
    assert folder.transcript_games() == {7, 123456}
    folder.unlock()


def test_forfeit_kinds():
    assert stats.forfeit_kind("no answer within 0.3 s") == "timeout"
    assert stats.forfeit_kind("the bot closed its output (exit status 3)") == "crash"
    assert stats.forfeit_kind("illegal input 'xyzzy': syntax: ...") == "illegal"
    assert stats.forfeit_kind("the bot sent a line it was not asked for: 'hi'") == "protocol"
    assert stats.forfeit_kind("something nobody foresaw") == "other"
    assert stats.forfeit_kind("something nobody foresaw; its stderr ends: the bot exited") == "other"


@pytest.mark.parametrize("reason, kind", [
    ("illegal input 'no answer within 1 s': syntax: unknown action 'no'", "illegal"),
    ("the bot sent a line it was not asked for: 'no answer within 1 s'", "protocol"),
    ("the bot sent a line that cannot be read: not UTF-8: 'killed by SIGKILL'", "protocol"),
    ("the agent m:Bot raised ValueError: no answer within 1 s, not asked for", "crash"),
    ("illegal input 'x; its stderr ends: no answer within 1 s': syntax: ...", "illegal"),
])
def test_a_bots_own_words_cannot_change_its_forfeits_kind(reason: str, kind: str):
    """A bot answering 'no answer within 1 s' to every go once had its illegal inputs counted as
    timeouts in results.jsonl and the report: the kind is read from the referee's words, before
    anything of the bot's (quoted, or after an agent's exception name)."""
    assert stats.forfeit_kind(reason) == kind


@pytest.mark.parametrize("last", ["# my note about this run", '{"game": 1, "finished": tru', "résumé ok"])
def test_a_whole_last_line_of_text_is_a_hands_and_refused_not_cut_off(tmp_path: Path, last: str):
    """The writer writes a record and its newline last: a whole last line that is no record was
    written by a hand (a note, an edit), and a resume cut it off without a word. It is refused
    as on any other line; a crash's (NUL bytes where the disk never got the blocks) is not."""
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"game": 0}) + "\n" + last + "\n", encoding="utf-8")
    with pytest.raises(FolderError, match="line 2 is not a game's record .*changed by hand"):
        read_results(path)
    path.write_bytes((json.dumps({"game": 0}) + "\n").encode() + b'{"game": 1, "fi\x00\x00\x00\x00\n')
    assert read_results(path) == ([{"game": 0}], len(json.dumps({"game": 0})) + 1)


# -- the last line, as a kill or an editor leaves it, read by --resume and the report ----------------


def _duel_of_four(tmp_path: Path):
    """A 4-game duel's tournament, its new folder and every game's record (as ``Replaying`` plays them)."""
    from arbiter.engine.arena.tournament import Tournament
    from tests.arena_staging import duel_tournament, whole_rec

    config = {**duel_tournament().config, "games": 4, "sprt": None}
    t = Tournament(config)
    folder = Folder.create(tmp_path / "t", config)
    return t, folder, {g.index: whole_rec(t, g, {g.seats[g.index % 2]}) for g in t.games}


def _line(record: dict) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode()


@pytest.mark.parametrize("tail", [b"", b"\n", b"  \n", b'{"game": 2, "deal": 1, "rot', b'{"game": 2, "de\0\0\0\0\n'])
def test_a_resume_ignores_an_empty_or_torn_last_line_and_cuts_it_before_appending(tmp_path: Path, tail: bytes):
    """An empty last line (an editor's), a blank one, a line torn by a kill or left with NUL bytes
    by a crash: the report reads the games before it, the resume plays exactly the others, and
    the file is whole lines again, the part cut off before the first line appended."""
    from tests.arena_staging import Replaying

    t, folder, records = _duel_of_four(tmp_path)
    path = folder.path / "results.jsonl"
    path.write_bytes(_line(records[0]) + _line(records[1]) + tail)
    assert [r["game"] for r in folder.read_results(t.games, 1)] == [0, 1]
    outcome = t.run(folder, Replaying(records))
    folder.unlock()
    assert outcome.played == 2 and [r["game"] for r in outcome.records] == [0, 1, 2, 3]
    assert path.read_bytes() == b"".join(_line(records[i]) for i in range(4))


@pytest.mark.parametrize("tail", [b"", b"\0\0\0"])
def test_a_whole_record_without_its_newline_is_the_games_record_not_played_again(tmp_path: Path, tail: bytes):
    """A kill (or a disk that never got the newline's block) after the record's last byte left
    the line without its newline: its game was played and its transcript written, but the line
    was ignored as torn, cut off without a word and its game played again. It is the game's
    record: the report counts it, the resume plays the other games only, and writes the line's
    newline (and cuts NUL bytes after it) before appending."""
    from tests.arena_staging import Replaying

    t, folder, records = _duel_of_four(tmp_path)
    path = folder.path / "results.jsonl"
    path.write_bytes(_line(records[0]) + _line(records[1])[:-1] + tail)
    assert [r["game"] for r in folder.read_results(t.games, 1)] == [0, 1]
    outcome = t.run(folder, Replaying(records))
    folder.unlock()
    assert outcome.played == 2 and [r["game"] for r in outcome.records] == [0, 1, 2, 3]
    assert path.read_bytes() == b"".join(_line(records[i]) for i in range(4))


@pytest.mark.parametrize("tail, line", [(b"\n\n", 3), (b"null", 3), (b'{"game": 1}', 3)])
def test_only_the_last_line_may_be_empty_and_json_without_a_newline_must_be_a_record(tmp_path: Path,
                                                                                    tail: bytes, line: int):
    """Two empty lines at the end are a hand's (a crash leaves one line at most), and so is a
    last line without its newline that reads as JSON but is no record of the game (no prefix of
    a record does): refused, naming the line, and the file left as it was."""
    t, folder, records = _duel_of_four(tmp_path)
    path = folder.path / "results.jsonl"
    path.write_bytes(_line(records[0]) + _line(records[1]) + tail)
    with pytest.raises(FolderError, match=f"line {line} is not a "):
        folder.read_results(t.games, 1)
    folder.unlock()
    assert path.read_bytes() == _line(records[0]) + _line(records[1]) + tail


def test_an_interrupted_runs_report_keeps_the_could_not_start_record_it_wrote_as_ctrl_c_came(
        tmp_path: Path, monkeypatch):
    """Ctrl-C landing after a record was written but before the run counted it: the run reads
    the file again, keeping a record the machine could not start only when this run wrote it
    (an earlier run's is a game left to play again). It told them apart by what it had counted,
    so the record written just then was left out of the report (resuming counted it). Which are
    this run's the file says: the lines appended since the run opened it."""
    from arbiter.engine.arena import report, results
    from tests.arena_staging import Replaying

    t, folder, records = _duel_of_four(tmp_path)
    error = "cannot start bot for f: [Errno 24] Too many open files"
    unstarted = {"finished": False, "result": None, "outcome": {"mafia": "none", "fbi": "none"}, "error": error}
    records[1] = {**records[1], **unstarted}
    earlier = {**records[3], **unstarted}  # an earlier run's, left to play again
    path = folder.path / "results.jsonl"
    path.write_bytes(_line(earlier))

    class Interrupted(results.ResultsWriter):
        def append(self, record: dict) -> None:
            super().append(record)
            if record["error"]:
                raise KeyboardInterrupt  # written whole, not yet counted

    monkeypatch.setattr(results, "ResultsWriter", Interrupted)
    outcome = t.run(folder, Replaying(records))
    folder.unlock()
    assert outcome.interrupted and outcome.played == 2
    assert [(r["game"], r["error"]) for r in outcome.records] == [(0, None), (1, error)]
    got = report.summary(t.config, outcome.records, len(t.games))
    assert (got["recorded"], got["unfinished"], got["part_blocks"]) == (2, 1, 1)


@pytest.mark.parametrize("line", ["null", "[1]", '{"x": 1}', '{"game": "3"}', '{"game": true}'])
def test_a_line_that_reads_as_json_but_is_no_record_says_what_a_record_is(tmp_path: Path, line: str):
    """A line of JSON that is no record (a hand's; since a last line without its newline that
    reads as JSON is kept, one there too) was refused as 'not a game's record (not a game's
    record)', which says nothing the user can act on: the refusal says what a record is."""
    path = tmp_path / "results.jsonl"
    for text in (json.dumps({"game": 1}) + "\n" + line + "\n", json.dumps({"game": 1}) + "\n" + line):
        path.write_text(text)
        with pytest.raises(FolderError) as caught:
            read_results(path)
        assert str(caught.value) == (f"{path}: line 2 is not a game's record (it reads as JSON, but a record is an "
                                     "object whose \"game\" is its game's number); the file was changed by hand?")


def test_the_folders_kept_read_serves_only_the_file_and_schedule_it_was_made_of(tmp_path: Path):
    """``Folder`` keeps its last read of the results file (a resumed run read it once, not three
    times), to be used again only while the file stands as it was and for the schedule and
    seed it was checked against: a record checked against another tournament's seed is refused
    still, and a writer opened after the file grew does not cut the line it grew by (its end
    read again, not the kept one, which would truncate it as a torn line)."""
    t, folder, records = _duel_of_four(tmp_path)
    path = folder.path / "results.jsonl"
    path.write_bytes(_line(records[0]) + _line(records[1]))
    assert [r["game"] for r in folder.read_results(t.games, 1)] == [0, 1]
    with pytest.raises(FolderError, match=r"line 1 is not a record of this tournament's game 0: \"tournament_seed\" "
                                          r"is 1, but this tournament's game 0 has 2"):
        folder.read_results(t.games, 2)
    assert [r["game"] for r in folder.read_results(t.games, 1)] == [0, 1]
    with path.open("ab") as f:  # (the file changed after it was read)
        f.write(_line(records[2]))
    writer = folder.writer()
    writer.append(records[3])
    writer.close()
    folder.unlock()
    assert path.read_bytes() == b"".join(_line(records[i]) for i in range(4))

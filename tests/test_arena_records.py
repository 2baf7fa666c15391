"""The lines of a tournament's ``results.jsonl`` as a resumed run reads them, each checked against
the game the schedule has under its number: a record of a game the schedule does not have, of
the wrong shape, of another tournament, or a line that does not read is refused naming the
file, the line and what is wrong, before any game is played, and nothing changes; a last line
a crash garbled is cut off."""

from __future__ import annotations

import json

import pytest

from arbiter.engine.arena.results import FolderError, read_results
from arbiter.engine.arena.tournament import Tournament

from tests import arena_staging
from tests.arena_staging import MATCH, assert_free, copy_of, snapshot
from tests.helpers import run

played = arena_staging.played  # the finished match each test copies (played once a process)


# -- a results line of a game the schedule does not have ------------------------------------------


@pytest.mark.parametrize("game, last", [(7, True), (4, False), (-1, False)])
def test_a_record_of_a_game_outside_the_schedule_is_refused_naming_its_line(played, tmp_path, game, last):
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    stray = json.dumps({**json.loads(lines[0]), "game": game}) + "\n"
    lines.insert(len(lines) if last else 1, stray)
    path.write_text("".join(lines))
    number = len(lines) if last else 2
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1, r.output
    assert (f"{path}: line {number} records game {game}, which the schedule does not have (its games are 0 to 3)"
            in r.output), r.output
    assert "games recorded" not in r.output
    assert snapshot(folder) == before
    t = Tournament(json.loads((folder / "tournament.json").read_text()))
    with pytest.raises(FolderError, match=f"line {number} records game {game}"):
        read_results(path, t.games, t.config["seed"])
    assert len(read_results(path)[0]) == 5  # without the schedule's size: every record, as before


def test_a_whole_last_line_that_is_no_record_is_refused_and_a_garbled_one_cut(played, tmp_path):
    """A last line that reads as JSON but is not a game's record was added by hand (a crash
    leaves no whole JSON value): refused, naming it, the file unchanged; one a crash garbled
    (no JSON) is ignored and cut off before the resumed run appends, as before."""
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    whole = path.read_text()
    path.write_text(whole + '{"foo": 1}\n')
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1 and f"line {whole.count(chr(10)) + 1} is not a game's record" in r.output, r.output
    assert snapshot(folder) == before
    path.write_text(whole + '{"game": 3, "wi\x00\x00\n')
    assert read_results(path)[1] == len(whole.encode())  # the garbled line is left out


# -- a results line of the wrong shape, or of another tournament ------------------------------------


def _rec(key, value):
    def edit(record):
        record[key] = value
        return record
    return edit


def _outcome(seat, value):
    def edit(record):
        record["outcome"][seat] = value
        return record
    return edit


RECORD_EDITS = [
    (lambda r: {"game": 1}, '"deal" is missing'),
    (_rec("seats", 5), '"seats" is 5, but this tournament\'s game 1 has {"p1": "b"'),
    # a long value differing past its shown start: where it differs, not two starts alike
    (lambda r: {**r, "seats": {**r["seats"], "p6": "zz"}}, '"seats".p6 is "zz", but this tournament\'s game 1 has "a"'),
    (lambda r: {**r, "seats": {k: v for k, v in r["seats"].items() if k != "p6"}},
     '"seats".p6 is nothing, but this tournament\'s game 1 has "a"'),
    (_rec("tournament_seed", 2), '"tournament_seed" is 2, but this tournament\'s game 1 has 1 (a record of another '
                                 'tournament?)'),
    (_rec("seed", 12345), '"seed" is 12345, but this tournament\'s game 1 has'),
    (_rec("rotation", True), '"rotation" is true, but this tournament\'s game 1 has 1'),
    (_rec("game", 0), '"rotation" is 1, but this tournament\'s game 0 has 0'),
    (_rec("variant", "8-players"), '"variant" is "8-players", but this tournament\'s game 1 has "6-players"'),
    (_rec("extra", 1), '"extra" is not a key of a game\'s record'),
    (_rec("finished", "yes"), '"finished" is true or false, not "yes"'),
    (_rec("result", None), '"result" of a finished game is {"winner": NAME or null'),
    (_outcome("p1", "maybe"), '"outcome" of p1 is "maybe", but the result says'),
    (_rec("outcome", {}), '"outcome" gives each seat of the game (p1, p2, p3, p4, p5, p6) its outcome, not {}'),
    (_rec("sides", ["town"]), '"sides" gives each seat of the game (p1, p2, p3, p4, p5, p6) a name, not ["town"]'),
    (_rec("roles", {"p1": 3}), '"roles" gives each seat of the game'),
    (_rec("forfeits", [{"seat": "p1"}]), '"forfeits" is [{"seat": SEAT, "entrant": NAME, "kind": KIND, "reason": '
                                         'TEXT}, ...], not {"seat": "p1"} in it'),
    (_rec("forfeits", [{"seat": "p1", "entrant": "a", "kind": "timeout", "reason": "x"}]),
     '"forfeits" names \'a\' on seat \'p1\', which the game does not have it on'),
    (_rec("moves", -1), '"moves" is a whole number from 0 up, not -1'),
    (_rec("time", float("nan")), '"time" is the seconds the game took, from 0 up (or null), not NaN'),
    (_rec("time", -10**400), '"time" is the seconds the game took, from 0 up (or null), not -1000000000'),
    (_rec("transcript", "transcripts/game-00000.yaml"), '"transcript" is "transcripts/game-00000.yaml", but this '
                                                        'tournament\'s game 1 has "transcripts/game-00001.yaml"'),
]


@pytest.mark.parametrize("edit, words", RECORD_EDITS, ids=[f"{w.split()[0].strip(chr(34))}-{i}"
                                                           for i, (_, w) in enumerate(RECORD_EDITS)])
@pytest.mark.parametrize("last", [False, True], ids=["inside", "last"])
def test_a_results_line_that_is_no_record_of_this_tournament_is_refused_naming_the_line(played, tmp_path, edit,
                                                                                        words, last):
    """Every line is checked against the schedule's game of its number: one of the wrong shape
    (a stub, a key of another type, an outcome no game gives) or of another tournament is
    refused naming the file, the line and what is wrong, before any game; nothing changes."""
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    edited = json.dumps(edit(json.loads(lines[1]))) + "\n"
    if last:
        lines.append(edited)
    else:
        lines[1] = edited
    path.write_text("".join(lines))
    number = len(lines) if last else 2
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1, r.output
    game = json.loads(edited)["game"]
    assert f"{path}: line {number} is not a record of this tournament's game {game}: {words}" in r.output, r.output
    assert "games recorded" not in r.output
    assert snapshot(folder) == before
    assert_free(folder)


def test_a_record_of_another_tournament_with_the_same_games_is_refused(played, tmp_path):
    """A results file of the same match played with another --seed: every key is of the right
    type, but the deals are not this tournament's."""
    other = tmp_path / "other"
    r = run(*MATCH, "--games", "4", "--seed", "2", "--out", other)
    assert r.exit_code == 0, r.output
    folder = copy_of(played, tmp_path)
    lines = (folder / "results.jsonl").read_text().splitlines(keepends=True)
    lines[2] = (other / "results.jsonl").read_text().splitlines(keepends=True)[2]
    (folder / "results.jsonl").write_text("".join(lines))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1, r.output
    assert "line 3 is not a record of this tournament's game 2: \"tournament_seed\" is 2, but" in r.output, r.output
    assert snapshot(folder) == before


# -- a results line that does not read -------------------------------------------------------------


@pytest.mark.parametrize("line, words", [
    (b'{"game": 1, "x": "\xff"}', "byte 0xff at column 19 is not UTF-8 text; the file is UTF-8"),
    (b'{"game": 1' + b"0" * 5000 + b"}", "a whole number of more than 4300 digits"),
], ids=["not-utf8", "long-number"])
def test_a_results_line_that_does_not_read_says_why_in_its_own_words(played, tmp_path, line, words):
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], line + b"\n", *lines[1:]]))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: {path}: line 2 is not a game's record ({words}); the file was "
                                          "changed by hand?\n")
    assert snapshot(folder) == before

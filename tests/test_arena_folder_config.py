"""A tournament's folder as a run finds it: the leftovers of a run killed before it wrote its
configuration, a configuration changed by hand, a results line of a game the schedule does not
have, and the bounds of ``--sprt`` and ``--games``. Each is refused with a clear error that
names the file, the key or the line, and what is allowed, and changes nothing in the folder;
or, for the leftovers, started again."""

from __future__ import annotations

import fcntl
import json
import math
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from arbiter.engine.arena import results
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.results import Folder, FolderError, read_results
from arbiter.engine.arena.schedule import MAX_ENTRANTS, MAX_GAMES, Setup, schedule
from arbiter.engine.arena.sprt import MAX_ELO, Sprt
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine.errors import ArbiterError

from tests import arena_staging
from tests.arena_staging import MATCH
from tests.helpers import REPO, run
from tests.hostile import within

played = arena_staging.played  # the finished match each test copies (played once a process)


def snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` (hidden ones too) and each file's bytes."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


def assert_free(folder: Path) -> None:
    """No run holds ``folder`` (a refused run let its lock go)."""
    with (folder / ".lock").open("ab") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def copy_of(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    return folder


# -- a run killed before it wrote its configuration -----------------------------------------------


def killed_before_configuration(folder: Path) -> Path:
    """What ``Folder.create`` leaves when killed before ``tournament.json`` is in place."""
    (folder / "transcripts").mkdir(parents=True)
    (folder / ".lock").write_bytes(b"")
    (folder / ".tournament.json.4242-0.tmp").write_text('{"format": 1, "ga')
    return folder


def test_a_folder_left_by_a_run_killed_before_its_configuration_is_started_again_not_resumed(tmp_path):
    folder = killed_before_configuration(tmp_path / "t")
    (folder / "transcripts" / "game-00000.yaml").write_text("mine")  # more than leftovers: refused
    before = snapshot(folder)
    r = run(*MATCH, "--games", "2", "--out", folder)
    assert r.exit_code == 1 and "not empty and holds no tournament" in r.output, r.output
    assert snapshot(folder) == before
    (folder / "transcripts" / "game-00000.yaml").unlink()
    before = snapshot(folder)
    r = run("tournament", "--resume", folder)
    assert r.exit_code == 1, r.output
    assert "stopped before it wrote its configuration" in r.output and "same command" in r.output, r.output
    assert snapshot(folder) == before
    r = run(*MATCH, "--games", "2", "--out", folder)
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "results.jsonl", "tournament.json", "transcripts"]
    assert json.loads((folder / "tournament.json").read_text())["games"] == 2
    assert len((folder / "results.jsonl").read_text().splitlines()) == 2


def test_a_folder_a_run_is_still_making_is_refused_as_being_played(tmp_path):
    folder = killed_before_configuration(tmp_path / "t")
    before = snapshot(folder)
    with (folder / ".lock").open("ab") as held:  # the run making it holds its lock
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        for args in (MATCH + ("--games", "2", "--out", folder), ("tournament", "--resume", folder)):
            r = run(*args)
            assert r.exit_code == 1 and "being played by another run right now" in r.output, (args, r.output)
            assert snapshot(folder) == before, args


def test_a_new_run_never_writes_over_the_configuration_another_run_wrote(tmp_path, monkeypatch):
    """Another run may write ``tournament.json`` after this one looked at the folder: this
    one refuses the folder rather than replace it, and lets its lock go."""
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "tournament.json").write_text("theirs\n")
    monkeypatch.setattr(results, "_fresh", lambda p: [])  # it looked before the other run wrote
    with pytest.raises(FolderError, match="already holds a tournament; go on with it with --resume"):
        Folder.create(folder, {"game": "mafia"})
    assert (folder / "tournament.json").read_text() == "theirs\n"
    assert sorted(p.name for p in folder.iterdir()) == [".lock", "tournament.json", "transcripts"]
    assert_free(folder)


# -- --sprt and --games bounds --------------------------------------------------------------------


NOT_DIGITS = "write it in digits 0-9, with one '.' at most"


@pytest.mark.parametrize("elos, why", [
    (("-inf", "inf"), f"'-inf' is not a number of Elo points: {NOT_DIGITS}"),
    (("0", "1e308"), f"'1e308' is not a number of Elo points: {NOT_DIGITS}"),
    (("nan", "5"), f"'nan' is not a number of Elo points: {NOT_DIGITS}"),
    (("-1001", "0"), f"finite numbers from -{MAX_ELO} to {MAX_ELO}"),
    (("0", "1000.5"), f"finite numbers from -{MAX_ELO} to {MAX_ELO}")])
def test_sprt_hypotheses_outside_finite_elo_bounds_are_a_usage_error_before_any_folder(tmp_path, elos, why):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "2", "--sprt", *elos, "--out", out)
    assert r.exit_code == 2, r.output
    assert "--sprt" in r.output and why in r.output, r.output
    assert not out.exists()


def test_sprt_of_three_entrants_is_a_usage_error_of_sprt_before_any_folder(tmp_path):
    """The test compares two entrants: with three the error names --sprt, and what it allows."""
    out = tmp_path / "t"
    r = run("tournament", "fbi-mafia", "--mode", "duel-3v3", *(f"--entrant={n}=random" for n in "abc"),
            "--games", "3", "--workers", "1", "--sprt", "0", "10", "--out", out)
    assert r.exit_code == 2, r.output
    assert "Invalid value for --sprt: an SPRT compares two entrants; this tournament has 3" in r.output, r.output
    assert not out.exists()


@pytest.mark.parametrize("game, players, allowed", [
    ("mafia", "3", "allowed: 6, 7, 8, 9, 10, 11, 12"),
    ("magic-maze", "9", "allowed: --players 1,"),
    ("fbi-mafia", "3", "leave out --players 3 (a mode fixes the seats: standard-3v3, standard-4v4, duel-3v3,"),
])
def test_a_player_count_the_game_does_not_allow_is_a_usage_error_of_players_before_any_folder(
        tmp_path, game, players, allowed):
    """--players 3 of Classic Mafia was refused without naming --players. The error names the
    option, the count given and the counts allowed (none, for a game set up by its mode)."""
    out = tmp_path / "t"
    r = run("tournament", game, "--players", players, "--entrant", "a=random", "--entrant", "b=random",
            "--games", "2", "--workers", "1", "--out", out)
    assert r.exit_code == 2, r.output
    error = " ".join(r.output.split("Error:")[1].split())
    assert error.startswith("Invalid value for --players: ") and players in error and allowed in error, r.output
    assert not out.exists()

def test_sprt_refuses_values_it_cannot_compute_with_and_computes_at_its_bounds():
    for elos in ((0, math.inf), (0, 1e308), (-math.inf, 0), ("0", 5), (False, True)):
        with pytest.raises(ArbiterError, match="ELO0 and ELO1 are finite numbers from -1000 to 1000, not"):
            Sprt(*elos)
    extreme = Sprt(-MAX_ELO, MAX_ELO)
    assert math.isfinite(extreme.llr(10**6, 10**6)) and extreme.status(5, 0) == "H1"


@pytest.mark.parametrize("option", ["--alpha", "--beta"])
@pytest.mark.parametrize("value, why", [("nan", f"'nan' is not a probability: {NOT_DIGITS}"),
                                        ("NaN", f"'NaN' is not a probability: {NOT_DIGITS}"),
                                        ("-inf", f"'-inf' is not a probability: {NOT_DIGITS}"),
                                        ("0.5", "0.5 is not in the range 0<x<0.5."),
                                        ("0", "0.0 is not in the range 0<x<0.5.")])
def test_alpha_and_beta_outside_their_range_are_a_usage_error_of_their_own(tmp_path, option, value, why):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "2", "--sprt", "0", "10", option, value, "--out", out)
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {why}" in r.output, r.output
    assert "--sprt" not in r.output.split("Error:")[1]
    assert not out.exists()


@pytest.mark.parametrize("spec", ['exec:python3 "bot.py', "exec:./bot 'it''s", "exec:''"])
def test_an_exec_command_that_cannot_be_read_is_a_usage_error_naming_it(tmp_path, spec):
    """An ``exec:`` command is split as a shell would (``shlex``): one with an unclosed quote,
    or naming no program, is refused before any folder is made, not in every game."""
    out = tmp_path / "t"
    for args in (("match", "mafia", "--players", "6", f"a={spec}", "b=random"),
                 ("tournament", "mafia", "--players", "6", "--entrant", f"a={spec}", "--entrant", "b=random")):
        r = run(*args, "--games", "2", "--workers", "1", "--out", out)
        assert r.exit_code == 2, r.output
        assert f"{spec!r}: the command " in r.output, r.output
        assert not out.exists()


def test_games_past_the_maximum_are_a_usage_error_and_never_scheduled(tmp_path):
    out = tmp_path / "t"
    r = run(*MATCH, "--games", "99999999999", "--out", out)
    assert r.exit_code == 2 and "--games" in r.output and f"1<=x<={MAX_GAMES}" in r.output, r.output
    assert not out.exists()
    setups = [Setup("duel", {}, ("x", "y"))]
    with pytest.raises(ArbiterError, match=f"from 1 to {MAX_GAMES} games, not {MAX_GAMES + 1}"):
        schedule(1, setups, ["a", "b"], MAX_GAMES + 1)  # refused before a game is built
    assert len(schedule(1, setups, ["a", "b"], MAX_GAMES - 1)) == MAX_GAMES  # rounded up to a whole block


def test_more_entrants_than_the_report_compares_are_a_usage_error_before_anything_is_written(tmp_path):
    """The report has a head-to-head row for each pair of entrants: with no game played it took
    1.5 s for 300 entrants and 17 s (and 0.8 GiB) for 1,000, yet up to 100,000 entrants were
    taken, a single deal of whom, played whatever ``--games`` says, made the most games a
    tournament may play. At most ``MAX_ENTRANTS`` (500) are taken: more are a usage error
    naming their count, the limit and why, before any folder is made (or game scheduled), and
    a tournament.json holding that many is refused. As many as the limit play one block."""
    from arbiter.engine.arena.config import check_configuration

    too_many = [Entrant(f"e{i}", "random") for i in range(MAX_ENTRANTS + 1)]
    words = ("501 entrants are too many: the report has a head-to-head row for each pair of entrants, 125250 here, "
             "past the 124750 of 500; give at most 500 entrants")
    with pytest.raises(ArbiterError) as caught:
        configuration("mafia", too_many, 1, players=6)
    assert caught.value.message == words
    with pytest.raises(ArbiterError, match="^" + words):  # refused before a game is built
        schedule(1, [Setup("duel", {}, ("x", "y"))], [e.name for e in too_many], 1)

    out = tmp_path / "t"
    entrants = [a for e in too_many for a in ("--entrant", f"{e.name}=random")]
    r = run("tournament", "mafia", "--players", "6", *entrants, "--games", "2", "--workers", "1", "--out", out)
    assert r.exit_code == 2, r.output
    assert f"Error: {words}\n" in r.output, r.output
    assert not out.exists()
    config = configuration("mafia", too_many[:MAX_ENTRANTS], 2, players=6)
    assert len(Tournament({"format": 2, **config}).games) == MAX_ENTRANTS  # as many as the limit: one block
    config["entrants"].append({"name": "e500", "spec": "random"})  # a tournament.json changed by hand
    with pytest.raises(ArbiterError, match=r'^t/tournament.json: "entrants": 501 entrants are too many: '):
        check_configuration({"format": 2, **config}, "t/tournament.json")
    assert "more (at most 500: the report compares every pair)." in " ".join(run("tournament", "--help").output.split())
    docs = " ".join((REPO / "docs" / "arena.md").read_text().split())
    assert "At most 500 entrants: the report compares every pair of them, a head-to-head row for each" in docs


def test_the_help_and_the_docs_say_the_rounding_may_pass_the_maximum_and_names_grow_a_digit():
    """``--games 100000`` with 3 entrants plays 100,002 games, past the limit the help stated
    alone, and games from 100000 on are named with six digits, which ``ls`` sorts among the
    five-digit ones. Neither changes (resumed folders and records name those files): the help
    of ``--games`` and docs/arena.md say both."""
    from arbiter.engine.arena.runner import log_name, transcript_name
    from arbiter.engine.arena.schedule import rounded_games

    assert [rounded_games(MAX_GAMES, k) for k in (2, 3, 7)] == [100_000, 100_002, 100_002]
    most = max(range(2, MAX_ENTRANTS + 1), key=lambda k: rounded_games(MAX_GAMES, k))
    assert (most, rounded_games(MAX_GAMES, most)) == (495, 100_485)  # as many entrants as a tournament may have
    assert (transcript_name(99_999), transcript_name(100_000)) == ("game-99999.yaml", "game-100000.yaml")
    assert log_name(100_001, "p1") == "game-100001.p1.stderr.log"
    text = " ".join(run("tournament", "--help").output.split())
    assert ("rounded up to whole blocks (one game per entrant for each deal), which "
            "may pass 100000 (3 entrants: 100002). Transcripts past game-99999 have six digits (ls -v sorts "
            "them).") in text
    docs = " ".join((REPO / "docs" / "arena.md").read_text().split())
    assert "`--games 100000` with 3 entrants plays 100002 games" in docs
    assert "at most 500 entrants (the most: 100485 games, with 495)" in docs
    assert "past `game-99999` they have six (`game-100000.yaml`)" in docs and "`ls -v` sorts them in order" in docs


# -- a configuration changed by hand --------------------------------------------------------------


def _set(key, value):
    def edit(config):
        config[key] = value
    return edit


def _delete(key):
    def edit(config):
        del config[key]
    return edit


def _entrant(index, key, value):
    def edit(config):
        config["entrants"][index][key] = value
    return edit


EDITS = [
    (_delete("entrants"), '"entrants" is missing'),
    (_delete("cwd"), '"cwd" is missing'),
    (_set("extra", 1), '"extra" is not a key of a tournament\'s configuration'),
    (_set("games", "x"), '"games": a tournament plays from 1 to 100000 games, not \'x\''),
    (_set("games", -5), '"games": a tournament plays from 1 to 100000 games, not -5'),
    (_set("games", True), '"games": a tournament plays from 1 to 100000 games, not True'),
    (_set("games", MAX_GAMES + 1), f'"games": a tournament plays from 1 to 100000 games, not {MAX_GAMES + 1}'),
    (_set("entrants", []), '"entrants": a tournament needs two or more entrants, not 0'),
    (_set("entrants", {"a": "random", "b": "random"}),
     '"entrants": a list of two or more {"name": NAME, "spec": SPEC}, not {'),
    (_entrant(0, "spec", "nosuch"), '"entrants": unknown bot \'nosuch\''),
    # nothing after exec: names no program, as exec:"" does (it was "unknown bot 'exec:'")
    (_entrant(0, "spec", "exec:"), '"entrants": \'exec:\': the command names no program'),
    (_entrant(0, "spec", "exec:  "), '"entrants": \'exec:\': the command names no program'),
    (_entrant(1, "name", "a"), '"entrants": two entrants are named \'a\''),
    (_entrant(0, "spec", 'exec:python3 "bot.py'), '"entrants": \'exec:python3 "bot.py\': the command cannot be read '
                                                 '(No closing quotation)'),
    (_entrant(1, "name", "b c"), '"entrants": \'b c\' is not an entrant name'),
    (_set("sprt", {"elo0": 5, "elo1": 1, "alpha": 0.05, "beta": 0.05}), '"sprt": SPRT needs ELO0 < ELO1, not 5 and 1'),
    (_set("sprt", {"x": 1}), '"sprt": null or {"elo0": NUMBER, "elo1": NUMBER, "alpha": NUMBER, "beta": NUMBER}'),
    (_set("sprt", {"elo0": 0, "elo1": 1e308, "alpha": 0.05, "beta": 0.05}), '"sprt": SPRT\'s ELO0 and ELO1 are finite'),
    (_set("sprt", {"elo0": "e" * 3000, "elo1": 1, "alpha": 0.05, "beta": 0.05}),
     '"sprt": SPRT\'s ELO0 and ELO1 are finite numbers from -1000 to 1000, not \'' + "e" * 40 + '\'... (3000 characters) and 1'),
    (_set("sprt", {"elo0": 0, "elo1": 5, "alpha": 0.5, "beta": 0.05}), '"sprt": SPRT\'s alpha and beta are between 0'),
    (_set("max_moves", 0), '"max_moves": a whole number from 1 up, not 0'),
    (_set("players", 0), '"players": a whole number from 1 up, not 0'),
    (_set("players", 99), '"modes" with "players", "roles" and "deck": Classic Mafia\'s default decks are for 6 to 12 '
                          'players, not 99'),
    (_set("modes", "6-players"), '"modes" with "players", "roles" and "deck": a list of the game\'s modes'),
    (_set("roles", 0), '"roles": a whole number from 1 up, not 0'),
    (_set("roles", "2"), '"roles": a whole number from 1 up, not \'2\''),
    (_set("roles", 2), '"modes" with "players", "roles" and "deck": Classic Mafia has no levels'),
    (_set("deck", [1]), '"deck": null or a custom deck (a mapping, as its file holds), not [1]'),
    (_set("deck", {"game": "mafia", "kind": "deck", "cards": {"boss": 9}}),
     '"modes" with "players", "roles" and "deck": the tournament\'s deck: '),
    (_set("seed", "x"), '"seed": a whole number, not \'x\''),
    (_set("seed", 1.5), '"seed": a whole number, not 1.5'),
    (_set("seed", 10**200), '"seed": a whole number of at most 100 digits (as --seed), not one of 201 digits '
                            '(10000000000000000000...)'),
    (_set("seed", -10**100), '"seed": a whole number of at most 100 digits (as --seed), not one of 101 digits'),
    (_set("bot_timeout", 0), '"bot_timeout": seconds from 0.01 to 3600, not 0'),
    (_set("bot_timeout", "10"), '"bot_timeout": seconds from 0.01 to 3600, not \'10\''),
    # a whole number past a float's range (math.isfinite raised OverflowError: a traceback)
    (_set("bot_timeout", 10**400), '"bot_timeout": seconds from 0.01 to 3600, not 1000000000'),
    (_set("sprt", {"elo0": 0, "elo1": 10**400, "alpha": 0.05, "beta": 0.05}),
     '"sprt": SPRT\'s ELO0 and ELO1 are finite numbers from -1000 to 1000, not 0 and 1000000000'),
    (_set("reuse", 1), '"reuse": true or false, not 1'),
    (_set("cwd", 5), '"cwd": the folder the bots start in, or null, not 5'),
    # a value too long to echo is named by its start and length (errors.quoted), not written back whole
    (_set("cwd", ["x" * 5000]), '"cwd": the folder the bots start in, or null, not [\'' + "x" * 38 + '... (5004 characters)'),
    (_entrant(1, "name", "n" * 3000), '"entrants": \'' + "n" * 40 + '\'... (3000 characters) is not an entrant name'),
    (_set("game", "chess"), '"game": no game named \'chess\''),
]


@pytest.mark.parametrize("edit, words", EDITS, ids=[w.split(":")[0].split(" ")[0].strip('"') + f"-{i}"
                                                   for i, (_, w) in enumerate(EDITS)])
def test_a_configuration_changed_by_hand_is_refused_naming_the_key_and_nothing_changes(played, tmp_path, edit, words):
    folder = copy_of(played, tmp_path)
    config = json.loads((folder / "tournament.json").read_text())
    edit(config)
    (folder / "tournament.json").write_text(json.dumps(config))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1, r.output
    assert f"{folder / 'tournament.json'}: {words}" in r.output, r.output
    assert len(r.output.strip().splitlines()) == 1, r.output
    assert snapshot(folder) == before
    assert_free(folder)


def test_a_resumed_run_accepts_what_a_run_writes_and_not_that_changed(played, tmp_path):
    """The checks are those of a new run's options: a configuration ``configuration`` made
    with values at their bounds is resumed; a value past one is refused."""
    folder = copy_of(played, tmp_path)
    config = {"format": 2, **configuration("mafia", [Entrant("a", "random"), Entrant("b", "random")], 4, players=6,
                                           sprt=Sprt(-MAX_ELO, MAX_ELO, 0.01, 0.49), max_moves=1, bot_timeout=0.01,
                                           cwd=str(tmp_path))}
    (folder / "tournament.json").write_text(json.dumps(config))
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output.splitlines()[-1])["recorded"] == 4
    (folder / "tournament.json").write_text(json.dumps({**config, "games": -4}))
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 1 and '"games": a tournament plays from 1 to 100000 games, not -4' in r.output, r.output
    del config["roles"], config["deck"]  # a folder written before --roles and --deck came: neither, as then
    (folder / "tournament.json").write_text(json.dumps(config))
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[-1])["recorded"] == 4, r.output


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


# -- the default folder ---------------------------------------------------------------------------


def test_runs_started_in_the_same_second_get_folders_of_their_own(tmp_path, monkeypatch):
    """The default --out is named by the second the run starts: a run that finds the name taken
    (made by another run that second) makes the next free one, ``-2``, ``-3``..., never sharing
    or refusing it."""
    from arbiter.engine.arena import tournament

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tournament.time, "strftime", lambda fmt: "20240101-120000")
    for _ in range(3):
        r = run(*MATCH, "--games", "2", "--json")
        assert r.exit_code == 0, r.output
    names = sorted(p.name for p in (tmp_path / "arena").iterdir())
    assert names == ["mafia-20240101-120000", "mafia-20240101-120000-2", "mafia-20240101-120000-3"]
    for name in names:
        assert len((tmp_path / "arena" / name / "results.jsonl").read_text().splitlines()) == 2
    (tmp_path / "arena" / "mafia-20240101-120000-4").write_text("a file: the name is taken too")
    assert tournament.folder_for("mafia", None) == Path("arena/mafia-20240101-120000-5")
    assert (tmp_path / "arena" / "mafia-20240101-120000-5").is_dir()


# -- temporary files a killed run left ----------------------------------------------------------------


def test_a_resumed_run_removes_the_temporary_files_a_killed_run_left_and_no_other(played, tmp_path):
    folder = copy_of(played, tmp_path)
    path = folder / "results.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:2]))  # killed after two games
    (folder / "transcripts" / "game-00003.yaml").unlink()  # game 3 in progress; 2 ended, its line not written
    ours = [folder / ".tournament.json.4242-0.tmp", folder / "transcripts" / ".game-00002.yaml.4242-0.tmp",
            folder / "transcripts" / ".game-00003.p1.stderr.log.77-12.tmp"]
    for p in ours:
        p.write_text("part of a file")
    others = [folder / "transcripts" / "notes.txt", folder / "transcripts" / ".game-00002.yaml.tmp",
              folder / "transcripts" / ".game-2.yaml.1-0.tmp", folder / ".results.jsonl.1-0.tmp",
              folder / "transcripts" / ".game-00002.yaml.4242-0.tmp.bak", tmp_path / "elsewhere.txt"]
    for p in others:
        p.write_text("not the referee's to remove")
    (folder / "transcripts" / ".game-00001.yaml.1-0.tmp").symlink_to(tmp_path / "elsewhere.txt")
    (folder / "transcripts" / ".game-00000.yaml.1-0.tmp").mkdir()
    bad = path.read_text() + '{"game": 2}\n'  # a refused run changes nothing, leftovers included
    path.write_text(bad)
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1 and "line 3 is not a record of this tournament's game 2" in r.output, r.output
    assert snapshot(folder) == before
    path.write_text(bad[: bad.rindex('{"game": 2}')])
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output.splitlines()[-1])
    assert (summary["played"], summary["from_transcripts"]) == (1, 1)
    assert not any(p.exists() for p in ours)
    assert all(p.read_text() == "not the referee's to remove" for p in others)
    assert (folder / "transcripts" / ".game-00001.yaml.1-0.tmp").is_symlink()
    assert (folder / "transcripts" / ".game-00000.yaml.1-0.tmp").is_dir()


def test_a_file_in_the_way_of_the_tournaments_folder_is_named(tmp_path: Path, monkeypatch) -> None:
    """A file named ``arena`` where the default ``arena/GAME-...`` goes once got only "File
    exists"; an ``--out`` name too long for the system was a traceback. Nothing is made."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "arena").write_text("x")
    r = run(*MATCH, "--games", "2")
    assert r.exit_code == 1, r.output
    assert r.output.startswith("Error: cannot make the tournament's folder arena/mafia-"), r.output
    assert r.output.endswith(": arena is a file, not a folder\n"), r.output
    long = "x" * 300 + "/t"
    r = run(*MATCH, "--games", "2", "--out", long)
    assert (r.exit_code, r.output) == (1, f"Error: cannot make the tournament's folder {long}: File name too long\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena"] and (tmp_path / "arena").read_text() == "x"


def test_json_nested_too_deeply_is_refused_as_any_text_that_is_no_json(played, tmp_path):
    """A tournament.json or a results line nested deeper than the JSON reader goes (a file
    changed by hand) ended the run with a RecursionError's traceback: it is refused as
    unreadable, naming the file (and the line), and nothing changes."""
    deep = "[" * 100_000 + "]" * 100_000
    folder = copy_of(played, tmp_path)
    config = (folder / "tournament.json").read_text()
    (folder / "tournament.json").write_text(config.replace('"games":', f'"x": {deep}, "games":', 1))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1, r.output
    assert r.output == f"Error: {folder / 'tournament.json'}: cannot read it: JSON nested too deeply to read\n"
    assert snapshot(folder) == before
    assert_free(folder)
    folder = copy_of(played, tmp_path / "results")
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join([lines[0], deep + "\n", *lines[1:]]))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 1 and f"{path}: line 2 is not a game's record (JSON nested too deeply to read)" in r.output, \
        r.output
    assert snapshot(folder) == before


def test_a_run_with_games_left_for_a_program_is_refused_when_its_bots_folder_is_gone(tmp_path, monkeypatch):
    """A resume after the bots' folder moved started them wherever it was typed: an exec: bot
    named by a relative path crashed in every game left, each a loss for its entrant. Refused,
    nothing changed; but a run with nothing left to play, or built-in bots only, needs no folder:
    nor does one whose games left all ended, which it records from their transcripts."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "rb.py").write_text((REPO / "docs" / "examples" / "random_bot.py").read_text())
    out = tmp_path / "t"
    monkeypatch.chdir(bots)  # (where the run starts: its bots' folder)
    r = run("match", "fbi-mafia", "--mode", "duel-3v3", f"mine=exec:{sys.executable} rb.py", "base=random",
            "--games", 4, "--workers", 1, "--out", out, "--json")
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(tmp_path)
    whole = (out / "results.jsonl").read_text()
    (out / "results.jsonl").write_text("".join(whole.splitlines(keepends=True)[:2]))  # as a kill would leave it
    ended = (out / "transcripts" / "game-00002.yaml").read_bytes()
    (out / "transcripts" / "game-00002.yaml").unlink()  # (game 2 in progress; 3 ended, its line not written)
    bots.rename(tmp_path / "moved")
    before = snapshot(out)
    r = run("tournament", "--resume", out, "--workers", 1)
    assert r.exit_code == 1 and f'tournament.json: "cwd": the folder the bots start in, \'{bots}\', is not there' \
        in r.output, r.output
    assert snapshot(out) == before
    (out / "transcripts" / "game-00002.yaml").write_bytes(ended)  # both ended: nothing to play
    r = run("tournament", "--resume", out, "--workers", 1, "--json")
    assert r.exit_code == 0, r.output
    assert (json.loads(r.stdout)["played"], json.loads(r.stdout)["from_transcripts"]) == (0, 2)
    assert run("tournament", "--resume", out, "--workers", 1, "--json").exit_code == 0  # every game recorded


@pytest.mark.parametrize("name", ["tournament.json", "results.jsonl"])
@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_folders_file_that_is_no_regular_file_is_refused_without_reading_it(played, tmp_path, name, kind):
    """A FIFO in place of tournament.json or results.jsonl made the run wait for a writer for
    ever, /dev/zero filled memory (a MemoryError's traceback), a folder was "[Errno 21] ...":
    each is refused naming the file and what it is, before it is opened, and nothing changes."""
    folder = copy_of(played, tmp_path)
    path = folder / name
    what = put_special(path, kind)
    before = snapshot_links(folder)
    r = within(20, run, "tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: {path}: cannot read it: not a regular file ({what})\n")
    assert snapshot_links(folder) == before
    assert_free(folder)


@pytest.mark.parametrize("name, refusal", [
    ("results.jsonl", "{path}: cannot read it: a symbolic link that leads nowhere; a tournament's results are a file "
                      "in its folder"),
    (".lock", "cannot hold the tournament's folder {folder}: its .lock is a symbolic link that leads nowhere; a "
              "tournament's lock is a file in its folder"),
])
def test_a_folders_file_that_is_a_link_leading_nowhere_is_refused_not_made_where_it_leads(played, tmp_path, name,
                                                                                          refusal):
    """A folder's file that is a symbolic link whose target is gone: results.jsonl read as no
    record at all (every game was played again, the new lines written where the link led, out
    of the folder); a .lock was opened to create, which made an empty file there and held it.
    Each is refused, naming the file; nothing is made and nothing changes."""
    folder = copy_of(played, tmp_path)
    path = folder / name
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    before = snapshot_links(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, "Error: " + refusal.format(path=path, folder=folder) + "\n")
    assert snapshot_links(folder) == before and not (tmp_path / "elsewhere").exists()
    if name != ".lock":  # (assert_free opens the lock: through this one, it would make its target)
        assert_free(folder)


@pytest.mark.parametrize("way", ["target gone", "loop", "through a file"])
def test_every_reader_of_a_folder_says_alike_which_link_leads_nowhere(tmp_path, way):
    """The results file, the lock, transcripts/ and a command's path (``cli.types.leads_nowhere``)
    each asked on its own whether a link leads nowhere, and not alike: a results.jsonl linked in
    a loop, or through a file, was "Too many levels of symbolic links" or "Not a directory"
    where the lock and transcripts/ named the link. One test (``files.dangling_link``) now."""
    from arbiter.cli.types import leads_nowhere

    folder = tmp_path / "t"
    folder.mkdir()
    (tmp_path / "file").write_text("a file, not a folder")
    for name in ("results.jsonl", ".lock", "transcripts"):
        path = folder / name
        path.symlink_to({"target gone": tmp_path / "gone", "loop": path,
                         "through a file": tmp_path / "file" / "x"}[way])
    nowhere = "is a symbolic link that leads nowhere"
    with pytest.raises(FolderError) as caught:
        read_results(folder / "results.jsonl")
    assert caught.value.message == (f"{folder / 'results.jsonl'}: cannot read it: a symbolic link that leads nowhere; "
                                    "a tournament's results are a file in its folder")
    with pytest.raises(FolderError) as caught:
        Folder(folder).lock()
    assert caught.value.message == (f"cannot hold the tournament's folder {folder}: its .lock {nowhere}; a "
                                    "tournament's lock is a file in its folder")
    with pytest.raises(FolderError) as caught:
        Folder(folder)._open_transcripts()
    assert caught.value.message == (f"cannot open the tournament's folder {folder}: its transcripts/ {nowhere}, "
                                    "not a folder")
    for name in ("results.jsonl", ".lock", "transcripts"):
        with pytest.raises(OSError) as stat_error:
            os.stat(folder / name)
        assert leads_nowhere(str(folder / name), stat_error.value).startswith(f"'{folder / name}' {nowhere} (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "t"]  # nothing made where a link led


def put_special(path: Path, kind: str) -> str:
    """Put in place of the file ``path`` a FIFO, a link to a device or a folder (``kind``); what
    a refusal calls it."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return {"fifo": "a FIFO", "device": "a character device", "folder": "a folder"}[kind]


def snapshot_links(folder: Path) -> dict[str, object]:
    """``snapshot``, a FIFO or a link named by what it is, never opened."""
    return {str(p.relative_to(folder)): (os.readlink(p) if p.is_symlink() else p.read_bytes() if p.is_file()
                                         else stat.S_IFMT(p.stat().st_mode)) for p in sorted(folder.rglob("*"))}


def test_a_configuration_too_large_to_be_one_is_refused_before_it_is_read(played, tmp_path, monkeypatch):
    monkeypatch.setattr(results, "CONFIG_MAX_BYTES", 1024 * 1024)  # (16 MiB: a test of 16 MiB)
    folder = copy_of(played, tmp_path)
    path = folder / "tournament.json"
    path.write_text(path.read_text() + " " * 1024 * 1024)  # (JSON still: white space)
    size = path.stat().st_size
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: {path}: cannot read it: {size} bytes is more than a tournament's "
                                          "configuration can be (1 MiB at most)\n")
    assert snapshot(folder) == before


@pytest.mark.parametrize("edit, words", [
    (lambda text: text.replace(b'"games"', b'"games": 3, "games"', 1),
     'the key "games" is given twice in an object'),
    (lambda text: text.replace(b'"games"', b'"x": 1' + b"0" * 5000 + b', "games"', 1),
     "a whole number of more than 4300 digits"),
    (lambda text: text.replace(b'"mafia"', b'"maf\xffia"', 1), "line 3 is not UTF-8 text (byte 0xff at column 15); "
                                                                "the file is UTF-8"),
], ids=["duplicate-key", "long-number", "not-utf8"])
def test_a_configuration_that_does_not_read_says_why_in_its_own_words(played, tmp_path, edit, words):
    """A key given twice was read as its last value, silently (the YAML files refuse one); a
    number too long and bytes that are not UTF-8 were refused in Python's words ("use
    sys.set_int_max_str_digits()", "'utf-8' codec can't decode byte 0xff in position 20")."""
    folder = copy_of(played, tmp_path)
    path = folder / "tournament.json"
    path.write_bytes(edit(path.read_bytes()))
    before = snapshot(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: {path}: cannot read it: {words}\n")
    assert snapshot(folder) == before
    assert_free(folder)


def test_a_configuration_an_editor_began_with_a_byte_order_mark_still_resumes(played, tmp_path):
    folder = copy_of(played, tmp_path)
    path = folder / "tournament.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert r.exit_code == 0 and "4 games" in r.output, r.output


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


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_lock_that_is_no_regular_file_is_refused_without_waiting(played, tmp_path, kind):
    """A FIFO in place of the folder's .lock made the run wait for a reader for ever (the lock
    was opened for appending, which waits): it, a device and a folder are refused at once."""
    folder = copy_of(played, tmp_path)
    what = put_special(folder / ".lock", kind)
    before = snapshot_links(folder)
    r = within(20, run, "tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: cannot hold the tournament's folder {folder}: its .lock is not a "
                                          f"regular file ({what})\n")
    assert snapshot_links(folder) == before


@pytest.mark.parametrize("kind", ["file", "fifo", "dangling"])
def test_a_transcripts_folder_that_is_no_folder_is_named(played, tmp_path, kind):
    """A file in place of the folder's transcripts/ was refused as "File exists", naming
    nothing: which file, and what it is, are said; nothing changes."""
    folder = copy_of(played, tmp_path)
    transcripts = folder / "transcripts"
    shutil.rmtree(transcripts)
    what = {"file": "a file", "fifo": "a FIFO", "dangling": "a symbolic link that leads nowhere"}[kind]
    if kind == "file":
        transcripts.write_text("notes")
    elif kind == "fifo":
        os.mkfifo(transcripts)
    else:
        transcripts.symlink_to(tmp_path / "gone")
    before = snapshot_links(folder)
    r = run("tournament", "--resume", folder, "--workers", "1")
    assert (r.exit_code, r.output) == (1, f"Error: cannot open the tournament's folder {folder}: its transcripts/ is "
                                          f"{what}, not a folder\n")
    assert snapshot_links(folder) == before
    assert_free(folder)

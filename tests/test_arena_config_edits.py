"""A tournament's configuration (``tournament.json``) as a resumed run reads it: changed by hand
(a key missing, added or of a value no run writes), naming a folder the bots can no longer
start in, too large, nested too deeply (a results line too), or not JSON a run wrote (a key
twice, a number too long, bytes that are not UTF-8). Each is refused with one line naming the
file and the key, and changes nothing in the folder; what a run writes, at its bounds, resumes,
and so does a file an editor began with a byte order mark."""

from __future__ import annotations

import json
import sys

import pytest

from arbiter.engine.arena import results
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.schedule import MAX_GAMES
from arbiter.engine.arena.sprt import MAX_ELO, Sprt
from arbiter.engine.arena.tournament import configuration

from tests import arena_staging
from tests.arena_staging import assert_free, copy_of, snapshot
from tests.helpers import REPO, run

played = arena_staging.played  # the finished match each test copies (played once a process)


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


# -- a configuration that does not read ------------------------------------------------------------


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

"""The games a tournament plays, for real and small, and what it records of them: the same results
and transcripts with one worker or two, the deals of a folder of format 1, Hidden Roles and a
custom deck, a game played again in place of what a crashed run left of it, the files of a
worker without a folder of its own, and a record made again from a transcript. (The match
lines of the protocol: ``test_arena_match_lines.py``.)

Speed is never asserted here; the games are few and short."""

from __future__ import annotations

import json

import pytest

from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.runner import Worker
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine import transcript as tr

from tests.arena_staging import PY, play, transcripts, without_time
from tests.helpers import REPO, run


def test_the_same_seed_gives_the_same_results_with_one_or_two_workers(tmp_path):
    _, one = play(tmp_path / "one", 1, games=8)
    _, two = play(tmp_path / "two", 2, games=8)
    assert len(one) == 8 and without_time(one) == without_time(two)
    assert transcripts(tmp_path / "one") == transcripts(tmp_path / "two")
    lines = (tmp_path / "two" / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["game"] for line in lines) == list(range(8))
    for r in one:  # each record says what the brief asks of it, and its transcript replays
        assert set(r) >= {"tournament_seed", "seed", "variant", "seats", "result", "outcome", "sides", "roles",
                          "forfeits", "moves", "time", "transcript"}
        t = tr.read(tmp_path / "one" / r["transcript"])
        assert tr.replay(t).ok and t.result["winners"] == r["result"]["winners"]
        assert t.settings()["entrants"] == r["seats"]


NOISY = """
import sys
legal = []
for line in sys.stdin:
    kind, _, rest = line.strip().partition(" ")
    if kind == "legal:":
        legal.append(rest)
    elif kind == "go":
        print("thinking", file=sys.stderr, flush=True)
        print(legal[0], flush=True)
        legal = []
"""


def test_a_game_played_again_replaces_what_a_crashed_run_left_of_it_and_nothing_else(tmp_path):
    """A worker replaying a game (a resumed run) removes that game's transcript and stderr logs,
    found by name, and leaves every other file of the folder as it is."""
    from arbiter.engine.arena.runner import Worker, log_name, transcript_name

    (tmp_path / "noisy.py").write_text(NOISY)
    config = configuration("fbi-mafia", [Entrant("noisy", f"exec:{PY} {tmp_path / 'noisy.py'}"), Entrant("rnd", "random")],
                           2, modes=("duel-3v3",), cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    game = t.games[1]
    seat = next(s for s, e in game.assignment.items() if e == "noisy")
    worker = Worker(t.settings)
    first = worker.play(game, tmp_path)
    files = tmp_path / "transcripts"
    transcript, log = files / transcript_name(game.index), files / log_name(game.index, seat)
    whole, told = transcript.read_text(), log.read_text()
    assert first["finished"] and told.startswith("thinking\n")
    transcript.write_text(whole[: len(whole) // 2])  # a crash mid-game: a cut transcript, a log to be appended to
    log.write_text("STALE\n")
    others = {files / transcript_name(0): "another game's", files / log_name(0, seat): "its log",
              files / "game-00001.notes": "not the worker's"}
    for path, text in others.items():
        path.write_text(text)
    again = worker.play(game, tmp_path)
    worker.close()
    assert {k: v for k, v in again.items() if k != "time"} == {k: v for k, v in first.items() if k != "time"}
    assert transcript.read_text() == whole and log.read_text() == told
    assert all(path.read_text() == text for path, text in others.items())


def test_a_folder_of_format_1_resumes_with_the_deals_it_began_with(tmp_path):
    """Format 1 folders (made before deals' seeds were drawn below 2**53) keep their deals: a
    run of one cut short and resumed by this arbiter plays the games a format-1 run plays, and
    a new folder is of format 2. (The seeds are those the format-1 arbiter drew.)"""
    from arbiter.engine.arena.schedule import deal_seed

    assert [deal_seed(1, d, 1) for d in range(3)] == [640032170, 426774304, 1115919524]
    out = tmp_path / "t"
    r = run("match", "mafia", "--players", "6", "a=random", "b=sleuth", "--games", "6", "--out", out, "--workers", "1")
    assert r.exit_code == 0, r.output
    new = json.loads((out / "tournament.json").read_text())
    seeds = sorted({json.loads(line)["seed"] for line in (out / "results.jsonl").open()})
    assert new["format"] == 2 and seeds == sorted(deal_seed(1, d) for d in range(3)) and max(seeds) >= 2**31
    old = tmp_path / "old"
    _, whole = play(old, 1, games=6, form=1)
    assert json.loads((old / "tournament.json").read_text())["format"] == 1
    assert [g["seed"] for g in whole[::2]] == [640032170, 426774304, 1115919524]
    lines = (old / "results.jsonl").read_text().splitlines(keepends=True)
    (old / "results.jsonl").write_text("".join(lines[:3]))  # a run cut short after three games
    r = run("tournament", "--resume", old, "--workers", "1")
    assert r.exit_code == 0, r.output
    resumed = [json.loads(line) for line in (old / "results.jsonl").open()]
    assert without_time(sorted(resumed, key=lambda g: g["game"])) == without_time(sorted(whole, key=lambda g: g["game"]))


def test_a_hidden_roles_match_deals_roles_and_reports_by_side(tmp_path):
    """``--roles LEVEL`` on tournament and match: Hidden Roles could not be played in the arena
    at all. Each game is dealt its roles (recorded in its options and its transcript, which
    replays), results are by side (heroes, traitors), and the level is in tournament.json."""
    out = tmp_path / "t"
    r = run("match", "magic-maze", "--roles", "2", "--scenario", "1", "a=planner", "b=random", "--games", "4",
            "--workers", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("# Magic Maze, Hidden Roles level 2: 4 games; entrants a=planner, b=random"), r.stderr
    assert json.loads((out / "tournament.json").read_text())["roles"] == 2
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(rec["options"] == {"players": 4, "roles": 2} for rec in records)
    assert {side for rec in records for side in rec["sides"].values()} <= {"hero", "traitor"}
    assert any("traitor" in rec["sides"].values() for rec in records)
    for rec in records:
        t = tr.read(out / rec["transcript"])
        assert t.options == {"players": 4, "roles": 2} and tr.replay(t).ok
    assert "traitor" in r.stdout and "hero" in r.stdout  # the table by side
    r = run("tournament", "--resume", out, "--roles", "3")  # the level is the folder's
    assert r.exit_code == 2 and "leave out --roles" in r.output, r.output
    r = run("match", "mafia", "a=random", "b=random", "--roles", "2", "--out", tmp_path / "m")
    assert r.exit_code == 2 and "Invalid value for --roles: Classic Mafia has no levels" in r.output, r.output
    assert not (tmp_path / "m").exists()


def test_a_tournament_plays_a_custom_deck_kept_in_its_folder(tmp_path):
    """``--deck FILE`` on tournament and match, as ``play`` takes it: every game is set up with
    the deck, whose document is kept in tournament.json, so the folder resumes with the file gone;
    a deck refused names the file, before any folder is made."""
    deck = tmp_path / "friday.yaml"
    deck.write_text("game: mafia\nkind: deck\ntitle: Friday table\n"
                    "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, chameleon: 1, fighter: 1}\n")
    out = tmp_path / "t"
    r = run("match", "mafia", "--deck", deck, "a=random", "b=sleuth", "--games", "4", "--workers", "1", "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith("# Classic Mafia, custom deck Friday table: 4 games;"), r.stderr
    assert json.loads((out / "tournament.json").read_text())["deck"]["title"] == "Friday table"
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {rec["variant"] for rec in records} == {"9-players"} and all(len(rec["seats"]) == 9 for rec in records)
    assert all(rec["options"]["title"] == "Friday table" for rec in records)
    deck.unlink()
    lines = (out / "results.jsonl").read_text().splitlines(keepends=True)
    (out / "results.jsonl").write_text("".join(lines[:2]))  # two games to play again: never ended, no transcript
    for n in (2, 3):
        (out / "transcripts" / f"game-0000{n}.yaml").unlink()
    r = run("tournament", "--resume", out, "--workers", "1", "--json")
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[-1])["played"] == 2, r.output
    roles = tmp_path / "roles.yaml"
    roles.write_text("game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 1, hero: 3}\n")
    r = run("match", "mafia", "--deck", roles, "a=random", "b=random", "--out", tmp_path / "m")
    assert r.exit_code == 2 and f"Invalid value for --deck: {roles}: Classic Mafia takes a deck" in r.output, r.output
    assert not (tmp_path / "m").exists()
    r = run("match", "magic-maze", "--deck", roles, "--scenario", "1", "a=planner", "b=random", "--games", "2",
            "--workers", "1", "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    [rec, _] = [json.loads(line) for line in (tmp_path / "r" / "results.jsonl").read_text().splitlines()]
    assert rec["options"]["deck"]["level"] == 2 and set(rec["sides"].values()) <= {"hero", "traitor"}


@pytest.mark.parametrize("reuse", [False, True])
def test_a_worker_without_a_folder_returns_no_empty_log(tmp_path, reuse):
    """A worker without a folder of its own (Ray's) returns a game's files in its record; a
    reused bot still holds its log open then, and its empty log came back and was written
    beside the transcripts. A log with the bot's stderr comes back."""
    (tmp_path / "bot.py").write_text((REPO / "docs" / "examples" / "random_bot.py").read_text())
    (tmp_path / "loud.py").write_text("import sys\nsys.stderr.write('hello\\n'); sys.stderr.flush()\n"
                                      + (REPO / "docs" / "examples" / "random_bot.py").read_text())
    for bot, logged in (("bot.py", False), ("loud.py", True)):
        entrants = [Entrant("prog", f"exec:{PY} {tmp_path / bot}"), Entrant("rnd", "random")]
        config = configuration("fbi-mafia", entrants, 2, modes=("duel-3v3",), cwd=str(tmp_path), reuse=reuse)
        t = Tournament({"format": 2, **config})
        worker = Worker(t.settings)
        try:
            record = worker.play(t.games[0], None)
        finally:
            worker.close()
        logs = {name: data for name, data in record["files"].items() if name.endswith(".stderr.log")}
        assert record["finished"] and (list(logs.values()) == [b"hello\n"] if logged else logs == {}), (bot, logs)


@pytest.mark.parametrize("max_moves", [20_000, 5])
def test_a_record_made_from_a_transcript_is_the_workers_but_for_its_time(tmp_path, max_moves):
    """``record_from_transcript`` (a game whose line a stopped run never wrote) gives the record
    the worker gave, of a game over or stopped at --max-moves, but for its time (null); the
    transcript of another game of the tournament is refused, naming the file."""
    from arbiter.engine.arena.runner import record_from_transcript
    from arbiter.engine.errors import TranscriptError

    entrants = [Entrant("rnd", "random"), Entrant("sleuth", "sleuth")]
    t = Tournament({"format": 2, **configuration("mafia", entrants, 2, players=6, max_moves=max_moves)})
    worker = Worker(t.settings)
    records = [worker.play(g, tmp_path) for g in t.games]
    assert [r["finished"] for r in records] == [max_moves > 5] * 2 and records[0]["forfeits"] == []
    for g, r in zip(t.games, records):
        assert record_from_transcript(g, tmp_path / r["transcript"], t.settings) == {**r, "time": None}
    with pytest.raises(TranscriptError, match=r"game-00001.yaml: not a transcript of this tournament's game 0 "):
        record_from_transcript(t.games[0], tmp_path / records[1]["transcript"], t.settings)


def test_a_transcript_of_the_same_games_played_by_other_bots_is_not_this_tournaments(tmp_path):
    """Another tournament of the same seed, setup and entrants' names, whose entrants are other
    programs, has the same games, deals and seatings: its transcript, put in this folder, was
    recorded by a resume as this tournament's game, its result credited to bots that never
    played it. The header's bots are this tournament's, or the transcript is refused."""
    from arbiter.engine.arena.runner import record_from_transcript
    from arbiter.engine.errors import TranscriptError

    ours = Tournament({"format": 2, **configuration("mafia", [Entrant("a", "random"), Entrant("b", "sleuth")], 2,
                                                    players=6)})
    theirs = Tournament({"format": 2, **configuration("mafia", [Entrant("a", "sleuth"), Entrant("b", "random")], 2,
                                                      players=6)})
    assert ours.games == theirs.games  # (the same games, deals and seatings)
    record = Worker(theirs.settings).play(theirs.games[0], tmp_path)
    assert record_from_transcript(theirs.games[0], tmp_path / record["transcript"], theirs.settings)["finished"]
    with pytest.raises(TranscriptError, match=r"game-00000.yaml: not a transcript of this tournament's game 0 \("
                                              r"its header says another game, deal, seating, bots or tournament\)"):
        record_from_transcript(ours.games[0], tmp_path / record["transcript"], ours.settings)

"""End-to-end tests of the ``arbiter`` command (``cli.main.main``): ``games``, ``play`` with random
bots and with moves from a file, and ``bench``.

How these tests run (in-process, or a child process with a hard timeout for external bots; never a
traceback; known bugs as strict xfails) and what they share: ``tests/cli_staging.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import precondition, responses, run, write
from tests.cli_staging import GRID_ROW, MODES, STANDARD_SEATS, grid_marks, identities


# -- games -------------------------------------------------------------------------------------


def table_rows(output: str) -> list[list[str]]:
    """The rows of a table printed with wrapped cells: the columns are where the dashes under
    the header are; a line whose first cell is empty continues the row above."""
    lines = output.splitlines()
    spans = [(m.start(), m.end()) for m in re.finditer(r"-+", lines[1])]
    rows: list[list[str]] = []
    for line in lines[2:]:
        cells = [line[a:b + 1].strip() for a, b in spans]
        if cells[0] or not rows:
            rows.append(cells)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells)]
    return rows


def test_games_lists_every_mode_as_a_table_in_80_columns() -> None:
    r = run("games")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert max(map(len, lines)) <= 80
    assert lines[0].split()[:4] == ["game", "mode", "seats", "description"]
    assert set(lines[1]) <= {"-", " "} and "-" in lines[1]
    table = table_rows(r.output)
    rows = {row[1]: " ".join(row) for row in table if row[0] == "fbi-mafia"}
    assert sorted(rows) == sorted(MODES)
    mafia = {row[1]: " ".join(row) for row in table if row[0] == "mafia"}
    assert sorted(mafia) == sorted(f"{n}-players" for n in range(6, 13))
    assert "p1 p2 p3 p4 p5 p6 p7 p8 p9 p10 p11 p12" in mafia["12-players"]
    assert " ".join(STANDARD_SEATS) in rows["standard-3v3"]
    assert "sniper criminalist" in rows["standard-4v4"]
    assert "mafia fbi" in rows["duel-3v3"] and "mafia fbi" in rows["duel-4v4"]
    assert "6x6" in rows["standard-3v3"] and "7x7" in rows["duel-4v4"]


# -- play with random bots --------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_play_random_bots_whole_game_every_mode(tmp_path: Path, mode: str) -> None:
    t = tmp_path / f"{mode}.yaml"
    r = run("play", "fbi-mafia", "--mode", mode, "--bots", "random", "--seed", 1, "--transcript", t)
    assert r.exit_code == 0, r.output
    assert "seed 1" in r.output.splitlines()[0]
    assert "# one command per line" not in r.output  # nobody types: no typing hints
    assert "stopped after" not in r.output  # the game ended: --max-moves did not stop it
    resp = responses(r.stdout)
    moves = [x for x in resp if not x[0].startswith("= board")]
    assert all(x[0].startswith("= ") for x in moves), "a bot move was refused"
    results = [line for x in moves for line in x if line.startswith("result: ")]
    assert len(results) == 1 and results[0] == next(line for line in moves[-1] if line.startswith("result: "))
    # the final board closes the output: every identity revealed, the result repeated
    board = resp[-1]
    assert board[0] == "= board"
    assert any(line.startswith("Result: ") for line in board)
    size = 6 if mode.endswith("3v3") else 7
    assert sum(1 for line in board if GRID_ROW.match(line)) == size
    n_characters = 6 if mode.endswith("3v3") else 8
    assert len(grid_marks(board)) == n_characters == len(identities(board))
    # the transcript replays
    rr = run("replay", t)
    assert rr.exit_code == 0, rr.output
    assert rr.output.startswith(f"ok {t}: {len(moves)} moves, finished")


def test_play_same_seed_same_game() -> None:
    a = run("play", "fbi-mafia", "--mode", "duel-3v3", "--bots", "random", "--seed", 42)
    b = run("play", "fbi-mafia", "--mode", "duel-3v3", "--bots", "random", "--seed", 42)
    c = run("play", "fbi-mafia", "--mode", "duel-3v3", "--bots", "random", "--seed", 43)
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.output == b.output
    assert a.output != c.output


# -- play with moves from a file --------------------------------------------------------------


def test_play_moves_file_comments_blank_lines_and_a_bad_line(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        # a game started by hand; comments and blank lines get no response

        bandit shift row 1 left
           # an indented comment
        bandit shift row 1 left
        undercover fly away
        UNDERCOVER   Masquerade
        awaiting
        time
        board
    """)
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    resp = responses(r.stdout)
    # exactly one response per line that is not blank and not a comment: 7 of them
    assert len(resp) == 7
    assert resp[0][0] == "= bandit shift row 1 left"
    assert resp[3][0].lower() == "= undercover masquerade"  # seat and words are case-insensitive
    assert resp[1][0].startswith("? not-your-turn: ")
    assert resp[2][0].startswith("? syntax: ")
    assert any(line.startswith("allowed: ") for line in resp[2])
    # the session went on after the refusals
    assert "event: The bandit shifts: shift row 1 left." in resp[0]
    assert resp[4] == ["= awaiting", resp[4][1]] and resp[4][1].startswith("awaiting: maniac ")
    assert resp[5] == ["= time", "time: 2"]
    assert resp[6][0] == "= board"
    assert "a game started by hand" not in r.output
    # the game is not over: no result, no final board after the input ran out
    assert "result:" not in r.output


def test_play_move_headline_in_canonical_words(tmp_path: Path) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "fbi-mafia", "--seed", 1, "--transcript", t, "--moves", "-",
            input="BANDIT   Shift Row 1 LEFT\nundercover MASQUERADE\n")
    heads = [x[0] for x in responses(r.stdout)]
    precondition(r.exit_code == 4 and len(heads) == 2 and all(h.startswith("= ") for h in heads), r.output)
    assert heads == ["= bandit shift row 1 left", "= undercover masquerade"]
    assert "text: shift row 1 left," in t.read_text(encoding="utf-8")


def test_play_moves_from_stdin(tmp_path: Path) -> None:
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", "-", input="bandit shift row 1 left\nquit\nseats\n")
    assert r.exit_code == 0, r.output
    resp = responses(r.stdout)
    assert [x[0] for x in resp] == ["= bandit shift row 1 left", "= bye"]  # nothing after quit


def test_play_as_seat_shows_only_its_identity(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        board
        view undercover
        board undercover
        legal undercover
        events operative
        undercover masquerade
        legal bandit
        view
        bandit shift row 1 left
    """)
    host = run("play", "fbi-mafia", "--seed", 1, "--moves", write(tmp_path / "b.txt", "board\n"))
    host_board = responses(host.stdout)[0]
    assert len(grid_marks(host_board)) == 6
    everyone = identities(host_board)

    r = run("play", "fbi-mafia", "--seed", 1, "--as", "bandit", "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    assert "you are bandit" in r.output.splitlines()[0]
    resp = responses(r.stdout)
    assert len(resp) == 9
    board = resp[0]
    assert board[0] == "= board"
    assert grid_marks(board) == [everyone["bandit"]]
    assert identities(board) == {"bandit": everyone["bandit"]}
    assert not any(line.startswith("Identities:") for line in board)
    for i in (1, 2, 3, 4, 5):
        assert resp[i][0].startswith("? denied: "), resp[i]
    text = "\n".join(line for x in resp for line in x)
    for character, suspect in everyone.items():
        if character != "bandit":
            assert f"{character}={suspect}" not in text
            assert f"*{suspect}" not in text
    assert resp[6][0] == "= legal bandit" and "legal: masquerade" in resp[6]
    assert resp[7][0] == "= view bandit"
    assert resp[8][0] == "= bandit shift row 1 left"


def test_play_as_duel_team_marks_the_whole_team(tmp_path: Path) -> None:
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 3, "--bot", "mafia=random", "--as", "fbi",
            "--moves", write(tmp_path / "m.txt", "board\nview mafia\n"))
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    resp = responses(r.stdout)
    assert resp[0][0].startswith("= mafia ")  # the bot moved first, then the file's lines
    board = next(x for x in resp if x[0] == "= board")
    mine = identities(board)
    assert sorted(mine) == ["detective", "operative", "undercover"]
    assert sorted(grid_marks(board)) == sorted(mine.values())
    assert resp[-1][0].startswith("? denied: ")


def test_play_json_one_object_per_line(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        # comment: no response
        bandit shift row 1 left

        bandit shift row 1 left
        undercover fly away
        awaiting
        legal undercover
        board bandit
        view undercover
        score
        quit
    """)
    r = run("play", "fbi-mafia", "--seed", 1, "--json", "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    assert r.stderr == (f"--moves {moves}: 2 lines refused: line 4 'bandit shift row 1 left', "  # (not its turn)
                        "line 5 'undercover fly away'\n")  # (for a person: the answers do not repeat the lines)
    lines = r.stdout.splitlines()
    objects = [json.loads(line) for line in lines]  # every line is JSON, no preamble
    assert len(objects) == 10
    assert all(isinstance(o, dict) and isinstance(o["ok"], bool) for o in objects)
    opening = objects.pop(0)  # what the text header shows: the game, the seats, this session's seat
    assert opening["command"] == "open" and opening["game"] == "fbi-mafia" and opening["seed"] == 1
    assert opening["seat"] == "host" and opening["seats"] == list(STANDARD_SEATS)
    assert [e["index"] for e in opening["events"]] == list(range(len(opening["events"])))
    assert opening["awaiting"][0]["seat"] == "bandit" and opening["result"] is None
    move = objects[0]
    assert move["ok"] and move["command"] == "move" and move["seat"] == "bandit"
    assert move["input"] == "shift row 1 left" and move["result"] is None
    assert [a["seat"] for a in move["awaiting"]] == ["undercover"]
    assert objects[1]["ok"] is False and objects[1]["error"]["kind"] == "not-your-turn"
    assert objects[2]["ok"] is False and objects[2]["error"]["kind"] == "syntax"
    assert objects[2]["error"]["allowed"]
    assert objects[3]["command"] == "awaiting"
    assert objects[4]["legal"] and objects[4]["resign"] == "surrender" and "surrender" not in objects[4]["legal"]
    assert objects[5]["seat"] == "bandit" and len(re.findall(r"\*\w", objects[5]["board"])) == 1
    assert objects[6]["view"]["seat"] == "undercover"
    assert objects[7]["command"] == "score" and objects[7]["result"] is None
    assert objects[8] == {"ok": True, "command": "quit"}


def test_play_bots_on_some_seats_moves_from_file_for_the_others(tmp_path: Path) -> None:
    bots = [a for seat in STANDARD_SEATS[1:] for a in ("--bot", f"{seat}=random")]
    moves = write(tmp_path / "bandit.txt", """
        bandit shift row 1 left
        bandit masquerade
        awaiting
    """)
    r = run("play", "fbi-mafia", "--seed", 1, *bots, "--moves", moves)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    heads = [x[0] for x in responses(r.stdout)]
    assert heads[0] == "= bandit shift row 1 left"
    assert "= bandit masquerade" in heads
    between = heads[1:heads.index("= bandit masquerade")]
    # every other seat moved once (the maniac and the operative have a second step) by its bot
    assert {h.split()[1] for h in between} == set(STANDARD_SEATS[1:])
    assert all(h.startswith("= ") for h in between)
    assert heads[-1] == "= awaiting"
    # the input ran out before the game ended: no result
    assert "result:" not in r.output


# -- bench -------------------------------------------------------------------------------------


def test_bench_tells_its_progress_after_each_game_of_each_round() -> None:
    from arbiter.engine import registry
    from arbiter.engine.bench import bench

    told: list[int] = []
    result = bench(registry.get("fbi-mafia"), "duel-3v3", 3, 7, 2, on_game=lambda: told.append(len(told)))
    assert told == list(range(6)) and len(result.rounds_s) == 2
    alone = bench(registry.get("fbi-mafia"), "duel-3v3", 3, 7, 1)  # no one to tell
    assert (alone.inputs, alone.wins) == (result.inputs, result.wins)


def test_bench_prints_rates_and_memory() -> None:
    r = run("bench", "fbi-mafia", "--games", 2, "--mode", "standard-3v3", "--repeat", 2)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "games/s" in lines[0] and "inputs/s" in lines[0] and "spread" in lines[0]
    row = lines[2].split()
    assert row[:2] == ["standard-3v3", "2"]
    float(row[2]), float(row[3])  # games/s and inputs/s are numbers
    assert float(row[6]) >= 1.0  # slowest round over fastest
    assert lines[0].split()[-2] == "copy" and 0 < float(row[7]) < 100  # ms to copy a game (Session.copy)
    assert len(lines) == 6 and max(map(len, lines)) <= 80
    assert lines[3].startswith("winners of standard-3v3: ")
    assert lines[4] == "random bots on every seat; median of 2 rounds of the same games"
    assert re.fullmatch(r"peak memory: \d+(\.\d+)? MiB", lines[-1])


def test_bench_table_keeps_80_columns_on_a_loaded_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine busy enough to make a copy take 10 ms (``12.35``) or its rounds differ tenfold
    pushed the row past 80 columns: the spread and the copy keep three figures at most."""
    import arbiter.cli.bench as cli_bench
    from arbiter.engine.bench import BenchResult

    def slow(rules, variant, games, seed, repeats, **kwargs):  # (the figures of a loaded machine)
        return BenchResult(variant, games, 190, (0.5, 6.1), 2500.0, 95.0, {"mafia": 2}, {}, 12.345)

    monkeypatch.setattr(cli_bench, "run_bench", slow)
    r = run("bench", "fbi-mafia", "--games", 2, "--mode", "standard-3v3", "--repeat", 2)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(map(len, lines)) <= 80, r.output
    assert lines[2].split()[6:8] == ["12.2", "12.3"], lines[2]  # spread 6.1/0.5, copy 12.345 ms
    for x, shown in ((4.494, "4.49"), (9.996, "10.0"), (99.96, "100"), (1234.5, "1234")):
        assert cli_bench._figure(x) == shown


@pytest.mark.parametrize("kept", [True, False])
def test_piped_input_that_ends_early_says_so_on_stderr(tmp_path: Path, kept: bool) -> None:
    """Input from a pipe or --moves FILE that ran out before the game ended once exited 4 with
    not a word (only a terminal was told): a script is told too, on stderr, with the command to
    resume, and stdout stays the game's responses alone."""
    record = ["--transcript", str(tmp_path / "t.yaml")] if kept else []
    r = run("play", "fbi-mafia", "--seed", 1, *record, input="bandit shift row 1 left\n")
    assert r.exit_code == 4, r.output
    assert [x[0] for x in responses(r.stdout)] == ["= bandit shift row 1 left"]
    assert "the input ended" not in r.stdout
    if kept:
        assert r.stderr == f"the input ended before the game did; resume it with: arbiter play --resume {tmp_path / 't.yaml'}\n"
    else:
        assert r.stderr == ("the input ended before the game did; no transcript was kept to resume it from "
                            "(--transcript FILE keeps one)\n")


def test_the_refused_lines_of_a_moves_file_are_named_by_number_on_stderr(tmp_path: Path) -> None:
    """The ``?`` answer to a refused line does not repeat it: a file of many lines ended with
    status 3 and no word of which. Lines are counted as the file has them (blank lines and
    comments too); an unreadable one is named by its number; past five, how many more."""
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"\n# a comment\nbandit fly\nbandit shift row 1 left\n\xff\xfe\n" + b"undercover fly\n" * 6)
    for source, given in ((str(moves), None), ("-", moves.read_bytes())):
        r = run("play", "fbi-mafia", "--seed", 1, "--moves", source, input=given)
        assert r.exit_code == 3
        assert r.stderr.splitlines()[0] == (f"--moves {source}: 8 lines refused: line 3 'bandit fly', line 5, "
                                            "line 6 'undercover fly', line 7 'undercover fly', line 8 'undercover fly', "
                                            "and 3 more")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", write(tmp_path / "ok.txt", "bandit shift row 1 left\nquit\n"))
    assert (r.exit_code, r.stderr) == (0, "")

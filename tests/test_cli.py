"""End-to-end tests of the ``arbiter`` command (``cli.main.main``).

Most commands run in-process with Click's ``CliRunner``. Tests with external bots
(``--bot SEAT=exec:...``) run the referee as a child process with a hard timeout instead, so a
referee that hangs on a bot fails the test rather than hanging the suite.

A user mistake must never produce a Python traceback: ``clean`` checks that for every result.
Known bugs are written as the correct behaviour and marked ``xfail(strict=True)``; set-up
checks inside those tests raise ``RuntimeError`` (not ``AssertionError``) so that only the
bug's own assertion can satisfy the xfail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from arbiter.cli.main import main
from arbiter.engine import transcript as tr
from tests.helpers import clean, precondition, responses, run, run_referee, write

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "scenarios" / "fbi_mafia"
MODES = ["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]
STANDARD_SEATS = ["bandit", "undercover", "maniac", "detective", "bomber", "operative"]
GRID_ROW = re.compile(r"^\s*\d+ \|")


# -- helpers -----------------------------------------------------------------------------------


def grid_marks(board_lines: list[str]) -> list[str]:
    """Names marked with '*' in the grid rows of a rendered board."""
    return [m for line in board_lines if GRID_ROW.match(line) for m in re.findall(r"\*(\w+)", line)]


def identities(board_lines: list[str]) -> dict[str, str]:
    """character -> suspect from the 'Identities:' or 'You (seat):' line of a board."""
    for i, line in enumerate(board_lines):
        if line.startswith(("Identities: ", "You (")):
            for more in board_lines[i + 1:]:  # a long line wraps, its continuation indented
                if not more.startswith("  "):
                    break
                line += " " + more.strip()
            return dict(re.findall(r"(\w+)=(\w+) \(", line))
    raise AssertionError("no identities line on the board:\n" + "\n".join(board_lines))


def finished_transcript(path: Path, mode: str = "standard-3v3", seed: int = 1) -> Path:
    r = run("play", "fbi-mafia", "--mode", mode, "--bots", "random", "--seed", seed, "--transcript", path)
    assert r.exit_code == 0, r.output
    return path


def move_count(path: Path) -> int:
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    m = re.search(r"^ok .*: (\d+) moves", r.output, re.M)
    assert m, r.output
    return int(m.group(1))


# Seed 1, Standard 3v3: the board is fixed by the seed, and these moves are legal in turn.
OPENING = [
    "bandit shift row 1 left",
    "undercover masquerade",
    "maniac swap b5 c5",
    "maniac threat e2 b5 e6",
]

# Bot programs, written into tmp_path by the tests that use them.
GOOD_BOT = r'''
import sys
# Speaks the seat side of docs/protocol.md: collect legal: lines until `go SEAT KIND`, answer
# one line. It answers the first legal input that is not surrender, preferring actions to
# shifts (a bot that always shifts the same row never ends a game: there is no turn limit).
log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None
with_seat = len(sys.argv) > 2 and sys.argv[2] == "with-seat"
legal = []
for line in sys.stdin:
    line = line.rstrip("\n")
    if log:
        log.write(line + "\n")
        log.flush()
    if line.startswith("legal: "):
        legal.append(line[len("legal: "):])
    elif line.startswith("go "):
        seat = line.split()[1]
        moves = [m for m in legal if m != "surrender"]
        actions = [m for m in moves if not m.startswith("shift ")]
        pick = (actions or moves or ["surrender"])[0]
        print(f"{seat} {pick}" if with_seat else pick, flush=True)
        legal = []
'''

SLOW_BOT = r'''
import time
time.sleep(20)   # never answers within --bot-timeout; gives up by itself in the end
'''

CRASH_BOT = r'''
import sys
sys.exit(3)
'''

ILLEGAL_BOT = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        print("kill a1", flush=True)   # no seat but the bandit can kill; the undercover cannot
'''

DEAF_BOT = r'''
# Answers blindly and never reads its input, with a small input pipe: the referee's writes
# fill the pipe within a few turns. It exits by itself after a while.
import fcntl, sys, time
try:
    fcntl.fcntl(0, fcntl.F_SETPIPE_SZ, 4096)
except (AttributeError, OSError):
    pass
end = time.monotonic() + 8
while time.monotonic() < end:
    print("masquerade", flush=True)
    time.sleep(0.02)
'''


def bot_script(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{sys.executable} {path}"


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
    resp = responses(r.output)
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
    resp = responses(r.output)
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
    heads = [x[0] for x in responses(r.output)]
    precondition(r.exit_code == 4 and len(heads) == 2 and all(h.startswith("= ") for h in heads), r.output)
    assert heads == ["= bandit shift row 1 left", "= undercover masquerade"]
    assert "text: shift row 1 left," in t.read_text(encoding="utf-8")


def test_play_moves_from_stdin(tmp_path: Path) -> None:
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", "-", input="bandit shift row 1 left\nquit\nseats\n")
    assert r.exit_code == 0, r.output
    resp = responses(r.output)
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
    host_board = responses(host.output)[0]
    assert len(grid_marks(host_board)) == 6
    everyone = identities(host_board)

    r = run("play", "fbi-mafia", "--seed", 1, "--as", "bandit", "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    assert "you are bandit" in r.output.splitlines()[0]
    resp = responses(r.output)
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
    resp = responses(r.output)
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
    lines = r.output.splitlines()
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
    heads = [x[0] for x in responses(r.output)]
    assert heads[0] == "= bandit shift row 1 left"
    assert "= bandit masquerade" in heads
    between = heads[1:heads.index("= bandit masquerade")]
    # every other seat moved once (the maniac and the operative have a second step) by its bot
    assert {h.split()[1] for h in between} == set(STANDARD_SEATS[1:])
    assert all(h.startswith("= ") for h in between)
    assert heads[-1] == "= awaiting"
    # the input ran out before the game ended: no result
    assert "result:" not in r.output


# -- external bots ------------------------------------------------------------------------------


def test_exec_bots_on_every_seat_play_a_whole_game(tmp_path: Path) -> None:
    logs = {seat: tmp_path / f"{seat}.log" for seat in STANDARD_SEATS}
    good = tmp_path / "good.py"
    good.write_text(GOOD_BOT, encoding="utf-8")
    args = ["play", "fbi-mafia", "--seed", "1", "--transcript", "t.yaml", "--bot-timeout", "5"]
    for i, seat in enumerate(STANDARD_SEATS):
        extra = " with-seat" if i % 2 else ""  # half the bots answer with a full line
        args += ["--bot", f"{seat}=exec:{sys.executable} {good} {logs[seat]}{extra}"]
    proc, _ = run_referee(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "forfeit" not in proc.stdout
    assert len(re.findall(r"^result: ", proc.stdout, re.M)) == 1
    heads = [x[0] for x in responses(proc.stdout)]
    assert all(h.startswith("= ") for h in heads)
    assert heads[-1] == "= board"
    assert {h.split()[1] for h in heads[:-1]} == set(STANDARD_SEATS)
    # the bots were spoken to as docs/protocol.md says
    bandit = logs["bandit"].read_text(encoding="utf-8").splitlines()
    first_go = bandit.index("go bandit action")
    assert any(line.startswith("event: ") for line in bandit[:first_go])
    assert bandit[first_go - 2].startswith("legal: ") and bandit[first_go - 1] == "resign: surrender"
    assert "legal: surrender" not in bandit  # the give-up input has a line of its own
    assert all(re.fullmatch(r"(event|legal|resign): .+|go bandit \w+", line) for line in bandit)
    # ... and told only what their seat may see: their own identity, nobody else's
    assert any("The bandit's identity" in line for line in bandit)
    assert not any(re.search(r"The (undercover|maniac|detective|bomber|operative)'s identity", line)
                   for line in bandit)
    rr = run("replay", tmp_path / "t.yaml")
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


def _forfeit_game(tmp_path: Path, bot: str) -> tuple[str, str, float]:
    args = ["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot", f"undercover={bot}",
            "--bot-timeout", "0.5", "--transcript", "t.yaml"]
    proc, elapsed = run_referee(args, tmp_path, timeout=30)
    assert proc.returncode == 0, proc.stderr
    transcript = (tmp_path / "t.yaml").read_text(encoding="utf-8")
    return proc.stdout, transcript, elapsed


def _assert_forfeit_recorded(tmp_path: Path, out: str, transcript: str, reason: str) -> None:
    resp = responses(out)
    surrender = next(x for x in resp if x[0] == "= undercover surrender")
    assert surrender[1].startswith("forfeit: undercover: ") and reason in surrender[1], surrender
    assert any(line.startswith("result: ") for line in surrender)
    notes = [e["note"] for e in yaml.safe_load(transcript)["log"] if "note" in e]
    assert len(notes) == 1, notes
    assert notes[0]["seat"] == "undercover" and reason in notes[0]["forfeit"], notes
    assert "\nresult:" in transcript
    rr = run("replay", tmp_path / "t.yaml")
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


def test_exec_bot_too_slow_forfeits(tmp_path: Path) -> None:
    out, transcript, elapsed = _forfeit_game(tmp_path, bot_script(tmp_path, "slow", SLOW_BOT))
    _assert_forfeit_recorded(tmp_path, out, transcript, "no answer within 0.5 s")
    assert elapsed < 10, f"the referee took {elapsed:.1f} s on a bot that never answers"


def test_exec_bot_that_crashes_forfeits(tmp_path: Path) -> None:
    out, transcript, _ = _forfeit_game(tmp_path, bot_script(tmp_path, "crash", CRASH_BOT))
    reason = re.search(r"forfeit: undercover: (.*)", out)
    assert reason and re.search(r"exited|closed", reason.group(1)), out
    _assert_forfeit_recorded(tmp_path, out, transcript, reason.group(1).split(" (")[0])


def test_exec_bot_with_an_illegal_input_forfeits(tmp_path: Path) -> None:
    out, transcript, _ = _forfeit_game(tmp_path, bot_script(tmp_path, "cheat", ILLEGAL_BOT))
    _assert_forfeit_recorded(tmp_path, out, transcript, "illegal input 'kill a1'")


@pytest.mark.parametrize("command", ["/nonexistent/dir/bot --fast", "'unbalanced quote"])
def test_exec_bot_that_cannot_start_is_a_clear_error(tmp_path: Path, command: str) -> None:
    r = run("play", "fbi-mafia", "--bots", "random", "--bot", f"undercover=exec:{command}")
    assert r.exit_code != 0
    assert "cannot start bot for undercover" in r.output


def test_exec_bot_that_never_reads_cannot_hang_the_referee(tmp_path: Path) -> None:
    args = ["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
            f"bandit={bot_script(tmp_path, 'deaf', DEAF_BOT)}", "--bot-timeout", "0.5"]
    proc, elapsed = run_referee(args, tmp_path, timeout=60)
    precondition(proc.returncode == 0, proc.stderr)
    precondition("result: " in proc.stdout, "the game did not end")
    # the bot exits by itself after 8 s; a referee that waited for it hung on it
    assert elapsed < 6, f"the referee hung {elapsed:.1f} s on a bot that does not read its input"


def test_exec_bot_forfeit_in_json_output(tmp_path: Path) -> None:
    args = ["play", "fbi-mafia", "--seed", "1", "--json", "--bots", "random",
            "--bot", f"undercover={bot_script(tmp_path, 'crash', CRASH_BOT)}"]
    proc, _ = run_referee(args, tmp_path, timeout=30)
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(o["ok"] for o in objects)
    surrender = [o for o in objects if o.get("seat") == "undercover" and o.get("input") == "surrender"]
    assert len(surrender) == 1 and surrender[0] is objects[-1]
    assert surrender[0]["result"]["reason"] == "surrender"
    forfeit = surrender[0]["forfeit"]
    assert forfeit["seat"] == "undercover" and re.search(r"exited|closed", forfeit["reason"])


def test_play_as_seat_does_not_see_the_detectives_kept_card() -> None:
    bots = [a for seat in STANDARD_SEATS[:-1] for a in ("--bot", f"{seat}=random")]
    for seed in range(1, 60):
        r = run("play", "fbi-mafia", "--seed", seed, "--as", "operative", *bots, "--moves", os.devnull)
        precondition(r.exit_code in (0, 4), r.output)  # 4: the operative's (empty) input ended first
        if "The detective keeps one card" in r.output:
            break
    else:
        precondition(False, "no seed where the detective inspects before the operative's turn")
    assert not re.search(r"^= detective keep [a-g][1-7]\b", r.output, re.M), "the kept card leaks to the operative"
    assert re.search(r"^= detective keep \(one of the inspected cards\)", r.output, re.M)


# -- replay ------------------------------------------------------------------------------------


def test_replay_tampered_move_fails_and_names_the_problem(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    text = t.read_text(encoding="utf-8")
    tampered = re.sub(r"(- \{move: \{n: 1, seat: )bandit,", r"\1undercover,", text, count=1)
    assert tampered != text
    t.write_text(tampered, encoding="utf-8")
    r = run("replay", t)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0] == f"FAIL {t}:"
    assert re.search(r"log\[\d+\] .*'seat': 'undercover'.*refused on replay: not-your-turn", r.output)
    # --update cannot make an illegal game legal
    ru = run("replay", "--update", t)
    assert ru.exit_code == 1 and "FAIL" in ru.output
    assert t.read_text(encoding="utf-8") == tampered


def test_replay_update_rewrites_a_changed_transcript(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    text = t.read_text(encoding="utf-8")
    real = re.search(r"^  text: (.*)$", text, re.M)
    assert real
    t.write_text(text.replace(real.group(0), "  text: tampered"), encoding="utf-8")
    r = run("replay", t)
    assert r.exit_code == 1
    assert f"FAIL {t}:" in r.output and "result differs" in r.output
    ru = run("replay", "--update", t)
    assert ru.exit_code == 0, ru.output
    assert re.match(rf"updated {re.escape(str(t))}: \d+ moves", ru.output)
    assert "tampered" not in t.read_text(encoding="utf-8")
    assert real.group(0) in t.read_text(encoding="utf-8")
    rr = run("replay", t)
    assert rr.exit_code == 0 and rr.output.startswith(f"ok {t}:"), rr.output


def test_replay_several_files_reports_each(tmp_path: Path) -> None:
    a = finished_transcript(tmp_path / "a.yaml", "standard-3v3", 1)
    b = finished_transcript(tmp_path / "b.yaml", "duel-4v4", 2)
    r = run("replay", a, b)
    assert r.exit_code == 0
    assert [line.split()[:2] for line in r.output.splitlines()] == [["ok", f"{a}:"], ["ok", f"{b}:"]]
    bad = tmp_path / "bad.yaml"
    bad.write_text(re.sub(r"(\{n: 1, seat: )\w+", r"\1operative", a.read_text(encoding="utf-8"), count=1),
                   encoding="utf-8")
    r = run("replay", a, bad, b)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"ok {a}:")
    assert lines[1] == f"FAIL {bad}:"
    assert "not-your-turn" in lines[2]
    assert lines[-1].startswith(f"ok {b}:")


@pytest.mark.parametrize("content", [
    b"\xff\xfe\x00 binary garbage \x80",
    b"format: 1\nlog: [\n",
    b"\x00\x01 not yaml",
    b"",
    b"- just\n- a list\n",
    b"format: 1\ngame: fbi-mafia\n",
    b"format: 2\n",
], ids=["binary", "bad-yaml", "nul", "empty", "list", "incomplete", "format"])
def test_replay_unreadable_file_is_a_clear_fail(tmp_path: Path, content: bytes) -> None:
    good = finished_transcript(tmp_path / "good.yaml")
    junk = tmp_path / "junk.yaml"
    junk.write_bytes(content)
    r = run("replay", junk, good)
    assert r.exit_code == 1
    first = r.output.splitlines()[0]
    assert first.startswith(f"FAIL {junk}: ") and len(first) > len(f"FAIL {junk}: ") + 5
    assert re.search(r"cannot read|not valid YAML|not a transcript|missing|not supported", first)
    assert f"ok {good}:" in r.output  # the other file was still checked


def test_replay_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    r = run("replay", tmp_path / "nope.yaml")
    assert r.exit_code == 2 and "does not exist" in r.output


def test_replay_transcript_with_bad_options_is_a_clear_fail(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    t.write_text(t.read_text(encoding="utf-8").replace("options: {}", "options: [1, 2]"), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(t)])
    precondition("options: [1, 2]" in t.read_text(encoding="utf-8"), "no options line to break")
    clean(result)
    assert result.exit_code == 1 and f"FAIL {t}" in result.output


# -- show --------------------------------------------------------------------------------------


def test_show_board_after_n_moves_as_a_seat(tmp_path: Path) -> None:
    t = tmp_path / "t.yaml"
    moves = write(tmp_path / "m.txt", "\n".join(OPENING[:2]) + "\nboard\nboard bandit\n" + OPENING[2] + "\n")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    played = [x for x in responses(r.output) if x[0] == "= board"]
    host_board, bandit_board = played[0][1:], played[1][1:]

    s = run("show", t, "--at", 2)
    assert s.exit_code == 0, s.output
    assert s.output.splitlines() == host_board  # the same board the game showed after 2 moves
    assert len(grid_marks(host_board)) == 6

    s = run("show", t, "--seat", "bandit", "--at", 2)
    assert s.exit_code == 0, s.output
    lines = s.output.splitlines()
    assert lines == bandit_board
    bandit = identities(host_board)["bandit"]
    assert grid_marks(lines) == [bandit]
    assert any(line.startswith("You (bandit): ") for line in lines)

    start = run("show", t, "--at", 0)
    s0 = run("show", t, "--seat", "undercover", "--at", 0)
    assert start.exit_code == s0.exit_code == 0
    assert "turn 1" in s0.output.splitlines()[0]
    assert grid_marks(s0.output.splitlines()) == [identities(start.output.splitlines())["undercover"]]
    # without --at: the end of the transcript (3 moves)
    assert "Awaiting maniac (threat)" in run("show", t).output


def test_show_at_beyond_the_end_is_a_clear_error(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    n = move_count(t)
    r = run("show", t, "--at", n + 1)
    assert r.exit_code != 0
    assert f"only {n} moves" in r.output
    r = run("show", t, "--at", -1)
    assert r.exit_code == 2
    r = run("show", t, "--seat", "nobody")
    assert r.exit_code != 0 and "nobody" in r.output


def test_show_at_the_last_move_of_a_finished_game(tmp_path: Path) -> None:
    t = finished_transcript(tmp_path / "t.yaml")
    n = move_count(t)
    end = run("show", t)
    precondition(end.exit_code == 0, end.output)
    r = run("show", t, "--at", n)
    assert r.exit_code == 0, r.output
    assert r.output == end.output


# -- resume -----------------------------------------------------------------------------------


def _unfinished(tmp_path: Path) -> Path:
    t = tmp_path / "t.yaml"
    moves = write(tmp_path / "m.txt", "\n".join(OPENING) + "\n")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 4 and "result:" not in r.output, r.output  # the input ended before the game did
    rr = run("replay", t)
    assert rr.exit_code == 0 and rr.output.strip().endswith("4 moves, unfinished (resumable)"), rr.output
    return t


def test_resume_unfinished_game_and_finish_with_bots(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    before = t.read_text(encoding="utf-8")
    r = run("play", "--resume", t, "--bots", "random")
    assert r.exit_code == 0, r.output
    assert "seed 1" in r.output.splitlines()[0]
    assert len(re.findall(r"^result: ", r.output, re.M)) == 1
    heads = [x[0] for x in responses(r.output)]
    assert not any(h.startswith("= bandit shift row 1 left") for h in heads)  # not played again
    assert heads[0].startswith("= detective ")
    after = t.read_text(encoding="utf-8")
    assert after.startswith(before)  # appended to, the hand-written moves kept
    assert "\nresult:" in after
    rr = run("replay", t)
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output
    assert move_count(t) > 4

    again = run("play", "--resume", t, "--bots", "random")
    assert again.exit_code != 0
    ending = tr.read(t).result["text"]
    assert f"that game is over ({ending}); nothing to resume" in again.output and ending
    assert t.read_text(encoding="utf-8") == after


def test_resume_with_moves_from_a_file(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    r = run("play", "--resume", t, "--moves", write(tmp_path / "more.txt", "awaiting\nquit\n"))
    assert r.exit_code == 0, r.output
    assert [x[0] for x in responses(r.output)] == ["= awaiting", "= bye"]
    assert "awaiting: detective action" in r.output
    assert move_count(t) == 4


def test_resume_after_a_cut_off_last_line(tmp_path: Path) -> None:
    t = _unfinished(tmp_path)
    with t.open("a", encoding="utf-8") as f:
        f.write("- {move: {n: 5, seat: det")  # a crash in the middle of a line
    first = run("replay", t)
    assert first.exit_code == 0 and "cut off" in first.output, first.output
    r = run("play", "--resume", t, "--bots", "random")
    assert r.exit_code == 0, r.output
    assert "seat: det\n" not in t.read_text(encoding="utf-8")
    rr = run("replay", t)
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output
    assert "cut off" not in rr.output


# -- validate ---------------------------------------------------------------------------------


def test_validate_packaged_data() -> None:
    r = run("validate")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for name in ("modes", "roles", "suspects"):
        assert f"ok scenarios/fbi_mafia/{name}.yaml" in lines
    assert "ok fbi-mafia: 4 modes load and cross-check" in lines
    assert "FAIL" not in r.output


def test_validate_a_good_copy(tmp_path: Path) -> None:
    copy = tmp_path / "fbi_mafia"
    shutil.copytree(SCENARIOS, copy)
    r = run("validate", copy)
    assert r.exit_code == 0, r.output
    assert sorted(r.output.splitlines()) == sorted(f"ok {copy / f}" for f in
                                                   ("modes.yaml", "roles.yaml", "suspects.yaml"))


BREAKAGES = {
    # id: (file, old text, new text, path inside the file, words of the problem)
    "wrong-type": ("modes.yaml", "seating: standard\n    board: 6", "seating: standard\n    board: six",
                   "modes.standard-3v3.board",
                   "expected a whole number, found text"),
    "unknown-key": ("modes.yaml", "    evidence_hand: 0\n  standard-4v4:",
                    "    evidence_hand: 0\n    colour: red\n  standard-4v4:",
                    "modes.standard-3v3.colour", "unknown key"),
    "bad-yaml": ("roles.yaml", "actions: [kill, masquerade]", "actions: [kill, masquerade",
                 "not valid YAML", "not valid YAML"),
    "cell-name": ("suspects.yaml", "Ada, Boris,", "Ada, c3,", "suspects[1]",
                  "'c3' cannot be a suspect name"),
    "role-unknown-key": ("roles.yaml", "    shift: [1, 2]\n  undercover:",
                         "    shift: [1, 2]\n    speed: 3\n  undercover:", "roles.bandit.speed", "unknown key"),
    "limit-type": ("roles.yaml", "protection_tokens: 6", "protection_tokens: [6]",
                   "limits.protection_tokens", "expected a whole number, found a list"),
    "bad-seating": ("modes.yaml", "seating: duel\n    board: 6", "seating: trio\n    board: 6",
                    "modes.duel-3v3.seating", "'trio' is not one of: standard, duel"),
}


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / "fbi_mafia"
    shutil.copytree(SCENARIOS, copy)
    text = (copy / file).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {file}"
    (copy / file).write_text(text.replace(old, new), encoding="utf-8")
    return copy


@pytest.mark.parametrize("target", ["file", "folder"])
@pytest.mark.parametrize("case", list(BREAKAGES))
def test_validate_broken_copy_names_file_path_and_problem(tmp_path: Path, case: str, target: str) -> None:
    file, old, new, where, problem = BREAKAGES[case]
    copy = _broken_copy(tmp_path, file, old, new)
    r = run("validate", copy / file if target == "file" else copy)
    assert r.exit_code == 1, r.output
    fails = [line for line in r.output.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 1, r.output
    m = re.match(rf"FAIL {re.escape(str(copy / file))}:(\d+): {re.escape(where)}", fails[0])
    assert m, fails[0]
    assert problem in fails[0]
    if where != "not valid YAML":  # (a syntax error is where the parser notices it, maybe later)
        line = (copy / file).read_text(encoding="utf-8").splitlines()[int(m.group(1)) - 1]
        assert new.split("\n")[-1].strip() in line or where.split(".")[-1].split("[")[0] in line, f"line {m.group(1)}: {line!r}"
    if target == "folder":  # the other files are still checked
        assert len([line for line in r.output.splitlines() if line.startswith("ok ")]) == 2


@pytest.mark.parametrize("target", ["file", "folder"])
def test_validate_unknown_role_in_turn_order(tmp_path: Path, target: str) -> None:
    old = "turn_order: [bandit, undercover, maniac, detective, bomber, operative]\n    win: {arrests: 4, kills: 18}\n    evidence_hand: 0\n  standard-4v4"
    copy = _broken_copy(tmp_path, "modes.yaml", old, old.replace("maniac", "wizard", 1))
    r = run("validate", copy / "modes.yaml" if target == "file" else copy)
    assert r.exit_code == 1, r.output
    assert re.search(rf"{re.escape(str(copy / 'modes.yaml'))}:\d+: modes\.standard-3v3\.turn_order", r.output), r.output
    assert "wizard" in r.output


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
    assert len(lines) == 6 and max(map(len, lines)) <= 80
    assert lines[3].startswith("winners of standard-3v3: ")
    assert lines[4] == "random bots on every seat; median of 2 rounds of the same games"
    assert re.fullmatch(r"peak memory: \d+(\.\d+)? MiB", lines[-1])


# -- user mistakes ------------------------------------------------------------------------------


MISTAKES: dict[str, tuple[list[str], str, int]] = {
    "unknown game": (["play", "chess"], "no game named 'chess'", 2),
    "unknown mode": (["play", "fbi-mafia", "--mode", "nope", "--bots", "random"], "no mode 'nope'", 2),
    "bot for unknown seat": (["play", "fbi-mafia", "--bot", "nobody=random"], "no seat 'nobody'", 2),
    "unknown bot kind": (["play", "fbi-mafia", "--bot", "bandit=weird"], "unknown bot 'weird'", 2),
    "bot without kind": (["play", "fbi-mafia", "--bot", "bandit"], "SEAT=KIND", 2),
    "bot with a blank kind": (["play", "fbi-mafia", "--bot", "bandit= "], "'bandit= ': expected SEAT=KIND", 2),
    "empty exec": (["play", "fbi-mafia", "--bot", "bandit=exec:", "--bots", "random"], "exec:", 2),
    "as unknown seat": (["play", "fbi-mafia", "--bots", "random", "--as", "nobody"], "nobody", 2),
    "as a bot's seat": (["play", "fbi-mafia", "--bot", "bandit=random", "--as", "bandit"], "played by a bot", 2),
    "resume non-transcript": (["play", "--resume", "{notes}"], "not a transcript", 1),
    "resume missing": (["play", "--resume", "{tmp}/gone.yaml"], "does not exist", 2),
    "no game": (["play"], "name a game", 2),
    "bots kind": (["play", "fbi-mafia", "--bots", "clever"], "clever", 2),
    "bench unknown game": (["bench", "chess", "--games", "1"], "no game named 'chess'", 2),
    "bench unknown mode": (["bench", "fbi-mafia", "--mode", "nope", "--games", "1"], "no mode 'nope'", 2),
    "bench no games": (["bench", "fbi-mafia", "--games", "0"], "--games", 2),
    "show non-transcript": (["show", "{notes}"], "not a transcript", 1),
    "validate missing": (["validate", "{tmp}/gone"], "does not exist", 2),
    "unknown command": (["referee"], "No such command", 2),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_user_mistakes_are_clear_errors_with_their_exit_status(tmp_path: Path, case: str) -> None:
    """Usage errors exit with status 2 and name what is allowed; errors of a file, 1."""
    notes = write(tmp_path / "notes.txt", "just some notes\n")
    args, message, status = MISTAKES[case]
    r = run(*(a.format(notes=notes, tmp=tmp_path) for a in args))
    assert r.exit_code == status, r.output
    assert message in r.output
    assert "Error" in r.output


def test_transcript_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "fbi-mafia", "--bots", "random",
                                       "--transcript", str(tmp_path / "no" / "such" / "t.yaml")])
    clean(result)
    assert result.exit_code != 0


@pytest.mark.parametrize("timeout", ["-1", "inf", "nan"])
def test_bad_bot_timeout_is_a_clear_error(tmp_path: Path, timeout: str) -> None:
    args = ["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot-timeout", timeout,
            "--bot", f"bandit={bot_script(tmp_path, 'good', GOOD_BOT)}"]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "arbiter.cli.main", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert "Traceback" not in proc.stderr
    assert proc.returncode != 0 and "--bot-timeout" in proc.stderr

"""End-to-end tests of the ``arbiter`` command for Magic Maze (``docs/rules/magic-maze.md``).

Commands run in-process with Click's ``CliRunner``; tests with external bots (``exec:``) or
typed lines arriving over time run the referee as a child process with a hard timeout, so a
referee that hangs fails the test instead of hanging the suite. A user mistake must never
produce a Python traceback: ``clean`` checks that for every result.

The by-hand games below were found by playing in-process first (``legal p1``). Scenario 1,
seed 1, solo: the heroes start purple 1a.b2, yellow 1a.c2, green 1a.b3, orange 1a.c3, and the
action deck turns east, escalator, explore, west, north, south, vortex. Two players: p1 holds
vortex + north + east, p2 escalator + explore + south + west.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.rules import MagicMazeRules
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.helpers import precondition, responses, run, run_referee, write

REPO = Path(__file__).resolve().parents[1]
GOLDENS = sorted((REPO / "transcripts" / "magic-maze").glob("*.yaml"))
TILES = REPO / "scenarios" / "magic_maze"
MAZE = registry.get("magic-maze")
MAZE_DATA = mm.load()
LEGEND = MagicMazeRules.legend
STATUS_HEAD = "Magic Maze, scenario "
TILE_NAME = re.compile(r"(1a|1b|[2-9]-|1[0-9])")
WIN = "result: Every hero is out with the loot: everyone wins."
LOSS = re.compile(r"result: The sand ran out at \d+(\.\d+)? s: everyone loses\.")


# -- helpers -----------------------------------------------------------------------------------


def referee_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def split_board(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the map's lines, the status block) of a rendered board; a map drawn in strips (too wide
    for 80 columns) is put back together."""
    i = next(i for i, line in enumerate(lines) if line.startswith(STATUS_HEAD))
    return unstrip(lines[:i]), lines[i:]


def unstrip(lines: list[str]) -> list[str]:
    """A map drawn in strips of whole squares ('(squares 1-26 of 29, west to east)' and its
    lines, then the next strip's) as one map again."""
    heads = [i for i, line in enumerate(lines) if line.startswith("(squares ")]
    if not heads:
        return lines
    strips = [lines[a + 1:b] for a, b in zip(heads, heads[1:] + [len(lines)])]
    firsts = [int(re.match(r"\(squares (\d+)-", lines[h]).group(1)) - 1 for h in heads]
    whole = []
    for row in zip(*strips):
        line = ""
        for first, part in zip(firsts, row):
            part = "" if part == "." else part
            line = line.ljust(3 * first)[:3 * first] + part
        whole.append(line.rstrip())
    return whole


def square_codes(map_lines: list[str]) -> set[str]:
    """The 2-character square codes of a map (rows of squares are its odd lines)."""
    codes = set()
    for line in map_lines[1::2]:
        for j in range(0, len(line), 3):
            code = line[j + 1: j + 3]
            if code.strip():
                codes.add(code)
    return codes


def wall_marks(map_lines: list[str]) -> tuple[set[str], set[str]]:
    """(the marks between squares on rows: walls, orange walls, passages; the 2-character marks
    of wall lines: walls, orange walls, passages and tile names)."""
    vertical, horizontal = set(), set()
    for k, line in enumerate(map_lines):
        for j in range(0, len(line), 3):
            if k % 2:
                vertical.add(line[j])
            else:
                assert line[j] in "+ ", (k, line)
                horizontal.add(line[j + 1: j + 3].ljust(2))
    return vertical, horizontal


def explained(code: str) -> bool:
    """Whether the legend explains a square code (explored exploration squares are the
    lower-case forms of the ``E.`` codes: "ep ... once explored")."""
    tokens = set(LEGEND.split())
    if code in tokens:
        return True
    return code[0] == "e" and code.capitalize() in tokens and "once explored" in LEGEND


def moves_of(transcript: Path) -> list[dict]:
    return [e["move"] for e in yaml.safe_load(transcript.read_text(encoding="utf-8"))["log"] if "move" in e]


def notes_of(transcript: Path) -> list[dict]:
    return [e["note"] for e in yaml.safe_load(transcript.read_text(encoding="utf-8"))["log"] if "note" in e]


def replay_ok(path: Path) -> str:
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"ok {path}: "), r.output
    return r.output


# -- whole games with the built-in bots ------------------------------------------------------------


@pytest.mark.parametrize(("scenario", "players", "seed"), [("1", 2, 1), ("1", 4, 2), ("2", 3, 1), ("1", 1, 8)])
def test_play_planner_bots_end_with_the_result_and_the_board(tmp_path: Path, scenario: str, players: int,
                                                              seed: int) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", scenario, "--players", players, "--bots", "planner",
            "--seed", seed, "--transcript", t)
    assert r.exit_code == 0, r.output
    seats = [f"p{i}" for i in range(1, players + 1)]
    title = MAZE.variant(scenario).title
    assert r.output.splitlines()[0] == f"# Magic Maze, {title}, seed {seed}; seats: {' '.join(seats)}"
    resp = responses(r.output)
    moves, board = resp[:-1], resp[-1]
    heads = [x[0] for x in moves]
    assert all(re.match(r"= (p\d+ \S|time \d)", h) for h in heads), [h for h in heads if not h.startswith("= p")]
    assert {h.split()[1] for h in heads if not h.startswith("= time")} <= set(seats)
    results = [line for x in moves for line in x if line.startswith("result: ")]
    assert len(results) == 1 and results[0] in moves[-1], "the result is not in the last answer only"
    # the output ends with the board: the map, then the status block, then the result
    assert board[0] == "= board"
    map_lines, status = split_board(board[1:])
    assert status[0] == f"Magic Maze, {title}; {players} player(s)"
    assert re.fullmatch(r"time left \d+(\.\d+)? s of 180 \(clock \d+(\.\d+)?\); flips \d+; stack \d+", status[1])
    assert status[-1] == results[0] == r.output.rstrip("\n").splitlines()[-1]
    if players == 1:
        assert any(line.startswith("solo: usable action ") for line in status)
    else:
        assert [line.split(":")[0] for line in status if re.match(r"p\d+: ", line)] == seats
    start = MAZE_DATA.scenarios[scenario].start.lower()
    assert sum(line.count(f"+{start}+") for line in map_lines) == 1, "the start tile's name is not in its corner"
    assert all(explained(c) for c in square_codes(map_lines)), square_codes(map_lines)
    if results[0] == WIN:
        assert "theft: done, escape!; escaped: " in "\n".join(status)
        assert sorted(next(s for s in status if s.startswith("theft:")).split("escaped: ")[1].split()) == \
            sorted(["purple", "yellow", "green", "orange"])
        assert not re.search(r"[PYGO]@", "\n".join(map_lines)), "a hero is still in the mall"
    else:
        assert LOSS.fullmatch(results[0]), results[0]
    # the transcript replays; scenario 2 with three players is the golden of that recipe
    assert "finished: " in replay_ok(t)
    assert len(moves_of(t)) == sum(1 for h in heads if not h.startswith("= time"))
    if (scenario, players, seed) == ("2", 3, 1):
        golden = (REPO / "transcripts" / "magic-maze" / "scenario2-3p-planner-win-seed1.yaml").read_text(encoding="utf-8")
        assert results[0] == WIN
        written = re.sub(r"\nsession:\n(  .*\n)+", "\n", t.read_text(encoding="utf-8"))  # how play ran it
        assert written == golden.replace("- {note: {golden: planner bots on every seat}}\n", "")


def test_max_moves_then_resume_gives_the_same_game(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.yaml", tmp_path / "cut.yaml"
    common = ["play", "magic-maze", "--scenario", 1, "--players", 2, "--bots", "planner", "--seed", 1]
    assert run(*common, "--transcript", whole).exit_code == 0
    r = run(*common, "--transcript", cut, "--max-moves", 20)
    assert r.exit_code == 0, r.output
    assert f"# stopped after 20 moves (--max-moves); resume with: arbiter play --resume {cut}" in r.output
    assert "result:" not in r.output
    assert "20 moves, unfinished (resumable)" in replay_ok(cut)
    r = run("play", "--resume", cut, "--bots", "planner")
    assert r.exit_code == 0, r.output
    assert r.output.rstrip("\n").endswith(WIN)
    assert cut.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_json_mode_answers_one_object_per_line_and_the_sand_running_out_is_a_wait(tmp_path: Path) -> None:
    r = run("play", "magic-maze", "--scenario", 1, "--players", 2, "--bots", "random", "--seed", 1, "--json")
    assert r.exit_code == 0, r.output
    objects = [json.loads(line) for line in r.output.splitlines()]
    assert all(o["ok"] for o in objects)
    assert objects.pop(0)["command"] == "open"
    assert [o["command"] for o in objects[:-1]] == ["move"] * (len(objects) - 1)
    last = objects[-1]
    assert last["command"] == "wait" and last["awaiting"] == []
    assert last["result"]["reason"] == "time" and last["result"]["winner"] is None
    assert [e["kind"] for e in last["events"]] == ["game-over"]
    assert last["time"] == last["result"]["text"].split(" at ")[1].split(" s")[0]


@pytest.mark.parametrize(("scenario", "players", "seed"), [("1", 2, 1), ("3", 4, 2), ("1", 1, 3)])
def test_play_random_bots_end_with_a_loss(tmp_path: Path, scenario: str, players: int, seed: int) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", scenario, "--players", players, "--bots", "random",
            "--seed", seed, "--transcript", t)
    assert r.exit_code == 0, r.output
    resp = responses(r.output)
    last_move, board = resp[-2], resp[-1]
    assert LOSS.fullmatch(last_move[-1]), last_move
    assert board[0] == "= board" and board[-1] == last_move[-1]
    _, status = split_board(board[1:])
    assert status[1].startswith("time left 0 s of 180 (clock ")
    assert "theft: not yet" in status
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    assert doc["result"]["reason"] == "time" and doc["result"]["winner"] is None
    assert "finished: The sand ran out" in replay_ok(t)


@pytest.mark.parametrize(("args", "words"), [
    (["--players", "9"], ["1 to 8 players, not 9"]),
    (["--scenario", "8"], ["no scenario '8'", "1, 2, 3, 4, 5, 6, 7"]),
    (["--deck", "DECK"], ["Magic Maze takes a Hidden Roles deck", "kind: roles", "this file is game: mafia"]),
])
def test_setup_mistakes_are_clear_errors(tmp_path: Path, args: list[str], words: list[str]) -> None:
    deck = write(tmp_path / "deck.yaml", "game: mafia\nkind: deck\ncards: {boss: 1, civilian: 5}\n")
    args = [str(deck) if a == "DECK" else a for a in args]
    r = run("play", "magic-maze", *args, "--bots", "planner", "--seed", 1, "--transcript", tmp_path / "t.yaml")
    assert r.exit_code == 2, r.output  # a usage error
    assert "Error: " in r.output, r.output
    for w in words:
        assert w in r.output, (w, r.output)
    assert not (tmp_path / "t.yaml").exists()


def test_zero_players_is_a_usage_error() -> None:
    r = run("play", "magic-maze", "--players", 0, "--bots", "planner")
    assert r.exit_code == 2 and "--players" in r.output


def test_unknown_bot_kind_names_the_planner() -> None:
    r = run("play", "magic-maze", "--players", 2, "--bots", "clever")
    assert r.exit_code == 2 and "unknown bot 'clever'" in r.output and "planner" in r.output


# -- a newcomer's first game, by hand ---------------------------------------------------------------


NEWCOMER = """
# my first heist: scenario 1, alone
p1 move purple north
p1 draw
legal p1
p1 move purple north
p1 move yellow up
p1 move yellow east 2
p1 move yellow east
p1 say where is the purple exit?
p1 fly
board
p1 draw
p1 escalator yellow
p1 draw
p1 explore purple
p1 draw
p1 move purple west
p1 draw
p1 draw
p1 draw
p1 draw
p1 draw
p1 draw
p1 explore purple
board
"""


def test_a_newcomer_plays_the_first_scenario_alone_by_hand(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", NEWCOMER)
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--seed", 1, "--moves", moves, "--transcript", t)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    # before the first line: the board is in front of the player (as comments), and who acts
    intro = [line[2:] for line in r.output.splitlines() if line.startswith("# ")]
    assert "+1a+--+  +--+" in intro and "solo: usable action none (draw); deck 7, discard 0" in intro
    assert "awaiting: p1 any: act at any time with: nothing (draw)" in intro
    resp = responses(r.output)
    heads = [x[0] for x in resp]
    assert heads == [
        "? illegal: p1 cannot north: p1's action tile(s) show nothing yet (draw)",
        "= p1 draw",
        "= legal p1",
        "? illegal: p1 cannot north: p1's action tile(s) show east",
        "? syntax: 'up' is not a direction (north, south, east, west)",
        "? illegal: the yellow hero can move at most 1 square(s) east",
        "= p1 move yellow east 1",
        "= p1 say where is the purple exit?",
        "? syntax: 'fly' is not an action of Magic Maze",
        "= board",
        "= p1 draw", "= p1 escalator yellow", "= p1 draw",
        "? illegal: the purple hero is not on an unexplored exploration square",
        "= p1 draw", "= p1 move purple west 1",
        *["= p1 draw"] * 6,
        "= p1 explore purple",
        "= board",
    ]
    by_head = {x[0]: x[1:] for x in resp}
    assert resp[1][1] == "event: Action tile turned: east."
    assert by_head["= legal p1"] == ["legal: move yellow east 1", "legal: move orange east 1", "legal: draw",
                                     "legal: pawn p1", "form: say TEXT"]  # a template, on a line of its own
    assert "allowed: move HERO DIRECTION [SQUARES]: straight, as far as it goes or SQUARES squares" in \
        by_head["? syntax: 'up' is not a direction (north, south, east, west)"]
    fly = by_head["? syntax: 'fly' is not an action of Magic Maze"]
    assert [line.split()[1].rstrip(":") for line in fly] == ["move", "vortex", "escalator", "explore", "draw", "say", "pawn", "stare"]
    assert by_head["= p1 say where is the purple exit?"][0] == "event: p1: where is the purple exit?"
    # the board after three accepted inputs: heroes, squares, and the status block
    first = resp[heads.index("= board")][1:]
    map_lines, status = split_board(first)
    assert map_lines == [
        "+1a+--+  +--+",
        "|Vp Hg|Eo Vy|",
        "+--+  +  +  +",
        " Ep P@ .. Y@|",
        "+  +  +  +--+",
        "|S1 G@ O@ Eg",
        "+--+  +  +  +",
        "|Vg Ey Vo ##|",
        "+--+  +--+--+",
    ]
    assert status == [
        "Magic Maze, scenario 1: the first heist; 1 player(s)",
        "time left 177 s of 180 (clock 3); flips 0; stack 8",
        "theft: not yet",
        "talk: open; pawn: on the table",
        "solo: usable action east; deck 6, discard 1",
    ]
    # the deck ran out and came back unshuffled; the explore joined tile 5 west of the start
    assert "event: The action deck is empty: the discard pile is turned over." in \
        [line for x in resp for line in x]
    assert "event: Tile 5 joins the mall at 1a.a2; 7 left in the stack." in by_head["= p1 explore purple"]
    last_map, last_status = split_board(resp[-1][1:])
    assert last_map[0].startswith("+5-+") and "1a+" in last_map[2]
    assert sum(line.count("@") for line in last_map) == 4
    assert all(explained(c) for c in square_codes(last_map)), square_codes(last_map)
    accepted = sum(1 for h in heads if h.startswith("= p1 "))
    assert last_status[1] == f"time left {180 - accepted} s of 180 (clock {accepted}); flips 0; stack 7"
    # refused lines are not in the transcript; the game goes on from it
    assert [m["text"] for m in moves_of(t)][:3] == ["draw", "move yellow east 1", "say where is the purple exit?"]
    assert len(moves_of(t)) == accepted
    assert "unfinished (resumable)" in replay_ok(t)


def test_say_after_the_first_action_in_scenario_2_is_refused_with_the_reason(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        p1 say let us go west
        p2 move green west
        p1 say go on
        p1 stare p2
        p2 pawn p1
        p2 say sorry
    """)
    r = run("play", "magic-maze", "--scenario", 2, "--players", 2, "--seed", 1, "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    heads = [x[0] for x in responses(r.output)]
    silence = ("? illegal: silence: talk is allowed only from the start of the game, after an hourglass flip, "
               "until the next action; staring and the pawn are always allowed")
    assert heads == ["= p1 say let us go west", "= p2 move green west 1", silence, "= p1 stare p2", "= p2 pawn p1",
                     silence]
    assert "talk: open; pawn: on the table" in r.output  # the board shown before the first line


# -- real time --------------------------------------------------------------------------------------


def test_realtime_stamps_every_line_with_the_wall_clock_and_replays(tmp_path: Path) -> None:
    moves = write(tmp_path / "moves.txt", """
        p1 draw
        board
        # a comment is not stamped
        p1 pawn p1

        p1 draw
        @5 p1 draw
        p1 draw
    """)
    plain, live = tmp_path / "plain.yaml", tmp_path / "live.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--seed", 1, "--moves", moves, "--transcript", plain)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    r = run("play", "magic-maze", "--scenario", 1, "--seed", 1, "--realtime", "--moves", moves,
            "--transcript", live)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    assert all(x[0].startswith("= ") for x in responses(r.output))
    # without --realtime each line takes the scenario's step; with it, the time since the start
    assert [m["time"] for m in moves_of(plain)] == [1, 2, 3, 5, 6]
    times = [m["time"] for m in moves_of(live)]
    assert [m["text"] for m in moves_of(live)] == ["draw", "pawn p1", "draw", "draw", "draw"]
    assert times[:3] == sorted(times[:3]) and times[2] < 3, f"the lines were not stamped: {times}"
    assert times[3] == 5, "a line's own stamp is kept"
    assert times[4] >= 5, "a stamp never goes before the clock"
    assert times == sorted(times)
    ticks = [e["tick"]["time"] for e in yaml.safe_load(live.read_text(encoding="utf-8"))["log"] if "tick" in e]
    # the stamped 'board' lets time pass: a tick, unless it came in the same millisecond
    assert len(ticks) <= 1 and all(times[0] <= tick <= times[1] for tick in ticks), ticks
    assert "5 moves, unfinished (resumable)" in replay_ok(live)


def test_wall_clock_stamps_are_never_before_the_clock() -> None:
    session = Session(MAZE, "1", seed=1, options={"players": 1})
    now = [100.0]

    def typed():  # each line arrives at its wall-clock second
        for at, line in [(100.25, "p1 draw"), (100.5, "  "), (100.75, "# note"), (101.0, "@9 p1 draw"),
                         (101.5, "board"), (102.0, "p1 draw")]:
            now[0] = at
            yield line

    out = list(Match(Protocol(session), {}, typed(), realtime=True, clock=lambda: now[0]).run())
    assert len(out) == 4  # the blank line and the comment get no answer
    assert [m.time_ms for m in session.moves] == [250, 9000, 9000]  # the game's clock ran ahead of the wall


def test_realtime_lines_typed_over_time_are_recorded_with_their_times(tmp_path: Path) -> None:
    """A person types a line, reads the answer, waits 0.4 s, types the next: each line is
    stamped when it arrives, so the recorded times are at least 0.4 s apart."""
    args = [sys.executable, "-m", "arbiter.cli.main", "play", "magic-maze", "--scenario", "1", "--seed", "1",
            "--realtime", "--transcript", "t.yaml"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=referee_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(30, proc.kill)  # a referee that hangs fails the test, never the suite
    watchdog.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def read_until(test) -> list[str]:  # type: ignore[no-untyped-def]
            got = []
            while True:
                line = proc.stdout.readline()
                precondition(line != "", "the referee ended early: " + "".join(got))
                got.append(line)
                if test(line):
                    return got

        read_until(lambda line: line.startswith("# awaiting: p1"))  # the referee is ready
        answers = []
        for line in ("p1 draw", "p1 draw", "p1 pawn p1"):
            time.sleep(0.4)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answers.append(read_until(lambda text: text == "\n")[0].rstrip("\n"))
        out, err = proc.communicate(timeout=30)  # closes the referee's input: end of the lines
    finally:
        watchdog.cancel()
    assert proc.returncode == 4 and "Traceback" not in err, err  # the input ended before the game did
    assert answers == ["= p1 draw", "= p1 draw", "= p1 pawn p1"]
    times = [m["time"] for m in moves_of(tmp_path / "t.yaml")]
    assert times[0] >= 0.35, times
    assert all(b - a >= 0.35 for a, b in zip(times, times[1:])), times
    assert times[-1] < 25, times
    replay_ok(tmp_path / "t.yaml")


def test_realtime_with_a_bot_seat_keeps_time_in_order(tmp_path: Path) -> None:
    """p2 is a planner bot; with --realtime its inputs and p1's typed lines are all stamped with
    the wall clock (never before the clock), so the record is in time order."""
    moves = write(tmp_path / "moves.txt", "p1 stare p2\np1 pawn p2\np1 stare p2\n")
    t = tmp_path / "t.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--players", 2, "--seed", 1, "--bot", "p2=planner",
            "--realtime", "--moves", moves, "--transcript", t)
    assert r.exit_code == 4, r.output  # the input ended before the game did
    recorded = moves_of(t)
    seats = [m["seat"] for m in recorded]
    assert seats[0] == "p2" and seats.count("p1") == 3, seats
    times = [m["time"] for m in recorded]
    assert times == sorted(times), times
    assert times[-1] < 10, f"wall-clock stamps of a quick run, not the scenario's steps: {times}"
    replay_ok(t)


# -- show and the legend ----------------------------------------------------------------------------


def test_show_renders_a_finished_magic_maze_transcript() -> None:
    golden = REPO / "transcripts" / "magic-maze" / "scenario1-2p-planner-win-seed1.yaml"
    r = run("show", golden)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    session = tr.replayed(tr.read(golden))
    assert lines == session.render("host").splitlines()
    map_lines, status = split_board(lines)
    assert status[0] == "Magic Maze, scenario 1: the first heist; 2 player(s)"
    assert status[-1] == WIN
    assert "+1a+" in "\n".join(map_lines)
    early = run("show", golden, "--at", 2)
    assert early.exit_code == 0 and early.output != r.output
    assert "clock 2)" in early.output and "theft: not yet" in early.output


def test_show_legend_without_a_file_explains_every_game_with_a_board() -> None:
    r = run("show", "--legend")
    assert r.exit_code == 0, r.output
    assert "Magic Maze\n" + LEGEND in r.output
    for token in ("P@", "Hg", "hg", "Cm", "cm", "##", "S1", "In", "=="):
        assert token in LEGEND


def test_show_legend_with_a_file_adds_the_legend_under_the_board() -> None:
    golden = REPO / "transcripts" / "magic-maze" / "scenario7-8p-random-loss-seed1.yaml"
    board = run("show", golden)
    r = run("show", "--legend", golden)
    assert board.exit_code == r.exit_code == 0, r.output
    assert r.output == board.output + LEGEND + "\n"


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.stem for g in GOLDENS])
def test_every_symbol_of_the_golden_boards_is_in_the_legend(golden: Path) -> None:
    t = tr.read(golden)
    session = tr.replayed(t)
    boards = [session.render("host")]
    moves = t.move_count
    for at in sorted({moves // 3, 2 * moves // 3}):  # boards with heroes in the mall, too
        boards.append(tr.replayed(t.until(at)).render("host"))
    names = {p.name.lower() for p in session.state.mall.placed}
    for board in boards:
        map_lines, _ = split_board(board.splitlines())
        codes = square_codes(map_lines)
        assert codes, board
        assert not [c for c in codes if not explained(c)], board
        vertical, horizontal = wall_marks(map_lines)
        assert vertical <= {"|", "!", " "}
        tokens = set(LEGEND.split())
        assert {"|", "!"} <= tokens and {"--", "=="} <= tokens
        for mark in horizontal - {"--", "==", "  "}:
            assert TILE_NAME.fullmatch(mark) and mark.rstrip("-") in names, (mark, board)
        assert "tile's name" in LEGEND


# -- bench ------------------------------------------------------------------------------------------


def test_bench_plays_the_planner_and_prints_its_win_rate() -> None:
    r = run("bench", "magic-maze", "--games", 1, "--repeat", 1, "--scenario", 1)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    header = lines[0].split()
    assert header[:4] == ["mode", "games", "games/s", "inputs/s"] and header[-1] == "won"
    row = lines[2].split()
    assert row[:2] == ["1", "1"]
    assert re.fullmatch(r"\d+%", row[-1]), row
    assert row[-1] == "100%" and lines[3] == "winners of 1: team 1", lines  # the planner wins scenario 1, 4 players, seed 1
    assert len(lines) == 6
    assert lines[4] == "planner bots on every seat; median of 1 rounds of the same games"
    assert re.fullmatch(r"peak memory: \d+(\.\d+)? MiB", lines[5])


def test_bench_random_bots_lose() -> None:
    r = run("bench", "magic-maze", "--games", 2, "--repeat", 1, "--scenario", 2, "--players", 3, "--bots", "random")
    assert r.exit_code == 0, r.output
    row = r.output.splitlines()[2].split()
    assert row[0] == "2" and row[-1] == "0%" and r.output.splitlines()[3] == "winners of 2: nobody 2", r.output
    assert "random bots on every seat" in r.output


def test_bench_with_roles_reports_the_hidden_roles_figures() -> None:
    """``--roles L``: the speed table keeps its first four columns; a second table says, per
    mode, the heroes' win rate, the traitors caught, wrong and rejected accusations, failed
    missions and the time per input; every line fits 80 columns; ``--json`` holds the counts."""
    r = run("bench", "magic-maze", "--games", 3, "--repeat", 1, "--scenario", 2, "--roles", 1)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split()[:4] == ["mode", "games", "games/s", "inputs/s"]
    at = next(i for i, line in enumerate(lines) if line.startswith("Hidden Roles, level 1."))
    assert lines[at + 2].split() == ["mode", "heroes", "won", "caught", "wrong", "rejected", "failed", "ms/input"]
    row = lines[at + 4].split()
    assert row[0] == "2" and re.fullmatch(r"\d+%", row[1]) and re.fullmatch(r"\d+/\d+", row[2]), row
    inputs_per_s = float(lines[2].split()[3])  # the speed table's row of mode 2
    assert float(row[-1]) == pytest.approx(1000 / inputs_per_s, abs=0.006), (row, lines[2])  # ms/input
    assert all(len(line) <= 80 for line in lines), lines
    r = run("bench", "magic-maze", "--games", 2, "--repeat", 1, "--scenario", 2, "--roles", 2, "--json")
    figures = json.loads(r.output)["results"][0]["roles"]
    assert figures["games"] == 2 and {"heroes-won", "traitors", "caught", "wrong", "rejected", "failed"} <= set(figures)


# -- validate ---------------------------------------------------------------------------------------


TILE_2 = """\
  "2":
    map: |
      +--+--+--+--+
      |Xp ..|## S1|
      +  +  +  +  +
      |.. Vp .. ..|
      +--+  +--+  +
      |S1 .. Vg Eo 
      +  +  +--+  +
      |.. In|## ..|
      +--+  +--+--+
"""
TILE_BREAKAGES = {
    # id: (old, new, square, words of the reason)
    "entrance-closed": ("      |.. In|## ..|\n      +--+  +--+--+\n", "      |.. In|## ..|\n      +--+--+--+--+\n",
                        "b4", "the S edge at this door must be open"),
    "square-walled-off": ("|Xp ..|## S1|\n      +  +  +  +  +", "|Xp|..|## S1|\n      +--+  +  +  +",
                          "a1", "no hero can reach this square from the entrance"),
    "edge-opened": ("|.. Vp .. ..|", "|.. Vp .. .. ", "d2", "the tile's E edge must be a wall here"),
    "lone-escalator": ("|S1 .. Vg Eo ", "|.. .. Vg Eo ", "d1", "escalator S1 has 1 ends; it needs 2"),
    "unknown-code": ("|.. Vp .. ..|", "|.. Zz .. ..|", "b2", "unknown square code 'Zz'"),
    "item-behind-orange": ("|Xp ..|## S1|\n      +  +  +  +  +", "|Xp!..|## S1|\n      +==+  +  +  +",
                           "a1", "this exit can be reached only through an orange wall"),
}


def broken_tiles(tmp_path: Path, old: str, new: str) -> Path:
    copy = tmp_path / "magic_maze"
    shutil.copytree(TILES, copy)
    text = (copy / "tiles.yaml").read_text(encoding="utf-8")
    precondition(text.count(TILE_2) == 1, "tile 2 is not drawn as this test expects")
    precondition(TILE_2.count(old) == 1, f"{old!r} is not once in tile 2")
    (copy / "tiles.yaml").write_text(text.replace(TILE_2, TILE_2.replace(old, new)), encoding="utf-8")
    return copy


@pytest.mark.parametrize("target", ["file", "folder"])
@pytest.mark.parametrize("case", list(TILE_BREAKAGES))
def test_validate_a_broken_tile_names_the_tile_the_square_and_the_reason(tmp_path: Path, case: str,
                                                                         target: str) -> None:
    old, new, square, reason = TILE_BREAKAGES[case]
    copy = broken_tiles(tmp_path, old, new)
    r = run("validate", copy / "tiles.yaml" if target == "file" else copy)
    assert r.exit_code == 1, r.output
    fails = [line for line in r.output.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 1, r.output
    assert re.match(rf"FAIL {re.escape(str(copy / 'tiles.yaml'))}:\d+: tiles\.2\.map: tile 2: square {square} ", fails[0]), fails[0]
    assert reason in fails[0], fails[0]
    if target == "folder":  # the other files are still checked (scenarios against the packaged tiles)
        assert sorted(line for line in r.output.splitlines() if line.startswith("ok ")) == \
            [f"ok {copy / 'actions.yaml'}", f"ok {copy / 'roles.yaml'}", f"ok {copy / 'scenarios.yaml'}"]


def test_validate_the_packaged_magic_maze_data_and_a_good_copy(tmp_path: Path) -> None:
    r = run("validate")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for name in ("actions", "scenarios", "tiles"):
        assert f"ok scenarios/magic_maze/{name}.yaml" in lines
    assert "ok magic-maze: 7 scenarios load and cross-check" in lines
    assert "FAIL" not in r.output
    copy = tmp_path / "magic_maze"
    shutil.copytree(TILES, copy)
    r = run("validate", copy)
    assert r.exit_code == 0, r.output
    assert sorted(r.output.splitlines()) == [f"ok {copy / f}" for f in ("actions.yaml", "roles.yaml", "scenarios.yaml",
                                                                        "tiles.yaml")]


# -- external bots ----------------------------------------------------------------------------------


WAIT_BOT = r'''
import sys
# answers every `go` with `wait` (nothing to do now), and logs what it is told
log = open(sys.argv[1], "a", encoding="utf-8")
for line in sys.stdin:
    log.write(line)
    log.flush()
    if line.startswith("go "):
        print("wait", flush=True)
'''

STARE_THEN_CRASH_BOT = r'''
import sys
# stares at p1 twice, then falls over
answered = 0
for line in sys.stdin:
    if line.startswith("go "):
        if answered == 2:
            sys.exit(3)
        print("stare p1", flush=True)
        answered += 1
'''

ILLEGAL_BOT = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        print("move purple up", flush=True)
'''


def bot(tmp_path: Path, name: str, source: str, *args: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return f"exec:{sys.executable} {path}" + "".join(f" {a}" for a in args)


def test_an_exec_bot_that_answers_wait_is_idle_not_a_forfeit(tmp_path: Path) -> None:
    log = tmp_path / "p2.log"
    write(tmp_path / "moves.txt", """
        p1 stare p2
        p1 move yellow north
        p1 pawn p2
    """)
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", f"p2={bot(tmp_path, 'wait', WAIT_BOT, str(log))}", "--bot-timeout", "5",
                        "--moves", "moves.txt", "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 4, proc.stderr  # the input ended before the game did
    assert [x[0] for x in responses(proc.stdout)] == ["= p1 stare p2", "= p1 move yellow north 1", "= p1 pawn p2"]
    assert "? bot" not in proc.stdout and "forfeit" not in proc.stdout
    told = log.read_text(encoding="utf-8").splitlines()
    assert told.count("go p2 any") == 4  # asked before each line and once more when they ran out
    assert "event: p1 stares at p2." in told
    assert "legal: move purple west 1" in told  # p2 holds west; the planner's opening
    t = tmp_path / "t.yaml"
    assert notes_of(t) == [] and [m["seat"] for m in moves_of(t)] == ["p1"] * 3
    assert "3 moves, unfinished (resumable)" in replay_ok(t)


def test_exec_bots_that_all_wait_let_the_sand_run_out(tmp_path: Path) -> None:
    logs = {s: tmp_path / f"{s}.log" for s in ("p1", "p2")}
    args = ["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1", "--transcript", "t.yaml"]
    for seat, log in logs.items():
        args += ["--bot", f"{seat}={bot(tmp_path, 'wait', WAIT_BOT, str(log))}"]
    proc, _ = run_referee(args, tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    assert [x[0] for x in resp] == ["= time 180", "= board"]
    assert "result: The sand ran out at 180 s: everyone loses." in resp[0]
    assert resp[1][-1] == "result: The sand ran out at 180 s: everyone loses."
    for seat, log in logs.items():
        assert log.read_text(encoding="utf-8").splitlines().count(f"go {seat} any") == 1
    t = tmp_path / "t.yaml"
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    assert doc["log"][-1] == {"tick": {"time": 180}}
    assert doc["result"]["reason"] == "time" and notes_of(t) == [] and moves_of(t) == []
    assert "0 moves, finished: The sand ran out at 180 s" in replay_ok(t)


def test_an_exec_bot_that_crashes_leaves_its_seat_idle_and_the_game_goes_on(tmp_path: Path) -> None:
    """Magic Maze has no forfeit input: a failed bot is a note and one framed '? bot:' answer;
    its seat is idle from then on, the other seats play on to the end, and the transcript replays."""
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", "p1=planner", "--bot", f"p2={bot(tmp_path, 'crash', STARE_THEN_CRASH_BOT)}",
                        "--bot-timeout", "5", "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    heads = [x[0] for x in resp]
    assert heads[:2] == ["= p2 stare p1", "= p2 stare p1"]
    failed = [h for h in heads if h.startswith("? ")]
    assert len(failed) == 1 and re.fullmatch(
        r"\? bot: p2's bot failed \(the bot closed its output \(exit status 3\)\); the seat is idle from now on",
        failed[0]), failed
    after = heads[heads.index(failed[0]) + 1:]
    assert after and all(h.startswith(("= p1 ", "= time ")) for h in after[:-1]) and after[-1] == "= board"
    assert "result:" in proc.stdout
    t = tmp_path / "t.yaml"
    assert notes_of(t) == [{"seat": "p2", "forfeit": "the bot closed its output (exit status 3)"}]
    assert "finished: " in replay_ok(t)


def test_an_exec_bot_with_an_unreadable_input_is_a_note_and_an_idle_seat(tmp_path: Path) -> None:
    proc, _ = run_referee(["play", "magic-maze", "--scenario", "1", "--players", "2", "--seed", "1",
                        "--bot", "p1=planner", "--bot", f"p2={bot(tmp_path, 'bad', ILLEGAL_BOT)}",
                        "--transcript", "t.yaml"], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    failed = [x for x in resp if x[0].startswith("? ")]
    assert len(failed) == 1, resp
    assert failed[0][0].startswith("? bot: p2's bot failed (illegal input 'move purple up': syntax: "
                                   "'up' is not a direction"), failed[0]
    assert failed[0][0].endswith("the seat is idle from now on")
    notes = notes_of(tmp_path / "t.yaml")
    assert len(notes) == 1 and notes[0]["seat"] == "p2" and "illegal input 'move purple up'" in notes[0]["forfeit"]
    assert "finished: " in replay_ok(tmp_path / "t.yaml")

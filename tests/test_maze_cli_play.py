"""End-to-end tests of the ``arbiter`` command for Magic Maze (``docs/rules/magic-maze.md``): whole
games with the built-in bots, and a newcomer's first game by hand.

How these tests run (in-process, or a child process with a hard timeout; never a traceback) and what
they share: ``tests/maze_cli_staging.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.helpers import responses, run, write
from tests.maze_cli_staging import (
    LOSS,
    MAZE,
    MAZE_DATA,
    REPO,
    WIN,
    explained,
    moves_of,
    replay_ok,
    split_board,
    square_codes,
)


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
    resp = responses(r.stdout)
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
    resp = responses(r.stdout)
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
    resp = responses(r.stdout)
    heads = [x[0] for x in resp]
    assert heads == [
        "? illegal: p1 cannot move north: p1's action tile(s) show nothing yet (draw)",
        "= p1 draw",
        "= legal p1",
        "? illegal: p1 cannot move north: p1's action tile(s) show east",
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
                                     "form: say TEXT"]  # a template, on a line of its own (solo: no pawn)
    assert "allowed: move HERO DIRECTION [SQUARES]: straight, as far as it goes or SQUARES squares" in \
        by_head["? syntax: 'up' is not a direction (north, south, east, west)"]
    fly = by_head["? syntax: 'fly' is not an action of Magic Maze"]
    assert [line.split()[1].rstrip(":") for line in fly] == ["move", "vortex", "escalator", "explore", "draw", "say"]
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
    heads = [x[0] for x in responses(r.stdout)]
    silence = ("? illegal: silence: talk is allowed only from the start of the game, after an hourglass flip, "
               "until the next action; staring and the pawn are always allowed")
    assert heads == ["= p1 say let us go west", "= p2 move green west 1", silence, "= p1 stare p2", "= p2 pawn p1",
                     silence]
    assert "talk: open; pawn: on the table" in r.output  # the board shown before the first line


def test_bots_on_every_seat_play_on_once_the_moves_end() -> None:
    """With a bot on every seat, ``--moves /dev/null`` stopped a real-time game after one round
    (status 4: the input ended before the game did), where without --moves, as in a turn game,
    the bots play to the end: once the lines end, they play on."""
    fed = run("play", "magic-maze", "--scenario", 1, "--players", 2, "--bots", "planner", "--seed", 1,
              "--moves", "/dev/null")
    plain = run("play", "magic-maze", "--scenario", 1, "--players", 2, "--bots", "planner", "--seed", 1)
    assert fed.exit_code == plain.exit_code == 0, fed.output
    assert "\nresult: Every hero is out with the loot" in fed.stdout and "input ended" not in fed.output

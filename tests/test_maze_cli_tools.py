"""End-to-end tests of the ``arbiter`` command for Magic Maze (``docs/rules/magic-maze.md``): ``show``
and the legend, ``bench`` and ``validate``.

How these tests run (in-process, or a child process with a hard timeout; never a traceback) and what
they share: ``tests/maze_cli_staging.py``.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from arbiter.engine import transcript as tr

from tests.helpers import precondition, run, write
from tests.maze_cli_staging import (
    GOLDENS,
    LEGEND,
    REPO,
    TILE_NAME,
    TILES,
    WIN,
    explained,
    split_board,
    square_codes,
    wall_marks,
)


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
    assert lines[4] == "planner bots on every seat; median of 1 round of the same games"
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
    # both figures are printed rounded: ms/input to 0.01 (half of it off at most) and inputs/s to
    # a whole number (half an input off, which moves 1000/x by up to 500/x^2: 0.0013 at 612/s)
    rounding = 0.005 + 500 / inputs_per_s ** 2 + 1e-9
    assert float(row[-1]) == pytest.approx(1000 / inputs_per_s, abs=rounding), (row, lines[2])  # ms/input
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


def test_bench_takes_a_custom_deck_as_play_does(tmp_path) -> None:
    """``bench --deck FILE`` (``play`` took a deck, ``bench`` did not): a Hidden Roles deck is
    benched at its own level on every scenario that can deal it; a Classic Mafia deck in the mode
    of its size only."""
    roles = write(tmp_path / "roles.yaml",
                  "game: magic-maze\nkind: roles\nlevel: 3\ncards: {traitor: 1, hero: 2, mute: 1}\n")
    r = run("bench", "magic-maze", "--deck", roles, "--games", 2, "--repeat", 1, "--scenario", 1)
    assert r.exit_code == 0, r.output
    assert "Hidden Roles, level 3. caught:" in r.output, r.output
    r = run("bench", "magic-maze", "--deck", roles, "--games", 2, "--repeat", 1, "--scenario", 1, "--json")
    [result] = json.loads(r.output)["results"]
    assert result["roles"]["games"] == 2 and result["variant"] == "1"
    deck = write(tmp_path / "deck.yaml", "game: mafia\nkind: deck\n"
                 "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, chameleon: 1, fighter: 1}\n")
    r = run("bench", "mafia", "--deck", deck, "--games", 3, "--repeat", 1, "--json")
    assert r.exit_code == 0, r.output
    assert [x["variant"] for x in json.loads(r.output)["results"]] == ["9-players"]
    r = run("bench", "mafia", "--deck", deck, "--players", 6, "--games", 3, "--repeat", 1)
    assert r.exit_code == 2 and "--players 6 does not fit --deck" in r.output, r.output

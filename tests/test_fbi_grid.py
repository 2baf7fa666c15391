"""Pure geometry of the FBI vs Mafia board (engine.games.fbi_mafia.grid): cell names,
neighbourhoods without wrap-around, straight lines, diagonals, and shifts with wrap-around."""

from __future__ import annotations

import pytest

from arbiter.engine.errors import SyntaxInputError
from arbiter.engine.games.fbi_mafia import grid
from arbiter.engine.games.fbi_mafia.grid import cell_name, parse_cell


def cells(*names: str, size: int = 6) -> set[tuple[int, int]]:
    return {parse_cell(n, size) for n in names}


def named(found) -> set[str]:
    return {cell_name(c) for c in found}


def test_cell_names_read_column_letter_then_row_counting_down():
    assert parse_cell("a1", 6) == (0, 0)
    assert parse_cell("c2", 6) == (1, 2)
    assert parse_cell("F6", 6) == (5, 5)
    assert parse_cell("g7", 7) == (6, 6)
    assert cell_name((5, 0)) == "a6"
    assert cell_name((0, 5)) == "f1"


def test_a_cell_no_input_names_is_written_from_its_coordinates_never_as_another_cell():
    """A move value may hold any pair (an agent's); its name, which the refusal quotes, is its
    own: a negative row is not looked up from the end of the names' table."""
    assert cell_name((-1, 2)) == "c0"  # not "c99", the table's last row
    assert cell_name((0, 0)) == "a1" and cell_name((98, 25)) == "z99"  # the table's corners
    assert cell_name((99, 0)) == "a100"  # past it


@pytest.mark.parametrize("text", ["g1", "a7", "a0", "1a", "aa1", ""])
def test_cells_off_a_6x6_board_are_syntax_errors(text):
    with pytest.raises(SyntaxInputError):
        parse_cell(text, 6)


def test_corner_a1_has_exactly_three_neighbours_no_wrap():
    assert named(grid.neighbours((0, 0), 6)) == {"a2", "b1", "b2"}
    # Wrap-around candidates are not neighbours.
    for far in ("f1", "a6", "f6", "f2", "b6"):
        assert not grid.adjacent((0, 0), parse_cell(far, 6))


@pytest.mark.parametrize(
    "cell,expected",
    [
        ("f6", {"e5", "f5", "e6"}),
        ("f1", {"e1", "e2", "f2"}),
        ("a6", {"a5", "b5", "b6"}),
        ("c1", {"b1", "d1", "b2", "c2", "d2"}),
        ("a3", {"a2", "b2", "b3", "a4", "b4"}),
        ("c3", {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}),
    ],
)
def test_neighbourhoods_on_6x6(cell, expected):
    assert named(grid.neighbours(parse_cell(cell, 6), 6)) == expected


def test_adjacency_is_eight_cells_and_never_the_cell_itself():
    c3 = parse_cell("c3", 6)
    assert not grid.adjacent(c3, c3)
    assert grid.adjacent(c3, parse_cell("b2", 6))  # diagonal counts
    assert grid.adjacent(c3, parse_cell("d4", 6))
    assert not grid.adjacent(c3, parse_cell("c5", 6))
    assert not grid.adjacent(c3, parse_cell("e3", 6))


def test_orthogonal_line_reach_three_with_and_without_own_cell():
    c3 = parse_cell("c3", 6)
    line = {"c1", "c2", "c4", "c5", "c6", "a3", "b3", "d3", "e3", "f3"}
    assert named(grid.orthogonal(c3, 6, 3, include_self=False)) == line
    assert named(grid.orthogonal(c3, 6, 3, include_self=True)) == line | {"c3"}
    # From a corner: no wrap, exactly 3 each way that fits.
    assert named(grid.orthogonal((0, 0), 6, 3, include_self=True)) == {
        "a1", "a2", "a3", "a4", "b1", "c1", "d1"}
    # The diagonal neighbours are never on the line.
    assert not named(grid.orthogonal(c3, 6, 3, include_self=True)) & {"b2", "d2", "b4", "d4"}


def test_diagonal_reach_one_to_three_only():
    c3 = parse_cell("c3", 7)
    assert named(grid.diagonal(c3, 7, 3)) == {"b2", "a1", "d2", "e1", "b4", "a5", "d4", "e5", "f6"}
    d4 = parse_cell("d4", 7)
    got = named(grid.diagonal(d4, 7, 3))
    assert got == {"c3", "b2", "a1", "e3", "f2", "g1", "c5", "b6", "a7", "e5", "f6", "g7"}
    assert "d4" not in got and not got & {"d3", "d5", "c4", "e4"}


def test_shift_by_one_wraps_both_ways():
    line = ["A", "B", "C", "D", "E", "F"]
    assert grid.shifted(line, 1) == ["F", "A", "B", "C", "D", "E"]
    assert grid.shifted(line, -1) == ["B", "C", "D", "E", "F", "A"]


def test_shift_by_two_wraps_both_ways():
    line = ["A", "B", "C", "D", "E", "F", "G"]
    assert grid.shifted(line, 2) == ["F", "G", "A", "B", "C", "D", "E"]
    assert grid.shifted(line, -2) == ["C", "D", "E", "F", "G", "A", "B"]


def test_shift_then_reverse_restores_the_line():
    line = list("ABCDEF")
    for d in (1, 2):
        assert grid.shifted(grid.shifted(line, d), -d) == line

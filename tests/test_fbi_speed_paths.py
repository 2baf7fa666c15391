"""FBI vs Mafia's quick paths answer as the plain ones they stand for, over the states of random
games in every mode: whether a verb has a target (``_has_targets``, asked at every protection
and threat step) is whether its listing is empty; the count of a token, the teammates a seat
knows and the acting character are the plain formulas'; a bot's pick among a verb's moves or
the protection step's (``action_choice``, ``protection_choice``) is offered the listing's length
and gives the listed move; a move made once and ``kept`` reads as well formed, and is named,
exactly as the worked-out ``_well_formed`` and ``_words`` say on every board; the table of cell
names gives the formula's name of any value."""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine.games.fbi_mafia import grid, moves
from arbiter.engine.games.fbi_mafia.grid import COLUMNS, cell_name
from arbiter.engine.games.fbi_mafia.legality import RULES, _all_shifts, _all_swaps
from arbiter.engine.games.fbi_mafia.moves import FORMS, Move, bare_move, cell_move, move_name, parse_move, well_formed
from tests.helpers import fbi_states as states

FBI = registry.get("fbi-mafia")
MODES = [v.name for v in FBI.variants()]


@pytest.mark.parametrize("mode", MODES)
def test_quick_answers_are_the_plain_ones(mode):
    compared = 0
    for seed in (1, 2, 3):
        for state in states(mode, seed):
            assert state.actor == state.characters[state.turn_index]
            for token in ("protection", "bomb", "threat"):
                assert state._token_count(token) == sum(1 for n in state.suspects if token in state.tokens[n])
            seat = state.seat_of[state.actor]
            assert state._known_team_cells() == {
                state._me(c): c for c in state.characters if c != state.actor and state.seat_of[c] == seat}
            for verb in RULES:
                assert state._has_targets(verb) == bool(state._targets(verb)), verb
                rule = state._rule(verb)
                for origin in grid.cells(state.size)[:: state.size + 1]:
                    assert state._any_reachable(rule, origin) == bool(state._reachable(rule, origin)), (verb, origin)
                compared += 1
    assert compared > 500


class Pick:
    """A bot's pick that takes the ``k``-th from the end of what it is offered, and tells what it was offered."""

    def __init__(self, k: int) -> None:
        self.k, self.offered = k, []

    def __call__(self, n: int) -> int:
        self.offered.append(n)
        return max(n - 1 - self.k, 0)


@pytest.mark.parametrize("mode", MODES)
def test_bots_picks_are_the_picks_among_the_listed_moves(mode):
    """``action_choice`` and ``protection_choice`` pick the move the listing's index names, after
    being offered the listing's length (and are not asked when a verb has none)."""
    compared = 0
    for seed in (1, 2):
        for state in states(mode, seed):
            kind = state.awaited()[1]
            for k in (0, 1, 5, 40):
                if kind == "action":
                    for verb in state.action_verbs():
                        listed, pick = state.action_moves(verb), Pick(k)
                        chosen = state.action_choice(verb, pick)
                        assert pick.offered == ([len(listed)] if listed else []), verb
                        assert chosen == (listed[max(len(listed) - 1 - k, 0)] if listed else None), verb
                        compared += 1
                elif kind == "protection":
                    listed, pick = state._protection_moves(), Pick(k)
                    assert state.protection_choice(pick) == listed[max(len(listed) - 1 - k, 0)]
                    assert pick.offered == [len(listed)]
                    compared += 1
    assert compared > 300


def test_kept_moves_read_as_the_worked_out_ones():
    """Every move the caches make (one-cell moves of every verb on every board's cells, bare
    moves and answers, every board's shifts and swaps) is known as well formed on exactly the
    boards the worked-out check says, under its worked-out words."""
    made = [cell_move(verb, cell) for verb in sorted(FORMS) for cell in grid.cells(9)]
    made += [bare_move(verb) for verb in sorted(FORMS)] + [bare_move(verb, a) for verb in sorted(FORMS)
                                                          for a in (True, False)]
    for size in range(3, 10):
        made += [*_all_shifts(size, (1,)), *_all_shifts(size, (1, 2)), *_all_swaps(size)]
    known = 0
    for move in made:
        for size in range(12):
            assert well_formed(move, size) == moves._well_formed(move, size), (move, size)
            if well_formed(move, size):  # its remembered words read back as the move itself
                assert parse_move(move_name(move), size) == move, (move, size)
        known += "_kept" in move.__dict__
    assert known > 1000
    fresh = Move("kill", cells=((1, 2),))  # what a move carries when kept is not part of the move
    assert cell_move("kill", (1, 2)) == fresh and hash(cell_move("kill", (1, 2))) == hash(fresh)
    assert repr(cell_move("kill", (1, 2))) == repr(fresh) and "_kept" not in fresh.__dict__


def outcome(f, *args) -> object:
    """What ``f(*args)`` returns, or the type and message of what it raises."""
    try:
        return f(*args)
    except Exception as exc:  # noqa: BLE001 (the same failure, whatever it is)
        return (type(exc), str(exc))


def formula(cell) -> str:
    """A cell's name as it was always written out."""
    r, c = cell
    return f"{COLUMNS[c]}{r + 1}"


def test_cell_names_are_the_formulas():
    values = [(r, c) for r in range(-3, 120) for c in range(-28, 28)]
    values += [(True, 0), (1.0, 1), [2, 3], (0, False), (1, 1.0), (0, "a"), ("1", 0), (None, 0), (1, 2, 3), ()]
    for value in values:
        assert outcome(cell_name, value) == outcome(formula, value), value
    for size in range(3, 10):
        assert grid.cell_names(size) == tuple(cell_name(c) for c in grid.cells(size))

"""The FBI vs Mafia rules, one focused test per rule: the actions' ranges, shifting rows and columns,
and each role's turn and actions.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

import pytest

from tests.helpers import cell_of, kinds, names, since
from tests.fbi_staging import advance_to, do, game, options, pass_turn, refuse, status


# =============================================================================== ranges


def test_bandit_kill_reach_at_a1_is_three_cells_no_wrap():
    s = game(bandit="Ada")
    assert options(s, "bandit", "kill") == {"a2", "b1", "b2"}
    for far in ("f1", "a6", "f6", "f2", "b6"):  # the wrap-around neighbours do not exist
        refuse(s, "bandit", f"kill {far}")
    refuse(s, "bandit", "kill a1")  # never its own cell
    do(s, "bandit", "kill b2")
    assert status(s, "b2") == "dead"


def test_detective_arrest_is_orthogonal_line_0_to_3_including_own_cell_not_diagonal():
    s = game(detective="Mara")  # a3
    advance_to(s, "detective")
    assert options(s, "detective", "arrest") == {"a3", "a1", "a2", "a4", "a5", "a6", "b3", "c3", "d3"}
    refuse(s, "detective", "arrest b2")  # diagonal neighbour
    refuse(s, "detective", "arrest b4")  # diagonal neighbour
    refuse(s, "detective", "arrest e3")  # 4 cells away
    start = len(s.events)
    do(s, "detective", "arrest d3")  # 3 cells away: a legal (failing) arrest
    assert kinds(since(s, start))[:2] == ["arrest-attempt", "arrest-failed"]


def test_detective_may_arrest_its_own_cell():
    s = game(detective="Mara")
    advance_to(s, "detective")
    start = len(s.events)
    do(s, "detective", "arrest a3")
    assert kinds(since(s, start))[:2] == ["arrest-attempt", "arrest-failed"]
    assert s.state.arrests == 0


def test_undercover_arrest_reaches_own_cell_and_all_eight_neighbours():
    s = game(undercover="Hugo")  # b2
    advance_to(s, "undercover")
    assert options(s, "undercover", "arrest") == {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}
    refuse(s, "undercover", "arrest d2")
    refuse(s, "undercover", "arrest b4")


def test_sniper_shoot_is_diagonal_1_to_3_only():
    s = game("standard-4v4", sniper="Quinn")  # c3 on 7x7
    advance_to(s, "sniper")
    assert options(s, "sniper", "shoot") == {"b2", "a1", "d2", "e1", "b4", "a5", "d4", "e5", "f6"}
    refuse(s, "sniper", "shoot g7")  # diagonal but 4 away
    for ortho in ("c2", "c4", "b3", "d3", "c5"):
        refuse(s, "sniper", f"shoot {ortho}")
    refuse(s, "sniper", "shoot c3")  # own cell
    do(s, "sniper", "shoot e5")
    assert status(s, "e5") == "dead"
    assert s.state.kills == 1


# =============================================================================== shifts


def test_shift_row_wraps_by_one_and_two():
    s = game()
    do(s, "bandit", "shift row 1 right")
    assert s.state.grid[0] == ["Felix", "Ada", "Boris", "Cass", "Dario", "Edna"]
    s = game()
    do(s, "bandit", "shift row 2 left 2")
    assert s.state.grid[1] == ["Ines", "Jonas", "Kira", "Leon", "Gia", "Hugo"]


def test_shift_column_wraps_by_one_and_two():
    s = game()
    do(s, "bandit", "shift col a down")
    assert [row[0] for row in s.state.grid] == ["Emil", "Ada", "Gia", "Mara", "Sami", "Yuri"]
    s = game()
    do(s, "bandit", "shift col b up 2")
    assert [row[1] for row in s.state.grid] == ["Nico", "Tess", "Zora", "Flora", "Boris", "Hugo"]


def test_shift_moves_identities_with_their_cards():
    s = game(bandit="Felix")
    do(s, "bandit", "shift row 1 right")
    assert s.state.identity["bandit"] == "Felix"
    assert s.state.view("bandit")["identities"]["bandit"]["cell"] == "a1"


def test_exact_reverse_of_last_shift_is_refused_same_direction_is_fine():
    s = game()
    do(s, "bandit", "shift row 2 right")
    assert "shift row 2 left" not in s.state.legal_inputs("undercover")
    err = refuse(s, "undercover", "shift row 2 left")
    assert err.message == "shift row 2 left: it would undo the last shift (shift row 2 right): any other shift is allowed"
    assert err.error.allowed == ("shift row N left|right  or  shift col X up|down",)  # a form, not words to type
    do(s, "undercover", "shift row 2 right")  # a same-direction repeat is fine
    assert s.state.grid[1] == ["Kira", "Leon", "Gia", "Hugo", "Ines", "Jonas"]


def test_reverse_is_allowed_once_another_shift_came_between():
    s = game()
    do(s, "bandit", "shift row 2 right")
    do(s, "undercover", "shift row 3 right")
    do(s, "maniac", "shift row 2 left")
    assert s.state.grid[1] == names()[6:12]


def test_reverse_ban_holds_for_the_very_next_shift_even_after_a_non_shift_turn():
    s = game()
    do(s, "bandit", "shift row 2 right")  # Leon (undercover) wraps to a2
    do(s, "undercover", "arrest a2")  # not a shift
    refuse(s, "maniac", "shift row 2 left")


def test_reverse_ban_compares_distance_two():
    s = game()
    advance_to(s, "operative")
    pass_protection = f"protect {cell_of(s, 'Yuri')}"
    do(s, "operative", pass_protection)
    do(s, "operative", "shift row 1 right 2")
    refuse(s, "bandit", "shift row 1 left 2")  # the exact reverse
    do(s, "bandit", "shift row 1 left")  # same line, other distance: not the exact reverse
    assert s.state.grid[0] == ["Felix", "Ada", "Boris", "Cass", "Dario", "Edna"]


def test_shift_distances_per_role():
    s = game("standard-4v4")
    expected = {"bandit": {1, 2}, "undercover": {1}, "maniac": {1}, "detective": {1}, "bomber": {1},
                "operative": {1, 2}, "sniper": {1, 2}, "criminalist": {1}}
    for character in s.state.characters:
        st = s.state
        assert st.actor == character
        if st.phase == "protection":
            do(s, character, f"protect {cell_of(s, st.identity[character])}")
        shifts = [o.split() for o in st.legal_inputs(character) if o.startswith("shift ")]
        assert {int(w[4]) if len(w) == 5 else 1 for w in shifts} == expected[character]
        dist = " [1|2]" if 2 in expected[character] else ""
        form = f"shift row N left|right{dist}  or  shift col X up|down{dist}"  # in every list of its forms
        other = "arrest a1" if character == "bomber" else "plant a1"
        assert form in refuse(s, character, other).allowed
        if 2 in expected[character]:
            do(s, character, "shift row 7 right 2")
        else:
            err = refuse(s, character, "shift row 7 right 2")
            assert (err, err.allowed) == (f"shift row 7 right 2: the {character} shifts by 1", (form,))
            do(s, character, "shift row 7 right")
        if st.phase == "threat":
            do(s, character, [o for o in st.legal_inputs(character) if o.startswith("threat ")][-1])


def test_turn_order_and_action_sets_per_role():
    s = game("standard-4v4")
    table = {
        "bandit": {"shift", "kill", "masquerade"},
        "undercover": {"shift", "arrest", "defuse", "masquerade", "autopsy"},
        "maniac": {"shift", "swap"},
        "detective": {"shift", "arrest", "defuse", "inspect"},
        "bomber": {"shift", "plant", "detonate"},
        "operative": {"shift", "arrest", "defuse"},
        "sniper": {"shift", "shoot", "prepare"},
        "criminalist": {"shift", "arrest", "defuse", "evidence"},
    }
    seen = []
    for _ in range(8):
        st = s.state
        actor = st.actor
        seen.append(actor)
        if st.phase == "protection":
            do(s, actor, f"protect {cell_of(s, st.identity[actor])}")
        assert set(st.action_verbs()) == table[actor]
        for verb in {"kill", "arrest", "shoot", "plant", "detonate", "autopsy"} - table[actor]:
            refuse(s, actor, f"{verb} d4")
        pass_turn(s)
    assert seen == list(table)
    assert s.state.actor == "bandit"  # and round again


@pytest.mark.parametrize("character", ["operative", "criminalist"])
def test_other_arrests_reach_own_cell_and_all_eight_neighbours(character):
    s = game("standard-4v4", **{character: "Wade"})  # b4 on 7x7
    advance_to(s, character)
    if s.state.phase == "protection":
        do(s, character, "protect b4")
    assert options(s, character, "arrest") == {"a3", "b3", "c3", "a4", "b4", "c4", "a5", "b5", "c5"}
    refuse(s, character, "arrest b6")
    refuse(s, character, "arrest d4")

"""The Magic Maze rules, one focused test per rule: when players may talk, and refused inputs that
change nothing.

Authority: the rules as implemented, docs/rules/magic-maze.md, and the engine's decisions; how games
are staged (every input under test through ``Session.submit``): ``tests/maze_staging.py``.
"""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from arbiter.engine.errors import IllegalMoveError, InputError, SyntaxInputError, UnknownActionError
from arbiter.engine.games.magic_maze.moves import FORMS, Move, action_needed, parse_move
from arbiter.engine.session import Session

from tests.helpers import host, kinds, refused
from tests.maze_staging import act, clear_centre, explore_at, game, put


# ====================================================================== talk


def test_scenario_1_allows_talk_at_any_time():
    s = game("1")
    assert host(s)["talk"] == "open"
    s.submit("p1", "say go north")
    s.submit("p1", "move purple north", 100_000)
    s.submit("p2", "move green west")
    events = s.submit("p2", "say nice")
    assert [(e.kind, e.data) for e in events] == [("say", {"seat": "p2", "text": "nice"})]
    assert host(s)["talk"] == "open"


def any_action(s: Session) -> list:
    """Some seat makes some legal game action that flips no hourglass (a move, or a draw in
    solo play)."""
    st = s.state
    for seat in st.seats:
        for text in st.legal_inputs(seat):
            words = text.split()
            if words[0] == "draw":
                return s.submit(seat, text)
            if words[0] == "move":
                d = {"north": "N", "south": "S", "east": "E", "west": "W"}[words[2]]
                if all(st.kind(g)[0] != "hourglass" for g in st.path(words[1], d)[: int(words[3])]):
                    return s.submit(seat, text)
    raise AssertionError("no game action is legal")


@pytest.mark.parametrize("scenario, players", [("2", 2), ("3", 3), ("4", 4), ("5", 2), ("6", 5), ("7", 8), ("2", 1)])
def test_talk_is_open_from_the_start_until_the_first_action(scenario, players):
    """The start counts as the timer's first flip: talk is open until any player acts."""
    s = game(scenario, players=players)
    start = [e for e in s.events if e.kind == "talk"]
    assert [(e.text, e.to) for e in start] == [("The timer starts: talk is open until the first action.", None)]
    assert host(s)["talk"] == "open" and s.state.input_forms("p1") == ["say TEXT"]
    s.submit("p1", "say where are the items?")
    if players > 1:
        s.submit("p1", "pawn p2")  # the pawn and staring are not actions: talk stays open
        s.submit("p2", "stare p1")
        s.submit("p2", "say no idea")
    assert host(s)["talk"] == "open"
    events = any_action(s)
    assert kinds(events)[0] == "silence" and host(s)["talk"] == "silence"
    assert s.state.input_forms("p1") == []
    refused(s, "p1", "say too late", IllegalMoveError)


@pytest.mark.parametrize("scenario, players", [("1", 2), ("2", 1), ("4", 3)])
def test_say_text_is_a_form_exactly_when_talk_is_accepted(scenario, players):
    """``legal_inputs`` lists only inputs a bot can send as they are; ``say TEXT`` is listed by
    ``input_forms`` exactly when a ``say`` would be accepted (tried on a copy of the game)."""
    s = game(scenario, players=players)
    seen = Counter()
    for step in range(40):
        st = s.state
        # The game pickled once a step and each seat's copy read from it: a whole copy, as a
        # deepcopy made (nothing shared), of the game as it is (only the copies are submitted to).
        game_now = pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)
        for seat in st.seats:
            legal, forms = st.legal_inputs(seat), st.input_forms(seat)
            assert "say TEXT" not in legal and not [m for m in legal if any(w.isupper() for w in m.split())]
            try:
                pickle.loads(game_now).submit(seat, "say hello")
                accepted = True
            except InputError:
                accepted = False
            assert accepted == (forms == ["say TEXT"]) and forms in ([], ["say TEXT"]), (seat, forms)
            seen[accepted] += 1
        if step % 3 == 0:
            any_action(s)  # closes the talk window of the start
        elif players > 1:  # (solo play has no pawn; it goes back and forth: never where it lies)
            s.submit(*(("p2", "pawn p1") if s.state.pawn == "p2" else ("p1", "pawn p2")))
    assert seen[True] >= 1 and (scenario == "1" or seen[False] >= 3), seen


def test_scenario_1_has_no_talk_window_at_the_start():
    s = game("1")
    assert not [e for e in s.events if e.kind == "talk"]
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "open" and s.state.input_forms("p2") == ["say TEXT"]


def test_scenario_2_refuses_talk_after_the_first_action_until_a_flip_and_gives_the_reason():
    s = game("2")
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "silence"
    message = refused(s, "p1", "say go north", IllegalMoveError)
    assert message.startswith("silence: talk is allowed only from the start of the game, after an hourglass flip, "
                              "until the next action")
    assert "staring and the pawn are always allowed" in message
    assert "elf" not in message
    any_action(s)
    refused(s, "p1", "say hello", IllegalMoveError)


def test_scenario_2_a_flip_opens_talk_until_the_next_game_action():
    s = game("2")
    s.submit("p2", "move green west")  # the start's talk window closes
    events = s.submit("p1", "move purple north", 100_000)
    assert kinds(events) == ["flip", "talk", "hero"] and host(s)["talk"] == "open"
    s.submit("p1", "say thanks")
    s.submit("p2", "pawn p1")
    s.submit("p2", "stare p1")
    s.submit("p2", "say still open")
    assert host(s)["talk"] == "open"
    events = s.submit("p2", "move yellow west")
    assert kinds(events) == ["silence", "hero"] and host(s)["talk"] == "silence"
    refused(s, "p1", "say too late", IllegalMoveError)


@pytest.mark.parametrize("action", ["vortex yellow", "escalator purple", "explore purple"])
def test_every_game_action_closes_the_talk_window(action):
    s = game("2", stack=["3"])
    s.submit("p1", "move purple north", 100_000)  # flip: talk open
    if action == "escalator purple":
        put(s, "purple", "1a.d2")  # staging: purple on the escalator
        s.state.heroes["yellow"] = None
        put(s, "yellow", "1a.d1")
    if action == "explore purple":
        put(s, "purple", "1a.a2")
    act(s, action)
    assert host(s)["talk"] == "silence"


def test_a_stare_at_oneself_is_refused_listing_the_others():
    s = game("2", players=3)
    err = refused(s, "p2", "stare p2", IllegalMoveError)
    assert err == "p2 cannot stare at itself; stare at another player"
    assert list(err.allowed) == ["stare p1", "stare p3"] == [m for m in s.state.legal_inputs("p2") if m.startswith("stare")]


def test_pawn_and_stare_are_always_allowed():
    s = game("2")
    events = s.submit("p1", "pawn p2")
    assert [(e.kind, e.data) for e in events] == [("pawn", {"seat": "p1", "target": "p2"})]
    assert host(s)["pawn"] == "p2"
    s.submit("p2", "pawn p1")  # passed on at once
    assert host(s)["pawn"] == "p1"
    events = s.submit("p2", "stare p1")
    assert [(e.kind, e.data) for e in events] == [("stare", {"seat": "p2", "target": "p1"})]
    refused(s, "p1", "stare p9", SyntaxInputError)
    refused(s, "p1", "stare p1", IllegalMoveError)  # not among its legal inputs either
    assert "stare p1" not in s.state.legal_inputs("p1")
    err = refused(s, "p1", "pawn p1", IllegalMoveError)  # "in front of another player": nor the pawn
    assert err == "p1 cannot put the pawn in front of itself; put it in front of another player"
    assert list(err.allowed) == ["pawn p2"] == [m for m in s.state.legal_inputs("p1") if m.startswith("pawn")]
    s.submit("p1", "pawn p2")
    err = refused(s, "p1", "pawn p2", IllegalMoveError)  # as a card is put down: not where it lies
    assert err == "the pawn is in front of p2 already; put it in front of another player"
    assert not [m for m in s.state.legal_inputs("p1") if m.startswith("pawn")] and not err.allowed
    assert [m for m in s.state.legal_inputs("p2") if m.startswith("pawn")] == ["pawn p1"]
    three = game("2", players=3)
    three.submit("p3", "pawn p2")
    for line in ("pawn p1", "pawn p2"):  # a refusal lists the pawns p1 may put: the legal ones
        assert list(refused(three, "p1", line, IllegalMoveError).allowed) == ["pawn p3"]
    s.submit("p2", "move green west")  # the start's talk window closes
    refused(s, "p1", "say hi", IllegalMoveError)
    s.submit("p2", "pawn p1")
    s.submit("p1", "stare p2")


def test_scenario_4_the_elf_exploring_opens_talk():
    s = game("4", stack=["3", "4"])
    clear_centre(s)
    events = explore_at(s, "1a.c1")  # orange explores: the start's window closes, and stays closed
    assert kinds(events) == ["silence", "explore"] and host(s)["talk"] == "silence"
    refused(s, "p1", "say hi", IllegalMoveError)
    events = explore_at(s, "1a.d3")  # the elf explores
    assert kinds(events) == ["explore", "talk"] and host(s)["talk"] == "open"
    s.submit("p1", "say well found")
    s.submit("p2", "move green west")
    assert host(s)["talk"] == "silence"


def test_scenario_4_silence_reason_mentions_the_elf():
    s = game("4")
    s.submit("p2", "move green west")
    message = refused(s, "p1", "say hi", IllegalMoveError)
    assert "after an hourglass flip or after the elf explores" in message


def test_scenario_2_the_elf_exploring_does_not_open_talk():
    s = game("2", stack=["3"])
    clear_centre(s)
    events = explore_at(s, "1a.d3")
    assert kinds(events) == ["silence", "explore"] and host(s)["talk"] == "silence"


# ====================================================================== refusals change nothing


def test_unreadable_inputs_are_refused_without_change():
    s = game("1")
    refused(s, "p1", "", UnknownActionError)
    refused(s, "p1", "jump purple", UnknownActionError)
    refused(s, "p1", "move wizard north", SyntaxInputError)
    refused(s, "p1", "move purple up", SyntaxInputError)
    refused(s, "p1", "move purple", SyntaxInputError)
    refused(s, "p1", "vortex purple 9z.a1", SyntaxInputError)
    refused(s, "p1", "say", SyntaxInputError)


def test_a_verb_a_variant_lists_but_this_reader_does_not_know_is_unreadable_listing_the_forms():
    """A variant passes its own forms (more verbs) and reads its verbs itself; one of them
    reaching this reader is refused as unreadable, listing the variant's forms, not a crash."""
    forms = {**FORMS, "accuse": "accuse SEAT...: accuse players"}
    with pytest.raises(SyntaxInputError) as info:
        parse_move("accuse p2", ("p1", "p2"), forms)
    assert info.value.message == "'accuse' is not an action of Magic Maze"
    assert info.value.allowed == tuple(forms.values())


def test_each_input_names_the_action_tile_it_needs():
    seats = ("p1", "p2")
    needs = {"move purple north 2": "north", "move green west": "west", "vortex orange": "vortex",
             "escalator yellow": "escalator", "explore purple": "explore", "explore 1a.c1": "explore",
             "draw": None, "say hi": None, "pawn p2": None, "stare p1": None}
    assert {text: action_needed(parse_move(text, seats)) for text in needs} == needs


def test_a_move_shows_only_its_fields_that_are_set():
    assert repr(parse_move("move purple north 2", ("p1",))) == "Move(verb='move', hero='purple', direction='N', squares=2)"
    assert repr(Move("draw")) == "Move(verb='draw')"


def test_every_refusal_in_a_busy_position_leaves_everything_unchanged():
    s = game("2", stack=["3"])
    s.submit("p1", "move purple north", 5_000)
    for seat, text, error in [
        ("p1", "move purple north", IllegalMoveError),
        ("p2", "move purple west 3", IllegalMoveError),
        ("p1", "vortex purple 1a.d1", IllegalMoveError),
        ("p2", "escalator green", IllegalMoveError),
        ("p2", "explore yellow", IllegalMoveError),
        ("p1", "draw", IllegalMoveError),
        ("p1", "explore 1a.c1", IllegalMoveError),
        ("p2", "explore 1a.c1", IllegalMoveError),  # no crystal balls in scenario 2
        ("p1", "move orange north 9", IllegalMoveError),
    ]:
        refused(s, seat, text, error)
    assert host(s)["talk"] == "open"  # refusals do not close the talk window either

"""The Hidden Roles bot's watch (``roles/bot.py``): the public record every seat's bot reads of
how each seat has played, judged input by input against the team plan of the position it was
made in. One test per way a seat is noted, or is not.

The games are staged as in ``test_roles_bot.py``: scenario 1, four players, the heroes on the
start tile, where p1 holds the plan's first step (``move purple west 1``). Every bot of a
match reads the watch at every position; the tests read it after every input, as they do.
"""

from __future__ import annotations

import random

from arbiter.engine.games.magic_maze.roles import bot
from arbiter.engine.games.magic_maze.roles.bot import STALL, THRESHOLD, VOTE, VOTE_YES
from arbiter.engine.session import Session

from tests.helpers import roles_game
from tests.roles_staging import MAZE, game, plan_steps, traitor_of

HOLDER = "p1"


def play(s: Session, seat: str, text: str) -> list[tuple[str, str, float]]:
    """``seat`` sends ``text``; what the watch noted of it."""
    before = len(bot.watch_of(s.state).notes)
    s.submit(seat, text)
    return bot.watch_of(s.state).notes[before:]


def special_rules_game() -> Session:
    """Level 3, whose deck holds heroes with special rules: p1 needs the pawn to act."""
    return roles_game("1", ["needs-a-push", "mage-first", "barbarian-first", "mute"])


def test_the_holder_that_stares_without_special_rules_in_the_deck_stalls_each_time() -> None:
    """Levels 1, 2, 4 and 5 deal no special rules: nothing forbids the holder its step, so a
    stare instead of it is a stall, every time (the deck file describes special-rule cards at
    every level; only the game's deck counts)."""
    s = game()
    assert bot.watch_of(s.state).snap.holder == HOLDER
    assert play(s, HOLDER, "stare p2") == [(HOLDER, "held west and stalled", STALL)]
    assert play(s, HOLDER, "stare p3") == [(HOLDER, "held west and stalled", STALL)]


def test_the_holder_that_stares_with_special_rules_in_the_deck_said_it_cannot_once_a_step() -> None:
    s = special_rules_game()
    assert bot.watch_of(s.state).snap.holder == HOLDER
    assert play(s, HOLDER, "stare p2") == [(HOLDER, "held west and said it cannot", STALL / 2)]
    assert play(s, HOLDER, "stare p2") == []  # the same step: said once
    assert play(s, "p3", "stare p2") == []  # another seat's stare is not the holder's
    assert play(s, HOLDER, "pawn p2") == [(HOLDER, "held west and stalled", STALL)]  # not a stare: a stall


def test_the_holder_that_lets_time_pass_stalls() -> None:
    s = game()
    bot.watch_of(s.state)
    s.advance_to(s.clock_ms + 3000)
    assert bot.watch_of(s.state).notes == [(HOLDER, "held west and stalled", STALL)]


def test_the_holder_that_lets_another_seat_play_instead_is_noted_half_a_stall_unless_it_asked() -> None:
    s = game()
    assert play(s, "p2", "move green south 1") == [(HOLDER, "held west and let p2 play instead", STALL / 2)]
    plan_steps(s, 2)
    holder = bot.watch_of(s.state).snap.holder

    def other_step() -> tuple[str, str]:
        """A seat other than the holder, and a heist step of its own (not the plan's)."""
        for seat in s.seats:
            moves = [m for m in s.state.legal_inputs(seat) if m.startswith("move ")]
            if seat != holder and moves:
                return seat, moves[0]
        raise AssertionError("no other seat can move")

    other, step = other_step()
    assert (holder, f"held west and let {other} play instead", STALL / 2) in play(s, other, step)
    assert bot.watch_of(s.state).snap.holder == holder
    play(s, holder, f"stare {other}")  # "I cannot": the seat stared at plays instead
    other, step = other_step()
    assert not [n for n in play(s, other, step) if n[0] == holder], "the holder asked: not its stall"


def test_an_accusation_of_a_seat_the_record_suspects_is_not_noted() -> None:
    """A seat the record suspects (``VOTE_YES`` or more) may be accused without blame; one it
    clears (less) may not."""
    for score, noted in ((VOTE_YES, []), (VOTE_YES - 0.01, [("p1", "accused p3, whom the record clears", VOTE)])):
        s = game()
        bot.watch_of(s.state).add("p3", "planted", score)
        assert play(s, "p1", "accuse p3") == noted, score


def test_a_vote_no_on_a_seat_the_record_suspects_is_noted() -> None:
    for score, noted in ((VOTE_YES, [("p2", "voted no on p3, whom the record suspects", VOTE)]), (VOTE_YES - 0.01, [])):
        s = game()
        bot.watch_of(s.state).add("p3", "planted", score)
        s.submit("p1", "accuse p3")
        assert play(s, "p2", "vote no") == noted, score


def test_no_seat_accuses_while_a_vote_is_open() -> None:
    """The accuser waits for the vote it opened even when the record now points at another
    seat past the threshold: it plays the heist meanwhile."""
    s = game()
    t = traitor_of(s)
    heroes = [x for x in s.seats if x != t]
    s.submit(heroes[0], f"accuse {t}")
    bot.watch_of(s.state).add(heroes[1], "planted", THRESHOLD + 1)
    assert s.state.vote is not None and heroes[0] not in s.state.vote.voters
    chosen = MAZE.bot_input("planner", s.state, heroes[0], random.Random(0))
    assert chosen is not None and not chosen.startswith("accuse"), chosen

"""The multi-agent loop of the Python API (``agent_iter``, ``step``, ``play_agents``; ``docs/api.md``):
real-time games played to their end, time let pass when no agent acts, a Hidden Roles phantom
asked, and the seats, agents and answers checked before anything is played."""

from __future__ import annotations

import random
import re

import pytest

from arbiter.engine.api import REFUSALS_IN_A_ROW, Game, new_game, play_agents
from arbiter.engine.errors import InputError, UnknownSeatError
from tests.agents_for_tests import Idle
from tests.api_staging import OPEN_VOTE, Drawn, snapshot


def test_a_realtime_game_is_played_to_its_end_through_agent_iter() -> None:
    game = new_game("magic-maze", "1", players=2, seed=3)
    asked = 0
    for seat, seen, choices in game.agent_iter():
        asked += 1
        game.step(seat, None)  # agents that never act: time passes to the sand's end
    assert game.over and game.result.reason == "time" and asked == 2
    assert game.returns() == {"p1": 0, "p2": 0}


def test_play_agents_stops_after_max_inputs_unfinished() -> None:
    game = new_game("mafia", "8-players", seed=2)
    assert play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)}, max_inputs=5) is None
    assert len(game.session.moves) == 5 and not game.over and game.outcome("p1") is None


@pytest.mark.parametrize("game, variant, options", [("mafia", None, {"players": 6}), ("fbi-mafia", "duel-3v3", {}),
                                                    ("magic-maze", "1", {"players": 3})])
def test_max_inputs_counts_the_inputs_played_not_the_answers_refused(game, variant, options) -> None:
    """An answer the game refused, its refusal caught by the loop, was counted as an input: a
    loop told ``max_inputs=12`` whose agent retried each go twice played 4 moves."""
    played = new_game(game, variant, seed=2, **options)
    rng, refusals = random.Random(1), 0
    for seat, _, choices in played.agent_iter(max_inputs=12):
        for answer in ("no such input", "p9 " + choices.legal[0], rng.choice(choices.legal)):
            try:
                played.step(seat, answer)
                break
            except InputError:
                refusals += 1
    assert refusals >= 24 and len(played.session.moves) == 12 and not played.over
    plain = new_game(game, variant, seed=2, **options)  # the same game without the refused answers
    rng = random.Random(1)
    for seat, _, choices in plain.agent_iter(max_inputs=12):
        plain.step(seat, rng.choice(choices.legal))
    assert plain.transcript() == played.transcript()


def test_a_real_time_round_stops_at_max_inputs() -> None:
    """A real-time round asked its last seats past ``max_inputs``: 3 players, 4 inputs, 6 played."""
    game = new_game("magic-maze", "1", players=3, seed=3)
    assert play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)}, max_inputs=4) is None
    assert len(game.session.moves) == 4


@pytest.mark.parametrize("game, variant, options", [("mafia", None, {"players": 6}), ("magic-maze", "1", {"players": 2})])
def test_an_agent_answering_what_the_game_refuses_for_ever_does_not_hold_the_loop_for_ever(game, variant,
                                                                                            options) -> None:
    """Refused answers no longer count towards ``max_inputs``: ``REFUSALS_IN_A_ROW`` of them,
    nothing else changing the game, end the loop with a ``RuntimeError`` naming the last seat,
    the game as it was."""
    stuck = new_game(game, variant, seed=1, **options)
    before, refusals = snapshot(stuck), 0
    with pytest.raises(RuntimeError, match=f"^agent_iter: {REFUSALS_IN_A_ROW} answers in a row were refused, "
                                           f"the last p[12]'s, and nothing else changed the game: the loop stops"):
        for seat, _, _ in stuck.agent_iter():
            try:
                stuck.play(seat, "no such input")
            except InputError:
                refusals += 1
    assert refusals == REFUSALS_IN_A_ROW == 20 and snapshot(stuck) == before


def test_agent_iter_lets_each_change_of_time_pass_until_the_end_when_no_agent_acts() -> None:
    """A whole round with nothing to do lets time pass to its next change, again and again:
    here p5's mission fails at 100 s (it leaves the game, which goes on), the sand ends it at 180 s."""
    game = new_game("magic-maze", "1", players=5, roles=3, seed=1)
    assert play_agents(game, {s: Idle() for s in game.seats}) == game.result is not None
    assert game.result.reason == "time" and game.time == 180.0 and not game.session.moves
    assert [e.data["seat"] for e in game.events() if e.kind == "eliminate"] == ["p5"]


def test_agents_play_a_real_time_game_through_agent_iter() -> None:
    """Each answer lands a step of the clock after the last; time acts first only when it
    changes the game by then."""
    game = new_game("magic-maze", "1", players=2, seed=3)
    result = play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)}, max_inputs=40)
    moves = game.session.moves
    assert result is None and len(moves) == 40 and {m.seat for m in moves} == {"p1", "p2"}
    step = game.session.state.clock_step_ms
    assert [m.time_ms for m in moves] == [step * (i + 1) for i in range(40)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_agent_iter_goes_on_when_time_changes_the_game_without_a_word(seed: int) -> None:
    """At Hidden Roles' level 4 a role card's check at 90 s may change nothing anyone is told:
    the loop lets time pass on to the sand, not stop there with the game unfinished."""
    game = new_game("magic-maze", "1", players=3, roles=4, seed=seed)
    assert play_agents(game, {s: Idle() for s in game.seats}) is not None and game.over and game.time == 180.0


def test_an_input_played_with_play_answers_agent_iter() -> None:
    """``agent_iter`` counted only ``step``'s answers: a loop answering with ``play`` had its
    input played, then was told "mafia was asked for an input and gave none"."""
    game, rng = new_game("fbi-mafia", "duel-3v3", seed=1), random.Random(1)
    for seat, _, choices in game.agent_iter():
        game.play(seat, rng.choice(choices.legal))
    assert game.over
    with pytest.raises(RuntimeError, match="^agent_iter: p1 was asked for an input and gave none"):
        for seat, _, _ in new_game("mafia", players=6, seed=1).agent_iter():
            pass


def test_play_agents_checks_its_seats_before_anything_is_played() -> None:
    """A seat named wrong ("P6") or left out was found only when the game came to it: a
    ``KeyError`` after the other seats had played five inputs."""
    game = new_game("mafia", players=6, seed=1)
    before = snapshot(game)
    agents = {seat: Idle() for seat in ("p1", "p2", "p3", "p4", "p5")}
    with pytest.raises(UnknownSeatError, match="^play_agents: no seat 'P6' in this game$"):
        play_agents(game, {**agents, "P6": Idle()})
    with pytest.raises(ValueError, match="^play_agents: no agent for p6: every seat needs one$"):
        play_agents(game, agents)
    with pytest.raises(TypeError, match="^play_agents: agents is a dict, seat -> agent, not list$"):
        play_agents(game, list(agents.values()))
    assert snapshot(game) == before and game.session.moves == []


@pytest.mark.parametrize("key, shown", [(1, "int: 1"), (None, "NoneType: None"), (b"p6", "bytes: b'p6'"),
                                        (("p6",), "tuple: ('p6',)")])
def test_play_agents_says_type_error_for_a_seat_that_is_no_str_as_every_call_does(key, shown) -> None:
    """An agents dict keyed by seat numbers said ``UnknownSeatError``, an ``InputError``, where
    ``play``, ``legal``, ``step`` and every other call given a seat that is not a ``str`` say
    ``TypeError``: the caller's mistake, not a player's refused input."""
    game = new_game("mafia", players=6, seed=1)
    before = snapshot(game)
    agents = {seat: Idle() for seat in ("p1", "p2", "p3", "p4", "p5")}
    with pytest.raises(TypeError, match=f"^play_agents: a seat is named by a str, not {re.escape(shown)}$"):
        play_agents(game, {**agents, key: Idle()})
    with pytest.raises(TypeError, match="^a seat is named by a str, not "):
        game.step(key, "pass")
    assert snapshot(game) == before and game.session.moves == []


def test_play_agents_checks_its_agents_can_act_before_anything_is_played() -> None:
    """An agent without ``act`` (None, a function) was found when its seat was first asked: an
    ``AttributeError`` after the other seat had played."""
    game = new_game("fbi-mafia", "duel-3v3", seed=1)
    before = snapshot(game)
    for wrong, name in ((None, "NoneType"), (lambda seen, choices: "surrender", "function")):
        with pytest.raises(TypeError, match=f"^play_agents: the agent of fbi has no act\\(observation, "
                                            f"choices\\) method: {name}$"):
            play_agents(game, {"mafia": Idle(), "fbi": wrong})
    assert snapshot(game) == before and game.session.moves == []


def test_step_refuses_a_seat_the_game_has_not_before_time_passes() -> None:
    """``step`` let time act first (a vote closing) before any check of the seat: a misspelt seat
    moved the clock and the game."""
    game = new_game("magic-maze", "1", players=4, roles=1, seed=1)
    for seat, text in OPEN_VOTE:
        game.play(seat, text)
    before, clock = snapshot(game), game.time
    for seat, text in (("nobody", "vote yes"), ("nobody", None), ("host", None), ("P2", "vote yes")):
        with pytest.raises(UnknownSeatError):
            game.step(seat, text)
    assert snapshot(game) == before and game.time == clock


def test_agent_iter_asks_a_phantom_that_may_talk() -> None:
    """A Hidden Roles phantom may ``say`` while talk is forbidden (its form is offered) but is
    not awaited: ``agent_iter`` asked the awaited seats only, so an agent never could."""
    from tests.helpers import roles_game

    s = roles_game("2", ["traitor", "hero", "hero", "hero"], level=2)
    for line in ("@10 p2 accuse p1", "@11 p3 vote yes", "@12 p4 vote yes", "@13 p2 pass",
                 "@15 p2 move green south 1"):  # p1 a phantom; the first action silences the table
        at, seat, words = line.split(" ", 2)
        s.submit(seat, words, int(at[1:]) * 1000)
    game = Game(s)
    assert "p1" not in game.awaiting() and game.forms("p1") == ["say TEXT"]
    said = []
    for seat, _, choices in game.agent_iter(max_inputs=1):
        if seat == "p1":
            said = game.step(seat, "say the dwarf is lying")
            break
        game.step(seat, None)
    assert [e.text for e in said][:1] == ["p1: the dwarf is lying"]


def test_step_refuses_an_answer_of_the_wrong_type_first_as_play_does() -> None:
    """``step("p9", 5)`` was an ``UnknownSeatError`` where ``play`` says ``TypeError``; and when
    time acted first a non-str answer was dropped without a word, the game moved on."""
    game = new_game("magic-maze", "1", players=2, seed=1)
    game.wait(179.5)
    for seat in ("p9", "p1"):
        with pytest.raises(TypeError):
            game.play(seat, 5)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            game.step(seat, 5)  # type: ignore[arg-type]
    assert game.time == 179.5 and not game.over


def test_step_lets_time_act_first_and_plays_nothing_where_time_changes_the_game_before_it() -> None:
    """The answer's moment is a step of the clock on; a vote closing before it closes, the
    answer (chosen without knowing) is not played, and the seat is asked again (docs/api.md)."""
    game = new_game("magic-maze", "1", players=4, roles=1, seed=1)
    for seat, text in OPEN_VOTE:
        game.play(seat, text)
    moves = len(game.session.moves)
    told = game.step("p2", "vote yes")
    assert [e.text for e in told] == ["The accusation of p4 is rejected (no vote in time from p2 and p3)."]
    assert len(game.session.moves) == moves and game.time == 7 and "vote yes" not in game.legal("p2")


@pytest.mark.parametrize("wrong, kind, problem", [
    ("5", TypeError, "max_inputs is a whole number \\(an int\\), not str"),
    (None, TypeError, "max_inputs is a whole number \\(an int\\), not NoneType"),
    (True, TypeError, "max_inputs is a whole number \\(an int\\), not bool"),
    (1.5, TypeError, "max_inputs is a whole number \\(an int\\), not float"),
    (-1, ValueError, "max_inputs is a whole number from 0, not -1"),
])
def test_max_inputs_of_the_wrong_kind_is_refused_before_anything_is_played(wrong, kind, problem) -> None:
    """``max_inputs`` was not checked: ``"5"`` failed comparing a str with an int, ``-1`` played
    nothing and said nothing (``play_agents`` returned None, as if the inputs ran out), and
    ``True`` and ``1.5`` were taken as 1 and 2. ``agent_iter`` refuses it as it is called, not at
    the first ``next``."""
    game = new_game("mafia", players=6, seed=1)
    before = snapshot(game)
    with pytest.raises(kind, match=f"^agent_iter: {problem}$"):
        game.agent_iter(wrong)
    agents = {seat: Drawn(i) for i, seat in enumerate(game.seats)}
    with pytest.raises(kind, match=f"^play_agents: {problem}$"):
        play_agents(game, agents, max_inputs=wrong)
    assert snapshot(game) == before and game.session.moves == []
    assert play_agents(game, agents, max_inputs=0) is None and game.session.moves == []  # (0: play nothing)


def test_play_agents_names_a_game_that_is_not_one() -> None:
    """A transcript's path or a game's name given for the game was an ``AttributeError``
    (``'str' object has no attribute 'seats'``)."""
    with pytest.raises(TypeError, match="^play_agents: game is a Game \\(new_game, load_game\\), not str$"):
        play_agents("mafia", {})


class Chatty:
    """Answers as a language model often does: its seat's name first, a line's end after."""

    def __init__(self, seat: str) -> None:
        self.seat = seat

    def act(self, observation: str, choices):
        return f"{self.seat.upper()}  {choices.legal[0]}\n" if choices.legal else None


class Plain:
    def act(self, observation: str, choices):
        return choices.legal[0] if choices.legal else None


@pytest.mark.parametrize("game, options", [("mafia", {"players": 6}), ("fbi-mafia", {})])
def test_step_reads_an_answer_as_the_referee_reads_a_py_agents(game: str, options: dict) -> None:
    """``"P1  pass\\n"`` was a SyntaxInputError in ``play_agents`` (a control character), while
    ``arbiter play --bot p1=py:...`` played the same agent's answer as ``pass``: the library's
    loop reads it as the referee does (``agents.answer_words``), and the game is the plain one."""
    from arbiter.engine.agents import AgentBot
    from arbiter.engine.match import Match
    from arbiter.engine.protocol import Protocol

    chatty, plain = new_game(game, seed=3, **options), new_game(game, seed=3, **options)
    play_agents(chatty, {s: Chatty(s) for s in chatty.seats}, max_inputs=300)
    play_agents(plain, {s: Plain() for s in plain.seats}, max_inputs=300)
    assert [(m.seat, m.text) for m in chatty.session.moves] == [(m.seat, m.text) for m in plain.session.moves]
    assert len(chatty.session.moves) > 5
    refereed = new_game(game, seed=3, **options).session  # the referee, with the same agents
    bots = {s: AgentBot(s, Chatty(s)) for s in refereed.seats}
    for _ in Match(Protocol(refereed), bots, None, max_moves=len(chatty.session.moves)).run():
        pass
    assert [(m.seat, m.text) for m in refereed.moves] == [(m.seat, m.text) for m in chatty.session.moves]

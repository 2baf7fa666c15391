"""Magic Maze played at random, at the engine level (``docs/rules/magic-maze.md``): random
legal inputs of random seats, with time stamps that never go back (and now and then beyond the
deadline), keep the invariants of the game after every input; refused garbage lines change
nothing; and the board as it is drawn.

Rule-by-rule unit tests live in ``tests/test_maze_rules_*.py``. Known bugs are written as the
correct behaviour and marked ``xfail(strict=True)``; set-up checks raise ``RuntimeError``. Shared
games and checks: ``tests/maze_play_staging.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.api import new_game
from arbiter.engine.bench import play_random
from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import GameOverError
from arbiter.engine.events import HOST
from arbiter.engine.games.magic_maze import planner
from arbiter.engine.games.magic_maze.moves import move_name
from arbiter.engine.games.magic_maze.state import HEROES, MazeState
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.maze_play_staging import SCENARIOS, USABLE_ONCE, maze, precondition


# -- the property test ------------------------------------------------------------------------------


def item_squares_all_held(state: MazeState) -> bool:
    return all(g is not None and state.kind(g) == ("item", h) for h, g in state.heroes.items())


def snapshot(session: Session) -> tuple:
    """What a refused line must leave alone (the log only grows: its length and last entry)."""
    state = session.state
    return (len(session.entries), repr(session.entries[-1:]), len(session.moves), session.clock_ms, state.now_ms, state.deadline_ms, len(state.events),
            repr(state.view(HOST)), session.render(HOST))


class Checker:
    """The invariants, checked after every input; remembers what may only grow."""

    def __init__(self, session: Session) -> None:
        self.session = session
        state = session.state
        self.total_tiles = 1 + len(state.scenario.stack) + len(state.scenario.on_top)
        self.theft = False
        self.clock = 0
        self.escaped: list[str] = []
        self.hands = list(state.hands)

    def __call__(self) -> None:
        session, state = self.session, self.session.state
        heroes = {h: g for h, g in state.heroes.items() if g is not None}
        # no two heroes on one square; every hero on a square of the mall that is not blocked
        assert len(set(heroes.values())) == len(heroes), heroes
        for hero, g in heroes.items():
            assert g in state.mall.at, (hero, g)
            assert state.kind(g)[0] != "blocked", (hero, state.square_name(g))
        # used squares are hourglasses, cameras or crystal balls; one flip per used hourglass
        for g in state.used:
            assert state.kind(g)[0] in USABLE_ONCE, state.square_name(g)
        used_hourglasses = sum(1 for g in state.used if state.kind(g)[0] == "hourglass")
        flips = sum(1 for e in state.events if e.kind == "flip")
        assert state.flips == used_hourglasses == flips
        # the escaped are exactly the heroes with no square, each once, never back
        assert sorted(state.escaped) == sorted(h for h, g in state.heroes.items() if g is None)
        assert len(set(state.escaped)) == len(state.escaped)
        assert state.escaped[: len(self.escaped)] == self.escaped
        self.escaped = list(state.escaped)
        # the theft: set iff it happened (one event), never unset; nobody escapes before it
        thefts = [e for e in state.events if e.kind == "theft"]
        assert len(thefts) <= 1
        assert state.theft == bool(thefts)
        assert state.theft or not self.theft, "the theft flag was unset"
        if state.theft and not self.theft and not state.escaped:
            assert item_squares_all_held(state), "a theft without all four heroes on their items"
        if not state.theft:
            assert not item_squares_all_held(state), "all four heroes on their items, yet no theft"
            assert not state.escaped
        self.theft = state.theft
        # time: the clock never runs back; the time left never exceeds the timer
        assert session.clock_ms >= self.clock
        self.clock = session.clock_ms
        assert state.now_ms <= session.clock_ms
        assert 0 <= state.time_left_ms() <= state.scenario.timer_ms
        assert state.deadline_ms - state.now_ms <= state.scenario.timer_ms
        # the mall: tiles never overlap; placed + stack = every tile of the scenario
        assert len(state.mall.at) == 16 * len(state.mall.placed)
        assert len(state.mall.placed) + len(state.stack) == self.total_tiles
        # the action tiles
        if state.solo:
            assert sorted(state.deck + state.discard) == sorted(state.data.solo)
        else:
            assert state.hands in [self.hands[i:] + self.hands[:i] for i in range(len(self.hands))]
            if not state.scenario.pass_on_flip:
                assert state.hands == self.hands
        # how the game ended
        result = state.result
        if result is None:
            assert state.time_left_ms() > 0
            assert state.awaiting()
        elif result.reason == "time":
            assert result.winner is None and result.winners == ()
            assert state.now_ms == state.deadline_ms
            assert result.text in (f"The sand ran out at {seconds_name(state.deadline_ms)} s: everyone loses.",
                                   f"The flip left no sand at {seconds_name(state.now_ms)} s: everyone loses.")
            assert len(state.escaped) < len(HEROES)
        else:
            assert result.reason == "escape" and result.winner == "team"
            assert sorted(state.escaped) == sorted(HEROES) and state.theft
            assert result.winners == tuple(session.seats)
        if result is not None:
            assert state.legal_inputs("p1") == [] and state.awaiting() == []
            assert sum(1 for e in state.events if e.kind == "game-over") == 1


def garbage_lines(rng: random.Random, state: MazeState, clock_ms: int) -> list[str]:
    """Lines every session must refuse, whatever the state of the game."""
    seat = rng.choice(state.seats)
    hero = rng.choice(HEROES)
    word = "".join(rng.choice("abcxyz!?é") for _ in range(rng.randint(1, 6)))
    lines = [
        f"{seat} move {hero} up",
        f"{seat} move {hero} north 0",
        f"{seat} move {hero} north 99",
        f"{seat} move {hero}",
        f"{seat} vortex {hero} zz.a1",
        f"{seat} escalator",
        f"{seat} explore",
        f"{seat} draw now",
        f"{seat} say",
        f"{seat} pawn p9",
        f"{seat} stare",
        f"{seat} fly {hero}",
        f"{seat} {word}{word}",
        "p9 draw",
        f"{word}x {seat}",
        "legal p9",
        "board p9",
        f"@{word} {seat} draw",
        f"@1.2345 {seat} draw",
        f"{seat} move wizard north",
    ]
    if clock_ms > 0:
        lines.append(f"@{seconds_name(clock_ms - 1)} {seat} pawn {seat}")  # before the clock
    return lines


def random_input(rng: random.Random, state: MazeState, seat: str) -> str | None:
    """One of ``seat``'s legal inputs, mostly a game action (talk and the pawn alone go nowhere)."""
    legal = state.legal_inputs(seat) + state.input_forms(seat)
    if not legal:
        return None
    actions = [m for m in legal if m.split()[0] in ("move", "vortex", "escalator", "explore", "draw")]
    pick = rng.choice(actions if actions and rng.random() < 0.85 else legal)
    if pick == "say TEXT":
        pick = "say " + rng.choice(["where is the exit?", "hurry", "mage, go north!"])
    return pick


def next_input(rng: random.Random, state: MazeState, plan: float) -> tuple[str, str | None]:
    """A seat and its input: with probability ``plan`` the team plan's next input (the
    planner steers toward thefts, exits and wins), else a random seat's random legal input."""
    if rng.random() < plan:
        for seat in state.seats:
            move = planner.choose(state, seat)
            if move is not None:
                choice = move_name(move)
                precondition(choice in state.legal_inputs(seat), f"the planner chose {choice!r}, not legal")
                return seat, choice
    seat = rng.choice(state.seats)
    return seat, random_input(rng, state, seat)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIOS), players=st.integers(1, 8), seed=st.integers(0, 2**31 - 1),
       rseed=st.integers(0, 2**32 - 1), length=st.integers(1, 150), plan=st.sampled_from([0.0, 0.0, 0.97]),
       late=st.sampled_from([0.0, 0.03]))
def test_random_legal_inputs_keep_the_invariants(scenario: str, players: int, seed: int, rseed: int,
                                                 length: int, plan: float, late: float) -> None:
    rng = random.Random(rseed)
    session = maze(scenario, players, seed)
    protocol = Protocol(session)
    check = Checker(session)
    check()
    state = session.state
    for step in range(length):
        # garbage now and then, while an unstamped line cannot land after the deadline
        if rng.random() < 0.3 and state.deadline_ms - session.clock_ms > state.clock_step_ms:
            before = snapshot(session)
            line = rng.choice(garbage_lines(rng, state, session.clock_ms))
            answer = protocol.handle(line)
            assert answer is not None and answer.startswith("? "), (line, answer)
            assert snapshot(session) == before, f"the refused line {line!r} changed the game"
        seat, text = next_input(rng, state, plan)
        if text is None:
            precondition(state.solo is False or state.result is not None, "solo always may draw")
            continue
        # a time stamp: none (the step), the clock itself, a little later, or past the deadline
        roll = rng.random()
        if roll < 0.4:
            stamp = None
            at = session.clock_ms + state.clock_step_ms
        else:
            if roll < 0.6:
                at = session.clock_ms
            elif roll < 1 - late:
                at = session.clock_ms + rng.randint(1, 2500)
            else:
                at = state.deadline_ms + rng.randint(0, 5000)
            stamp = seconds_name(at)
        line = (f"@{stamp} " if stamp is not None else "") + f"{seat} {text}"
        deadline = state.deadline_ms
        answer = protocol.handle(line)
        assert answer is not None
        if at >= deadline:
            assert answer.startswith("? game-over: the game is over: The sand ran out at"), (line, answer)
            assert state.result is not None and state.result.reason == "time"
            assert state.now_ms == deadline and session.clock_ms == at
        else:
            assert answer.startswith(f"= {seat} "), (line, answer)
            assert session.moves[-1].time_ms == at and session.moves[-1].seat == seat
        check()
        if state.result is not None:
            break
    if state.result is not None and state.result.reason == "time":
        # nothing is accepted after the sand ran out, and refusing changes nothing
        before = snapshot(session)
        for seat in state.seats[:2]:
            for text in ("pawn p1", "draw", "move purple north"):
                with pytest.raises(GameOverError):
                    session.submit(seat, text)
                answer = protocol.handle(f"@{seconds_name(session.clock_ms)} {seat} {text}")
                assert answer is not None and answer.startswith("? game-over: ")
        assert snapshot(session) == before
    # the game so far replays exactly from its transcript
    recorded = tr.parse(tr.dump(session))
    assert [e["move"]["seat"] for e in recorded.log if "move" in e] == [m.seat for m in session.moves]
    report = tr.replay(recorded)
    assert report.ok, report.problems


# -------------------------------------------------------------------------- the board, drawn
MAZE_BOARDS = {
    "PLANNED": """\
                           +2-+--+--+--+
                           |Xp ..|## S1|
                           +  +  +  +  +6-+--+  +--+
                           |.. Vp .. ..|.. ##|Eg Iy|
+11+--+  +--+              +--+  +--+  +  +  +  +  +
|.. .. Eg ..|              |S1 .. Vg eo In Vp|.. ..|
+  +  +  +  +3-+--+--+--+  +  +  +--+  +  +  +  +--+
|.. ## .. ..|..|##|Vo ..|  |.. In|## ..|..|.. .. Eo
+--+  +--+  +  +  +--+  +8-+--+  +--+--+  +--+  +  +
|.. ..|Vy In ep .. .. ..|.. ..|eo ..|  |.. .. ..|##|
+  +  +  +  +--+  +  +  +  +--+  +  +  +--+--+--+--+
|Xy Eo ..|##|.. .. ..|In ep .. ..|G@|
+--+  +--+--+  +  +  +  +--+  +  +  +
            |Vg ey|Hg ..|Y@ .. ## ..|
         +10+--+--+--+--+  +  +--+  +
         |.. Xg ..|##|  |## In .. ..|
         +  +  +  +--+1a+--+  +--+--+
          Ey ..|Vg ..|Vp Hg|eo Vy|
         +--+  +--+  +--+  +  +  +7-+--+  +--+
         |Vo .. .. In ep .. .. S1|##|S1 Ep O@|
         +  +  +  +  +  +  +  +--+  +  +  +  +
         |S1 ep|## S1|S1 .. .. eg In ..|.. ..|
      +12+--+  +--+--+--+  +  +  +--+  +--+--+
      |## .. In S2|  |Vg ey Vo ##|.. .. .. ##|
      +--+  +  +  +9-+--+  +--+--+  +  +  +  +
      |Vo S1|.. Vp|..|.. In ..|  |.. Vg|Vy S1|
      +  +--+  +--+  +--+  +  +5-+--+--+--+--+
      |.. .. .. Xo|Vo .. ## ..|##|.. ey ..|
      +  +  +  +  +--+  +--+  +  +  +  +  +
      |S2 Ey|.. S1|## .. ..|ey In P@ ..|##|
      +--+  +--+--+  +  +  +  +  +  +  +  +
                  |.. ..|.. Ip|.. Vp|.. Eo
                  +--+--+--+--+--+  +--+  +
                              |.. Eg Hg ..|
                              +--+  +--+--+
Magic Maze, scenario 2: own exits; 2 player(s)
time left 135 s of 180 (clock 45); flips 0; stack 1
theft: not yet
talk: silence; pawn: on the table
p1: vortex north east
p2: escalator explore south west""",
    "ROLES": """\
+1a+--+  +--+
|Vp Hg|Eo Vy|
+--+  +  +  +
 Ep P@ Y@ S1|
+  +  +  +--+
|S1 G@ O@ Eg
+--+  +  +  +
|Vg Ey Vo ##|
+--+  +--+--+
Magic Maze, scenario 1: the first heist; 5 player(s)
time left 80 s of 180 (clock 100); flips 0; stack 8
theft: not yet
talk: open; pawn: on the table
p1: vortex west west
p2: explore south
p3: escalator east
p4: north
p5: -
Hidden Roles, level 3, missions and special rules
dealt from: traitor x3, mage-first, barbarian-first, elf-last, dwarf-last,
  master-thief, quick-hands, pathfinder, close-call, no-shortcuts, clean-record,
  mage-averse, dwarf-averse, needs-a-push, mute, small-steps, trusting
eye card: on the table; pawn put by: -
out: p5 (failed)
revealed: p5 quick-hands (hero)
p1's card: Traitor (traitor), traitor. You are a traitor. The heroes must not
  get out in time, and nobody must find you out.
p2's card: Small steps (small-steps), hero. Every hero you move goes one square
  at a time.
p3's card: No shortcuts for the elf (no-shortcuts), hero [mission: pending]. The
  green elf must never travel by vortex.
p4's card: Close call (close-call), hero [mission: pending]. Someone must flip
  the timer while less than 40 seconds of sand are left.
p5's card: Quick hands (quick-hands), hero [mission: failed]. The theft must
  happen before the clock shows 100 seconds.""",
}


def test_the_board_reads_as_written():
    """Two whole boards, as the host sees them: scenario 2 after 45 planner inputs (eight
    tiles, their corners and doors, explored exits in lower case, heroes as ``X@``, each seat's
    action tiles), and a Hidden Roles game of five after p5's mission failed at 100 s (p5 out,
    its hand empty: ``-``; the level's cards and missions below the status)."""
    planned = play_random(registry.get("magic-maze"), "2", 1, max_inputs=45, kind="planner", options={"players": 2})
    assert len(planned.moves) == 45 and planned.render(HOST) == MAZE_BOARDS["PLANNED"]
    roles = new_game("magic-maze", "1", players=5, roles=3, seed=1)
    roles.wait()
    assert roles.board() == MAZE_BOARDS["ROLES"]

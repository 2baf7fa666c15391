"""A variant of Magic Maze built only through ``MazeState``'s hooks, so the hooks are known to work
(the Hidden Roles expansion is built the same way).

The toy variant: p2 may never touch the mage (``check_actor``); ``ring`` rings a bell that stops
by itself 5 s later (``forms``, ``parse``, ``plan``, ``legal_moves``, ``timers``); p1 is mute
(``talk_open_for``); nobody passes action tiles on a flip (``pass_hands``); the state counts its
changes (``after_change``); and when the game ends, the seats that never rang win, whatever the
team did (``finish``). Every input goes through ``Session.submit``.

Two players: p1 holds vortex, north, east; p2 holds escalator, explore, south, west. Heroes
stand on 1a.b2 (purple), c2 (yellow), b3 (green), c3 (orange); the hourglass is at 1a.b1.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from arbiter.engine.chance import ChanceRecord
from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import IllegalMoveError, InputError, SyntaxInputError, UnknownActionError
from arbiter.engine.events import HOST
from arbiter.engine.game import Result
from arbiter.engine.games.magic_maze import data as mm
from arbiter.engine.games.magic_maze.moves import Move
from arbiter.engine.games.magic_maze.rules import MagicMazeRules
from arbiter.engine.games.magic_maze.state import HEROES, MazeState, Plan, Timer
from arbiter.engine.session import Session

D = mm.load()
BELL_MS = 5000


class BellState(MazeState):
    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.bell_until: int | None = None
        self.rang: set[str] = set()
        self.changes = 0

    def forms(self) -> dict[str, str]:
        return {**super().forms(), "ring": "ring: ring the bell (it stops by itself 5 s later)"}

    def parse(self, text: str) -> Move:
        words = text.split()
        if words and words[0].lower() == "ring":
            if len(words) > 1:
                raise SyntaxInputError("ring takes no words after it", [self.forms()["ring"]])
            return Move("ring")
        return super().parse(text)

    def check_actor(self, seat: str, move: Move) -> None:
        if seat == "p2" and move.hero == "purple":
            raise IllegalMoveError("p2 may never touch the mage")

    def plan(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if move.verb != "ring":
            return super().plan(seat, move)
        if self.bell_until is not None:
            raise IllegalMoveError("the bell is ringing already")

        def ring() -> None:
            self.bell_until = self.now_ms + BELL_MS
            self.rang.add(seat)
            self.events.emit("bell", f"{seat} rings the bell.", {"seat": seat})
        return move, ring

    def legal_moves(self, seat: str) -> list[Move]:
        ring = [Move("ring")] if self.result is None and self.bell_until is None else []
        return super().legal_moves(seat) + ring

    def timers(self) -> list[Timer]:
        bell = [(self.bell_until, self.bell_stops)] if self.bell_until is not None else []
        return super().timers() + bell

    def bell_stops(self) -> None:
        self.bell_until = None
        self.events.emit("bell", f"The bell stops at {seconds_name(self.now_ms)} s.", {})

    def talk_open_for(self, seat: str) -> bool:
        return seat != "p1" and super().talk_open_for(seat)

    def pass_hands(self) -> None:
        self.events.emit("pass", "Nobody passes.", {})

    def after_change(self) -> None:
        self.changes += 1

    def finish(self, won: bool, reason: str, text: str) -> None:
        quiet = tuple(s for s in self.seats if s not in self.rang)
        self.result = Result("team" if won else None, reason, text, quiet, {"rang": sorted(self.rang)})
        self.events.emit("game-over", text, self.result.as_dict())


class BellRules(MagicMazeRules):
    state_class = BellState


def game(scenario: str = "1") -> Session:
    sc = D.scenarios[scenario]
    records = [ChanceRecord("stack", list(sc.stack)), ChanceRecord("heroes", list(HEROES))]
    return Session(BellRules(), scenario, seed=0, options={"players": 2}, recorded=records)


def refusal(s: Session, seat: str, text: str, time_ms: int | None = None) -> InputError:
    before = (s.state.view(HOST), len(s.events), s.state.changes)
    with pytest.raises(InputError) as info:
        s.submit(seat, text, time_ms)
    assert (s.state.view(HOST), len(s.events), s.state.changes) == before, f"{text!r} changed the game"
    return info.value


def test_the_rules_set_up_the_variant_state() -> None:
    assert isinstance(game().state, BellState)


def test_check_actor_refuses_a_seat_and_the_legal_lists_follow() -> None:
    s = game()
    err = refusal(s, "p2", "move mage south")
    assert type(err) is IllegalMoveError and err.message == "p2 may never touch the mage"
    p2 = s.state.legal_inputs("p2")
    assert not [m for m in p2 if " purple " in f"{m} "], p2
    assert "move orange south 1" in p2 and "move purple north 1" in s.state.legal_inputs("p1")
    s.submit("p2", "move orange south")  # p2 moves the other heroes as ever
    assert s.state.square_name(s.state.heroes["orange"]) == "1a.c4"
    s.submit("p1", "move mage north")  # and p1 the mage
    assert s.state.square_name(s.state.heroes["purple"]) == "1a.b1"


def test_the_words_are_read_before_the_seat_is_judged() -> None:
    """``check_actor`` sees a read move: an input that cannot be read is refused as such."""
    s = game()
    err = refusal(s, "p2", "move mage up")
    assert type(err) is SyntaxInputError and err.message == "'up' is not a direction (north, south, east, west)"


@pytest.mark.parametrize("number", ["0", "12345", "9" * 5000, "\u0663"])
def test_a_number_of_squares_that_is_no_small_number_is_refused_as_words(number: str) -> None:
    """A move's number of squares is at most 4 digits (no mall is that wide): 5,000 digits were
    once read by ``int`` past Python's limit, a traceback out of ``arbiter play``."""
    s = game()
    before = (dict(s.state.heroes), len(s.moves), len(s.events))
    err = refusal(s, "p1", f"move purple north {number}")
    assert type(err) is SyntaxInputError and err.message.endswith("is not a number of squares")
    assert len(err.message) < 100 and (dict(s.state.heroes), len(s.moves), len(s.events)) == before
    s.submit("p1", "move purple north 0001")  # four digits are a number
    assert len(s.moves) == 1


def test_a_verb_of_its_own_is_read_planned_listed_and_recorded() -> None:
    s = game()
    assert "ring" in s.state.legal_inputs("p1") and "ring" in s.state.legal_inputs("p2")
    err = refusal(s, "p1", "ring twice")
    assert type(err) is SyntaxInputError and err.allowed == ("ring: ring the bell (it stops by itself 5 s later)",)
    err = refusal(s, "p1", "jump")
    assert type(err) is UnknownActionError and err.message == "'jump' is not an action of Magic Maze"
    assert err.allowed[-1].startswith("ring:") and len(err.allowed) == len(MazeState.forms(s.state))  # (not draw)
    s.submit("p1", "RING", 10_000)
    assert s.moves[-1].text == "ring"
    assert "ring" not in s.state.legal_inputs("p2")
    err = refusal(s, "p2", "ring", 11_000)
    assert type(err) is IllegalMoveError and err.message == "the bell is ringing already"


def test_a_timed_change_of_its_own_happens_at_its_moment() -> None:
    s = game()
    s.submit("p1", "ring", 10_000)
    assert s.state.next_deadline() == 15_000
    events = s.advance_to(20_000)
    assert [e.text for e in events] == ["The bell stops at 15 s."]
    assert s.state.now_ms == 20_000 and s.state.next_deadline() == 180_000
    s.submit("p2", "ring", 21_000)
    s.submit("p1", "stare p2", 30_000)  # the bell stopped at 26 s, before this input: a tick first
    assert {"tick": {"time": 30}} in s.entries
    assert [e.text for e in s.events.since(0) if e.kind == "bell"][-1] == "The bell stops at 26 s."


def test_the_sand_comes_first_and_ends_the_game_with_the_variants_result() -> None:
    s = game()
    s.submit("p2", "ring", 176_000)  # the bell would stop at 181 s; the sand runs out at 180 s
    s.advance_to(200_000)
    result = s.state.result
    assert result is not None and result.reason == "time" and result.winners == ("p1",)
    assert result.scores == {"rang": ["p2"]}
    assert s.state.now_ms == 180_000
    assert not [e for e in s.events.since(0) if e.text.startswith("The bell stops")]


def test_talk_open_for_silences_one_seat_and_its_forms() -> None:
    s = game()  # scenario 1: talk is always open
    assert s.state.input_forms("p1") == [] and s.state.input_forms("p2") == ["say TEXT"]
    err = refusal(s, "p1", "say hello")
    assert type(err) is IllegalMoveError and err.message.startswith("silence:")
    s.submit("p2", "say hello")


def test_pass_hands_replaces_the_passing_on_a_flip() -> None:
    s = game("3")  # scenario 3: tiles are passed on every flip
    hands = dict(s.state.view(HOST)["hands"])
    s.submit("p1", "move purple north 1", 100_000)  # onto the hourglass at 1a.b1
    assert s.state.flips == 1
    assert [e.text for e in s.events.since(0) if e.kind == "pass"] == ["Nobody passes."]
    assert s.state.view(HOST)["hands"] == hands


def test_after_change_follows_every_accepted_input_and_every_passing_of_time() -> None:
    s = game()
    s.submit("p1", "ring", 1_000)
    refusal(s, "p2", "move mage south", 2_000)
    s.submit("p2", "stare p1", 3_000)
    s.advance_to(4_000)
    s.submit("p1", "pawn p2", 9_000)  # the bell stops at 6 s: a tick, then the input
    assert s.state.changes == 5


def test_the_state_imports_neither_the_renderer_nor_the_planner() -> None:
    """Dependencies point down: a fresh interpreter that imports the state (which a variant
    subclasses) loads none of the modules that read the state."""
    script = ("import sys, arbiter.engine.games.magic_maze.state; "
              "print(sorted(m for m in sys.modules if m.startswith('arbiter.engine.games.magic_maze.')))")
    repo = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", script], cwd=repo, capture_output=True, text=True, check=True)
    loaded = {m.rsplit(".", 1)[1] for m in ast.literal_eval(out.stdout)}
    assert loaded == {"board", "data", "mall", "moves", "state", "tiles"}, loaded


@pytest.mark.parametrize("players, level, listed", [
    (1, None, ["move", "vortex", "escalator", "explore", "draw", "say"]),
    (2, None, ["move", "vortex", "escalator", "explore", "say", "pawn", "stare"]),
    (3, 1, ["move", "vortex", "escalator", "explore", "say", "pawn", "stare", "accuse", "vote", "eye", "flip", "pass"]),
    (3, 2, ["move", "vortex", "escalator", "explore", "say", "pawn", "stare", "accuse", "vote", "eye", "flip", "pass",
            "abandon"]),
    (3, 5, ["move", "vortex", "escalator", "explore", "say", "pawn", "stare", "accuse", "vote", "eye", "flip", "pass",
            "abandon", "divine"]),
])
def test_unreadable_words_list_the_forms_a_seat_may_type_in_this_game(players, level, listed) -> None:
    """An unknown action listed solo's ``draw`` at a table, ``stare`` and ``pawn`` alone, and
    Hidden Roles' ``abandon`` and ``divine`` at levels without them: forms the seat can never
    type there."""
    from arbiter.engine.api import new_game

    game = new_game("magic-maze", "1", players=players, roles=level, seed=1)
    with pytest.raises(UnknownActionError) as caught:
        game.play("p1", "fly", time=0)
    assert [form.split()[0].rstrip(":") for form in caught.value.allowed] == listed

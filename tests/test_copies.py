"""Copies of a game (``Game.copy``, ``Session.copy``): a search bot's trials.

A copy shares with its game only what no input changes (the rules, the mode's data, the
state's ``constants`` and what is already on record), and copies everything else: playing
either one never changes the other, and both play the same inputs to the same game. The
contract (``engine/contract.py``) checks a copy at every checked input of a random game of
every mode; here copies are played on far, in every game, and the sharing is planted wrong
to see it caught.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from arbiter.engine import registry
from arbiter.engine.api import Game, new_game
from arbiter.engine.chance import Chance
from arbiter.engine.contract import check_contract, state_snapshot
from arbiter.engine.errors import InputError
from arbiter.engine.game import shared_values
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.magic_maze.roles.state import HiddenRolesState

GAMES = [("fbi-mafia", "standard-4v4", {}), ("fbi-mafia", "duel-3v3", {}), ("mafia", None, {"players": 12}),
         ("magic-maze", "7", {"players": 4}), ("magic-maze", "2", {"players": 1}),
         ("magic-maze", "3", {"players": 5, "roles": 4})]


def random_input(game: Game, rng: random.Random) -> tuple[str, str, float]:
    """An input some seat may send now, chosen by ``rng`` (never giving up: that ends the game
    at once), a moment after the last."""
    legal = {s: [m for m in game.legal(s) if m not in ("abandon", "surrender")] for s in game.seats}
    seat = rng.choice([s for s in game.seats if legal[s]])
    return seat, rng.choice(legal[seat]), game.time + rng.choice((0, 0.5, 1))


def played(game: Game, inputs: list[tuple[str, str, float]]) -> list[str]:
    """What each input did: its events, or why it was refused (time may end a real-time game
    before an input: the input is refused, the clock has moved)."""
    out = []
    for seat, text, at in inputs:
        try:
            out.append(repr(game.play(seat, text, time=at)))
        except InputError as exc:
            out.append(f"{exc.kind}: {exc.message}")
    return out


def play_copies(name: str, variant: str | None, options: dict, seed: int, moves: int = 120) -> int:
    """Copy the game again and again, play each copy ahead on its own with random inputs, check
    the game did not change, then play the same inputs on the game and check both are the same
    game; the number of copies played."""
    game = new_game(name, variant, seed=seed, **options)
    rng = random.Random(f"copies:{name}:{variant}:{seed}")
    copies = 0
    while not game.over and len(game.session.moves) < moves:
        twin = game.copy()
        assert all(a is b for a, b in zip(shared_values(game.session.state), shared_values(twin.session.state)))
        before, transcript = state_snapshot(game.session), game.transcript()
        ahead: list[tuple[str, str, float]] = []
        for _ in range(rng.randint(1, 12)):  # the copy goes ahead on its own
            if twin.over:
                break
            ahead.append(random_input(twin, rng))
        answers = played(twin, ahead)
        assert state_snapshot(game.session) == before and game.transcript() == transcript, "the copy changed the game"
        assert played(game, ahead) == answers  # the same inputs: the same game, the chance drawn on the way too
        assert game.transcript() == twin.transcript()
        assert game.session.events.digest() == twin.session.events.digest()
        assert all(game.view(s) == twin.view(s) and game.legal(s) == twin.legal(s) for s in game.seats)
        copies += 1
    return copies


@pytest.mark.parametrize("name, variant, options", GAMES, ids=[f"{g}-{v}-{o}" for g, v, o in GAMES])
def test_a_copy_plays_on_as_its_game_and_neither_changes_the_other(name: str, variant: str | None,
                                                                    options: dict) -> None:
    assert sum(play_copies(name, variant, options, seed, moves=60) for seed in (1, 2)) >= 6


@pytest.mark.parametrize("name, variant, options", GAMES, ids=[f"{g}-{v}-{o}" for g, v, o in GAMES])
def test_a_game_and_its_session_pickle_with_every_protocol_and_play_on_as_the_game(name, variant, options) -> None:
    """Pickle's protocols 0 and 1 refused a Classic Mafia or FBI vs Mafia game ("a class that
    defines __slots__ without defining __getstate__ cannot be pickled"; its state keeps its
    facts in slots); every protocol now gives the game back whole, and it plays on as the game."""
    game = new_game(name, variant, seed=3, **options)
    rng = random.Random(3)
    played(game, [random_input(game, rng) for _ in range(4)])
    probe, ahead = game.copy(), []
    for _ in range(3):
        ahead.append(random_input(probe, rng))
        played(probe, ahead[-1:])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back, session = pickle.loads(pickle.dumps(game, protocol)), pickle.loads(pickle.dumps(game.session, protocol))
        assert isinstance(back, Game) and back.session is not game.session
        for twin in (back, Game(session)):
            assert twin.transcript() == game.transcript()
            assert all(game.view(s) == twin.view(s) and game.legal(s) == twin.legal(s) for s in game.seats)
            assert played(twin, ahead) == played(game.copy(), ahead) and twin.transcript() == probe.transcript()


def test_a_copy_of_a_copy_and_deepcopy_of_a_list_of_games_are_games_of_their_own() -> None:
    game = new_game("fbi-mafia", "standard-3v3", seed=1)
    played(game, [random_input(game, random.Random(1))])
    games = copy.deepcopy([game, game])
    assert games[0] is not game and games[0] is games[1] is not None  # (one copy, as deepcopy keeps sharing)
    second = games[0].copy()
    played(second, [random_input(second, random.Random(2))])
    assert len(second.session.moves) == 2 and len(games[0].session.moves) == len(game.session.moves) == 1


def test_deepcopy_of_a_game_with_its_session_keeps_them_one_game() -> None:
    """An environment keeping both the game and its session (or the session's state), copied
    in one ``copy.deepcopy`` for a search: the game's copy made a second session, and a move
    played through one was missing from the other."""
    game = new_game("mafia", players=6, seed=1)
    for order in (("game", "session", "state"), ("state", "session", "game")):
        held = {"game": game, "session": game.session, "state": game.session.state}
        twin = copy.deepcopy({k: held[k] for k in order})
        assert twin["game"].session is twin["session"] and twin["session"].state is twin["state"], order
        assert twin["session"] is not game.session
        twin["game"].play("p1", "pass")
        assert len(twin["session"].moves) == 1 and len(game.session.moves) == 0


def test_a_copy_starts_the_planners_search_cache_empty_and_plans_the_same() -> None:
    """``GameState.bot_caches``: the planner's search is worked out again by a copy (copying it
    was most of a Magic Maze copy's cost); the game keeps its own, and both plan alike."""
    from arbiter.engine.games.magic_maze import planner

    game = new_game("magic-maze", "4", players=2, seed=5)
    state = game.session.state
    first = planner.plans(state)
    cache = state.__dict__["_planner_cache"]
    assert cache, "the planner filled no cache"
    twin = game.copy().session.state
    assert twin.__dict__["_planner_cache"] == {} and twin.__dict__["_planner_cache"] is not cache
    assert state.__dict__["_planner_cache"] is cache and cache
    assert planner.plans(twin) == first


def test_a_copy_sharing_what_an_input_changes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Declared fixed wrongly, who is alive would be one dict in a game and its copies."""
    assert play_copies("mafia", None, {"players": 8}, 1)
    monkeypatch.setattr(MafiaState, "constants", (*MafiaState.constants, "alive"))
    with pytest.raises(AssertionError, match="the copy changed the game"):
        play_copies("mafia", None, {"players": 8}, 1)


def test_the_contract_catches_a_declared_constant_that_an_input_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hidden Roles' marks of the sand (the moments left at which a traitor may act) are used
    up as the game goes: declared fixed, a copy would share them with its game."""
    assert not check_contract(registry.get("magic-maze"), "5", {"players": 7, "roles": 5}, 1).breaches
    monkeypatch.setattr(HiddenRolesState, "constants", (*HiddenRolesState.constants, "marks"))
    report = check_contract(registry.get("magic-maze"), "5", {"players": 7, "roles": 5}, 1)
    assert any("what a copy shares" in b and "changed during the game" in b for b in report.breaches), report.breaches


def test_a_copy_drawing_from_its_games_generator_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chance shared by a game and its copy: the copy's draws (a solo game's deck, shuffled
    again when it runs out) would move the game's generator and write to its record."""
    assert play_copies("magic-maze", "1", {"players": 1}, 1, moves=200)
    monkeypatch.setattr(Chance, "__deepcopy__", lambda self, memo: self)
    with pytest.raises(AssertionError, match="the copy changed the game"):
        play_copies("magic-maze", "1", {"players": 1}, 1, moves=200)

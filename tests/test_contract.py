"""One contract every registered game passes (see ``engine.contract``): random play from
several seeds, every legal input accepted, refused inputs changing nothing, views, boards and
event streams for every seat and the host, public forms of moves, and exact replays. A game
registered tomorrow is covered without writing a test."""

from __future__ import annotations

import itertools
import random

import pytest

from arbiter.engine import registry
from arbiter.engine.contract import GARBAGE, _mutations, check_contract
from arbiter.engine.games.mafia.rules import MafiaRules
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import Table
from arbiter.engine.session import Choices, Session

SEEDS = (1,)


def setups() -> list[tuple[str, str, dict, int]]:
    out = []
    for rules in registry.games():
        for v in rules.variants():
            counts = [None] if rules.info.bench_players is None else sorted({1, rules.info.bench_players, 8})
            for players in counts:
                if players is not None and players not in range(1, len(v.seats) + 1):
                    continue
                try:
                    name, options = rules.choose_setup(v.name, players)
                except Exception:  # noqa: BLE001 - a count this game does not take
                    continue
                for seed in SEEDS:
                    out.append((rules.name, name, options, seed))
        for name, options in getattr(rules, "extra_setups", lambda: [])():  # e.g. Magic Maze's Hidden Roles
            for seed in SEEDS:
                out.append((rules.name, name, options, seed))
    return out


SETUPS = setups()


@pytest.mark.parametrize("game, variant, options, seed", SETUPS,
                         ids=[f"{g}-{v}-{o.get('players', '')}" + (f"-roles{o['roles']}" if "roles" in o else "") + f"-{s}"
                              for g, v, o, s in SETUPS])
def test_every_game_keeps_the_contract(game: str, variant: str, options: dict, seed: int) -> None:
    report = check_contract(registry.get(game), variant, options, seed)
    assert not report.breaches, "\n".join(report.breaches)
    # a random game may end early (a hourglass flipped with a full timer): each check ran at least once
    assert report.inputs and report.accepted_checked and report.refused_checked and report.copies_checked, report
    assert report.views_checked > 1, report
    # and ends, by its inputs or by time running out, so every check had the whole game to run on
    assert report.finished, f"the game did not end within the contract's inputs: {report}"


def test_every_registered_game_and_variant_is_covered() -> None:
    covered = {(g, v) for g, v, _, _ in SETUPS}
    for rules in registry.games():
        for v in rules.variants():
            assert (rules.name, v.name) in covered, (rules.name, v.name)


def test_a_planted_illegal_legal_input_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter.engine.games.fbi_mafia.state import FbiMafiaState

    original = FbiMafiaState.legal_inputs
    monkeypatch.setattr(FbiMafiaState, "legal_inputs", lambda self, seat: original(self, seat) + ["kill z9"])
    report = check_contract(registry.get("fbi-mafia"), "duel-3v3", {}, 1, max_inputs=30)
    assert any("legal input" in b and "'kill z9' refused" in b for b in report.breaches), report.breaches


@pytest.mark.parametrize("game, variant", [("mafia", "8-players"), ("fbi-mafia", "standard-3v3")])
def test_the_samples_and_views_are_checked_every_so_many_inputs(game: str, variant: str) -> None:
    """In a turn game every step is an input: the samples are checked at the first input and
    every ``every``-th after it (up to ``sample`` legal inputs each time, at least one), and the
    views at the start, after each of those inputs and at the end."""
    for every in (1, 7):
        report = check_contract(registry.get(game), variant, {}, 1, every=every, sample=6)
        rounds = len(range(0, report.inputs, every))
        assert report.finished and report.views_checked == rounds + 2, (every, report)
        assert rounds <= report.accepted_checked <= 6 * rounds, (every, report)


def test_the_refusals_tried_are_mutations_of_the_chosen_input_and_one_garbage_line() -> None:
    tried = _mutations("vote  p2", random.Random(1))
    assert tried[:3] == ["vote p2x", "vote p2 extra", "vote zz"] and tried[3] in GARBAGE and len(tried) == 4
    assert len(_mutations("", random.Random(1))) == 1


def test_a_planted_board_with_an_empty_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = MafiaRules.render
    monkeypatch.setattr(MafiaRules, "render", lambda self, state, seat: original(self, state, seat) + "\n\nthe end")
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=5)
    assert any(b.endswith("the board of p1 is empty or has an empty line") for b in report.breaches), report.breaches
    assert len(report.breaches) == 20  # of 9 boards at each of 3 checks: a report keeps the first 20


def test_a_planted_awaiting_that_is_empty_while_the_game_is_on_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MafiaState, "awaiting", lambda self: [])
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=5)
    assert any(b.endswith("awaiting is empty while the game is on") for b in report.breaches), report.breaches


def test_a_planted_game_where_nobody_may_send_anything_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody has an input, and a turn game has no deadline that could end it: stuck for good."""
    monkeypatch.setattr(Session, "choices", lambda self, seat: Choices([], [], None))
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=5)
    assert report.breaches[0].endswith("no seat has an input and time cannot end the game"), report.breaches
    assert not report.finished and report.inputs == 0


def test_a_planted_input_accepted_from_a_seat_nobody_waits_for_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusals are tried by the chosen seat and by another seat, which the game must refuse
    as well: here it takes any words of a seat it does not wait for, and changes nothing."""
    original = MafiaState.apply

    def lax(self: MafiaState, seat: str, text: str, now_ms: int) -> str:
        if seat in self.awaited_seats():
            return original(self, seat, text, now_ms)
        self._accepted = (seat, text, text)
        return text

    monkeypatch.setattr(MafiaState, "apply", lax)
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=60)  # past the nominations,
    # where every living seat is awaited
    assert any("was accepted but is not among its legal inputs" in b for b in report.breaches), report.breaches


def test_a_planted_game_that_replays_differently_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose words depend on something outside it (a count kept across games): its
    transcript reads, but the replay's event log is not the one written."""
    original, count = Table._remove, itertools.count()
    monkeypatch.setattr(Table, "_remove", lambda self, seat, fate, text: original(self, seat, fate, f"{text} #{next(count)}"))
    report = check_contract(registry.get("mafia"), "8-players", {}, 1)
    assert any("the transcript does not replay: " in b for b in report.breaches), report.breaches


def test_a_planted_half_applied_refusal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from arbiter.engine.errors import SyntaxInputError
    from arbiter.engine.games.mafia.state import MafiaState

    original = MafiaState.apply

    def sloppy(self, seat, text, now_ms):  # changes the state, then refuses
        if (text.split() or [""])[0] not in {m.split()[0] for m in self.legal_inputs(seat)} | {"say", "leave"}:
            self.night = getattr(self, "night", 0) + 1
            raise SyntaxInputError("no")
        return original(self, seat, text, now_ms)

    monkeypatch.setattr(MafiaState, "apply", sloppy)
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=30)
    assert any("changed the game" in b for b in report.breaches), report.breaches


def test_a_planted_deadline_in_a_turn_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session asks only real-time games whether time changes them, so a turn game with a
    deadline would be a game whose deadline nobody keeps."""
    from arbiter.engine.games.mafia.state import MafiaState

    monkeypatch.setattr(MafiaState, "next_deadline", lambda self: 60_000)
    report = check_contract(registry.get("mafia"), "8-players", {}, 1, max_inputs=30)
    assert any("a turn game has a deadline" in b for b in report.breaches), report.breaches

"""Hidden information in FBI vs Mafia: twin games, by inputs legal in both and by
replaying random games.

The method (twin games that differ only in what the seat may not know, compared after
every input) and the twins themselves: ``tests/fbi_twins.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from arbiter.engine.games.fbi_mafia.state import FbiMafiaState

from tests.fbi_twins import COMMON_SEEDS, MODES, REPLAY_SEEDS, report, run_twins


# ------------------------------------------------------------------------------ the twin tests
@pytest.mark.parametrize("mode", MODES)
def test_twins_replaying_random_games(mode: str) -> None:
    """The basic method: a random bots' game is fed to both twins; stop at the first input
    the twin refuses (its legality legitimately differs)."""
    stats = run_twins(mode, REPLAY_SEEDS[mode], "replay")
    assert not stats.failures, report(stats)
    assert sum(stats.compared.values()) >= (200 if mode.startswith("duel") else 500), stats
    assert stats.probed["refused"] >= 3000 and stats.probed["accepted"] >= 200, stats.probed
    assert stats.divergences, "no twin ever diverged: the perturbations changed nothing visible"


@pytest.mark.parametrize("mode", MODES)
def test_twins_with_inputs_legal_in_both(mode: str) -> None:
    """Deeper: each input is drawn from the inputs legal in BOTH twins, so the pair runs until
    a secret really shows (or the game ends) instead of stopping at the first refusal."""
    stats = run_twins(mode, COMMON_SEEDS[mode], "common")
    assert not stats.failures, report(stats)
    assert sum(stats.compared.values()) >= (400 if mode.startswith("duel") else 1500), stats
    assert stats.probed["refused"] >= 20000 and stats.probed["accepted"] >= 2000, stats.probed
    assert stats.stops["legitimate divergence"] >= 10, stats


def test_planted_view_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The machinery is not vacuous: a view that shows every identity must be reported."""
    original = FbiMafiaState.view

    def leaky(self: FbiMafiaState, seat: str) -> dict[str, Any]:
        v = original(self, seat)
        v["spy"] = dict(self.identity)
        return v

    monkeypatch.setattr(FbiMafiaState, "view", leaky)
    stats = run_twins("standard-3v3", (1,), "common", seats=["bandit"])
    assert any("view fields ['spy']" in f for f in stats.failures), stats.failures


def test_planted_refusal_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and so must a refusal that names the owner of the card it is about."""
    original = FbiMafiaState._refuse

    def chatty(self: FbiMafiaState, move, why: str, options: list[str]):
        owner = self.owner(self._name(move.cells[0])) if move.cells else None
        return original(self, move, f"{why} (that is the {owner}'s card)" if owner else why, options)

    monkeypatch.setattr(FbiMafiaState, "_refuse", chatty)
    stats = run_twins("standard-3v3", (1,), "common", seats=["bandit"])
    assert any("answers to" in f and "card)" in f for f in stats.failures), stats.failures


def test_planted_legality_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and a legal list that leaves out the FBI's identities (the seat's legal list differs)."""
    original = FbiMafiaState._targets

    def picky(self: FbiMafiaState, verb: str):
        fbi = {self._me(c) for c in self.characters if self.team[c] == "fbi"}
        return [c for c in original(self, verb) if verb != "kill" or c not in fbi]

    monkeypatch.setattr(FbiMafiaState, "_targets", picky)
    stats = run_twins("standard-3v3", (1, 2), "common", seats=["bandit"])
    assert any("['legal'" in f or "answers to" in f for f in stats.failures), stats.failures


def test_planted_event_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """... and so must an identity event that is sent to everybody."""

    def loud(self: FbiMafiaState, character: str, what: str) -> None:
        name = self.identity[character]
        self.events.emit("identity", f"The {character}'s identity: {name}.", {"character": character})

    monkeypatch.setattr(FbiMafiaState, "_tell_identity", loud)
    stats = run_twins("duel-3v3", (1,), "common", seats=["fbi"])
    assert any("event streams differ" in f for f in stats.failures), stats.failures

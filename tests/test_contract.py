"""One contract every registered game passes (see ``engine.contract``): random play from
several seeds, every legal input accepted, refused inputs changing nothing, views, boards and
event streams for every seat and the host, public forms of moves, and exact replays. A game
registered tomorrow is covered without writing a test."""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine.contract import check_contract

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
    assert report.inputs and report.accepted_checked and report.refused_checked and report.views_checked > 1, report


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

"""The game's public settings an ``exec:`` bot is told before its first ``go`` of a game
(``docs/protocol.md``, "Bots run by the referee" and "Matches"): ``option: NAME VALUE`` and
``deck: CARD COUNT`` lines, in ``arbiter play``, after a match's hello and after each
``new-game`` of a reused process. A Hidden Roles bot was told the scenario alone: its level
only from an event's prose, a custom deck's cards never.

The settings are public (``docs/rules/hidden-roles.md``: the cards a game is dealt from;
``docs/rules/mafia.md``: the cards in play), so they must be the same for every seat and for
games that differ only in the deal (the twin test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.scenario import deck_document
from arbiter.engine.session import Session

from tests.arena_staging import play as play_tournament
from tests.helpers import run, run_referee
from tests.hostile import PLAIN_BOT, script, told_before_first_go

SETTING = ("option: ", "deck: ")
HIDDEN_ROLES_2 = ["option: players 5", "option: level 2", "option: out_of_order_start false",
                  "deck: hero 8", "deck: traitor 3"]
"""What a seat of Hidden Roles at level 2 with 5 players is told: every B card (8 heroes, 3 traitors)."""
ROLES_DECK = ("game: magic-maze\nkind: roles\ntitle: Friday night\nlevel: 3\nout_of_order_start: true\n"
              "cards: {mute: 1, traitor: 2, master-thief: 1, hero: 2, mage-first: 1}\n")
ROLES_DECK_TOLD = ["option: players 5", "option: level 3", "option: out_of_order_start true",
                   "deck: hero 2", "deck: traitor 2", "deck: mage-first 1", "deck: master-thief 1", "deck: mute 1"]
"""The custom deck's cards in the role deck's order (``roles.yaml``), whatever the file's order."""
MAFIA_DECK = ("game: mafia\nkind: deck\ntitle: Friday table\n"
              "cards: {fighter: 1, civilian: 2, boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, chameleon: 1}\n")
MAFIA_DECK_TOLD = ["deck: agent 1", "deck: civilian 2", "deck: chief 1", "deck: police 1", "deck: boss 1",
                   "deck: mafia 1", "deck: chameleon 1", "deck: fighter 1"]
"""The custom deck's cards in the card list's order (``cards.yaml``)."""


def played(tmp_path: Path, *setup: str, seat: str = "p2") -> list[str]:
    """The lines ``seat``'s ``exec:`` bot was sent in ``arbiter play GAME SETUP`` against random
    bots; the game's transcript replays."""
    log = tmp_path / f"{seat}.told"
    bot = script(tmp_path, "recorder", PLAIN_BOT, log)
    proc, _ = run_referee(["play", *setup, "--seed", "4", "--bots", "random", "--bot", f"{seat}=exec:{bot}",
                           "--transcript", "t.yaml"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "forfeit" not in proc.stdout
    r = run("replay", tmp_path / "t.yaml")
    assert r.exit_code == 0, r.output
    return log.read_text(encoding="utf-8").splitlines()


def head(lines: list[str]) -> list[str]:
    """The setting lines a game's lines start with; none comes later."""
    n = next(i for i, line in enumerate(lines) if not line.startswith(SETTING))
    assert lines[n].startswith("event: ") and not any(line.startswith(SETTING) for line in lines[n:])
    return lines[:n]


def test_a_hidden_roles_bot_is_told_the_level_the_players_and_the_cards(tmp_path: Path) -> None:
    lines = played(tmp_path, "magic-maze", "--scenario", "3", "--players", "5", "--roles", "2")
    assert head(lines) == HIDDEN_ROLES_2


def test_a_hidden_roles_bot_is_told_a_custom_decks_cards_and_level(tmp_path: Path) -> None:
    (tmp_path / "roles.yaml").write_text(ROLES_DECK, encoding="utf-8")
    lines = played(tmp_path, "magic-maze", "--scenario", "3", "--players", "5", "--deck", "roles.yaml")
    assert head(lines) == ROLES_DECK_TOLD


def test_a_classic_mafia_bot_is_told_a_custom_decks_cards(tmp_path: Path) -> None:
    (tmp_path / "deck.yaml").write_text(MAFIA_DECK, encoding="utf-8")
    assert head(played(tmp_path, "mafia", "--deck", "deck.yaml")) == MAFIA_DECK_TOLD


def test_a_plain_games_bot_is_told_only_what_its_mode_does_not_say(tmp_path: Path) -> None:
    plain = [
        (("fbi-mafia", "--mode", "duel-3v3"), "mafia", []),  # its mode says everything
        (("magic-maze", "--scenario", "2", "--players", "3"), "p2", ["option: players 3"]),  # no count in a scenario
        (("mafia", "--players", "6"), "p2", [  # the mode's default deck, as the opening event lists it
            "deck: seducer 1", "deck: civilian 2", "deck: chief 1", "deck: boss 1", "deck: mafia 1"]),
    ]
    for i, (setup, seat, told) in enumerate(plain):
        (tmp_path / str(i)).mkdir()
        assert head(played(tmp_path / str(i), *setup, seat=seat)) == told, setup


def told_first(tmp_path: Path, session: Session, seat: str) -> list[str]:
    """The setting lines ``seat``'s ``exec:`` bot is sent before its first ``go`` of ``session``."""
    return head(told_before_first_go(tmp_path, session, seat, f"-{session.seed}"))


@pytest.mark.parametrize("game, variant, deck, level", [
    ("magic-maze", "3", None, 2),
    ("magic-maze", "3", ROLES_DECK, None),
    ("mafia", None, MAFIA_DECK, None),
])
def test_the_settings_are_the_same_for_every_seat_and_every_deal(tmp_path: Path, game, variant, deck, level) -> None:
    """Nothing of the deal: two games that differ only in it (seeds 1 and 2, dealt differently)
    tell every seat the same lines."""
    rules = registry.get(game)
    if deck is not None:
        (tmp_path / "deck.yaml").write_text(deck, encoding="utf-8")
    players = 5 if game == "magic-maze" else None
    variant, options = rules.choose_setup(variant, players, None if deck is None else deck_document(
        str(tmp_path / "deck.yaml")), level)
    twins = [Session(rules, variant, seed=seed, options=options) for seed in (1, 2)]
    sides = [rules.seat_sides(s.state) for s in twins]
    assert sides[0] != sides[1], "the twins are dealt differently"
    told = {(s.seed, seat): told_first(tmp_path, s, seat) for s in twins for seat in s.seats}
    assert len(told) == 2 * len(twins[0].seats)
    first = told[(1, "p1")]
    assert first and first[0].startswith("deck: " if game == "mafia" else "option: players 5")
    assert all(lines == first for lines in told.values())


RECORDER = PLAIN_BOT.replace('open(sys.argv[1], "a"', 'open(f"{sys.argv[1]}.{__import__(\'os\').getpid()}", "a"')
"""``PLAIN_BOT`` writing what it is told to a file of its own process (a game's seats are
played by several processes of one entrant at once)."""


def test_a_reused_bot_is_told_the_settings_after_each_new_game(tmp_path: Path) -> None:
    """With --reuse a process plays one game after another: each game's settings come after its
    ``new-game`` line as after the hello, before any other line of the game."""
    assert RECORDER != PLAIN_BOT
    bot = script(tmp_path, "recorder", RECORDER, tmp_path / "heard")
    entrants = [Entrant("rec", f"exec:{bot}"), Entrant("rnd", "random")]
    _, records = play_tournament(tmp_path / "t", 1, entrants=entrants, game="magic-maze", modes=("3",), players=5,
                                 roles=2, games=4, reuse=True)
    assert len(records) == 4 and all(r["finished"] and not r["forfeits"] for r in records)
    logs = sorted(tmp_path.glob("heard.*"))
    new_games = 0
    for log in logs:  # one a process
        lines = log.read_text(encoding="utf-8").splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith(("arbiter 1 ", "new-game "))]
        assert starts[0] == 0 and lines[0].startswith("arbiter 1 magic-maze 3 p")
        new_games += len(starts) - 1
        for i in starts:
            assert lines[i + 1:i + 1 + len(HIDDEN_ROLES_2)] == HIDDEN_ROLES_2
            assert lines[i + 1 + len(HIDDEN_ROLES_2)].startswith("event: ")
        assert sum(line.startswith(SETTING) for line in lines) == len(starts) * len(HIDDEN_ROLES_2)
    assert new_games >= 3, "processes were kept for later games"
    for r in records:
        replayed = tr.replay(tr.parse((tmp_path / "t" / r["transcript"]).read_text(encoding="utf-8")))
        assert replayed.session.state.result is not None


class _Keeps:
    """An in-process agent that keeps the ``info`` of its ``new_game`` and passes its turns."""

    def __init__(self) -> None:
        self.info: dict | None = None

    def new_game(self, info: dict) -> None:
        self.info = info

    def act(self, observation: str, choices):
        return choices.legal[0] if choices.legal else None


@pytest.mark.parametrize("game, variant, options, told", [
    ("magic-maze", "3", {"players": 5, "roles": 2}, HIDDEN_ROLES_2),
    ("mafia", "6-players", {}, ["deck: seducer 1", "deck: civilian 2", "deck: chief 1", "deck: boss 1",
                                 "deck: mafia 1"]),
    ("fbi-mafia", "duel-3v3", {}, []),
])
def test_a_py_agent_is_given_the_settings_an_exec_bot_is_told(game, variant, options, told) -> None:
    """A ``py:`` agent's ``new_game(info)`` held the game, mode, seat, seats and seed, not the
    level or the deck an ``exec:`` bot's ``option:`` and ``deck:`` lines tell: the same facts,
    as a dict each."""
    from arbiter.engine.agents import AgentBot

    session = Session(registry.get(game), variant, seed=4, options=options)
    seat = session.seats[0]
    agent = _Keeps()
    AgentBot(seat, agent).choose(session)
    assert agent.info is not None
    lines = [f"option: {k} {v}" for k, v in agent.info["options"].items()] + \
        [f"deck: {k} {v}" for k, v in agent.info["deck"].items()]
    assert lines == session.settings() == told
    assert {k: agent.info[k] for k in ("game", "variant", "seat")} == {"game": game, "variant": variant, "seat": seat}


def test_play_agents_gives_each_agent_its_info_as_the_referee_does() -> None:
    """``play_agents`` never called an agent's ``new_game(info)``: an agent written for the
    command line (its seed, the level, the deck from ``info``) lacked them played from the
    library. It is given the same ``info`` as the referee gives it (``AgentBot``)."""
    from arbiter.engine.agents import AgentBot
    from arbiter.engine.api import new_game, play_agents

    game = new_game("magic-maze", "3", players=5, roles=2, seed=4)
    agents = {seat: _Keeps() for seat in game.seats}
    play_agents(game, agents, max_inputs=5)
    referee = _Keeps()
    AgentBot("p2", referee).choose(Session(registry.get("magic-maze"), "3", seed=4, options={"players": 5, "roles": 2}))
    assert agents["p2"].info == referee.info and referee.info is not None
    assert [agents[s].info["seat"] for s in game.seats] == list(game.seats)
    assert [f"option: {k} {v}" for k, v in agents["p1"].info["options"].items()] == HIDDEN_ROLES_2[:3]

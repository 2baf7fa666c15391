"""The Python API (``engine.api``, ``docs/api.md``): the guide's examples run as written, a
seat's observation holds nothing that seat may not know (twin games), outcomes, copies, what the
library hands out, and the refusals that depend on the game's state (time acted first, the host).
(Wrong arguments: ``test_api_arguments.py``; the multi-agent loop: ``test_api_agents.py``.)"""

from __future__ import annotations

import copy
import doctest
import random
from pathlib import Path

import pytest

from arbiter.engine.api import Game, load_game, new_game, play_agents, replay
from arbiter.engine.errors import IllegalMoveError, InputError, SyntaxInputError, UnknownSeatError
from arbiter.engine.game import Result
from arbiter.engine.games.mafia.table import NIGHT
from tests.api_staging import OPEN_VOTE, Drawn, load_game_text, snapshot
from tests.helpers import mafia_game

ROOT = Path(__file__).resolve().parents[1]


def test_the_api_guide_runs_as_written() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 25 and result.failed == 0, result


def test_observations_are_the_same_in_twin_games_until_a_card_shows() -> None:
    """p2 (Mafia) and p7 (Civilian) swap cards; p6, a Civilian, is observed through the first
    day, where nothing reveals either card: its observations are identical."""
    cards = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
    twin = list(cards)
    twin[1], twin[6] = twin[6], twin[1]
    a, b = Game(mafia_game(cards)), Game(mafia_game(twin))
    assert a.observation("p6") == b.observation("p6")
    for seat in a.seats:
        if seat in a.awaiting():
            a.play(seat, "pass")
            b.play(seat, "pass")
            assert a.observation("p6") == b.observation("p6")
            assert a.choices("p6") == b.choices("p6")


def test_a_seats_events_and_awaiting_are_the_same_in_twin_games_that_differ_in_its_secrets() -> None:
    """Twins that differ only in the Mafia talking at night, which the other seats are not told.
    What the library gives those seats is the same in both, the numbers of their events too
    (they counted the game's log, so the Chief could count the Mafia's words by the gaps) and
    whom their events are for; and no seat is told who is awaited in secret at night."""
    deal = dict(players=7, seed=4)  # p1 Mafia, p2 Boss, p3 Fighter, p4 Chief, p5 Agent, p6 p7 Civilians
    quiet, talking = new_game("mafia", **deal), new_game("mafia", **deal)
    others = ("p3", "p4", "p5", "p6", "p7")

    def told(game: Game) -> dict:
        return {s: (game.events(s), game.awaiting(s), game.view(s), game.choices(s), game.observation(s))
                for s in others}

    for seat in quiet.seats:
        quiet.play(seat, "pass")
        talking.play(seat, "pass")
    talked = False
    while quiet.session.state.phase == NIGHT:
        seat = quiet.awaiting()[0]
        assert quiet.awaiting(seat) == [seat] and all(quiet.awaiting(s) == [] for s in others if s != seat)
        if seat in ("p1", "p2") and not talked:
            talking.play(seat, "say let us take p4")
            talking.play(seat, "say agreed")
            talked = True
        move = next(m for m in quiet.legal(seat) if m != "leave")
        quiet.play(seat, move)
        talking.play(seat, move)
        assert told(quiet) == told(talking)
    assert talked and len(talking.events()) > len(quiet.events())  # the host's logs differ
    assert [e.index for e in quiet.events("p4")] == list(range(len(quiet.events("p4"))))
    assert any(e.to == ("p4",) for e in quiet.events("p4")) and all(e.to in (None, ("p4",)) for e in quiet.events("p4"))


def test_a_game_loads_from_a_transcript_mid_way(tmp_path: Path) -> None:
    game = new_game("fbi-mafia", "duel-3v3", seed=4)
    game.play("mafia", "shift row 1 left")
    path = game.save(tmp_path / "g.yaml")
    again = load_game(path)
    assert again.awaiting() == ["fbi"] and again.legal("fbi") == game.legal("fbi") and not again.over


def test_a_seats_outcome_is_none_until_the_end_then_its_win_or_loss() -> None:
    game = new_game("fbi-mafia", "duel-3v3", seed=4)
    assert [game.outcome(s) for s in game.seats] == [None, None]
    for nobody in ("nobody", "host"):  # refused while the game goes on, as at its end
        with pytest.raises(UnknownSeatError):
            game.outcome(nobody)
    with pytest.raises(ValueError, match="the game is not over"):
        game.returns()
    result = play_agents(game, {s: Drawn(i) for i, s in enumerate(game.seats)})
    assert result is not None and result == game.result and len(result.winners) == 1
    outcomes = {s: game.outcome(s) for s in game.seats}
    assert outcomes == game.returns() == {s: int(s in result.winners) for s in game.seats}
    assert sorted(outcomes.values()) == [0, 1]
    for nobody in ("nobody", "host"):
        with pytest.raises(UnknownSeatError):
            game.outcome(nobody)


def test_a_transcript_of_a_negative_seed_an_older_version_wrote_still_loads_and_replays(tmp_path: Path) -> None:
    """Older versions started a game of seed -5 (the engine's ``Session`` still does, replaying
    one): ``load_game``, ``replay`` and ``arbiter replay`` read it, seed and all."""
    from arbiter.engine import transcript as tr
    from arbiter.engine.registry import get
    from arbiter.engine.session import Session
    from tests.helpers import run

    old = Game(Session(get("mafia"), "8-players", seed=-5))
    for seat in old.seats:
        old.play(seat, "pass")
    path = old.save(tmp_path / "old.yaml")
    assert "seed: -5\n" in path.read_text(encoding="utf-8")
    loaded = load_game(path)
    assert loaded.seed == -5 and loaded.events() == old.events() and loaded.transcript() == tr.dump(old.session)
    assert replay(path).ok
    result = run("replay", path)
    assert result.exit_code == 0 and result.output.startswith(f"ok {path}: 8 moves"), result.output


def test_what_the_library_hands_out_is_the_callers_to_change() -> None:
    """Events and results are copies: changing one changed the game's log and result, and so
    its transcript, which then no longer replayed."""
    game = new_game("fbi-mafia", "duel-3v3", seed=1)
    events = game.play("mafia", "shift row 1 left") + game.events()
    for e in events:
        e.data["edited"] = True
    game.play("fbi", "surrender")
    game.result.scores["edited"] = True
    assert not any("edited" in e.data for e in game.events()) and "edited" not in game.result.scores
    assert load_game_text(game).events() == game.events()


def test_an_event_handed_out_without_data_is_the_callers_too(tmp_path: Path) -> None:
    """An event with no data was handed out with the log's own empty dict (only data with keys
    was copied): a key added to it changed the game's log, and the finished game's transcript
    then no longer replayed ("event log differs")."""
    game = new_game("mafia", players=8, seed=0)
    handed = game.events() + game.play("p1", "leave")
    empty = [e for e in handed if not e.data]
    assert empty  # (the opening narration, at least)
    for e in empty:
        e.data["edited"] = True
    assert not any("edited" in e.data for e in game.events())
    while not game.over:
        seat = game.awaiting()[0]
        game.play(seat, game.choices(seat).resign or game.legal(seat)[0])
    report = replay(game.save(tmp_path / "t.yaml"))
    assert report.ok, report.problems


def test_waiting_to_a_time_before_the_clock_is_refused_as_playing_at_one_is() -> None:
    """``wait(time)`` once took a time before the clock for the clock itself and returned no
    events: ``wait(5)`` at 30 s, meant as "wait 5 seconds", silently did nothing, where
    ``play`` at that time is a ``TimeError``."""
    from arbiter.engine.errors import TimeError

    game = new_game("magic-maze", "1", players=2, seed=1)
    game.wait(30)
    before = snapshot(game)
    for call in (lambda: game.wait(5), lambda: game.play("p1", "say hi", time=5)):
        with pytest.raises(TimeError, match=r"^time 5 is before the clock \(30\); the clock never runs backwards$"):
            call()
    assert snapshot(game) == before
    assert game.wait(30) == [] and game.time == 30


def test_a_move_refused_after_time_acted_first_says_so() -> None:
    """``legal`` lists what is accepted at the clock; ``play`` plays at the clock plus the step,
    by which time the vote had closed: "no vote is open" alone blamed the move."""
    game = new_game("magic-maze", "1", players=4, roles=1, seed=1)
    for seat, text in OPEN_VOTE:
        game.play(seat, text)
    assert game.time == 6 and "vote yes" in game.legal("p2")
    twin = copy.deepcopy(game)
    assert [e.text for e in twin.play("p2", "vote yes", time=twin.time)][0] == "p2 votes yes."  # at the clock
    with pytest.raises(IllegalMoveError) as caught:
        game.play("p2", "vote yes")
    closed = "The accusation of p4 is rejected (no vote in time from p2 and p3)."
    message = f"no vote is open (time acted first: this input came at 7 s, after {closed!r})"
    assert (caught.value.message, str(caught.value)) == (message, message)
    assert [e.text for e in game.events()][-1] == closed  # time's change stays, as documented
    with pytest.raises(IllegalMoveError) as caught:  # no time acted: the plain refusal
        game.play("p2", "vote yes")
    assert caught.value.message == "no vote is open"


@pytest.mark.parametrize("text", ["vote\x00yes", "say \ud800", "say " + "x" * 9000])
def test_words_no_game_reads_are_refused_before_their_moment_changing_nothing(text: str) -> None:
    """An input that could never be read (a control character, a lone surrogate, too long) is
    refused before time passes to its moment, as the protocol refuses such a line before its
    time stamp: it moved the clock through the vote's closing, recorded in the transcript."""
    game = new_game("magic-maze", "1", players=4, roles=1, seed=1)
    for seat, words in OPEN_VOTE:
        game.play(seat, words)
    before = (game.transcript(), game.time, game.events())
    for time in (None, 30):
        with pytest.raises(SyntaxInputError):
            game.play("p2", text, time)
        for submit in (game.session.submit, game.session.submit_move):  # (a bot's words too)
            with pytest.raises(SyntaxInputError):
                submit("p2", text, None if time is None else time * 1000)
    assert (game.transcript(), game.time, game.events()) == before
    with pytest.raises(IllegalMoveError):  # (words the game reads: their moment comes first)
        game.play("p2", "vote yes")
    assert game.transcript() != before[0] and game.time == 7


def test_a_refusal_says_time_acted_first_only_for_a_change_the_seat_may_see() -> None:
    """At level 5 the 110 s clock mark settles ``slow-fingers`` privately, for its holder only.
    Twins that differ only in p4's card: p1's refusal at 110.5 s grew "(time acted first ...)"
    only where slow-fingers was dealt, which told p1 what p4 holds."""
    from tests.helpers import roles_game

    refusals = []
    for card in ("barbarian-first", "slow-fingers"):  # p4's card; p1, p2 and p3 hold the same
        game = Game(roles_game("2", ["mage-first", "elf-last", "decoy", card], level=5))
        game.wait(109.5)
        with pytest.raises(IllegalMoveError) as caught:
            game.play("p1", "vote yes")  # at 110.5 s
        private = [e for e in game.events() if e.to == ("p4",) and e.kind == "mission"]
        refusals.append((caught.value.message, game.events("p1"), game.legal("p1")))
        assert len(private) == (card == "slow-fingers")
    assert refusals[0] == refusals[1]
    assert refusals[0][0] == "no vote is open"


def test_a_broken_deck_in_a_worker_process_reaches_the_caller_whole(tmp_path: Path) -> None:
    """A ``ScenarioError`` could not be unpickled (its ``__init__`` takes more than the message):
    raised in a process pool's worker, it broke the pool."""
    import pickle

    from arbiter.engine.errors import ScenarioError

    deck = tmp_path / "deck.yaml"
    deck.write_text("game: mafia\nkind: deck\ncards: {boss: 1, mafia: -1}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        new_game("mafia", deck=deck, seed=1)
    exc = caught.value
    assert str(exc).startswith(f"{deck}:3: cards.mafia: ") and exc.line == 3  # placed on its line
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is ScenarioError and str(back) == str(exc) and back.message == exc.message
    exc.line = 2
    back = pickle.loads(pickle.dumps(exc))
    assert (back.source, back.path, back.problem, back.steps, back.line) == (
        exc.source, exc.path, exc.problem, exc.steps, 2)


@pytest.mark.parametrize("make", [Game.copy, copy.copy, copy.deepcopy])
def test_a_copy_is_an_independent_game_at_the_same_point(make) -> None:
    """``copy.copy(game)`` shared the session: a move played on the copy was in the original's
    transcript. Every way to copy gives an independent game, down to its generator; a listener
    of the original (a transcript file) hears nothing of the copy."""
    def moves(g: Game, n: int, rng: random.Random) -> None:
        for _ in range(n):
            legal = {s: [m for m in g.legal(s) if m != "abandon"] for s in g.seats}  # (abandoning ends it)
            seat = rng.choice([s for s in g.seats if legal[s]])
            g.play(seat, rng.choice(legal[seat]), time=g.time + 1)

    game = new_game("magic-maze", "3", players=4, roles=2, seed=5)
    moves(game, 12, random.Random(1))
    game.observation("p2")
    heard: list[dict] = []
    game.session.listeners.append(heard.append)
    before, transcript = snapshot(game), game.transcript()
    twin = make(game)
    assert twin.session.rules is game.session.rules and twin.transcript() == transcript
    assert twin.observation("p2") == game.copy().observation("p2")  # what p2 was shown is kept
    moves(twin, 10, random.Random(2))
    assert snapshot(game) == before and heard == []
    moves(game, 10, random.Random(2))  # the same inputs give the same game: the generators were copied
    assert twin.transcript() == game.transcript() != transcript and len(heard) >= 10
    twin.wait(twin.time + 60)
    assert twin.transcript() != game.transcript()
    game.session.listeners.remove(heard.append)


@pytest.mark.parametrize("make", [copy.copy, copy.deepcopy, lambda s: copy.deepcopy([s, s])[1]])
def test_a_copy_of_a_games_session_is_an_independent_session_as_a_games_copy_is(make) -> None:
    """``copy.copy(game.session)`` shared the game's state: a move played on the copy was played
    on the game, its moves and transcript too; ``copy.deepcopy`` copied the rules and the mode's
    data. Each makes ``Session.copy``'s copy, as ``Game``'s copies do."""
    game = new_game("mafia", players=6, seed=1)
    game.play("p1", "pass")
    heard: list[dict] = []
    game.session.listeners.append(heard.append)
    before = snapshot(game)
    twin = Game(make(game.session))
    assert twin.session.rules is game.session.rules and twin.session.state is not game.session.state
    assert twin.transcript() == game.transcript()
    twin.play("p2", "pass")
    assert snapshot(game) == before and heard == [] and len(twin.session.moves) == 2
    game.play("p2", "pass")
    assert twin.transcript() == game.transcript()


def test_the_librarys_names_are_in_dir_of_the_package() -> None:
    """``arbiter`` loads its library on first use (a module ``__getattr__``), and ``dir(arbiter)``,
    which a shell's or a notebook's completion reads, listed none of its names."""
    import arbiter

    assert set(arbiter.__all__) <= set(dir(arbiter)) and "__version__" in dir(arbiter)


@pytest.mark.parametrize("game, variant, options", [("fbi-mafia", "duel-3v3", {}), ("mafia", None, {"players": 8}),
                                                    ("magic-maze", "1", {"players": 3}),
                                                    ("magic-maze", "3", {"players": 5, "roles": 2})])
def test_the_host_has_no_inputs_to_ask_for(game, variant, options) -> None:
    """``legal``, ``choices`` and ``forms`` of the host were FBI vs Mafia's ``surrender`` (which
    ``play`` then refused: the host does not play), and in Magic Maze a ``ValueError`` or a
    ``KeyError`` from the game's insides; the protocol's ``legal host`` is refused so."""
    played = new_game(game, variant, seed=1, **options)
    for ask in (played.legal, played.choices, played.forms, played.outcome):
        with pytest.raises(UnknownSeatError, match="^the host does not play; name a seat$"):
            ask("host")
    assert played.observation("host") and played.view("host") and played.board("host")


def test_a_views_result_is_the_callers_to_change(tmp_path: Path) -> None:
    """A finished Hidden Roles game's view held its result's scores shallow-copied: the dict of
    each seat (``players``: card, side, won) was the game's own, so changing a view changed the
    game's result, and its transcript then no longer replayed ("result differs")."""
    game, rng = new_game("magic-maze", "3", players=5, roles=2, seed=2), random.Random(2)
    while not game.over:
        seat = rng.choice(game.awaiting())
        legal = game.choices(seat).legal
        try:
            game.play(seat, rng.choice(legal)) if legal else game.wait()
        except InputError:
            pass  # (time passed first: the sand, a vote)
    scores = game.result.scores
    for seat in (*game.seats, "host"):
        for player in game.view(seat)["result"]["scores"]["players"].values():
            player["won"] = "edited"
    assert game.result.scores == scores and replay(game.save(tmp_path / "t.yaml")).ok


def test_a_results_dict_shares_no_container_at_any_depth() -> None:
    """``Result.as_dict`` copies every dict, list and tuple of the scores (the view's result is
    the caller's), not only the first level, and keeps the values."""
    scores = {"players": {"p1": {"won": True, "why": ["a", ("b", ["c"])]}}, "level": 3}
    result = Result("heroes", "escaped", "text", ("p1",), scores)
    copied = result.as_dict()["scores"]
    assert copied == scores
    why = copied["players"]["p1"]["why"]
    why[1][1].append("edited")
    why.append("edited")
    copied["players"]["p1"]["won"] = "edited"
    assert scores == {"players": {"p1": {"won": True, "why": ["a", ("b", ["c"])]}}, "level": 3}


def test_a_result_hashes_by_value_as_it_compares() -> None:
    """A frozen ``Result`` is a value, but hashing it raised ``TypeError`` (its scores are a
    dict): results could not be kept in a set or key a cache."""
    def result(won: dict, order: tuple[str, ...] = ("level", "players")) -> Result:
        scores = {"level": 3, "players": {"p1": {"won": won["p1"], "why": ["a", ("b", ["c"])]}}}
        return Result("heroes", "escaped", "text", ("p1",), {k: scores[k] for k in order})

    a, b = result({"p1": True}), result({"p1": True}, ("players", "level"))  # (equal dicts, keys in another order)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert len({a, result({"p1": False})}) == 2
    assert {Result(None, "time", "t"): 1}[Result(None, "time", "t")] == 1


def test_a_views_autopsies_are_the_callers_to_change(tmp_path: Path) -> None:
    """The Undercover's view listed each autopsy's Mafia characters in the list the state kept,
    which was the autopsy's event's data too: changing the view changed the game's log, and its
    transcript then no longer replayed ("event log differs")."""
    game, rng = new_game("fbi-mafia", "duel-3v3", seed=1), random.Random(1)
    while not game.view("fbi").get("autopsies"):
        seat = game.awaiting()[0]
        legal = game.choices(seat).legal
        game.play(seat, next((m for m in legal if m.startswith("autopsy")), None) or rng.choice(legal))
    before = repr(snapshot(game))  # (as text: the view it holds once shared the state's lists)
    for seat in ("fbi", "host"):
        for autopsy in game.view(seat)["autopsies"]:
            autopsy["mafia_adjacent"].append("edited")
    assert repr(snapshot(game)) == before
    game.play(game.awaiting()[0], "surrender")
    assert replay(game.save(tmp_path / "t.yaml")).ok


def test_time_passed_past_the_end_stops_the_clock_where_the_game_ended() -> None:
    """``wait(500)`` (or an input at 500) in a game the sand ended at 180 left the clock, and the
    transcript's tick, at 500; the referee's loop passes time moment by moment (``= time 180``,
    ``tick: 180``), as a game's end stops its clock, and so does the library now."""
    from arbiter.engine.errors import GameOverError

    for call in (lambda game: game.wait(500), lambda game: game.play("p1", "say hi", time=500)):
        game = new_game("magic-maze", "1", players=2, seed=1)
        try:
            call(game)
        except GameOverError:
            pass  # (the input came after the end)
        assert game.over and game.time == 180
        assert [e for e in game.session.entries if "tick" in e or "move" in e] == [{"tick": {"time": 180}}]
        assert game.events()[-1].text == "The sand ran out at 180 s: everyone loses."


def test_choices_can_key_an_agents_cache() -> None:
    """An agent that memoizes its answers by ``(observation, legal)`` met ``TypeError:
    unhashable type: 'list'``: ``Choices`` hashes by value, as it compares."""
    g = new_game("fbi-mafia", seed=1)
    seat = g.awaiting()[0]
    seen = g.observation(seat)
    cache = {(seen, g.choices(seat)): "first"}
    assert cache[(seen, g.choices(seat))] == "first"  # a fresh Choices, equal, finds it
    g.play(seat, g.choices(seat).legal[0])
    assert (seen, g.choices(seat)) not in cache  # other choices now: another key


def test_a_games_repr_says_which_game_where_it_stands_and_who_is_awaited() -> None:
    """A ``Game`` showed as ``<arbiter.engine.api.Game object at 0x...>`` in a notebook, a
    debugger or an assertion's message: nothing of the game."""
    game = new_game("mafia", players=6, seed=2)
    assert repr(game) == "<Game mafia 6-players seed=2: 0 moves, awaiting p1 p2 p3 p4 p5 p6>"
    for seat in game.seats:
        game.play(seat, "pass")
    assert repr(game) == "<Game mafia 6-players seed=2: 6 moves, awaiting p6>"  # (the host's: night roles too)
    maze = new_game("magic-maze", "1", players=2, seed=10**40)
    assert repr(maze) == "<Game magic-maze 1 seed=100000000000... (41 digits): 0 moves at 0 s, awaiting p1 p2>"
    maze.wait(10**6)
    assert repr(maze) == ("<Game magic-maze 1 seed=100000000000... (41 digits): "
                          "over at 180 s after 0 moves (time), no one won>")
    duel = new_game("fbi-mafia", "duel-3v3", seed=1)
    duel.play("mafia", "shift row 1 left")
    duel.play("fbi", "surrender")
    assert str(duel) == "<Game fbi-mafia duel-3v3 seed=1: over after 2 moves (surrender), won by mafia>"
    roles = new_game("magic-maze", "2", players=3, roles=2, seed=1)
    assert repr(roles) == "<Game magic-maze 2 roles=2 seed=1: 0 moves at 0 s, awaiting p1 p2 p3>"


def test_a_custom_deck_games_repr_names_the_deck(tmp_path: Path) -> None:
    """A game dealt from a custom deck showed as the game of the same name dealt from the
    game's own cards."""
    mafia = tmp_path / "town.yaml"
    mafia.write_text("game: mafia\nkind: deck\ntitle: small town\ncards: {boss: 1, mafia: 1, agent: 1, chief: 1, "
                     "police: 1, civilian: 2, chameleon: 1, fighter: 1}\n", encoding="utf-8")
    assert repr(new_game("mafia", players=9, deck=mafia, seed=1)).startswith("<Game mafia 9-players deck='small town' seed=1:")
    roles = tmp_path / "pair.yaml"
    roles.write_text("game: magic-maze\nkind: roles\ntitle: two traitors\nlevel: 1\ncards: {traitor: 2, hero: 2}\n",
                     encoding="utf-8")
    assert repr(new_game("magic-maze", "1", deck=roles, seed=1)).startswith(
        "<Game magic-maze 1 roles=1 deck='two traitors' seed=1: ")


def test_a_replays_report_shows_its_session_by_what_every_seat_knows(tmp_path) -> None:
    """``replay``'s report showed ``session=<arbiter.engine.session.Session object at 0x...>``:
    the session now shows its game, variant, seed and how far it went, nothing hidden (no
    awaited seat: at night that would name a role)."""
    game = new_game("mafia", players=6, seed=2)
    for seat in game.seats:
        game.play(seat, "pass")
    path = game.save(tmp_path / "g.yaml")
    assert repr(replay(path)) == "ReplayReport(session=<Session mafia 6-players seed=2: 6 moves>, problems=[])"
    game.play("p6", "leave")
    assert repr(game.session).endswith(": 7 moves>") and "over" not in repr(game.session)
    duel = new_game("fbi-mafia", "duel-3v3", seed=10**40)
    duel.play("mafia", "surrender")
    assert repr(duel.session) == "<Session fbi-mafia duel-3v3 seed=100000000000... (41 digits): 1 move, over>"


def test_choices_show_themselves_short_the_count_and_the_first_few(tmp_path: Path) -> None:
    """A ``Choices``' repr (the dataclass's own) listed every input: 1,100 characters for FBI vs
    Mafia's first move, 3,000 for a Hidden Roles seat, in a notebook's cell. It says how many
    are legal and shows the first few, the forms and the way to give up, as python-chess shows
    its legal moves; and ``replay``'s report shows nothing as ``<... object at 0x...>``."""
    from arbiter.engine.api import Choices

    duel = new_game("fbi-mafia", "duel-3v3", seed=1)
    assert repr(duel.choices("mafia")) == str(duel.choices("mafia")) == (
        "<Choices: 57 legal inputs (shift row 1 left, shift row 1 right, shift row 1 left 2, shift row 1 right 2, ...), "
        "resign surrender>")
    assert repr(duel.choices("fbi")) == "<Choices: no legal input, resign surrender>"
    roles = new_game("magic-maze", "1", players=8, roles=2, seed=1)
    assert len(roles.choices("p1").legal) > 100 and len(repr(roles.choices("p1"))) < 200
    assert repr(roles.choices("p1")).endswith(", ...), forms (say TEXT)>")
    assert repr(Choices(["pass"], [], None)) == "<Choices: 1 legal input (pass)>"
    assert repr(Choices(["say " + "x" * 100], [], None)) == f"<Choices: 1 legal input (say {'x' * 36}...)>"
    duel.play("mafia", "surrender")
    report = replay(duel.save(tmp_path / "duel.yaml"))
    assert " object at 0x" not in repr(report) and "<Session fbi-mafia duel-3v3 seed=1: 1 move, over>" in repr(report)

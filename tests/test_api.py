"""The Python API (``engine.api``, ``docs/api.md``): the guide's examples run as written, a
seat's observation holds nothing that seat may not know (twin games), outcomes, copies, what the
library hands out, and every wrong argument, text, time and seed refused as documented. (The
multi-agent loop: ``test_api_agents.py``.)"""

from __future__ import annotations

import copy
import doctest
import random
from pathlib import Path

import pytest

from arbiter.engine.api import Game, SetupError, load_game, new_game, play_agents, replay
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


@pytest.mark.parametrize("text, problem", [
    ("say \udcff", "the text holds U+DCFF, a lone surrogate, at column 5; only characters are read"),
    ("say hi\x00there", "the text holds a control character (U+0000) at column 7; only printable text is read"),
    ("say \x1b[31mred", "the text holds a control character (U+001B) at column 5; only printable text is read"),
    ("say " + "é" * 4095, "the text is longer than 8192 bytes (in UTF-8)"),
])
def test_the_library_refuses_the_texts_a_protocol_line_could_not_hold(text: str, problem: str) -> None:
    """The library's words are checked as the protocol's lines are: a lone surrogate was once
    accepted and written to a transcript that could not be read back."""
    game = new_game("magic-maze", "1", players=2, seed=3)  # (talk open, and no length of its own)
    before = snapshot(game)
    with pytest.raises(SyntaxInputError) as caught:
        game.play("p1", text)
    assert caught.value.message == problem and snapshot(game) == before
    game.play("p1", "say " + "é" * 4091 + "\tcafé")  # 8,192 bytes, a tab as any white space
    game.play("p2", "say \u200bzero-width")  # printable or not, a character a line may hold
    moves = game.session.moves
    assert [m.text for m in moves] == ["say " + "é" * 4091 + " café", "say \u200bzero-width"]
    assert load_game_text(game).events() == game.events()


@pytest.mark.parametrize("seed, kind", [(True, TypeError), (1.5, TypeError), ("1", TypeError), ([1], TypeError),
                                        (float("nan"), TypeError), (10**100, ValueError), (-(10**100), ValueError),
                                        pytest.param(10**5000, ValueError, id="5001-digits")])
def test_a_seed_is_a_whole_number_of_at_most_100_digits(seed, kind) -> None:
    """Other seeds once started a game whose transcript could not be read (a bool, a float, a
    text), or could not be written (5,000 digits), or played differently each time (nan)."""
    with pytest.raises(kind, match="seed: a whole number of at most 100 digits"):
        new_game("mafia", players=8, seed=seed)
    assert new_game("mafia", players=8, seed=10**100 - 1).seed == 10**100 - 1
    assert new_game("mafia", players=8, seed=0).transcript().count("seed: 0\n") == 1


@pytest.mark.parametrize("seed, named, same", [
    (-5, "seed -5 is negative", "deals -5 as it deals 5, the same game)"),
    (-1, "seed -1 is negative", "deals -1 as it deals 1, the same game)"),
    (-(10**100) + 1, "seed of 100 digits is negative",
     "deals a negative seed as it deals its absolute value, the same game)")])
def test_a_new_games_seed_is_not_negative_for_it_deals_what_its_absolute_value_deals(seed, named, same) -> None:
    """Python's generator deals -5 as it deals 5: ``new_game(seed=-5)`` was seed 5's game, two
    "different" seeds one game (``arbiter play --seed -5`` is refused so already). A new game's
    seed is from 0; a transcript of a negative seed still loads and replays (next test)."""
    from arbiter.engine.registry import get
    from arbiter.engine.session import Session

    rules = get("mafia")
    assert Session(rules, "8-players", seed=seed).state.card == Session(rules, "8-players", seed=-seed).state.card
    with pytest.raises(SetupError) as caught:
        new_game("mafia", players=8, seed=seed)
    assert isinstance(caught.value, ValueError) and caught.value.option == "--seed"
    assert caught.value.message.startswith(f"new_game: {named}: a new game's seed is a whole number from 0, "
                                           "of at most 100 digits (Python's generator "), caught.value.message
    assert caught.value.message.endswith(same), caught.value.message


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


def test_a_transcripts_seed_of_more_than_100_digits_is_refused_as_read() -> None:
    from arbiter.engine import transcript as tr
    from arbiter.engine.errors import TranscriptError

    text = new_game("mafia", players=8, seed=7).transcript()
    with pytest.raises(TranscriptError, match="seed: a number of 101 digits"):
        tr.parse(text.replace("seed: 7\n", f"seed: {10**100}\n"), "t.yaml")


def test_play_and_wait_name_what_they_take() -> None:
    game = new_game("magic-maze", "1", players=2, seed=1)
    before = snapshot(game)
    for bad in (5, None, b"move purple west", ["move"]):
        with pytest.raises(TypeError, match=r"^play: the input is its words \(a str\), not "):
            game.play("p1", bad)
    for call in (lambda: game.play("p1", "move purple west", time="5"), lambda: game.wait(True)):
        with pytest.raises(TypeError, match=r"^(play|wait): time is seconds \(a number\), not (str|bool)$"):
            call()
    assert snapshot(game) == before


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


@pytest.mark.parametrize("args, options, problem", [
    (("magic-maze", 1), {}, "variant is a mode's or scenario's name (a str, as '1'), not int"),
    (("mafia",), {"players": "8"}, "players is a whole number, not str"),
    (("mafia",), {"players": True}, "players is a whole number, not bool"),
    (("magic-maze", "1"), {"players": "3"}, "players is a whole number, not str"),
    (("magic-maze", "1"), {"players": 3, "roles": 2.0}, "roles is a level (a whole number), not float"),
    (("mafia",), {"deck": ["deck.yaml"]}, "deck is a file's path (a str or a Path), not list"),
    ((None,), {}, "game is a game's name (a str), not NoneType"),
])
def test_new_games_arguments_of_the_wrong_type_are_named(args, options, problem) -> None:
    """They were refused with messages that said the opposite of the truth (``players="8"``:
    "default decks are for 6 to 12 players, not 8"; the scenario ``1``: "magic-maze has no
    scenario 1") or with Python's own (``'<=' not supported between instances of 'int' and
    'str'``)."""
    with pytest.raises(TypeError) as caught:
        new_game(*args, seed=1, **options)
    assert str(caught.value) == "new_game: " + problem
    assert new_game("magic-maze", "1", players=3, roles=2, deck=None, seed=1).seats == ("p1", "p2", "p3")


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


@pytest.mark.parametrize("time", [-1, -0.5, -0.0001, float("nan"), float("inf"), float("-inf"), 1_000_000_000,
                                  999_999_999.9996, 1e13, pytest.param(10**400, id="10**400"),
                                  pytest.param(-(10**400), id="-10**400")])
def test_a_time_that_is_no_moment_of_the_clock_is_a_time_error(time) -> None:
    """``play(seat, text, time=-1)`` was a ``SyntaxInputError`` (the refusal of a protocol stamp's
    unreadable text, ``@-1``), as were NaN, infinity and times past the clock's last moment,
    where every other bad time is a ``TimeError``; a huge int was Python's ``OverflowError``."""
    from arbiter.engine.errors import TimeError

    for game, seat, text in ((new_game("fbi-mafia", "duel-3v3", seed=1), "mafia", "shift row 1 left"),
                             (new_game("magic-maze", "1", players=2, seed=1), "p1", "say hi")):
        before = snapshot(game)
        for method, call in (("play", lambda: game.play(seat, text, time=time)), ("wait", lambda: game.wait(time))):
            with pytest.raises(TimeError) as caught:
                call()
            assert caught.value.kind == "time" and caught.value.message.startswith(f"{method}: time ")
            assert caught.value.message.endswith(" is not a moment of the game: a time is seconds from 0 to "
                                                 "999999999.999, not before the clock")
        assert snapshot(game) == before
    game = new_game("fbi-mafia", "duel-3v3", seed=1)
    game.wait(-0.0)  # (0: the start, as 0.0 is)
    game.play("mafia", "shift row 1 left", time=999_999_999.999)  # the clock's last moment
    assert game.time == 999_999_999.999


@pytest.mark.parametrize("game, variant, options, kind, message", [
    ("chess", None, {}, "UnknownCommandError", "no game named 'chess'"),
    ("fbi-mafia", "duel-2v2", {}, "UnknownCommandError", "fbi-mafia has no mode 'duel-2v2'"),
    ("fbi-mafia", None, {"players": 6}, "UnknownCommandError",
     "FBI vs Mafia is not set up by player count: leave out --players; its modes fix the seats"),
    ("fbi-mafia", "duel-3v3", {"roles": 2}, "UnknownCommandError",
     "FBI vs Mafia is not played at a level (--roles is for Magic Maze: Hidden Roles): leave out --roles; its "
     "modes say what is played"),
    ("fbi-mafia", None, {"deck": "deck.yaml"}, "UnknownCommandError",
     "FBI vs Mafia is not played with a custom deck: leave out --deck; its modes say what is played"),
    ("mafia", None, {"players": 3}, "IllegalMoveError", "Classic Mafia's default decks are for 6 to 12 players, not 3"),
    ("mafia", "6-players", {"players": 8}, "IllegalMoveError", "--mode 6-players does not fit 8 players"),
    ("mafia", None, {"roles": 1}, "IllegalMoveError", "Classic Mafia has no levels (--roles is for Magic Maze: "
                                                      "Hidden Roles)"),
    ("magic-maze", "8", {}, "UnknownCommandError", "magic-maze has no scenario '8'"),
    ("magic-maze", "", {}, "UnknownCommandError", "magic-maze has no scenario ''"),  # (was the default)
    ("mafia", "", {}, "UnknownCommandError", "mafia has no mode ''"),
    ("fbi-mafia", "", {}, "UnknownCommandError", "fbi-mafia has no mode ''"),
    ("mafia", "m" * 3000, {}, "UnknownCommandError", "mafia has no mode '" + "m" * 40 + "'... (3000 characters)"),
    ("magic-maze", "1", {"players": 9}, "IllegalMoveError", "Magic Maze is played by 1 to 8 players, not 9"),
    ("magic-maze", "1", {"players": 2, "roles": 1}, "IllegalMoveError",
     "Magic Maze: Hidden Roles is played by 3 to 8 players, not 2"),
    ("magic-maze", "1", {"roles": 6}, "ScenarioError", "options: roles: 6 is out of range (allowed: 1..5)"),
    ("magic-maze", "1", {"roles": 1, "deck": "deck.yaml"}, "IllegalMoveError",
     "--deck FILE brings its own level (its 'level:' key); leave out --roles"),
])
def test_a_game_that_cannot_be_set_up_is_a_setup_error_not_a_refused_move(game, variant, options, kind,
                                                                           message) -> None:
    """``new_game``'s setup errors were raised as refusals of a move (``kind``, then: an
    ``UnknownCommandError`` or an ``IllegalMoveError``, both ``InputError``s; a level out of range
    a ``ScenarioError``, as broken data), so a caller catching refused moves caught a game
    misconfigured too. They are ``SetupError``s (and ``ValueError``s), with the same messages."""
    import arbiter
    from arbiter.engine import errors

    with pytest.raises(arbiter.SetupError) as caught:
        new_game(game, variant, seed=1, **options)
    exc = caught.value
    assert exc.message == message and str(exc) == message and exc.kind == "setup"
    assert isinstance(exc, ValueError) and isinstance(exc, errors.ArbiterError)
    assert not isinstance(exc, (InputError, errors.ScenarioError, getattr(errors, kind)))
    assert arbiter.SetupError is errors.SetupError and "SetupError" in arbiter.__all__


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


@pytest.mark.parametrize("path", ["a\x00b", "a\ud800b", "/nonexistent/deck.yaml", "/dev/null", "/"])
def test_a_path_no_file_can_have_is_the_readers_own_error(path: str) -> None:
    """A deck's or a transcript's path holding a NUL character was Python's bare
    ``ValueError: embedded null byte``, and one holding a lone surrogate a bare
    ``UnicodeEncodeError``; every other unreadable path was the reader's error."""
    from arbiter.engine.errors import ScenarioError, TranscriptError

    for call, kind in ((lambda: new_game("mafia", players=6, deck=path), ScenarioError),
                       (lambda: new_game("magic-maze", "1", players=4, deck=path), ScenarioError),
                       (lambda: load_game(path), TranscriptError), (lambda: replay(path), TranscriptError)):
        with pytest.raises(kind) as caught:
            call()
        message = caught.value.message
        assert "Errno" not in message and ("NUL character" in message) == ("\0" in path)
        assert ("lone surrogate (U+D800)" in message) == ("\ud800" in path)
    if path.startswith("a"):  # nor is such a name written: the error says why, and no file is made
        with pytest.raises(OSError, match="which no file's name may"):
            new_game("mafia", players=6, seed=1).save(path)


def test_numbers_of_any_kind_are_read_and_huge_ones_refused_by_the_library_not_python() -> None:
    """A ``Fraction`` or ``Decimal`` time was "not a number"; a seed of an int subclass "not
    5"; a time, a player count or a level of 5,000 digits was Python's bare ``ValueError``
    (a str of over 4,300 digits), not a ``TimeError`` or a ``SetupError``."""
    import enum
    from decimal import Decimal
    from fractions import Fraction

    from arbiter.engine.errors import TimeError

    class Seed(enum.IntEnum):
        FIVE = 5

    game = new_game("magic-maze", "1", players=2, seed=Seed.FIVE)
    assert type(game.session.seed) is int and game.session.seed == 5
    game.wait(Fraction(3, 2))
    game.wait(Decimal("2.5"))
    assert game.time == 2.5
    for time in (10 ** 5000, -10 ** 5000, Decimal("NaN"), Fraction(10 ** 400, 3)):
        with pytest.raises(TimeError):
            game.wait(time)
        with pytest.raises(TimeError):
            game.play("p1", "pass", time=time)
    assert game.time == 2.5
    for options in ({"players": 10 ** 5000}, {"players": -5000}, {"players": 3, "roles": 10 ** 5000}):
        with pytest.raises(SetupError, match="is far outside what any game takes"):
            new_game("magic-maze" if "roles" in options else "mafia", "1" if "roles" in options else None, **options)


@pytest.mark.parametrize("game, variant, options", [("magic-maze", "1", {"players": 2}), ("mafia", None, {"players": 6}),
                                                    ("fbi-mafia", "duel-3v3", {})])
def test_submit_move_refuses_a_value_no_game_reads_before_time_acts_or_the_end_is_judged(game, variant, options) -> None:
    """``Session.submit_move(seat, None, later)`` let the sand run out first, then said the game
    was over (``GameOverError``), where its docstring promises a ``TypeError`` before anything
    changes."""
    from arbiter.engine.games.magic_maze.moves import Move as MazeMove

    g = new_game(game, variant, seed=1, **options)
    seat = g.awaiting()[0]
    before, clock = snapshot(g), g.time
    for value in (None, 5, b"pass", MazeMove("draw") if game != "magic-maze" else object()):
        with pytest.raises(TypeError, match="^submit_move takes "):
            g.session.submit_move(seat, value, 200_000)
    assert snapshot(g) == before and g.time == clock


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


@pytest.mark.parametrize("call", [load_game, replay, lambda path: new_game("mafia", players=6, seed=1).save(path)])
@pytest.mark.parametrize("path, name", [(None, "NoneType"), (b"game.yaml", "bytes"), (3, "int")])
def test_a_path_of_the_wrong_type_is_named_by_the_method(call, path, name) -> None:
    """A path that is no path was refused by ``pathlib`` or ``open`` in their words (``expected
    str, bytes or os.PathLike object, not NoneType``), naming neither the method nor what it
    takes."""
    method = {load_game: "load_game", replay: "replay"}.get(call, "save")
    with pytest.raises(TypeError, match=f"^{method}: path is a file's path \\(a str or a Path\\), not {name}$"):
        call(path)


@pytest.mark.parametrize("overwrite", ["no", 1, None])
def test_save_takes_overwrite_as_true_or_false_only(tmp_path: Path, overwrite) -> None:
    """``overwrite="no"`` (any truthy value) wrote over the file that was there."""
    path = tmp_path / "game.yaml"
    path.write_text("mine\n", encoding="utf-8")
    game = new_game("mafia", players=6, seed=1)
    with pytest.raises(TypeError, match=f"^save: overwrite is True or False, not {type(overwrite).__name__}$"):
        game.save(path, overwrite=overwrite)
    assert path.read_text(encoding="utf-8") == "mine\n"
    assert game.save(tmp_path / "game.yaml", overwrite=True) == path and load_game(path).seed == 1


@pytest.mark.parametrize("overwrite", [False, True])
def test_saving_to_a_folder_says_it_is_a_folder(tmp_path: Path, overwrite: bool) -> None:
    """``save(folder)`` said "File exists" (or, with ``overwrite``, "not a regular file"), naming
    no folder: a researcher gives the folder for the runs and expects a file in it."""
    game = new_game("mafia", players=6, seed=1)
    with pytest.raises(IsADirectoryError, match="save: this is a folder: name the transcript's file in it") as caught:
        game.save(tmp_path, overwrite=overwrite)
    assert caught.value.filename == str(tmp_path) and list(tmp_path.iterdir()) == []


def test_seconds_name_writes_any_whole_number_of_milliseconds_and_refuses_others() -> None:
    """``arbiter.seconds_name``, a name of the library, wrote ``-1500`` ms as ``-2.5`` (``divmod``
    rounds toward minus infinity), failed on ``1.5`` with a format code's ``ValueError`` and read
    ``True`` as 1 ms."""
    import arbiter

    assert [arbiter.seconds_name(ms) for ms in (0, 1, 1500, 180000, -1, -1500, -2000)] == [
        "0", "0.001", "1.5", "180", "-0.001", "-1.5", "-2"]
    for wrong in (1.5, True, "1500", None):
        with pytest.raises(TypeError, match=f"^seconds_name: a time is whole milliseconds \\(an int\\), "
                                            f"not {type(wrong).__name__}$"):
            arbiter.seconds_name(wrong)


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


@pytest.mark.parametrize("seat", [None, 3, b"p1", ("p1",)])
def test_a_seat_that_is_no_str_is_a_type_error_not_a_players_refusal(seat) -> None:
    """A seat of the wrong type (None, a seat's number) raised ``UnknownSeatError``, an
    ``InputError``: ``except InputError`` around a bot's moves took the caller's mistake for a
    player's refused input. It is a ``TypeError``, and nothing changes."""
    game = new_game("mafia", players=6, seed=2)
    before = game.transcript()
    for call in (lambda: game.play(seat, "pass"), lambda: game.legal(seat), lambda: game.view(seat),
                 lambda: game.events(seat), lambda: game.awaiting(seat)):
        with pytest.raises(TypeError, match=f"^a seat is named by a str, not {type(seat).__name__}$"):
            call()
    assert game.transcript() == before


class Index:
    """A whole number as numpy's integers are one: not an ``int``, but read as one by
    ``operator.index`` (its ``__index__``)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


def _numpy_int64(value: int):
    return pytest.importorskip("numpy").int64(value)


@pytest.mark.parametrize("whole", [Index, pytest.param(_numpy_int64, id="numpy")])
def test_a_whole_number_of_any_kind_python_reads_as_one_is_taken_as_a_plain_int(whole) -> None:
    """``numpy.int64(3)`` (a seed or a player count out of an array) was refused as a seed "not
    np.int64(3)", a player count "not int64", a ``max_inputs`` or ``seconds_name``'s
    milliseconds "not Index": what ``operator.index`` takes is taken, and the game stores,
    records and shows the plain int, as if it had been given."""
    import arbiter

    game = new_game("magic-maze", "1", players=whole(3), roles=whole(2), seed=whole(7))
    plain = new_game("magic-maze", "1", players=3, roles=2, seed=7)
    assert type(game.seed) is int and game.session.options == {"players": 3, "roles": 2}
    assert all(type(v) is int for v in game.session.options.values())
    assert game.transcript() == plain.transcript() and repr(game) == repr(plain)
    game.wait(whole(3))
    game.play("p1", game.legal("p1")[0], time=whole(4))
    assert game.time == 4 and game.session.moves[-1].time_ms == 4000
    mafia = new_game("mafia", players=whole(6), seed=whole(1))
    assert mafia.seats == new_game("mafia", players=6, seed=1).seats and mafia.variant == "6-players"
    assert list(mafia.agent_iter(whole(0))) == []
    assert play_agents(mafia, {s: Drawn(i) for i, s in enumerate(mafia.seats)}, max_inputs=whole(2)) is None
    assert len(mafia.session.moves) == 2
    assert arbiter.seconds_name(whole(1500)) == "1.5"
    with pytest.raises(SetupError, match="seed -5 is negative"):
        new_game("mafia", players=6, seed=whole(-5))
    with pytest.raises(ValueError, match="max_inputs is a whole number from 0, not -1$"):
        mafia.agent_iter(whole(-1))
    with pytest.raises(SetupError, match="default decks are for 6 to 12 players, not 3$"):
        new_game("mafia", players=whole(3))


@pytest.mark.parametrize("game, variant, options, option", [
    ("mafia", "zzz", {}, "--mode"), ("fbi-mafia", "duel-2v2", {}, "--mode"), ("mafia", "", {}, "--mode"),
    ("magic-maze", "8", {}, "--scenario"), ("magic-maze", "8", {"players": 3, "roles": 2}, "--scenario"),
    ("mafia", None, {"players": 3}, "--players"), ("mafia", None, {"players": 5000}, "--players"),
    ("magic-maze", "1", {"players": 3, "roles": 5000}, "--roles"), ("mafia", None, {"roles": 1}, "--roles"),
    ("chess", None, {}, None),  # (a game is no option: ``arbiter play GAME``)
    ("mafia", "6-players", {"players": 8}, None),  # (two options that contradict each other: neither alone)
])
def test_a_setup_errors_option_names_the_option_the_value_came_with(game, variant, options, option) -> None:
    """A mode or scenario the game does not have, and a number far outside what any game takes,
    said ``option`` None, though every other value of one option the game refuses names it
    (``--players``, ``--roles``, ``--seed``): a caller could not tell which argument to mend."""
    with pytest.raises(SetupError) as caught:
        new_game(game, variant, seed=1, **options)
    assert caught.value.option == option, caught.value.message


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


def test_a_seat_and_an_input_the_wrong_way_round_are_refused_saying_which_comes_first() -> None:
    """``play("pass", "p1")`` said "no seat 'pass' in this game", leaving the caller to find out
    why; it says the seat comes first, and changes nothing, in a real-time game too."""
    for game, seat, text in ((new_game("mafia", players=6, seed=1), "p1", "pass"),
                             (new_game("magic-maze", "1", players=2, seed=1), "p2", "move green west 1")):
        before = snapshot(game)
        for method in ("play", "step"):
            with pytest.raises(UnknownSeatError) as caught:
                getattr(game, method)(text, seat)
            assert caught.value.message == (f"{method}: no seat {text!r} in this game: {method} takes the seat "
                                            f"first, then its input ({method}({seat!r}, {text!r})?)")
            assert caught.value.allowed == game.seats
        with pytest.raises(UnknownSeatError, match="^no seat 'P1' in this game$"):  # (a seat misspelt: as it was)
            game.play("P1", text)
        assert snapshot(game) == before


def test_a_game_is_made_of_a_session_and_seconds_name_of_any_length_is_the_librarys_error() -> None:
    """``Game(None)`` was made, then failed with an ``AttributeError`` when first shown or played;
    ``seconds_name(10**5000)`` was Python's ``ValueError`` about ``sys.set_int_max_str_digits``."""
    import arbiter

    for wrong in (None, "mafia", new_game("mafia", players=6, seed=1)):
        with pytest.raises(TypeError, match=f"^Game: a game is made of a Session \\(or started by new_game, "
                                            f"load_game\\), not {type(wrong).__name__}$"):
            Game(wrong)
    with pytest.raises(ValueError, match="^seconds_name: a number of over 3900 digits is too long to write as a time$"):
        arbiter.seconds_name(10 ** 5000)
    assert arbiter.seconds_name(-(10 ** 30) - 1) == "-1" + "0" * 27 + ".001"


def test_a_deck_is_named_by_any_path_load_game_takes(tmp_path: Path) -> None:
    """``load_game``, ``replay`` and ``save`` take any ``os.PathLike`` naming a file by text, but
    ``new_game``'s deck took a ``str`` or a ``Path`` only: a ``PurePosixPath`` or a path object
    of another library was "not a file's path"."""
    from pathlib import PurePosixPath

    class Named:  # (a path object of another library)
        def __fspath__(self) -> str:
            return str(tmp_path / "friday.yaml")

    (tmp_path / "friday.yaml").write_text("game: mafia\nkind: deck\ntitle: Friday table\ncards: "
                                          "{civilian: 2, agent: 1, boss: 1, mafia: 1, chief: 1}\n", encoding="utf-8")
    by_str = new_game("mafia", deck=str(tmp_path / "friday.yaml"), seed=1)
    for deck in (PurePosixPath(tmp_path / "friday.yaml"), Named()):
        assert new_game("mafia", deck=deck, seed=1).transcript() == by_str.transcript()
    with pytest.raises(TypeError, match="^new_game: deck is a file's path \\(a str or a Path\\), not bytes$"):
        new_game("mafia", deck=bytes(tmp_path / "friday.yaml"))


def test_a_seat_given_as_a_str_of_a_subclass_is_recorded_as_the_games_own_str() -> None:
    """A seat given as numpy's ``str_`` (seats out of an array) was kept as given in the game's
    moves and log, where a replay of its transcript holds plain ``str``s; and an object that is
    no ``str`` but compares equal to a seat was taken for it."""
    class Seat(str):
        pass

    class Alike:
        def __eq__(self, other: object) -> bool:
            return other == "p1"

        __hash__ = object.__hash__

    game = new_game("mafia", players=6, seed=1)
    game.play(Seat("p1"), "pass")
    game.step(Seat("p2"), "pass")
    assert [type(m.seat) for m in game.session.moves] == [str, str]
    assert [type(e["move"]["seat"]) for e in game.session.entries if "move" in e] == [str, str]
    assert game.legal(Seat("p3")) == game.legal("p3") and game.view(Seat("p3")) == game.view("p3")
    before = snapshot(game)
    with pytest.raises(TypeError, match="^a seat is named by a str, not Alike$"):
        game.play(Alike(), "pass")
    assert snapshot(game) == before

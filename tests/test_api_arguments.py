"""The Python API's arguments (``engine.api``, ``docs/api.md``): every wrong argument, text,
time, seed, seat and path refused as documented, in the library's own words, before anything
changes; whole numbers of any kind Python reads as one taken as plain ints. (The games played
through the API: ``test_api.py``; the multi-agent loop: ``test_api_agents.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from arbiter.engine.api import Game, SetupError, load_game, new_game, play_agents, replay
from arbiter.engine.errors import InputError, SyntaxInputError, UnknownSeatError
from tests.api_staging import Drawn, load_game_text, snapshot


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


@pytest.mark.parametrize("game, variant, options, words", [
    ("mafia", None, {"players": 6}, "pass"),
    ("fbi-mafia", "duel-3v3", {}, "shift row 1 left"),
    ("magic-maze", "1", {"players": 2}, "say hi"),  # (real time: checked before time passes too)
])
def test_play_takes_one_lines_end_at_the_end_of_its_words_as_step_does(game, variant, options, words) -> None:
    """``play(seat, "pass\\n")`` was a SyntaxInputError (a control character), while ``step``
    played the same answer: a line's end at the very end ends the line, as the protocol's
    reader takes it off, and the game is the one the plain words play; a line's end inside the
    words (two lines, one of which would be read into the other), or a second one, is refused,
    naming its column, and changes nothing."""
    plain, ended = new_game(game, variant, seed=1, **options), new_game(game, variant, seed=1, **options)
    seat = plain.awaiting()[0]
    played = plain.play(seat, words)
    for ending in ("\n", "\r\n"):
        lined = ended.copy()
        assert lined.play(seat, words + ending) == played
        assert lined.transcript() == plain.transcript()
    before = snapshot(ended)
    inside = words.replace(" ", "\n", 1) if " " in words else "pa\nss"
    for text, column in ((inside, inside.index("\n") + 1), (words + "\n\n", len(words) + 1)):
        with pytest.raises(SyntaxInputError) as caught:
            ended.play(seat, text)
        assert caught.value.message == (f"the text holds a control character (U+000A) at column {column}; "
                                        "only printable text is read")
        assert snapshot(ended) == before


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
    ("mafia", "6-players", {"players": 8}, "IllegalMoveError", "--mode 6-players does not fit 8 players (a mode is "
                                                                "its player count: --mode 8-players, or leave out one "
                                                                "of the two)"),
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


def test_a_session_made_directly_takes_a_seed_python_reads_as_a_whole_number() -> None:
    """``new_game`` took any whole number (``operator.index``) but ``Session`` used directly
    refused one that is no ``int`` (numpy's ``int64``): the same game now, recorded the same."""
    from arbiter.engine import registry
    from arbiter.engine.session import Session

    class Five:
        def __index__(self) -> int:
            return 5

    rules = registry.get("mafia")
    a, b = Session(rules, "6-players", seed=Five()), Session(rules, "6-players", seed=5)
    assert type(a.seed) is int and a.seed == 5 and a.state.card == b.state.card
    with pytest.raises(TypeError, match="seed: a whole number"):
        Session(rules, "6-players", seed=5.0)

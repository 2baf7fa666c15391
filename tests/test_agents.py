"""In-process bots (``engine.agents``): a Python class plays a seat from its observation and
its legal inputs; its failures are forfeits like a program's; its observation holds only what
its seat may see; ``py:MODULE:CLASS`` is loaded from the working folder or the one given."""

from __future__ import annotations

import sys

import pytest

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.agents import AgentBot, agent_seed, load_agent, news, observation
from arbiter.engine.bench import play_random
from arbiter.engine.bots import BotFailure
from arbiter.engine.deadline import TimeUp
from arbiter.engine.errors import ArbiterError
from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.agents_for_tests import Idle, Last
from tests.helpers import responses, run


def test_a_python_class_plays_a_seat_from_the_command_line(tmp_path) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 2, "--bot", "mafia=py:tests.agents_for_tests:Last",
            "--bot", "fbi=random", "--transcript", t)
    assert r.exit_code == 0, r.output
    assert any(x[0].startswith("= mafia ") for x in responses(r.stdout))
    assert run("replay", t).exit_code == 0
    # the class itself played: each of mafia's moves is the last input it was offered (Last)
    record = tr.read(t)
    s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    mafia = 0
    for move in tr.replayed(record).moves:
        if move.seat == "mafia":
            assert move.text == s.choices("mafia").legal[-1]
            mafia += 1
        s.submit(move.seat, move.text, move.time_ms)
    assert mafia > 3


def test_an_agent_that_raises_forfeits_with_the_reason() -> None:
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 2, "--bot", "mafia=py:tests.agents_for_tests:Broken",
            "--bot", "fbi=random")
    assert r.exit_code == 0, r.output
    assert "forfeit: mafia: the agent tests.agents_for_tests:Broken raised ValueError: it fell over" in r.output


def test_a_missing_agent_is_a_clear_error() -> None:
    r = run("play", "fbi-mafia", "--bots", "random", "--bot", "bandit=py:tests.agents_for_tests:Nobody")
    assert r.exit_code == 2 and "cannot make the agent: AttributeError" in r.output, r.output


def test_an_agent_is_told_the_game_and_sees_only_its_seats_stream() -> None:
    session = Session(registry.get("mafia"), "8-players", seed=3)
    agents = {s: Last() for s in session.seats}
    bots = {s: AgentBot(s, a) for s, a in agents.items()}
    for _ in Match(Protocol(session), bots, None, max_moves=60).run():
        pass
    for seat, agent in agents.items():
        assert agent.info == {"game": "mafia", "variant": "8-players", "seat": seat, "seed": agent_seed(3, seat),
                              "seats": list(session.seats), "options": {},
                              "deck": {"seducer": 1, "civilian": 2, "chief": 1, "police": 1, "boss": 1, "mafia": 1,
                                       "chameleon": 1}}
        assert agent.info["seed"] != 3, "never the game's seed, which decides every secret"
        told = [line for text in agent.seen for line in text.splitlines() if line.startswith("event: ")]
        stream = [f"event: {e.text}" for e in session.events.visible_to(seat)]
        assert told == stream[:len(told)], seat  # exactly its own stream, in order, nothing else
    assert tr.replay(tr.parse(tr.dump(session))).ok


def test_observation_is_the_news_since_last_time() -> None:
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    first, seen = news(session, "fbi")
    assert first.splitlines()[-1].startswith("awaiting: mafia action") and first == observation(session, "fbi")
    session.submit("mafia", "shift row 1 left")
    told, seen2 = news(session, "fbi", seen)
    assert told.splitlines()[:2] == ["move: mafia shift row 1 left", "event: The bandit shifts: shift row 1 left."]
    assert seen2 > seen


@pytest.mark.parametrize("game,variant", [("fbi-mafia", "duel-3v3"), ("mafia", "8-players"),
                                          ("magic-maze", "1")])
def test_news_tells_each_seat_the_whole_observation_once_in_order(game: str, variant: str) -> None:
    """``news`` at every input of a whole game tells each seat, once each and in the order they
    happened, every event it may see and every other seat's move it may know of (its public
    form: a Magic Maze seat is told who moved a hero, which the event does not say; a Mafia
    night's inputs are not told), exactly the lines of the whole game's ``observation``."""
    options = {"players": 3} if game == "magic-maze" else None
    whole = play_random(registry.get(game), variant, 5, options=options, max_inputs=300)
    session = Session(registry.get(game), variant, seed=5, options=options)
    since = {s: (0, 0, 0) for s in session.seats}
    told: dict[str, list[str]] = {s: [] for s in session.seats}
    for move in [*whole.moves, None]:
        for seat in session.seats:
            text, since[seat] = news(session, seat, since[seat])
            told[seat] += [line for line in text.splitlines() if line.startswith(("event: ", "move: "))]
        if move is not None:
            session.submit(move.seat, move.text, move.time_ms)
    for seat in session.seats:
        whole_story = [line for line in observation(session, seat).splitlines() if line.startswith(("event: ", "move: "))]
        assert told[seat] == whole_story
        assert [line for line in whole_story if line.startswith("event: ")] == [
            f"event: {e.text}" for e in session.events.visible_to(seat)]
        assert [line for line in whole_story if line.startswith("move: ")] == [
            f"move: {m.seat} {m.public}" for m in session.moves if m.seat != seat and m.public is not None]
    if game == "mafia":  # the night's inputs are secret: no seat is told them as moves
        assert any(m.public is None for m in session.moves)


@pytest.mark.parametrize("spec", ["mybots", ":Greedy", "mybots:", ":"])
def test_an_agent_spec_without_module_and_class_is_refused_as_such(spec) -> None:
    with pytest.raises(ArbiterError) as err:
        load_agent(spec)
    assert str(err.value) == f"'py:{spec}': expected py:MODULE:CLASS, e.g. py:mybots:Greedy"


LOUD_MODULE = r"""
globals()["No\x07Act"] = object
class C:
    def __init__(self):
        raise RuntimeError("boom\x1b[2J\nforged")
class TrappedAct:
    @property
    def act(self):
        raise RuntimeError("act trap")
"""


@pytest.mark.parametrize("spec, said", [
    ("a\x1b[2Jb:C", "'py:a\\x1b[2Jb:C': cannot make the agent: ModuleNotFoundError: No module named 'a\\x1b[2Jb'"),
    ("m" * 300 + ":C", "'py:" + "m" * 197 + "'... (305 characters): cannot make the agent: ModuleNotFoundError"),
    ("agents_loud_x1:C", "'py:agents_loud_x1:C': cannot make the agent: RuntimeError: boom\\x1b[2J\\nforged"),
    ("agents_loud_x1:No\x07Act", "'py:agents_loud_x1:No\\x07Act': 'No\\x07Act' has no act(observation, legal) method"),
    ("agents_loud_x1:TrappedAct", "'py:agents_loud_x1:TrappedAct': cannot make the agent: RuntimeError: act trap"),
])
def test_an_agent_that_cannot_be_made_is_named_as_typed_never_with_its_control_characters(
        spec, said, tmp_path, monkeypatch) -> None:
    """The spec of an agent that cannot be made, and its exception's message, once reached the
    terminal as they were: an escape sequence in either was played by the terminal, and a
    page-long spec came back whole. Quoted, as an exec: bot's command is, and printable."""
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    (tmp_path / "agents_loud_x1.py").write_text(LOUD_MODULE, encoding="utf-8")
    try:
        with pytest.raises(ArbiterError) as err:
            load_agent(spec, str(tmp_path))
        assert str(err.value).startswith(said) and str(err.value).isprintable(), str(err.value)
    finally:
        sys.modules.pop("agents_loud_x1", None)


AGENT_MODULE = "class Echo:\n    def act(self, observation, legal):\n        return legal.legal[0]\n"


def test_an_agents_module_is_found_in_the_working_folder_or_the_one_given(tmp_path, monkeypatch) -> None:
    """By default the module is looked for in the working folder (put first on the path);
    a tournament's entrants are looked for in the folder it names."""
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    here, there = tmp_path / "here", tmp_path / "there"
    names = {here: "agents_here_x1", there: "agents_there_x1"}
    for folder, name in names.items():
        folder.mkdir()
        (folder / f"{name}.py").write_text(AGENT_MODULE, encoding="utf-8")
    monkeypatch.chdir(here)
    try:
        assert type(load_agent("agents_here_x1:Echo")).__name__ == "Echo"
        assert sys.path[0] == str(here)
        assert type(load_agent("agents_there_x1:Echo", str(there))).__name__ == "Echo"
        assert sys.path[0] == str(there)
        with pytest.raises(ArbiterError, match="cannot make the agent: ModuleNotFoundError"):
            load_agent("agents_nowhere_x1:Echo", str(there))
    finally:
        for name in names.values():
            sys.modules.pop(name, None)


class BadClose(Idle):
    def close(self) -> None:
        raise RuntimeError("cannot close")


def test_an_agent_with_nothing_to_say_waits_in_real_time_and_forfeits_a_turn() -> None:
    """None is "nothing to do now" in a real-time game; a turn game waits for the seat, so
    there it is the agent's failure."""
    maze = Session(registry.get("magic-maze"), "1", seed=1, options={"players": 2})
    assert AgentBot("p1", Idle()).choose(maze) is None
    fbi = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    with pytest.raises(BotFailure, match="^the agent Idle had no input to give$"):
        AgentBot("mafia", Idle(), "Idle").choose(fbi)


def test_closing_the_bot_closes_its_agent_and_swallows_its_errors() -> None:
    agent = Idle()
    AgentBot("p1", agent).close()
    assert agent.closed == 1
    AgentBot("p1", BadClose()).close()  # an agent's failing close is not the referee's crash
    AgentBot("p1", Last()).close()  # nor is an agent without close


def test_a_bot_closed_again_does_not_close_its_agent_again() -> None:
    """``arbiter play`` closes its bots as the match ends and again on its way out, as it may
    any ``Bot`` (a program's close ends it once): every agent's ``close`` ran twice, and now
    that a close is timed a slow one held the command twice its ``--bot-timeout``."""
    agent = Idle()
    bot = AgentBot("p1", agent)
    bot.close()
    bot.close()
    assert agent.closed == 1


class _Unsayable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no words")


class Raises:
    """Raises what it is given, from ``act``, or from ``close`` too."""

    def __init__(self, exc: BaseException, on_close: BaseException | None = None) -> None:
        self.exc, self.on_close = exc, on_close

    def act(self, observation: str, legal):
        raise self.exc

    def close(self) -> None:
        if self.on_close is not None:
            raise self.on_close


@pytest.mark.parametrize("exc,said", [
    (SystemExit(3), "SystemExit: 3"),
    (GeneratorExit(), "GeneratorExit"),
    (_Unsayable(), "_Unsayable: (its message cannot be shown: RuntimeError making it)"),
])
def test_an_agent_that_exits_or_cannot_say_why_forfeits_like_any_other(exc, said) -> None:
    """``sys.exit()`` in an agent once ended the referee with the agent's status, silently, and an
    exception whose message could not be made was a traceback: each is the agent's forfeit, its
    reason recorded, and the game's record replays."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    bots = {"mafia": AgentBot("mafia", Raises(exc, on_close=SystemExit(4)), "Raises"), "fbi": AgentBot("fbi", Last())}
    for _ in Match(Protocol(session), bots, None, max_moves=10).run():
        pass
    assert {"note": {"seat": "mafia", "forfeit": f"the agent Raises raised {said}"}} in session.entries
    assert session.over and [m.text for m in session.moves] == ["surrender"]
    assert tr.replay(tr.parse(tr.dump(session))).ok


class _Booby(str):
    """Text whose own methods fail: the agent's code, run when the referee reads its answer."""

    def split(self, *args, **kwargs):  # type: ignore[override]
        raise RuntimeError("split bomb")

    def lower(self):  # type: ignore[override]
        raise RuntimeError("lower bomb")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq bomb")

    __hash__ = str.__hash__


class BoobyText:
    def act(self, observation, legal):
        return _Booby("mafia " + legal.legal[0])


def test_an_answer_of_a_str_subclass_is_read_as_its_plain_text() -> None:
    """An answer of a ``str`` subclass is text, but its methods are the agent's code: reading it
    with them (``split``) let the agent's exception out of the referee as a traceback. Its plain
    text is read, as any other answer's."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    answer = AgentBot("mafia", BoobyText()).choose(session)
    assert type(answer) is str and answer == session.choices("mafia").legal[0]


class _Trapped:
    """An agent whose methods are properties that raise once looked up (``raising``): the
    look-up runs the agent's code."""

    def __init__(self, raising: str) -> None:
        self.raising = raising

    def _method(self, name: str, fn):
        if self.raising == name:
            raise RuntimeError(f"{name} trap")
        return fn

    act = property(lambda self: self._method("act", lambda observation, legal: legal.legal[0]))
    new_game = property(lambda self: self._method("new_game", lambda info: None))
    close = property(lambda self: self._method("close", lambda: None))


@pytest.mark.parametrize("raising", ["act", "new_game", "close"])
def test_an_agent_whose_method_look_up_raises_forfeits_or_closes_quietly(raising: str) -> None:
    """Looking up an agent's ``act``, ``new_game`` or ``close`` (a property, ``__getattr__``)
    runs its code, outside the guard that makes what the agent raises its forfeit: a traceback
    ended the referee. The look-up is the agent's call too."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    bots = {"mafia": AgentBot("mafia", _Trapped(raising), "Trapped"), "fbi": AgentBot("fbi", Last())}
    for _ in Match(Protocol(session), bots, None, max_moves=10).run():
        pass
    if raising == "close":
        assert len(session.moves) == 10 and not session.over
    else:
        assert {"note": {"seat": "mafia", "forfeit": f"the agent Trapped raised RuntimeError: {raising} trap"}} \
            in session.entries
        assert session.over and [m.text for m in session.moves] == ["surrender"]
    assert tr.replay(tr.parse(tr.dump(session))).ok


class _Masked:
    """An answer that says, when asked its class, that it is text (or raises)."""

    def __init__(self, claim):
        self.claim = claim

    @property
    def __class__(self):  # type: ignore[override]
        if isinstance(self.claim, BaseException):
            raise self.claim
        return self.claim


@pytest.mark.parametrize("claim", [str, RuntimeError("class trap")])
def test_an_answer_that_claims_a_class_is_judged_by_its_type(claim) -> None:
    """``isinstance`` asks an object that is not text its ``__class__``: the answer's own code,
    outside the agent's guard (a traceback), or a claim to be text that the referee then failed
    to read as such. Its type is what counts: not text, a forfeit."""
    class Masks:
        def act(self, observation, legal):
            return _Masked(claim)

    with pytest.raises(BotFailure, match="the agent Masks answered _Masked, not text"):
        AgentBot("mafia", Masks()).choose(Session(registry.get("fbi-mafia"), "duel-3v3", seed=2))


def test_ctrl_c_in_an_agent_is_the_users_not_the_agents_fault() -> None:
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    with pytest.raises(KeyboardInterrupt):
        AgentBot("mafia", Raises(KeyboardInterrupt())).choose(session)
    with pytest.raises(KeyboardInterrupt):
        AgentBot("mafia", Raises(ValueError(), on_close=KeyboardInterrupt())).close()


def test_a_kill_is_the_users_where_the_command_stops_on_it_even_with_ctrl_c_ignored(monkeypatch) -> None:
    """A command started by a shell's ``&`` has SIGINT ignored, but stops on SIGTERM and SIGHUP as
    on Ctrl-C (their handler raises KeyboardInterrupt): a kill while an agent thought was taken
    for the agent's exception, its seat forfeited and the game played on. In a worker told to
    stop, the SystemExit its handler raises is the run's too, in ``act`` and in ``close``."""
    import signal

    from arbiter.engine import agents

    handlers = {signal.SIGINT: signal.SIG_IGN, signal.SIGTERM: signal.default_int_handler}
    monkeypatch.setattr(signal, "getsignal", lambda s: handlers.get(s, signal.SIG_DFL))
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    with pytest.raises(KeyboardInterrupt):
        AgentBot("mafia", Raises(KeyboardInterrupt())).choose(session)
    handlers[signal.SIGTERM] = signal.SIG_DFL  # a worker's: no stop signal raises KeyboardInterrupt
    AgentBot("mafia", Raises(ValueError(), on_close=KeyboardInterrupt())).close()  # the agent's: nothing to forfeit
    monkeypatch.setattr(agents, "stopping", True)
    with pytest.raises(SystemExit):
        AgentBot("mafia", Raises(SystemExit(143))).choose(session)
    with pytest.raises(SystemExit):
        AgentBot("mafia", Raises(ValueError(), on_close=SystemExit(143))).close()


class CatchesTheStop:
    """Told to stop as it plays, as a worker's handler tells it (``pool._stop``: ``stopping`` set,
    ``SystemExit`` raised in its code), it catches that and raises ``then``."""

    def __init__(self, then: BaseException) -> None:
        self.then = then

    def _told_to_stop(self) -> None:
        from arbiter.engine import agents

        try:
            agents.stopping = True
            raise SystemExit(143)
        except SystemExit:
            raise self.then from None

    def act(self, observation: str, legal):
        self._told_to_stop()

    def close(self) -> None:
        self._told_to_stop()


@pytest.mark.parametrize("then", [TimeUp(), KeyboardInterrupt(), ValueError("no")], ids=["time-up", "ctrl-c", "error"])
def test_a_stop_an_agent_caught_and_made_another_exception_of_is_still_the_runs(then, monkeypatch) -> None:
    """In a worker told to stop (SIGTERM from outside the run), an agent that caught the stop
    and then raised something else handed that on as the stop: its time-up (``TimeUp``, a
    ``BaseException``) reached the run's main process, which ended with a traceback; its
    ``KeyboardInterrupt`` was its seat's forfeit, and the game played on. The stop is the
    run's ``SystemExit`` whatever the agent made of it. A stop under way before a close (the
    game unwinding) is not the agent's either: its own failure in that close is quiet, as ever,
    so the game's other bots are closed too."""
    import signal

    from arbiter.engine import agents

    monkeypatch.setattr(signal, "getsignal", lambda s: signal.SIG_IGN if s == signal.SIGINT else signal.SIG_DFL)
    monkeypatch.setattr(agents, "stopping", False)
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    with pytest.raises(SystemExit):
        AgentBot("mafia", CatchesTheStop(then)).choose(session)
    agents.stopping = False
    with pytest.raises(SystemExit):
        AgentBot("mafia", CatchesTheStop(then)).close()
    assert agents.stopping
    AgentBot("mafia", Raises(ValueError(), on_close=then)).close()  # (the stop under way: the close's own failure)


class SwallowsTheStop:
    """Told to stop as it plays (as ``CatchesTheStop``), it swallows the stop and answers."""

    def act(self, observation: str, legal):
        from arbiter.engine import agents

        try:
            agents.stopping = True
            raise SystemExit(143)
        except SystemExit:
            return legal.legal[0]


def test_a_stop_an_agent_swallowed_to_answer_is_still_the_runs(monkeypatch) -> None:
    """An agent that caught its worker's stop and answered played the game on to its end, the
    stopped worker with it: its answer is not taken, the run's stop goes on."""
    from arbiter.engine import agents

    monkeypatch.setattr(agents, "stopping", False)
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    with pytest.raises(SystemExit) as stop:
        AgentBot("mafia", SwallowsTheStop()).choose(session)
    assert stop.value.code == 143 and not session.moves


def test_a_stop_an_agents_call_raised_is_not_raised_again_by_its_retry(monkeypatch) -> None:
    """A worker's stop that came as a bot's process started is tried again a moment later
    (``pool._stop``, SIGALRM); an agent's call that ended meanwhile raised the stop itself, and
    the retry raised it a second time as the game unwound, out of a bot's close before the
    bot's process group was ended (and the game's other bots were left unclosed)."""
    import signal

    from arbiter.engine import agents
    from arbiter.engine.arena import pool

    monkeypatch.setattr(agents, "stopping", False)
    monkeypatch.setattr(agents, "stop_raised", False, raising=False)
    monkeypatch.setattr(pool, "_stopping", False)
    monkeypatch.setattr(pool, "_playing", True)  # (in a game: an idle worker's stop ends it at once)
    retries = []
    monkeypatch.setattr(signal, "setitimer", lambda which, seconds: retries.append(seconds))
    monkeypatch.setattr(pool, "_starting_a_process", lambda frame: True)
    pool._stop(signal.SIGTERM, None)  # (as a process starts: its retry armed, nothing raised)
    assert retries == [pool.STOP_RETRY_S] and agents.stopping
    monkeypatch.setattr(pool, "_starting_a_process", lambda frame: False)
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    with pytest.raises(SystemExit) as stop:
        AgentBot("mafia", Last()).choose(session)  # it answers before the retry comes: not played
    assert stop.value.code == 143 and not session.moves
    pool._stop(signal.SIGALRM, None)  # the retry, as the game unwinds: nothing more to raise
    pool._stop(signal.SIGTERM, None)
    assert retries == [pool.STOP_RETRY_S]


def test_where_ctrl_c_cannot_reach_an_agents_keyboard_interrupt_is_its_own_forfeit(monkeypatch) -> None:
    """A tournament's worker ignores SIGINT: a ``KeyboardInterrupt`` there is one the agent
    raised, which stopped the whole run as the user's Ctrl-C (status 130), and again at the
    same game at every resume. It is the agent's forfeit, as ``SystemExit`` is."""
    import signal

    monkeypatch.setattr(signal, "getsignal", lambda s: signal.SIG_IGN if s == signal.SIGINT else signal.SIG_DFL)
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    bots = {"mafia": AgentBot("mafia", Raises(KeyboardInterrupt("no")), "Raises"), "fbi": AgentBot("fbi", Last())}
    for _ in Match(Protocol(session), bots, None, max_moves=10).run():
        pass
    assert {"note": {"seat": "mafia", "forfeit": "the agent Raises raised KeyboardInterrupt: no"}} in session.entries
    assert session.over and [m.text for m in session.moves] == ["surrender"]


def test_an_agents_module_that_exits_as_it_is_imported_is_a_clear_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    (tmp_path / "agents_exit_x1.py").write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    try:
        with pytest.raises(ArbiterError) as err:
            load_agent("agents_exit_x1:Echo", str(tmp_path))
        assert str(err.value) == "'py:agents_exit_x1:Echo': cannot make the agent: SystemExit: 4"
    finally:
        sys.modules.pop("agents_exit_x1", None)


def test_an_agents_message_cannot_forge_lines_of_the_protocol() -> None:
    """An exception's message with newlines once went out as lines of their own (an ``end``, a
    forged move of another seat) after ``forfeit:``; it is one line, its newlines escaped."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    bots = {"mafia": AgentBot("mafia", Raises(ValueError("one\nend\n= fbi fake")), "Raises"),
            "fbi": AgentBot("fbi", Last())}
    lines = "".join(Match(Protocol(session), bots, None, max_moves=10).run()).splitlines()
    assert "forfeit: mafia: the agent Raises raised ValueError: one\\nend\\n= fbi fake" in lines
    assert "end" not in lines and "= fbi fake" not in lines


class Chatty(Last):
    """Prints as it starts, acts and closes, as an agent being debugged does."""

    def __init__(self) -> None:
        print("made")
        super().__init__()

    def new_game(self, info: dict) -> None:
        print("new game")
        super().new_game(info)

    def act(self, observation: str, legal):
        print("thinking")
        return super().act(observation, legal)

    def close(self) -> None:
        print("bye")


def test_what_an_agent_prints_goes_to_stderr_never_into_the_games_output(capsys) -> None:
    """An agent's print() once went to the referee's stdout, into the protocol's lines and
    ``--json`` output a program reads; it goes to stderr."""
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    agent = load_agent("tests.test_agents:Chatty")
    bots = {"mafia": AgentBot("mafia", agent), "fbi": AgentBot("fbi", Last())}
    match = Match(Protocol(session, json_mode=True), bots, None, max_moves=6)
    for chunk in match.run():  # (it closes the bots at its end)
        print(chunk, end="")
    out, err = capsys.readouterr()
    assert err.split() == ["made", "new", "game"] + ["thinking"] * len(agent.seen) + ["bye"] and agent.seen
    assert out and "thinking" not in out and "made" not in out and "bye" not in out


class _Full:
    """A stderr on a full disk (``2>/dev/full``): every write refused."""

    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")

    def flush(self) -> None:
        raise OSError(28, "No space left on device")


def test_a_stderr_that_refuses_what_an_agent_prints_is_not_the_agents_failure(monkeypatch) -> None:
    """Refused, an agent's print() was its exception: a forfeit in every game it printed in, a
    tournament's results changed by where stderr went. The agent plays on; its words are lost."""
    monkeypatch.setattr(sys, "stderr", _Full())
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=2)
    agent = load_agent("tests.test_agents:Chatty")
    bots = {"mafia": AgentBot("mafia", agent), "fbi": AgentBot("fbi", Last())}
    Match(Protocol(session), bots, None, max_moves=6).play()
    assert agent.seen and not [e for e in session.entries if "forfeit" in e.get("note", {})]
    assert len(session.moves) == 6


def test_a_bot_and_an_agent_are_told_when_another_seats_bot_failed_in_its_place() -> None:
    """A Magic Maze seat whose bot failed goes idle with no input to tell it (a turn game plays
    its give-up input, told as its move): the other bots were not told, and in Hidden Roles an
    idle seat looks like a saboteur. They are told as a seat's session is (``forfeit: SEAT: its
    bot failed``; the host why), where it happened; and a replay tells the same."""
    session = Session(registry.get("magic-maze"), "1", seed=3, options={"players": 3})
    moving = [(s, next(m for m in session.state.legal_inputs(s) if m.startswith("move "))) for s in ("p1", "p3")]
    session.submit(*moving[0])
    session.note({"seat": "p2", "forfeit": "no answer within 1 s"})
    session.submit(*moving[1])
    told = [line for line in session.told("p1")[0] if not line.startswith("event: ")]
    assert told == ["forfeit: p2: its bot failed", f"move: p3 {moving[1][1]}", "time: 2"]  # (the clock, last)
    assert "forfeit: p2: no answer within 1 s" in session.told(HOST)[0]
    assert not any(line.startswith("forfeit: ") for line in session.told("p2")[0])
    again = tr.replayed(tr.parse(tr.dump(session)))
    assert again.told("p1") == session.told("p1") and again.told(HOST) == session.told(HOST)
    _, since = session.told("p1")
    assert session.told("p1", since)[0] == ["time: 2"]  # each told once; the clock every time
    session.advance_to(session.state.next_deadline() or 10**6)  # the sand runs out: the game is over
    assert session.over and not any(line.startswith("time: ") for line in session.told("p1", since)[0])


def test_a_real_time_bot_and_agent_are_told_the_clock() -> None:
    """Nothing a Magic Maze bot was told carried the clock (only a flip's event says the sand
    left): it could not judge when to flip or how long a vote stays open, which a person (``time``)
    and the built-in planner can. A bot's go and an agent's observation say it (``time: S``)."""
    from types import SimpleNamespace

    from arbiter.engine.programs import ProcessBot

    session = Session(registry.get("magic-maze"), "1", seed=3, options={"players": 2})
    session.advance_to(12_500)
    block = ProcessBot._block(SimpleNamespace(seat="p1", _told=(0, 0, 0), _set_up=False), session)  # (its first go)
    assert "time: 12.5" in block and block[-1] == "go p1 any" and block.index("time: 12.5") < len(block) - 1
    assert "time: 12.5" in observation(session, "p1").splitlines()
    turns = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)  # a turn game has no clock to tell
    assert not any(line.startswith("time: ") for line in observation(turns, "fbi").splitlines())

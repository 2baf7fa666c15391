"""A ``py:`` agent's time limit (``engine.agents``, ``AgentBot``'s ``timeout``; ``--bot-timeout``;
``engine.deadline``): an agent still in its call when the time is up has ``TimeUp`` raised in its
code, whether it computes or waits, and forfeits, whatever it answers then; the referee's own
code is never interrupted, and nothing of the limit is left behind after the call, on Linux's
timer and on the watch thread used where there is none.

The slow agents (``tests.agents_for_tests``) end by themselves after ``SLOW_S`` (5 s): a referee
that did not stop them would fail these tests, not hang them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from arbiter.engine import registry
from arbiter.engine import deadline, threadtimer
from arbiter.engine.agents import AgentBot
from arbiter.engine.deadline import SIGNAL, TimeUp, _time_up
from arbiter.engine.arena.stats import forfeit_kind
from arbiter.engine.bots import BotFailure, make_bot
from arbiter.engine.session import Session
from tests.agents_for_tests import SLOW_S, Last, SlowClose, Sleeps, Spins, Stubborn
from tests.helpers import run

pytestmark = pytest.mark.skipif(SIGNAL is None or not hasattr(signal, "pthread_kill"),
                                reason="no signal to time an agent with on this system")


@pytest.fixture(params=["timer", "thread"])
def way(request, monkeypatch) -> str:
    """Each test on both ways of keeping the time: Linux's timer, and the watch thread."""
    if request.param == "thread":
        monkeypatch.setattr(deadline, "_timer", lambda: None)
    elif deadline._timer() is None:
        pytest.skip("no POSIX timer on this system")
    return request.param


def fbi() -> Session:
    return Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)


@pytest.mark.parametrize("agent", [Spins, Sleeps, Stubborn], ids=["computes", "waits", "catches-it"])
def test_an_agent_past_its_time_forfeits_saying_so(agent, way) -> None:
    bot = AgentBot("mafia", agent(), "m:Slow", timeout=0.2)
    start = time.monotonic()
    with pytest.raises(BotFailure) as failure:
        bot.choose(fbi())
    assert str(failure.value) == "the agent m:Slow gave no answer within 0.2 s"
    assert time.monotonic() - start < SLOW_S  # (stopped, not waited for)
    assert forfeit_kind(str(failure.value)) == "timeout"


def test_an_agent_that_catches_the_time_up_meets_it_again_and_its_late_answer_is_not_taken(way) -> None:
    agent = Stubborn()
    with pytest.raises(BotFailure, match="gave no answer within 0.1 s"):
        AgentBot("mafia", agent, timeout=0.1).choose(fbi())
    assert agent.caught == ["TimeUp", "TimeUp"]


def test_an_agent_in_time_plays_and_the_limit_leaves_nothing_behind(way) -> None:
    threads = threading.active_count()
    session = fbi()
    bot = AgentBot("mafia", Last(), timeout=5)
    assert bot.choose(session) == session.choices("mafia").legal[-1]
    bot.close()
    assert threading.active_count() == threads  # the watch thread is gone (a bot started now may
    # ask Linux to end it with the referee: only while the referee has one thread, engine.programs)
    assert signal.getsignal(SIGNAL) is _time_up
    os.kill(os.getpid(), SIGNAL)  # the signal outside an agent's code does nothing
    assert bot.choose(session) == session.choices("mafia").legal[-1]


def test_the_time_up_is_raised_in_the_agents_code_only_while_a_limit_runs() -> None:
    """Only in code called under ``run``, and only while a limit runs: a signal left over from
    a limit that ended (or an agent's own SIGUSR2) raises nothing in later agent code."""
    here = sys._getframe()

    def agent() -> None:
        def deeper() -> None:
            _time_up(SIGNAL, sys._getframe())  # as if the signal found the agent here

        deeper()

    def frame() -> object:
        return sys._getframe().f_back.f_back  # run's own frame (under it, _called's): the call begun or returned

    with deadline.limited(60) as flag:
        assert _time_up(SIGNAL, here) is None  # the referee's frame
        assert _time_up(SIGNAL, None) is None
        with pytest.raises(TimeUp):
            deadline.run(agent)
        assert _time_up(SIGNAL, deadline.run(frame)) is None
    assert flag == [True]  # (each signal marks the time as run out)
    deadline.run(agent)  # no limit runs: nothing raised


def test_a_close_past_its_time_ends_quietly(way) -> None:
    bot = AgentBot("mafia", SlowClose(), timeout=0.1)
    bot.choose(fbi())
    start = time.monotonic()
    bot.close()
    assert time.monotonic() - start < SLOW_S


def test_without_a_timeout_or_outside_the_main_thread_an_agent_is_untimed() -> None:
    session = fbi()
    assert AgentBot("mafia", Last()).timeout is None
    done: list[object] = []

    class Naps(Last):
        def act(self, observation, legal):
            time.sleep(0.3)
            return super().act(observation, legal)

    def play() -> None:
        try:
            done.append(AgentBot("mafia", Naps(), timeout=0.05).choose(session))
        except BotFailure as exc:
            done.append(exc)

    worker = threading.Thread(target=play)
    worker.start()
    worker.join()
    assert done == [session.choices("mafia").legal[-1]]


def test_make_bot_gives_an_agent_the_bots_time() -> None:
    bot = make_bot("py:tests.agents_for_tests:Last", "mafia", 1, 2.5)
    assert isinstance(bot, AgentBot) and bot.timeout == 2.5


def test_play_forfeits_an_agent_past_bot_timeout_and_the_transcript_replays(tmp_path) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 2, "--bot", "mafia=py:tests.agents_for_tests:Sleeps",
            "--bot", "fbi=random", "--bot-timeout", "0.2", "--max-moves", "4", "--transcript", t)
    assert r.exit_code == 0, r.output
    assert "forfeit: mafia: the agent tests.agents_for_tests:Sleeps gave no answer within 0.2 s" in r.output
    assert run("replay", t).exit_code == 0


def test_a_tournament_worker_holds_its_agents_to_the_bot_timeout(tmp_path) -> None:
    """A worker runs its games in its main thread: the limit holds there, a timeout forfeit."""
    from arbiter.engine.arena.entrants import Entrant
    from tests.arena_staging import play

    entrants = [Entrant("slow", "py:tests.agents_for_tests:Sleeps"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=2, bot_timeout=0.2, max_moves=4)
    assert len(records) == 2 and all(r["finished"] for r in records)
    assert [(f["entrant"], f["kind"], f["reason"]) for r in records for f in r["forfeits"]] == \
        [("slow", "timeout", "the agent tests.agents_for_tests:Sleeps gave no answer within 0.2 s")] * 2


def test_a_limit_inside_a_limited_call_leaves_the_outer_one_kept(way) -> None:
    """An agent that holds code of its own to a time (an AgentBot inside an agent) cannot
    stop or reset the referee's limit on it: the inner limit is not kept, the outer one is."""
    with deadline.limited(0.2) as outer:
        with pytest.raises(TimeUp):
            def agent() -> None:
                with deadline.limited(60) as inner:  # (its end would have disarmed the outer timer)
                    deadline.run(lambda: None)
                assert inner == [False]
                time.sleep(SLOW_S)

            deadline.run(agent)
    assert outer == [True]


def test_a_limit_whose_start_is_interrupted_leaves_no_limit_behind(way, monkeypatch) -> None:
    """A Ctrl-C (or a worker's stop, any signal's exception) that came just as a limit started its
    time, before the block began, left the limit running: every later limit in the process was
    untimed (an agent past its time played on), and the time-up of the lost one came later, in
    code of no limit's. The limit that could not start ends itself."""
    started = []
    if way == "timer":
        arm = threadtimer.MainThreadTimer.arm

        def interrupted(self, seconds):
            started.append(arm(self, seconds))
            raise KeyboardInterrupt
        monkeypatch.setattr(threadtimer.MainThreadTimer, "arm", interrupted)
    else:
        start = threading.Thread.start

        def interrupted(self):
            start(self)
            if self.name == "arbiter-deadline":
                started.append(True)
                raise KeyboardInterrupt
        monkeypatch.setattr(threading.Thread, "start", interrupted)
    threads = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        with deadline.limited(SLOW_S):
            pytest.fail("the block ran")
    assert started == [True]
    monkeypatch.undo()
    assert threading.active_count() == threads
    with deadline.limited(0.05) as expired:
        with pytest.raises(TimeUp):
            deadline.run(time.sleep, 1)
    assert expired == [True]


@pytest.mark.parametrize("timeout,error", [
    (float("nan"), ValueError), (float("inf"), ValueError), (0, ValueError), (-1, ValueError), (1e30, ValueError),
    ("5", TypeError), (True, TypeError),
])
def test_a_timeout_that_is_no_time_is_refused_as_the_bot_is_made_not_blamed_on_the_agent(timeout, error) -> None:
    """``AgentBot``'s ``timeout`` (the library's, docs/api.md) is seconds from 0.01 to 3600, as
    ``--bot-timeout``'s: NaN, infinity, a text were each the agent's forfeit at its first call
    ("the agent Last raised OverflowError: cannot convert float infinity to integer"), 0 or
    less a forfeit for time at once, and ``True`` a second."""
    with pytest.raises(error, match=r"^timeout: expected None or seconds from 0\.01 to 3600, not "):
        AgentBot("mafia", Last(), timeout=timeout)
    assert AgentBot("mafia", Last(), timeout=3600).timeout == 3600


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="no signal masks on this system")
def test_an_agent_is_timed_where_the_referee_started_with_the_signal_blocked(way) -> None:
    """A process starts with the signal mask of the thread that started it: a referee started by
    a program that blocks SIGUSR2 (in a thread that hands signals to another, say) never took
    the time-up, and an agent past its time played on, its late answer taken, or held the game
    for ever. The limit unblocks its signal."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {SIGNAL})
    try:
        with pytest.raises(BotFailure, match="gave no answer within 0.1 s"):
            AgentBot("mafia", Sleeps(), timeout=0.1).choose(fbi())
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def test_an_agent_that_blocks_the_time_up_still_forfeits_for_its_late_answer(way) -> None:
    """The signal cannot end an agent that blocks it (or a long call into C code): its answer,
    late, is not taken all the same (the clock, read as the call ends)."""

    class Blocks(Last):
        def act(self, observation, legal):
            signal.pthread_sigmask(signal.SIG_BLOCK, (SIGNAL,))
            time.sleep(0.4)
            return super().act(observation, legal)

    try:
        with pytest.raises(BotFailure, match="^the agent Blocks gave no answer within 0.1 s$"):
            AgentBot("mafia", Blocks(), timeout=0.1).choose(fbi())
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, (SIGNAL,))


def test_the_timer_is_loaded_at_the_first_limit_not_at_start_up() -> None:
    """The timer's ``ctypes`` (about 2 ms of a command's start-up) is loaded at the first limit:
    ``arbiter play`` imports the agents' module for every game, agents or not, and a game
    between built-in bots or programs loaded ``ctypes`` for nothing."""
    code = ("import sys\nfrom arbiter.engine import agents, deadline\nprint('ctypes' in sys.modules)\n"
            "with deadline.limited(5):\n    deadline.run(len, 'x')\nprint('ctypes' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", str(sys.platform.startswith("linux"))], out.stderr


def test_a_python_without_ctypes_keeps_the_limit_with_a_thread() -> None:
    """The timer is imported at the first limit, inside the agent's call: a Python built without
    ``ctypes`` (no libffi) raised its ``ImportError`` there, and the agent forfeited for
    "raising" it; the limit is kept by a thread, as on a system without the timer."""
    code = ("import sys, time\nsys.modules['arbiter.engine.threadtimer'] = None  # (import fails)\n"
            "from arbiter.engine import deadline\n"
            "try:\n    with deadline.limited(0.05) as flag:\n        deadline.run(time.sleep, 5)\n"
            "except deadline.TimeUp:\n    print('time up', flag[0], deadline._the_timer)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert (out.returncode, out.stdout) == (0, "time up True False\n"), out.stderr

"""Where games are played at once: local worker processes, or Ray on a cluster.

Both pools take scheduled games (``submit``) and hand back ``(game, record)`` pairs as games
end (``done``); each worker plays one game at a time with an ``engine.arena.runner.Worker``,
so a bot process never serves two games at once, and keeps its idle bots between games
(``--reuse``).

- ``LocalPool``: ``W`` processes of the ``spawn`` context (``concurrent.futures``). A worker
  ignores Ctrl-C from its first instant (the main process decides what to stop), ends its
  game's bots when it is told to stop (SIGTERM) and then plays no other game (an idle one ends
  at once, without a word), and dies with the main process even when that is killed outright
  (Linux's parent-death signal), so no worker of a killed run goes on writing a transcript
  that a resumed run is replaying. A stop that comes while the worker starts a bot's process
  waits until that process has started (an exit raised inside Python's fork hooks is printed
  as "Exception ignored" and lost).
- ``RayPool``: ``W`` Ray actors (one CPU each) on an existing cluster (``address``: an address
  or ``auto``) or on a local instance started for the run (``local``). An address is checked
  before Ray is asked (``ray_endpoint``: its form; then that a gRPC server answers there within
  ``RAY_REACH_S``): Ray itself waits many minutes for an address where nothing answers, and for
  ever on another program's port. Workers write each game's files to a temporary folder and
  return them, and the main process writes them, so the tournament's folder need not be shared
  with the cluster and the files are the same as local workers'. ``ray`` is imported here only,
  when a Ray pool is made.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from concurrent.futures import wait as wait_futures
from contextlib import contextmanager
from multiprocessing import get_context
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import arbiter
from arbiter.engine import agents
from arbiter.engine.arena.results import write_error
from arbiter.engine.arena.runner import Settings, Worker
from arbiter.engine.arena.schedule import Game
from arbiter.engine.arena.scratch import Scratch
from arbiter.engine.programs import ProcessBot
from arbiter.engine.errors import COMMAND_CHARS, ArbiterError, quoted
from arbiter.engine import orphans
from arbiter.engine.orphans import die_with_parent

STOP_GRACE_S = 5.0
"""Seconds a local worker told to stop (SIGTERM) has to end its game and its bots before it is
killed outright (SIGKILL; Linux then ends its bots' processes, ``engine.programs``)."""

_worker: Worker | None = None
_directory: Path | None = None


_stopping = False
"""This worker was told to stop (SIGTERM): it plays no other game."""

_playing = False
"""This worker is playing a game (``_play``), which a stop unwinds; otherwise it is idle."""

STOP_RETRY_S = 0.005
"""Seconds after which a stop that came while the worker was starting a process is tried again."""

_STARTING = {subprocess.Popen.__init__.__code__, ProcessBot.__init__.__code__}


def _starting_a_process(frame: FrameType | None) -> bool:
    """Whether ``frame`` (where a signal came) is inside the start of a process (a bot): an
    exception raised there is lost in Python's fork hooks (``os.register_at_fork``: logging's,
    say), which print it as "Exception ignored" and go on, or leaves a started bot without the
    handle that ends it."""
    while frame is not None:
        if frame.f_code in _STARTING:
            return True
        frame = frame.f_back
    return False


class WorkerFailed(ArbiterError):
    """A worker (a local process, a Ray actor) failed, not a bot (a bot's failure is its seat's
    forfeit): its game has no record; the games recorded before stay, and ``--resume`` plays
    the rest. ``killed``: the worker was ended from outside (a signal, the out-of-memory
    killer), which a resume need not meet again; else the game's own failure, which it will
    until what failed is mended."""

    def __init__(self, message: str, killed: bool = False) -> None:
        super().__init__(message)
        self.killed = killed


def _stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM (and SIGALRM, its retry): end the game at once, its bots closed on the way out;
    when the signal came as a process starts, a moment later (``STOP_RETRY_S``), once it has.
    Once: a second SIGTERM while the game unwinds (the run's own cancel after a stop that
    reached its whole process group) would raise out of a bot's close before it ended the bot's
    process group, and leave the bot's children running; so would the retry, were the stop
    already raised by an agent's call that ended meanwhile (``agents.stop_raised``).

    An idle worker (between games: waiting for the next at the executor's queue, or handing
    one back) has no game to unwind and ends at once, its idle bots closed, without raising:
    an exit raised while it was reading a game from the queue that all workers share let go of
    the queue's lock in the middle of that game's bytes, and the next worker to read took the
    rest for a new game's length and printed a traceback ("EOFError: Ran out of input") as a
    stopped run ended. Ended at once, it keeps the lock, and the others wait for their own stop."""
    global _stopping
    if signum == signal.SIGALRM and (not _stopping or agents.stop_raised):  # (raised by an agent's call meanwhile)
        return
    if not _playing:
        _end_idle()
    if signum == signal.SIGTERM and _stopping:
        return
    _stopping = agents.stopping = True  # (the SystemExit below, raised while an agent plays, is not the agent's)
    if _starting_a_process(frame):
        signal.setitimer(signal.ITIMER_REAL, STOP_RETRY_S)
        return
    raise SystemExit(128 + signal.SIGTERM)


def _tracker_deaf_to_hangup() -> None:
    """Start multiprocessing's resource tracker (a process of its own, with which the pool's
    locks are registered) deaf to SIGHUP, if it is not running yet: the terminal closing sends
    SIGHUP to the whole job, which stops the run as Ctrl-C does; the tracker, which ignores only
    SIGINT and SIGTERM, died of it, and the one started in its place printed a traceback for each
    lock it had never seen ("KeyError: '/mp-...'"). SIGHUP is held back meanwhile, not ignored:
    the tracker starts with it blocked, for good, and one that came here is delivered after."""
    if not hasattr(signal, "SIGHUP") or not hasattr(signal, "pthread_sigmask"):
        return
    from multiprocessing import resource_tracker

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGHUP})
    try:
        resource_tracker.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Ctrl-C held back from the calling (main) thread, not lost: a process starts with the
    signal mask of the thread that starts it, so a worker started meanwhile cannot be stopped
    by a Ctrl-C before it ignores Ctrl-C itself (``_start_worker``; it once printed a traceback
    from the middle of its start-up). A Ctrl-C that came meanwhile reaches this process as soon
    as the block ends."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _stop_when_told() -> None:
    """From now on SIGTERM stops this worker's game (``_stop``). Set as the last step of its
    start-up: an exit raised by ``_stop`` in the middle of it was logged by the executor as a
    traceback ("Exception in initializer")."""
    signal.signal(signal.SIGALRM, _stop)
    signal.signal(signal.SIGTERM, _stop)


def _start_worker(settings: Settings, directory: str, parent: int) -> None:
    global _worker, _directory
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # a Ctrl-C held since the start (_ctrl_c_held) is dropped
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if settings.cwd and os.path.isdir(settings.cwd):
        os.chdir(settings.cwd)
    _worker = Worker(settings)
    _directory = Path(directory)
    _stop_when_told()  # last: until here SIGTERM ends the worker outright (it has nothing to unwind)


def _end_idle() -> NoReturn:
    """End a stopped worker that plays no game: its idle bots (``--reuse``) closed, then the
    process, at once (``os._exit``: nothing to unwind, and the queue's lock kept if it holds it)."""
    if _worker is not None:
        _worker.close()
    os._exit(128 + signal.SIGTERM)


def _play(game: Game) -> dict[str, Any]:
    global _playing
    assert _worker is not None
    if _stopping:  # the executor took the stopped game's exit for its failure and hands on the next
        _end_idle()  # no other game: its bots would be killed with the worker
    _playing = True
    try:
        return _worker.play(game, _directory)
    finally:
        _playing = False


def worker_count(workers: int, games: int | None) -> int:
    """The workers a pool of ``workers`` starts for a tournament of ``games`` games (None: no
    limit): no more than its games, local processes or Ray actors alike, since more would never
    play one. ``--workers 9223372036854775808`` ended in a traceback (a semaphore's count is a C
    int), ``--workers 100000`` started a process for each game of a short run, and with ``--ray
    local`` asked Ray for that many CPUs and made an actor for each.

    >>> worker_count(4, 2), worker_count(2**63, 3), worker_count(3, None)
    (2, 3, 3)
    """
    return workers if games is None else max(1, min(workers, games))


class LocalPool:
    """``workers`` local processes (``worker_count`` of them for a tournament: see the command)."""

    _stopped: tuple[Any, ...] = ()
    """The worker processes a cancel told to stop (``close``)."""
    _failure: ArbiterError | None = None
    """A game's failure that ended with games that ended well, in one look (``done``): raised
    at the next call, after those were handed back to be recorded."""

    def __init__(self, settings: Settings, workers: int, directory: Path) -> None:
        self.workers = workers
        self._agents = {name for name, spec in settings.entrants.items() if spec.strip().startswith("py:")}
        _tracker_deaf_to_hangup()
        self._executor = ProcessPoolExecutor(
            max_workers=workers, mp_context=get_context("spawn"), initializer=_start_worker,
            initargs=(settings, str(directory.resolve()), os.getpid()))
        self._running: dict[Future[dict[str, Any]], Game] = {}

    def submit(self, game: Game) -> None:
        self._raise_failure()  # (no game starts once one failed)
        try:
            with _ctrl_c_held():  # the executor may start a worker here
                future = self._executor.submit(_play, game)
        except BrokenProcessPool as exc:  # a worker died before (killed from outside): the executor knows it now
            raise WorkerFailed(f"a worker ended abruptly before game {game.index} began ({str(exc).rstrip('.')}): "
                               "killed from outside the run?", killed=True) from None
        self._running[future] = game

    @property
    def busy(self) -> int:
        return len(self._running) + (self._failure is not None)

    def done(self, timeout: float | None) -> list[tuple[Game, dict[str, Any]]]:
        """Games that ended (waiting up to ``timeout`` s for one). A worker's failure (not a
        bot's: those are forfeits) raises ``ArbiterError``; if games ended well in the same
        look, it is raised at the next call (``submit`` or ``done``), once they are handed back:
        raised at once, their records were lost with it (a main process slow to look, on a
        busy machine, saw a game end and the next one its worker played fail together)."""
        self._raise_failure()
        finished, _ = wait_futures(list(self._running), timeout=timeout, return_when=FIRST_COMPLETED)
        out = []
        # in schedule order: ``finished`` is a set, whose order is its futures' hashes (their
        # addresses); two games one worker ended before this looked went to results.jsonl either way
        for future in sorted(finished, key=lambda f: self._running[f].index):
            game = self._running.pop(future)
            try:
                out.append((game, self._result(game, future)))
            except ArbiterError as exc:
                self._failure = self._failure or exc
        if not out:
            self._raise_failure()
        return out

    def _raise_failure(self) -> None:
        failure = self.held_failure()
        if failure is not None:
            raise failure

    def held_failure(self) -> ArbiterError | None:
        """The failure ``done`` holds until its games that ended well are recorded (and no longer
        held): a run stopped as it records them (Ctrl-C, a write the system refused) says it too,
        or it was never said."""
        failure, self._failure = self._failure, None
        return failure

    def _result(self, game: Game, future: Future[dict[str, Any]]) -> dict[str, Any]:
        """The record ``future`` holds of ``game``; or its worker's failure, said as ``done`` says it."""
        try:
            return future.result()
        except OSError as exc:  # a write the system refused it (a game's transcript): the file, why, how to go on
            if exc.filename and Path(exc.filename).parent.name == "transcripts":
                raise write_error(Path(exc.filename), exc) from None
            raise WorkerFailed(f"game {game.index} failed in its worker: {type(exc).__name__}: {exc}") from exc
        except SystemExit:  # the worker's stop (``_stop``), raised in its game and handed back:
            # a SIGTERM from outside the run (this run stops its workers only as it ends)
            raise WorkerFailed(f"game {game.index} was stopped: its worker was sent SIGTERM from outside "
                               "the run", killed=True) from None
        except Exception as exc:  # noqa: BLE001 - the referee's own failure, reported whole
            # (or a py: entrant's, which runs in the worker: one that ends its process, os._exit, say)
            py = sorted(self._agents & set(game.entrants))
            raise WorkerFailed(f"game {game.index} failed in its worker: {type(exc).__name__}: "
                               f"{str(exc).rstrip('.')}" + (f" (its py: entrants, which run in the worker: "
                                                            f"{', '.join(py)})" if py else ""),
                               killed=isinstance(exc, BrokenProcessPool) and not py) from exc

    def drop_waiting(self) -> None:
        """Drop the games submitted that no worker has taken yet (the games running go on). Not
        all of them: the executor moves a game to its workers' queue, where it can no longer be
        cancelled, ahead of time (a game or so a worker), and those are played and recorded."""
        for future in list(self._running):
            if future.cancel():
                del self._running[future]

    def close(self, cancel: bool = False) -> None:
        """Wait for the games running (or with ``cancel``, stop them and drop those not started)."""
        if cancel:
            # (kept: a second cancel, after a Ctrl-C cut the first one's wait short, waits for the same
            # processes, which the executor no longer lists once shut down)
            self._stopped = self._stopped or tuple((getattr(self._executor, "_processes", None) or {}).values())
            processes = self._stopped
            self._executor.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                try:
                    p.terminate()  # SIGTERM: the worker unwinds its game and ends its bots
                except (OSError, ValueError):
                    pass
            for p in processes:
                p.join(STOP_GRACE_S)
                if p.is_alive():
                    p.kill()
            self._running.clear()
        else:
            self._executor.shutdown(wait=True)


def source_root() -> str:
    """The folder this arbiter's packages are imported from (Ray's local workers need it)."""
    return str(Path(arbiter.__file__).resolve().parents[1])


RAY_REACH_S = 3.0
"""Seconds a Ray cluster's address has to connect, and then to answer as a gRPC server does,
before it is refused."""

RAY_ADDRESSES = ("HOST:PORT (the cluster's head, port 6379 unless it was started with another), "
                 "ray://HOST:PORT (Ray Client, port 10001 by default), auto (the cluster this machine "
                 "belongs to, or RAY_ADDRESS) or local (a new Ray instance on this machine)")


def ray_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port ``--ray address`` connects to (``HOST:PORT``, ``ray://HOST:PORT``, an
    IPv6 host in brackets), or None for ``local`` and ``auto`` (Ray finds the cluster). Any
    other text (an empty one too) is refused (``ArbiterError``) saying what is allowed.

    >>> ray_endpoint("10.0.0.5:6379"), ray_endpoint("ray://[::1]:10001"), ray_endpoint("auto")
    (('10.0.0.5', 6379), ('::1', 10001), None)
    """
    if address in ("local", "auto"):
        return None
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, _, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or any(c.isspace() or c in "/[]@" for c in host) or not (port.isascii() and port.isdigit()) \
            or not 0 < int(port) < 65536:
        raise ArbiterError(f"{quoted(address, COMMAND_CHARS)} is not a Ray address; give {RAY_ADDRESSES}")
    return host, int(port)


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes(3) + b"\x04" + bytes(5)
"""What a gRPC client sends first: HTTP/2's connection preface, then an empty SETTINGS frame.
Ray's head and its Ray Client server are gRPC servers, which answer with a SETTINGS frame of
their own; a web server, the dashboard or a database on the port does not."""


def _speaks_grpc(conn: socket.socket) -> bool:
    """Whether the server on ``conn`` answers HTTP/2's preface as a gRPC server does, within
    ``RAY_REACH_S``: with the header (9 bytes) of a SETTINGS frame (type 4) on stream 0."""
    head = b""
    try:
        conn.sendall(HTTP2_PREFACE)
        while len(head) < 9:
            chunk = conn.recv(9 - len(head))
            if not chunk:
                return False
            head += chunk
    except OSError:  # (no answer in time, or the connection reset)
        return False
    return head[3] == 4 and int.from_bytes(head[5:9], "big") & 0x7FFFFFFF == 0


def check_reachable(address: str, endpoint: tuple[str, int]) -> None:
    """Refuse (``ArbiterError``) a Ray address where nothing answers within ``RAY_REACH_S``, or
    where what answers is no gRPC server (another program's port, on which Ray would wait for
    ever). With Ray's TLS on (``RAY_USE_TLS``) only the connection is checked."""
    host, port = endpoint
    advice = (f"check that the cluster's head is running there (`ray status` on it) and that {host}:{port} "
              "is its address and port (6379 by default; ray://HOST:10001 for Ray Client), reachable from "
              "this machine")
    try:
        conn = socket.create_connection((host, port), timeout=RAY_REACH_S)
    except OSError as exc:
        why = f"no answer within {RAY_REACH_S:g} s" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise ArbiterError(f"cannot reach Ray at {address}: {why}; {advice}") from None
    with conn:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true") or _speaks_grpc(conn):
            return
    raise ArbiterError(f"{address} answers, but not as Ray does (no gRPC server there: another program's port, "
                       f"the dashboard's 8265 say); {advice}")


def connect_ray(address: str, cpus: int | None = None) -> Any:
    """Ray, connected: to ``address`` (``auto``: the cluster this machine belongs to) or to a
    new local instance (``local``, with ``cpus`` CPUs). Reuses a connection already made. An
    address is first checked (``ray_endpoint``, ``check_reachable``; with ``auto``, the one
    in ``RAY_ADDRESS`` if that is set, as Ray takes it)."""
    target, endpoint = address, ray_endpoint(address)
    if address == "auto" and os.environ.get("RAY_ADDRESS"):
        target = os.environ["RAY_ADDRESS"]
        try:
            endpoint = ray_endpoint(target)
        except ArbiterError:  # a form Ray knows and this check does not: Ray's to judge
            endpoint = None
    try:
        import ray
    except ImportError:
        raise ArbiterError("--ray needs Ray: pip install 'arbiter-referee[ray]' (or pip install ray)") from None
    except Exception as exc:  # noqa: BLE001 - an install half done, a library of it clashing (protobuf): said once
        raise ArbiterError(f"--ray: Ray cannot be imported: {type(exc).__name__}: {exc}") from None
    if not ray.is_initialized():
        if endpoint is not None:
            check_reachable(target, endpoint)
        env = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in (source_root(), os.environ.get("PYTHONPATH")) if p)}}
        try:
            with _signals_kept():
                if address == "local":  # (said to Ray: without it, a RAY_ADDRESS set sends it to that cluster)
                    ray.init(address="local", num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                             runtime_env=env, configure_logging=False)
                else:
                    ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as exc:  # noqa: BLE001 - whatever Ray says, said once
            raise ArbiterError(f"cannot connect to Ray at {quoted(address, COMMAND_CHARS)}: {type(exc).__name__}: {exc}") from None
    return ray


@contextmanager
def _signals_kept() -> Iterator[None]:
    """The handlers of SIGTERM, SIGHUP and SIGINT as they were before the block: ``ray.init``
    puts its own on SIGTERM in the process that starts it, which then died with a C++ stack
    dump (status 15) where the command stops as Ctrl-C does (status 130, the report, how to go
    on). Only the main thread may set them (elsewhere, nothing is kept)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    kept = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    try:
        yield
    finally:
        for signum, handler in kept.items():
            if handler is not None:  # (None: set outside Python; nothing to put back)
                signal.signal(signum, handler)


class _RayWorker:
    """A Ray actor: a worker whose files come back with each record."""

    def __init__(self, settings: Settings) -> None:
        if settings.cwd and os.path.isdir(settings.cwd):
            os.chdir(settings.cwd)
        orphans.watch_apart()  # Ray kills a dying actor's children: its bots' watcher must not be one
        self.scratch = Scratch()  # (a cancelled tournament kills a busy actor: see engine.arena.scratch)
        self.worker = Worker(settings, scratch=self.scratch.path)

    def play(self, game: Game) -> dict[str, Any]:
        return self.worker.play(game, None)

    def close(self) -> None:
        self.worker.close()
        self.scratch.close()


class RayPool:
    """``workers`` Ray actors (default: the cluster's CPUs), no more than ``games``
    (``worker_count``): a local instance is started with that many CPUs."""

    def __init__(self, settings: Settings, workers: int | None, address: str, games: int | None = None) -> None:
        if workers is not None:
            workers = worker_count(workers, games)
        self.ray = ray = connect_ray(address, workers)
        if workers is None:
            workers = worker_count(max(1, int(ray.cluster_resources().get("CPU", 1))), games)
        self.workers = workers
        actor = ray.remote(num_cpus=1)(_RayWorker)
        self._actors = [actor.remote(settings) for _ in range(workers)]
        self._free = list(self._actors)
        self._running: dict[Any, tuple[Any, Game]] = {}
        self._queue: list[Game] = []

    def submit(self, game: Game) -> None:
        self._queue.append(game)
        self._dispatch()

    def _dispatch(self) -> None:
        while self._free and self._queue:
            actor, game = self._free.pop(0), self._queue.pop(0)
            self._running[actor.play.remote(game)] = (actor, game)

    @property
    def busy(self) -> int:
        return len(self._running) + len(self._queue)

    def done(self, timeout: float | None) -> list[tuple[Game, dict[str, Any]]]:
        if not self._running:
            return []
        ready, _ = self.ray.wait(list(self._running), num_returns=1, timeout=timeout)
        out = []
        for ref in ready:
            actor, game = self._running.pop(ref)
            self._free.append(actor)
            try:
                out.append((game, self.ray.get(ref)))
            except Exception as exc:  # noqa: BLE001 - an actor that died (killed: Ray's ActorDiedError), or the game's own
                raise WorkerFailed(f"game {game.index} failed on Ray: {type(exc).__name__}: {str(exc).rstrip('.')}",
                                   killed=isinstance(exc, self.ray.exceptions.RayActorError)) from exc
        self._dispatch()
        return out

    def drop_waiting(self) -> None:
        """Drop the games submitted that no actor has taken yet (the games running go on)."""
        self._queue.clear()

    def held_failure(self) -> ArbiterError | None:
        """None: ``done`` raises an actor's failure at once (it hands back one game a look)."""
        return None

    def close(self, cancel: bool = False) -> None:
        self._queue.clear()
        if not cancel and self._running:
            self.ray.wait(list(self._running), num_returns=len(self._running))
        for actor in self._actors:
            try:
                if not cancel:
                    self.ray.get(actor.close.remote())
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001 - a dead actor is closed already
                pass
        self._running.clear()

"""A small tournament on a local Ray instance (started once for this module) writes exactly the
files local workers write: the same records (but for the time each game took), the same
transcripts and the same stderr logs of its exec entrant, byte for byte (CRLF line ends, a lone
carriage return, bytes that are not UTF-8); and a Ray pool cancelled (Ctrl-C, a failure) stops
the game it is running rather than wait for it. One test with Ray, so that the suite starts Ray
once (its workers would each start their own).

And, with no Ray started: the files a worker returns are written byte for byte; ``--ray`` takes
only the addresses Ray connects to (an empty one is no longer a silent local run), an address
where nothing answers, or another program does, is refused at once (Ray itself waited minutes,
or for ever), and a Ray pool that cannot start leaves no folder behind."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import types
from pathlib import Path

import pytest

from arbiter.engine.arena import pool as pool_module
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import RayPool, connect_ray, ray_endpoint, source_root
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.scratch import LOCK, PREFIX, sweep
from arbiter.engine.arena.tournament import Tournament, configuration
from arbiter.engine.errors import ArbiterError

from tests.helpers import REPO, run
from tests.hostile import group_members, kill_group, pid_named_in, within
from tests.arena_staging import STDERR_BYTES, noisy_bot, play, stuck_tournament, transcripts, without_time



@pytest.fixture(scope="module")
def ray():
    pytest.importorskip("ray", reason="Ray is not installed: the test extra leaves it out on Pythons it has "
                                      "no wheels for (3.15 and later)")
    r = connect_ray("local", cpus=2)
    yield r
    r.shutdown()


def test_ray_writes_the_files_local_workers_write_and_stops_a_game_when_cancelled(tmp_path, ray):
    # the local instance is ours, made with the runtime environment that puts this tree first
    env_vars = ray.get_runtime_context().runtime_env.get("env_vars", {})
    assert env_vars.get("PYTHONPATH", "").split(os.pathsep)[0] == source_root()
    entrants = [Entrant("rnd", "random"), Entrant("sleuth", "sleuth"), Entrant("noisy", f"exec:{noisy_bot(tmp_path)}")]
    _, local = play(tmp_path / "local", 1, entrants=entrants, games=3)
    config = configuration("mafia", entrants, 3, players=6, cwd=str(tmp_path))
    folder = Folder.create(tmp_path / "ray", config)
    t = Tournament({"format": 2, **config})
    outcome = t.run(folder, RayPool(t.settings, 2, "local"))
    folder.unlock()
    assert len(local) == 3 and without_time(outcome.records) == without_time(local)
    assert transcripts(tmp_path / "ray") == transcripts(tmp_path / "local")
    logs = [data for name, data in transcripts(tmp_path / "ray").items() if name.endswith(".stderr.log")]
    assert logs and all(data.startswith(STDERR_BYTES) for data in logs)  # byte for byte, not as text
    assert (tmp_path / "ray" / "results.jsonl").read_text().count("\n") == 3
    # cancelled while a bot is stuck (a time-out of two minutes): the pool neither waits for the
    # game nor asks the busy actor to close; it kills the actor, and the bot, which reads nothing,
    # ends with it (Ray ends a dead worker's children; the actor's watcher, ``engine.orphans``,
    # ends its bots' groups: an actor has threads, so they get no parent-death signal)
    t, game, named = stuck_tournament(tmp_path)
    made_before = set(_scratch_folders())
    pool = RayPool(t.settings, 1, "local")
    pool.submit(game)
    bot = pid_named_in(named)  # (its actor has made its scratch folder by now)
    try:
        within(30, pool.close, True)
        assert pool.busy == 0
        assert within(30, _ended, bot), "the killed actor's stuck bot ran on"
    finally:
        kill_group(bot)
    # the killed actor never closed its scratch folder (an exit outright also left the game's
    # own folder in it): it is left, its lock free once the actor is gone, and the next worker
    # made on this machine (``sweep``, as ``Scratch`` does first) removes it
    killed = [p for p in _scratch_folders() if p not in made_before]
    assert len(killed) == 1 and within(30, _freed, killed[0])
    sweep()
    assert not killed[0].exists()


def _ended(group: int) -> bool:
    """Whether nothing of process group ``group`` runs (waited for: an actor dies after ``kill``)."""
    import time

    while any(state != "Z" for _, state, _ in group_members(group)):
        time.sleep(0.05)
    return True


def _scratch_folders() -> list[Path]:
    return sorted(Path(tempfile.gettempdir()).glob(PREFIX + "*"))


def _freed(folder: Path) -> bool:
    """Whether the lock of a scratch folder is let go (waited for: an actor dies after ``kill``)."""
    import fcntl
    import time

    fd = os.open(folder / LOCK, os.O_RDONLY)
    try:
        for _ in range(300):
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                time.sleep(0.1)
        return False
    finally:
        os.close(fd)


MATCH = ("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "2")


def test_a_worker_without_the_folder_returns_its_files_byte_for_byte(tmp_path):
    """A Ray worker returns its game's files for the main process to write; they went as text
    (read with errors replaced and universal newlines), so an exec bot's stderr log with CRLF
    line ends, bytes that are not UTF-8 or a lone carriage return differed from the one a local
    worker writes. Both paths of one game, without Ray: the same bytes in every file."""
    from arbiter.engine.arena.runner import Worker

    entrants = [Entrant("noisy", f"exec:{noisy_bot(tmp_path)}"), Entrant("rnd", "random")]
    config = configuration("mafia", entrants, 2, players=6, cwd=str(tmp_path))
    t = Tournament({"format": 2, **config})
    (game, *_) = t.games
    local = Folder.create(tmp_path / "local", config)
    returned = Folder.create(tmp_path / "returned", config)
    try:
        Worker(t.settings).play(game, local.path)
        record = Worker(t.settings).play(game, None)
        returned.write_files(record["files"])
    finally:
        local.unlock()
        returned.unlock()
    files = transcripts(tmp_path / "local")
    logs = [name for name in files if name.endswith(".stderr.log")]
    assert logs and all(files[name].startswith(STDERR_BYTES) for name in logs)
    assert transcripts(tmp_path / "returned") == files


def test_ray_takes_only_the_addresses_ray_connects_to(tmp_path):
    """``--ray ""`` once played the games locally without a word; text that is no address is
    refused as a usage error, before anything is made."""
    assert ray_endpoint("127.0.0.1:6379") == ("127.0.0.1", 6379)
    assert ray_endpoint("ray://head.example:10001") == ("head.example", 10001)
    assert ray_endpoint("[::1]:6379") == ("::1", 6379)
    assert ray_endpoint("local") is None and ray_endpoint("auto") is None
    for bad in ("", " ", "head", "head:", ":6379", "head:0", "head:65536", "head:63x", "http://head:1",
                "ray://", "ray://head:1/x", "head name:1"):
        r = run(*MATCH, "--out", tmp_path / "t", "--ray", bad)
        assert r.exit_code == 2, (bad, r.output)
        assert f"Invalid value for '--ray': {bad!r} is not a Ray address; give HOST:PORT" in r.output, r.output
        assert not (tmp_path / "t").exists()


@pytest.fixture
def closed_port():
    """A port of this machine where a connection is refused: bound, so no other process takes
    it meanwhile, but not listening."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


@pytest.fixture
def ray_never_asked(monkeypatch):
    """Ray as ``connect_ray`` imports it, failing the test if it is asked to connect (the real
    one, given an address where nothing answers, waits many minutes)."""
    def init(**kw):
        raise AssertionError(f"Ray was asked to connect: {kw}")

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(is_initialized=lambda: False, init=init))


def test_an_address_where_nothing_answers_is_refused_at_once_and_nothing_is_made(tmp_path, closed_port,
                                                                                   ray_never_asked, monkeypatch):
    """Ray waited more than ten minutes for an address where nothing answers (then took half a
    minute to let Ctrl-C through), the tournament's folder made meanwhile."""
    address = f"127.0.0.1:{closed_port}"
    r = run(*MATCH, "--out", tmp_path / "t", "--ray", address)
    assert r.exit_code == 1, r.output
    assert f"Error: cannot reach Ray at {address}: " in r.output, r.output
    assert "check that the cluster's head is running there" in r.output
    assert not (tmp_path / "t").exists()
    monkeypatch.setenv("RAY_ADDRESS", address)  # where auto goes, when it is set
    r = run(*MATCH, "--out", tmp_path / "t", "--ray", "auto")
    assert r.exit_code == 1 and f"cannot reach Ray at {address}: " in r.output, r.output
    assert not (tmp_path / "t").exists()


@pytest.fixture
def server():
    """A listening port of this machine whose connections get ``answer`` once their first bytes
    come (``b""``: the connection closed; None: nothing at all): its port, for each answer asked."""
    listeners: list[socket.socket] = []

    def serve(answer: bytes | None) -> int:
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listeners.append(listener)

        def loop() -> None:
            while True:
                try:
                    conn, _ = listener.accept()
                except OSError:  # closed at the test's end
                    return
                listeners.append(conn)
                conn.recv(64)
                if answer == b"":
                    conn.close()
                elif answer is not None:
                    conn.sendall(answer)

        threading.Thread(target=loop, daemon=True).start()
        return listener.getsockname()[1]

    yield serve
    for s in listeners:
        s.close()


SETTINGS = bytes([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 100])
"""A gRPC server's first frame: SETTINGS (type 4) on stream 0, here with one setting."""


def test_an_address_where_another_program_answers_is_refused_at_once_and_nothing_is_made(
        tmp_path, server, ray_never_asked, monkeypatch):
    """Ray waited for ever (retrying, printing warnings) at a port where another program listens:
    a web server, the dashboard's port. The address must answer as a gRPC server does (Ray's
    head and Ray Client are), to HTTP/2's preface with a SETTINGS frame, or it is refused; one
    that answers nothing is refused when ``RAY_REACH_S`` has passed."""
    monkeypatch.setattr(pool_module, "RAY_REACH_S", 0.3)
    for answer in (b"HTTP/1.0 400 Bad request\r\n\r\n", b"", None, SETTINGS[:3] + b"\x01" + SETTINGS[4:]):
        address = f"127.0.0.1:{server(answer)}"
        r = run(*MATCH, "--out", tmp_path / "t", "--ray", address)
        assert r.exit_code == 1, (answer, r.output)
        assert f"Error: {address} answers, but not as Ray does (no gRPC server there" in r.output, r.output
        assert "check that the cluster's head is running there" in r.output
        assert not (tmp_path / "t").exists()
    grpc = f"127.0.0.1:{server(SETTINGS)}"
    with pytest.raises(ArbiterError, match="AssertionError: Ray was asked to connect"):  # the check let it through
        connect_ray(grpc)
    with pytest.raises(ArbiterError, match="AssertionError: Ray was asked to connect"):  # the client's preface, at once
        connect_ray(f"ray://{grpc}")
    monkeypatch.setenv("RAY_USE_TLS", "1")  # a TLS server answers no plain preface: only the connection counts
    with pytest.raises(ArbiterError, match="AssertionError: Ray was asked to connect"):
        connect_ray(f"127.0.0.1:{server(None)}")


def test_ray_local_starts_a_new_instance_whatever_ray_address_says(monkeypatch):
    """``--ray local`` called ``ray.init`` without an address, which Ray then takes from
    RAY_ADDRESS: with one set, the run went to that cluster (and Ray refused the CPU count it
    was given: "When connecting to an existing cluster, num_cpus ... must not be provided")."""
    asked = []
    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(is_initialized=lambda: False,
                                                                  init=lambda **kw: asked.append(kw)))
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    connect_ray("local", cpus=3)
    [kw] = asked
    assert (kw["address"], kw["num_cpus"]) == ("local", 3)


def test_a_ray_pool_that_cannot_start_leaves_no_folder_behind(tmp_path, monkeypatch):
    """The tournament's folder and its tournament.json were made before Ray was asked, so a run
    refused by Ray left a folder holding a tournament that never started (the same command
    then refused as "already holds a tournament")."""
    def no_ray(*args):
        raise ArbiterError("no Ray here")

    monkeypatch.setattr(pool_module, "RayPool", no_ray)
    r = run(*MATCH, "--out", tmp_path / "t", "--ray", "local")
    assert r.exit_code == 1 and "no Ray here" in r.output, r.output
    assert not (tmp_path / "t").exists()
    (tmp_path / "empty").mkdir()
    r = run(*MATCH, "--out", tmp_path / "empty", "--ray", "local")
    assert r.exit_code == 1 and "no Ray here" in r.output, r.output
    assert list((tmp_path / "empty").iterdir()) == []


def test_ray_init_leaves_the_commands_own_signal_handlers(monkeypatch):
    """``ray.init`` puts its own handler on SIGTERM in the process that starts it: a run on Ray
    sent SIGTERM died with a C++ stack dump (status 15), no report and no word of --resume,
    where every other run stops as Ctrl-C does. The handlers are put back after it."""
    import signal

    def ours(signum, frame):
        raise KeyboardInterrupt

    def rays(signum, frame):
        raise SystemExit(15)

    kept = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def init(**kw):
        for signum in kept:
            signal.signal(signum, rays)

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(is_initialized=lambda: False, init=init))
    before = {signum: signal.signal(signum, ours) for signum in kept}
    try:
        connect_ray("local", cpus=1)
        assert [signal.getsignal(signum) for signum in kept] == [ours] * 3
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_ray_that_fails_to_import_is_said_in_one_line_and_nothing_is_made(tmp_path):
    """A Ray half installed, or one whose libraries clash (protobuf's "Descriptors cannot be
    created directly"), raises something else than ImportError as it is imported: the run
    ended with a 43-line traceback."""
    fake = tmp_path / "fake" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise AttributeError('partially installed ray')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tmp_path / "fake"), str(REPO)))}
    out = subprocess.run([sys.executable, "-m", "arbiter.cli.main", *MATCH, "--out", str(tmp_path / "t"), "--ray",
                          "local"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stderr) == (
        1, "Error: --ray: Ray cannot be imported: AttributeError: partially installed ray\n"), out.stderr
    assert not (tmp_path / "t").exists()


def test_a_ray_actor_starts_its_bots_watcher_apart(tmp_path, monkeypatch):
    """Ray kills a dying actor's children, and the watcher that ends the bots' groups was one:
    the actor (``_RayWorker``, made here as Ray makes it, in this process) starts its watcher
    apart (``orphans.watch_apart``; ``tests/test_bots_orphans.py`` kills a referee as Ray does)."""
    from arbiter.engine import orphans
    from arbiter.engine.arena.runner import Settings

    monkeypatch.setattr(orphans, "_apart", False)
    actor = pool_module._RayWorker(Settings("mafia", {}, 1))
    try:
        assert orphans._apart
    finally:
        actor.close()


def _counting_ray(monkeypatch, cpus: int) -> tuple[list[dict], list[object]]:
    """A stand-in for Ray (none is started): the keywords of each ``ray.init``, and each actor made."""
    inits: list[dict] = []
    actors: list[object] = []

    class Actor:
        def remote(self, settings):
            actors.append(settings)
            return object()

    monkeypatch.setitem(sys.modules, "ray", types.SimpleNamespace(
        is_initialized=lambda: bool(inits), init=lambda **kw: inits.append(kw),
        remote=lambda **kw: lambda cls: Actor(), cluster_resources=lambda: {"CPU": cpus}))
    return inits, actors


def test_a_ray_pool_has_no_more_actors_than_the_tournament_has_games(monkeypatch):
    """Local workers were capped at the games and Ray's were not: ``--ray local --workers
    100000`` asked Ray for 100,000 CPUs and made an actor for each, for a run of 2 games
    (``--workers 9223372036854775808`` went to Ray as it was). The cap is the local one."""
    from arbiter.engine.arena.runner import Settings

    inits, actors = _counting_ray(monkeypatch, cpus=64)
    pool = RayPool(Settings("mafia", {}, 1), 2**63, "local", games=3)
    assert (pool.workers, len(actors), inits[0]["num_cpus"]) == (3, 3, 3)
    actors.clear()
    pool = RayPool(Settings("mafia", {}, 1), None, "auto", games=5)  # the cluster's 64 CPUs, for 5 games
    assert (pool.workers, len(actors)) == (5, 5)
    actors.clear()
    pool = RayPool(Settings("mafia", {}, 1), 2, "auto", games=5)  # fewer than the games: as asked
    assert (pool.workers, len(actors)) == (2, 2)


def test_the_command_gives_a_ray_pool_the_tournaments_games(tmp_path, monkeypatch):
    asked = []

    def ray_pool(settings, workers, address, games=None):
        asked.append((workers, address, games))
        raise ArbiterError("no Ray here")

    monkeypatch.setattr(pool_module, "RayPool", ray_pool)
    r = run(*MATCH, "--workers", str(2**63), "--out", tmp_path / "t", "--ray", "local")
    assert r.exit_code == 1 and "no Ray here" in r.output, r.output
    assert asked == [(2**63, "local", 2)]

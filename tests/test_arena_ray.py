"""A small tournament on a local Ray instance (started once for this module) writes exactly the
files local workers write: the same records (but for the time each game took), the same
transcripts and the same stderr logs of its exec entrant; and a Ray pool cancelled (Ctrl-C, a
failure) stops the game it is running rather than wait for it. One test with Ray, so that the
suite starts Ray once (its workers would each start their own).

And, with no Ray started: a Ray pool that cannot start leaves no folder behind."""

from __future__ import annotations

import os
import sys

import pytest

from arbiter.engine.arena import pool as pool_module
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.pool import RayPool, connect_ray, source_root
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.tournament import Tournament, configuration

from tests.helpers import REPO, run
from tests.hostile import kill_group, pid_named_in, within
from tests.arena_staging import play, stuck_tournament, transcripts, without_time

ENTRANTS = [Entrant("rnd", "random"), Entrant("sleuth", "sleuth"),
            Entrant("example", f"exec:{sys.executable} {REPO / 'docs' / 'examples' / 'random_bot.py'} 4")]


@pytest.fixture(scope="module")
def ray():
    r = connect_ray("local", cpus=2)
    yield r
    r.shutdown()


def test_ray_writes_the_files_local_workers_write_and_stops_a_game_when_cancelled(tmp_path, ray):
    # the local instance is ours, made with the runtime environment that puts this tree first
    env_vars = ray.get_runtime_context().runtime_env.get("env_vars", {})
    assert env_vars.get("PYTHONPATH", "").split(os.pathsep)[0] == source_root()
    _, local = play(tmp_path / "local", 1, entrants=ENTRANTS, games=3)
    config = configuration("mafia", ENTRANTS, 3, players=6, cwd=str(tmp_path))
    folder = Folder.create(tmp_path / "ray", config)
    t = Tournament({"format": 1, **config})
    outcome = t.run(folder, RayPool(t.settings, 2, "local"))
    folder.unlock()
    assert len(local) == 3 and without_time(outcome.records) == without_time(local)
    assert transcripts(tmp_path / "ray") == transcripts(tmp_path / "local")
    assert any(name.endswith(".stderr.log") for name in transcripts(tmp_path / "ray"))
    assert (tmp_path / "ray" / "results.jsonl").read_text().count("\n") == 3
    # cancelled while a bot is stuck (a time-out of two minutes): the pool neither waits for the
    # game nor asks the busy actor to close; it kills the actor (whose bot then sees its input close)
    t, game, named = stuck_tournament(tmp_path)
    pool = RayPool(t.settings, 1, "local")
    pool.submit(game)
    bot = pid_named_in(named)
    try:
        within(30, pool.close, True)
        assert pool.busy == 0
    finally:
        kill_group(bot)


MATCH = ("match", "mafia", "--players", "6", "a=random", "b=random", "--games", "2")


def test_a_ray_pool_that_cannot_start_leaves_no_folder_behind(tmp_path, monkeypatch):
    """The tournament's folder and its tournament.json were made before Ray was asked, so a run
    refused by Ray left a folder holding a tournament that never started (the same command
    then refused as "already holds a tournament")."""
    from arbiter.engine.errors import ArbiterError

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

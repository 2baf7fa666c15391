#!/usr/bin/env python3
"""Tournament throughput, measured (never asserted): games/s of a built-in-bot tournament with 1
and 2 local workers and on a local Ray instance, and what an ``exec:`` bot costs per game
against the same bot in-process (``py:``), with and without ``--reuse``.

    python tools/arena_bench.py [--games N] [--no-ray] [--json]

Each figure is one tournament into a temporary folder, timed from the first game submitted to
the last recorded (the pool's start-up included: that is what a user waits for); see
docs/arena.md for figures and what they mean.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arbiter.engine.arena.entrants import Entrant  # noqa: E402
from arbiter.engine.arena.pool import LocalPool, RayPool  # noqa: E402
from arbiter.engine.arena.results import Folder  # noqa: E402
from arbiter.engine.arena.tournament import Tournament, configuration  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"


def timed(game: str, entrants: list[Entrant], games: int, pool: str, workers: int, **kw: object) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        config = configuration(game, entrants, games, cwd=str(EXAMPLES), **kw)  # type: ignore[arg-type]
        folder = Folder.create(Path(tmp) / "t", config)
        t = Tournament({"format": 1, **config})
        start = time.perf_counter()
        p = RayPool(t.settings, workers, "local") if pool == "ray" else LocalPool(t.settings, workers, folder.path)
        outcome = t.run(folder, p)
        seconds = time.perf_counter() - start
        folder.unlock()
    moves = sum(r["moves"] for r in outcome.records)
    return {"games": len(outcome.records), "seconds": seconds, "games_per_s": len(outcome.records) / seconds,
            "ms_per_game_in_worker": 1000 * sum(r["time"] for r in outcome.records) / len(outcome.records),
            "moves_per_game": moves / len(outcome.records)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per built-in tournament (default 200)")
    ap.add_argument("--exec-games", type=int, default=40, help="games per exec/py measurement (default 40)")
    ap.add_argument("--no-ray", action="store_true", help="leave Ray out")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    builtin = [Entrant("sleuth", "sleuth"), Entrant("random", "random")]
    rows = []
    for label, pool, w in (("1 local worker", "local", 1), ("2 local workers", "local", 2),
                           *(() if a.no_ray else (("Ray, local, 2 CPUs", "ray", 2),))):
        rows.append({"what": f"mafia 8p sleuth-random, {label}",
                     **timed("mafia", builtin, a.games, pool, w, players=8)})
        print(json.dumps(rows[-1]), file=sys.stderr)
    exe = Entrant("bot", f"exec:{sys.executable} {EXAMPLES / 'random_bot.py'} 1")
    py = Entrant("bot", "py:random_agent:RandomAgent")
    base = Entrant("random", "random")
    for label, bot, reuse in (("py: agent", py, False), ("exec: program", exe, False),
                              ("exec: program, --reuse", exe, True)):
        rows.append({"what": f"fbi duel-3v3 {label} vs random, 1 worker",
                     **timed("fbi-mafia", [bot, base], a.exec_games, "local", 1, modes=("duel-3v3",), reuse=reuse)})
        print(json.dumps(rows[-1]), file=sys.stderr)
    py_ms = rows[-3]["ms_per_game_in_worker"]
    overhead = {"exec_ms_per_game": rows[-2]["ms_per_game_in_worker"] - py_ms,
                "exec_reuse_ms_per_game": rows[-1]["ms_per_game_in_worker"] - py_ms}
    if a.json:
        print(json.dumps({"rows": rows, "overhead": overhead}))
        return
    from tabulate import tabulate

    print(tabulate([[r["what"], r["games"], f"{r['seconds']:.1f}", f"{r['games_per_s']:.1f}",
                     f"{r['ms_per_game_in_worker']:.0f}"] for r in rows],
                   headers=["tournament", "games", "s", "games/s", "ms/game"], disable_numparse=True))
    print(f"exec: overhead per game against py: {overhead['exec_ms_per_game']:.0f} ms "
          f"({overhead['exec_reuse_ms_per_game']:.0f} ms with --reuse)")
    print("ms/game: wall time of one game inside its worker (bots' start included); s: whole run")


if __name__ == "__main__":
    main()

"""Bot self-play for measuring speed (games and inputs per second, peak memory) and results."""

from __future__ import annotations

import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine.bots import RandomBot
from arbiter.engine.game import Rules, Variant
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session


@dataclass(frozen=True)
class BenchResult:
    """Figures for one variant: the same games played ``repeats`` times over."""

    variant: str
    games: int
    inputs: int
    rounds_s: tuple[float, ...]
    median_game_ms: float
    median_inputs: float
    wins: dict[str, int]
    tallies: dict[str, int] = field(default_factory=dict)
    """The game's own counts, summed over the games (``Rules.bench_tally``)."""
    median_copy_ms: float = 0.0
    """The median time to copy one of the first games played, as it ended (``Session.copy``,
    ``Game.copy``: what a search bot pays for each trial), outside the rounds' time."""

    @property
    def seconds(self) -> float:
        """The median time of one round (all ``games`` games)."""
        return statistics.median(self.rounds_s)

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def inputs_per_s(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0

    @property
    def spread(self) -> float:
        """Slowest round over fastest: how much the machine's noise moved the figures."""
        return max(self.rounds_s) / min(self.rounds_s) if min(self.rounds_s) else 0.0


COPIED_GAMES = 10
"""How many of a mode's games ``bench`` copies once each, for the median time of a copy."""


def play_random(rules: Rules, variant: str | Variant, seed: int, max_inputs: int = 100_000, *, kind: str = "random",
                options: dict[str, Any] | None = None) -> Session:
    """One whole game between built-in bots of ``kind`` on every seat. A real-time game runs
    through ``Match`` (bots in turn, time running out when none acts), a turn game here."""
    session = Session(rules, variant, seed=seed, options=options)
    bots = {s: RandomBot(s, seed, kind) for s in session.seats}
    if session.state.realtime:
        Match(Protocol(session), dict(bots), None, max_moves=max_inputs).play()
        return session
    state, submit = session.state, session.submit_move
    # each bot's choose_move, for this game's rules: their bot's function with the seat's own
    # generator (asked of the rules once a game, not once a seat, nor checked at every input)
    mover, rngs = rules.bot_mover(kind), {s: bot.rng for s, bot in bots.items()}
    for _ in range(max_inputs):
        if state.result is not None:  # session.over
            break
        seat = state.awaited_seats()[0]
        move = mover(state, seat, rngs[seat])  # a value the game applies without reading words
        if move is None:
            break
        submit(seat, move)
    return session


def bench(rules: Rules, variant: str, games: int, seed: int, repeats: int = 3, *, kind: str = "random",
          options: dict[str, Any] | None = None, on_game: Callable[[], None] | None = None) -> BenchResult:
    """Play ``games`` random games (seeds ``seed``, ``seed + 1``, ...) ``repeats`` times; the
    games are the same every round, so rounds differ only by the machine's noise. ``on_game``
    is called after each game (a progress bar)."""
    chosen = rules.variant(variant)  # once: a game's variants are built from its data when asked
    rounds, game_times = [], []
    counts: list[int] = []
    wins: dict[str, int] = {}
    tallies: dict[str, int] = {}
    ended: list[Session] = []  # the first games, to time their copies after the rounds
    for round_index in range(repeats):
        start = time.perf_counter()
        for i in range(games):
            t0 = time.perf_counter()
            session = play_random(rules, chosen, seed + i, kind=kind, options=options)
            game_times.append(time.perf_counter() - t0)
            if on_game is not None:
                on_game()
            if round_index == 0:
                if len(ended) < COPIED_GAMES:
                    ended.append(session)
                counts.append(len(session.moves))
                result = session.state.result
                key = (result.winner or "nobody") if result else "unfinished"
                wins[key] = wins.get(key, 0) + 1
                for k, v in rules.bench_tally(session.state).items():
                    tallies[k] = tallies.get(k, 0) + v
        rounds.append(time.perf_counter() - start)
    copy_times = []
    for session in ended:
        t0 = time.perf_counter()
        session.copy()
        copy_times.append(time.perf_counter() - t0)
    return BenchResult(variant, games, sum(counts), tuple(rounds), statistics.median(game_times) * 1000,
                       statistics.median(counts), dict(sorted(wins.items())), tallies,
                       statistics.median(copy_times) * 1000)


def peak_memory_mib() -> float:
    """Peak resident memory of this process so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

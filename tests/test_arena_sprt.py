"""The SPRT of a two-entrant match: on synthetic streams, at its bounds, counted by whole blocks,
the same counted as records arrive as counted afresh; and a run that stops once it decides: no
new game submitted or started, games no worker has taken dropped, a resumed run playing on
exactly when it is undecided; with the run's progress and leader."""

from __future__ import annotations

import math
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.arena import stats
from arbiter.engine.arena.results import Folder
from arbiter.engine.arena.sprt import Sprt
from arbiter.engine.arena.entrants import Entrant
from arbiter.engine.arena.tournament import Progress, Standing, configuration
from arbiter.engine.errors import ArbiterError

from tests.arena_staging import DUEL, QuietPool, duel_tournament, rec, whole_rec

# -- the SPRT -------------------------------------------------------------------------------------


def test_sprt_on_synthetic_streams():
    t = Sprt(0, 10, 0.05, 0.05)

    def first_decision(stream):
        w = l = 0
        for i, won in enumerate(stream, 1):
            w, l = w + won, l + (not won)
            if t.status(w, l):
                return t.status(w, l), i
        return None, len(stream)

    assert first_decision([True] * 500)[0] == "H1"
    assert first_decision([True, False] * 4000)[0] == "H0"
    assert first_decision([True, False] * 5) == (None, 10)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95)) and t.upper == pytest.approx(math.log(0.95 / 0.05))
    p0, p1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    assert t.llr(3, 1) == pytest.approx(3 * math.log(p1 / p0) + math.log((1 - p1) / (1 - p0)))
    with pytest.raises(ValueError):
        Sprt(10, 0)


@pytest.mark.parametrize("args, problem", [
    ((10, 10), "SPRT needs ELO0 < ELO1, not 10 and 10"), ((10, 0), "SPRT needs ELO0 < ELO1, not 10 and 0"),
    ((0, 10, 0, 0.05), "between 0 and 0.5"), ((0, 10, 0.5, 0.05), "between 0 and 0.5"),
    ((0, 10, 0.05, 0), "between 0 and 0.5"), ((0, 10, 0.05, 0.5), "between 0 and 0.5"),
    ((0, 10, 0.6, 0.05), "between 0 and 0.5"), ((0, 10, 0.05, -0.1), "between 0 and 0.5"),
])
def test_sprt_refuses_hypotheses_that_are_not_ordered_and_error_rates_outside_0_to_half(args, problem):
    with pytest.raises(ValueError, match=problem):
        Sprt(*args)


def test_sprt_accepts_error_rates_just_inside_the_bounds():
    assert Sprt(-1, 1, 0.001, 0.499).as_dict() == {"elo0": -1, "elo1": 1, "alpha": 0.001, "beta": 0.499}


def test_sprt_decides_when_the_llr_reaches_a_bound_exactly(monkeypatch):
    """H1 once the LLR is at or above the upper bound, H0 once at or below the lower one."""
    t = Sprt(0, 10)
    for value, status in ((t.upper, "H1"), (t.lower, "H0"), (math.nextafter(t.upper, 0), None),
                          (math.nextafter(t.lower, 0), None)):
        monkeypatch.setattr(Sprt, "llr", lambda self, w, l, v=value: v)
        assert t.status(3, 1) == status, value


def test_the_sprt_counts_whole_blocks_from_the_start_only():
    t = duel_tournament()
    recs = {}
    for g in t.games[:40]:
        winner = "mafia" if g.entrants[0] == "A" else "fbi"  # A always wins
        recs[g.index] = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})
    state = t.sprt_state(recs)
    p0, p1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    first = math.ceil(t.sprt.upper / math.log(p1 / p0))  # the block after which it accepts H1, and stops counting
    assert (state["blocks"], state["games"], state["wins"], state["losses"], state["result"]) == \
        (first, 2 * first, first, 0, "H1")
    del recs[1]  # the first block is no longer whole: nothing counts yet
    assert t.sprt_state(recs)["games"] == 0 and t.sprt_state(recs)["result"] is None
    for g in t.games[:40]:  # the first seat always wins: every block is a draw
        recs[g.index] = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {"mafia"})
    state = t.sprt_state(recs)
    assert (state["wins"], state["losses"], state["draws"], state["llr"]) == (0, 0, 20, 0)


def _recount(t, records):
    """The SPRT's counts taken afresh: every whole block from the start until one is missing or
    the test decides (the definition ``Tournament.sprt_state`` keeps)."""
    wins = losses = draws = blocks = 0
    for start in range(0, len(t.games), t.block):
        block = t.games[start:start + t.block]
        if any(g.index not in records for g in block):
            break
        res = stats.block_result([records[g.index] for g in block], "A", "B")
        blocks, wins, losses, draws = blocks + 1, wins + (res == "win"), losses + (res == "loss"), draws + (res == "draw")
        if t.sprt.status(wins, losses) is not None:
            break
    return blocks, wins, losses, draws, t.sprt.status(wins, losses)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), elo1=st.sampled_from([20, 100, 400]), skill=st.floats(0.3, 0.9))
def test_the_sprt_counted_as_records_arrive_is_the_sprt_counted_afresh(seed, elo1, skill):
    """A run's ``SprtCount`` (each block counted once, as records arrive in any order, some
    games unfinished) gives after every record the state counted afresh from the start."""
    import random

    from arbiter.engine.arena.tournament import SprtCount

    t = duel_tournament((0, elo1))
    rng = random.Random(seed)
    games = list(t.games[:160])
    rng.shuffle(games)  # workers finish in any order
    count, recs = SprtCount(t), {}
    decided = None
    for g in games:
        a_wins = rng.random() < skill
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if a_wins else ("fbi" if g.entrants[0] == "A" else "mafia")
        r = rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})
        if rng.random() < 0.05:
            r["finished"] = False
        recs[g.index] = r
        state = count.update(recs)
        assert state == t.sprt_state(recs)
        assert (state["blocks"], state["wins"], state["losses"], state["draws"], state["result"]) == _recount(t, recs)
        if state["result"] is not None and decided is None:
            decided = dict(state)
    if decided is not None:  # once it decides, later records change nothing
        assert count.update(recs) == decided


# -- a run's bookkeeping ---------------------------------------------------------------------------


class _Submissions(QuietPool):
    """A pool that takes games and never plays them: what a run asks of it."""

    workers = 1
    busy = 0

    def __init__(self) -> None:
        self.submitted: list[int] = []

    def submit(self, game) -> None:
        self.submitted.append(game.index)

    def done(self, timeout: float):
        return []


@pytest.mark.parametrize("decided", [True, False])
def test_a_resumed_run_plays_on_exactly_when_its_sprt_is_undecided(tmp_path: Path, decided: bool):
    t = duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    writer = folder.writer()
    for g in t.games[:40]:  # A always wins (decided: H1), or the first seat always does (every block drawn)
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if decided else "mafia"
        writer.append(whole_rec(t, g, {winner}))
    writer.close()
    pool = _Submissions()
    outcome = t.run(folder, pool)
    folder.unlock()
    assert outcome.sprt["result"] == ("H1" if decided else None) and outcome.played == 0
    assert pool.submitted == ([] if decided else [g.index for g in t.games[40:]])


def test_an_sprt_needs_exactly_two_entrants():
    three = [Entrant("a", "random"), Entrant("b", "random"), Entrant("c", "random")]
    with pytest.raises(ArbiterError, match="an SPRT compares two entrants; this tournament has 3"):
        configuration("fbi-mafia", three, 6, sprt=Sprt(0, 10))
    assert configuration("fbi-mafia", three[:2], 6, sprt=Sprt(0, 10))["sprt"]["elo1"] == 10


def test_progress_has_no_rate_or_eta_before_time_has_passed_or_a_game_was_played():
    assert (Progress(3, 10, 0, 0.0, None).rate, Progress(3, 10, 0, 0.0, None).eta) == (0.0, None)
    assert (Progress(3, 10, 0, 2.0, None).rate, Progress(3, 10, 0, 2.0, None).eta) == (0.0, None)
    assert (Progress(4, 10, 2, 4.0, None).rate, Progress(4, 10, 2, 4.0, None).eta) == (0.5, 12.0)


def test_the_leader_is_the_best_seat_win_rate_among_entrants_that_played():
    s = Standing(["a", "b", "c"])
    assert s.leader() is None
    s.add(rec(0, {"m": "a", "f": "b"}, DUEL, {"m"}) | {"finished": False})  # counted for no one
    assert s.leader() is None
    s.add(rec(1, {"m": "a", "f": "b"}, DUEL, {"f"}))
    assert s.leader() == ("b", 1.0)
    s.add(rec(2, {"m": "b", "f": "a"}, DUEL, {"m"}))
    assert s.leader() == ("b", 1.0)
    s.add(rec(3, {"m": "a", "f": "b"}, DUEL, {"m"}))
    assert s.leader() == ("b", 2 / 3)  # its rate fell: still the best
    s.add(rec(4, {"m": "b", "f": "a"}, DUEL, {"f"}))
    assert s.leader() == ("a", 0.5)  # a tie: the first name


class _Playing(_Submissions):
    """Plays each game it takes as soon as asked: A's seats always win (``a_wins``), or else
    the mafia seat always does (every block a draw)."""

    def __init__(self, a_wins: bool) -> None:
        super().__init__()
        self.a_wins, self.pending = a_wins, []

    @property
    def busy(self) -> int:
        return len(self.pending)

    def submit(self, game) -> None:
        super().submit(game)
        self.pending.append(game)

    def played(self, g):
        winner = ("mafia" if g.entrants[0] == "A" else "fbi") if self.a_wins else "mafia"
        return g, rec(g.index, g.assignment, {"mafia": "mafia", "fbi": "fbi"}, {winner})

    def done(self, timeout: float):
        out = [self.played(g) for g in self.pending]
        self.pending = []
        return out


@pytest.mark.parametrize("a_wins", [True, False])
def test_a_run_stops_submitting_games_once_its_sprt_decides(tmp_path: Path, a_wins: bool):
    t = duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    pool, seen = _Playing(a_wins), []
    outcome = t.run(folder, pool, on_progress=seen.append)
    folder.unlock()
    p0, p1 = 0.5, 1 / (1 + 10 ** (-100 / 400))
    blocks = math.ceil(t.sprt.upper / math.log(p1 / p0)) if a_wins else 200  # undecided: every game
    assert outcome.sprt["result"] == ("H1" if a_wins else None) and outcome.played == 2 * blocks
    assert pool.submitted == [g.index for g in t.games[:2 * blocks]]
    assert [p.done for p in seen] == list(range(1, 2 * blocks + 1))
    leader, rate = seen[-1].leader
    assert ((leader, rate) == ("A", 1.0)) if a_wins else (rate == 0.5)  # A won every game, or each won half


class _Holding(_Playing):
    """One worker: the first game submitted runs, the others wait; ``done`` ends the running
    one (A's seats win) and starts the next. ``drop_waiting`` drops those waiting."""

    workers = 3  # (a run keeps twice as many submitted)

    def __init__(self) -> None:
        super().__init__(a_wins=True)
        self.dropped: list[int] = []

    def done(self, timeout: float):
        return [self.played(self.pending.pop(0))]

    def drop_waiting(self) -> None:
        self.dropped += [g.index for g in self.pending[1:]]
        self.pending[1:] = []


def test_no_game_starts_once_the_sprt_decides(tmp_path: Path):
    t = duel_tournament()
    folder = Folder.create(tmp_path / "t", {"format": 2, **t.config})
    pool = _Holding()
    outcome = t.run(folder, pool)
    folder.unlock()
    decided = outcome.sprt["games"]
    assert outcome.sprt["result"] == "H1" and pool.dropped, "games were waiting when it decided"
    assert [r["game"] for r in outcome.records] == list(range(decided + 1)), "the one running then, and no other"
    assert set(pool.dropped) == set(pool.submitted) - set(range(decided + 1))


def test_a_local_pool_drops_the_games_no_worker_has_taken(tmp_path: Path):
    from concurrent.futures import ThreadPoolExecutor

    from arbiter.engine.arena.pool import LocalPool

    pool = LocalPool.__new__(LocalPool)  # its bookkeeping, with threads for processes
    pool.workers, pool._running = 1, {}
    pool._executor = ThreadPoolExecutor(max_workers=1)
    gate = threading.Event()
    running = pool._executor.submit(gate.wait, 5)
    pool._running = {running: "g0", pool._executor.submit(int): "g1", pool._executor.submit(int): "g2"}
    pool.drop_waiting()
    assert list(pool._running.values()) == ["g0"] and not running.cancelled()
    gate.set()
    pool._executor.shutdown(wait=True)


def test_the_two_elo_figures_of_a_pair_are_those_the_docs_explain():
    """A match with --sprt shows two Elo figures for its pair, and docs/arena.md did not say why
    they differ. Its worked example, recomputed: eight duels in four deals, the first entrant
    winning both games of two deals, one of the third and none of the fourth, is a score of
    5/8 (+89 Elo a game) in the head-to-head table and +2 -1 =1 on the SPRT line (+120 a block)."""
    from arbiter.engine.arena import report
    from arbiter.engine.arena.tournament import SprtCount
    from tests.helpers import REPO

    t = duel_tournament()
    first_won = [True, True, True, True, True, False, False, False]  # games 0-7: deals 0-3, two games each
    records = {}
    for g, won in zip(t.games[:8], first_won):
        winner = "A" if won else "B"
        records[g.index] = whole_rec(t, g, {s for s, e in g.assignment.items() if e == winner})
    state = SprtCount(t).update(records)
    assert (state["wins"], state["losses"], state["draws"], state["void"]) == (2, 1, 1, 0)
    assert round(stats.elo(state["wins"] / (state["wins"] + state["losses"]))) == 120
    pair = report.summary(t.config, list(records.values()), len(t.games))["head_to_head"][0]
    assert (pair["a_wins"], pair["b_wins"], pair["a_score"], round(pair["elo"])) == (5, 3, 5 / 8, 89)
    for q in (0.3, 0.6, 0.9):  # each game won with chance q: a decided block's odds are a game's squared
        assert math.isclose(stats.elo(q * q / (q * q + (1 - q) ** 2)), 2 * stats.elo(q))
    docs = " ".join((REPO / "docs" / "arena.md").read_text().split())
    assert "**Two Elo figures for one pair.**" in docs
    assert ("the table's score is 5/8 = 62.5%, +89 Elo a game; the SPRT line reads `+2 -1 =1`, two of the three "
            "decided blocks, +120 Elo a block.") in docs


# -- a decided run's transcripts, every one accounted for ------------------------------------------

DECIDING = ("match", "fbi-mafia", "--mode", "duel-3v3", "gone=exec:/no/such/bot", "rnd=random", "--games", "200",
            "--sprt", "0", "100", "--workers", "2")
"""A match that decides (H0) after 9 blocks: an entrant whose program cannot start loses at once."""


@pytest.fixture(scope="module")
def decided(tmp_path_factory) -> Path:
    """The folder of ``DECIDING``, played, with two workers: games were running as it decided."""
    import json

    from tests.helpers import run

    out = tmp_path_factory.mktemp("decided") / "t"
    r = run(*DECIDING, "--out", out, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["sprt"]["result"] == "H0"
    return out


def _lines(folder: Path) -> dict[int, dict]:
    import json

    return {r["game"]: r for r in map(json.loads, (folder / "results.jsonl").read_text().splitlines())}


def _past_decision(folder: Path, beyond: bool = False):
    """The tournament of ``folder``, and the first game past its SPRT's decision (``beyond``:
    a game some way past every game recorded), whose line (if it has one) is removed and whose
    transcript is written by a worker as it plays it (its returned record not written): the
    folder as a run stopped between the two leaves it."""
    import json

    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament

    t = Tournament(json.loads((folder / "tournament.json").read_text()))
    game = t.games[max(_lines(folder)) + 6 if beyond else t.sprt_state(_lines(folder))["games"]]
    kept = [line for line in (folder / "results.jsonl").read_text().splitlines(keepends=True)
            if json.loads(line)["game"] != game.index]
    (folder / "results.jsonl").write_text("".join(kept))
    record = Worker(t.settings).play(game, folder)
    return t, game, record


def test_a_game_that_ended_past_the_decision_without_its_record_is_recorded_from_its_transcript(decided, tmp_path):
    """A run stopped (killed, Ctrl-C, a failure) after a worker wrote a game's transcript and
    before its line was written left the transcript without a record: a resume of an undecided
    run plays that game again, but past an SPRT's decision no run does, and the transcript
    stayed without a record for good. The resume records it from its transcript (the game was
    played), the tables unchanged; then a resume changes nothing and says why it played none.
    (As the run decided, the games running finished, were recorded and wrote whole transcripts,
    which replay; no other game left one: those dropped never started.)"""
    import json
    import shutil

    from arbiter.engine import transcript as tr
    from tests.helpers import run
    from tests.arena_staging import transcripts

    files = [name for name in transcripts(decided) if name.endswith(".yaml")]
    assert sorted(files) == sorted(r["transcript"].removeprefix("transcripts/") for r in _lines(decided).values())
    for name in files:
        assert tr.replay(tr.read(decided / "transcripts" / name)).ok, name
    folder = tmp_path / "t"
    shutil.copytree(decided, folder)
    before = json.loads(run("tournament", "--resume", folder, "--json").stdout)
    t, game, played = _past_decision(folder)
    r = run("tournament", "--resume", folder, "--json")
    assert r.exit_code == 0, r.output
    assert f"# game {game.index} ended without its record (a run stopped before writing it): recorded now from its " \
           "transcript, without the seconds it took" in r.stderr, r.stderr
    record = _lines(folder)[game.index]
    assert record == {**played, "time": None}  # (names: none of this game's bots gave one)
    after = json.loads(r.stdout)
    assert after["played"] == 0 and after["after_decision"] >= 1
    keys = ("table", "sides", "roles", "forfeits", "ratings", "head_to_head", "sprt", "unfinished")
    assert {k: after[k] for k in keys} == {k: before[k] for k in keys}
    replayed = run("replay", folder / record["transcript"])
    assert replayed.exit_code == 0, replayed.output
    results, files = (folder / "results.jsonl").read_bytes(), transcripts(folder)
    again = run("tournament", "--resume", folder)  # decided, every transcript recorded: nothing to do
    assert again.exit_code == 0, again.output
    assert "; 0 played by this run, as the SPRT had decided\n" in again.stdout, again.stdout
    assert "# game" not in again.stderr, again.stderr
    assert (folder / "results.jsonl").read_bytes() == results and transcripts(folder) == files


def test_a_resume_that_decides_records_a_game_an_earlier_run_left_past_the_decision(decided, tmp_path):
    """The same when the run that left the transcript had not decided yet: its resume plays the
    games missing before the decision, decides, and never reaches the game past it."""
    import json
    import shutil

    from tests.helpers import run

    folder = tmp_path / "t"
    shutil.copytree(decided, folder)
    t, game, played = _past_decision(folder, beyond=True)  # (past the games a resume's one worker may start)
    lines = (folder / "results.jsonl").read_text().splitlines(keepends=True)
    (folder / "results.jsonl").write_text("".join(line for line in lines if json.loads(line)["game"] != 3))
    (folder / "transcripts" / "game-00003.yaml").unlink()  # (game 3 never ended: the resume plays it)
    r = run("tournament", "--resume", folder, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["played"] >= 1 and json.loads(r.stdout)["sprt"]["result"] == "H0"
    assert 3 in _lines(folder)
    assert _lines(folder)[game.index] == {**played, "time": None}


def test_games_a_stopped_run_left_ended_count_in_the_sprt_before_anything_is_played(tmp_path):
    """A run of ``DECIDING`` stopped before its decision, after games 12 to 17 ended and before
    their lines were written (the test decides with game 17, after 9 blocks): the resume played
    them again, though they were played. It records them from their transcripts first, and the
    test counts them: it decides at once, and the resume plays nothing."""
    import json

    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament
    from tests.helpers import run

    out = tmp_path / "t"
    config = {"format": 2, **configuration("fbi-mafia", [Entrant("gone", "exec:/no/such/bot"), Entrant("rnd", "random")],
                                           200, modes=("duel-3v3",), sprt=Sprt(0, 100, 0.05, 0.05), cwd=str(tmp_path))}
    Folder.create(out, config).unlock()
    t = Tournament(config)
    worker = Worker(t.settings)
    records = [worker.play(g, out) for g in t.games[:18]]
    (out / "results.jsonl").write_text("".join(json.dumps(rec) + "\n" for rec in records[:12]))
    r = run("tournament", "--resume", out, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert (summary["played"], summary["from_transcripts"], summary["recorded"]) == (0, 6, 18), r.output
    assert summary["sprt"]["result"] == "H0" and summary["sprt"]["blocks"] == 9
    assert _lines(out) == {n: {**rec, "time": None} if n >= 12 else rec for n, rec in enumerate(records)}


def test_a_transcript_past_the_decision_whose_game_did_not_end_is_left_and_said(decided, tmp_path):
    """A transcript that holds no game that ended (a worker that failed in it leaves what it
    played) cannot be a record: it is left as it is, and the run says which and why."""
    import shutil

    from tests.helpers import run

    folder = tmp_path / "t"
    shutil.copytree(decided, folder)
    t, game, played = _past_decision(folder)
    path = folder / played["transcript"]
    text = path.read_text()
    cut = text[:text.index("- {move: {n: 1,")]  # the game's start, no move, no ending
    path.write_text(cut)
    results = (folder / "results.jsonl").read_bytes()
    r = run("tournament", "--resume", folder)
    assert r.exit_code == 0, r.output
    assert (f"# game {game.index} has no record, and no run plays it again (past the SPRT's decision): {path}: its "
            "game did not end (it stops after 0 moves, neither over nor at the tournament's --max-moves): its worker "
            "failed or was stopped in it; its transcript is left as it is") in r.stderr, r.stderr
    assert (folder / "results.jsonl").read_bytes() == results and path.read_text() == cut
    assert run("replay", path).exit_code == 0


def test_a_ctrl_c_while_games_are_recorded_from_their_transcripts_says_how_to_go_on(decided, tmp_path, monkeypatch):
    """A Ctrl-C as a decided run records a game from its transcript ends the run as any Ctrl-C
    in it does (status 130, how to go on), not with the command's last-resort message; the
    resume then records the game."""
    import shutil

    from arbiter.engine.arena import tournament
    from tests.helpers import run

    folder = tmp_path / "t"
    shutil.copytree(decided, folder)
    t, game, played = _past_decision(folder)

    def ctrl_c(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(tournament, "record_from_transcript", ctrl_c)
        r = run("tournament", "--resume", folder)
    assert r.exit_code == 130, r.output
    assert f"interrupted; go on with: arbiter tournament --resume {folder}" in r.output, r.output
    assert game.index not in _lines(folder)
    again = run("tournament", "--resume", folder)
    assert again.exit_code == 0, again.output
    assert _lines(folder)[game.index] == {**played, "time": None}


def test_a_ctrl_c_as_the_workers_end_after_the_last_game_says_how_to_go_on(tmp_path, monkeypatch):
    """A Ctrl-C as the run waits for its workers to end, its games all played (they close the
    bots they kept for another game, ``--reuse``: half a second each that does not exit at
    once), ended the command with its last-resort message, as one did while games past an
    SPRT's decision were recorded after it: it is the run's interruption like any other."""
    from arbiter.engine.arena import pool
    from tests.helpers import run

    close = pool.LocalPool.close

    def ctrl_c(self, cancel=False):
        close(self, cancel)
        if not cancel:
            raise KeyboardInterrupt

    folder = tmp_path / "t"
    monkeypatch.setattr(pool.LocalPool, "close", ctrl_c)
    r = run("tournament", "fbi-mafia", "--mode", "duel-3v3", "--entrant", "a=random", "--entrant", "b=random",
            "--games", "2", "--workers", "1", "--out", folder)
    assert r.exit_code == 130, r.output
    assert f"interrupted; go on with: arbiter tournament --resume {folder}" in r.output, r.output
    assert sorted(_lines(folder)) == [0, 1]


def test_a_decided_resume_needs_no_bots_folder(tmp_path):
    """A resume of a tournament whose SPRT decided plays nothing, whatever games are left
    without a record; but with its bots' folder gone (moved, deleted) it was refused, "put it
    back", as if it had games to play: it could not even print the report. It needs no folder."""
    import json

    from arbiter.engine.arena.runner import Worker
    from arbiter.engine.arena.tournament import Tournament
    from tests.helpers import run

    out, bots = tmp_path / "t", tmp_path / "bots"
    bots.mkdir()
    config = {"format": 2, **configuration("fbi-mafia", [Entrant("gone", "exec:/no/such/bot"), Entrant("rnd", "random")],
                                           200, modes=("duel-3v3",), sprt=Sprt(0, 100, 0.05, 0.05), cwd=str(bots))}
    Folder.create(out, config).unlock()
    t = Tournament(config)
    worker = Worker(t.settings)
    records = [worker.play(g, out) for g in t.games[:18]]  # (the test decides with game 17, after 9 blocks)
    (out / "results.jsonl").write_text("".join(json.dumps(rec) + "\n" for rec in records))
    bots.rmdir()
    before = (out / "results.jsonl").read_bytes()
    r = run("tournament", "--resume", out, "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    summary = json.loads(r.stdout)
    assert (summary["played"], summary["recorded"], summary["sprt"]["result"]) == (0, 18, "H0")
    assert (out / "results.jsonl").read_bytes() == before
    (out / "results.jsonl").write_text("".join(json.dumps(rec) + "\n" for rec in records[:16]))  # not decided yet,
    for record in records[16:]:  # (nor by games that ended without their lines)
        (out / record["transcript"]).unlink()
    r = run("tournament", "--resume", out, "--workers", "1")
    assert r.exit_code == 1 and '"cwd": the folder the bots start in' in r.output, r.output

"""The match lines of the protocol, played for real in small tournaments of `exec:` bots: the
`arbiter 1` hello, `name`, `result` and, with --reuse, `new-game`; a kept process that ends itself
after its result, a process a game without --reuse, a late `name`, and an illegal input's
forfeit with the bot's stderr (``docs/protocol.md``, "Matches"; ``docs/arena.md``).

Speed is never asserted here; the games are few and short."""

from __future__ import annotations

import sys

import pytest

from arbiter.engine.arena.entrants import Entrant
from arbiter.engine import transcript as tr

from tests.arena_staging import play

PY = sys.executable


PROTOCOL_BOT = """
import os, random, sys
log = open(sys.argv[1], "a")
rng = random.Random(1)
legal = []
print("name Parrot 1.0", flush=True)
for line in sys.stdin:
    log.write(f"{os.getpid()} {line}")
    log.flush()
    kind, _, rest = line.strip().partition(" ")
    if kind == "new-game":
        print("a new game", file=sys.stderr, flush=True)
    if kind == "legal:":
        legal.append(rest)
    elif kind == "go":
        print(rng.choice(legal), flush=True)
        legal = []
"""


def test_exec_bots_get_the_match_lines_and_are_reused_with_reuse(tmp_path):
    (tmp_path / "parrot.py").write_text(PROTOCOL_BOT)
    log = tmp_path / "heard.log"
    entrants = [Entrant("parrot", f"exec:{PY} {tmp_path / 'parrot.py'} {log}"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=4, reuse=True)
    assert all(r["finished"] and not r["forfeits"] for r in records)
    assert all(list(r["names"].values()) == ["Parrot 1.0"] for r in records)
    heard = [line.split(" ", 1) for line in log.read_text().splitlines()]
    pids = {pid for pid, _ in heard}
    assert len(pids) == 1, "one process served every game of its worker"
    lines = [text for _, text in heard]
    assert lines[0].startswith("arbiter 1 fbi-mafia duel-3v3 ")
    assert sum(t.startswith("new-game fbi-mafia duel-3v3 ") for t in lines) == 3
    results = [t for t in lines if t.startswith("result ")]
    assert len(results) == 4 and all(t.split()[1] in ("won", "lost") for t in results)
    seats = [r["seats"] for r in records]
    outcome = [r["outcome"][next(s for s, e in seat.items() if e == "parrot")] for r, seat in zip(records, seats)]
    assert [t.split()[1] for t in results] == outcome
    # a game the bot wrote to stderr in keeps its log; the first, where it wrote nothing, none (an
    # empty file a seat and a game was left)
    logs = {p.name.split(".")[0]: p.read_text() for p in (tmp_path / "t" / "transcripts").glob("*.stderr.log")}
    assert logs == {f"game-0000{n}": "a new game\n" for n in (1, 2, 3)}, logs
    # each game's news, told at its goes: its seat's event stream, each event once, in order, from the game's start
    games, game = [], None
    for text in lines:
        if text.startswith(("arbiter 1 ", "new-game ")):
            game = []
            games.append(game)
        elif text.startswith("event: "):
            game.append(text.removeprefix("event: "))
    assert len(games) == 4
    for r, heard in zip(sorted(records, key=lambda r: r["game"]), games):
        session = tr.replay(tr.parse((tmp_path / "t" / r["transcript"]).read_text(encoding="utf-8"))).session
        seat = next(s for s, e in r["seats"].items() if e == "parrot")
        stream = [e.text for e in session.events.visible_to(seat)]
        assert len(heard) > 10 and heard == stream[:len(heard)]


ONE_GAME_BOT = """
import os, random, sys, time
log = open(sys.argv[1], "a")
log.write(f"{os.getpid()}\\n")
log.flush()
rng = random.Random(1)
legal = []
for line in sys.stdin:
    kind, _, rest = line.strip().partition(" ")
    if kind == "legal:":
        legal.append(rest)
    elif kind == "go":
        print(rng.choice(legal), flush=True)
        legal = []
    elif kind == "result":
        time.sleep(float(sys.argv[2]))  # (0: gone at once; else still there when the next game begins)
        sys.exit(0)
"""


@pytest.mark.parametrize("linger", [0, 0.3])
def test_a_reused_bot_that_ends_itself_after_its_result_loses_nothing(tmp_path, linger):
    """A program written for one game a process exits after its ``result``. With --reuse the
    worker picked it for the next game when it had not yet seen it go: it lost that game as a
    crash, or not, as the processes happened to run (and so by the workers' count). Found gone
    at its first go, it is replaced by a fresh process, as without --reuse."""
    (tmp_path / "once.py").write_text(ONE_GAME_BOT)
    log = tmp_path / "pids.log"
    entrants = [Entrant("once", f"exec:{PY} {tmp_path / 'once.py'} {log} {linger}"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=4, reuse=True)
    assert [(r["finished"], r["forfeits"]) for r in records] == [(True, [])] * 4
    assert len(set(log.read_text().split())) == 4  # a process a game


ILLEGAL_WITH_A_NOTE = """
import sys
print("my note", file=sys.stderr, flush=True)
for line in sys.stdin:
    if line.startswith("go "):
        print("frobnicate the widget", flush=True)
"""


def test_an_illegal_input_forfeit_in_a_tournament_ends_with_the_bots_stderr(tmp_path):
    """``arbiter play`` ended such a reason with the bot's stderr; a tournament did not (the
    arena's seat holding the process was not asked to explain it), though a crash's had it."""
    (tmp_path / "bad.py").write_text(ILLEGAL_WITH_A_NOTE)
    entrants = [Entrant("bad", f"exec:{PY} {tmp_path / 'bad.py'}"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=1)
    [forfeit] = records[0]["forfeits"]
    assert forfeit["kind"] == "illegal" and forfeit["reason"].endswith("; its stderr ends: my note")


LATE_NAME = """
import sys
for line in sys.stdin:
    if line.startswith('go'):
        print('shift row 1 left', flush=True)
        print('name Late', flush=True)
"""


def test_without_reuse_each_game_has_its_own_process_told_how_its_game_ended(tmp_path):
    """Without --reuse every game starts the program afresh (a hello each, no new-game) and
    ends it; a game stopped by --max-moves is told so: ``result none``."""
    (tmp_path / "parrot.py").write_text(PROTOCOL_BOT)
    log = tmp_path / "heard.log"
    entrants = [Entrant("parrot", f"exec:{PY} {tmp_path / 'parrot.py'} {log}"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=2, max_moves=4)
    assert [r["finished"] for r in records] == [False, False]
    heard = [line.split(" ", 1) for line in log.read_text().splitlines()]
    by_pid: dict[str, list[str]] = {}
    for pid, text in heard:
        by_pid.setdefault(pid, []).append(text)
    assert len(by_pid) == 2, "a process per game"
    for lines in by_pid.values():
        assert lines[0].startswith("arbiter 1 fbi-mafia duel-3v3 ") and not any(t.startswith("new-game") for t in lines)
        assert lines[-1] == "result none the game did not finish"


def test_a_name_after_the_first_answer_is_a_line_not_asked_for(tmp_path):
    (tmp_path / "late.py").write_text(LATE_NAME)
    entrants = [Entrant("late", f"exec:{PY} {tmp_path / 'late.py'}"), Entrant("rnd", "random")]
    _, records = play(tmp_path / "t", 1, entrants=entrants, game="fbi-mafia", modes=("duel-3v3",), players=None,
                      games=2, bot_timeout=2)
    kinds = [f["kind"] for r in records for f in r["forfeits"]]
    assert kinds and set(kinds) <= {"protocol", "illegal"} and "protocol" in kinds

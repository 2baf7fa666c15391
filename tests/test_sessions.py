"""Sessions that tell the truth: looking changes nothing, time passing shows what it did, the
sand runs out on the wall clock while nobody types, a JSON client learns who it is at once,
a resumed game is played as it was (same seat, same bots), and a bot's stderr is kept beside
the transcript."""

from __future__ import annotations

import copy
import json
import re
import shlex
import sys
from pathlib import Path
from typing import get_args

import pytest
import yaml

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bots import RandomBot
from arbiter.engine.lines import TIMEOUT
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.helpers import responses, run, snapshot

MAZE, MAFIA = registry.get("magic-maze"), registry.get("mafia")
LOOKS = ["board", "legal p1", "view", "view p1", "time", "awaiting", "help", "events", "score", "seats",
         "p1 frobnicate", "nonsense"]


def maze(scenario: str = "1", players: int = 2, seed: int = 1) -> Session:
    return Session(MAZE, scenario, seed=seed, options={"players": players})


def test_looking_gives_the_bots_no_move() -> None:
    """A person at p1, planner bots elsewhere: after the bots' opening go, no look (nor a refused
    line) lets them act; the person's move does."""
    session = maze("3", 4, seed=2)
    bots = {s: RandomBot(s, 2, "planner") for s in session.seats if s != "p1"}
    legal = session.state.legal_inputs("p1")
    move = next(m for m in legal if m.startswith("pawn"))
    out = list(Match(Protocol(session, "p1"), bots, LOOKS + LOOKS + [f"p1 {move}"]).run())
    heads = [o.splitlines()[0] for o in out]
    looks = heads.index("= board")
    assert looks >= 1 and all(h.startswith("= p") and not h.startswith("= p1") for h in heads[:looks])
    mine = heads.index(f"= p1 {move}")
    assert mine == looks + 2 * len(LOOKS), "a bot moved between the looks"
    assert heads[mine + 1:] and all(h.startswith(("= p2", "= p3", "= p4")) for h in heads[mine + 1:])


def test_legal_is_not_stale_a_moment_later() -> None:
    session = maze("3", 4, seed=2)
    bots = {s: RandomBot(s, 2, "planner") for s in session.seats if s != "p1"}
    p = Protocol(session, "p1")
    first = list(Match(p, bots, ["legal p1"]).run())[-1]
    again = list(Match(p, {}, ["legal p1"]).run())[-1]
    assert first == again


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_stamped_look_that_ends_the_game_shows_the_end(json_mode: bool) -> None:
    session = maze()
    out = Protocol(session, json_mode=json_mode).handle("@500 time")
    if json_mode:
        obj = json.loads(out)
        assert obj["command"] == "time" and obj["time"] == "500"
        assert [e["kind"] for e in obj["events"]] == ["game-over"]
        assert obj["result"]["reason"] == "time"
    else:
        (frame,) = responses(out)
        assert frame[0] == "= time"
        assert frame[1] == "event: The sand ran out at 180 s: everyone loses."
        assert frame[2:] == ["result: The sand ran out at 180 s: everyone loses.", "time: 500"]
    assert session.entries[-1] == {"tick": {"time": 500}}  # the time that passed; the sand ran out within it


class Silent:
    """A person who types nothing: every wait for a line times out, and the wall clock moves on."""

    def __init__(self, clock: list[float], lines: list[str] | None = None) -> None:
        self.clock, self.lines, self.waits = clock, list(lines or []), []

    def read_line(self, timeout: float | None):
        if self.lines:
            return self.lines.pop(0)
        if timeout is None:
            return None
        self.waits.append(timeout)
        self.clock[0] += timeout
        if self.clock[0] > 10_000:
            return None
        return TIMEOUT


def test_with_realtime_the_sand_runs_out_while_nobody_types() -> None:
    session = maze()
    clock = [50.0]
    person = Silent(clock, ["p1 stare p2"])
    out = list(Match(Protocol(session), {}, person, realtime=True, clock=lambda: clock[0]).run())
    assert out[-1].startswith("= time 180\nevent: The sand ran out at 180 s: everyone loses.\n")
    assert session.over and session.entries[-1] == {"tick": {"time": 180}}
    assert person.waits == [pytest.approx(180.0)]  # it waited exactly until the deadline


def test_with_realtime_blank_lines_and_comments_are_not_stamped_and_get_no_response() -> None:
    session = maze()
    clock = [50.0]
    person = Silent(clock, ["", "   ", "# a remark", "p1 stare p2"])
    out = list(Match(Protocol(session), {}, person, realtime=True, clock=lambda: clock[0]).run())
    assert out[0].startswith("= p1 stare p2") and not any(o.startswith("?") for o in out)
    assert [(m.seat, m.text) for m in session.moves] == [("p1", "stare p2")]


def test_an_unstamped_move_past_the_deadline_shows_the_sand_running_out_before_its_refusal() -> None:
    """An unstamped input happens one step after the clock: when the sand runs out within that
    step, the referee shows the time passing first (its own frame), then refuses the input."""
    session = maze("1", 2, seed=1)
    out = list(Match(Protocol(session), {}, ["@179.9 p1 stare p2", "p1 stare p2", "@179.9 time"]).run())
    assert out[1] == ("= time 180\nevent: The sand ran out at 180 s: everyone loses.\n"
                      "result: The sand ran out at 180 s: everyone loses.\n\n")
    assert out[2].startswith("? game-over: the game is over: The sand ran out at 180 s")
    assert out[3].startswith("? time: time 179.9 is before the clock (180)")  # a stamp before it: refused
    assert session.entries[-1] == {"tick": {"time": 180}}


class SlowBot:
    """A bot that thinks 200 s of wall clock before each answer."""

    def __init__(self, seat: str, clock: list[float]) -> None:
        self.seat, self.clock, self.asked = seat, clock, 0

    def choose(self, session: Session) -> str:
        self.asked += 1
        self.clock[0] += 200.0
        return "stare p1"

    def close(self) -> None:
        pass


def test_with_realtime_a_bot_that_thinks_past_the_deadline_is_too_late() -> None:
    """The sand runs out at 180 s while the bot thinks until 200 s: the loss is shown and
    recorded at 180 s, and the bot's input, chosen for a game still on, is not played."""
    session = maze()
    clock = [0.0]
    bot = SlowBot("p2", clock)
    out = list(Match(Protocol(session, "p1"), {"p2": bot}, Silent(clock), realtime=True, clock=lambda: clock[0]).run())
    assert out == ["= time 180\nevent: The sand ran out at 180 s: everyone loses.\n"
                   "result: The sand ran out at 180 s: everyone loses.\n\n"]
    assert not session.moves and session.entries[-1] == {"tick": {"time": 180}} and bot.asked == 1


def test_without_realtime_the_match_waits_for_a_line_as_long_as_it_takes() -> None:
    """On the game's own clock nothing happens while nobody types: the match asks for the next
    line with no timeout, however near the deadline, and time passes only by stamps."""
    session = maze()
    clock = [50.0]
    person = Silent(clock, ["@179 p1 stare p2"])
    list(Match(Protocol(session), {}, person, realtime=False, clock=lambda: clock[0]).run())
    assert person.waits == [] and not session.over and session.clock_ms == 179_000


def test_with_realtime_bots_act_as_the_wall_clock_runs() -> None:
    session = maze("1", 2, seed=1)
    clock = [0.0]
    person = Silent(clock)
    bots = {"p2": RandomBot("p2", 1, "planner")}
    list(Match(Protocol(session, "p1"), bots, person, realtime=True, clock=lambda: clock[0]).run())
    bot_times = [m.time_ms for m in session.moves if m.seat == "p2"]
    assert len(bot_times) > 3 and bot_times == sorted(bot_times)
    assert all(b - a >= session.state.clock_step_ms for a, b in zip(bot_times[1:], bot_times[2:]))
    assert session.over


def test_a_json_session_opens_with_what_the_header_shows(tmp_path: Path) -> None:
    r = run("play", "mafia", "--players", 8, "--seed", 3, "--as", "p3", "--json", "--moves", "-", input="time\n")
    assert r.exit_code == 4, r.output  # the input ended before the game did
    opening, answer = [json.loads(line) for line in r.stdout.splitlines()]
    assert opening["command"] == "open" and opening["ok"] is True
    assert opening["seat"] == "p3" and opening["seats"] == [f"p{i}" for i in range(1, 9)]
    assert opening["game"] == "mafia" and opening["variant"] == "8-players"
    assert opening["seed"] is None, "the seed decides every secret: a seat is told it at the end"
    own = [e for e in opening["events"] if "p3" in e["text"] and "card" in e["text"].lower()]
    assert own, "the seat's own card is in its opening events"
    assert [e["index"] for e in opening["events"]] == list(range(len(opening["events"])))
    assert opening["awaiting"] and answer["command"] == "time"


# ------------------------------------------------------------------------------------ resume
def _stopped(tmp_path: Path, *extra: str) -> Path:
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--players", 8, "--seed", 3, "--transcript", t, "--max-moves", 4, *extra,
            input="")
    assert r.exit_code == 0, r.output
    return t


def test_resume_plays_on_as_the_game_was_played(tmp_path: Path) -> None:
    t = _stopped(tmp_path, "--as", "p3", "--bots", "random", "--json")
    session = yaml.safe_load(t.read_text(encoding="utf-8"))["session"]
    assert session["as"] == "p3" and session["json"] is True
    assert sorted(session["bots"]) == [f"p{i}" for i in range(1, 9) if i != 3]
    r = run("play", "--resume", t, "--moves", "-", input="board\n")
    assert r.exit_code == 4, r.output  # the input ended before the game did
    objects = [json.loads(line) for line in r.stdout.splitlines()]
    assert objects[0]["command"] == "open" and objects[0]["seat"] == "p3"
    board = next(o for o in objects if o.get("command") == "board")
    assert board["seat"] == "p3"  # the seat's board, not the host's


@pytest.mark.parametrize("args, words", [
    (["fbi-mafia"], "it is a game of mafia, not fbi-mafia"),
    (["--seed", "4"], "its seed is 3, not 4"),
    (["--mode", "9-players"], "its mode is 8-players, not 9-players"),
    (["--as", "p4"], "this game was played as p3"),
    (["--transcript", "other.yaml"], "goes on in its own transcript"),
    (["--deck", "{tmp}/deck.yaml"], "Invalid value for --deck"),  # (unreadable as a deck: 1, not 2, once)
])
def test_resume_refuses_what_contradicts_the_game(tmp_path: Path, args: list[str], words: str) -> None:
    t = _stopped(tmp_path, "--as", "p3", "--bots", "random")
    before = t.read_text(encoding="utf-8")
    (tmp_path / "deck.yaml").write_text("\ufeffkind: deck\ncards: {boss: 1}\n", encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = run("play", *args[:1] if args[0] == "fbi-mafia" else [], "--resume", t,
            *(args[1:] if args[0] == "fbi-mafia" else args))
    assert r.exit_code == 2 and words in r.output, r.output
    assert t.read_text(encoding="utf-8") == before


def test_resume_accepts_the_options_that_agree_with_the_game(tmp_path: Path) -> None:
    """Each option a transcript records may be given again with its recorded value (a script
    that always passes them): only a contradiction is refused."""
    t = _stopped(tmp_path, "--bots", "random")
    r = run("play", "mafia", "--resume", t, "--seed", 3, "--mode", "8-players", "--players", 8, "--transcript", t,
            "--max-moves", 6)
    assert r.exit_code == 0 and f"stopped after 6 moves (--max-moves); resume with: arbiter play --resume {t}" in r.output
    assert "had already ended" not in r.output  # it had not
    (tmp_path / "seated").mkdir()
    seated = _stopped(tmp_path / "seated", "--as", "p3", "--bots", "random")
    r = run("play", "--resume", seated, "--as", "P3", "--max-moves", 6)  # its own seat, in any case
    assert r.exit_code == 0 and "stopped after 6 moves" in r.output, r.output


def test_resume_of_a_hosts_game_refuses_a_seat_naming_the_host(tmp_path: Path) -> None:
    t = _stopped(tmp_path, "--bots", "random")
    r = run("play", "--resume", t, "--as", "p2")
    assert r.exit_code == 2 and "this game was played as the host (no --as)" in r.output, r.output


def test_resume_refuses_a_hidden_roles_level_for_a_game_without_one(tmp_path: Path) -> None:
    t = _stopped(tmp_path, "--bots", "random")
    r = run("play", "--resume", t, "--roles", 2)
    assert r.exit_code == 2 and "its level is none, not 2" in r.output, r.output


def test_resume_starts_a_program_its_transcript_names_only_when_named_again(tmp_path: Path) -> None:
    """A transcript's header may name any command as a bot: ``--resume`` of a file from someone
    else ran it, with nothing to say so. It is a usage error naming the ``--bot`` to add; named
    again, the program plays."""
    t = tmp_path / "g.yaml"
    marker = tmp_path / "ran"
    assert run("play", "mafia", "--players", 8, "--bots", "random", "--seed", 3, "--transcript", t,
               "--max-moves", 5).exit_code == 0
    text = t.read_text(encoding="utf-8")
    (tmp_path / "bot.py").write_text(f"open({str(marker)!r}, 'w')\n", encoding="utf-8")  # (then it exits)
    spec = f"exec:{sys.executable} {tmp_path / 'bot.py'}"
    t.write_text(text.replace("bots: {p1: random,", f"bots: {{p1: {json.dumps(spec)},", 1), encoding="utf-8")
    before = t.read_bytes()
    r = run("play", "--resume", t)
    assert r.exit_code == 2 and not marker.exists() and t.read_bytes() == before
    assert f"its session ran programs as bots (p1); a resumed session starts a program its transcript names only " \
           f"when you name it again: add --bot {shlex.quote('p1=' + spec)}" in " ".join(r.output.split())
    r = run("play", "--resume", t, "--bot", "p1=random", "--max-moves", 6)  # another bot: nothing runs
    assert r.exit_code == 0 and not marker.exists()


def test_resume_may_change_the_bots_and_says_so_in_the_record(tmp_path: Path) -> None:
    t = _stopped(tmp_path, "--bots", "random")
    r = run("play", "--resume", t, "--bot", "p1=random", "--bot-timeout", 3, "--max-moves", 6)
    assert r.exit_code == 0, r.output
    notes = [e["note"] for e in yaml.safe_load(t.read_text(encoding="utf-8"))["log"] if "note" in e]
    assert notes[-1]["session"]["bot_timeout"] == 3
    assert run("replay", t).exit_code == 0


@pytest.mark.parametrize("edit, words", [
    (("bots", [1, 2]), "bots: expected a mapping of seat to bot (p8: random), found [1, 2]"),
    (("bots", ["p1"]), "bots: expected a mapping"),  # once: every bot dropped, and the loss recorded
    (("bots", {"p9": "random"}), "bots: 'p9' is not a seat of this game (p1 p2 p3 p4 p5 p6 p7 p8)"),
    (("bots", {"p1": None}), "bots.p1: expected a bot (random, exec:COMMAND, ...), found None"),
    (("bots", {"p1": ["a"]}), "bots.p1: expected a bot"),
    (("as", "p12"), "as: 'p12' is not a seat of this game"),
    (("bot_timeout", "fast"), "bot_timeout: expected seconds from 0.01 to 3600, found 'fast'"),
    (("bot_timeout", -5), "bot_timeout: expected seconds from 0.01 to 3600, found -5"),
    (("bot_timeout", float("nan")), "bot_timeout: expected seconds from 0.01 to 3600, found nan"),
    (("realtime", 3), "realtime: expected true or false, found 3"),
    (("speed", 1), "unknown key 'speed' (a session has as, bots, json, realtime, bot_timeout, entrants, "
                   "tournament)"),
    (("entrants", {"p1": 3}), "entrants.p1: expected an entrant's name, found 3"),
    (("tournament", {"seed": 1, "game": -1}), "tournament: expected {seed: N, game: N} (whole numbers, game from 0)"),
    (("tournament", {"seed": 1}), "tournament: expected {seed: N, game: N}"),
])
def test_resume_refuses_a_session_header_edited_wrong_and_changes_nothing(tmp_path: Path, edit: tuple,
                                                                            words: str) -> None:
    """The header's ``session`` is read as strictly as the rest (it once crashed a resume with a
    Python traceback, or dropped every bot without a word): a resume, a replay and the same
    edit in a resumed session's note all name it, and the file is left as it was."""
    t = _stopped(tmp_path, "--bots", "random")
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    doc["session"][edit[0]] = edit[1]
    t.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    before = t.read_text(encoding="utf-8")
    r = run("play", "--resume", t, input="")
    assert r.exit_code == 1 and re.match(rf"Error: {re.escape(str(t))} \(line \d+\): session: {re.escape(words)}",
                                         r.output), r.output  # (the session header's line)
    assert t.read_text(encoding="utf-8") == before
    r = run("replay", t)
    assert r.exit_code == 1 and f"session: {words}" in r.output, r.output
    # the same, said by a resumed session's note
    (tmp_path / "again").mkdir()
    good = _stopped(tmp_path / "again", "--bots", "random")
    doc = yaml.safe_load(good.read_text(encoding="utf-8"))
    doc["log"].append({"note": {"session": {**copy.deepcopy(doc["session"]), edit[0]: edit[1]}}})
    good.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    r = run("play", "--resume", good, input="")
    assert r.exit_code == 1 and f"note: session: {words}" in r.output, r.output


def test_a_bots_stderr_goes_to_a_log_beside_the_transcript(tmp_path: Path) -> None:
    bot = tmp_path / "noisy.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    if line.startswith('go '):\n"
                   "        print('thinking hard', file=sys.stderr, flush=True)\n        print('surrender', flush=True)\n",
                   encoding="utf-8")
    t = tmp_path / "game.yaml"
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 1, "--bot", f"mafia=exec:{sys.executable} {bot}",
            "--bot", "fbi=random", "--transcript", t)
    assert r.exit_code == 0, r.output
    log = tmp_path / "game.mafia.stderr.log"
    assert log.read_text(encoding="utf-8") == "thinking hard\n"
    assert not (tmp_path / "game.fbi.stderr.log").exists()  # a built-in bot has no stderr


def test_a_bot_silent_on_stderr_leaves_no_log_but_one_it_appends_to_stays(tmp_path: Path) -> None:
    bot = tmp_path / "quiet.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    if line.startswith('go '):\n"
                   "        print('surrender', flush=True)\n", encoding="utf-8")
    args = ("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 1, "--bot", f"mafia=exec:{sys.executable} {bot}",
            "--bot", "fbi=random", "--transcript")
    assert run(*args, tmp_path / "a.yaml").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "quiet.py"]
    (tmp_path / "b.mafia.stderr.log").write_bytes(b"")  # there before the game: the bot appends to it
    assert run(*args, tmp_path / "b.yaml").exit_code == 0
    assert (tmp_path / "b.mafia.stderr.log").read_bytes() == b""


def test_time_that_changes_the_game_before_a_stamped_move_is_shown_first() -> None:
    """A line stamped after the sand ran out: the end comes first, as its own answer at the
    moment it happened, then the line's answer."""
    session = maze()
    out = list(Match(Protocol(session), {}, ["@200 p1 draw", "score"]).run())
    heads = [o.splitlines()[0] for o in out]
    assert heads == ["= time 180", "? game-over: the game is over: The sand ran out at 180 s: everyone loses.",
                     "= score"]
    assert session.entries[-1] == {"tick": {"time": 180}}


def _freed_setups() -> list[tuple[str, str, dict]]:
    out = []
    for rules in registry.games():
        v = rules.variants()[0]
        name, options = v.name, {}
        if rules.info.bench_players is not None:
            name, options = rules.choose_setup(v.name, rules.info.bench_players)
        out.append((rules.name, name, options))
        out += [(rules.name, n, o) for n, o in getattr(rules, "extra_setups", lambda: [])()[:1]]
    return out


@pytest.mark.parametrize("game, variant, options", _freed_setups(), ids=lambda x: str(x) if x else "-")
def test_a_finished_game_is_freed_as_soon_as_it_is_dropped(game: str, variant: str, options: dict) -> None:
    """No reference cycle holds a game (its session, state, chance and logs): dropped, it is
    freed at once, not left for the cyclic garbage collector, whose passes over the leftover
    games of a bench or a tournament cost about a tenth of their time. Played through ``Match``
    and ``Protocol`` too (a real-time game, or a seat's session)."""
    import gc
    import weakref

    from arbiter.engine.bench import play_random

    rules = registry.get(game)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        session = play_random(rules, variant, 3, kind=rules.info.bench_bot, options=options)
        assert session.over or session.moves
        seen = weakref.ref(session), weakref.ref(session.state), weakref.ref(session.chance)
        protocol = Protocol(session, session.seats[0])
        protocol.handle("view")
        seen += (weakref.ref(protocol),)
        del session, protocol
        assert [ref() for ref in seen] == [None] * len(seen)
    finally:
        if enabled:
            gc.enable()


def _played_with_a_listener(game: str, variant: str, options: dict, seed: int) -> tuple[Session, list[dict], int]:
    """A game with a listener from its first input: a first input in words at 1.25 s, then the
    built-in bots through ``submit_move`` (``Match`` for a real-time game); what the listener
    heard, and how many entries came before it listened."""
    rules = registry.get(game)
    session = Session(rules, variant, seed=seed, options=options)
    heard: list[dict] = []
    before = len(session.entries)
    session.listeners.append(heard.append)
    seat = next(s for s in session.seats if session.state.legal_inputs(s))
    session.submit(seat, session.state.legal_inputs(seat)[0], 1250)
    assert session.entries[-1]["move"]["time"] == 1.25
    bots = {s: RandomBot(s, seed, rules.info.bench_bot) for s in session.seats}
    if session.state.realtime:
        for _ in Match(Protocol(session), dict(bots), None, max_moves=300).run():
            pass
    else:
        for _ in range(300):
            if session.over:
                break
            seat = session.state.awaited_seats()[0]
            session.submit_move(seat, bots[seat].choose_move(session))
    return session, heard, before


DRAWING = [("fbi-mafia", "standard-3v3", {}, 103), ("magic-maze", "1", {"players": 1}, 1)]
"""Games whose inputs draw (the identity deck rebuilt; the solo deck reshuffled)."""


@pytest.mark.parametrize("game, variant, options, seed", [(*s, 5) for s in _freed_setups()] + DRAWING,
                         ids=lambda x: str(x) if x else "-")
def test_each_move_is_recorded_as_its_entry_then_what_it_drew(game: str, variant: str, options: dict,
                                                              seed: int) -> None:
    """The record a transcript is written from: each accepted move's entry is its
    ``Move.as_entry()`` (the session writes it out without the call), followed by the chance
    outcomes its resolution drew, and a listener hears exactly the entries, in their order
    (``_played_with_a_listener``: words and move values, a time that is not whole seconds)."""
    rules = registry.get(game)
    session, heard, before = _played_with_a_listener(game, variant, options, seed)
    moves = session.moves
    assert len(moves) > 20
    assert heard == session.entries[before:] and all(a is b for a, b in zip(heard, session.entries[before:]))
    assert [e for e in session.entries if "move" in e] == [m.as_entry() for m in moves]
    assert [m.n for m in moves] == list(range(1, len(moves) + 1))
    # each move's draws follow its entry: the same moves submitted one by one to a fresh game,
    # each leaves at the end of the record what time changed first (ticks), its own entry,
    # then what it drew
    replay = Session(rules, variant, seed=seed, options=options)
    at, drawn = len(replay.entries), 0
    for m in moves:
        replay.submit(m.seat, m.text, m.time_ms)
        added, at = replay.entries[at:], len(replay.entries)
        ticks = [e for e in added if "tick" in e]
        assert added[len(ticks)] == m.as_entry() and all("chance" in e for e in added[len(ticks) + 1:]), added
        drawn += len(added) - len(ticks) - 1
    replay.advance_to(session.clock_ms)  # time after the last move (the sand ran out)
    assert replay.entries == session.entries
    assert drawn > 0 or (game, variant, options, seed) not in DRAWING


@pytest.mark.parametrize(("game", "mode"), [("fbi-mafia", "standard-3v3"), ("mafia", "8-players"), ("magic-maze", "1")])
def test_submit_move_reads_words_and_refuses_what_is_neither_a_move_nor_words(game: str, mode: str) -> None:
    """``Session.submit_move`` takes the game's move values and, in every game, an input's words
    (a ``str``, read as ``submit`` reads them); anything else is a ``TypeError`` naming what it
    takes and what it got, and changes nothing."""
    rules = registry.get(game)
    by_words, by_move = Session(rules, mode, seed=4), Session(rules, mode, seed=4)
    seat = by_words.state.awaiting()[0].seat
    text = by_words.state.legal_inputs(seat)[0]
    assert by_move.submit_move(seat, f" {text} ") == by_words.submit(seat, text)
    assert by_move.entries == by_words.entries
    before = snapshot(by_move)
    takes = "an input's words" if game == "magic-maze" else "one of the game's move values or an input's words"
    for value in (None, 3, b"pass", [text]):  # (Magic Maze's bots play words: it has no move value path)
        with pytest.raises(TypeError, match=rf"^submit_move takes {takes} \(a str\), not {type(value).__name__}"):
            by_move.submit_move(seat, value)
        assert snapshot(by_move) == before


def test_the_move_classes_known_by_hash_are_those_move_kinds_names() -> None:
    """``Session.submit_move`` takes a value whose class is one of ``move_classes`` without asking
    ``isinstance``: they are exactly the classes the game's ``move_kinds`` names, as a union, a
    tuple or one class (none for a game of words), so a value of another game's moves is still
    refused before anything changes."""
    from arbiter.engine.games.fbi_mafia.moves import Move as FbiMove
    from arbiter.engine.games.mafia.moves import Move as MafiaMove, Pass, Vote
    from arbiter.engine.games.mafia.state import MafiaState
    from arbiter.engine.session import move_classes

    assert move_classes(MafiaState) == set(get_args(MafiaMove)) and len(move_classes(MafiaState)) == 8
    for kinds, classes in (((Vote, Pass), {Vote, Pass}), (Vote, {Vote}), ((), set())):
        assert move_classes(type("Kinds", (MafiaState,), {"move_kinds": kinds, "__slots__": ()})) == classes
    session = Session(registry.get("mafia"), "8-players", seed=4)
    seat, before = session.state.awaited_seats()[0], snapshot(session)
    assert move_classes(type(Session(registry.get("fbi-mafia"), "standard-3v3", seed=4).state)) == {FbiMove}
    with pytest.raises(TypeError, match=r"^submit_move takes one of the game's move values .*, not Move"):
        session.submit_move(seat, FbiMove(verb="shift", line="row", index=2, delta=2))
    assert snapshot(session) == before


def test_a_hidden_roles_game_resumes_without_its_level_given_again(tmp_path: Path) -> None:
    t = tmp_path / "roles.yaml"
    r = run("play", "magic-maze", "--scenario", 1, "--players", 4, "--roles", 2, "--seed", 1, "--bots", "planner",
            "--transcript", t, "--max-moves", 4)
    assert r.exit_code == 0, r.output
    r = run("play", "--resume", t, "--max-moves", 6)
    assert r.exit_code == 0 and "stopped after 6 moves" in r.output, r.output
    r = run("play", "--resume", t, "--roles", 3)
    assert r.exit_code == 2 and "its level is 2, not 3" in r.output, r.output


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_seat_is_told_the_seed_only_once_the_game_is_over(tmp_path: Path, json_mode: bool) -> None:
    """The seed decides every card and stack: with it a seat's player rebuilt the whole deal.
    A seat's session is told it once the game is over; the host's from the start."""
    mode = ["--json"] if json_mode else []
    firsts = []
    for seed in (3, 4):  # the referee's seed, or the person's own: a seat's opening is the same
        r = run("play", "mafia", "--players", 8, "--seed", seed, "--as", "p3", *mode, input="")
        first = r.output.splitlines()[0]
        firsts.append(json.loads(first)["seed"] if json_mode else first)
    assert firsts[0] == firsts[1] and (firsts[0] is None if json_mode else "seed told at the end" in firsts[0])
    host = run("play", "mafia", "--players", 8, "--seed", 3, "--bots", "random", "--transcript", tmp_path / "t.yaml",
               *mode).output.splitlines()[0]
    assert (json.loads(host)["seed"] == 3) if json_mode else ", seed 3;" in host
    # p3 played by a person who sends what p3's bot sent: the same game, to its end
    played = tr.read(tmp_path / "t.yaml").log
    (tmp_path / "p3.txt").write_text("".join(e["move"]["text"] + "\n" for e in played
                                             if "move" in e and e["move"]["seat"] == "p3"), encoding="utf-8")
    r = run("play", "mafia", "--players", 8, "--seed", 3, "--bots", "random", "--as", "p3", "--moves", tmp_path / "p3.txt")
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "# the seed was 3", r.output[-300:]
    finished = Session(registry.get("mafia"), "8-players", seed=3)
    for e in played:
        if "move" in e:
            finished.submit(e["move"]["seat"], e["move"]["text"])
    assert finished.over and Protocol(finished, "p3").opening().payload["seed"] == 3


def test_resume_of_a_custom_hidden_roles_deck_with_a_level_says_it_plays_a_deck(tmp_path: Path) -> None:
    """A custom deck brings its own level: resuming its game with --roles was refused as 'its
    level is none', which the game has (the deck's), instead of saying what contradicts."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 1, hero: 3}\n", encoding="utf-8")
    t = tmp_path / "t.yaml"
    assert run("play", "magic-maze", "--scenario", 1, "--players", 4, "--deck", deck, "--bots", "planner", "--seed", 1,
               "--max-moves", 3, "--transcript", t).exit_code == 0
    r = run("play", "--resume", t, "--roles", 2)
    assert r.exit_code == 2 and r.output.rstrip().endswith("it plays a custom deck (level 2), not --roles 2"), r.output


def test_resume_takes_a_hidden_roles_games_own_deck_at_its_own_player_count(tmp_path: Path) -> None:
    """A three-player game of a deck of three cards resumed with that deck was refused as too
    small 'for 4 players' (the count a new game takes when none is given), and a game of no
    custom deck resumed with one was told its deck was not that deck."""
    deck = tmp_path / "small.yaml"
    deck.write_text("game: magic-maze\nkind: roles\nlevel: 2\ncards: {traitor: 1, hero: 2}\n", encoding="utf-8")
    t, level = tmp_path / "t.yaml", tmp_path / "level.yaml"
    assert run("play", "magic-maze", "--scenario", 1, "--players", 3, "--deck", deck, "--bots", "planner", "--seed", 1,
               "--max-moves", 3, "--transcript", t).exit_code == 0
    r = run("play", "--resume", t, "--deck", deck, "--max-moves", 5)
    assert r.exit_code == 0 and "stopped after 5 moves" in r.output, r.output
    assert run("play", "magic-maze", "--scenario", 1, "--players", 3, "--roles", 2, "--bots", "planner", "--seed", 1,
               "--max-moves", 3, "--transcript", level).exit_code == 0
    r = run("play", "--resume", level, "--deck", deck)
    assert r.exit_code == 2 and r.output.rstrip().endswith(f"it plays no custom deck, not the deck of {deck}"), r.output

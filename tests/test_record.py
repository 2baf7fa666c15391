"""The record is sacred: every transcript the referee writes replays, whatever happened, and a
crash at any byte loses at most the line being written.

- A finished transcript cut at any byte from its last entry on (a crash while the last move or
  the ending was written), and at a sample of bytes before, still reads, replays, and resumes
  to the very same file; a game whose moves ended it ends again without its ending.
- ``--transcript`` never replaces a file unless told to, and nothing is ever appended after
  the ending.
- A property test plays games of every kind through the referee (random and planner bots,
  bots that fail in every way, a person typing anything at all, real-time endings), writes
  the transcript as ``arbiter play`` does, and checks that a replay of the file reproduces
  the game: the same moves, result and event log.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.bots import BotFailure, RandomBot
from arbiter.engine.lines import MAX_LINE_BYTES, LineReader
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.helpers import responses, run

FBI, MAFIA, MAZE = registry.get("fbi-mafia"), registry.get("mafia"), registry.get("magic-maze")


# --------------------------------------------------------------------------------- short games
def _bots_game(rules, variant: str, seed: int, options: dict | None = None, kind: str = "random",
               max_moves: int | None = None) -> Session:
    session = Session(rules, variant, seed=seed, options=options)
    bots = {s: RandomBot(s, seed, kind) for s in session.seats}
    for _ in Match(Protocol(session), bots, None, max_moves=max_moves).run():
        pass
    return session


@functools.cache
def finished_games() -> dict[str, tuple[Session, str]]:
    """One short finished game of each game, and its transcript's text."""
    fbi = Session(FBI, "duel-3v3", seed=2)
    for _ in range(6):
        seat = fbi.state.awaiting()[0].seat
        fbi.submit(seat, next(m for m in fbi.state.legal_inputs(seat) if m != "surrender"))
    fbi.submit("fbi", "surrender")
    games = {
        "fbi-mafia": fbi,
        "mafia": _bots_game(MAFIA, "6-players", 9),
        "magic-maze": _bots_game(MAZE, "1", 1, {"players": 2}),
    }
    for s in games.values():
        assert s.over, "precondition: the game is finished"
    return {name: (s, tr.dump(s)) for name, s in games.items()}


def _log_line_ends(text: str) -> list[int]:
    """The offset after each log line of a transcript the writer wrote."""
    data = text.encode("utf-8")
    at = data.index(b"\nlog:\n") + len(b"\nlog:\n")
    ends = []
    while data.startswith(b"- ", at):
        at = data.index(b"\n", at) + 1
        ends.append(at)
    return ends


def _cut_points(text: str) -> list[int]:
    """Every byte from the start of the last log line to the end, and a sample before it."""
    ends = _log_line_ends(text)
    last_start = ends[-2] if len(ends) > 1 else ends[-1]
    sample = list(range(text.encode().index(b"\nlog:\n") + 6, last_start, 41))
    return sample + list(range(last_start, len(text.encode("utf-8")) + 1))


@functools.cache
def _continued(game: str, kept: int) -> str:
    """The transcript file a resume writes after a crash left the first ``kept`` log entries:
    replayed from them, then the rest of the game's moves played on."""
    whole, text = finished_games()[game]
    ends = _log_line_ends(text)
    head = text.encode("utf-8")[: ends[kept - 1] if kept else text.encode().index(b"\nlog:\n") + 6]
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.yaml"
        path.write_bytes(head)
        t, session = tr.resume(path)
        writer = tr.TranscriptWriter(path, session, resume=len(t.log))
        for move in whole.moves[len(session.moves):]:
            session.submit(move.seat, move.text, move.time_ms)
        if not session.over:  # time alone ended it (the sand ran out after the last move)
            session.advance_to(whole.clock_ms)
        writer.close()
        return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", ["fbi-mafia", "mafia", "magic-maze"])
def test_every_cut_point_of_a_finished_transcript_reads_replays_and_resumes(tmp_path: Path, game: str) -> None:
    whole, text = finished_games()[game]
    data = text.encode("utf-8")
    ends = _log_line_ends(text)
    path = tmp_path / "t.yaml"
    checked = 0
    for cut in _cut_points(text):
        path.write_bytes(data[:cut])
        t = tr.read(path)  # never an error: at most the torn line is lost
        kept = sum(1 for end in ends if end <= cut)
        assert t.log == whole.entries[:kept], f"cut at byte {cut} of {len(data)}"
        report = _replay_of(game, kept)
        assert report.ok, (cut, report.problems)
        if kept == len(ends):  # every entry is there: the moves end the game, torn ending or not
            assert report.session.state.result == whole.state.result, cut
            assert tr._compare_ending(t, report.session) == [], cut  # a torn ending: the start of the replay's
        if not t.finished:
            assert _continued(game, kept) == text, f"resuming after a cut at byte {cut} gives another file"
        checked += 1
    assert checked > 200


@functools.cache
def _replay_of(game: str, kept: int) -> tr.ReplayReport:
    whole, text = finished_games()[game]
    full = tr.parse(text)
    return tr.replay(tr.Transcript(full.game, full.variant, full.data, full.seed, full.seats, full.options,
                                   full.log[:kept]))


@pytest.mark.parametrize("game", ["fbi-mafia", "mafia", "magic-maze"])
def test_an_ending_edited_anywhere_is_refused_not_read_as_a_torn_one(game: str) -> None:
    """A crash leaves the start of the ending the writer wrote, nothing else: an ending with one
    character replaced or removed, or with a line after it, was read as one a crash tore
    (``replay`` said ok, ``play --resume`` wrote it again) whenever the edit broke its YAML."""
    whole, text = finished_games()[game]
    start = text.index("\nresult:") + 1
    report = _replay_of(game, len(_log_line_ends(text)))
    ending = tr.ending_of(whole)
    edits = [text[:at] + "x" + text[at + 1:] for at in range(start, len(text)) if text[at] != "x"]
    edits += [text[:at] + text[at + 1:] for at in range(start, len(text) - 1, 3)]  # (the last line break: a cut)
    edits += [text + "extra: [\n", text + "x", text + "\n- {move: {n: 1}}\n"]
    torn = 0
    for edited in edits:
        try:
            t = tr.parse(edited)
        except tr.TranscriptError:
            continue
        assert t.log == whole.entries
        if t.torn_ending is None and (t.result, t.events) == (ending["result"], ending["events"]):
            continue  # (YAML reads the same ending: a space removed after a comma, say)
        torn += t.torn_ending is not None
        assert tr._compare_ending(t, report.session), edited[start - 1:]
    # (many edits break the ending's YAML: those that leave it the start of one the writer writes, in
    # its lines, are read as torn; one that makes a line of other text is refused as it is read)
    assert torn > 40


def test_a_torn_ending_is_written_again_by_play_resume(tmp_path: Path) -> None:
    whole, text = finished_games()["mafia"]
    path = tmp_path / "t.yaml"
    path.write_text(text[: text.index("\nresult:") + 20], encoding="utf-8")  # the crash tore the ending
    r = run("play", "--resume", path)
    assert r.exit_code == 0, r.output
    assert "had already ended the game" in r.output and "result: " in r.output
    assert path.read_text(encoding="utf-8") == text
    assert run("replay", path).exit_code == 0


def test_an_ending_a_crash_left_with_nul_bytes_replays(tmp_path: Path) -> None:
    """A crash may leave NUL bytes where the disk never got the ending's last block; the reader
    takes them for a crash's (``_not_a_cut_text``), and the replay did not: it said the ending
    was not the start of the one the moves give (edited?), and failed."""
    whole, text = finished_games()["mafia"]
    path = tmp_path / "t.yaml"
    cut = text.index("\nresult:") + 30
    path.write_text(text[:cut] + "\0" * 40, encoding="utf-8")
    r = run("replay", path)
    assert r.exit_code == 0 and "the transcript has no ending; the moves make it" in r.output, r.output
    r = run("play", "--resume", path)
    assert r.exit_code == 0 and path.read_text(encoding="utf-8") == text, r.output


def test_replay_of_a_transcript_without_its_ending_says_the_moves_make_it(tmp_path: Path) -> None:
    whole, text = finished_games()["fbi-mafia"]
    path = tmp_path / "t.yaml"
    path.write_text(text[: text.index("result:")], encoding="utf-8")
    r = run("replay", path)
    assert r.exit_code == 0 and "finished: FBI" not in r.output and "finished: MAFIA wins" in r.output, r.output
    assert "the transcript has no ending" in r.output


# ------------------------------------------------------------------------- no lost file, no tail
def test_transcript_refuses_an_existing_file_and_points_at_resume(tmp_path: Path) -> None:
    notes = tmp_path / "n.txt"
    notes.write_text("notes\n", encoding="utf-8")
    r = run("play", "fbi-mafia", "--bots", "random", "--seed", 1, "--transcript", notes)
    assert r.exit_code == 2 and "exists" in r.output and f"--resume {notes}" in r.output and "--force" in r.output
    assert notes.read_text(encoding="utf-8") == "notes\n"
    r = run("play", "fbi-mafia", "--bots", "random", "--seed", 1, "--transcript", notes, "--force")
    assert r.exit_code == 0, r.output
    assert tr.read(notes).finished


def test_the_writer_appends_nothing_after_the_ending(tmp_path: Path) -> None:
    session = Session(FBI, "duel-3v3", seed=1)
    path = tmp_path / "t.yaml"
    writer = tr.TranscriptWriter(path, session)
    session.submit("mafia", "surrender")
    ended = path.read_text(encoding="utf-8")
    assert ended.endswith("}\n") and "\nevents: {count:" in ended
    session.note({"seat": "mafia", "forfeit": "too late"})
    writer.close()
    assert path.read_text(encoding="utf-8") == ended
    assert tr.replay(tr.read(path)).ok


def test_a_bot_is_not_asked_after_the_sand_ran_out_and_every_line_is_answered(tmp_path: Path) -> None:
    """The trust issue's reproduction: p2 types, bots play p1, p3 and p4; the sand runs out."""
    t = tmp_path / "mz.yaml"
    lines = "p2 move yellow west 1\ntime\nawaiting\nscore\n"
    r = run("play", "magic-maze", "--scenario", 4, "--players", 4, "--seed", 15, "--transcript", t, "--moves", "-",
            "--as", "p2", "--bot", "p1=random", "--bot", "p3=random", "--bot", "p4=random", input=lines)
    assert r.exit_code == 0, r.output
    heads = [x[0] for x in responses(r.stdout)]
    assert not [h for h in heads if h.startswith("? bot")], heads
    assert heads[-4:] == ["= time", "= awaiting", "= score", "= board"], heads
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    assert doc["result"]["reason"] == "time" and not [e for e in doc["log"] if "note" in e]
    assert t.read_text(encoding="utf-8").rstrip().splitlines()[-1].startswith("events: {count:")
    assert run("replay", t).exit_code == 0
    r = run("play", "--resume", t)
    assert r.exit_code == 1 and "that game is over" in r.output


# ------------------------------------------------------------------------------ the property
class FlakyBot:
    """A built-in bot that fails at its ``at``-th go, in one of the ways a program can."""

    def __init__(self, seat: str, seed: int, kind: str, at: int, how: str) -> None:
        self.inner = RandomBot(seat, seed, kind)
        self.seat, self.at, self.how, self.asked = seat, at, how, 0

    def choose(self, session: Session) -> str | None:
        self.asked += 1
        if self.asked < self.at:
            return self.inner.choose(session)
        if self.how == "crash":
            raise BotFailure("the bot closed its output (exit status 1)")
        if self.how == "timeout":
            raise BotFailure("no answer within 0.5 s")
        if self.how == "huge":
            return "say " + "x" * (4 * MAX_LINE_BYTES)
        return "frobnicate the " + "\u00e9" * 3  # an input no game accepts

    def close(self) -> None:
        pass


GAMES = [
    (FBI, "standard-3v3", None, ("random",)), (FBI, "duel-4v4", None, ("random",)),
    (MAFIA, "7-players", None, ("random",)), (MAFIA, "9-players", None, ("random",)),
    (MAZE, "1", {"players": 3}, ("random", "planner")), (MAZE, "6", {"players": 2}, ("planner",)),
    (MAZE, "2", {"players": 1}, ("planner", "random")),
]
LINE = st.one_of(
    st.sampled_from(["time", "board", "awaiting", "legal p1", "view", "score", "help", "events", "@30 time",
                     "@999 time", "# a comment", "", "quit"]),
    st.text(max_size=30).map(lambda t: t.replace("\n", " ")),
    st.binary(max_size=20).map(lambda b: b.replace(b"\n", b" ")),
    st.just("PERSON_LEGAL"),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game=st.sampled_from(range(len(GAMES))), seed=st.integers(0, 500), data=st.data())
def test_whatever_happens_the_written_transcript_replays_the_game(tmp_path_factory, game, seed, data) -> None:
    rules, variant, options, kinds = GAMES[game]
    session = Session(rules, variant, seed=seed, options=options)
    person = data.draw(st.sampled_from([None, *session.seats]), label="person")
    bots = {}
    for seat in session.seats:
        if seat == person:
            continue
        kind = data.draw(st.sampled_from(kinds), label=f"{seat} kind")
        fail = data.draw(st.one_of(st.none(), st.tuples(st.integers(1, 40),
                                   st.sampled_from(["crash", "timeout", "huge", "illegal"]))), label=f"{seat} fails")
        bots[seat] = FlakyBot(seat, seed, kind, *fail) if fail else RandomBot(seat, seed, kind)
    lines = None
    if person is not None:
        rng = random.Random(seed)
        picked = data.draw(st.lists(LINE, max_size=25), label="lines")
        raw = []
        for item in picked:
            if item == "PERSON_LEGAL":  # something the person may play now, as it stands at the start
                legal = session.state.legal_inputs(person) or ["pass"]
                item = f"{person} {rng.choice(legal)}"
            raw.append(item.encode("utf-8", "surrogatepass") if isinstance(item, str) else item)
        lines = LineReader(__import__("io").BytesIO(b"\n".join(raw)))
    path = tmp_path_factory.mktemp("record") / "t.yaml"
    writer = tr.TranscriptWriter(path, session, settings={"as": person})
    try:
        for _ in Match(Protocol(session, person or "host"), bots, lines, max_moves=400).run():
            pass
    finally:
        writer.close()
    event(f"{rules.name}: " + ("finished" if session.over else "unfinished"))
    event("a bot failed" if any("note" in e for e in session.entries) else "no bot failed")
    event("a person typed" if person else "bots only")
    t = tr.read(path)
    report = tr.replay(t)
    assert report.ok, report.problems
    assert [(m.seat, m.text, m.time_ms) for m in report.session.moves] == \
        [(m.seat, m.text, m.time_ms) for m in session.moves]
    assert report.session.state.result == session.state.result
    assert report.session.events.digest() == session.events.digest()
    assert t.finished == session.over
    assert t.log == session.entries

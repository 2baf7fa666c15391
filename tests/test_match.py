"""The Match driver's handling of a bot that fails in a game with no way to forfeit: the
session ends with one framed refusal (valid JSON in JSON mode), never a stray line."""

from __future__ import annotations

import json

import pytest

from arbiter.engine import registry
from arbiter.engine.arena.stats import forfeit_kind
from arbiter.engine.bots import BotFailure, RandomBot, make_bot
from arbiter.engine.clock import seconds_name
from arbiter.engine.match import UNANSWERED_LIMIT, Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session


class BrokenBot:
    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.closed = False

    def choose(self, session: Session) -> str | None:
        raise BotFailure("it fell over")

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("game, variant, person, line", [
    ("fbi-mafia", "duel-3v3", "mafia", "@999999999.999 mafia shift row 1 left"),
    ("mafia", "6-players", "p6", "@999999999.999 p6 pass"),
])
def test_bots_play_on_at_the_clocks_last_moment_a_persons_stamp_set(game, variant, person, line):
    """A person's stamp put the clock at its end; each bot's move, one step later, passed it:
    the referee blamed the bot, tried its seat's forfeit (refused for the same reason) and
    ended the session saying the game had none (FBI has surrender, Mafia leave). The bots now
    move at the clock's last moment, as a person may by stamping it."""
    session = Session(registry.get(game), variant, seed=1)
    bots = {s: RandomBot(s, 1) for s in session.seats if s != person}
    out = list(Match(Protocol(session, person), bots, [line, "time"]).run())
    assert not any(o.startswith("? bot") for o in out), out
    assert not any("forfeit" in e.get("note", {}) for e in session.entries)
    stamped = next(i for i, m in enumerate(session.moves) if m.seat == person)
    after = session.moves[stamped:]
    assert len(after) > 1 and {m.time_ms for m in after} == {999_999_999_999}, after
    assert out[-1].startswith("= time\ntime: 999999999.999"), out[-1]


def test_a_forfeit_refused_says_so_not_that_the_game_has_none(monkeypatch):
    session = Session(registry.get("fbi-mafia"), "standard-3v3", seed=1)
    monkeypatch.setattr(session.rules, "forfeit_input", lambda seat: "fly away")
    out = list(Match(Protocol(session), {"bandit": BrokenBot("bandit")}, ["awaiting\n"]).run())
    assert out[0].startswith("? bot: bandit's bot failed (it fell over); its seat's forfeit (fly away) was refused "
                             "(syntax), so the session ends"), out[0]


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_failed_bot_in_a_game_without_forfeit_ends_the_session_framed(monkeypatch, json_mode):
    session = Session(registry.get("fbi-mafia"), "standard-3v3", seed=1)
    monkeypatch.setattr(session.rules, "forfeit_input", lambda seat: None)
    bot = BrokenBot("bandit")
    protocol = Protocol(session, json_mode=json_mode)
    out = list(Match(protocol, {"bandit": bot}, ["awaiting\n"]).run())
    assert len(out) == 1, out  # the session ended: the queued line was never read
    if json_mode:
        body = json.loads(out[0])
        assert out[0].endswith("\n") and out[0].count("\n") == 1
        assert body["ok"] is False and body["error"]["kind"] == "bot"
        assert "it fell over" in body["error"]["message"]
    else:
        assert out[0].startswith("? bot: bandit's bot failed (it fell over)") and out[0].endswith("\n\n")
    assert protocol.done and bot.closed
    assert session.entries[-1] == {"note": {"seat": "bandit", "forfeit": "it fell over"}}
    assert not session.moves


def test_another_seats_failed_bot_is_said_without_its_reason_in_a_seats_session(monkeypatch):
    """The failure message of a game without a forfeit names the reason to the host's session,
    and to another seat's only that the bot failed (its reason may tell what that seat may not
    know); the note keeps it whole."""
    session = Session(registry.get("fbi-mafia"), "standard-3v3", seed=1)
    monkeypatch.setattr(session.rules, "forfeit_input", lambda seat: None)
    protocol = Protocol(session, "undercover")
    out = list(Match(protocol, {"bandit": BrokenBot("bandit")}, []).run())
    assert out == ["? bot: bandit's bot failed; this game has no forfeit, so the session ends\n\n"]
    assert session.entries[-1] == {"note": {"seat": "bandit", "forfeit": "it fell over"}}


# ------------------------------------------------------------------ play: run without the responses
def _match(game: str, variant: str, seed: int, kind: str, options: dict | None = None, *, lines=None,
           bad: tuple[str, int] | None = None) -> tuple[Session, Match]:
    """A match of built-in bots of ``kind`` on every seat (but a person's ``lines``' seat); with
    ``bad`` = (seat, k), that seat's bot answers its k-th go with an illegal input."""
    session = Session(registry.get(game), variant, seed=seed, options=options)
    bots = {s: make_bot(kind, s, seed, 10.0, session.rules.bot_kinds) for s in session.seats}
    if lines is not None:
        bots.pop(session.seats[0])
    if bad is not None:
        seat, k = bad
        real, goes = bots[seat], [0]

        def choose(s: Session) -> str | None:
            goes[0] += 1
            return "frobnicate everything" if goes[0] == k else real.choose(s)
        bots[seat].choose = choose  # type: ignore[method-assign]
    return session, Match(Protocol(session), bots, lines, max_moves=400)


def _record(session: Session) -> tuple:
    return (session.entries, [m.as_entry() for m in session.moves], session.events.digest(), session.clock_ms,
            session.state.result)


PLAYED = [("fbi-mafia", "standard-3v3", "random", None), ("fbi-mafia", "duel-4v4", "random", None),
          ("mafia", "8-players", "random", None), ("mafia", "12-players", "sleuth", None),
          ("magic-maze", "1", "planner", {"players": 3}), ("magic-maze", "4", "random", {"players": 2}),
          ("magic-maze", "2", "planner", {"players": 4, "roles": 1})]


@pytest.mark.parametrize("game,variant,kind,options", PLAYED, ids=[f"{g}-{v}-{k}" for g, v, k, _ in PLAYED])
@pytest.mark.parametrize("seed", [1, 2])
def test_play_leaves_the_session_run_leaves(game, variant, kind, options, seed):
    """``Match.play`` skips writing responses only: the same moves, entries, events and result
    as ``run`` (turn games and real-time ones, where bots act in turn and time runs out)."""
    ran, match = _match(game, variant, seed, kind, options)
    out = list(match.run())
    played, match = _match(game, variant, seed, kind, options)
    assert match.play() is None
    assert len(ran.moves) > 10 and out
    assert _record(played) == _record(ran)


@pytest.mark.parametrize("game,variant", [("fbi-mafia", "standard-3v3"), ("mafia", "8-players"), ("magic-maze", "1")])
def test_play_records_a_bots_illegal_input_as_run_does(game, variant):
    """A bot's illegal input is a forfeit with the same note in both, whatever is not written."""
    options = {"players": 3} if game == "magic-maze" else None
    seat = Session(registry.get(game), variant, seed=3, options=options).seats[1]
    ran, match = _match(game, variant, 3, "random", options, bad=(seat, 4))
    list(match.run())
    played, match = _match(game, variant, 3, "random", options, bad=(seat, 4))
    match.play()
    notes = [e["note"] for e in played.entries if "note" in e]
    assert any(n.get("seat") == seat and "illegal input 'frobnicate everything'" in n.get("forfeit", "") for n in notes)
    assert _record(played) == _record(ran)


@pytest.mark.parametrize("length", [200, 201])
def test_a_bots_illegal_input_is_quoted_whole_up_to_200_characters(length):
    """The forfeit note quotes a bot's illegal input whole up to 200 characters; a longer one
    is cut there, with its size in bytes."""
    session, match = _match("fbi-mafia", "standard-3v3", 3, "random")
    seat, word = session.seats[0], "x" * length
    match.bots[seat].choose = lambda s: word  # type: ignore[method-assign]
    match.play()
    forfeit = next(e["note"]["forfeit"] for e in session.entries if "note" in e)
    quoted = repr(word) if length <= 200 else repr(word[:200]) + f"... ({length} bytes)"
    assert forfeit.startswith(f"illegal input {quoted}: ")


def test_the_games_refusal_of_a_long_illegal_input_is_cut_too():
    """The game's refusal quotes the unknown word whole: an 8,192-byte word made a reason of
    8.4 kB, in the note, the response and a tournament's results line."""
    session, match = _match("fbi-mafia", "standard-3v3", 3, "random")
    seat, word = session.seats[0], "z" * 8192
    match.bots[seat].choose = lambda s: word  # type: ignore[method-assign]
    match.play()
    forfeit = next(e["note"]["forfeit"] for e in session.entries if "note" in e)
    assert forfeit.startswith(f"illegal input {repr(word[:200])}... (8192 bytes): syntax: ")
    assert len(forfeit) < 600 and forfeit.endswith(" characters)")


@pytest.mark.parametrize("game, variant, answer, named", [
    ("fbi-mafia", "standard-3v3", "DETECTIVE pass", "detective"),  # in any case
    ("mafia", "8-players", "p2 pass", "p2"),
    ("mafia", "8-players", "frobnicate p2", None),  # a seat later in the line is not the seat it starts with
])
def test_a_bots_answer_for_another_seat_is_named_so(game, variant, answer, named):
    """A bot that wrote a full line for another seat (a bot answers for its own seat only) is
    told that its answer starts with that seat, not only that it is no action; the forfeit is
    still an illegal input."""
    session, match = _match(game, variant, 3, "random")
    seat = session.seats[0]
    match.bots[seat].choose = lambda s: answer  # type: ignore[method-assign]
    match.play()
    forfeit = next(e["note"]["forfeit"] for e in session.entries if "note" in e)
    hint = f" (the answer starts with the seat {named}: a bot answers for its own seat, {seat}, only)"
    assert forfeit.startswith(f"illegal input {answer!r}: syntax: ")
    assert forfeit.endswith(hint) == (named is not None), forfeit
    assert forfeit_kind(forfeit) == "illegal"


def test_a_seats_session_is_not_told_of_a_secret_input_that_showed_it_nothing():
    """Bots play Classic Mafia around p1's session: a night input p1 may not see is answered
    to p1 only when it showed p1 something (an event), never as a bare frame."""
    session = Session(registry.get("mafia"), "8-players", seed=2)
    bots = {s: make_bot("random", s, 2, 10.0, session.rules.bot_kinds) for s in session.seats}
    out = list(Match(Protocol(session, "p1"), bots, None, max_moves=60).run())
    secret = [o for o in out if o.startswith("= - (a secret input)")]
    assert secret and all("\nevent: " in o for o in secret)
    assert len(out) < len(session.moves)  # the night inputs that showed p1 nothing got no frame


def test_play_answers_a_persons_lines_without_writing_them():
    """A person's lines (moves, looks, a refused one) are applied as ``run`` applies them."""
    session = Session(registry.get("fbi-mafia"), "standard-3v3", seed=5)
    first = session.seats[0]
    legal = session.state.legal_inputs(first)
    lines = ["board", f"{first} frobnicate", f"{first} {legal[0]}", "awaiting", "quit"]
    ran, match = _match("fbi-mafia", "standard-3v3", 5, "random", lines=list(lines))
    out = list(match.run())
    played, match = _match("fbi-mafia", "standard-3v3", 5, "random", lines=list(lines))
    match.play()
    assert match.protocol.done and any(o.startswith("? ") for o in out)
    assert _record(played) == _record(ran) and played.moves[0].text == legal[0]


@pytest.mark.parametrize("players, seed", [(2, 2), (3, 1), (4, 2)])
def test_no_bot_is_asked_for_an_input_once_a_real_time_game_is_over(players, seed):
    """In a real-time game with a person's lines, every bot gets one go each time the clock
    moves; when one bot's move ends the game, the bots after it in that round are not asked
    (an ``exec`` bot would be sent a ``go`` for a game that is over), and the lines left are
    answered. Here planner bots play every seat and the lines, the host's, move the clock a
    millisecond at a time; each game is won by a move in the middle of a round."""
    session = Session(registry.get("magic-maze"), "1", seed=seed, options={"players": players})
    asked: list[tuple[str, bool]] = []

    class Watched:
        def __init__(self, seat: str) -> None:
            self.seat, self.inner = seat, make_bot("planner", seat, seed, 10.0, session.rules.bot_kinds)

        def choose(self, s: Session) -> str | None:
            asked.append((self.seat, s.over))
            return self.inner.choose(s)

        def close(self) -> None:
            self.inner.close()

    def lines():
        while not session.over:
            yield f"@{seconds_name(session.clock_ms + 1)} time\n"
        yield "score\n"

    out = list(Match(Protocol(session), {s: Watched(s) for s in session.seats}, lines(), max_moves=2000).run())
    assert session.over and session.state.result.winner == "team", session.state.result
    assert out[-1].startswith("= score"), out[-1]
    last = session.moves[-1].seat
    assert last != session.seats[-1], "the winning move must not close a round"
    assert not [seat for seat, over in asked if over], asked[-3:]
    assert asked[-1] == (last, False)  # the winner was the last one asked


@pytest.mark.parametrize("limit", [21, 30, 40])
def test_a_seats_max_moves_counts_the_moves_it_was_shown(limit: int) -> None:
    """``--max-moves`` in a seat's session counts the moves that seat sees (its own, the public
    ones): where it stops never tells it how many secret inputs (a night's) were made."""
    session = Session(registry.get("mafia"), "8-players", seed=5)
    bots = {s: RandomBot(s, 5) for s in session.seats}
    match = Match(Protocol(session, "p3"), bots, None, max_moves=limit)
    for _ in match.run():
        pass
    shown = [m for m in session.moves if m.public is not None or m.seat == "p3"]
    assert match.stopped and len(shown) == limit == match.moves_seen()
    assert session.moves[-1] is shown[-1], "it stops after a move it was shown, not after a secret one"
    assert len(session.moves) > limit, "secret inputs were made meanwhile (the test's premise)"


class Talker:
    """A bot that talks ``talk`` times at each go before it answers as a random bot would."""

    def __init__(self, seat: str, talk: int) -> None:
        self.seat, self.talk, self.said = seat, talk, 0
        self.random = RandomBot(seat, 1)

    def choose(self, session: Session) -> str | None:
        if self.said < self.talk and "say TEXT" in session.choices(self.seat).forms:
            self.said += 1
            return f"say line {self.said}"
        self.said = 0
        return self.random.choose(session)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("talk", [UNANSWERED_LIMIT, UNANSWERED_LIMIT + 1, 10 ** 9])
@pytest.mark.parametrize("person", [False, True])
def test_a_bot_that_talks_on_and_on_in_a_turn_game_forfeits(talk: int, person: bool) -> None:
    """A bot answering every go with ``say`` held a Classic Mafia game for ever: talk answers
    nothing, so the same seat was asked again at once, and neither the other bots nor a person
    (whose lines were never read) had a turn. ``UNANSWERED_LIMIT`` inputs in a row are talk; one
    more forfeits (a breach of the protocol), and the game goes on to its end."""
    session = Session(registry.get("mafia"), "6-players", seed=1)
    bots = {s: RandomBot(s, 1) for s in session.seats if not (person and s == "p2")}
    bots["p1"] = Talker("p1", talk)
    lines = ["p2 pass\n"] * 3 if person else None  # (then the input ends: the session with it)
    for _ in Match(Protocol(session), bots, lines).run():
        pass
    forfeits = [e["note"] for e in session.entries if "forfeit" in e.get("note", {})]
    said = [m.text for m in session.moves if m.seat == "p1" and m.text.startswith("say")]
    if talk <= UNANSWERED_LIMIT:  # talk, then an answer: as long as it wants
        assert forfeits == [] and len(said) > talk
    else:
        assert forfeits == [{"seat": "p1", "forfeit": "the bot sent 21 inputs in a row that answer nothing (its go: "
                             "nominate; talk answers nothing, and a bot may send at most 20 such in a row)"}]
        assert said == [f"say line {n}" for n in range(1, 22)] and forfeit_kind(forfeits[0]["forfeit"]) == "protocol"
    assert any(m.seat not in ("p1", "p2") for m in session.moves)
    if person:  # its line was read and played: no bot held it back
        assert [m.text for m in session.moves if m.seat == "p2"][:1] == ["pass"]
    else:
        assert session.over


def test_a_refused_stamped_line_leaves_the_clock_at_the_tick_before_it_in_play_not_in_handle():
    """protocol.md (Time stamps): ``arbiter play`` records what time changed at its moment (a
    vote closing at 6) and refuses the line without moving the clock further; the library's
    ``Protocol.handle``, which announces nothing first, records the change at the line's moment."""
    clocks = {}
    for how in ("handle", "play"):
        session = Session(registry.get("magic-maze"), "1", seed=1, options={"players": 3, "roles": 1})
        protocol = Protocol(session)
        lines = ["p1 accuse p2", "@20 p1 bogus"]
        if how == "handle":
            for line in lines:
                protocol.handle(line)
        else:
            list(Match(protocol, {}, iter(lines)).run())
        clocks[how] = (session.clock_ms, [e["tick"]["time"] for e in session.entries if "tick" in e])
    assert clocks == {"handle": (20_000, [20]), "play": (6_000, [6])}

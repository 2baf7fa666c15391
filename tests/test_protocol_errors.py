"""The line protocol of docs/protocol.md: the kinds of error, time stamps, and the end of a game (game
over, quit).

Authority: docs/protocol.md. Sessions, frames and staged positions: ``tests/protocol_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine import registry
from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import META_COMMANDS, Protocol
from arbiter.engine.session import Session

from tests.protocol_staging import (
    SEATS_3V3,
    body_values,
    err_frame,
    frame,
    jframe,
    new_session,
    ok_frame,
    snapshot,
    some_legal_move,
    staged_ambiguous,
)


# =========================================================================== error kinds
@pytest.mark.parametrize("line", ["view nobody", "board nobody", "events nobody", "events nobody 2",
                                  "legal nobody", "legal mafia", "view BOGUS"])
def test_unknown_seat(line):
    session = new_session()
    before = snapshot(session)
    _, body = err_frame(Protocol(session).handle(line), "unknown-seat")
    assert snapshot(session) == before
    # what the session may name for it: the host plays no legal; a seat's session names itself only
    assert body_values(body, "allowed") == [*SEATS_3V3, *([] if line.startswith("legal") else ["host"])]
    _, body = err_frame(Protocol(session, "maniac").handle(line), "unknown-seat")
    assert body_values(body, "allowed") == ["maniac"]


@pytest.mark.parametrize("line", ["events bandit -5", "events bandit 9999999999", "events bandit 1.5",
                                  "events -5", "events 10000000000", "@5 events bandit x", "events host 2x"])
def test_a_bad_events_from_is_named_as_such(line):
    """``events [SEAT] [FROM]``: a FROM that is not an index of at most 9 digits is a syntax
    error naming FROM (it was once reported as "events takes at most one seat")."""
    session = new_session()
    before = snapshot(session)
    headline, _ = err_frame(Protocol(session).handle(line), "syntax")
    assert snapshot(session) == before
    assert headline.startswith("syntax: events FROM is an index from 0 of at most 9 digits, not "), headline


@pytest.mark.parametrize("line", ["nobody", "nobody shift row 1 right", "fbi shift row 1 right", "helpme",
                                  "hel", "bandits kill c3", "=", "?", "@5 nobody"])
def test_unknown_command(line):
    session = new_session()
    before = snapshot(session)
    _, body = err_frame(Protocol(session).handle(line), "unknown-command")
    assert snapshot(session) == before
    assert body_values(body, "allowed"), "an unknown command should list what is accepted"


@pytest.mark.parametrize("line", ["undercover shift row 1 right", "operative arrest a1", "maniac swap a1 b1",
                                  "@3 bomber plant a1"])
def test_not_your_turn(line):
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session).handle(line), "not-your-turn")
    assert snapshot(session) == before


def test_illegal_move_lists_allowed_inputs():
    session = new_session(1)  # the bandit's identity is Boris at b3
    before = snapshot(session)
    _, body = err_frame(Protocol(session).handle("bandit kill a1"), "illegal")
    assert snapshot(session) == before
    allowed = body_values(body, "allowed")
    assert allowed
    legal = session.state.legal_inputs("bandit")
    assert all(a in legal for a in allowed), (allowed, legal)
    assert "kill a1" not in allowed
    # and each allowed form is actually accepted
    for a in allowed:
        s2 = new_session(1)
        ok_frame(Protocol(s2).handle(f"bandit {a}"))


@pytest.mark.parametrize("line", ["bandit shift row 1 right 2 extra", "bandit kill", "bandit kill z9",
                                  "bandit fly", "bandit", "bandit shift diagonal 1 left",
                                  "bandit shift row 7 right", "bandit shift row 1 right 3",
                                  "legal", "legal bandit undercover", "board bandit undercover",
                                  "view bandit undercover"])
def test_syntax_errors(line):
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session).handle(line), "syntax")
    assert snapshot(session) == before


def test_illegal_by_role_lists_the_roles_forms():
    session = new_session()
    _, body = err_frame(Protocol(session).handle("bandit arrest b3"), "illegal")
    assert body_values(body, "allowed")


def test_ambiguous_defuse_of_a_cell_with_bomb_and_threat():
    session = staged_ambiguous()
    p = Protocol(session)
    before = snapshot(session)
    headline, body = err_frame(p.handle("operative defuse c3"), "ambiguous")
    assert snapshot(session) == before
    assert "bomb" in headline and "threat" in headline, "the message should say what to add"
    assert sorted(body_values(body, "allowed")) == ["defuse c3 bomb", "defuse c3 threat"]
    legal = body_values(ok_frame(p.handle("legal operative"))[1], "legal")
    assert "defuse c3 bomb" in legal and "defuse c3 threat" in legal and "defuse c3" not in legal
    headline, body = ok_frame(p.handle("operative defuse c3 threat"))
    assert any("removes the threat" in e for e in body_values(body, "event"))
    tokens = {c["cell"]: c["tokens"] for c in session.state.view(HOST)["board"]}
    assert tokens["c3"] == ["bomb"]


# =========================================================================== time stamps
def test_stamped_move_sets_the_clock_and_unstamped_moves_step():
    session = new_session()
    p = Protocol(session)
    ok_frame(p.handle("@5 bandit shift row 1 right"))
    assert session.clock_ms == 5000
    assert body_values(ok_frame(p.handle("time"))[1], "time") == ["5"]
    ok_frame(p.handle("undercover shift row 2 right"))
    assert session.clock_ms == 6000
    ok_frame(p.handle("@6 maniac shift row 3 right"))  # the same time is not earlier
    assert session.clock_ms == 6000
    ok_frame(p.handle(f"@7.125 {some_legal_move(session)}"))
    assert session.clock_ms == 7125
    assert body_values(ok_frame(p.handle("time"))[1], "time") == ["7.125"]
    assert [m.time_ms for m in session.moves] == [5000, 6000, 6000, 7125]


def test_earlier_stamp_is_refused_with_time_error():
    session = new_session()
    p = Protocol(session)
    ok_frame(p.handle("@10 bandit shift row 1 right"))
    before = snapshot(session)
    for line in ("@9.999 undercover shift row 2 right", "@0 undercover shift row 2 right", "@3 time",
                 "@9 awaiting"):
        err_frame(p.handle(line), "time")
        assert snapshot(session) == before


@pytest.mark.parametrize("stamp", ["@-1", "@1.2345", "@", "@x", "@1e3", "@1,5", "@+1", "@1.5.5", "@ 5",
                                   "@1234567890"])
def test_bad_stamps_are_syntax_errors(stamp):
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session).handle(f"{stamp} bandit shift row 1 right"), "syntax")
    assert snapshot(session) == before
    err_frame(Protocol(session).handle(f"{stamp} time"), "syntax")
    assert snapshot(session) == before


def test_stamp_alone_is_a_syntax_error():
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session).handle("@5"), "syntax")
    assert snapshot(session) == before


def test_stamped_meta_command_moves_the_clock_and_is_recorded():
    session = new_session()
    p = Protocol(session)
    assert body_values(ok_frame(p.handle("@12.5 time"))[1], "time") == ["12.5"]
    assert session.clock_ms == 12500
    assert session.entries[-1] == {"tick": {"time": 12.5}}
    ok_frame(p.handle("bandit shift row 1 right"))
    assert session.moves[-1].time_ms == 13500
    err_frame(p.handle("@12 time"), "time")


@pytest.mark.parametrize("perspective,line", [
    (HOST, "@5 view nobody"), (HOST, "@5 legal"), (HOST, "@5 board bandit undercover"),
    (HOST, "@5 events nobody 2"), ("bandit", "@5 view operative"),
])
def test_refused_stamped_meta_command_changes_nothing(perspective, line):
    session = new_session()
    before = snapshot(session)
    mark, _, _ = frame(Protocol(session, perspective).handle(line))
    assert mark == "?"
    assert snapshot(session) == before


# =========================================================================== game over, quit
def test_moves_after_the_end_are_game_over_and_meta_commands_still_work():
    session = new_session()
    p = Protocol(session)
    headline, body = ok_frame(p.handle("bandit surrender"))
    assert body_values(body, "result") and not body_values(body, "awaiting")
    assert session.over
    before = snapshot(session)
    for line in ("undercover shift row 1 right", "bandit shift row 1 right", "operative surrender",
                 "@100 maniac swap a1 a2"):
        err_frame(p.handle(line), "game-over")
        assert snapshot(session) == before
    _, body = ok_frame(p.handle("awaiting"))
    assert body_values(body, "result") and not body_values(body, "awaiting")
    _, body = ok_frame(p.handle("score"))
    assert body_values(body, "result") == [session.state.result.text]
    for line in ("board", "view", "events", "seats", "time", "help", "legal bandit"):
        ok_frame(p.handle(line))
    j = Protocol(session, json_mode=True)
    obj = jframe(j.handle("undercover shift row 1 right"))
    assert obj["ok"] is False and obj["error"]["kind"] == "game-over"
    assert jframe(j.handle("awaiting"))["result"]["winner"] == "fbi"


def test_quit_sets_done_and_ends_a_match():
    session = new_session()
    p = Protocol(session)
    headline, body = ok_frame(p.handle("quit"))
    assert p.done
    p2 = Protocol(new_session())
    outs = list(Match(p2, {}, iter(["time", "quit", "bandit shift row 1 right", "time"])).run())
    assert len(outs) == 2 and p2.done
    assert not p2.session.moves


@pytest.mark.parametrize("mode, seat, verbs", [
    ("duel-3v3", "fbi", {"shift", "surrender", "arrest", "defuse", "masquerade", "autopsy", "inspect", "keep",
                         "protect", "unprotect", "skip"}),
    ("standard-4v4", "bandit", {"shift", "surrender", "kill", "masquerade"}),
    ("standard-4v4", "maniac", {"shift", "surrender", "swap", "threat"}),
])
def test_a_seats_unknown_word_lists_what_that_seat_may_type_and_the_commands(mode: str, seat: str, verbs: set) -> None:
    """In a seat's session an unknown word once listed all 19 forms of FBI vs Mafia (other
    roles' and other sides' actions) and no meta-command. It lists the forms of the seat's own
    characters (public: the same for every deal), then the meta-commands the word may have
    been meant as."""
    lists = set()
    for seed in (1, 2, 3):
        session = Session(registry.get("fbi-mafia"), mode, seed=seed)
        obj = jframe(Protocol(session, seat, json_mode=True).handle("frobnicate"))
        assert obj["ok"] is False and obj["error"]["kind"] == "syntax", obj
        assert obj["error"]["message"] == "unknown action 'frobnicate'"
        lists.add(tuple(obj["error"]["allowed"]))
    assert len(lists) == 1, "the list depends on the deal"
    allowed = list(lists.pop())
    assert allowed[len(allowed) - len(META_COMMANDS):] == list(META_COMMANDS.values())
    assert {form.split()[0] for form in allowed[:len(allowed) - len(META_COMMANDS)]} == verbs
    # named (the host's session, or the seat's own name): a move was meant, its forms alone
    named = jframe(Protocol(Session(registry.get("fbi-mafia"), mode, seed=1), json_mode=True).handle(f"{seat} frobnicate"))
    assert named["error"]["allowed"] == allowed[:len(allowed) - len(META_COMMANDS)]


LONG = "w" * 3000
LONG_LINES = [
    ("fbi-mafia", "standard-3v3", None, [
        "{w}", "bandit {w}", "bandit shift row {w} left", "bandit shift {w} 1 left", "bandit shift row 1 {w}",
        "bandit shift row 1 left {w}", "bandit shift col {w} up", "bandit kill {w}", "legal {w}", "help {w}"]),
    ("mafia", "6-players", None, ["p1 {w}", "p1 nominate {w}", "board {w}", "@{w} p1 pass", "@{w} time"]),
    ("magic-maze", "2", {"players": 2}, [
        "p1 {w}", "p1 move {w} north", "p1 move purple {w}", "p1 move purple north {w}", "p1 vortex purple {w}"]),
    ("magic-maze", "2", {"players": 5, "roles": 5}, ["p1 accuse {w}", "p1 eye {w}", "p1 divine p2 {w}"]),
]


@pytest.mark.parametrize("game, variant, options, line",
                         [(g, v, o, line) for g, v, o, lines in LONG_LINES for line in lines])
def test_a_refusal_quotes_a_long_word_by_its_start_and_length(game, variant, options, line):
    """A pasted page as a word came back whole in the refusal (8 KB on one line); a refusal
    quotes a word's first 40 characters and says how long it was."""
    session = Session(registry.get(game), variant, seed=1, options=options)
    before = snapshot(session)
    mark, headline, _ = frame(Protocol(session).handle(line.format(w=LONG)))
    assert mark == "?" and snapshot(session) == before
    assert f"'{'w' * 40}'... (3000 characters)" in headline and len(headline) < 200, headline

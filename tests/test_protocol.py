"""The line protocol of docs/protocol.md: framing, errors, time stamps, seat sessions, the
meta-commands in text and JSON mode, interrupts, and the Match driver at end of input.

The garbage-line property tests found two bugs here (Unicode digits crashing int(), refused
stamped meta-commands moving the clock); both are fixed and pinned by tests below.
"""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.clock import parse_seconds
from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import META_COMMANDS, Protocol
from arbiter.engine.session import Session
from tests.helpers import fbi_game, play

FBI = registry.get("fbi-mafia")
SEATS_3V3 = ("bandit", "undercover", "maniac", "detective", "bomber", "operative")
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------------------------ helpers
def new_session(seed: int = 1, mode: str = "standard-3v3") -> Session:
    return Session(FBI, mode, seed=seed)


def snapshot(session: Session) -> tuple:
    """Everything a refused line must leave untouched."""
    return (
        json.dumps(session.state.view(HOST), sort_keys=True),
        len(session.events),
        copy.deepcopy(session.entries),
        session.clock_ms,
        len(session.moves),
        session.over,
    )


def frame(out: str | None) -> tuple[str, str, list[str]]:
    """Check one text-mode response's framing; return (mark, headline, body lines)."""
    assert out is not None, "a non-comment line got no response"
    assert isinstance(out, str)
    assert out[:2] in ("= ", "? "), f"response does not open with '= ' or '? ': {out[:80]!r}"
    assert out.endswith("\n\n"), f"response not closed by exactly one empty line: {out[-80:]!r}"
    assert not out.endswith("\n\n\n"), f"more than one empty line closes the response: {out[-80:]!r}"
    assert "\r" not in out
    lines = out[:-2].split("\n")
    # a reader splitting on any line boundary must see the same lines
    assert out.splitlines() == lines + [""], "a response line contains a stray line break"
    head, body = lines[0], lines[1:]
    for line in body:
        assert line != "" and line.strip() != "", f"empty body line in {out!r}"
        assert line[0] not in "=?", f"body line would open a new response: {line!r}"
    return head[0], head[2:], body


def ok_frame(out: str | None) -> tuple[str, list[str]]:
    mark, headline, body = frame(out)
    assert mark == "=", out
    return headline, body


def err_frame(out: str | None, kind: str) -> tuple[str, list[str]]:
    mark, headline, body = frame(out)
    assert mark == "?", out
    assert headline.startswith(f"{kind}: "), f"expected '? {kind}: ...', got {headline!r}"
    assert len(headline) > len(kind) + 2, "the error has no message"
    return headline, body


def jframe(out: str | None) -> dict:
    """Check one JSON-mode response: exactly one line holding one JSON object with ok."""
    assert out is not None, "a non-comment line got no response"
    assert out.endswith("\n") and out.count("\n") == 1, f"not exactly one line: {out[:120]!r}"
    assert len(out.splitlines()) == 1, "the JSON line contains a character some readers split lines on"
    obj = json.loads(out)
    assert isinstance(obj, dict)
    assert isinstance(obj.get("ok"), bool)
    if not obj["ok"]:
        err = obj.get("error")
        assert isinstance(err, dict), obj
        assert isinstance(err.get("kind"), str) and err["kind"], obj
        assert isinstance(err.get("message"), str) and err["message"], obj
        assert isinstance(err.get("allowed"), list) and all(isinstance(a, str) for a in err["allowed"]), obj
    return obj


def body_values(body: list[str], key: str) -> list[str]:
    prefix = f"{key}: "
    return [line[len(prefix):] for line in body if line.startswith(prefix)]


def sendable(body: list[str]) -> list[str]:
    """What a ``legal`` answer offers to send as it is: its ``legal:`` lines, then the game's
    give-up input on its ``resign:`` line."""
    return body_values(body, "legal") + body_values(body, "resign")


def some_legal_move(session: Session) -> str:
    """A full move line (seat + input) that is legal now, never a surrender."""
    awaited = session.state.awaiting()[0]
    legal = [m for m in session.state.legal_inputs(awaited.seat) if m != "surrender"]
    assert legal, "the awaited seat has no legal input besides surrender"
    return f"{awaited.seat} {legal[0]}"


def advance_random(session: Session, n: int, seed: int = 0) -> None:
    """Play n moves picked by the built-in random bot (stops at the end of the game)."""
    import random

    rng = random.Random(seed)
    for _ in range(n):
        if session.over:
            return
        seat = session.state.awaiting()[0].seat
        text = session.rules.choose_input(session.state, seat, rng)
        assert text is not None
        session.submit(seat, text)


# --- staged positions (tests/helpers.fbi_game: a1=Ada, b1=Boris, ... row by row) -----------
OPENING = [
    "bandit shift row 6 right",
    "undercover shift row 6 right",
    "maniac shift row 6 right",
]


def staged_ambiguous() -> Session:
    """Operative to act; c3 (Olga, next to the Operative's identity b3) carries a bomb and a threat."""
    s = fbi_game(identities={"maniac": "Ines", "bomber": "Pavel", "operative": "Nico",
                             "bandit": "Emil", "undercover": "Jade", "detective": "Xena"})
    play(s, *OPENING, "maniac threat c3", "detective shift row 6 right", "bomber plant c3",
         "operative protect b3")
    assert s.state.awaiting()[0].seat == "operative" and s.state.awaiting()[0].kind == "action"
    return s


def staged_protect() -> Session:
    """The Bandit (Hugo b2) has just tried to kill Nico (b3), who carries the Operative's
    protection token and shares its row with the Operative's identity (Mara a3)."""
    s = fbi_game(identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s, *OPENING, "maniac threat f1", "detective shift row 6 right", "bomber shift row 6 right",
         "operative protect b3", "operative shift row 6 right", "bandit kill b3")
    return s


def staged_detonate() -> Session:
    """The Operative has just arrested the Bandit's identity (Hugo b2), which carries a bomb."""
    s = staged_before_arrest()
    play(s, "operative arrest b2")
    return s


def staged_before_arrest() -> Session:
    s = fbi_game(identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s, *OPENING, "maniac threat f1", "detective shift row 6 right", "bomber plant b2",
         "operative protect a3")
    return s


def staged_keep() -> Session:
    """The Detective has just inspected the top of the identity deck."""
    s = fbi_game()
    play(s, *OPENING, "maniac threat f1", "detective inspect")
    return s


def staged_threat() -> Session:
    s = fbi_game()
    play(s, *OPENING)
    return s


def staged_protection() -> Session:
    s = fbi_game()
    play(s, *OPENING, "maniac threat f1", "detective shift row 6 right", "bomber shift row 6 right")
    return s


def staged_midgame() -> Session:
    s = new_session(5)
    advance_random(s, 25, seed=5)
    return s


def staged_over() -> Session:
    s = new_session(2)
    play(s, "bandit shift row 1 right", "detective surrender")
    assert s.over
    return s


POSITIONS = {
    "start": lambda: new_session(1),
    "midgame": staged_midgame,
    "threat": staged_threat,
    "protection": staged_protection,
    "ambiguous": staged_ambiguous,
    "protect": staged_protect,
    "detonate": staged_detonate,
    "keep": staged_keep,
    "over": staged_over,
    "duel": lambda: new_session(3, "duel-4v4"),
}


# =========================================================================== framing
META_LINES = ["help", "seats", "awaiting", "legal bandit", "legal undercover", "board", "board bandit",
              "board host", "view", "view bandit", "view host", "events", "events bandit",
              "events bandit 3", "events 4", "score", "time", "quit"]


@pytest.mark.parametrize("line", META_LINES)
def test_every_meta_command_is_framed_in_text_mode(line):
    p = Protocol(new_session())
    headline, body = ok_frame(p.handle(line))
    assert headline


@pytest.mark.parametrize("line,perspective", [(line, HOST) for line in META_LINES] + [
    (line, "bandit") for line in META_LINES if not {"undercover", "host"} & set(line.split())])
def test_every_meta_command_answers_one_json_line(line, perspective):
    obj = jframe(Protocol(new_session(), perspective, json_mode=True).handle(line))
    assert obj["ok"] is True, obj
    assert obj.get("command") == line.split()[0]


def test_framing_holds_at_every_staged_position():
    lines = META_LINES[:-1] + ["bandit kill a1", "nobody", "legal nobody", "@x time", "operative surrender"]
    for name, make in POSITIONS.items():
        session = make()
        p = Protocol(session)
        for seat in session.seats:
            for out in (p.handle(f"legal {seat}"), p.handle(f"board {seat}"), p.handle(f"view {seat}")):
                frame(out)
        for line in lines:
            if session.over or not line.startswith("operative"):
                frame(p.handle(line))


@pytest.mark.parametrize("line", ["", " ", "   ", "\t", "\r", "\r\n", "\n", "  \r\n", "#", "# a comment",
                                  "   # indented comment", "#bandit shift row 1 right", "\t# tab", "# x\r\n"])
@pytest.mark.parametrize("json_mode", [False, True])
def test_blank_lines_and_comments_get_no_response(line, json_mode):
    session = new_session()
    before = snapshot(session)
    p = Protocol(session, json_mode=json_mode)
    assert p.handle(line) is None
    assert snapshot(session) == before


@pytest.mark.parametrize("line", [
    "bandit shift row 1 right",
    "bandit shift row 1 right\r",
    "bandit shift row 1 right\r\n",
    "bandit shift row 1 right\n",
    "   bandit shift row 1 right   ",
    "bandit    shift  row   1     right",
    "\tbandit\tshift row 1 right\t",
    "  bandit  shift   row  1  right  \r\n",
])
def test_carriage_returns_and_runs_of_spaces_are_tolerated(line):
    session = new_session()
    headline, body = ok_frame(Protocol(session).handle(line))
    assert headline == "bandit shift row 1 right"
    assert [(m.seat, m.text) for m in session.moves] == [("bandit", "shift row 1 right")]
    assert body_values(body, "event")[0] == "The bandit shifts: shift row 1 right."


@pytest.mark.parametrize("line", ["time\r\n", "  time  ", "\ttime\r", "TIME", "legal   bandit \r", "events  bandit   2"])
def test_meta_commands_tolerate_spacing_and_case(line):
    ok_frame(Protocol(new_session()).handle(line))


def test_a_script_gets_exactly_one_response_per_non_comment_line():
    script = [
        "# opening", "", "seats", "awaiting", "bandit shift row 1 right", "   ", "bandit kill a1",
        "nobody here", "undercover shift row 1 left", "undercover shift row 2 right\r\n", "# done",
        "@1 time", "board", "legal maniac", "view maniac", "view nobody", "events maniac 2", "score",
        "help", "quit",
    ]
    session = new_session()
    p = Protocol(session)
    outs = list(Match(p, {}, iter(script)).run())
    answered = [l for l in script if l.strip() and not l.strip().startswith("#")]
    assert len(outs) == len(answered)
    for out in outs:
        frame(out)
    # concatenated, a reader splitting at empty lines recovers the responses one to one
    stream = "".join(outs)
    chunks = stream.split("\n\n")
    assert chunks[-1] == "" and len(chunks) - 1 == len(answered)
    assert p.done


def test_json_mode_script_one_line_each():
    script = ["seats", "bandit shift row 1 right", "bandit shift row 1 right", "nobody", "view nobody",
              "", "# c", "legal undercover", "board", "view", "events", "score", "time", "help", "@-1 time",
              "awaiting", "quit"]
    p = Protocol(new_session(), json_mode=True)
    outs = list(Match(p, {}, iter(script)).run())
    assert len(outs) == len([l for l in script if l.strip() and not l.startswith("#")])
    objs = [jframe(o) for o in outs]
    assert [o["ok"] for o in objs] == [True, True, False, False, False, True, True, True, True, True, True,
                                       True, False, True, True]
    assert objs[2]["error"]["kind"] == "not-your-turn"
    assert objs[3]["error"]["kind"] == "unknown-command"
    assert objs[4]["error"]["kind"] == "unknown-seat"
    assert objs[12]["error"]["kind"] == "syntax"


@pytest.mark.parametrize("game", registry.names())
def test_json_mode_writes_the_same_responses_differently(game):
    """A session's JSON mode changes how a response is written, never what it holds (the
    hidden-information twins compare one response's two forms on that ground): every line of a
    played game, every meta-command and a refusal, answered by twin sessions in each mode."""
    rules = registry.get(game)
    a, b = Session(rules, rules.default_variant, seed=3), Session(rules, rules.default_variant, seed=3)
    seat = a.seats[0]
    pairs = [(Protocol(a, p), Protocol(b, p, json_mode=True)) for p in (HOST, seat)]
    for _ in range(12):
        if a.over:
            break
        awaited = a.state.awaited_seats() or [seat]
        legal = a.state.legal_inputs(awaited[0])
        move = f"{awaited[0]} {legal[0]}" if legal else "time"
        for pa, pb in pairs:
            for line in [*META_COMMANDS, "frobnicate", "@-1 time", f"legal {seat}", f"{seat} frobnicate", move]:
                response = pa.respond(line)
                assert response is not None
                assert pb.handle(line) == response.json(), line
                assert pa.render(response) == response.text()
        assert a.entries == b.entries


# =========================================================================== garbage (hypothesis)
VOCAB = [
    *SEATS_3V3, "host", "nobody", "mafia", "fbi", *META_COMMANDS, "shift", "row", "col", "column",
    "left", "right", "up", "down", "kill", "arrest", "defuse", "masquerade", "autopsy", "inspect",
    "keep", "evidence", "shoot", "swap", "plant", "detonate", "prepare", "threat", "protect",
    "unprotect", "surrender", "yes", "no", "bomb", "protection", "a1", "c3", "f6", "g7", "z99", "a0",
    "0", "1", "2", "3", "6", "7", "-1", "99999999999999999999", "1.5", "ban", "leg", "shi", "sur",
    "eve", "vie", "@", "@0", "@1", "@5", "@0.001", "@2.5", "@99", "@1.2345", "@-1", "@x", "@@1",
    "@1e3", "@.5", "@1.", "#", "=", "?", "Ada", "ada", "BANDIT", "Shift", "ROW",
]
words = st.one_of(st.sampled_from(VOCAB), st.text(min_size=1, max_size=6))
separators = st.sampled_from([" ", "  ", "\t", " \t "])


@st.composite
def word_lines(draw):
    ws = draw(st.lists(words, min_size=1, max_size=6))
    sep = draw(separators)
    line = sep.join(ws)
    return draw(st.sampled_from(["", " ", "  "])) + line + draw(st.sampled_from(["", " ", "\r", "\r\n", "\n"]))


any_char = st.characters(blacklist_categories=("Cs",))
raw_lines = st.text(any_char.filter(lambda c: c != "\n"), max_size=60)
control_lines = st.text(st.sampled_from(list("\x00\x01\x07\x08\x0b\x0c\x1b\x1c\x1d\x1e\x7f\x85\u2028\u2029\ufeff \tab@#1")),
                        max_size=20)
long_lines = st.builds(lambda w, n, tail: (w + " ") * n + tail, st.sampled_from(VOCAB), st.integers(50, 400),
                       st.text(max_size=5))
STAMPS = ["@0", "@1", "@5", "@0.001", "@2.5", "@99", "@1.2345", "@-1", "@x", "@", "@٣", "@²"]
HEADS = [*SEATS_3V3, "mafia", "fbi", "host", "nobody", *META_COMMANDS, "HELP", "Bandit"]
ARGS = [w for w in VOCAB if not w.startswith("@")] + ["²", "³", "١", "٣", "①", "Ⅻ", "0x1", "1_0", "３"]


@st.composite
def grammar_lines(draw):
    """Lines shaped like commands: [@STAMP] SEAT-or-COMMAND ARGS..., with wrong parts mixed in."""
    parts = []
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(STAMPS)))
    parts.append(draw(st.sampled_from(HEADS)))
    parts += draw(st.lists(st.one_of(st.sampled_from(ARGS), st.text(min_size=1, max_size=4)), max_size=4))
    return " ".join(parts)


NUMBERS = ["0", "1", "2", "3", "6", "7", "01", "-1", "+1", "1.5", "1e3", "99999999999999999999", "²", "³", "١",
           "٣", "①", "Ⅻ", "３", "𝟚", "½"]
TEMPLATES = ["events {n}", "events {seat} {n}", "{seat} shift row {n} {dir}", "{seat} shift row {n} {dir} {n}",
             "{seat} shift col {col} {dir} {n}", "@{n} time", "@{n} {seat} {verb} {col}{n}", "{seat} {verb} {col}{n}",
             "{seat} prepare {col}{n} {col}{n} {n}", "legal {seat} {n}", "board {n}", "view {n}"]


@st.composite
def numeric_lines(draw):
    """Command-shaped lines with number-like words in the numeric slots (ASCII, Unicode digits, signs)."""
    template = draw(st.sampled_from(TEMPLATES))
    out = []
    for piece in re.split(r"(\{\w+\})", template):
        if piece == "{n}":
            piece = draw(st.sampled_from(NUMBERS))
        elif piece == "{seat}":
            piece = draw(st.sampled_from([*SEATS_3V3, "mafia", "fbi"]))
        elif piece == "{dir}":
            piece = draw(st.sampled_from(["left", "right", "up", "down"]))
        elif piece == "{col}":
            piece = draw(st.sampled_from(["a", "c", "f", "z", "ç"]))
        elif piece == "{verb}":
            piece = draw(st.sampled_from(["kill", "arrest", "plant", "defuse", "autopsy", "keep", "threat"]))
        out.append(piece)
    return "".join(out)


garbage = st.one_of(grammar_lines(), numeric_lines(), numeric_lines(), word_lines(), raw_lines, control_lines,
                    long_lines)


def _is_blank_or_comment(line: str) -> bool:
    text = line.replace("\r", "").strip()
    return not text or text.startswith("#")


def _check_garbage(position: str, line: str, json_mode: bool, perspective: str) -> None:
    session = POSITIONS[position]()
    p = Protocol(session, perspective, json_mode=json_mode)
    before = snapshot(session)
    out = p.handle(line)
    if _is_blank_or_comment(line):
        assert out is None
        assert snapshot(session) == before
        return
    if json_mode:
        ok = jframe(out)["ok"]
    else:
        ok = frame(out)[0] == "="
    if not ok:
        assert snapshot(session) == before, f"a refused line changed the state: {line!r} -> {out!r}"
    # still alive: a meta-command answers and, unless the game is over, a legal move is accepted
    host = Protocol(session)
    ok_frame(host.handle("awaiting"))
    if session.over:
        err_frame(host.handle("bandit shift row 1 right" if "bandit" in session.seats else "fbi shift row 1 right"),
                  "game-over")
    else:
        ok_frame(host.handle(some_legal_move(session)))


@PROPERTY
@given(position=st.sampled_from(sorted(POSITIONS)), line=garbage, json_mode=st.booleans())
@example(position="start", line="bandit", json_mode=False)
@example(position="start", line="@", json_mode=False)
@example(position="start", line="@5", json_mode=True)
@example(position="start", line="\x00", json_mode=False)
@example(position="start", line="\u2028", json_mode=False)
@example(position="start", line="bandit shift row 1 right\u2028kill", json_mode=False)
@example(position="protect", line="operative protect maybe", json_mode=False)
@example(position="keep", line="detective keep nobody", json_mode=True)
@example(position="over", line="bandit shift row 1 right", json_mode=False)
def test_garbage_lines_as_host(position, line, json_mode):
    _check_garbage(position, line, json_mode, HOST)


@PROPERTY
@given(position=st.sampled_from(sorted(POSITIONS)), line=garbage, json_mode=st.booleans(),
       seat_index=st.integers(0, 7))
@example(position="start", line="undercover shift row 1 right", json_mode=False, seat_index=0)
@example(position="start", line="view undercover", json_mode=False, seat_index=0)
def test_garbage_lines_in_a_seats_session(position, line, json_mode, seat_index):
    seats = POSITIONS[position]().seats
    _check_garbage(position, line, json_mode, seats[seat_index % len(seats)])


@pytest.mark.parametrize("line", ["events ²", "events bandit ³", "bandit shift row ² right"])
def test_unicode_digit_words_are_refused_not_crashed(line):
    session = new_session()
    before = snapshot(session)
    out = Protocol(session).handle(line)
    mark, _, _ = frame(out)
    assert mark == "?"
    assert snapshot(session) == before


# =========================================================================== error kinds
@pytest.mark.parametrize("line", ["view nobody", "board nobody", "events nobody", "events nobody 2",
                                  "legal nobody", "legal mafia", "view BOGUS"])
def test_unknown_seat(line):
    session = new_session()
    before = snapshot(session)
    _, body = err_frame(Protocol(session).handle(line), "unknown-seat")
    assert snapshot(session) == before
    assert set(body_values(body, "allowed")) >= set(SEATS_3V3)


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


# =========================================================================== seat sessions
@pytest.mark.parametrize("line", ["board undercover", "view undercover", "events undercover", "legal undercover",
                                  "events undercover 2", "board host", "view host", "events host",
                                  "BOARD Operative"])
def test_a_seats_session_is_denied_other_seats_secrets(line):
    session = new_session()
    before = snapshot(session)
    err_frame(Protocol(session, "bandit").handle(line), "denied")
    assert snapshot(session) == before


def test_a_seats_session_cannot_move_for_another_seat():
    session = new_session()
    p = Protocol(session, "undercover")
    play(session, "bandit shift row 1 right")  # the undercover is awaited now
    before = snapshot(session)
    for line in ("maniac shift row 1 right", "bandit surrender", "operative surrender", "@9 bandit kill a1"):
        err_frame(p.handle(line), "denied")
        assert snapshot(session) == before
    ok_frame(p.handle("undercover shift row 2 right"))


def test_a_seats_session_sees_its_own_things():
    session = new_session(1)
    p = Protocol(session, "bandit")
    for line in ("board", "board bandit", "view", "view bandit", "events", "events bandit", "events bandit 1",
                 "legal bandit", "awaiting", "score", "time", "seats", "help"):
        ok_frame(p.handle(line))
    _, body = ok_frame(p.handle("events"))
    mine = [e.text for e in session.events.visible_to("bandit")]
    assert body_values(body, "event") == mine
    hidden = [e.text for e in session.events if not e.visible_to("bandit")]
    assert hidden, "precondition: some events are secret from the bandit"
    assert not set(hidden) & set(body_values(body, "event"))
    view = json.loads(Protocol(session, "bandit", json_mode=True).handle("view"))["view"]
    assert set(view["identities"]) == {"bandit"}
    board = "\n".join(ok_frame(p.handle("board"))[1])
    assert "Identities:" not in board
    for c in ("undercover", "maniac", "detective", "bomber", "operative"):
        assert f"{c}=" not in board


def test_a_seats_move_response_shows_only_events_it_may_see():
    session = staged_before_arrest()
    p = Protocol(session, "operative")
    j = Protocol(session, "operative", json_mode=True)
    start = len(session.events)
    obj = jframe(j.handle("operative arrest b2"))
    assert obj["ok"]
    caused = session.events.since(start)
    secret = [e for e in caused if not e.visible_to("operative")]
    assert secret, "precondition: the arrest makes the bandit draw a secret new identity"
    texts = [e["text"] for e in obj["events"]]
    assert texts == [e.text for e in caused if e.visible_to("operative")]
    # indices count in the operative's own event stream
    stream = session.events.visible_to("operative")
    for e in obj["events"]:
        assert stream[e["index"]].text == e["text"]
    _, body = ok_frame(p.handle(f"events operative {obj['events'][0]['index']}"))
    assert body_values(body, "event") == texts
    all_mine = jframe(j.handle("events"))["events"]
    assert [e["index"] for e in all_mine] == list(range(len(stream)))


def test_duel_seats_session():
    session = new_session(4, "duel-3v3")
    p = Protocol(session, "mafia")
    awaited = session.state.awaiting()[0].seat
    assert awaited == "mafia"
    err_frame(p.handle("fbi shift row 1 right"), "denied")
    err_frame(p.handle("view fbi"), "denied")
    ok_frame(p.handle("mafia shift row 1 right"))
    err_frame(p.handle("mafia shift row 2 right"), "not-your-turn")
    view = json.loads(Protocol(session, "mafia", json_mode=True).handle("view"))["view"]
    assert set(view["identities"]) == {"bandit", "maniac", "bomber"}


# =========================================================================== Match and end of input
def test_a_half_line_at_end_of_input_is_still_answered():
    session = new_session()
    p = Protocol(session)
    outs = list(Match(p, {}, io.StringIO("awaiting\n# c\nbandit shift row 1 right\nundercover shift row 2 right")).run())
    assert len(outs) == 3
    headline, _ = ok_frame(outs[-1])
    assert headline == "undercover shift row 2 right"
    assert len(session.moves) == 2
    j = Protocol(new_session(), json_mode=True)
    outs = list(Match(j, {}, io.StringIO("time\r\nbandit shift row 1 right")).run())
    assert [jframe(o)["ok"] for o in outs] == [True, True]


def test_input_ending_mid_game_leaves_a_resumable_transcript(tmp_path):
    path = tmp_path / "game.yaml"
    seed = 8
    whole = new_session(seed)
    advance_random(whole, 40, seed=seed)
    assert not whole.over
    lines = [f"{m.seat} {m.text}" for m in whole.moves]

    session = new_session(seed)
    writer = tr.TranscriptWriter(path, session)
    p = Protocol(session)
    outs = list(Match(p, {}, iter(lines[:17] + ["board"])).run())  # ends mid-game, no quit
    assert len(outs) == 18 and all(frame(o)[0] == "=" for o in outs)
    writer.close()

    t = tr.read(path)
    assert not t.finished and t.notes == []
    report = tr.replay(t)
    assert report.ok, report.problems
    assert report.moves == 17
    resumed = report.session
    w2 = tr.TranscriptWriter(path, resumed, resume=len(t.log))
    p2 = Protocol(resumed)
    outs = list(Match(p2, {}, iter(lines[17:])).run())
    assert all(frame(o)[0] == "=" for o in outs)
    w2.close()
    assert path.read_text(encoding="utf-8") == tr.dump(whole)


# =========================================================================== meta-commands: JSON fields
def _json(session: Session, line: str, perspective: str = HOST) -> dict:
    obj = jframe(Protocol(session, perspective, json_mode=True).handle(line))
    assert obj["ok"] is True, obj
    return obj


def test_json_move_fields():
    session = new_session(1)
    obj = _json(session, "@3 bandit shift row 1 right")
    assert obj["command"] == "move"
    assert obj["seat"] == "bandit"
    assert obj["input"] == "shift row 1 right"
    assert parse_seconds(str(obj["time"])) == 3000
    assert isinstance(obj["events"], list) and obj["events"]
    for e in obj["events"]:
        assert set(e) == {"index", "kind", "text", "data"}
        assert isinstance(e["index"], int) and isinstance(e["kind"], str) and isinstance(e["text"], str)
        assert isinstance(e["data"], dict)
    assert [e["kind"] for e in obj["events"]] == ["shift", "turn"]
    assert obj["awaiting"] == [{"seat": "undercover", "kind": "action",
                                "hint": session.state.awaiting()[0].hint}]
    for a in obj["awaiting"]:
        assert set(a) == {"seat", "kind", "hint"}
    assert obj["result"] is None
    end = _json(session, "undercover surrender")
    assert end["awaiting"] == []
    assert end["result"]["winner"] == "mafia"
    assert {"winner", "reason", "text"} <= set(end["result"])


def test_json_meta_command_fields():
    session = new_session(1)
    play(session, "bandit shift row 1 right")
    obj = _json(session, "awaiting")
    assert obj["awaiting"] == [a.as_dict() for a in session.state.awaiting()] and obj["result"] is None

    obj = _json(session, "legal undercover")
    assert obj["seat"] == "undercover" and obj["legal"] + [obj["resign"]] == session.state.legal_inputs("undercover")
    assert all(isinstance(m, str) for m in obj["legal"]) and obj["resign"] == "surrender" and obj["forms"] == []

    obj = _json(session, "board")
    assert obj["seat"] == HOST and obj["board"] == session.render(HOST)
    obj = _json(session, "board maniac")
    assert obj["seat"] == "maniac" and obj["board"] == session.render("maniac")

    obj = _json(session, "view")
    assert obj["seat"] == HOST and obj["view"] == json.loads(json.dumps(session.state.view(HOST)))
    obj = _json(session, "view detective")
    assert obj["seat"] == "detective" and obj["view"] == json.loads(json.dumps(session.state.view("detective")))

    obj = _json(session, "events")
    assert obj["seat"] == HOST and [e["text"] for e in obj["events"]] == [e.text for e in session.events]
    obj = _json(session, "events bandit 2")
    stream = session.events.visible_to("bandit")
    assert obj["seat"] == "bandit" and [e["text"] for e in obj["events"]] == [e.text for e in stream[2:]]
    assert [e["index"] for e in obj["events"]] == list(range(2, len(stream)))

    obj = _json(session, "score")
    assert obj["score"] == session.state.score() and obj["result"] is None

    assert _json(session, "seats")["seats"] == list(session.seats)
    assert str(_json(session, "time")["time"]) == "1"
    commands = _json(session, "help")["commands"]
    assert isinstance(commands, list)
    for name in META_COMMANDS:
        assert any(c.split()[0].rstrip(":") == name for c in commands), name
    p = Protocol(session, json_mode=True)
    assert jframe(p.handle("quit"))["command"] == "quit"
    assert p.done

    play(session, "maniac surrender")
    obj = _json(session, "score")
    assert obj["result"]["winner"] == "fbi"
    assert _json(session, "awaiting")["result"] == session.state.result.as_dict()


def test_text_meta_command_bodies():
    session = new_session(1)
    p = Protocol(session)
    assert body_values(ok_frame(p.handle("seats"))[1], "seat") == list(SEATS_3V3)
    assert body_values(ok_frame(p.handle("time"))[1], "time") == ["0"]
    _, body = ok_frame(p.handle("awaiting"))
    assert body == [f"awaiting: {a.seat} {a.kind}: {a.hint}" for a in session.state.awaiting()]
    _, body = ok_frame(p.handle("legal bandit"))
    assert sendable(body) == session.state.legal_inputs("bandit") and len(body) == len(
        session.state.legal_inputs("bandit"))
    assert body[-1] == "resign: surrender" and "legal: surrender" not in body
    headline, body = ok_frame(p.handle("board"))
    assert headline == "board" and body == session.render(HOST).splitlines()
    _, body = ok_frame(p.handle("view bandit"))
    view = session.state.view("bandit")
    assert [line.split(":", 1)[0] for line in body] == list(view)
    assert body_values(body, "mode") == ["standard-3v3"]
    _, body = ok_frame(p.handle("score"))
    assert body_values(body, "kills") == ["0"] and body_values(body, "arrests") == ["0"]
    _, body = ok_frame(p.handle("help"))
    listed = body_values(body, "command")
    for name in META_COMMANDS:
        assert any(c.split()[0].rstrip(":") == name for c in listed), name
    _, body = ok_frame(p.handle("events bandit 1"))
    assert body_values(body, "event") == [e.text for e in session.events.visible_to("bandit")[1:]]


def test_a_views_list_of_words_is_one_line_and_an_empty_one_a_dash():
    session = Session(registry.get("magic-maze"), "1", seed=1, options={"players": 2})
    p = Protocol(session)
    _, body = ok_frame(p.handle("view host"))
    assert body_values(body, "escaped") == ["-"] and body_values(body, "used") == ["-"]  # nobody, nothing yet
    mafia = Protocol(Session(registry.get("mafia"), "6-players", seed=1))
    _, body = ok_frame(mafia.handle("view host"))
    assert body_values(body, "alive") == ["p1 p2 p3 p4 p5 p6"]


@pytest.mark.parametrize("line,canonical", [
    ("BANDIT SHIFT ROW 1 RIGHT", "bandit shift row 1 right"),
    ("bandit shift row 1 right 1", "bandit shift row 1 right"),
    ("bandit shift column a up", "bandit shift col a up"),
    ("bandit KILL B2", "bandit kill b2"),
])
def test_move_headline_is_canonical(line, canonical):
    headline, _ = ok_frame(Protocol(new_session(1)).handle(line))
    assert headline == canonical


# =========================================================================== legal SEAT
def _replayable(make):
    """A factory for copies of a staged session (so every legal input can be tried on a fresh copy)."""
    base = make()
    moves = [(m.seat, m.text, m.time_ms) for m in base.moves]
    chance = list(base.chance.records)

    def copy_of() -> Session:
        s = Session(FBI, base.variant, seed=base.seed, recorded=chance)
        for seat, text, t in moves:
            s.submit(seat, text, t)
        return s

    return base, copy_of


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_every_legal_input_is_accepted(position):
    base, copy_of = _replayable(POSITIONS[position])
    for seat in base.seats:
        out = Protocol(base).handle(f"legal {seat}")
        legal = sendable(ok_frame(out)[1])
        assert legal == base.state.legal_inputs(seat)
        assert body_values(ok_frame(out)[1], "resign") == (["surrender"] if legal else [])
        if base.over:
            assert legal == []
            continue
        assert "surrender" in legal
        awaited = {a.seat for a in base.state.awaiting()}
        if seat not in awaited:
            assert legal == ["surrender"]
        for move in legal:
            s = copy_of()
            headline, _ = ok_frame(Protocol(s).handle(f"{seat} {move}"))
            assert len(s.moves) == len(base.moves) + 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4"]),
       seed=st.integers(0, 10_000), n=st.integers(0, 60), pick=st.integers(0, 10_000))
def test_legal_inputs_are_accepted_at_random_positions(mode, seed, n, pick):
    def make():
        s = new_session(seed, mode)
        advance_random(s, n, seed=seed)
        return s

    base, copy_of = _replayable(make)
    if base.over:
        return
    seat = base.state.awaiting()[0].seat
    legal = sendable(ok_frame(Protocol(base).handle(f"legal {seat}"))[1])
    assert legal
    for move in {legal[pick % len(legal)], legal[(pick * 7 + 3) % len(legal)], legal[0], legal[-1]}:
        s = copy_of()
        ok_frame(Protocol(s).handle(f"{seat} {move}"))


# =========================================================================== interrupts
def _awaiting_lines(session: Session) -> list[str]:
    return body_values(ok_frame(Protocol(session).handle("awaiting"))[1], "awaiting")


def test_protect_interrupt_surfaces_in_awaiting():
    session = staged_protect()
    lines = _awaiting_lines(session)
    assert len(lines) == 1 and re.match(r"^operative protect: .*protect yes\|no", lines[0]), lines
    assert "b3" in lines[0]
    p = Protocol(session)
    # the move that caused it said so too
    s2 = fbi_game(identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s2, *OPENING, "maniac threat f1", "detective shift row 6 right", "bomber shift row 6 right",
         "operative protect b3", "operative shift row 6 right")
    _, body = ok_frame(Protocol(s2).handle("bandit kill b3"))
    assert body_values(body, "awaiting") == lines
    assert json.loads(Protocol(session, json_mode=True).handle("awaiting"))["awaiting"][0]["kind"] == "protect"
    # only that answer is accepted until it comes
    before = snapshot(session)
    _, body = err_frame(p.handle("operative shift row 1 right"), "illegal")
    assert sorted(body_values(body, "allowed")) == ["protect no", "protect yes"]
    err_frame(p.handle("undercover shift row 1 right"), "not-your-turn")
    err_frame(p.handle("bandit kill b2"), "not-your-turn")
    err_frame(p.handle("operative protect maybe"), "syntax")
    assert snapshot(session) == before
    assert sendable(ok_frame(p.handle("legal operative"))[1]) == ["protect yes", "protect no", "surrender"]
    _, body = ok_frame(p.handle("operative protect yes"))
    assert any("protects Nico" in e for e in body_values(body, "event"))
    assert not _awaiting_lines(session)[0].startswith("operative protect")


def test_protect_interrupt_surrender_excepted():
    session = staged_protect()
    _, body = ok_frame(Protocol(session).handle("bomber surrender"))
    assert body_values(body, "result")


def test_detonate_interrupt_surfaces_in_awaiting():
    session = staged_before_arrest()
    _, body = ok_frame(Protocol(session).handle("operative arrest b2"))
    lines = body_values(body, "awaiting")
    assert len(lines) == 1 and re.match(r"^bomber detonate: .*detonate yes\|no", lines[0]), lines
    assert _awaiting_lines(session) == lines
    p = Protocol(session)
    before = snapshot(session)
    _, body = err_frame(p.handle("bomber plant a1"), "illegal")
    assert sorted(body_values(body, "allowed")) == ["detonate no", "detonate yes"]
    err_frame(p.handle("maniac shift row 1 right"), "not-your-turn")
    assert snapshot(session) == before
    ok_frame(p.handle("bomber detonate no"))
    assert session.state.awaiting()[0].kind != "detonate"


def test_keep_interrupt_surfaces_in_awaiting():
    session = staged_keep()
    lines = _awaiting_lines(session)
    assert len(lines) == 1 and lines[0].startswith("detective keep: "), lines
    legal = sendable(ok_frame(Protocol(session).handle("legal detective"))[1])
    keeps = [m for m in legal if m.startswith("keep ")]
    assert len(keeps) == 2 and legal[-1] == "surrender"
    p = Protocol(session)
    before = snapshot(session)
    err_frame(p.handle("detective shift row 1 right"), "illegal")
    err_frame(p.handle("bomber shift row 1 right"), "not-your-turn")
    assert snapshot(session) == before
    # the inspected cards are the detective's secret
    seen = session.events.visible_to("detective")[-1]
    assert seen.kind == "inspect-look"
    _, body = ok_frame(Protocol(session, "bomber").handle("events"))
    assert seen.text not in body_values(body, "event")
    ok_frame(p.handle(f"detective {keeps[1]}"))
    assert session.state.awaiting()[0].seat == "bomber"


def test_interrupt_in_a_duel_names_the_team_seat():
    s = fbi_game("duel-3v3", identities={"bandit": "Hugo", "operative": "Mara", "maniac": "Dario", "bomber": "Ines"})
    play(s, "mafia shift row 6 right", "fbi shift row 6 right", "mafia shift row 6 right", "mafia threat f1",
         "fbi shift row 6 right", "mafia plant b2", "fbi protect a3", "fbi arrest b2")
    lines = _awaiting_lines(s)
    assert len(lines) == 1 and lines[0].startswith("mafia detonate: "), lines
    assert sendable(ok_frame(Protocol(s, "mafia").handle("legal mafia"))[1]) == [
        "detonate yes", "detonate no", "surrender"]

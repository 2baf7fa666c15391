"""The line protocol of docs/protocol.md: how responses are framed, and garbage lines (hypothesis).

Authority: docs/protocol.md. The garbage-line property tests found two bugs here (Unicode digits
crashing int(), refused stamped meta-commands moving the clock); both are fixed and pinned by tests.
Sessions, frames and staged positions: ``tests/protocol_staging.py``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from arbiter.engine import registry
from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import META_COMMANDS, Protocol
from arbiter.engine.session import Session

from tests.helpers import run
from tests.protocol_staging import (
    POSITIONS,
    PROPERTY,
    SEATS_3V3,
    body_values,
    err_frame,
    frame,
    jframe,
    new_session,
    ok_frame,
    snapshot,
    some_legal_move,
)


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
    # every time is a string of seconds as a stamp writes them (protocol.md: exact, read back as written)
    assert [(o.get("command"), o["time"]) for o in objs if "time" in o] == [("move", "1"), ("time", "1")]


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


def test_a_comment_or_blank_line_that_breaks_the_line_checks_is_refused_as_any_line() -> None:
    """The checks of a line (length, UTF-8, control characters) come before it is read as a
    comment (protocol.md, Framing): a bot counting its responses counts these too."""
    lines = ["#" + "x" * 9000, " " * 9000, "# a \x00 in a comment", "# fine", "", "time"]
    r = run("play", "mafia", "--seed", "1", "--moves", "-", input="\n".join(lines) + "\n")
    heads = [line for line in r.output.splitlines() if line[:1] in ("=", "?")]
    assert [h.split(":")[0] for h in heads] == ["? syntax", "? syntax", "? syntax", "= time"], heads

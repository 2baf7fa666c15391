"""The line protocol (docs/protocol.md) spoken for Classic Mafia (docs/rules/mafia.md), through
engine.protocol.Protocol in text and JSON mode: move responses (visible events, then the
awaited inputs), the out who cannot act, exact legal inputs, refusals that change nothing, and
garbage lines (hypothesis) fed to the host's and to a seat's session.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from arbiter.engine.events import HOST
from arbiter.engine.match import Match
from arbiter.engine.protocol import META_COMMANDS, Protocol
from arbiter.engine.session import Session
from tests.helpers import mafia_game, play
from tests.protocol_staging import body_values, err_frame, frame, jframe, ok_frame, snapshot

# p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 p7 Civilians, p8 Chameleon.
CARDS8 = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
# p1 Boss, p2 Mafia, p3 Agent, p4 Chief, p5 p6 Civilians, p7 Fighter.
CARDS7 = ["boss", "mafia", "agent", "chief", "civilian", "civilian", "fighter"]
EIGHT = tuple(f"p{i}" for i in range(1, 9))
ALL_PASS = [f"{s} pass" for s in EIGHT]


# --------------------------------------------------------------------------------- positions
def pos_start() -> Session:
    return mafia_game(CARDS8)


def pos_nominated() -> Session:
    """Day 1: p6 nominated p1, p7 nominated p2; the others have not answered."""
    s = mafia_game(CARDS8)
    play(s, "p6 nominate p1", "p7 nominate p2")
    return s


def pos_vote() -> Session:
    """Day 1, the roll-call between p1 and p2; p1 is called first."""
    s = pos_nominated()
    play(s, *[f"{x} pass" for x in EIGHT if x not in ("p6", "p7")])
    assert s.state.phase == "vote" and s.state.current_voter() == "p1"
    return s


def pos_seducer() -> Session:
    s = mafia_game(CARDS8)
    play(s, *ALL_PASS)
    assert s.state.step().name == "seducer"
    return s


def pos_mafia() -> Session:
    """Night 1, the Mafia's step: p2 may suggest, p1 (the Boss) kills."""
    s = pos_seducer()
    play(s, "p3 seduce p4")
    assert s.state.step().name == "mafia"
    return s


def pos_police() -> Session:
    s = pos_mafia()
    play(s, "p2 suggest p6", "p1 kill p6")
    assert s.state.step().name == "police"
    return s


def pos_chameleon() -> Session:
    s = pos_police()
    play(s, "p5 pass", "p4 shoot p7")
    assert s.state.step().name == "chameleon"
    return s


def pos_day2() -> Session:
    """Day 2: p6 and p7 died in night 1; p3 may not vote today."""
    s = pos_chameleon()
    play(s, "p8 ban p3")
    assert s.state.day == 2 and not s.state.alive["p6"] and not s.state.alive["p7"]
    return s


def pos_fighter() -> Session:
    """7 players, night 1, the Fighter's step (p7)."""
    s = mafia_game(CARDS7)
    play(s, *[f"p{i} pass" for i in range(1, 8)], "p3 protect p4", "p1 kill p5", "p4 arrest p2")
    assert s.state.step().name == "fighter"
    return s


def pos_over() -> Session:
    """The town has won: both Mafia players were expelled."""
    s = mafia_game(CARDS8)
    play(s, "p6 nominate p1", *[f"{x} pass" for x in EIGHT if x != "p6"], *[f"{x} vote p1" for x in EIGHT],
         "p3 seduce p4", "p2 kill p6", "p4 arrest p8", "p8 ban p3", "p7 nominate p2",
         *[f"{x} pass" for x in ("p2", "p3", "p4", "p5", "p8")], *[f"{x} vote p2" for x in ("p2", "p4", "p5", "p7", "p8")])
    assert s.over and s.state.result.winner == "town"
    return s


POSITIONS: dict[str, Callable[[], Session]] = {
    "start": pos_start, "nominated": pos_nominated, "vote": pos_vote, "seducer": pos_seducer,
    "mafia": pos_mafia, "police": pos_police, "chameleon": pos_chameleon, "day2": pos_day2,
    "fighter": pos_fighter, "over": pos_over,
}


def test_positions_are_what_they_say() -> None:
    for name, build in POSITIONS.items():
        s = build()
        assert s.over == (name == "over"), name


# ------------------------------------------------------------------------- move responses
def expected_body(session: Session, perspective: str, start: int) -> list[str]:
    events = [f"event: {e.text}" if perspective != HOST or e.to is None  # (the host is told whom a secret is for)
              else f"event: (to {' '.join(e.to) or 'the host only'}) {e.text}"
              for e in session.events.since(start) if e.visible_to(perspective)]
    if session.over:
        return events + [f"result: {session.state.result.text}"]
    return events + [f"awaiting: {a.seat} {a.kind}: {a.hint}" for a in session.state.awaiting_seen_by(perspective)]


GAME = [*ALL_PASS, "p3 seduce p4", "p2 say p6?", "p2 suggest p6", "p1 kill p6", "p5 suggest p1", "p4 arrest p1",
        "p8 ban p2", "p7 say I am innocent", "p7 nominate p1", "p1 nominate p8",
        *[f"{x} pass" for x in ("p2", "p3", "p4", "p5", "p8")],
        "p1 vote p8", "p3 vote p1", "p4 vote p1", "p5 vote p1", "p7 say sorry", "p7 vote p1", "p8 vote p1",
        "p3 seduce p7", "p2 kill p3", "p5 pass", "p4 shoot p2", "p8 ban p4"]


def test_the_host_is_told_whom_each_secret_is_for() -> None:
    """The host is told every seat's secrets and, with each, whom it is for: ``(to SEATS)``
    before the text (JSON: ``to``, the seats; ``null`` for everyone), ``(to the host only)``
    for the night's summary no seat sees (JSON ``[]``). A seat's lines are the text alone."""
    s = mafia_game(CARDS8)
    host, jsn, p1 = Protocol(s, HOST), Protocol(s, HOST, json_mode=True), Protocol(s, "p1")
    lines, dicts, own = [], [], []
    for k, line in enumerate(GAME[:len(ALL_PASS) + 9]):  # (to the end of night 1)
        lines += ok_frame(host.handle(line))[1] if k % 2 else []
        dicts += [] if k % 2 else jframe(jsn.handle(line))["events"]
        own += ok_frame(p1.handle("events p1"))[1]
    summary = next(e for e in s.events if e.kind == "night-summary")
    assert summary.to == () and any(
        line == f"event: (to the host only) {summary.text}" for line in lines + ok_frame(host.handle("events"))[1])
    assert [d["to"] for d in dicts if d["kind"] == "night-summary"] == [[]]
    told = [line for line in ok_frame(host.handle("events"))[1] if line.startswith("event: (to ")]
    assert "event: (to p1) You are p1: your card is the Mafia Boss." in told  # (CARDS8: p1 holds it)
    assert any(line.startswith("event: (to p1 p2) ") for line in told), told  # (a team: every member)
    assert all(d["to"] is None for d in dicts if d["kind"] in ("vote", "day", "dawn"))
    assert not any(line.startswith("event: (to ") for line in own) and any("your card" in line for line in own)


@pytest.mark.parametrize("perspective", [HOST, "p7", "p1", "p4", "p3"])
def test_a_move_response_lists_the_visible_events_then_the_awaited_inputs(perspective: str) -> None:
    """A whole game, the perspective's own lines through its session, the others submitted
    directly (as another session would); every response of the session is checked."""
    s = mafia_game(CARDS8)
    text = Protocol(s, perspective)
    jsn = Protocol(s, perspective, json_mode=True)
    checked = 0
    for line in GAME:
        seat, _, words = line.partition(" ")
        if perspective not in (HOST, seat):
            s.submit(seat, words)
            continue
        start = len(s.events)
        own_mode = checked % 2 == 1  # alternate the session answering: each keeps its own count
        p = jsn if own_mode else text
        out = p.handle(line)
        if own_mode:
            obj = jframe(out)
            assert obj["ok"] and obj["command"] == "move" and obj["seat"] == seat and obj["input"] == words
            caused = [e for e in s.events.since(start) if e.visible_to(perspective)]
            stream = s.events.visible_to(perspective)
            assert [e["text"] for e in obj["events"]] == [e.text for e in caused]
            for e in obj["events"]:  # indices count in the perspective's own stream
                assert stream[e["index"]].text == e["text"] and stream[e["index"]].kind == e["kind"]
            assert obj["awaiting"] == [a.as_dict() for a in s.state.awaiting_seen_by(perspective)]
            assert obj["time"] == str(s.clock_ms // 1000)
        else:
            headline, body = ok_frame(out)
            assert headline == line
            assert body == expected_body(s, perspective, start)
            kinds = [b.split(":")[0] for b in body]
            assert kinds == sorted(kinds, key=lambda k: k != "event"), "events come before awaiting lines"
        checked += 1
    assert s.over and s.state.result.winner == "town"
    assert checked >= (len(GAME) if perspective == HOST else 3)


def test_the_last_nomination_response_shows_the_fall_of_night() -> None:
    s = mafia_game(CARDS8)
    play(s, *ALL_PASS[:-1])
    headline, body = ok_frame(Protocol(s, "p8").handle("p8 pass"))
    assert headline == "p8 pass"
    assert body == [
        "event: p8 nominates nobody.",
        "event: Nobody is nominated on day 1; nobody leaves today.",
        "event: Night 1 falls; everyone sleeps.",
        "event: The Seducer wakes and chooses whom to spend the night with.",
        "awaiting: - night: night 1: The Seducer wakes and chooses whom to spend the night with.",
    ]
    _, body = ok_frame(Protocol(s, "p3").handle("awaiting"))
    assert body == ["awaiting: p3 night: night 1: seduce a player (not yourself): nobody can kill them tonight"]


def test_a_night_move_in_its_own_session_is_shown_in_full() -> None:
    s = pos_mafia()
    headline, body = ok_frame(Protocol(s, "p2").handle("p2 suggest p7"))
    assert headline == "p2 suggest p7"
    assert body == ["event: p2 suggests p7.", "awaiting: p1 night: night 1: kill: name the Mafia's victim"]
    obj = jframe(Protocol(s, "p1", json_mode=True).handle("p1 kill p7"))
    assert (obj["seat"], obj["input"]) == ("p1", "kill p7")
    assert [e["kind"] for e in obj["events"]] == ["night-act", "narration"]
    assert obj["awaiting"] == [{"seat": "-", "kind": "night", "hint": "night 1: The Police wake; the Chief shoots or arrests."}]


# ------------------------------------------------------------------------------ the out
OUT_LINES = ["say hello", "pass", "nominate p1", "vote p1", "abstain", "leave", "kill p1", "suggest p1", "shoot p1",
             "seduce p1", "protect p1", "arrest p1", "ban p1"]


@pytest.mark.parametrize("json_mode", [False, True])
@pytest.mark.parametrize("dead", ["p6", "p7"])
def test_the_out_cannot_act(dead: str, json_mode: bool) -> None:
    s = pos_day2()
    for perspective in (HOST, dead):
        p = Protocol(s, perspective, json_mode=json_mode)
        before = snapshot(s)
        for words in OUT_LINES:
            out = p.handle(f"{dead} {words}")
            if json_mode:
                obj = jframe(out)
                assert not obj["ok"] and obj["error"]["kind"] == "illegal", obj
                message = obj["error"]["message"]
            else:
                message, _ = err_frame(out, "illegal")
            assert f"{dead} is out of the game (killed in night 1)" in message
            assert snapshot(s) == before
        legal = p.handle(f"legal {dead}")
        if json_mode:
            assert jframe(legal)["legal"] == []
        else:
            assert ok_frame(legal) == (f"legal {dead}", [])
    assert dead not in [a.seat for a in s.state.awaiting()]


def test_a_player_who_left_or_was_expelled_cannot_act() -> None:
    s = pos_day2()
    p = Protocol(s)
    _, body = ok_frame(p.handle("p8 leave"))
    assert "event: p8 leaves the game; their card: Chameleon." in body
    before = snapshot(s)
    err_frame(p.handle("p8 say I am back"), "illegal")
    err_frame(p.handle("p8 leave"), "illegal")
    assert snapshot(s) == before
    s = pos_over()
    before = snapshot(s)
    for line in ("p1 say hi", "p2 pass", "p3 pass"):
        err_frame(Protocol(s).handle(line), "game-over")
    assert snapshot(s) == before


# ------------------------------------------------------------------------------ legal inputs
def others(seat: str, alive: tuple[str, ...] = EIGHT, exclude: tuple[str, ...] = ()) -> list[str]:
    return [s for s in alive if s != seat and s not in exclude]


LEGAL: list[tuple[str, str, list[str]]] = [
    ("start", "p6", ["say TEXT", *[f"nominate {x}" for x in others("p6")], "pass", "leave"]),
    ("nominated", "p1", ["say TEXT", *[f"nominate {x}" for x in others("p1", exclude=("p1", "p2"))], "pass", "leave"]),
    ("nominated", "p6", ["say TEXT", "leave"]),
    ("vote", "p1", ["say TEXT", "vote p1", "vote p2", "abstain", "leave"]),
    ("vote", "p2", ["say TEXT", "leave"]),
    ("seducer", "p3", [*[f"seduce {x}" for x in others("p3")], "leave"]),
    ("seducer", "p6", ["leave"]),
    ("seducer", "p1", ["leave"]),
    ("mafia", "p1", ["say TEXT", *[f"kill {x}" for x in others("p1", exclude=("p2",))], "leave"]),
    ("mafia", "p2", ["say TEXT", *[f"suggest {x}" for x in others("p2", exclude=("p1",))], "pass", "leave"]),
    ("mafia", "p4", ["leave"]),
    ("mafia", "p6", ["leave"]),
    ("police", "p4", ["say TEXT", *[f"shoot {x}" for x in others("p4", exclude=("p5",))],
                      *[f"arrest {x}" for x in others("p4", exclude=("p5",))], "pass", "leave"]),
    ("police", "p5", ["say TEXT", *[f"suggest {x}" for x in others("p5", exclude=("p4",))], "pass", "leave"]),
    ("police", "p2", ["leave"]),
    ("chameleon", "p8", [*[f"ban {x}" for x in others("p8")], "leave"]),
    ("fighter", "p7", [*[f"kill {x}" for x in others("p7", alive=tuple(f"p{i}" for i in range(1, 8)))], "pass",
                       "leave"]),
    ("day2", "p3", ["say TEXT", *[f"nominate {x}" for x in ("p1", "p2", "p4", "p5", "p8")], "pass", "leave"]),
    ("day2", "p6", []),
    ("over", "p4", []),
]


@pytest.mark.parametrize("position, seat, want", LEGAL, ids=[f"{p}-{s}" for p, s, _ in LEGAL])
def test_legal_lists_the_exact_inputs_and_say_text_is_a_form(position: str, seat: str, want: list[str]) -> None:
    """``want`` is everything the seat may send; ``say TEXT`` is a template, so it is listed by
    ``input_forms``, and ``legal`` holds the rest, each input exactly as it may be sent."""
    s = POSITIONS[position]()
    forms = ["say TEXT"] if "say TEXT" in want else []
    resign = "leave" if "leave" in want else None  # the game's give-up input, on a line of its own
    inputs = [m for m in want if m not in ("say TEXT", "leave")]
    assert s.state.input_forms(seat) == forms
    for perspective in (HOST, seat):
        headline, body = ok_frame(Protocol(s, perspective).handle(f"legal {seat}"))
        assert headline == f"legal {seat}"
        assert body == [f"legal: {m}" for m in inputs] + [f"form: {f}" for f in forms] + \
            ([f"resign: {resign}"] if resign else [])
        obj = jframe(Protocol(s, perspective, json_mode=True).handle(f"legal {seat}"))
        assert obj == {"ok": True, "command": "legal", "seat": seat, "legal": inputs, "forms": forms, "resign": resign}


@pytest.mark.parametrize("position, seat, want", [x for x in LEGAL if x[2]], ids=[f"{p}-{s}" for p, s, w in LEGAL if w])
def test_every_legal_input_is_accepted_and_nothing_else_of_its_verbs(position: str, seat: str, want: list[str]) -> None:
    for move in want:
        s = POSITIONS[position]()
        words = "say hello there" if move == "say TEXT" else move
        headline, _ = ok_frame(Protocol(s, seat).handle(f"{seat} {words}"))
        assert headline == f"{seat} {words}"
        assert s.moves[-1].seat == seat and s.moves[-1].text == words
    # the same verbs with a target that is not listed are refused, and change nothing
    verbs = {m.split()[0] for m in want if len(m.split()) == 2 and m != "say TEXT"}
    s = POSITIONS[position]()
    for verb in sorted(verbs):
        for target in EIGHT[: len(s.seats)]:
            if f"{verb} {target}" in want:
                continue
            before = snapshot(s)
            mark, _, _ = frame(Protocol(s, seat).handle(f"{seat} {verb} {target}"))
            assert mark == "?", (verb, target)
            assert snapshot(s) == before


# ------------------------------------------------------------------------------ refusals
ERRORS: list[tuple[str, str, str, str]] = [
    # position, perspective, line, kind
    ("start", HOST, "p6 kill p1", "illegal"),
    ("start", HOST, "p6 vote p1", "illegal"),
    ("start", HOST, "p6 abstain", "illegal"),
    ("start", HOST, "p6 nominate p6", "illegal"),
    ("start", HOST, "p6 nominate p99", "syntax"),
    ("start", HOST, "p6 nominate", "syntax"),
    ("start", HOST, "p6 nominate p1 p2", "syntax"),
    ("start", HOST, "p6 pass now", "syntax"),
    ("start", HOST, "p6 say", "syntax"),
    ("start", HOST, "p6 dance", "syntax"),
    ("start", HOST, "p6 suggest p1", "illegal"),
    ("start", HOST, "p9 pass", "unknown-command"),
    ("start", HOST, "host pass", "unknown-command"),
    ("start", HOST, "legal p9", "unknown-seat"),
    ("start", HOST, "legal host", "unknown-seat"),
    ("start", HOST, "@ p6 pass", "syntax"),
    ("start", HOST, "@-1 p6 pass", "syntax"),
    ("start", "p6", "p1 pass", "denied"),
    ("start", "p6", "view p1", "denied"),
    ("start", "p6", "board p1", "denied"),
    ("start", "p6", "events p1", "denied"),
    ("start", "p6", "legal p1", "denied"),
    ("start", "p6", "events host", "denied"),
    ("nominated", HOST, "p6 nominate p3", "illegal"),  # already nominated
    ("nominated", HOST, "p1 nominate p2", "illegal"),  # p2 already nominated
    ("nominated", HOST, "p6 pass", "illegal"),
    ("vote", HOST, "p3 vote p1", "not-your-turn"),
    ("vote", HOST, "p1 vote p5", "illegal"),
    ("vote", HOST, "p1 pass", "illegal"),
    ("vote", HOST, "p1 nominate p5", "illegal"),
    ("vote", HOST, "p1 vote", "syntax"),
    ("vote", HOST, "@0 p1 abstain", "time"),
    ("seducer", HOST, "p3 seduce p3", "illegal"),
    ("seducer", HOST, "p3 pass", "illegal"),
    ("seducer", HOST, "p3 kill p1", "illegal"),
    ("seducer", HOST, "p1 kill p6", "not-your-turn"),
    ("seducer", HOST, "p6 say hello", "illegal"),
    ("seducer", HOST, "p6 nominate p1", "illegal"),
    ("mafia", HOST, "p1 kill p2", "illegal"),
    ("mafia", HOST, "p1 kill p1", "illegal"),
    ("mafia", HOST, "p1 pass", "illegal"),
    ("mafia", HOST, "p1 shoot p6", "illegal"),
    ("mafia", HOST, "p2 kill p6", "not-your-turn"),
    ("mafia", HOST, "p2 suggest p1", "illegal"),
    ("mafia", HOST, "p2 suggest p2", "illegal"),
    ("mafia", HOST, "p4 say the mafia is p1", "illegal"),
    ("mafia", HOST, "p6 pass", "not-your-turn"),
    ("mafia", "p6", "p1 kill p6", "denied"),
    ("police", HOST, "p4 shoot p5", "illegal"),
    ("police", HOST, "p4 arrest p4", "illegal"),
    ("police", HOST, "p5 shoot p1", "not-your-turn"),
    ("police", HOST, "p1 say hi", "illegal"),
    ("chameleon", HOST, "p8 ban", "syntax"),
    ("chameleon", HOST, "p8 pass", "illegal"),
    ("day2", HOST, "p3 kill p1", "illegal"),
    ("day2", HOST, "p4 nominate p7", "illegal"),  # p7 is out
    ("over", HOST, "p4 pass", "game-over"),
    ("over", "p4", "p4 say gg", "game-over"),
]


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("position, perspective, line, kind", ERRORS,
                         ids=[f"{p}-{v}-{ln}" for p, v, ln, _ in ERRORS])
def test_errors_leave_the_state_unchanged(position: str, perspective: str, line: str, kind: str,
                                          json_mode: bool) -> None:
    s = POSITIONS[position]()
    p = Protocol(s, perspective, json_mode=json_mode)
    if kind == "time":
        ok_frame(Protocol(s).handle("@30 time"))
    before = snapshot(s)
    legal_before = {x: s.state.legal_inputs(x) for x in s.seats}
    out = p.handle(line)
    if json_mode:
        obj = jframe(out)
        assert not obj["ok"] and obj["error"]["kind"] == kind, obj
    else:
        err_frame(out, kind)
    assert snapshot(s) == before
    assert {x: s.state.legal_inputs(x) for x in s.seats} == legal_before
    if not s.over:  # still alive: a legal move goes through
        awaited = s.state.awaiting()[0].seat
        move = next(m for m in s.state.legal_inputs(awaited) if m != "leave")
        ok_frame(Protocol(s).handle(f"{awaited} {move}"))


def test_syntax_errors_list_the_seats_own_forms() -> None:
    s = pos_mafia()
    _, body = err_frame(Protocol(s).handle("p1 dance"), "syntax")
    allowed = body_values(body, "allowed")
    assert [a.split()[0].rstrip(":") for a in allowed] == ["say", "kill", "leave"], allowed
    _, body = err_frame(Protocol(s, "p6").handle("p6 dance"), "syntax")
    assert [a.split()[0].rstrip(":") for a in body_values(body, "allowed")] == ["leave"]


def test_a_script_gets_one_response_per_line_through_a_match() -> None:
    s = pos_start()
    script = ["# a comment", "", "awaiting", "p1 pass", "p1 pass", "  ", "p2 nominate p1", "legal p3",
              "@5 p3 pass\r", "p4 say hi\r\n", "bogus", "# done"]
    outs = list(Match(Protocol(s), {}, iter(script)).run())
    assert len(outs) == 8
    marks = [frame(o)[0] for o in outs]
    assert marks == ["=", "=", "?", "=", "=", "=", "=", "?"]
    assert [m.text for m in s.moves] == ["pass", "nominate p1", "pass", "say hi"]
    j = list(Match(Protocol(pos_start(), json_mode=True), {}, iter(script)).run())
    assert [jframe(o)["ok"] for o in j] == [True, True, False, True, True, True, True, False]


# ======================================================================= garbage (hypothesis)
SEATS = [*EIGHT, "p0", "p9", "p13", "P3", "p01", "host", "p", "p-1", "p３", "ｐ1"]
VERBS = ["say", "nominate", "pass", "vote", "abstain", "leave", "suggest", "seduce", "protect", "kill", "shoot",
         "arrest", "ban", "Kill", "VOTE", "nominates", "kil", "shoot!", "protect:"]
STAMPS = ["@0", "@1", "@5", "@2.5", "@1000", "@0.001", "@1.2345", "@-1", "@x", "@", "@٣", "@²", "@@1"]
VOCAB = [*SEATS, *VERBS, *STAMPS, *META_COMMANDS, "TEXT", "hello", "#", "=", "?", "\r", "\t", "é", "⚔", "💀",
         "\u2028", "\x85", "\x00", "0", "3", "-", "p1p2"]
PROPERTY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def command_lines(draw):
    """[@STAMP] SEAT-or-COMMAND VERB ARGS..., with wrong parts mixed in."""
    parts = []
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(STAMPS)))
    parts.append(draw(st.sampled_from([*SEATS, *META_COMMANDS, "HELP", "Legal"])))
    if draw(st.integers(0, 4)):
        parts.append(draw(st.sampled_from(VERBS)))
    parts += draw(st.lists(st.one_of(st.sampled_from(VOCAB), st.text(min_size=1, max_size=4)), max_size=3))
    sep = draw(st.sampled_from([" ", "  ", "\t", " \r "]))
    return sep.join(parts) + draw(st.sampled_from(["", "\r", "\r\n", " "]))


@st.composite
def move_lines(draw):
    """Mostly well-formed moves: [@STAMP] SEAT VERB [SEAT or words], right or wrong for the moment."""
    stamp = draw(st.sampled_from(["", "", "", "@3 ", "@40 ", "@0 ", "@2.5 "]))
    seat = draw(st.sampled_from([*EIGHT, *EIGHT, "P2", "p9"]))
    verb = draw(st.sampled_from(VERBS[:13]))
    tail = draw(st.one_of(st.sampled_from([*EIGHT, "", "p9", "p1 p2", "hello world", "TEXT"]),
                          st.text(min_size=1, max_size=8)))
    return f"{stamp}{seat} {verb} {tail}"


garbage_line = st.one_of(
    move_lines(), move_lines(), move_lines(), command_lines(), command_lines(),
    st.lists(st.sampled_from(VOCAB), min_size=1, max_size=6).map(" ".join),
    st.text(st.characters(blacklist_categories=("Cs",)).filter(lambda c: c != "\n"), max_size=40),
)


def _blank(line: str) -> bool:
    text = line.strip()
    return not text or text.startswith("#")


def _check_lines(position: str, perspective: str, lines: list[str], json_mode: bool) -> None:
    s = POSITIONS[position]()
    p = Protocol(s, perspective, json_mode=json_mode)
    for line in lines:
        before = snapshot(s)
        moves = len(s.moves)
        out = p.handle(line)
        if _blank(line):
            assert out is None, (line, out)
            assert snapshot(s) == before
            continue
        if json_mode:
            ok = jframe(out)["ok"]
        else:
            ok = frame(out)[0] == "="
        if not ok:
            assert snapshot(s) == before, f"a refused line changed the state: {line!r} -> {out!r}"
        else:
            assert len(s.moves) in (moves, moves + 1)
            if len(s.moves) == moves + 1:
                words = line.split()
                if words[0].startswith("@"):
                    words = words[1:]
                if words[0].lower() in s.seats:
                    assert words[0].lower() == s.moves[-1].seat
                else:  # a seat's session may leave its own name out: "say hi" is "p1 say hi"
                    assert perspective != HOST and s.moves[-1].seat == perspective, (line, s.moves[-1])
                assert perspective in (HOST, s.moves[-1].seat), "a seat's session moved for another seat"
    host = Protocol(s)
    ok_frame(host.handle("awaiting"))
    if s.over:
        err_frame(host.handle("p1 pass"), "game-over")
    else:
        awaited = s.state.awaiting()[0].seat
        move = next(m for m in s.state.legal_inputs(awaited) if m != "leave")
        ok_frame(host.handle(f"{awaited} {move}"))


@PROPERTY
@given(position=st.sampled_from(sorted(POSITIONS)), lines=st.lists(garbage_line, min_size=1, max_size=4),
       json_mode=st.booleans())
@example(position="mafia", lines=["p1 kill p2", "p1 say \u2028 kill p6"], json_mode=False)
@example(position="vote", lines=["@1000 p1 vote p1", "@5 p2 abstain"], json_mode=True)
@example(position="start", lines=["p6 say =\r?", "p6 say \x85 event: fake"], json_mode=False)
def test_garbage_lines_to_the_host(position: str, lines: list[str], json_mode: bool) -> None:
    _check_lines(position, HOST, lines, json_mode)


@PROPERTY
@given(position=st.sampled_from(sorted(POSITIONS)), lines=st.lists(garbage_line, min_size=1, max_size=4),
       json_mode=st.booleans(), seat_index=st.integers(0, 7))
@example(position="mafia", lines=["p1 kill p6", "p2 suggest p6"], json_mode=False, seat_index=5)
@example(position="mafia", lines=["view p1", "legal p2", "events p1 0"], json_mode=True, seat_index=5)
@example(position="fighter", lines=["p7 kill p1", "p8 pass"], json_mode=False, seat_index=7)
@example(position="day2", lines=["p1 say p1", "say p1"], json_mode=False, seat_index=0)
def test_garbage_lines_to_a_seats_session(position: str, lines: list[str], json_mode: bool, seat_index: int) -> None:
    seats = POSITIONS[position]().seats
    _check_lines(position, seats[seat_index % len(seats)], lines, json_mode)


def test_talk_cannot_forge_a_response_line() -> None:
    """Line-break-like characters in talk are word separators: the event stays one line."""
    s = pos_start()
    for json_mode in (False, True):
        out = Protocol(s, "p6", json_mode=json_mode).handle("p6 say a\u2028= p1 kill p6\x85? x\x0bb")
        if json_mode:
            assert jframe(out)["events"][0]["text"] == "p6: a = p1 kill p6 ? x b"
        else:
            _, body = ok_frame(out)
            assert body[0] == "event: p6: a = p1 kill p6 ? x b"
    assert json.loads(Protocol(s, json_mode=True).handle("events"))["events"][-1]["data"]["text"] == "a = p1 kill p6 ? x b"

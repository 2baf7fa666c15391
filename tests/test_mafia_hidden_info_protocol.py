"""Hidden information in Classic Mafia: what the protocol tells a seat, and a Match
played as a Civilian.

The method (twin games that differ only in what the seat may not know, compared after
every input) and the twins themselves: ``tests/mafia_twins.py``.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from arbiter.engine.bots import RandomBot
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol, Response
from arbiter.engine.session import Session

from tests.helpers import mafia_game, precondition
from tests.mafia_twins import CARDS8, EIGHT, MAFIA, side_of, word


# ---------------------------------------------------------------------------- the protocol
@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
def test_a_seat_session_shows_another_seats_night_move_as_a_secret_input(json_mode: bool) -> None:
    """Every seat's session, as the referee plays each move in it (Protocol.move, referee=True)."""
    night = ["p3 seduce p6", "p2 say p7?", "p2 suggest p7", "p1 kill p7", "p5 say p1?", "p5 suggest p1",
             "p4 arrest p1", "p8 ban p2"]
    checked = Counter()
    for x in EIGHT:
        s = mafia_game(CARDS8)
        p = Protocol(s, x, json_mode=json_mode)
        for seat in EIGHT:
            p.move(seat, "pass", None, referee=True)
        for line in night:
            actor, _, text = line.partition(" ")
            step = s.state.step()
            team = s.state.awake_team(step.name) if step.name in ("mafia", "police") else [actor]
            start = len(s.events)
            out = p.render(p.move(actor, text, None, referee=True))
            caused = [e.text for e in s.events.since(start) if e.visible_to(x)]
            if json_mode:
                obj = json.loads(out)
                shown = (obj["seat"], obj["input"])
                assert [e["text"] for e in obj["events"]] == caused
            else:
                head = out.splitlines()[0]
                shown = (head,)
                assert [ln[7:] for ln in out.splitlines() if ln.startswith("event: ")] == caused
            if x == actor:
                assert shown == ((actor, text) if json_mode else (f"= {actor} {text}",)), out
                checked["own"] += 1
                continue
            assert shown == ((None, None) if json_mode else ("= - (a secret input)",)), (x, line, out)
            if x in team:  # the team learns its members' moves from the events sent to it
                assert any(word(actor).search(c) for c in caused), (x, line, caused)
                checked["team"] += 1
            else:
                assert text not in out and not NIGHT_MOVE.search(out), (x, line, out)
                assert all(c in ("The Mafia wakes and chooses a victim.", "The Police wake; the Chief shoots or arrests.",
                                 "The Chameleon wakes and chooses who may not vote tomorrow.")
                           or c.startswith(("Morning", "p7 was killed", "Day 2", "p2 may not vote"))
                           for c in caused), (x, line, caused)
                checked["outsider"] += 1
    assert checked["outsider"] >= 40 and checked["team"] >= 4 and checked["own"] == len(night), checked


def test_protocol_move_in_a_seat_session_redacts_night_moves_text_and_json() -> None:
    """The real Protocol.move, as the referee calls it for a bot, in p6's session."""
    for json_mode in (False, True):
        s = mafia_game(CARDS8)
        p = Protocol(s, "p6", json_mode=json_mode)
        host = Protocol(s)
        for x in EIGHT:
            p.move(x, "pass", None, referee=True)
        for line, wakes in [("p3 seduce p6", "The Mafia wakes"), ("p2 suggest p7", None),
                            ("p1 kill p7", "The Police wake"), ("p4 arrest p1", "The Chameleon wakes"),
                            ("p8 ban p2", "Morning of day 2")]:
            actor, _, text = line.partition(" ")
            out = p.render(p.move(actor, text, None, referee=True))
            if json_mode:
                obj = json.loads(out)
                assert obj["ok"] and obj["seat"] is None and obj["input"] is None, obj
                texts = [e["text"] for e in obj["events"]]
                assert (texts == []) if wakes is None else texts[0].startswith(wakes), texts
            else:
                assert out.startswith("= - (a secret input)\n"), out
                if wakes is None:
                    assert out == "= - (a secret input)\nawaiting: - night: night 1: The Mafia wakes and chooses a victim.\n\n"
                else:
                    assert out.splitlines()[1].startswith(f"event: {wakes}"), out
            assert text not in out and not word(actor).search(out.splitlines()[0] if not json_mode else "")
        # the host sees it all
        assert "seen by the host" in host.handle("events")
        assert ("p1", "kill p7") in [(m.seat, m.text) for m in s.moves] and s.state.day == 2


# --------------------------------------------------------------------- a Match as a Civilian
NIGHT_MOVE = re.compile(r"\b(?:seduce|protect|kill|suggest|shoot|arrest|ban)\s+p\d+\b", re.IGNORECASE)
REVEAL_KINDS = ("out", "reveal", "game-over", "morning")
DAY_KINDS = ("nominate", "vote")  # a night move that ends the night shows the day's (public) awaited inputs
DAY_AWAITING = re.compile(r"awaiting: p\d+ (?:nominate|vote): day \d+")


def night_leaks(out: str, json_mode: bool, mafia: list[str], revealing: set[str]) -> list[str]:
    """What a printed response to a night move tells that the Civilian may not know: a Mafia
    seat's name or a night move's words, outside the events that legitimately reveal them
    (deaths, the ban, the end)."""
    problems = []
    if json_mode:
        obj = json.loads(out)
        if obj.get("command") == "move" and (obj["seat"] is not None or obj["input"] is not None):
            problems.append(f"a night move is named: seat {obj['seat']!r}, input {obj['input']!r}")
        obj["events"] = [e for e in obj.get("events", []) if e["text"] not in revealing]
        obj["awaiting"] = [a for a in obj.get("awaiting", []) if a["kind"] not in DAY_KINDS]
        obj.pop("result", None)
        lines = [json.dumps(obj)]
    else:
        lines = [line for line in out.splitlines() if not (line.startswith("event: ") and line[7:] in revealing)
                 and not line.startswith("result: ") and not DAY_AWAITING.match(line)]
        if not out.startswith("= - (a secret input)\n"):
            problems.append(f"a night move's headline is not secret: {out.splitlines()[0]!r}")
    for line in lines:
        for seat in mafia:
            if word(seat).search(line):
                problems.append(f"Mafia seat {seat} printed: {line!r}")
        if NIGHT_MOVE.search(line):
            problems.append(f"a night move printed: {line!r}")
    return problems


def civilian_match(n: int, seed: int, json_mode: bool) -> tuple[list[str], Counter]:
    """Play a Match with random bots on every seat but a Civilian's, whose lines come from a
    list; return the problems found in what the Civilian's session printed."""
    s = Session(MAFIA, f"{n}-players", seed=seed)
    me = next(x for x in s.seats if s.state.card[x] == "civilian")
    mafia = [x for x in s.seats if side_of(s.state.card[x]) == "mafia"]
    protocol = Protocol(s, me, json_mode=json_mode)
    bots = {x: RandomBot(x, seed) for x in s.seats if x != me}
    lines = [f"{me} say hello", f"{me} pass", f"{me} abstain"] * 60
    night_moves: list[tuple[bool, Response]] = []
    original = protocol.move

    def move(seat: str, text: str, time_ms: int | None, *, referee: bool = False) -> Response:
        night = s.state.phase == NIGHT and not s.over and text.split()[:1] != ["leave"]
        response = original(seat, text, time_ms, referee=referee)
        night_moves.append((night, response))
        return response

    protocol.move = move  # type: ignore[method-assign]
    problems: list[str] = []
    stats: Counter = Counter()
    for out in Match(protocol, bots, lines).run():
        night, response = night_moves[-1] if night_moves else (False, None)
        if response is None or protocol.render(response) != out or not night:
            continue
        revealing = {e.text for e in s.events if e.kind in REVEAL_KINDS and e.visible_to(me)}
        problems += night_leaks(out, json_mode, mafia, revealing)
        stats["night outputs"] += 1
    stats["night moves"] = sum(1 for night, _ in night_moves if night)
    stats["moves"] = len(s.moves)
    stats["over"] = s.over
    return problems, stats


@pytest.mark.parametrize("json_mode", [False, True], ids=["text", "json"])
@pytest.mark.parametrize("n", [6, 8, 10, 12])
def test_a_match_as_a_civilian_prints_nothing_of_the_night(n: int, json_mode: bool) -> None:
    total: Counter = Counter()
    for seed in (1, 2, 3):
        problems, stats = civilian_match(n, seed, json_mode)
        assert not problems, problems[:5]
        total.update(stats)
    assert total["night outputs"] >= 6, total
    # a secret input that shows nothing (a Mafia suggestion, night talk) is not printed at all
    assert total["night moves"] > total["night outputs"], total


def test_planted_public_input_leak_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """If night inputs were shown to every session, the Match check above would fail."""
    monkeypatch.setattr(MafiaState, "public_input", lambda self, seat, text: text)
    found = []
    for json_mode in (False, True):
        problems, stats = civilian_match(8, 1, json_mode)
        assert stats["night outputs"] >= 3
        found += problems
    assert any("a night move printed" in p for p in found), found[:5]
    assert any("Mafia seat" in p for p in found), found[:5]
    assert any("not secret" in p or "is named" in p for p in found), found[:5]


def test_a_seats_opening_object_is_the_same_whatever_secret_inputs_it_was_not_shown() -> None:
    """Twins: two games that differ only by the Mafia's night talk (``p2 say``, seen by the Mafia
    alone). A Civilian's opening object (a resumed session's first line) once counted every
    move played, the talk it may not see too, in ``moves``: the twins' openings differed."""
    night = ["p3 seduce p6", "p2 say p7?", "p2 suggest p7", "p1 kill p7", "p5 say p1?", "p5 suggest p1",
             "p4 arrest p1", "p8 ban p2"]
    openings = []
    for talk in (True, False):
        s = mafia_game(CARDS8)
        for seat in EIGHT:
            s.submit(seat, "pass", None)
        for line in night:
            if talk or line != "p2 say p7?":
                actor, _, text = line.partition(" ")
                s.submit(actor, text, None)
        precondition(len(s.moves) == len(EIGHT) + len(night) - (not talk), len(s.moves))
        openings.append({seat: Protocol(s, seat, json_mode=True).opening().json() for seat in ("p6", "p7", "p8")})
        openings[-1]["host"] = json.loads(Protocol(s, "host", json_mode=True).opening().json())["moves"]
    assert openings[0].pop("host") == len(EIGHT) + len(night) and openings[1].pop("host") == len(EIGHT) + len(night) - 1
    assert openings[0] == openings[1]
    shown = {seat: json.loads(openings[0][seat])["moves"] for seat in ("p6", "p7", "p8")}
    assert shown == {"p6": len(EIGHT), "p7": len(EIGHT), "p8": len(EIGHT) + 1}  # the day's passes; p8 its own ban

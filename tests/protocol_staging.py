"""What the tests of the line protocol (``test_protocol_*.py``, ``test_mafia_protocol.py``)
share: sessions of FBI vs Mafia, a response read as its frame (text or JSON, ``ok`` or
``err``, and its body's values), snapshots that show a refused line changed nothing, and
staged positions (``tests/helpers.fbi_game``: a1=Ada, b1=Boris, ... row by row) that reach an
ambiguous input, an arrest and the protection prompt.
"""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, settings

from arbiter.engine import registry
from arbiter.engine.events import HOST
from arbiter.engine.session import Session

from tests.helpers import fbi_game, play

FBI = registry.get("fbi-mafia")
SEATS_3V3 = ("bandit", "undercover", "maniac", "detective", "bomber", "operative")
PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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

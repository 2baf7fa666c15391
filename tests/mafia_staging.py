"""Classic Mafia games staged for the rules' tests (``test_mafia_rules_*.py``) and the tests
that build on them (the sleuth's arena): the deals they use, and a day or a night driven
through ``Session.submit`` (nominations, roll-call votes, quiet days, expulsions).

Deals (seat: card), staged with ``tests.helpers.mafia_game`` (the recorded ``deal`` chance
outcome):

    EIGHT (default 8):  p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 Civilian,
                        p7 Civilian, p8 Chameleon.   Night: p3, p1 (+p2), p4 (+p5), p8.
    SEVEN (default 7):  p1 Boss, p2 Mafia, p3 Agent, p4 Chief, p5 Civilian, p6 Civilian,
                        p7 Fighter.                  Night: p3, p1 (+p2), p4, p7.
    NINE (default 9):   p1 Boss, p2 Mafia, p3 Mafia, p4 Agent, p5 Chief, p6 Police,
                        p7 Civilian, p8 Civilian, p9 Fighter.
    SIX (default 6):    p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Civilian, p6 Civilian.
    ALL (custom 8):     p1 Boss, p2 Mafia, p3 Seducer, p4 Chief, p5 Police, p6 Civilian,
                        p7 Chameleon, p8 Fighter.    Night: p3, p1 (+p2), p4 (+p5), p7, p8.

Games are driven only through ``Session.submit`` and read through the state's view, awaiting, legal
inputs and result, and the event log.
"""

from __future__ import annotations

from arbiter.engine.session import Session

from tests.helpers import host

EIGHT = ["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"]
SEVEN = ["boss", "mafia", "agent", "chief", "civilian", "civilian", "fighter"]
NINE = ["boss", "mafia", "mafia", "agent", "chief", "police", "civilian", "civilian", "fighter"]
SIX = ["boss", "mafia", "seducer", "chief", "civilian", "civilian"]
ALL = ["boss", "mafia", "seducer", "chief", "police", "civilian", "chameleon", "fighter"]
ALL_DECK = {c: 1 for c in ALL}
ALL_AGENT = ["boss", "mafia", "agent", "chief", "police", "civilian", "chameleon", "fighter"]
ALL_AGENT_DECK = {c: 1 for c in ALL_AGENT}


def awaited(s: Session) -> list[tuple[str, str]]:
    return [(a.seat, a.kind) for a in s.state.awaiting()]


def public(events) -> list:
    return [e for e in events if e.to is None]


def nominate(s: Session, **nominees: str) -> None:
    """Day nominations: ``seat=nominee`` for the given seats (in seat order), everyone else passes."""
    for seat in [a.seat for a in s.state.awaiting()]:
        s.submit(seat, f"nominate {nominees[seat]}" if seat in nominees else "pass")


def quiet_day(s: Session) -> None:
    """Everyone passes the nominations: night falls."""
    nominate(s)


def vote_round(s: Session, default: str | None = None, **votes: str | None) -> None:
    """Play one roll-call round: each voter called votes per ``votes`` (else ``default``;
    None abstains)."""
    round_ = host(s)["round"]
    day = host(s)["day"]
    while s.state.awaiting() and host(s).get("round") == round_ and host(s)["day"] == day \
            and awaited(s)[0][1] == "vote":
        voter = awaited(s)[0][0]
        choice = votes.get(voter, default)
        s.submit(voter, f"vote {choice}" if choice else "abstain")


def expel(s: Session, seat: str, by: str = "p1") -> None:
    """A day on which ``by`` nominates ``seat`` and everyone else votes for it (``seat``
    abstains). ``by`` must differ from ``seat``."""
    nominate(s, **{by: seat})
    vote_round(s, default=seat, **{seat: None})


def night_steps(events) -> list[str]:
    return [e.data["step"] for e in events if e.kind == "narration" and "step" in e.data]

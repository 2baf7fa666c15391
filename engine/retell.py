"""A recorded game told again as one session was told it (``arbiter show --events``).

A transcript holds the inputs; what they did (a night's kill, a card revealed, a vote closed)
is in the event log, which only a replay rebuilds. ``retold`` replays a transcript entry by
entry through a ``Protocol`` session of the seat asked for (or the host's), and yields the
protocol's answer to each, as that seat's session was answered as the game went: a bot's
author reads the events the bot was told before each choice, a player reads a game's story.

- the opening (``= open``): the events of the deal the seat may see, and what is awaited;
- each move, as the seat was told it: its own and the public ones in full, another seat's
  secret input not at all unless it caused something the seat may see (then as a secret input);
- time passing that changed the game (a ``tick``), as the answer to a wait: the events and
  the status; a tick the move itself passed is told apart, before the move's answer;
- a bot's forfeit: the ``forfeit:`` line of its seat's give-up, the reason whole to the host
  and the seat only (``match.with_forfeit``), as a live session is told it.

>>> from arbiter.engine import registry, transcript
>>> from arbiter.engine.session import Session
>>> s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
>>> _ = s.submit("mafia", "shift row 1 left")
>>> told = list(retold(transcript.parse(transcript.dump(s)), "fbi"))
>>> print(told[1], end="")
= mafia shift row 1 left
event: The bandit shifts: shift row 1 left.
event: Turn 2: the undercover (fbi) acts.
awaiting: fbi action: undercover: shift or arrest, defuse, masquerade, autopsy
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Iterator

from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.api import Game
from arbiter.engine.errors import InputError
from arbiter.engine.events import HOST
from arbiter.engine.match import bot_failed, with_forfeit
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from arbiter.engine.transcript_reader import time_ms


def retold(t: tr.Transcript, perspective: str = HOST, *, json_mode: bool = False) -> Iterator[str]:
    """The protocol's answers (framed: text blocks, or JSON lines) to ``t``'s entries, as the
    session of ``perspective`` was told them. A transcript that does not replay exactly is a
    ``TranscriptError`` and a seat the game does not have an ``UnknownSeatError``, before
    anything is told."""
    tr.replayed(t)  # (it replays exactly, or the error says why)
    rules = registry.get(t.game)
    session = Session(rules, rules.variant(t.variant), seed=t.seed, options=t.options, recorded=t.chance)
    protocol = Protocol(session, perspective, json_mode=json_mode)
    yield protocol.render(protocol.opening())
    failed: tuple[str, str] | None = None  # a forfeit not yet told: the seat, why
    for entry in t.log:
        move = entry.get("move")
        if failed is not None and not (move is not None and move["seat"] == failed[0]
                                       and move["text"] == rules.forfeit_input(failed[0])):
            yield from _without_give_up(protocol, *failed)
            failed = None
        if move is not None:
            response = protocol.move(move["seat"], move["text"], time_ms(move["time"]), referee=True)
            if failed is not None:
                response, failed = with_forfeit(response, protocol.perspective, *failed), None
            elif response.payload["seat"] is None and not response.payload["events"]:
                continue  # another seat's secret input that told this seat nothing
            yield protocol.render(response)
        elif "tick" in entry:
            yield protocol.render(protocol.wait(time_ms(entry["tick"]["time"])))
        elif "note" in entry:
            note = entry["note"]
            session.note(dict(note))
            if note.get("seat") in session.seats and isinstance(note.get("forfeit"), str):  # (else a remark)
                failed = (note["seat"], note["forfeit"])
    if failed is not None:
        yield from _without_give_up(protocol, *failed)


def _without_give_up(protocol: Protocol, seat: str, why: str) -> Iterator[str]:
    """What a session was told of a forfeit its seat's give-up input did not follow: the game
    has none, or it was refused then (and is now: a refusal changes nothing, and the game is
    where it was), which a copy of the session finds out. A give-up the game would take is no
    forfeit a live session told so (the note was edited in): nothing is told of it."""
    session = protocol.session
    give_up, refused = session.rules.forfeit_input(seat), None
    if give_up is not None:
        try:
            Game(session).copy().session.submit(seat, give_up)
        except InputError as exc:
            refused = exc
        else:
            return
    yield protocol.render(bot_failed(session, protocol.perspective, seat, why, refused))

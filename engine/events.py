"""Events: every state change, tagged with who may see it.

An event's ``to`` is ``None`` when everyone may see it, otherwise the tuple of seats that may.
A seat's event stream is the events it may see, in order; the host sees all of them.

>>> log = EventLog()
>>> _ = log.emit("talk", "p1 says hi")
>>> _ = log.emit("secret", "p2 learns x", to=("p2",))
>>> [e.kind for e in log.visible_to("p1")]
['talk']
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import c_make_encoder as _c_make_encoder  # None where the C module is missing
from json.encoder import encode_basestring as _encode_text
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

HOST = "host"
"""The observer who sees everything: the host's view and the host's event stream."""


@dataclass(frozen=True)
class Event:
    index: int
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[str, ...] | None = None

    def visible_to(self, seat: str) -> bool:
        return seat == HOST or self.to is None or seat in self.to

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "kind": self.kind, "text": self.text, "data": self.data}

    def canonical(self) -> str:
        """A stable one-line form, used for the transcript's digest of the event log."""
        body = {"index": self.index, "kind": self.kind, "text": self.text, "data": self.data,
                "to": self.to}  # a tuple is written as a list
        return _CANONICAL(body)


_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
_CANONICAL = _ENCODER.encode
"""``json.dumps`` with these options, without building an encoder per call (what dumps does
with any option set)."""
if _c_make_encoder is not None:
    # What ``_ENCODER.encode`` runs for a mapping (CPython's JSONEncoder.iterencode, one shot):
    # the C encoder with the same options, made once here instead of at every call with a
    # fresh closure. No circular-reference markers: event data is the game's own plain values.
    _chunks = _c_make_encoder(None, _ENCODER.default, _encode_text, None, ":", ",", True, False, True)

    def _CANONICAL(value: Any) -> str:  # noqa: F811, N802 (the same name, the faster path)
        return "".join(_chunks(value, 0))
_new_event = object.__new__


class EventLog:
    """The full, ordered event log of one game."""

    def __init__(self) -> None:
        self._events: list[Event] = []

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, index: int) -> Event:
        return self._events[index]

    def emit(
        self,
        kind: str,
        text: str,
        data: dict[str, Any] | None = None,
        to: Iterable[str] | None = None,
    ) -> Event:
        events = self._events
        # Event(...) made without the frozen dataclass's __init__ (one object.__setattr__ per
        # field, the most of an emit's time): the same fields, as the object's __dict__
        event = _new_event(Event)
        event.__dict__.update(index=len(events), kind=kind, text=text, data=dict(data) if data else {},
                              to=None if to is None else tuple(dict.fromkeys(to)))
        events.append(event)
        return event

    def since(self, start: int) -> list[Event]:
        return self._events[start:]

    def visible_to(self, seat: str, start: int = 0) -> list[Event]:
        return [e for e in self._events[start:] if e.visible_to(seat)]

    def digest(self) -> str:
        lines = "".join([event.canonical() + "\n" for event in self._events])
        return "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()

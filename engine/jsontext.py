"""JSON text as arbiter writes it (no spaces, every character as itself), by encoders made once.

``json.dumps`` and ``json.JSONEncoder.encode`` with options build a new encoder, and a
closure, at every call: a third or more of the time of a short line, which the protocol pays
at every JSON response and the event log's digest at every event.

>>> compact({"ok": True, "seats": ["p1", "é"]})
'{"ok":true,"seats":["p1","é"]}'
>>> canonical({"b": 1, "a": None})
'{"a":null,"b":1}'
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any

_PROBE = {"b": [1, 2.5, None, True, ("t",), {"z": 0, "y": -0.0}], "a": {"é": "x\n\"y\u2028\\"}, "c": float("inf")}
"""A value whose text shows the options at work (key order, floats, constants, a tuple,
escapes), and that text, as arbiter's JSON lines and the event digest define it:"""
_PROBE_TEXT = {
    False: '{"b":[1,2.5,null,true,["t"],{"z":0,"y":-0.0}],"a":{"é":"x\\n\\"y\u2028\\\\"},"c":Infinity}',
    True: '{"a":{"é":"x\\n\\"y\u2028\\\\"},"b":[1,2.5,null,true,["t"],{"y":-0.0,"z":0}],"c":Infinity}',
}


def encoder(sort_keys: bool) -> Callable[[Any], str]:
    """``json.JSONEncoder(sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":")).encode``,
    made once: where the standard library has its C encoder, that encoder made once with the
    same options, if it writes ``_PROBE`` exactly as it must (``_PROBE_TEXT``); otherwise the
    library's ``encode``. No check for circular references: what arbiter writes this way is
    the games' own plain values (a response's payload, an event's data), never a cycle."""
    plain = json.JSONEncoder(sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))
    try:
        make, text = json.encoder.c_make_encoder, json.encoder.encode_basestring  # type: ignore[attr-defined]
        chunks = make(None, plain.default, text, None, ":", ",", sort_keys, False, True)

        def encode(value: Any) -> str:
            return "".join(chunks(value, 0))

        if encode(_PROBE) == _PROBE_TEXT[sort_keys]:
            return encode
    except Exception:  # noqa: BLE001 (no C encoder (None, or no such name), or one of another signature)
        pass
    return plain.encode


compact = encoder(sort_keys=False)
"""A value's JSON text, keys in their order: the protocol's JSON lines."""
canonical = encoder(sort_keys=True)
"""A value's JSON text, keys sorted: the event log's canonical lines (its digest)."""

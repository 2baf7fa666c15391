"""The event log's canonical lines and digest: the bytes every transcript's ``events.digest``
is a hash of, so they must never change (a transcript written by any version replays)."""

from __future__ import annotations

import hashlib
import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.engine.events import EventLog

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def documented(index, kind, text, data, to):
    """The canonical line as the transcript format defines it: the event as a JSON object with
    sorted keys, no spaces, non-ASCII characters as they are."""
    body = {"index": index, "kind": kind, "text": text, "data": data, "to": None if to is None else list(to)}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@given(st.text(), st.text(), st.dictionaries(st.text(max_size=8), values, max_size=5),
       st.none() | st.lists(st.sampled_from(["p1", "p2", "p3", "host"]), max_size=4))
def test_a_canonical_line_is_the_documented_json(kind, text, data, to):
    log = EventLog()
    log.emit("first", "a first event")
    event = log.emit(kind, text, data, to=to)
    want = documented(1, kind, text, data, None if to is None else list(dict.fromkeys(to)))
    assert event.canonical() == want
    assert "\n" not in want  # one line per event, whatever the texts hold


def test_the_digest_is_the_sha256_of_the_canonical_lines() -> None:
    log = EventLog()
    log.emit("deal", "Cards are dealt.", {"seats": ("p1", "p2"), "n": 2, "x": 0.5})
    log.emit("secret", "p2 — le café", {"card": "boss", "nan": math.inf}, to=("p2", "p2", "p1"))
    lines = ('{"data":{"n":2,"seats":["p1","p2"],"x":0.5},"index":0,"kind":"deal","text":"Cards are dealt.","to":null}\n'
             '{"data":{"card":"boss","nan":Infinity},"index":1,"kind":"secret","text":"p2 — le café","to":["p2","p1"]}\n')
    assert log.digest() == "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()


def test_without_a_usable_c_encoder_the_library_encoder_is_used(monkeypatch) -> None:
    import json.encoder

    from arbiter.engine import jsontext

    def library(encode) -> bool:  # the library's own JSONEncoder.encode, options as arbiter's
        owner = getattr(encode, "__self__", None)
        return (isinstance(owner, json.JSONEncoder) and (owner.item_separator, owner.key_separator) == (",", ":")
                and not owner.ensure_ascii)

    for sort_keys in (False, True):
        assert not library(jsontext.encoder(sort_keys))  # CPython: the C encoder, made once
    made = []
    for stand_in in (None, lambda *args: None, lambda *args: (lambda value, level: ["{}"])):
        monkeypatch.setattr(json.encoder, "c_make_encoder", stand_in)  # missing, another signature, wrong output
        made += [(sort_keys, jsontext.encoder(sort_keys)) for sort_keys in (False, True)]
    monkeypatch.undo()
    for sort_keys, encode in made:
        assert library(encode) and encode.__self__.sort_keys == sort_keys
        assert encode({"b": 1, "a": [2.5, None]}) == ('{"a":[2.5,null],"b":1}' if sort_keys else '{"b":1,"a":[2.5,null]}')


@settings(max_examples=100)
@given(values)
def test_the_encoders_write_what_the_library_writes(value):
    """``jsontext.compact`` and ``canonical`` are ``json.dumps`` with arbiter's options, made once."""

    from arbiter.engine import jsontext

    for sort_keys, encode in ((False, jsontext.compact), (True, jsontext.canonical)):
        assert encode(value) == json.dumps(value, sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=50)
@given(st.integers() | st.booleans(), st.text() | st.integers(), st.text() | st.none(),
       st.dictionaries(st.text(max_size=8), values, max_size=5) | values,
       st.none() | st.tuples(st.sampled_from(["p1", "p2", "é"])) | st.tuples(st.integers()))
def test_an_event_of_any_fields_writes_the_documented_json(index, kind, text, data, to):
    """Written field by field where the fields have their types (an int index, text kind and
    text), else as one mapping: the same documented line either way."""
    from arbiter.engine.events import Event

    event = Event(index, kind, text, data, to)
    assert event.canonical() == documented(index, kind, text, data, to)


def test_the_field_by_field_line_is_the_mappings() -> None:
    from arbiter.engine import events
    from arbiter.engine.events import Event

    for event in (Event(7, "kill", 'a "quoted"\\ text\n\u2028 é', {"b": [1.5, math.inf], "a": {"y": None, "x": True}}, ("p2", "p1")),
                  Event(10**30, "", "", {}, None)):
        body = {"index": event.index, "kind": event.kind, "text": event.text, "data": event.data, "to": event.to}
        assert event.canonical() == events._CANONICAL(body) == documented(*event)


def test_the_probe_text_is_the_librarys():
    """The fixed text the C encoder is checked against is what ``json.dumps`` writes."""
    from arbiter.engine import jsontext

    for sort_keys, text in jsontext._PROBE_TEXT.items():
        assert json.dumps(jsontext._PROBE, sort_keys=sort_keys, ensure_ascii=False, separators=(",", ":")) == text


def test_the_log_keeps_the_data_it_is_given() -> None:
    """``emit`` keeps the dict it is handed (not a copy); with none, each event has an empty one of its own."""
    log = EventLog()
    data = {"seat": "p1"}
    assert log.emit("say", "p1: hi", data).data is data
    assert log.emit("narration", "Night falls.").data == {} == log.emit("narration", "Dawn.", None).data
    assert log[1].data is not log[2].data


# The emits of the engine that hand a name, not a dict made in the call, and why it is fresh.
FRESH_NAMES = {
    ("mafia/day.py", "data"): "_tally's counts, made for the verdict and emitted once (others use data | {...})",
    ("magic_maze/roles/ending.py", "data"): "_divined's argument: a dict display in the one call that passes one",
}


def test_every_emit_of_the_engine_hands_a_fresh_dict() -> None:
    """As the log keeps the dict it is handed, every ``emit`` of the engine hands one that nothing
    else holds: a dict display, ``x | {...}``, an ``as_dict()``, or a name known to be fresh
    (``FRESH_NAMES``). A new call handing anything else must be looked at (and added there)."""
    import ast
    from pathlib import Path

    engine = Path(__file__).resolve().parent.parent / "engine"
    seen, unknown = set(), []
    for path in sorted(engine.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "emit"):
                continue
            for arg in node.args[2:3] + [k.value for k in node.keywords if k.arg == "data"]:
                where = path.relative_to(engine / "games").as_posix() if "games" in path.parts else path.name
                if isinstance(arg, ast.Dict) or (isinstance(arg, ast.BinOp) and isinstance(arg.right, ast.Dict)):
                    continue
                if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "as_dict":
                    continue
                if isinstance(arg, ast.Name) and (where, arg.id) in FRESH_NAMES:
                    seen.add((where, arg.id))
                    continue
                unknown.append(f"{where}:{node.lineno}: {ast.unparse(arg)}")
    assert not unknown, "emit handed a dict that may be held elsewhere: " + "; ".join(unknown)
    assert seen == set(FRESH_NAMES), "FRESH_NAMES lists a call that is gone"

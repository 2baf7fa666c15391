"""Loading scenario YAML (``yaml.safe_load`` only) with errors that name the file, the path
inside it and what is wrong.

``Node`` wraps a loaded value with where it came from, so checks read naturally:

>>> n = Node({"size": 6}, "modes.yaml")
>>> n.key("size").integer(low=2)
6
>>> n.key("board").integer()
Traceback (most recent call last):
...
arbiter.engine.errors.ScenarioError: modes.yaml: board: missing (required)
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import importlib
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import yaml

from arbiter.engine import yamlio
from arbiter.engine.errors import QUOTED_CHARS, ScenarioError, quoted
from arbiter.engine.files import FileTooLarge, NotRegularFile, not_utf8, read_text_capped
from arbiter.engine.lines import refused_character
from arbiter.engine.yamlio import line_of

SCENARIO_PACKAGE = "arbiter.scenarios"
T = TypeVar("T")
MAX_FILE_BYTES = 1024 * 1024
"""The largest scenario, deck or role file read (the packaged data is a few KiB)."""
MAX_TEXT_CHARS = 10_000
"""The longest text value in one (a tile map is a few hundred characters)."""
MAX_DEPTH = 32
"""How deep lists and mappings may nest (the packaged data needs five levels)."""


class Node:
    """A value from a YAML document and its path, for validation with precise errors."""

    def __init__(self, value: Any, source: str, path: str = "", steps: tuple[str | int, ...] = ()) -> None:
        self.value = value
        self.source = source
        self.path = path
        self.steps = steps  # the path as keys and indexes (a key may hold '.' or '[')
        self.file_text: str | None = None  # a document's file's text, where kept (``deck_document``)
        self.recorded = False
        """A custom deck games were set up from already (a resumed tournament's, recorded in its
        configuration): a check only a new game needs is not made of it again (a Hidden Roles
        deck that can deal no hero, which an older version accepted: ``roles.deal.options_for``)."""

    def fail(self, problem: str) -> ScenarioError:
        return ScenarioError(self.source, self.path, problem, self.steps)

    def _child(self, value: Any, step: Any) -> Node:
        """The value at ``step``: an index of this list (``path[1]``), or a key of this mapping
        (``path.key``, a whole-number key too: ``setups.6``)."""
        if isinstance(step, int) and isinstance(self.value, list):
            path = f"{self.path}[{step}]"
        else:  # (a long key is named by its start and length: ``quoted``; ``steps`` keeps it whole)
            shown = str(step) if len(str(step)) <= QUOTED_CHARS else quoted(step)
            path = f"{self.path}.{shown}" if self.path else shown
        return Node(value, self.source, path, (*self.steps, step))

    # -- mappings ------------------------------------------------------------------------------
    def mapping(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail(f"expected a mapping, found {_kind(self.value)}")
        return self.value

    def has(self, name: str) -> bool:
        return name in self.mapping()

    def key(self, name: str) -> Node:
        m = self.mapping()
        if name not in m:
            missing = f"{self.path}.{name}" if self.path else name
            raise ScenarioError(self.source, missing, "missing (required)", (*self.steps, name))
        return self._child(m[name], name)

    def optional(self, name: str, default: Any) -> Node:
        m = self.mapping()
        return self._child(m.get(name, default), name)

    def only_keys(self, *allowed: str) -> None:
        for k in self.mapping():
            if k not in allowed:
                raise self._child(None, str(k)).fail(
                    f"unknown key; allowed here: {', '.join(allowed)}"
                )

    def items(self) -> Iterator[tuple[str, Node]]:
        for k, v in self.mapping().items():
            if not isinstance(k, str):
                raise self.fail(f"keys must be text, found {quoted(k)}")
            yield k, self._child(v, k)

    def entries(self) -> Iterator[tuple[Any, Node]]:
        """A mapping's keys as they are written, whole numbers too (a player count), each with
        its value's node (``items`` takes text keys only)."""
        for k, v in self.mapping().items():
            yield k, self._child(v, k)

    # -- sequences ------------------------------------------------------------------------------
    def sequence(self, min_len: int = 0) -> list[Node]:
        if not isinstance(self.value, list):
            raise self.fail(f"expected a list, found {_kind(self.value)}")
        if len(self.value) < min_len:
            raise self.fail(f"expected at least {min_len} entries, found {len(self.value)}")
        return [self._child(v, i) for i, v in enumerate(self.value)]

    # -- scalars -------------------------------------------------------------------------------
    def integer(self, low: int | None = None, high: int | None = None) -> int:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected a whole number, found {_kind(v)}")
        if (low is not None and v < low) or (high is not None and v > high):
            lo = "" if low is None else f"{low}"
            hi = "" if high is None else f"{high}"
            raise self.fail(f"{v} is out of range (allowed: {lo}..{hi})")
        return v

    def text(self, choices: tuple[str, ...] | list[str] | None = None, max_len: int | None = None,
             lines: bool = False) -> str:
        """Text: one line of printable ASCII. A title or a name is printed on the board, in the
        protocol's lines and to every bot, where a line break or a control character would end a
        response early or forge a line (``refused_character``), and the board is ASCII, fitted
        to 80 columns by counting characters (a wide character takes two). ``lines``: several
        such lines (a tile's map)."""
        v = self.value
        if not isinstance(v, str) or not v.strip():
            raise self.fail(f"expected text, found {_kind(v) if not isinstance(v, str) else 'only blanks'}")
        printable = v.isprintable() or (lines and all(line.isprintable() for line in v.split("\n")))
        if not printable and (found := refused_character(v, keep="\n" if lines else "")) is not None:
            at, what = found  # (what no protocol line may hold either)
            what = "a line break" if v[at] in "\r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029" else what
            rule = "each line must be printable text" if lines else "this must be one line of printable text"
            raise self.fail(f"{what} (U+{ord(v[at]):04X}) at character {at + 1}: {rule}")
        if choices is not None and v not in choices:
            raise self.fail(f"{quoted(v)} is not one of: {', '.join(choices)}")
        if not v.isascii():
            at = next(i for i, c in enumerate(v) if not c.isascii())
            raise self.fail(f"{v[at]!r} (U+{ord(v[at]):04X}) at character {at + 1}: text shown on the board is "
                            "ASCII (letters a-z and A-Z, digits, spaces and punctuation)")
        if max_len is not None and len(v) > max_len:
            raise self.fail(f"{len(v)} characters is too long (at most {max_len})")
        return v

    def texts(self, choices: tuple[str, ...] | list[str] | None = None, unique: bool = True) -> list[str]:
        out = [n.text(choices) for n in self.sequence()]
        if unique:
            seen: set[str] = set()
            for i, t in enumerate(out):
                if t in seen:
                    raise self._child(t, i).fail(f"{quoted(t)} is listed twice")
                seen.add(t)
        return out


def _kind(v: Any) -> str:
    """What a YAML value is, in a person's words: every type a safe load makes has its own
    (``2024-01-01`` is a date, ``!!binary`` data, ``!!set`` a set), never Python's name for it
    ("date", "bytes"), which a refusal read as a word the file had written (``game: date``).

    >>> _kind(datetime.date(2024, 1, 1)), _kind(datetime.datetime(2024, 1, 1)), _kind(b"x"), _kind({1})
    ('a date', 'a date and time', 'binary data', 'a set')
    """
    if v is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false", int: "a number",
            float: "a number", datetime.date: "a date", datetime.datetime: "a date and time",
            bytes: "binary data", set: "a set"}.get(type(v), type(v).__name__)


def load_text(text: str, source: str) -> Node:
    """Parse YAML text safely; a syntax error or a repeated key names the source, line and column.

    >>> load_text("cards: {civilian: 2, civilian: 3}", "deck.yaml")
    Traceback (most recent call last):
    ...
    arbiter.engine.errors.ScenarioError: deck.yaml: line 1, column 22: not valid YAML: the key 'civilian' is given twice
    """
    if len(text) > MAX_FILE_BYTES:
        raise ScenarioError(source, "", f"{len(text)} characters is larger than a data file may be "
                            f"({MAX_FILE_BYTES} at most)")
    try:
        value = yamlio.load(text, yamlio.STRICT, yamlio.FAST_STRICT)
    except yamlio.TooDeep:
        raise ScenarioError(source, "", f"nested too deeply to read (at most {MAX_DEPTH} levels)") from None
    except yaml.YAMLError as exc:
        line, column, problem = yamlio.error_place(exc, text)
        where = f"line {line}, column {column}" if line is not None else ""
        valid = isinstance(exc, yamlio.NumberTooLong)  # valid YAML, but not a number Python reads
        error = ScenarioError(source, where, problem if valid else f"not valid YAML: {problem}")
        error.line = line
        raise error from None
    root = Node(value, source)
    shapes = _expansion(root) if "*" in text else None  # (no alias: no value is held twice)
    _check_bounds(root, shapes)
    return root


MAX_EXPANDED = 1_000_000
"""How many values a document may hold as its aliases expand it (each place an alias stands
holds the whole of what it names): far more than any data file needs, and few enough that
checking them cannot take long (nine lists of nine aliases to the last, the "billion laughs",
would be 387 million)."""


def _expansion(root: Node) -> dict[int, tuple[int, int]]:
    """How many values each list and mapping of ``root`` holds as expanded (itself and its
    values, counted as often as they appear) and how deep it nests, by its ``id`` (aliases
    make one list or mapping the value of many places; each is measured once, without
    walking the copies). A document expanding past ``MAX_EXPANDED`` values is refused. A
    collection that holds itself (``&a [*a]``) counts as ``MAX_DEPTH`` deep, which
    ``_check_bounds`` then refuses with the path where it passes the limit."""
    measured: dict[int, tuple[int, int]] = {}
    open_: set[int] = set()  # begun, its values not all measured yet: its own values and below
    stack: list[tuple[Any, bool]] = [(root.value, False)]
    while stack:
        v, ready = stack.pop()
        if not isinstance(v, (list, dict)) or id(v) in measured or (not ready and id(v) in open_):
            continue  # (begun and met again below itself: a cycle, measured as MAX_DEPTH deep)
        values = v.values() if isinstance(v, dict) else v
        if ready:
            open_.discard(id(v))
            measured[id(v)] = _measure(values, measured)
        else:
            open_.add(id(v))
            stack.append((v, True))
            stack.extend((c, False) for c in values)
    size = measured[id(root.value)][0] if id(root.value) in measured else 1
    if size > MAX_EXPANDED:
        raise root.fail(f"its aliases expand it to {size} values, more than a data file may hold "
                        f"(at most {MAX_EXPANDED})")
    return measured


def _measure(values: Any, measured: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The size and depth of a collection of ``values`` (see ``_expansion``), its collections
    measured; one not measured is one that holds this one: a cycle."""
    size, deep = 1, 1
    for c in values:
        if isinstance(c, (list, dict)):
            s, d = measured.get(id(c), (0, MAX_DEPTH))
            size, deep = size + s, max(deep, d + 1)
        else:
            size += 1
    return size, deep


def _check_bounds(root: Node, shapes: dict[int, tuple[int, int]] | None = None) -> None:
    """Refuse a document nested deeper than ``MAX_DEPTH`` or with a text longer than
    ``MAX_TEXT_CHARS``, naming where (walked without recursion). With ``shapes`` (a document
    with aliases, measured by ``_expansion``), a list or mapping met again is not walked
    again, unless it would reach ``MAX_DEPTH`` from where it is met now (to name the place)."""
    stack = [(root, 0)]
    walked: set[int] = set()  # the ids of the lists and mappings walked
    while stack:
        node, depth = stack.pop()
        v = node.value
        if isinstance(v, str) and len(v) > MAX_TEXT_CHARS:
            raise node.fail(f"a text of {len(v)} characters is too long (at most {MAX_TEXT_CHARS})")
        if isinstance(v, (list, dict)):
            if depth >= MAX_DEPTH:
                raise node.fail(f"nested more than {MAX_DEPTH} levels deep")
            if shapes is not None:
                if id(v) in walked and depth + shapes[id(v)][1] <= MAX_DEPTH:
                    continue  # walked already, and nothing in it is too deep from here either
                walked.add(id(v))
            children = v.items() if isinstance(v, dict) else enumerate(v)
            stack.extend((node._child(c, k), depth + 1) for k, c in children)


def every_problem(text: str, source: str, check: Callable[[Node], None], limit: int = 50) -> list[ScenarioError]:
    """The problems of one YAML document, so one run names them all but for a second problem
    of one entry: ``check`` it, and after each problem check it again without the entry at
    fault (the card, tile or scenario that holds it; a stray top-level key), until it passes or
    what is left is the document itself. What follows only from an entry left out (a step
    naming a card left out, a missing key) is no problem of its own: never named. Each
    problem's ``line`` says where it stands."""
    try:
        root = load_text(text, source)
    except ScenarioError as exc:
        if exc.line is None and exc.steps:  # a text too long or too deep: where it stands
            exc.line = line_of(text, exc.steps)
        return [exc]
    value, found, dropped = root.value, [], []
    kept: dict[Any, list[int]] = {}  # a top-level list's indexes in the file, once entries of it are left out
    gone: set[str] = set()  # the names of the entries left out (a card, a mode)
    while len(found) < limit:
        try:
            check(Node(value, source))
            break
        except ScenarioError as problem:
            at = list(problem.steps or ())  # where it is in what is left
            exc = _as_written(problem, at, kept)
            steps = list(exc.steps or ())
            if any(steps[:len(d)] == d or (steps and d[:len(steps)] == steps) for d in dropped):
                break  # a consequence of what was left out to go on (in it, or of what held it)
            if any(f"'{name}'" in exc.problem for name in gone):  # one naming an entry left out (a card
                if not _drop(value, at, kept):  # the night's steps call on): no problem of its own, left out too
                    break
                continue
            exc.line = line_of(text, steps)
            found.append(exc)
            if not _drop(value, at, kept):
                break
            dropped.append(steps[:2])
            if len(steps) >= 2 and isinstance(steps[1], str):
                gone.add(steps[1])
    return found


def _as_written(exc: ScenarioError, steps: list[str | int], kept: dict[Any, list[int]]) -> ScenarioError:
    """``exc`` with the index of an entry of a list the search has left entries out of put back
    to the entry's index in the file (``night[2]`` when ``night[1]`` was left out is the file's
    ``night[3]``)."""
    if len(steps) < 2 or steps[0] not in kept or not isinstance(steps[1], int):
        return exc
    key, index = steps[0], steps[1]
    here = f"{key}[{index}]"
    if not exc.path.startswith(here):
        return exc
    written = kept[key][index]
    return ScenarioError(exc.source, f"{key}[{written}]{exc.path[len(here):]}", exc.problem, (key, written, *steps[2:]))


def _drop(value: Any, steps: list[str | int], kept: dict[Any, list[int]]) -> bool:
    """Remove the entry of ``value`` at the second step of ``steps`` (a card of ``cards``), or a
    top-level key that holds no collection; False when nothing may go (the problem is the
    document's own). An entry of a list goes from ``kept`` too, the list's indexes in the file
    (the entries after it move up one)."""
    if not isinstance(value, dict) or not steps or steps[0] not in value:
        return False
    head = value[steps[0]]
    if len(steps) == 1:
        if isinstance(head, (dict, list)):
            return False
        del value[steps[0]]
        return True
    if isinstance(head, dict) and steps[1] in head:
        del head[steps[1]]
        return True
    if isinstance(head, list) and isinstance(steps[1], int) and steps[1] < len(head):
        del kept.setdefault(steps[0], list(range(len(head))))[steps[1]]
        del head[steps[1]]
        return True
    return False


def read_file(path: str | Path) -> str:
    """A data file's text (UTF-8, at most ``MAX_FILE_BYTES``), or a ``ScenarioError``: a file
    too large, or not a regular file (a device, a FIFO), is refused before it is read whole
    (``files.read_text_capped``)."""
    p = Path(path)
    try:
        return read_text_capped(p, MAX_FILE_BYTES)
    except FileTooLarge as exc:
        raise ScenarioError(str(p), "", f"{exc.size} bytes is larger than a data file may be "
                            f"({MAX_FILE_BYTES} at most)") from None
    except NotRegularFile as exc:
        raise ScenarioError(str(p), "", f"{exc}: a data file must be a regular file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(p), "", f"cannot read: {not_utf8(exc)}; a data file is UTF-8") from None
    except OSError as exc:
        raise ScenarioError(str(p), "", f"cannot read: {exc.strerror or exc}") from None


def load_file(path: str | Path) -> Node:
    return load_text(read_file(path), str(path))


def deck_document(deck: str | Path | Node) -> Node:
    """A custom deck's document (``--deck``): read from its file, or one read before (a
    ``Node``: a tournament's deck, recorded in its configuration). Its ``source`` names it;
    one read from a file keeps the file's text as ``file_text``, for ``lines_named``."""
    if isinstance(deck, Node):
        return deck
    text = read_file(deck)
    doc = load_text(text, str(deck))
    doc.file_text = text
    return doc


@contextlib.contextmanager
def lines_named(doc: Node) -> Iterator[None]:
    """A problem of ``doc`` found in this block names its line in the file (``ScenarioError.place``),
    as ``validate`` names it, where the document keeps its file's text (``deck_document``)."""
    try:
        yield
    except ScenarioError as exc:
        text = doc.file_text
        if text is not None and exc.line is None and exc.steps is not None and exc.source == doc.source:
            exc.place(line_of(text, exc.steps))
        raise


def deck_kind(doc: Node) -> tuple[Any, Any, str]:
    """The ``game`` and ``kind`` a deck's document names, and how a refusal says what the file
    is: ``game: X, kind: Y``, or what it holds instead (nothing, a list, one value).

    >>> deck_kind(Node([1, 2], "d.yaml"))[2]
    'this file holds a list, not a mapping with game: and kind:'
    """
    value = doc.value
    if not isinstance(value, dict):
        held = ("nothing" if value is None else "a list" if isinstance(value, list)
                else f"one value ({_kind(value)})")
        return None, None, f"this file holds {held}, not a mapping with game: and kind:"
    game, kind = value.get("game"), value.get("kind")
    if game is None and kind is None:  # (absent, or written with no value: YAML's null)
        return None, None, "this file names no game: and no kind:"
    said = ", ".join(f"{key}: {_value_shown(v)}" for key, v in (("game", game), ("kind", kind)) if v is not None)
    unsaid = next((key for key, v in (("game", game), ("kind", kind)) if v is None), None)
    return game, kind, f"this file is {said}" + (f" and names no {unsaid}:" if unsaid else "")


def _value_shown(value: Any) -> str:
    """A value of a ``game:`` or ``kind:`` key as a refusal shows it to a person: a plain word
    as the file writes it, other text quoted (cut if long), ``true``/``false``, a number, or
    what it is (a list, a mapping), never Python's words for it.

    >>> _value_shown("mafia"), _value_shown("two words"), _value_shown(True), _value_shown(7), _value_shown([1])
    ('mafia', "'two words'", 'true', '7', 'a list')
    >>> _value_shown(datetime.date(2024, 1, 1)), _value_shown(b"x"), _value_shown(float("-inf"))
    ('a date', 'binary data', '-.inf')
    """
    if isinstance(value, str):
        plain = 0 < len(value) <= QUOTED_CHARS and value.isprintable() and not any(c in value for c in " ,:;'\"")
        return value if plain else quoted(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):  # (as YAML writes them, not Python's nan, inf)
        return ".nan" if value != value else ".inf" if value > 0 else "-.inf"
    if isinstance(value, (int, float)):
        return quoted(value)
    return _kind(value)


def _package_locations() -> list[str]:
    spec = importlib.import_module(SCENARIO_PACKAGE).__spec__
    return list(spec.submodule_search_locations or []) if spec is not None else []


@functools.cache
def _package_root() -> Any:
    """The ``scenarios`` package's folder: where it is one folder on disk (a source tree, any
    installed copy but a zipped one), that folder, which is what ``importlib.resources.files``
    gives then; otherwise what that gives. (``importlib.resources`` costs a command 5-7 ms to
    import, a twentieth of a replay's whole process: only the zipped case pays it.)"""
    where = _package_locations()
    if len(where) == 1 and Path(where[0]).is_dir():
        return Path(where[0])
    from importlib import resources

    return resources.files(SCENARIO_PACKAGE)


def packaged_text(relative: str) -> str:
    """The text of a YAML file shipped in the ``scenarios`` package."""
    ref = _package_root().joinpath(relative)
    try:
        return ref.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"scenarios/{relative}", "", f"cannot read: {exc}") from None


def load_packaged(relative: str) -> Node:
    """Load a YAML file shipped in the ``scenarios`` package (works from any install)."""
    return load_text(packaged_text(relative), f"scenarios/{relative}")


def packaged_files() -> list[str]:
    """Every YAML file shipped in the ``scenarios`` package, as relative paths, sorted."""
    out: list[str] = []

    def walk(ref: Any, prefix: str) -> None:
        for child in sorted(ref.iterdir(), key=lambda c: c.name):
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith((".yaml", ".yml")):
                out.append(f"{prefix}{child.name}")

    walk(_package_root(), "")
    return out


def document(doc: Node, game: str, kind: str) -> Node:
    """Check that a document says it is ``game``'s ``kind`` (its ``game:`` and ``kind:`` keys)."""
    doc.key("game").text((game,))
    doc.key("kind").text((kind,))
    return doc


def sibling(source: str, name: str, packaged: str, parse: Callable[[Node], T]) -> T:
    """``parse`` of the file ``name`` beside ``source`` (a file being validated refers to its
    siblings), or of the packaged file when there is none or it is broken itself (it is then
    reported when it is checked on its own)."""
    beside = Path(source).parent / name
    if beside.is_file():
        try:
            return parse(load_file(beside))
        except ScenarioError:
            pass
    return parse(load_packaged(packaged))

"""Reading YAML safely and fast: libyaml's loader where the text cannot nest deeply, the
pure-Python loader (which stops deep nesting with a clean error) where it might.

Whatever the loader, a whole number too long for Python to convert (more than
``MAX_INT_DIGITS`` digits) is ``NumberTooLong``, with its line, not a bare ``ValueError``; and
a reader that never writes anchors and aliases (a transcript's) may refuse them
(``refusing_aliases``): ``AliasFound``, before anything is built from them.

libyaml composes nested collections by recursion in C, so a hostile file of 100,000 ``[``
would crash the process; ``nesting_bound`` is a cheap upper bound on a text's nesting that
sends such a text to the pure-Python loader instead.

>>> load("a: [1, {b: 2}]")
{'a': [1, {'b': 2}]}
>>> nesting_bound("a:\\n  - [1, [2]]\\n")
5
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

import yaml

from arbiter.engine.errors import quoted

FAST_DEPTH = 64
"""Texts whose nesting bound stays below this are read by libyaml."""
_C_LOADER = getattr(yaml, "CSafeLoader", None)
READ_DEPTH = 100
"""Collections nested deeper than this are refused (``TooDeep``) by the pure-Python loader as it
meets them, rather than when Python's stack runs out: the same error, found in milliseconds (its
scanner slows with every bracket left open, so 100,000 ``[`` took most of a second). Far more
than any data file (32 levels) or transcript line needs."""


class TooDeep(yaml.YAMLError):
    """The YAML nests deeper than Python can read."""

    problem = "nested too deeply to read"

    def __str__(self) -> str:
        return self.problem


MAX_INT_DIGITS = 4300
"""Whole numbers longer than this (Python's default limit for converting text to a number and
back; a hexadecimal one as large too) are refused as ``NumberTooLong``: Python could not read
them, or show them in a message."""
_LARGEST_INT = 10 ** MAX_INT_DIGITS - 1


class NumberTooLong(yaml.constructor.ConstructorError):
    """A whole number of more than ``MAX_INT_DIGITS`` digits (``problem_mark``: where it is)."""


class AliasFound(ValueError):
    """An anchor (``&name``) or an alias (``*name``) in a text read with aliases refused
    (``refusing_aliases``). Not a ``yaml.YAMLError``: it is not a text the writer left torn
    or cut short, and readers that take such errors for that let it pass. ``mark`` is where
    it stands in the text given to ``load``."""

    def __init__(self, what: str, name: str, mark: Any) -> None:
        super().__init__(f"a YAML {what} ({'*' if what == 'alias' else '&'}{name})")
        self.what, self.name, self.mark = what, name, mark


_REFUSE_ALIASES: ContextVar[bool] = ContextVar("refuse_aliases", default=False)
_MAY_ALIAS = re.compile(r"(?<![^\s\[{,])[&*]")
"""Where an anchor or an alias may start: a ``&`` or ``*`` at the start of the text, or after a
blank or ``[{,``. (Also in a quoted text such as ``'me & you'``: then the events are looked at.)"""


@contextmanager
def refusing_aliases() -> Iterator[None]:
    """Within it, ``load`` refuses any anchor or alias (``AliasFound``), in this thread or task
    only: for a reader whose writer never writes them (a transcript), so that a text cannot
    make one value of many copies (the "billion laughs") that a later walk over it would
    expand. A reader of many parts of one text (a transcript's header, lines, ending) is
    covered whole by one ``with``."""
    token = _REFUSE_ALIASES.set(True)
    try:
        yield
    finally:
        _REFUSE_ALIASES.reset(token)


def nesting_bound(text: str) -> int:
    """An upper bound on how deep ``text`` nests: per line, its indentation, its ``- `` and
    ``: `` markers and the brackets it opens, on top of the brackets left open before it."""
    deepest = carried = 0
    for line in text.splitlines():
        opens = line.count("[") + line.count("{")
        marks = line.count("- ") + line.count(": ")
        indent = len(line) - len(line.lstrip(" "))
        deepest = max(deepest, carried + indent + marks + opens)
        carried = max(0, carried + opens - line.count("]") - line.count("}"))
    return deepest


def load(text: str, loader: type[yaml.SafeLoader] = yaml.SafeLoader, fast: type | None = _C_LOADER) -> Any:
    """``text`` parsed by ``fast`` (libyaml's safe loader by default) when it cannot nest deeply,
    else by ``loader``; nesting too deep for Python raises ``TooDeep``, a number too long
    ``NumberTooLong``, and within ``refusing_aliases`` an anchor or alias ``AliasFound``."""
    refuse = _REFUSE_ALIASES.get() and ("&" in text or "*" in text) and _MAY_ALIAS.search(text) is not None
    if fast is not None and nesting_bound(text) < FAST_DEPTH:
        if refuse:
            _no_alias_events(text, fast)
        chosen = _numbers(fast)
    else:
        chosen = _numbers(_bounded(_no_aliases(loader) if refuse else loader))
    try:
        return yaml.load(text, Loader=chosen)  # noqa: S506 (safe loaders only)
    except RecursionError:
        raise TooDeep() from None


def error_place(exc: yaml.YAMLError, text: str) -> tuple[int | None, int | None, str]:
    """Where in ``text`` a YAML error stands (line and column, from 1; None when it names no
    place) and what it is, in words. A character YAML does not allow (a NUL, a control
    character) is named by the reader only by its offset, as ``in "<unicode string>",
    position 33`` (libyaml's counts bytes, Python's characters): here by its line and column.

    >>> refused = yaml.reader.ReaderError("<unicode string>", 9, 7, "unicode", "special characters are not allowed")
    >>> error_place(refused, "a: 1\\nb: x\\x07")  # (what the library raises reading that text)
    (2, 5, 'the character U+0007 is not allowed in YAML (a control character)')
    """
    if isinstance(exc, yaml.reader.ReaderError):
        found = yaml.reader.Reader.NON_PRINTABLE.search(text)
        if found is not None:
            at = found.start()
            line_start = text.rfind("\n", 0, at) + 1
            return (text.count("\n", 0, at) + 1, at - line_start + 1,
                    f"the character U+{ord(text[at]):04X} is not allowed in YAML (a control character)")
        return None, None, f"a character YAML does not allow: {exc.reason}"
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return None, None, problem
    if problem.startswith("mapping values are not allowed") and mark.column > SIMPLE_KEY_CHARS:
        # YAML reads a key without quotes or ``? `` only up to 1024 characters: past that, the
        # ``:`` after a long key is taken for one inside a value, and the library says only that
        lines = text.split("\n", mark.line + 1)
        key = lines[mark.line][:mark.column].strip() if mark.line < len(lines) else ""
        while key.startswith(("- ", "? ")):  # a key of a list's entry
            key = key[2:].lstrip()
        if len(key) > SIMPLE_KEY_CHARS and ": " not in key:  # (else a value's colon: ``title: a: b``)
            problem += _long_key(len(key))
    elif _FLOW_UNENDED.match(problem) and mark.column > SIMPLE_KEY_CHARS:
        # the same in a flow collection (``{KEY: 1}``, ``[KEY: 1]``), where the ``:`` after the
        # key is then refused by the parser: "expected ',' or '}'"
        length = _long_flow_key(text, mark)
        if length is not None:
            problem += _long_key(length)
    return mark.line + 1, mark.column + 1, problem


SIMPLE_KEY_CHARS = 1024
"""The longest key YAML reads written plainly (a "simple key"), quotes included."""
_FLOW_UNENDED = re.compile(r"(?:did not find )?expected ',' or '[]}]'")
"""How the libraries (libyaml's, Python's) say a flow collection's entry went on past its end."""
_ENTRY_START = (yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken, yaml.FlowEntryToken)


def _long_key(length: int) -> str:
    return f" (YAML reads a key of at most {SIMPLE_KEY_CHARS} characters; this one has {length})"


def _long_flow_key(text: str, mark: Any) -> int | None:
    """The length of the key whose ``:`` stands at ``mark`` in a flow collection, when it is the
    cause of a refusal there: a plain or quoted text that begins an entry (after ``{``, ``[``
    or ``,``) on the ``:``'s line and is longer than YAML reads as a key. Else None: a value's
    colon (``{a: LONG: 1}``), a key over two lines, a key of 1024 characters or fewer. The text
    is scanned (its tokens only, nothing built; libyaml's scanner where it is at hand, which
    does not recurse) up to ``mark``."""
    at = (mark.line, mark.column)
    last: list[Any] = []
    try:
        for token in yaml.scan(text, Loader=_C_LOADER or _bounded(yaml.SafeLoader)):
            if (token.start_mark.line, token.start_mark.column) >= at:
                break
            last = [*last[-1:], token]
        else:
            return None
    except (yaml.YAMLError, RecursionError):
        return None
    if not isinstance(token, yaml.ValueToken) or (token.start_mark.line, token.start_mark.column) != at:
        return None
    if len(last) < 2 or not isinstance(last[0], _ENTRY_START) or not isinstance(last[1], yaml.ScalarToken):
        return None
    key = last[1]
    length = key.end_mark.column - key.start_mark.column
    return length if key.start_mark.line == key.end_mark.line == mark.line and length > SIMPLE_KEY_CHARS else None


def _refuse(event: Any) -> None:
    """``AliasFound`` if the parser's ``event`` is an alias or bears an anchor."""
    if isinstance(event, yaml.AliasEvent):
        raise AliasFound("alias", event.anchor, event.start_mark)
    if getattr(event, "anchor", None) is not None:
        raise AliasFound("anchor", event.anchor, event.start_mark)


def _no_alias_events(text: str, fast: type) -> None:
    """Refuse an anchor or alias in ``text`` by ``fast``'s parser (libyaml's) events, before it
    is loaded: libyaml's composer takes no hook, and its parser is as fast. A syntax error is
    raised as loading would raise it."""
    parser = fast(text)
    try:
        while parser.check_event():
            _refuse(parser.get_event())
    finally:
        parser.dispose()


@cache
def _no_aliases(loader: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """``loader`` refusing any anchor or alias (``AliasFound``) as its composer meets it."""

    class NoAliases(loader):  # type: ignore[valid-type, misc]
        def compose_node(self, parent: Any, index: Any) -> Any:
            _refuse(self.peek_event())
            return super().compose_node(parent, index)

    NoAliases.__name__ = f"NoAliases{loader.__name__}"
    return NoAliases


def _construct_int(loader: Any, node: yaml.ScalarNode) -> int:
    """A whole number as the safe loader reads it, but ``NumberTooLong`` past ``MAX_INT_DIGITS``
    digits (Python refuses to read such a decimal one: a ``ValueError`` with no line)."""
    try:
        value = loader.construct_yaml_int(node)
    except ValueError:
        value = None
    if value is None or not -_LARGEST_INT <= value <= _LARGEST_INT:
        limit = min(MAX_INT_DIGITS, sys.get_int_max_str_digits() or MAX_INT_DIGITS)
        raise NumberTooLong(None, None, f"a number of more than {limit} digits (at most {limit})", node.start_mark)
    return value


class DuplicateKey(yaml.constructor.ConstructorError):
    """A key given twice in one mapping (``problem_mark``: where it is given again)."""


def _unique_mapping(loader: Any, node: yaml.MappingNode, deep: bool = False) -> Any:
    """Construct a mapping, refusing a key given twice in it (YAML would keep the last one
    silently: ``{civilian: 2, civilian: 3}`` is almost surely a typo, and no writer of
    arbiter's writes one)."""
    seen: set[Any] = set()
    unhashable: list[Any] = []  # (a key may be a list or a mapping in YAML)
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        try:
            again = key in seen
            seen.add(key)
        except TypeError:
            again = key in unhashable
            unhashable.append(key)
        if again:
            raise DuplicateKey("while reading a mapping", node.start_mark, f"the key {quoted(key)} is given twice",
                               key_node.start_mark)
    return loader.construct_mapping(node, deep=deep)


def strict(base: type) -> type:
    """``base`` (a safe loader) refusing a repeated key (``DuplicateKey``)."""
    loader = type(f"Strict{base.__name__}", (base,), {})
    loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)
    return loader


STRICT = strict(yaml.SafeLoader)
"""The pure-Python safe loader refusing repeated keys: how arbiter reads every file it is given."""
FAST_STRICT = strict(_C_LOADER) if _C_LOADER is not None else None
"""libyaml's safe loader refusing repeated keys."""


def line_of(text: str, steps: tuple[str | int, ...] | list[str | int]) -> int | None:
    """The line (from 1) where the value at ``steps`` (keys and indexes) stands in the YAML
    ``text``, if it is there (for a missing key: the line of the mapping that lacks it), by the
    library's own marks, as its refusals name lines; None when the text does not read.
    Composed only (no value built), by libyaml where it is at hand: asked on the way to a
    refusal, of a data file or of a transcript's header."""
    try:
        node = yaml.compose(text, Loader=_C_LOADER or yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return None
    line = node.start_mark.line + 1 if node is not None else None
    for step in steps:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == str(step)), None)
            if pair is None:
                return line
            node, line = pair[1], pair[0].start_mark.line + 1  # the key's line
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
            line = node.start_mark.line + 1
        else:
            return line
    return line


@cache
def _numbers(loader: type) -> type:
    """``loader`` reading whole numbers by ``_construct_int``."""
    guarded = type(f"Numbers{loader.__name__}", (loader,), {})
    guarded.add_constructor("tag:yaml.org,2002:int", _construct_int)
    return guarded


@cache
def _bounded(loader: type[yaml.SafeLoader]) -> type[yaml.SafeLoader]:
    """``loader`` refusing collections nested deeper than ``READ_DEPTH``: brackets as its scanner
    meets them (it would otherwise look a thousand characters ahead first), any collection as
    its composer builds it."""

    class Bounded(loader):  # type: ignore[valid-type, misc]
        _depth = 0

        def fetch_flow_collection_start(self, token_class: Any) -> None:
            if self.flow_level >= READ_DEPTH:
                raise TooDeep()
            super().fetch_flow_collection_start(token_class)

        def _within(self, compose: Any, anchor: Any) -> Any:
            if self._depth >= READ_DEPTH:
                raise TooDeep()
            self._depth += 1
            try:
                return compose(self, anchor)
            finally:
                self._depth -= 1

        def compose_sequence_node(self, anchor: Any) -> Any:
            return self._within(loader.compose_sequence_node, anchor)

        def compose_mapping_node(self, anchor: Any) -> Any:
            return self._within(loader.compose_mapping_node, anchor)

    Bounded.__name__ = f"Bounded{loader.__name__}"
    return Bounded

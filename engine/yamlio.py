"""Reading YAML safely and fast: libyaml's loader where the text cannot nest deeply, the
pure-Python loader (which stops deep nesting with a clean error) where it might.

libyaml composes nested collections by recursion in C, so a hostile file of 100,000 ``[``
would crash the process; ``nesting_bound`` is a cheap upper bound on a text's nesting that
sends such a text to the pure-Python loader instead.

>>> load("a: [1, {b: 2}]")
{'a': [1, {'b': 2}]}
>>> nesting_bound("a:\\n  - [1, [2]]\\n")
5
"""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

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
    else by ``loader``; nesting too deep for Python raises ``TooDeep``."""
    chosen = fast if fast is not None and nesting_bound(text) < FAST_DEPTH else _bounded(loader)
    try:
        return yaml.load(text, Loader=chosen)  # noqa: S506 (safe loaders only)
    except RecursionError:
        raise TooDeep() from None


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

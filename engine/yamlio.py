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

from typing import Any

import yaml

FAST_DEPTH = 64
"""Texts whose nesting bound stays below this are read by libyaml."""
_C_LOADER = getattr(yaml, "CSafeLoader", None)


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
    chosen = fast if fast is not None and nesting_bound(text) < FAST_DEPTH else loader
    try:
        return yaml.load(text, Loader=chosen)  # noqa: S506 (safe loaders only)
    except RecursionError:
        raise TooDeep() from None

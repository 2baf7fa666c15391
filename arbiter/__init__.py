"""arbiter: a referee for tabletop hidden-role games, as a library.

The one import package of the distribution ``arbiter-referee``: ``arbiter.engine`` (the rules
and the core), ``arbiter.cli`` (the ``arbiter`` command) and ``arbiter.scenarios`` (the games'
YAML data). The library's surface (``arbiter.engine.api``) is also here, loaded on first use so
that ``import arbiter`` (and the command's start) stays cheap:

>>> import arbiter
>>> game = arbiter.new_game("mafia", "6-players", seed=2)
>>> game.seats
('p1', 'p2', 'p3', 'p4', 'p5', 'p6')

See ``docs/api.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__version__ = "0.2.0"

# In a source tree the subpackages are the repository's top-level folders (engine/, cli/,
# scenarios/) beside this one; an installed copy has them inside this folder.
_HERE = Path(__file__).resolve().parent
if not (_HERE / "engine").is_dir() and (_HERE.parent / "engine" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))  # noqa: F821 (a package's __path__)

API = ("Game", "new_game", "load_game", "replay", "games", "play_agents", "Agent", "Choices", "InputError",
       "SetupError", "seconds_name")
__all__ = ["__version__", *API]


def __getattr__(name: str) -> Any:
    if name in API:
        from arbiter.engine import api

        return getattr(api, name)
    raise AttributeError(f"module 'arbiter' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names and the library's, not yet loaded: ``dir(arbiter)`` and the tab
    completion of a shell or a notebook, which read it, showed none of the library's.

    >>> import arbiter
    >>> "new_game" in dir(arbiter)
    True
    """
    return sorted({*globals(), *API})

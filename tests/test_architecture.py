"""``docs/architecture.md`` is the maintainers' map of the code, and the code keeps its layers:
every module of the core, the arena, the command line and the tools is on the map (and nothing
that is gone), and the engine never imports the command line, Click, or anything that prints for
it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAPPED = ("engine", "engine/arena", "cli", "tools")
"""The folders whose every module the map names (a game's own modules are named by its folder)."""


def _map() -> str:
    return (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _modules(folder: str) -> list[str]:
    return [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / folder).glob("*.py")) if p.name != "__init__.py"]


def test_every_module_is_on_the_map() -> None:
    text = _map()
    missing = [m for m in (m for f in MAPPED for m in _modules(f)) if f"`{m}`" not in text]
    assert not missing, f"docs/architecture.md does not say what these modules hold: {missing}"


def test_the_map_names_only_modules_and_folders_that_exist() -> None:
    named = set(re.findall(r"`((?:engine|cli|tools)/[\w/]+(?:\.py)?/?)`", _map()))
    assert {"engine/session.py", "cli/play.py", "tools/goldens.py", "engine/games/NAME/"} <= named  # (the pattern reads the map)
    gone = sorted(n for n in named if "NAME" not in n and not (ROOT / n).exists())
    assert not gone, f"docs/architecture.md names what is not in the tree: {gone}"


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it (in a function, under TYPE_CHECKING)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_the_engine_never_imports_the_command_line() -> None:
    found = {p.relative_to(ROOT).as_posix(): sorted(m for m in _imports(p)
                                                    if m.split(".")[0] == "click" or m.startswith("arbiter.cli"))
             for p in sorted((ROOT / "engine").rglob("*.py"))}
    assert {p: m for p, m in found.items() if m} == {}
    assert len(found) > 50  # (the engine's modules were read)

"""The FBI vs Mafia package is layered: each module has one job, stays small, and imports only
modules below it (no cycles), and the state never imports its renderer (rendering reads the
state; the rules object asks for it)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "engine" / "games" / "fbi_mafia"
PREFIX = "arbiter.engine.games.fbi_mafia"


def game_imports(path: Path) -> set[str]:
    """The modules of the package that ``path`` imports, anywhere in it (even under TYPE_CHECKING)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PREFIX:
                out |= {a.name for a in node.names}
            elif node.module.startswith(PREFIX + "."):
                out.add(node.module.split(".")[PREFIX.count(".") + 1])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[PREFIX.count(".") + 1] for a in node.names if a.name.startswith(PREFIX + ".")}
    return out


def graph() -> dict[str, set[str]]:
    return {p.stem: game_imports(p) for p in sorted(PACKAGE.glob("*.py")) if p.stem != "__init__"}


def test_the_modules_import_each_other_without_cycles():
    g = graph()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join(path + (module,))}"
        if module in done:
            return
        for dep in sorted(g[module]):
            visit(dep, path + (module,))
        done.add(module)

    for module in g:
        visit(module, ())


def test_only_the_rules_object_imports_the_renderer():
    assert {m for m, deps in graph().items() if "render" in deps} == {"rules"}


def test_every_module_has_a_docstring_and_stays_under_600_lines():
    for path in sorted(PACKAGE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert ast.get_docstring(ast.parse(text)), f"{path.name} does not say its job"
        assert len(text.splitlines()) < 600, f"{path.name} has {len(text.splitlines())} lines"

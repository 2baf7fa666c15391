"""Start-up work kept small: the rows ``arbiter games`` prints are current (``cli/listing.py``,
written by ``tools/make_listing.py``), and the registry loads a game's rules only when asked."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arbiter.cli.data import listing_rows
from arbiter.cli.listing import ROWS
from arbiter.engine import registry

ROOT = Path(__file__).resolve().parents[1]


def test_the_written_listing_is_what_the_games_say_now() -> None:
    assert ROWS == listing_rows(), "cli/listing.py is out of date: run python tools/make_listing.py"


def test_the_listing_tool_agrees() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "make_listing.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "", "PYTHONDONTWRITEBYTECODE": "1"},
                         check=True)
    return set(out.stdout.split())


def test_a_game_is_loaded_only_when_asked_for() -> None:
    loaded = _modules_after("from arbiter.engine import registry; registry.get('mafia')")
    assert "arbiter.engine.games.mafia.rules" in loaded
    assert not {"arbiter.engine.games.fbi_mafia.rules", "arbiter.engine.games.magic_maze.rules"} & loaded


def test_listing_the_games_loads_no_game() -> None:
    loaded = _modules_after("import sys; sys.argv = ['arbiter', 'games']\nfrom arbiter.cli.main import main\n"
                            "try:\n    main()\nexcept SystemExit:\n    pass")
    assert {"magic-maze", "mafia", "fbi-mafia"} <= loaded, "the listing was not printed"
    assert not {m for m in loaded if m.startswith("arbiter.engine.games")}
    # nor the core: the command-line types module it reads named a session's constant at import
    # (46a715f), and the listing loaded 20 modules more
    assert "arbiter.engine.session" not in loaded


def test_every_game_is_named_as_its_rules_name_it() -> None:
    assert [r.name for r in registry.games()] == ["fbi-mafia", "mafia", "magic-maze"]
    assert registry.names() == sorted(r.name for r in registry.games())

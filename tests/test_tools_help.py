"""The tools' ``--help`` (``tools/*.py``, named in README.md and the docs) opens with their
docstring's whole first paragraph: a description cut at its first line ended mid-sentence
("... a built-in-bot tournament with 1")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("tool", ["arena_bench.py", "goldens.py", "make_listing.py", "roles_bench.py"])
def test_a_tools_help_describes_it_in_whole_sentences(tool: str) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / tool), "--help"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    description = out.stdout.split("\n\n")[1]  # after the usage lines
    assert " ".join(description.split()).endswith("."), description

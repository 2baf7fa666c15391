"""What the end-to-end tests of the ``arbiter`` command for Classic Mafia (``test_mafia_cli.py``,
``test_mafia_cli_decks.py``) share: the game's modes, setups and card titles, the table as
printed, and a custom deck written to a file.

Commands run in-process with Click's ``CliRunner``; the test with an external bot runs the
referee as a child process with a hard timeout, so a referee that hangs on a bot fails the
test instead of hanging the suite. A user mistake must never produce a Python traceback:
``clean`` checks that for every result.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import yaml

from arbiter.engine import registry

from tests.helpers import write

REPO = Path(__file__).resolve().parents[1]
MAFIA = registry.get("mafia")
COUNTS = list(range(6, 13))
ALL_MODES = [f"{n}-players" for n in COUNTS]
SETUPS = yaml.safe_load((REPO / "scenarios" / "mafia" / "setups.yaml").read_text(encoding="utf-8"))["setups"]
CARDS = yaml.safe_load((REPO / "scenarios" / "mafia" / "cards.yaml").read_text(encoding="utf-8"))["cards"]
TITLES = {name: card["title"] for name, card in CARDS.items()}
SEAT_ROW = re.compile(r"^(p\d+)\s{2,}(alive|out: [^ ].*?)\s{2,}(\S.*?)(?:\s{2,}|$)")


def table(lines: list[str]) -> dict[str, tuple[str, str]]:
    """seat -> (status, card) from the rows of a rendered Mafia table."""
    rows = {}
    for line in lines:
        m = SEAT_ROW.match(line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def deck_titles(deck: dict[str, int]) -> Counter:
    return Counter({TITLES[c]: n for c, n in deck.items()})


def deck_file(path: Path, cards: str, title: str | None = None) -> Path:
    head = "game: mafia\nkind: deck\n" + (f"title: {title}\n" if title else "")
    return write(path, head + f"cards: {cards}\n")


GOOD_DECK = "{boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, chameleon: 1, fighter: 1}"
GOOD_DECK_COUNTS = {"boss": 1, "mafia": 1, "agent": 1, "chief": 1, "police": 1, "civilian": 2,
                    "chameleon": 1, "fighter": 1}

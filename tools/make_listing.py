#!/usr/bin/env python3
"""Write ``cli/listing.py``: the rows of ``arbiter games`` (``cli.data.listing_rows``), kept as
data so listing the games loads no game. Run it after a change to a game's modes, scenarios or
descriptions (the test suite and ``--check`` say when it is due).

    python tools/make_listing.py            # write
    python tools/make_listing.py --check    # compare with the file; exit status 1 if it differs
"""

from __future__ import annotations

import argparse
import pprint
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arbiter.cli.data import listing_rows  # noqa: E402
from arbiter.engine.files import write_whole  # noqa: E402

TARGET = ROOT / "cli" / "listing.py"
HEAD = '''"""The rows of ``arbiter games`` (game, mode, seats, description), written by
``tools/make_listing.py`` from ``cli.data.listing_rows``; ``tests/test_listing.py`` checks they
are current. Do not edit by hand."""

ROWS: list[list[str]] = '''


def text() -> str:
    """The file's whole text, as the rows are now."""
    return HEAD + pprint.pformat(listing_rows(), width=100) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    if args.check:
        if TARGET.exists() and TARGET.read_text(encoding="utf-8") == text():
            print("listing up to date")
            return 0
        print(f"{TARGET.relative_to(ROOT)} is out of date: run python tools/make_listing.py")
        return 1
    write_whole(TARGET, text())
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

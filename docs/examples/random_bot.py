#!/usr/bin/env python3
"""A minimal arbiter bot: plays a random legal input whenever it is asked.

Run it from the referee:

    arbiter play fbi-mafia --bots random --bot bandit=exec:"python3 docs/examples/random_bot.py"

The referee writes lines to the bot's stdin (docs/protocol.md, "Bots run by the referee"):
first, once a game, ``option: ...`` and ``deck: ...`` for the game's settings (a Hidden Roles
level, the cards in play); ``move: ...`` for what the other seats did, ``event: ...`` for what the seat sees; ``legal: ...``
for each input it may send now as it is, ``form: ...`` for inputs with words of its own
(``say TEXT``) and ``resign: ...`` for the input that gives up the game; then ``go SEAT KIND``
when it must answer. The bot answers with exactly
one line, chosen among the ``legal:`` lines (so it never resigns), and flushes it: any other
line it prints, or a late answer, costs it the game. It may write what it likes to stderr.
"""

import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    legal: list[str] = []
    for line in sys.stdin:
        kind, _, rest = line.strip().partition(" ")
        if kind == "legal:":
            legal.append(rest)
        elif kind == "go":
            # nothing legal now: in a real-time game (Magic Maze) that is "wait"
            print(rng.choice(legal) if legal else "wait", flush=True)
            legal = []
        # option:, deck:, move:, event:, form: and resign: lines (and any line it does not
        # know) are ignored; a smarter bot would use them.


if __name__ == "__main__":
    main()

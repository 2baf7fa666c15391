#!/usr/bin/env python3
"""A minimal arbiter bot: plays a random legal input whenever it is asked.

Run it from the referee:

    arbiter play fbi-mafia --bots random --bot bandit=exec:"python3 docs/examples/random_bot.py"

The referee writes lines to the bot's stdin (docs/protocol.md, "Bots run by the referee"):
``event: ...`` for what the seat sees, ``legal: ...`` for each input it may send now, then
``go SEAT KIND`` when it must answer. The bot answers with exactly one line. Anything else it
prints, or a late answer, costs it the game, so it flushes every answer.
"""

import random
import sys


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    legal: list[str] = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line.startswith("legal: "):
            legal.append(line[len("legal: "):])
        elif line.startswith("go "):
            choices = [m for m in legal if m != "surrender"] or legal
            print(rng.choice(choices), flush=True)
            legal = []
        # event: lines are what the seat saw; a smarter bot would keep track of them.


if __name__ == "__main__":
    main()

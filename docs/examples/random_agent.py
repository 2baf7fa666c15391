"""A minimal in-process agent: the random bot of random_bot.py as a Python class.

    arbiter play fbi-mafia --bots random --bot bandit=py:random_agent:RandomAgent   # from docs/examples

``act`` gets what the seat learned since it last acted and the inputs it may send now
(``legal.legal``); it returns one of them (``None`` in a real-time game means "nothing now").
"""

import random


class RandomAgent:
    def new_game(self, info):
        self.rng = random.Random(f"{info['seed']}:{info['seat']}")

    def act(self, observation, legal):
        return self.rng.choice(legal.legal) if legal.legal else None

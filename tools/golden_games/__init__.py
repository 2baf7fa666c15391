"""The games of ``tools/goldens.py``: per game, how a recipe is played, what its goldens must
show between them, and how a missing game is searched for.

Every module gives ``GAME`` (its folder under ``transcripts/``), ``SECTIONS`` (the lists of
``tools/goldens.yaml`` it reads, each with the comment written above it),
``generate(doc) -> (files, missing)`` (file name -> transcript text, and what the recipes no
longer give) and ``search(doc) -> sections`` (recipes that give everything, found
deterministically, lowest seed first).
"""

from __future__ import annotations

from golden_games import fbi_mafia, mafia, magic_maze

GAMES = {m.GAME: m for m in (fbi_mafia, mafia, magic_maze)}

"""The arena: tournaments between bots (``arbiter tournament``, ``arbiter match``).

One job per module:

- ``entrants``: an entrant, a named bot spec, checked against the game;
- ``schedule``: which games are played: deals (seeds) and the balanced seat assignments;
- ``runner``: plays one scheduled game in a worker and returns its record;
- ``pool``: runs games at once in local worker processes or as Ray tasks;
- ``results``: the tournament folder (configuration, results file, transcripts) and resume;
- ``config``: the checks a resumed run makes of the configuration its folder holds;
- ``stats``: win rates with Wilson intervals, sides, roles, forfeits, head-to-head, Elo;
- ``rating``: OpenSkill (Plackett-Luce) ratings from each game's teams;
- ``sprt``: the sequential probability ratio test that may stop a two-entrant match;
- ``tournament``: ties them together: plays what is left, records it, stops when told;
- ``report``: the tables (text and JSON) of a tournament's results.

No Click and no printing here: the command (``cli/tournament.py``) prints.
"""

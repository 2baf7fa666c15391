"""OpenSkill ratings (the Plackett-Luce model of the ``openskill`` package) from each game's teams.

A finished game is turned into teams and ranks:

- a *team* is the seats of one side that share an outcome (so two loners of Classic Mafia, one
  alive and one out, are two teams); teams that won rank first (rank 1), the others second
  (rank 2, tied among themselves);
- each seat of a team is one player, whose rating is its entrant's: a team's strength is the sum
  over its seats, so an entrant holding two seats of a side counts twice there;
- each seat is handed to the library as a rating of its own (a copy of its entrant's): the
  library updates its rating objects in place, so one object on two seats would be updated
  twice over and pass its half-updated self on to the other team;
- an entrant appearing on several seats of one team gets the update of that team once (the
  library's update is the same for each of its seats, copies of one rating);
- an entrant appearing on several teams of one game (on both sides, as hidden-role games deal
  it) gets one update per team: its mean moves by the sum of those updates (winning with one
  seat and losing with another largely cancels), and its sigma becomes the smallest of them (the
  game is one observation of it, not one per team).

A game with a single team (Magic Maze: everyone wins or loses together) says nothing about who is
better and is not rated; nor is an unfinished one. Games are rated in schedule order (by game
number), so the ratings do not depend on the order in which workers finished them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def teams_of(record: dict[str, Any]) -> list[tuple[list[str], int]]:
    """The teams of a finished game (each a list of entrants, one per seat) and their ranks.

    >>> r = {"finished": True, "seats": {"a": "x", "b": "y", "c": "x"},
    ...      "sides": {"a": "town", "b": "town", "c": "mafia"},
    ...      "outcome": {"a": "won", "b": "won", "c": "lost"}}
    >>> teams_of(r)
    [(['x', 'y'], 1), (['x'], 2)]
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for seat, entrant in record["seats"].items():
        key = (record["sides"].get(seat, "?"), record["outcome"].get(seat, "lost"))
        groups.setdefault(key, []).append(entrant)
    return [(members, 1 if outcome == "won" else 2) for (side, outcome), members in groups.items()]


def rate(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Each entrant's mu, sigma, ordinal (mu - 3 sigma: the conservative estimate) and games rated."""
    m = model()
    ratings = {name: m.rating(name=name) for name in entrants}
    rated = {name: 0 for name in entrants}
    for record in sorted(records, key=lambda r: r["game"]):
        if not record.get("finished"):
            continue
        teams = teams_of(record)
        if len(teams) < 2:
            continue
        players, ranks = [], []
        for members, rank in teams:
            players.append([m.rating(mu=ratings[e].mu, sigma=ratings[e].sigma, name=e) for e in members])
            ranks.append(rank)
        new = m.rate(players, ranks=ranks)
        updates: dict[str, list[Any]] = {}
        for (members, _), team in zip(teams, new):
            seen: set[str] = set()
            for entrant, after in zip(members, team):
                if entrant not in seen:  # one update per entrant per team
                    seen.add(entrant)
                    updates.setdefault(entrant, []).append(after)
        for entrant, afters in updates.items():
            before = ratings[entrant]
            mu = before.mu + sum(a.mu - before.mu for a in afters)
            sigma = min(a.sigma for a in afters)
            ratings[entrant] = m.rating(mu=mu, sigma=sigma, name=entrant)
            rated[entrant] += 1
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), "games": rated[name]}
            for name, r in ratings.items()}

"""The ``sleuth`` bot of Classic Mafia: it plays from what its seat may know, and plays to win.

Everything it decides comes from its seat's knowledge only: ``state.view(seat)`` (its card, its
team when it has one, the cards shown, who is in, the day's nominations and votes), the events
its seat may see (``state.events.visible_to(seat)``), the moves its seat may make now, and the
cards' public data (which card is on which side). It never reads another seat's card or a night
action it did not see, so two games that differ only in secrets it does not know get the same
choices from it (``tests/test_arena_sleuth.py`` checks that with twin games).

Suspicion: every other player starts at 0; voting or nominating a player later shown to be
Mafia earns trust (lowers it). Nothing else moves it: counting votes against players later
shown to be town as suspicious was measured to cost the sleuth (random voters make it noise, and
it splits the town's votes). Players it knows (its team, the cards shown) are certain.

- Town (and loners) by day: nominate the most suspect player, vote for the most suspect
  candidate (never itself nor a known ally); ties go to the candidate with more votes so far,
  then to the earlier nominee, so sleuths on one side agree and a vote expels someone.
- Mafia: never nominate, vote for, suggest or kill a Mafia player; nominate and vote for the
  most suspect town player (ties as above, so its votes join the town's), abstain when only
  Mafia players stand; at night kill (and suggest) the non-Mafia player the table trusts most.
- Police: the head shoots (and the others suggest) the most suspect player outside the team.
- Seducer and Agent shield the most trusted player; the Chameleon bans, and the Fighter kills,
  whoever has acted most against it (the Fighter passes when nobody has).

It never talks and never leaves. The ``rng`` only breaks ties that the public record leaves open.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from arbiter.engine.games.mafia.moves import Abstain, Leave, Move, Nominate, Pass, Power, Suggest, Vote
from arbiter.engine.games.mafia.state import MafiaState

TRUST = 1.0  # a vote against a player later shown to be Mafia; a nomination weighs NOMINATION of it
NOMINATION = 0.6
SEEN, = MafiaState.bot_memos  # the state's attribute for what each seat's sleuth has read (``_acts``)


@dataclass
class Knowledge:
    """What one seat knows, from its view and its event stream."""

    seat: str
    card: str
    side: str
    team: list[str]
    alive: list[str]
    cards: dict[str, str]  # seat -> card, where the seat knows it
    sides: dict[str, str]  # seat -> side, where known
    acts: list[tuple[str, str, float]] = field(default_factory=list)  # (actor, target, weight)
    votes_now: dict[str, str | None] = field(default_factory=dict)
    candidates: list[str] = field(default_factory=list)

    def suspicion(self) -> dict[str, float]:
        """How Mafia-like each other living player looks from this seat (the town's point of
        view): 0, less the trust each earned by voting or nominating a player later shown to
        be Mafia."""
        score = {s: 0.0 for s in self.alive if s != self.seat}
        for actor, target, weight in self.acts:
            if actor in score and self.sides.get(target) == "mafia":
                score[actor] -= TRUST * weight
        return score

    def against_me(self) -> dict[str, float]:
        out = {s: 0.0 for s in self.alive if s != self.seat}
        for actor, target, weight in self.acts:
            if target == self.seat and actor in out:
                out[actor] += weight
        return out


def knowledge(state: MafiaState, seat: str) -> Knowledge:
    view = state.view(seat)
    cards = dict(view["cards"])
    sides = {s: state.data.cards[c].side for s, c in cards.items()}
    k = Knowledge(seat, view["card"], state.data.cards[view["card"]].side, list(view.get("team", [])),
                  list(view["alive"]), cards, sides, votes_now=dict(view.get("votes", {})),
                  candidates=list(view.get("candidates", [])))
    k.acts = list(_acts(state, seat))
    return k


def _acts(state: MafiaState, seat: str) -> list[tuple[str, str, float]]:
    """The nominations and votes ``seat`` has seen, in order (``Knowledge.acts``). Kept on the
    state between its turns (a bot memo, ``MafiaState.bot_memos``: not part of the game), with
    how far into the event log it has read, so each turn reads only the events since its last:
    reading its whole stream at every turn was a tenth of a sleuth's game, and grows with it."""
    memo: dict[str, tuple[int, list[tuple[str, str, float]]]] = state.__dict__.setdefault(SEEN, {})
    read, acts = memo.get(seat, (0, []))
    log = state.events
    for e in log.visible_to(seat, read):
        if e.kind == "nominate":
            acts.append((e.data["seat"], e.data["nominee"], NOMINATION))
        elif e.kind == "vote" and e.data.get("vote"):
            acts.append((e.data["seat"], e.data["vote"], 1.0))
    memo[seat] = (len(log), acts)
    return acts


def _best(options: list[str], key: dict[str, float], rng: random.Random, *, lowest: bool = False,
          then: dict[str, float] | None = None, order: list[str] | None = None) -> str:
    """The option with the highest (or lowest) ``key``; ties by ``then`` (higher first), then
    by ``order`` (earlier first), then by the rng."""
    sign = -1 if lowest else 1
    shuffled = list(options)
    rng.shuffle(shuffled)
    rank = {s: i for i, s in enumerate(order or [])}
    return max(shuffled, key=lambda s: (sign * round(key.get(s, 0.0), 6), (then or {}).get(s, 0.0),
                                        -rank.get(s, len(rank))))


def choose(state: MafiaState, seat: str, rng: random.Random) -> Move | None:
    """The sleuth's move for ``seat`` when it is awaited; None otherwise."""
    if seat not in state.awaited_seats():
        return None
    moves = [m for m in state.legal_moves(seat) if not isinstance(m, Leave)]
    if not moves:
        return None
    k = knowledge(state, seat)
    mafia = k.side == "mafia"
    allies = set(k.team) | ({s for s, side in k.sides.items() if side == "mafia"} if mafia else
                            {s for s, side in k.sides.items() if side == "town" and k.side == "town"})
    allies.add(seat)
    score = k.suspicion()
    if mafia:  # the town's suspicion, as the table sees it; Mafia players are never targets
        score = {s: v for s, v in score.items() if s not in allies}
    targets = lambda verb: [m.target for m in moves if getattr(m, "verb", None) == verb]  # noqa: E731

    nominees = [m.target for m in moves if isinstance(m, Nominate) and m.target not in allies]
    if any(isinstance(m, Nominate) for m in moves) or (Pass() in moves and state.phase == "nominate"):
        return Nominate(_best(nominees, score, rng)) if nominees else Pass()

    if any(isinstance(m, Vote) for m in moves):
        votes = [m.target for m in moves if isinstance(m, Vote) and m.target not in allies]
        if not votes:
            return Abstain()
        tally = {c: float(sum(1 for v in k.votes_now.values() if v == c)) for c in votes}
        return Vote(_best(votes, score, rng, then=tally, order=k.candidates))

    suggest = [m.target for m in moves if isinstance(m, Suggest)]
    kills = targets("kill")
    if mafia and (suggest or kills):  # the Mafia's victim: whom the table trusts most
        pool = [s for s in (kills or suggest) if s not in allies]
        if not pool:
            return Pass() if Pass() in moves else moves[0]
        victim = _best(pool, score, rng, lowest=True, order=state.seats)
        return Power("kill", victim) if kills else Suggest(victim)
    shots, suggested = targets("shoot"), suggest
    if shots or suggested:  # the Police: the top suspect outside the team
        pool = [s for s in (shots or suggested) if s not in allies]
        if pool:
            top = _best(pool, score, rng, order=state.seats)
            return Power("shoot", top) if shots else Suggest(top)
        return Pass() if Pass() in moves else moves[0]
    for verb in ("seduce", "protect"):
        if targets(verb):
            return Power(verb, _best(targets(verb), score, rng, lowest=True, order=state.seats))
    threat = k.against_me()
    if targets("ban"):
        return Power("ban", _best(targets("ban"), threat, rng, then=score, order=state.seats))
    if kills:  # the Fighter
        foe = _best(kills, threat, rng, then=score, order=state.seats)
        return Power("kill", foe) if threat.get(foe, 0.0) > 0 else (Pass() if Pass() in moves else Power("kill", foe))
    return Pass() if Pass() in moves else moves[0]

"""The built-in random bot of Classic Mafia: legal, a little talkative, loosely purposeful.

It talks now and then (at most once per phase or night step), nominates about half the time,
votes for a candidate other than itself, follows its team's suggestions at night, the Fighter
kills about half the nights, and the Agent and the Police head seldom decline (pass). Everything
it decides comes from the ``rng`` it is given. It chooses among move values (``moves.py``); the
rules object names the one it chose.
"""

from __future__ import annotations

import random
from typing import TypeVar

from arbiter.engine.games.mafia.data import load_talk
from arbiter.engine.games.mafia.moves import Abstain, Leave, Move, Nominate, Pass, Power, Say, Suggest, Vote
from arbiter.engine.games.mafia.night import STEP_VERBS
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.games.mafia.table import NIGHT, NOMINATE, VOTE

T = TypeVar("T")

TALK_CHANCE = 0.2
NOMINATE_CHANCE = 0.5
ABSTAIN_CHANCE = 0.1
FOLLOW_CHANCE = 0.7
FIGHTER_KILL_CHANCE = 0.5
DECLINE_CHANCE = 0.1  # the other optional powers (Agent, Police head): how often the bot passes


_PASS, _ABSTAIN = Pass(), Abstain()  # values (frozen): one of each serves every choice
# ... and one of each targeted move, made the first time it is chosen (a frozen dataclass is made
# in about a vote's own cost in the session): by target, and by (verb, target) for the powers
_NOMINATIONS: dict[str, Nominate] = {}
_VOTES: dict[str, Vote] = {}
_SUGGESTIONS: dict[str, Suggest] = {}
_POWERS: dict[tuple[str, str], Power] = {}


def _power(verb: str, target: str) -> Power:
    """``Power(verb, target)``, the one kept."""
    return _POWERS.get((verb, target)) or _POWERS.setdefault((verb, target), Power(verb, target))


_TALK: dict[str, tuple[str, ...]] = {}
"""The packaged talk (``data.load_talk``), kept here once read: ``choose`` asks for it at every input."""


def _packaged_talk() -> dict[str, tuple[str, ...]]:
    _TALK.update(load_talk())
    return _TALK


def _living_but(state: MafiaState, gone: tuple[str, ...] | dict[str, str]) -> list[str]:
    """The living seats not in ``gone``, in seat order (made by C loops: a comprehension over the
    seats, a call and a test per seat, was a bot's dearest line)."""
    out = list(filter(state.alive.__getitem__, state.seats))
    for s in gone:
        if s in out:
            out.remove(s)
    return out


def _pick(options: list[T], rng: random.Random) -> T:
    n = len(options)
    # rng.randrange(n) is rng._randbelow(n) for n > 0 (the same draw), without its checks' call
    return options[rng._randbelow(n) if n > 0 else rng.randrange(n)]


def _talk(state: MafiaState, seat: str, rng: random.Random, lines: tuple[str, ...]) -> Say | None:
    others = list(filter(state.alive.__getitem__, state.seats))  # the living others
    if seat in others:
        others.remove(seat)
    if not lines or not others:
        return None
    line = lines[rng._randbelow(len(lines))]  # _pick(lines, rng), then _pick(others, rng): neither is empty
    return Say(" ".join(line.replace("{seat}", others[rng._randbelow(len(others))]).split()))


def choose(state: MafiaState, seat: str, rng: random.Random,
           talk: dict[str, tuple[str, ...]] | None = None) -> Move | None:
    """A legal move for ``seat`` when it is awaited; None otherwise (it never leaves). It talks
    from ``talk``, by default the packaged lines (``data.load_talk``)."""
    if talk is None:
        talk = _TALK or _packaged_talk()
    awaited = state._awaited  # awaited_seats() as _settle kept it, without its copy
    if awaited is None or state.result is not None:
        awaited = state.awaited_seats()
    if seat not in awaited:
        return None
    if state.phase == NOMINATE:
        return _nominate(state, seat, rng, talk)
    if state.phase == VOTE and state.candidates:
        return _vote(state, seat, rng, talk)
    if state.phase == NIGHT:
        return _night(state, seat, rng, talk)
    return _choose_any(state, seat, rng, talk)


def _nominate(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move:
    """``_choose_any`` for an awaited seat in the nominations (its legal moves: a nomination of
    each living other seat not nominated yet, and pass), the same draws of ``rng`` in the same
    order, without listing the moves it does not pick."""
    if state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["day"])
        if line is not None:
            return line
    targets = _living_but(state, state.nominations)  # the living others not nominated
    if seat in targets:
        targets.remove(seat)
    if targets and rng.random() < NOMINATE_CHANCE:
        target = targets[rng._randbelow(len(targets))]  # _pick(targets, rng): targets is not empty
        return _NOMINATIONS.get(target) or _NOMINATIONS.setdefault(target, Nominate(target))
    return _PASS


def _vote(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move:
    """``_choose_any`` for the seat called in a roll-call with candidates (its legal moves: a
    vote for each candidate, and abstain), the same draws of ``rng`` in the same order."""
    if state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["day"])
        if line is not None:
            return line
    others = list(state.candidates)  # the candidates but seat (each stands once)
    if seat in others:
        others.remove(seat)
    if rng.random() < ABSTAIN_CHANCE or not others:
        return _ABSTAIN
    target = others[rng._randbelow(len(others))]  # _pick(others, rng): others is not empty
    return _VOTES.get(target) or _VOTES.setdefault(target, Vote(target))


def _night(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move | None:
    """``_choose_any`` for an awaited seat at night, the same draws of ``rng`` in the same order,
    from the targets of its legal moves (``_night_moves``: a suggestion of each target outside
    its team and pass while it confers; the step's power on each target, pass when the power is
    optional or the head is under arrest), making only the move it picks. (It finds the step's head
    once and reads the table directly: the night's choice was the bot's dearest, about four
    times a nomination.)"""
    step = state.step()
    if step is None:
        return None
    team = step.team
    head = state.step_head(step)
    alive, jailed = state.alive, state.jailed
    # seat in awake_team(team), and in conferring(step, head), without building them
    awake = team is not None and seat in state._team_seats.get(team, ()) and alive[seat] and seat != jailed
    if seat != head:
        if not (awake and seat not in state.suggestions):
            return None
        by_verb = {"suggest": _living_but(state, state._team_seats[team]),  # team: seat's (it is awake)
                   "pass": [""]}
    elif seat == jailed:
        by_verb = {"pass": [""]}
    else:
        targets = _living_but(state, (seat,) if team is None else state._team_seats.get(team, ()) + (seat,))
        by_verb = {}
        for verb in STEP_VERBS[step.name]:
            by_verb[verb] = [s for s in targets if s not in state.arrested] if verb == "arrest" else targets
        if step.optional:
            by_verb["pass"] = [""]
    if not all(by_verb.values()):
        by_verb = {verb: targets for verb, targets in by_verb.items() if targets}
        if not by_verb:
            return None
    if awake and state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["night"])
        if line is not None:
            return line
    if team and "suggest" not in by_verb:
        wanted = [t for t in state.suggestions.values() if t]
        if wanted:
            followed = [(verb, t) for verb, targets in by_verb.items() if verb in ("kill", "shoot")
                        for t in targets if t in wanted]
            if followed and rng.random() < FOLLOW_CHANCE:
                return _power(*followed[rng._randbelow(len(followed))])  # _pick: followed is not empty
    if step.optional and seat == head and "pass" in by_verb and sum(len(t) for t in by_verb.values()) > 1:
        if step.name == "fighter":
            if rng.random() >= FIGHTER_KILL_CHANCE:
                return _PASS
            powers = [(verb, t) for verb, targets in by_verb.items() if verb != "pass" for t in targets]
            return _power(*powers[rng._randbelow(len(powers))])  # _pick: a target besides the pass
        if rng.random() < DECLINE_CHANCE:
            return _PASS
        del by_verb["pass"]
    verbs = sorted(by_verb)  # (_pick(verbs, rng), then _pick(targets, rng): by_verb and its lists are not empty)
    verb = verbs[rng._randbelow(len(verbs))]
    targets = by_verb[verb]
    target = targets[rng._randbelow(len(targets))]
    if verb == "pass":
        return _PASS
    if verb == "suggest":
        return _SUGGESTIONS.get(target) or _SUGGESTIONS.setdefault(target, Suggest(target))
    return _power(verb, target)


def _choose_any(state: MafiaState, seat: str, rng: random.Random, talk: dict[str, tuple[str, ...]]) -> Move | None:
    """``choose`` where no short cut applies (a roll-call whose candidates have all left the
    game): from the full list of its legal moves, a kind of move, then one of that kind."""
    acts = [m for m in state.legal_moves(seat) if not isinstance(m, Leave)]
    if not acts:
        return None
    if "say TEXT" in state.input_forms(seat) and state.said.get(seat, 0) == 0 and rng.random() < TALK_CHANCE:
        line = _talk(state, seat, rng, talk["day"])  # a roll-call: by day
        if line is not None:
            return line
    by_verb: dict[str, list[Move]] = {}
    for m in acts:
        by_verb.setdefault(m.verb, []).append(m)
    return _pick(by_verb[_pick(sorted(by_verb), rng)], rng)

"""The ``sleuth`` bot of Classic Mafia decides from its seat's knowledge only, beats ``random``,
and makes the night moves its policy names (staged games, at the end).

Twin games (as in ``tests/mafia_twins.py``): two deals that differ only in the cards
of two seats the sleuth's seat does not know. Everyone else plays the same public inputs in both
(a night input by the seat holding the same card), so the sleuth's seat sees the same things in
both until a secret legitimately shows (a swapped card revealed); up to then its choices must be
the same.
"""

from __future__ import annotations

import random

import pytest

from arbiter.engine import registry
from arbiter.engine.bots import RandomBot
from arbiter.engine.arena.schedule import rotation
from arbiter.engine.games.mafia import sleuth
from arbiter.engine.games.mafia.rules import MafiaRules
from arbiter.engine.session import Session
from arbiter.engine.games.mafia.moves import move_name
from tests.helpers import mafia_game
from tests.mafia_staging import ALL, nominate, vote_round

CARDS8 = ["civilian", "boss", "mafia", "seducer", "chief", "police", "civilian", "chameleon"]


def _swapped(cards: list[str], x: int, y: int) -> list[str]:
    out = list(cards)
    out[x], out[y] = out[y], out[x]
    return out


def _stream(s: Session, seat: str) -> list[str]:
    return [e.text for e in s.events.visible_to(seat)]


def twin_choices(cards: list[str], viewer: str, x: int, y: int, seed: int, budget: int = 400) -> int:
    """Play the twins (``cards``, and ``cards`` with seats ``x`` and ``y`` swapped); the number
    of the sleuth's decisions compared before the viewer could tell the twins apart."""
    a, b = mafia_game(cards, seed=seed), mafia_game(_swapped(cards, x, y), seed=seed)
    sigma = {f"p{x + 1}": f"p{y + 1}", f"p{y + 1}": f"p{x + 1}"}
    bot_a, bot_b = RandomBot(viewer, seed, "sleuth"), RandomBot(viewer, seed, "sleuth")
    rng = random.Random(f"twins:{seed}:{viewer}")
    rules = MafiaRules()
    compared = 0
    for _ in range(budget):
        if a.over or b.over or _stream(a, viewer) != _stream(b, viewer):
            break
        actor = a.state.awaiting()[0].seat
        if actor == viewer:
            assert any(w.seat == viewer for w in b.state.awaiting()), "the viewer is awaited in one twin only"
            ca, cb = bot_a.choose(a), bot_b.choose(b)
            assert ca == cb, f"the sleuth chose {ca!r} in one twin and {cb!r} in the other (move {len(a.moves)})"
            compared += 1
            a.submit(viewer, ca)
            b.submit(viewer, cb)
            continue
        night = a.state.phase == "night"
        twin = sigma.get(actor, actor) if night else actor
        if not any(w.seat == twin for w in b.state.awaiting()):
            break  # the twins' other seats are no longer in step: nothing more to compare
        both = [m for m in a.state.legal_inputs(actor) if m in b.state.legal_inputs(twin) and m != "leave"]
        if not both:
            break
        move = both[rng.randrange(len(both))]
        a.submit(actor, move)
        b.submit(twin, move)
    assert rules.seat_sides(a.state)[viewer] == rules.seat_sides(b.state)[viewer]
    return compared


@pytest.mark.parametrize("viewer, x, y", [
    ("p1", 1, 3),   # a Civilian; the Boss and the Seducer swapped
    ("p1", 2, 7),   # a Civilian; a Mafia and the Chameleon swapped
    ("p2", 3, 6),   # the Boss; the Seducer and a Civilian swapped
    ("p5", 1, 6),   # the Police Chief; the Boss and a Civilian swapped
    ("p8", 2, 0),   # the Chameleon; a Mafia and a Civilian swapped
])
def test_the_sleuth_decides_from_its_seats_knowledge_only(viewer, x, y):
    precondition_known = {f"p{i + 1}" for i, c in enumerate(CARDS8)
                          if c in ("boss", "mafia") and CARDS8[int(viewer[1:]) - 1] in ("boss", "mafia")}
    assert f"p{x + 1}" not in precondition_known and f"p{y + 1}" not in precondition_known
    compared = sum(twin_choices(CARDS8, viewer, x, y, seed) for seed in range(6))
    assert compared >= 10, f"too few decisions compared ({compared}): the twins diverged at once?"


def test_a_bot_that_peeks_is_caught(monkeypatch):
    """The twin test has teeth: a sleuth that reads other seats' cards chooses differently."""
    honest = sleuth.choose

    def peeking(state, seat, rng):
        move = honest(state, seat, rng)
        if state.phase == "nominate":
            mafia = [s for s in state.living() if state.side_of(s) == "mafia" and s != seat]
            if mafia:
                return sleuth.Nominate(mafia[0])
        return move

    monkeypatch.setattr(sleuth, "choose", peeking)
    with pytest.raises(AssertionError, match="chose"):
        for seed in range(6):
            twin_choices(CARDS8, "p1", 1, 3, seed)


def test_the_sleuth_never_turns_on_its_own_team():
    """In whole games of sleuths, no Mafia sleuth nominates, votes for, suggests or kills a Mafia
    player, and no Police sleuth shoots a Police player."""
    rules = registry.get("mafia")
    for seed in range(15):
        s = Session(rules, "10-players", seed=seed)
        bots = {seat: RandomBot(seat, seed, "sleuth") for seat in s.seats}
        while not s.over:
            seat = s.state.awaiting()[0].seat
            text = bots[seat].choose(s)
            verb, *target = text.split()
            if target and verb in ("nominate", "vote", "suggest", "kill", "shoot"):
                if s.state.side_of(seat) == "mafia":
                    assert s.state.side_of(target[0]) != "mafia", f"{seat} (Mafia): {text}"
                if s.state.team_of(seat) == "police" and verb in ("nominate", "vote", "shoot"):
                    assert s.state.team_of(target[0]) != "police", f"{seat} (Police): {text}"
            s.submit(seat, text)


def test_the_sleuth_beats_random_clearly():
    """Over the same deals with the seats rotated (the arena's schedule), the sleuth's seats win
    clearly more often than the random bot's (a fixed set of games: the figures are exact)."""
    rules = registry.get("mafia")
    won = {"random": 0, "sleuth": 0}
    for deal in range(60):
        for r in range(2):
            kinds = [("random", "sleuth")[e] for e in rotation(8, 2, r)]
            s = Session(rules, "8-players", seed=9000 + deal)
            bots = {seat: RandomBot(seat, s.seed, kinds[i]) for i, seat in enumerate(s.seats)}
            while not s.over:
                seat = s.state.awaiting()[0].seat
                s.submit(seat, bots[seat].choose(s))
            for i, seat in enumerate(s.seats):
                won[kinds[i]] += seat in s.state.result.winners
    assert won["sleuth"] > won["random"] * 1.1, won


def _acts_read_again(s: Session, seat: str) -> list[tuple[str, str, float]]:
    """The nominations and votes ``seat`` has seen, read from its whole stream (the sleuth's
    knowledge before it kept a memo of them)."""
    out = []
    for e in s.events.visible_to(seat):
        if e.kind == "nominate":
            out.append((e.data["seat"], e.data["nominee"], sleuth.NOMINATION))
        elif e.kind == "vote" and e.data.get("vote"):
            out.append((e.data["seat"], e.data["vote"], 1.0))
    return out


def test_what_the_sleuth_keeps_between_turns_is_its_stream_read_again():
    """The sleuth keeps the nominations and votes its seat has seen on the state between its
    turns (``sleuth._acts``) and reads only the events since. At every turn of whole games (eight
    deals, sleuths among random bots), its knowledge is its seat's whole stream read again, and
    its choice is the one a sleuth with no memo makes from the same draws."""
    rules = registry.get("mafia")
    turns = carried = 0
    for seed in range(8):
        s = Session(rules, "9-players", seed=seed)
        kinds = {seat: "sleuth" if i % 3 else "random" for i, seat in enumerate(s.seats)}
        bots = {seat: RandomBot(seat, seed, kinds[seat]) for seat in s.seats}
        while not s.over:
            seat = s.state.awaiting()[0].seat
            if kinds[seat] == "sleuth":
                memo = s.state.__dict__.pop(sleuth.SEEN, None)
                carried += memo is not None and memo.get(seat, (0, []))[0] > 0
                draws = random.Random()
                draws.setstate(bots[seat].rng.getstate())
                without = sleuth.choose(s.state, seat, draws)  # no memo: it reads the whole stream
                s.state.__dict__.pop(sleuth.SEEN)
                if memo is not None:
                    s.state.__dict__[sleuth.SEEN] = memo
                move = bots[seat].choose_move(s)
                assert move == without, f"{seat} chose {move} with its memo, {without} without (move {len(s.moves)})"
                assert sleuth.knowledge(s.state, seat).acts == _acts_read_again(s, seat)
                turns += 1
            else:
                move = bots[seat].choose_move(s)
            s.submit_move(seat, move)
    assert turns > 200 and carried > turns // 2, (turns, carried)


# ------------------------------------------------------------------ its policy, rule by rule
def _sleuths_night(s) -> dict[str, str]:
    """Each awaited seat's sleuth choice, played, until the night is over: seat -> its input."""
    chosen = {}
    while s.state.phase == "night":
        seat = s.state.awaited_seats()[0]
        chosen[seat] = move_name(sleuth.choose(s.state, seat, random.Random(0)))
        s.submit(seat, chosen[seat])
    return chosen


def test_at_night_the_sleuth_shields_and_kills_the_most_trusted_and_shoots_the_most_suspect():
    """p2 (Mafia) is expelled on day 1: every voter for it earned trust, p6 (who nominated it
    too) the most; p8 abstained and is the most suspect. Then the Seducer shields p6, the Boss
    kills p6, the Police suggest and shoot p8, and the Chameleon, whom nobody acted against,
    bans the most suspect (p1, p3, p4, p5 and p7 are level: the first in seat order)."""
    s = mafia_game(["boss", "mafia", "seducer", "chief", "police", "civilian", "civilian", "chameleon"])
    nominate(s, p6="p2")
    vote_round(s, default="p2", p2=None, p8=None)
    assert _sleuths_night(s) == {"p3": "seduce p6", "p1": "kill p6", "p5": "suggest p8", "p4": "shoot p8",
                                 "p8": "ban p1"}


@pytest.mark.parametrize("against", [True, False])
def test_the_mafia_suggest_and_kill_whom_the_table_trusts_most_and_the_fighter_whom_acted_against_it(against):
    """p3 (the Seducer, a town card) is expelled on day 1; with ``against``, p6 nominated and
    voted for p8 (the Fighter). Nobody earned trust (no Mafia card was shown), so the Mafia's
    suggestion and kill agree on the first in seat order, p4; the Fighter kills p6 when p6
    acted against it, and passes when nobody did."""
    s = mafia_game(ALL, deck={c: 1 for c in ALL})
    nominate(s, p1="p3", **({"p6": "p8"} if against else {}))
    vote_round(s, default="p3", p3=None, **({"p6": "p8"} if against else {}))
    night = _sleuths_night(s)
    assert (night["p2"], night["p1"]) == ("suggest p4", "kill p4")
    assert night["p8"] == ("kill p6" if against else "pass")

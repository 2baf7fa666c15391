"""Hidden information in Classic Mafia: random games, and the leaks once suspected.

The method (twin games that differ only in what the seat may not know, compared after
every input) and the twins themselves: ``tests/mafia_twins.py``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import pytest

from arbiter.engine.bots import RandomBot
from arbiter.engine.events import HOST, Event
from arbiter.engine.game import SECRET_SEAT
from arbiter.engine.games.mafia.table import NIGHT
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.helpers import mafia_game
from tests.mafia_twins import CARDS8, EIGHT, MAFIA, PLAYERS, team_of, Twin, word


# ------------------------------------------------------------------------------- random games
def random_game(n: int, seed: int) -> Iterator[tuple[Session, str | None, str | None, list[Event]]]:
    """(session, seat, input, events) after each input of a random bots' game."""
    s = Session(MAFIA, f"{n}-players", seed=seed)
    bots = {x: RandomBot(x, seed) for x in s.seats}
    yield s, None, None, list(s.events)
    while not s.over and len(s.moves) < 800:
        seat = s.state.awaiting()[0].seat
        text = bots[seat].choose(s)
        assert text is not None
        events = s.submit(seat, text)
        yield s, seat, text, events


SEEDS = (1, 2, 3, 4)


@pytest.mark.parametrize("n", PLAYERS)
def test_awaiting_at_night_shows_one_secret_entry_to_the_rest(n: int) -> None:
    seen: Counter = Counter()
    for seed in SEEDS:
        for s, _seat, _text, _events in random_game(n, seed):
            st = s.state
            awaited = st.awaiting()
            step = st.step()
            for seat in s.seats:
                mine = st.awaiting_seen_by(seat)
                if step is None or s.over:
                    assert mine == awaited, (seat, mine, awaited)
                    seen["day"] += 1
                    continue
                team = st.awake_team(step.name) if step.name in ("mafia", "police") else []
                if seat in team:
                    assert mine == awaited, (seat, mine)
                    assert {a.seat for a in mine} <= set(team)
                    seen["team"] += 1
                elif any(a.seat == seat for a in awaited):
                    assert mine == [a for a in awaited if a.seat == seat]
                    seen["actor"] += 1
                else:
                    assert len(mine) == 1 and mine[0].seat == SECRET_SEAT and mine[0].kind == "night", mine
                    assert step.wake in mine[0].hint
                    for a in awaited:
                        assert not word(a.seat).search(mine[0].hint), (a.seat, mine[0].hint)
                    seen["secret"] += 1
            if step is not None and not s.over:
                # the same through the protocol: a non-team seat's session prints one '-' line
                outsiders = [x for x in s.seats if all(a.seat != x for a in awaited)
                             and not (step.name in ("mafia", "police") and x in st.awake_team(step.name))]
                for x in outsiders[:2]:
                    lines = Protocol(s, x).handle("awaiting").splitlines()
                    assert lines[1:] == [f"awaiting: - night: night {st.night}: {step.wake}", ""], lines
                    obj = json.loads(Protocol(s, x, json_mode=True).handle("awaiting"))
                    assert obj["awaiting"] == [{"seat": "-", "kind": "night", "hint": f"night {st.night}: {step.wake}"}]
    assert seen["secret"] >= 100 and seen["day"] >= 100 and seen["actor"] >= 5, seen


@pytest.mark.parametrize("n", PLAYERS)
def test_private_events_go_to_their_owners_only(n: int) -> None:
    kinds: Counter = Counter()
    for seed in SEEDS:
        last_step = None
        for s, seat, text, events in random_game(n, seed):
            st = s.state
            for e in events:
                kinds[e.kind] += 1
                if e.kind == "card":
                    assert e.to == (e.data["seat"],)
                elif e.kind == "team":
                    assert e.to == tuple(x for x in s.seats if team_of(st.card[x]) == e.data["team"])
                elif e.kind in ("team-say", "suggest"):
                    team = last_step.name
                    assert e.to == tuple(st.awake_team(team)) and seat in e.to and team in ("mafia", "police"), e
                elif e.kind == "night-act":
                    if e.data["step"] in ("mafia", "police"):
                        assert seat in e.to and set(e.to) <= set(st.team_seats(e.data["step"])), e
                    else:
                        assert e.to == (seat,), e
                elif e.kind == "arrested":
                    assert e.to is not None and len(e.to) == 1 and e.to[0] == st.jailed, e
                elif e.kind == "night-summary":
                    assert e.to == ()
                else:
                    assert e.to is None, e
            last_step = st.step()
            if text is not None and st.phase == NIGHT and not s.over:
                assert text.split()[0] != "leave"
    for kind in ("card", "team", "team-say", "suggest", "night-act", "night-summary"):
        assert kinds[kind] >= 1 or (kind in ("team-say", "suggest") and n < 7), (kind, kinds)


@pytest.mark.parametrize("n", [6, 8, 12])
def test_the_night_summary_is_for_the_host_only(n: int) -> None:
    summaries = 0
    for seed in SEEDS:
        s = None
        for s, _seat, _text, _events in random_game(n, seed):
            pass
        assert s is not None
        mine = [e for e in s.events if e.kind == "night-summary"]
        summaries += len(mine)
        for e in mine:
            assert e.to == () and e.visible_to(HOST)
            for seat in s.seats:
                assert not e.visible_to(seat)
                assert e not in s.events.visible_to(seat)
        assert all(e in s.events.visible_to(HOST) for e in mine)
        host_events = json.loads(Protocol(s, json_mode=True).handle("events"))["events"]
        assert sum(1 for e in host_events if e["kind"] == "night-summary") == len(mine)
        for seat in s.seats:
            obj = json.loads(Protocol(s, seat, json_mode=True).handle("events"))
            assert not any(e["kind"] == "night-summary" for e in obj["events"])
            assert "seen by the host" not in Protocol(s, seat).handle("events")
    assert summaries >= 4


# ------------------------------------------------------------------------- suspected leaks
def test_the_clock_does_not_count_the_mafias_night_talk() -> None:
    pre = [f"{s} pass" for s in EIGHT] + ["p3 seduce p4"]
    quiet = pre + ["p1 kill p7", "p4 arrest p8", "p8 ban p3"]
    chatty = pre + ["p2 say p7 tonight", "p1 say yes", "p2 suggest p7", "p1 kill p7", "p4 arrest p8", "p8 ban p3"]
    outs = []
    for script in (quiet, chatty):
        s = mafia_game(CARDS8)
        p = Protocol(s, "p6", json_mode=True)
        printed = []
        for line in script:
            actor, _, text = line.partition(" ")
            r = p.move(actor, text, None, referee=True)
            if r.payload["seat"] is not None or r.payload["events"]:
                printed.append(r.json())  # what a Match prints for p6
        printed.append(p.handle("time"))
        outs.append(printed)
    assert outs[0] == outs[1]


def test_an_arrested_civilian_is_not_told_by_its_view() -> None:
    pre = [f"{s} pass" for s in EIGHT] + ["p3 seduce p4", "p1 kill p5"]
    a = pre + ["p4 arrest p6", "p8 ban p3"]
    b = pre + ["p4 arrest p7", "p8 ban p3"]
    tw = Twin(mafia_game(CARDS8), mafia_game(CARDS8), "p6", secret=set())
    for la, lb in zip(a, b):
        tw.step(la, lb)

"""The twin games of FBI vs Mafia's hidden-information tests (``test_hidden_info_*.py``).

Hidden information is security: a seat's view and event stream never carry another seat's
secrets.

The main method is the *twin game*. Every secret of FBI vs Mafia comes from two chance
outcomes, the board layout ("board") and the identity deck ("identity-deck"): character k in
turn order draws card k at setup, the Criminalist then draws the next ``evidence_hand`` cards,
and the rest is the undrawn deck. For a seat S we build a second game whose identity deck
differs from the first ONLY in what S does not know:

- ``swap-identities``: two characters S does not control exchange their identity cards;
- ``identity-from-deck``: a character S does not control gets an undrawn card as identity;
- ``permute-deck``: the undrawn part of the deck is reordered;
- ``hand-swap`` (4v4, S is not the Criminalist's seat): a card of the Criminalist's hand
  is exchanged with an undrawn card;
- ``redeal``: everything S does not know is shuffled at once.

Both games receive the same inputs. After each input S's view, rendered board, legal inputs,
input forms, event stream (kind, text, data) and the answers to S's *probes* must be identical
in the twins, until a secret *legitimately* becomes known. The probes are a fixed set of inputs
S might try now (``probe_inputs``: when S is awaited, every shift and every verb of the acting
character with every cell, including ones that must be refused); each is either in S's legal
list in both twins (accepted, and never applied) or refused in both with the same error kind,
message and allowed list. A refusal changes nothing, so probing cannot disturb the twins; a
probe accepted without being listed is reported (and ends the pair). "Legitimately" is narrow and explicit (see ``PUBLIC_OUTCOMES``
and ``ENTITLED`` below): the first place where S's streams differ must be

- a public event whose content the rules make depend on a secret (whose identity a killed
  card was, an arrest or a failed one, a kill turned into an arrest, the protect offer that
  shows the Operative's row, a threat kill next to the Maniac's identity, a redraw and the
  deck size after skipped cards, a deck rebuild, a skipped step that depends on where the
  actor's identity is, the end of the game that reveals every identity), or
- a private event S is entitled to (its own identity draws and skipped cards, its own
  masquerade draw, its own inspect look and keep, its own autopsy result, its own hand).

While the streams are equal, the views, legal lists and refusals must be equal: no view field
may differ without an event telling S why, and no legality may depend on a secret (the
Maniac's threats in Standard are accepted on any card in line, teammates included). Once the streams have legitimately diverged the pair is not compared
further. The checks count the steps they compare and require many, and a planted leak must
be caught (so the machinery is not vacuous).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import InputError
from arbiter.engine.events import Event
from arbiter.engine.games.fbi_mafia import data as fm_data
from arbiter.engine.games.fbi_mafia.grid import cell_name, cells
from arbiter.engine.games.fbi_mafia.state import FbiMafiaState
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")
MODES = ("standard-3v3", "standard-4v4", "duel-3v3", "duel-4v4")
SEEDS = (1, 2, 3)  # games of the direct tests
# Seeds of the twin tests (replaying random games; inputs legal in both twins): as many as keep
# each check deep but quick (a Duel has only 2 seats to check).
REPLAY_SEEDS = {"standard-3v3": (1, 2, 3), "standard-4v4": (1, 2, 3), "duel-3v3": (1, 2, 3, 4, 5, 6),
                "duel-4v4": (1, 2, 3, 4, 5, 6)}
COMMON_SEEDS = {"standard-3v3": (1, 2, 3), "standard-4v4": (1, 2), "duel-3v3": (1, 2, 3, 4, 5, 6),
                "duel-4v4": (1, 2, 3, 4)}
MAX_INPUTS = 400
PAIR_STEPS = 150  # inputs compared per twin pair at most (most pairs diverge legitimately far sooner)

# Public events whose content depends, by the rules, on a secret (why, in words).
PUBLIC_OUTCOMES: dict[str, str] = {
    "kill": "a kill names whose identity the card was and scores 1 or 2",
    "friendly-fire": "a kill on a living Mafia identity becomes an arrest",
    "arrest": "an arrest succeeds on a living Mafia identity and names its character",
    "arrest-failed": "an arrest fails on anything but a living Mafia identity",
    "protect-offered": "the protect pause shows that the Operative's identity shares the victim's row",
    "threat-kill": "threat kills happen next to the Maniac's identity",
    "redraw": "a character whose identity was hit draws anew; the deck size shows skipped cards",
    "deck-rebuilt": "the rebuilt deck's size counts living cards that are neither an identity nor in the hand",
    "threat-skipped": "the Maniac's threat step depends on where its identity is (and, in Duel, on its team's)",
    "game-over": "the end of the game reveals every identity",
}

# Private events: which S may legitimately see a different one. ``ctx`` knows S's characters
# and the seat that sent the input.
ENTITLED = {
    "identity": lambda e, ctx: e.data.get("character") in ctx.mine,
    "draw-skipped": lambda e, ctx: e.data.get("character") in ctx.mine,
    "hand": lambda e, ctx: e.data.get("character") in ctx.mine,
    "masquerade-draw": lambda e, ctx: ctx.input_seat == ctx.seat,
    "inspect-look": lambda e, ctx: ctx.input_seat == ctx.seat,
    "inspect-kept": lambda e, ctx: ctx.input_seat == ctx.seat,
    "autopsy-result": lambda e, ctx: ctx.input_seat == ctx.seat,
}


def spec(mode: str) -> fm_data.ModeSpec:
    return fm_data.load().modes[mode]


def team_of(character: str) -> str:
    return fm_data.load().roles[character].team


def seats_of(mode: str) -> list[str]:
    m = spec(mode)
    return list(m.turn_order) if m.seating == "standard" else ["mafia", "fbi"]


def characters_of(mode: str, seat: str) -> list[str]:
    m = spec(mode)
    if m.seating == "standard":
        return [seat]
    return [c for c in m.turn_order if team_of(c) == seat]


def base_outcomes(mode: str, seed: int) -> tuple[list[str], list[str]]:
    s = Session(FBI, mode, seed=seed)
    board, deck = s.chance.records[0], s.chance.records[1]
    assert (board.label, deck.label) == ("board", "identity-deck")
    return list(board.outcome), list(deck.outcome)


def start(mode: str, seed: int, board: list[str], deck: list[str]) -> Session:
    return Session(FBI, mode, seed=seed,
                   recorded=[ChanceRecord("board", board), ChanceRecord("identity-deck", deck)])


def perturbations(mode: str, seat: str, deck: list[str], rng: random.Random) -> list[tuple[str, list[str]]]:
    """Identity decks that differ from ``deck`` only in what ``seat`` does not know."""
    m = spec(mode)
    order = list(m.turn_order)
    n, h = len(order), m.evidence_hand
    mine = set(characters_of(mode, seat))
    others = [i for i, c in enumerate(order) if c not in mine]
    undrawn = list(range(n + h, len(deck)))
    holds_hand = any("evidence" in fm_data.load().roles[c].actions for c in mine)
    out: list[tuple[str, list[str]]] = []

    def swapped(i: int, j: int) -> list[str]:
        d = list(deck)
        d[i], d[j] = d[j], d[i]
        return d

    if len(others) >= 2:
        cross = [(i, j) for i in others for j in others if i < j and team_of(order[i]) != team_of(order[j])]
        same = [(i, j) for i in others for j in others if i < j and team_of(order[i]) == team_of(order[j])]
        if cross:
            out.append(("swap-identities", swapped(*rng.choice(cross))))
        if same:
            out.append(("swap-identities-same-team", swapped(*rng.choice(same))))
    out.append(("identity-from-deck", swapped(rng.choice(others), rng.choice(undrawn))))
    rest = deck[n + h:]
    while rest == deck[n + h:]:
        rng.shuffle(rest)
    out.append(("permute-deck", deck[: n + h] + rest))
    if h and not holds_hand:
        out.append(("hand-swap", swapped(rng.randrange(n, n + h), rng.choice(undrawn))))
    # Everything the seat does not know, re-dealt at once.
    keep = {i for i, c in enumerate(order) if c in mine} | (set(range(n, n + h)) if holds_hand else set())
    free = [i for i in range(len(deck)) if i not in keep]
    cards = [deck[i] for i in free]
    shuffled = list(cards)
    while shuffled == cards:
        rng.shuffle(shuffled)
    d = list(deck)
    for i, card in zip(free, shuffled):
        d[i] = card
    out.append(("redeal", d))
    for name, d in out:
        assert sorted(d) == sorted(deck) and d != deck, name
        for i, c in enumerate(order):
            if c in mine:
                assert d[i] == deck[i], (name, c)
    return out


@dataclass
class Ctx:
    seat: str
    mine: set[str]
    input_seat: str | None = None


@dataclass
class Stats:
    compared: Counter = field(default_factory=Counter)  # steps compared, per mode
    probed: Counter = field(default_factory=Counter)  # probes answered alike by both twins: accepted / refused
    divergences: Counter = field(default_factory=Counter)  # first legitimate divergence, by kind
    stops: Counter = field(default_factory=Counter)  # why a pair stopped
    failures: list[str] = field(default_factory=list)


def stream(session: Session, seat: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.kind, e.text, e.data) for e in session.events.visible_to(seat)]


def legit(event: Event | None, ctx: Ctx) -> str | None:
    """Why ``event`` may differ between the twins for ``ctx.seat``, or None if it may not."""
    if event is None:
        return "absent"
    if event.to is None:
        return PUBLIC_OUTCOMES.get(event.kind) and f"public {event.kind}"
    check = ENTITLED.get(event.kind)
    if check is not None and ctx.seat in event.to and check(event, ctx):
        return f"private {event.kind}"
    return None


def seat_sees(session: Session, seat: str, board: bool) -> dict[str, Any]:
    """What the protocol can show ``seat`` apart from its event stream: its view, legal inputs,
    input forms and (when ``board``; it is slow and mostly derived from the view) its ASCII
    board."""
    out: dict[str, Any] = {"view": session.state.view(seat)}
    if board:
        out["board"] = session.render(seat)
    out["legal"] = session.state.legal_inputs(seat)
    out["forms"] = session.state.input_forms(seat)
    return out


ONE_CELL = ("arrest", "kill", "shoot", "plant", "detonate", "autopsy", "defuse", "protect", "unprotect",
            "keep", "threat", "evidence")


def probe_inputs(state: FbiMafiaState, seat: str) -> list[str]:
    """The inputs ``seat`` might try now, in canonical words (so that an accepted one is exactly
    an entry of its legal list). Awaited: the answers and one-word actions; every shift; every
    one-cell verb of the acting character and of its steps with every cell, any other verb on
    one cell; its swaps and preparations of neighbouring cards (and of cards two apart); threats
    naming a card twice or four cards. Not awaited: two inputs (any is refused for the turn)."""
    awaited = state.awaiting()
    if not awaited or awaited[0].seat != seat:
        return ["threat a1", "protect yes"]
    size = state.size
    names = [cell_name(c) for c in cells(size)]
    actor = state.actor
    role = state.roles[actor]
    own = set(role.actions)
    if "protection-before-action" in role.steps:
        own |= {"protect", "unprotect"}
    if "threats-after-move" in role.steps:
        own.add("threat")
    if "inspect" in role.actions:
        own.add("keep")
    out = ["masquerade", "inspect", "skip", "protect yes", "protect no", "detonate yes", "detonate no",
           "threat a1 b1 c1 d1", "evidence nobody"]
    for line in ("row", "col"):
        for i in range(size):
            where = str(i + 1) if line == "row" else names[i]
            for d in (("left", "right") if line == "row" else ("up", "down")):
                out += [f"shift {line} {where} {d}", f"shift {line} {where} {d} 2"]
    for verb in ONE_CELL:
        out += [f"{verb} {c}" for c in (names if verb in own else names[size + 1:size + 2])]
    if "swap" in own:
        for a in cells(size):
            for b in ((a[0], a[1] + 1), (a[0] + 1, a[1]), (a[0] + 1, a[1] + 1), (a[0] + 2, a[1])):
                if b[0] < size and b[1] < size:
                    out.append(f"swap {cell_name(a)} {cell_name(b)}")
    if "prepare" in own:  # each refusal lists every preparation: a sample of cells, and every token's
        sources = {(i, i) for i in range(size)} | {c for c in cells(size) if state.tokens[state._name(c)]}
        for a in sorted(sources):
            for b in ((a[0], a[1] + 1), (a[0] + 1, a[1] - 1)):
                if 0 <= b[0] < size and 0 <= b[1] < size:
                    out.append(f"prepare {cell_name(a)} {cell_name(b)}")
    if "threat" in own:
        out += [f"threat {c} {c}" for c in names[:: size + 1]]
    return out


def probe(session: Session, seat: str, texts: list[str], legal: set[str]) -> list[tuple[str, Any]]:
    """Each of ``texts`` answered: ("accepted",) when it is in ``legal`` (not applied), else
    the refusal's kind, message and allowed list. Raises AssertionError when an unlisted input
    is accepted (the game has then changed: the caller stops)."""
    out: list[tuple[str, Any]] = []
    for text in texts:
        if text in legal:
            out.append((text, "accepted"))
            continue
        try:
            session.submit(seat, text)
        except InputError as err:
            out.append((text, (err.kind, err.message, err.allowed)))
            continue
        raise AssertionError(f"{seat} {text!r} was accepted but is not in its legal list")
    return out


def repro(mode: str, seed: int, seat: str, name: str, deck: list[str], inputs: list[tuple[str, str]]) -> str:
    tail = "; ".join(f"{s} {t}" for s, t in inputs[-6:])
    return (f"mode={mode} seed={seed} seat={seat} twin={name} after {len(inputs)} inputs "
            f"(last: {tail}); twin identity deck={deck}")


def compare_twins(
    mode: str, seed: int, seat: str, name: str, deck_a: list[str], deck_b: list[str], board: list[str],
    chooser: str, stats: Stats, scripted: list[tuple[str, str]] | None = None,
) -> None:
    a = start(mode, seed, board, deck_a)
    b = start(mode, seed, board, deck_b)
    mine = set(characters_of(mode, seat))
    ctx = Ctx(seat, mine)
    for c in a.state.characters:  # the assumption the twins are built on
        assert a.state.identity[c] == deck_a[list(a.state.characters).index(c)]
        assert b.state.identity[c] == deck_b[list(b.state.characters).index(c)]
    rng = random.Random(f"twins:{mode}:{seed}:{seat}:{name}:{chooser}")
    # Probing takes time: the replay's many short pairs probe every fourth turn of the seat,
    # the deeper pairs every second one.
    probe_every = 4 if scripted is not None else 2
    turns = 0  # steps at which the seat was awaited
    inputs: list[tuple[str, str]] = []
    step = 0
    sa: list[Event] = []  # the seat's event stream in each twin, extended after each input
    sb: list[Event] = []
    equal = 0  # length of the common prefix already checked
    len_a = len_b = 0  # events of the full logs already sorted into the streams
    while True:
        sa += [e for e in a.events.since(len_a) if e.visible_to(seat)]
        sb += [e for e in b.events.since(len_b) if e.visible_to(seat)]
        len_a, len_b = len(a.events), len(b.events)
        la = [(e.kind, e.text, e.data) for e in sa[equal:]]
        lb = [(e.kind, e.text, e.data) for e in sb[equal:]]
        if la != lb:
            i = equal + next((k for k in range(min(len(la), len(lb))) if la[k] != lb[k]), min(len(la), len(lb)))
            ea = sa[i] if i < len(sa) else None
            eb = sb[i] if i < len(sb) else None
            why_a, why_b = legit(ea, ctx), legit(eb, ctx)
            if ea and eb and (ea.kind, ea.data) == (eb.kind, eb.data):
                why_a = why_b = None  # same event and facts, different words: the text carries more
            if why_a and why_b:
                stats.divergences[(ea or eb).kind] += 1  # type: ignore[union-attr]
                stats.stops["legitimate divergence"] += 1
            else:
                stats.failures.append(
                    f"{seat}'s event streams differ without a legitimate reason: "
                    f"{ea and (ea.kind, ea.text)} vs {eb and (eb.kind, eb.text)}; "
                    + repro(mode, seed, seat, name, deck_b, inputs))
            return
        equal = len(sa)
        board_too = step % 8 == 0
        va, vb = seat_sees(a, seat, board_too), seat_sees(b, seat, board_too)
        if va != vb:
            diff = sorted(k for k in set(va["view"]) | set(vb["view"]) if va["view"].get(k) != vb["view"].get(k))
            what = f"view fields {diff}" if diff else [k for k in va if va[k] != vb.get(k)]
            stats.failures.append(f"{seat}'s {what} differ while its event streams are equal; "
                                  + repro(mode, seed, seat, name, deck_b, inputs))
            return
        awaited = bool(a.state.awaiting()) and a.state.awaiting()[0].seat == seat
        turns += awaited
        if not (a.over or b.over) and (not awaited or turns % probe_every == 0):
            texts = probe_inputs(a.state, seat)
            try:
                pa, pb = probe(a, seat, texts, set(va["legal"])), probe(b, seat, texts, set(vb["legal"]))
            except AssertionError as err:
                stats.failures.append(f"{err}; " + repro(mode, seed, seat, name, deck_b, inputs))
                return
            if pa != pb:
                k = next(i for i, (x, y) in enumerate(zip(pa, pb)) if x != y)
                stats.failures.append(f"{seat}'s answers to {pa[k][0]!r} differ: {pa[k][1]} vs {pb[k][1]}; "
                                      + repro(mode, seed, seat, name, deck_b, inputs))
                return
            stats.probed.update("accepted" if x[1] == "accepted" else "refused" for x in pa)
        stats.compared[mode] += 1
        step += 1
        if a.over or b.over or step > PAIR_STEPS:
            stats.stops["game over" if a.over or b.over else "step budget"] += 1
            return
        # The next input, identical for both twins.
        if scripted is not None:
            if len(inputs) >= len(scripted):
                stats.stops["script ended"] += 1
                return
            actor, text = scripted[len(inputs)]
        else:
            actor = a.state.awaiting()[0].seat
            if b.state.awaiting()[0].seat != actor:
                stats.failures.append("awaited seats differ with equal streams; "
                                      + repro(mode, seed, seat, name, deck_b, inputs))
                return
            # A random input of the first twin that the second twin accepts too (a refused
            # input changes nothing, so trying is harmless).
            by_verb: dict[str, list[str]] = {}
            for m in a.state.legal_inputs(actor):
                if m != "surrender":
                    by_verb.setdefault(m.split()[0], []).append(m)
            verbs = sorted(by_verb)
            rng.shuffle(verbs)
            text = None
            for verb in verbs:
                options = list(by_verb[verb])
                rng.shuffle(options)
                for candidate in options[:40]:
                    try:
                        b.submit(actor, candidate)
                    except InputError:
                        continue
                    text = candidate
                    break
                if text is not None:
                    break
            if text is None:
                stats.stops[f"no common legal input ({a.state.awaiting()[0].kind})"] += 1
                return
            a.submit(actor, text)
            inputs.append((actor, text))
            ctx.input_seat = actor
            continue
        a.submit(actor, text)
        try:
            b.submit(actor, text)
        except InputError:
            stats.stops["refused in the twin"] += 1  # legality legitimately differs
            return
        inputs.append((actor, text))
        ctx.input_seat = actor


def random_inputs(mode: str, seed: int, board: list[str], deck: list[str]) -> list[tuple[str, str]]:
    """The inputs of a whole game between random bots (as ``arbiter bench`` plays it)."""
    from arbiter.engine.bots import RandomBot

    s = start(mode, seed, board, deck)
    bots = {x: RandomBot(x, seed) for x in s.seats}
    out = []
    while not s.over and len(out) < MAX_INPUTS:
        seat = s.state.awaiting()[0].seat
        text = bots[seat].choose(s)
        assert text is not None
        s.submit(seat, text)
        out.append((seat, text))
    return out


def run_twins(mode: str, seeds: tuple[int, ...], chooser: str, seats: list[str] | None = None) -> Stats:
    stats = Stats()
    for seed in seeds:
        board, deck = base_outcomes(mode, seed)
        scripted = random_inputs(mode, seed, board, deck) if chooser == "replay" else None
        for seat in seats or seats_of(mode):
            rng = random.Random(f"perturb:{mode}:{seed}:{seat}")
            for name, twin in perturbations(mode, seat, deck, rng):
                compare_twins(mode, seed, seat, name, deck, twin, board, chooser, stats, scripted)
    return stats


def report(stats: Stats) -> str:
    return "\n".join(stats.failures[:8]) + (f"\n... {len(stats.failures)} in all" if len(stats.failures) > 8 else "")

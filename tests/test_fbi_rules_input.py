"""The FBI vs Mafia rules, one focused test per rule: inputs refused (and changing nothing), and the
legal inputs listed.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

import itertools

import pytest

from arbiter.engine.bots import RandomBot
from arbiter.engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InputError,
    NotYourTurnError,
    SyntaxInputError,
    UnknownActionError,
)
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia.grid import cell_name, cells as all_cells
from arbiter.engine.games.fbi_mafia.moves import parse_move
from arbiter.engine.session import Session

from tests.helpers import FBI, refused, snapshot
from tests.fbi_staging import advance_to, do, game, put, refuse


# =============================================================================== refusals


def _pos_action():
    return game(bandit="Ada"), "bandit"


def _pos_threat():
    s = game(maniac="Olga")
    advance_to(s, "maniac")
    do(s, "maniac", "shift row 6 right")
    return s, "maniac"


def _pos_protection():
    s = game(operative="Olga")
    put(s, "protection", "b2")
    advance_to(s, "operative")
    return s, "operative"


def _pos_keep():
    s = game(detective="Vera")
    advance_to(s, "detective")
    do(s, "detective", "inspect")
    return s, "detective"


def _pos_protect():
    s = game(bandit="Olga", operative="Mara")
    put(s, "protection", "d3")
    do(s, "bandit", "kill d3")
    return s, "operative"


def _pos_detonate():
    s = game(undercover="Boris", bandit="Ines")
    put(s, "bomb", "c2")
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    return s, "bomber"


def _pos_defuse_and_autopsy():
    s = game(bandit="Ada", undercover="Ines", maniac="Olga")
    put(s, "bomb", "d3", "b3")
    put(s, "threat", "b3")
    do(s, "bandit", "kill b2")
    return s, "undercover"


def _pos_sniper():
    s = game("standard-4v4", sniper="Yuri")
    put(s, "protection", "c3")
    put(s, "bomb", "c3", "e5")
    advance_to(s, "sniper")
    return s, "sniper"


def _pos_criminalist():
    s = game("standard-4v4")
    advance_to(s, "criminalist")
    return s, "criminalist"


POSITIONS = {
    "action": _pos_action, "threat": _pos_threat, "protection": _pos_protection, "keep": _pos_keep,
    "protect": _pos_protect, "detonate": _pos_detonate, "undercover": _pos_defuse_and_autopsy,
    "sniper": _pos_sniper, "criminalist": _pos_criminalist,
}


BAD_INPUTS = [
    ("", UnknownActionError), ("dance", UnknownActionError), ("kill", SyntaxInputError),
    ("kill z9", SyntaxInputError), ("kill h1", SyntaxInputError), ("shift row 8 right", SyntaxInputError),
    ("shift row 1 right 3", SyntaxInputError), ("shift diag 1 right", SyntaxInputError),
    ("shift col a left", SyntaxInputError), ("shift col h up", SyntaxInputError), ("threat", SyntaxInputError),
    ("threat a1 a2 a3 a4", SyntaxInputError), ("defuse a1 protection", SyntaxInputError),
    ("protect maybe", SyntaxInputError), ("masquerade now", SyntaxInputError),
    ("evidence a1", IllegalMoveError), ("shoot c5", IllegalMoveError), ("prepare a1 b1", IllegalMoveError),
    ("swap a1 c3", IllegalMoveError), ("keep a1", IllegalMoveError), ("arrest f6", IllegalMoveError),
    ("kill f6", IllegalMoveError), ("plant f6", IllegalMoveError), ("unprotect f6", IllegalMoveError),
    ("shift row 01 right", SyntaxInputError), ("shift row 1 right 01", SyntaxInputError),
    ("kill a01", SyntaxInputError), ("keep a01", SyntaxInputError), ("evidence b03", SyntaxInputError),
]


@pytest.mark.parametrize(("text", "message"), [
    ("keep a1 b1", "keep: expected 1 word(s) after 'keep', found 2"),
    ("defuse a1 bomb now", "defuse: expected 1 to 2 word(s) after 'defuse', found 3"),
    ("masquerade now", "masquerade: expected 0 word(s) after 'masquerade', found 1"),
])
def test_a_wrong_number_of_words_is_refused_saying_how_many_the_verb_takes(text, message):
    with pytest.raises(SyntaxInputError) as info:
        parse_move(text, 6)
    assert info.value.message == message


@pytest.mark.parametrize(("text", "message"), [
    ("shift row 01 left", "shift: row '01' has a leading zero: rows are 1..6"),
    ("shift row 06 right 2", "shift: row '06' has a leading zero: rows are 1..6"),
    ("shift row 1 left 01", "shift: distance is 1 or 2, not '01' (a number has no leading zero)"),
    ("kill a01", "kill: 'a01' is not a cell: a row number has no leading zero (cells are a1 .. f6)"),
    ("swap b2 c02", "swap: 'c02' is not a cell: a row number has no leading zero (cells are a1 .. f6)"),
    ("keep a01", "keep: 'a01' is not a cell: a row number has no leading zero (cells are a1 .. f6)"),
    ("evidence A01", "evidence: 'a01' is not a cell: a row number has no leading zero (cells are a1 .. f6)"),
])
def test_a_number_with_a_leading_zero_is_refused_wherever_an_input_has_one(text, message):
    """The canonical words, and every ``legal`` line, write numbers without leading zeros, and
    a cell (``a01``) and a distance (``01``) were refused so, but a row (``shift row 01 left``)
    was read as row 1; and ``keep a01`` was looked up as a suspect's name ("no suspect named")."""
    with pytest.raises(SyntaxInputError) as info:
        parse_move(text, 6)
    assert info.value.message == message
    well = text.replace(" 01", " 1").replace(" 06", " 6").replace("a01", "a1").replace("A01", "a1").replace("c02", "c2")
    parse_move(well, 6)  # the same words without the zero are read


def test_a_move_shows_only_its_fields_that_are_set():
    assert repr(parse_move("defuse c3 bomb", 6)) == "Move(verb='defuse', cells=((2, 2),), token='bomb')"
    assert repr(parse_move("shift col b up 2", 6)) == "Move(verb='shift', line='col', index=1, delta=-2)"
    assert repr(parse_move("protect no", 6)) == "Move(verb='protect', answer=False)"


@pytest.mark.parametrize("position", list(POSITIONS))
def test_every_refused_input_leaves_the_state_unchanged(position):
    s, who = POSITIONS[position]()
    legal = set(s.state.legal_inputs(who))
    for text, error in BAD_INPUTS:
        if text not in legal:
            refused(s, who, text, error if issubclass(error, SyntaxInputError) else (IllegalMoveError, AmbiguousMoveError))
    for other in s.seats:
        if other != who:
            refused(s, other, "shift row 1 right", NotYourTurnError)


@pytest.mark.parametrize("text", ["detonate yes", "detonate no"])
def test_detonate_answer_without_a_prompt_is_refused(text):
    s = game(bomber="Olga")
    advance_to(s, "bomber")
    refuse(s, "bomber", text, IllegalMoveError)


def test_the_winning_arrest_also_strips_tokens():
    s = game(undercover="Boris", bandit="Ines")
    put(s, "protection", "c2")
    s.state.arrests = 3
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    assert s.state.result.winner == "fbi"
    cell = next(c for c in s.state.view(HOST)["board"] if c["cell"] == "c2")
    assert cell["status"] == "arrested" and cell["tokens"] == []


# =============================================================================== legal_inputs


def _candidates(state) -> list[str]:
    """A universe of canonical inputs: every shift and every one-cell input of every verb."""
    size = state.size
    cells = [cell_name(c) for c in all_cells(size)]
    out = ["masquerade", "inspect", "skip", "protect yes", "protect no", "detonate yes", "detonate no"]
    for line, dirs, idx in (("row", ("left", "right"), [str(i + 1) for i in range(size)]),
                            ("col", ("up", "down"), cells[:size])):
        for i, d, dist in itertools.product(idx, dirs, ("", " 2")):
            out.append(f"shift {line} {i[0] if line == 'col' else i} {d}{dist}")
    for verb in ("arrest", "kill", "shoot", "plant", "detonate", "autopsy", "protect", "unprotect",
                 "keep", "threat", "evidence"):
        out += [f"{verb} {c}" for c in cells]
    return out


@pytest.mark.parametrize("position", list(POSITIONS))
def test_legal_inputs_agree_with_validation_at_staged_positions(position):
    s, who = POSITIONS[position]()
    awaited = s.state.awaiting()[0]
    assert awaited.seat == who
    legal = s.state.legal_inputs(who)
    assert legal[-1] == "surrender" and len(legal) > 1
    for other in s.seats:
        if other != who:
            assert s.state.legal_inputs(other) == ["surrender"]
    for text in legal[:-1][:: max(1, len(legal) // 25)]:
        fresh, _ = POSITIONS[position]()  # the same staged position, rebuilt
        fresh.submit(who, text)
    listed = set(legal)
    before = snapshot(s)
    for text in _candidates(s.state):
        if text not in listed:
            with pytest.raises(InputError):
                s.submit(who, text)
    assert snapshot(s) == before


def _replay(mode: str, seed: int, moves: list[tuple[str, str]]) -> Session:
    s = Session(FBI, mode, seed=seed)
    for who, text in moves:
        s.submit(who, text)
    return s


@pytest.mark.parametrize("mode,seed", [("standard-3v3", 11), ("duel-4v4", 5), ("standard-4v4", 3)])
def test_legal_inputs_agree_with_validation(mode, seed):
    s = Session(FBI, mode, seed=seed)
    bots = {who: RandomBot(who, seed) for who in s.seats}
    moves: list[tuple[str, str]] = []
    checked = 0
    for step in range(36):
        if s.over:
            break
        who = s.state.awaiting()[0].seat
        if step % 3 == 0:
            legal = s.state.legal_inputs(who)
            assert legal[-1] == "surrender"
            for other in s.seats:
                if other != who:
                    assert s.state.legal_inputs(other) == ["surrender"]
            # Listed => accepted (on a fresh replay of the same game).
            assert _replay(mode, seed, moves).state.view(HOST) == s.state.view(HOST)
            for text in legal[:-1][:: max(1, len(legal) // 12)]:
                fresh = _replay(mode, seed, moves)
                fresh.submit(who, text)
                checked += 1
            # Not listed => refused (refusals never change anything, so the live game is fine).
            listed = set(legal)
            before = snapshot(s)
            for text in _candidates(s.state):
                if text not in listed:
                    with pytest.raises(InputError):
                        s.submit(who, text)
            assert snapshot(s) == before
        text = bots[who].choose(s)
        s.submit(who, text)
        moves.append((who, text))
    assert checked > 20

"""The FBI vs Mafia rules, one focused test per rule: arrests, defusing, the masquerade, autopsies,
inspections and evidence.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

import pytest

from arbiter.engine.errors import AmbiguousMoveError, IllegalMoveError, NotYourTurnError
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia.grid import cell_name
from arbiter.engine.session import Session

from tests.helpers import kinds, since
from tests.fbi_staging import advance_to, do, game, options, put, refuse, tok


# =============================================================================== arrest


def test_arrest_success_scores_and_redraws_publicly():
    s = game(undercover="Boris", bandit="Ines", deck=["Pavel"])  # b1 arrests c2
    advance_to(s, "undercover")
    start = len(s.events)
    do(s, "undercover", "arrest c2")
    st = s.state
    assert st.status["Ines"] == "arrested"
    assert (st.arrests, st.kills) == (1, 0)
    assert st.identity["bandit"] == "Pavel"
    evs = since(s, start)
    arrest = next(e for e in evs if e.kind == "arrest")
    assert arrest.to is None and arrest.data["character"] == "bandit" and arrest.data["suspect"] == "Ines"
    assert any(e.kind == "redraw" and e.to is None and e.data["character"] == "bandit" for e in evs)
    told = [e for e in evs if e.kind == "identity"]
    assert [(e.to, e.data["suspect"]) for e in told] == [(("bandit",), "Pavel")]
    board = {c["cell"]: c for c in st.view("maniac")["board"]}
    assert board["c2"]["status"] == "arrested"  # public to everyone
    assert st.awaiting()[0].seat == "maniac"  # no bomb: no interrupt, the turn passes


@pytest.mark.parametrize("target", ["c1", "a2"], ids=["citizen", "fbi-identity"])
def test_arrest_failure_is_public_and_changes_nothing_else(target):
    s = game(undercover="Boris", detective="Gia")
    advance_to(s, "undercover")
    before = s.state.view(HOST)
    start = len(s.events)
    do(s, "undercover", f"arrest {target}")
    evs = since(s, start)
    assert kinds(evs) == ["arrest-attempt", "arrest-failed", "turn"]
    assert all(e.to is None for e in evs)
    after = s.state.view(HOST)
    for key in ("board", "score", "deck_order", "discard", "identities"):
        assert after[key] == before[key]
    assert after["acting"] == "maniac"


# =============================================================================== defuse


def test_defuse_removes_the_token_of_an_adjacent_card():
    s = game(undercover="Hugo")  # b2
    put(s, "bomb", "c3")
    advance_to(s, "undercover")
    start = len(s.events)
    do(s, "undercover", "defuse c3")
    assert tok(s, "c3") == set()
    ev = next(e for e in since(s, start) if e.kind == "defuse")
    assert ev.data["token"] == "bomb" and ev.data["cell"] == "c3"


def test_defuse_never_own_cell_nor_far_cells_nor_protection():
    s = game(undercover="Hugo")  # b2
    put(s, "bomb", "b2", "d4")
    put(s, "protection", "a1")
    advance_to(s, "undercover")
    assert options(s, "undercover", "defuse") == set()
    refuse(s, "undercover", "defuse b2")  # own cell
    refuse(s, "undercover", "defuse d4")  # two cells away
    refuse(s, "undercover", "defuse a1")  # protection is not defusable


def test_defuse_must_name_the_token_when_a_card_has_both():
    s = game(undercover="Hugo")
    put(s, "bomb", "c3", "a1")
    put(s, "threat", "c3")
    advance_to(s, "undercover")
    assert {"c3 bomb", "c3 threat", "a1"} <= options(s, "undercover", "defuse")
    err = refuse(s, "undercover", "defuse c3", AmbiguousMoveError)
    assert set(err.allowed) == {"defuse c3 bomb", "defuse c3 threat"}
    refuse(s, "undercover", "defuse a1 threat")  # a1 has no threat
    do(s, "undercover", "defuse c3 threat")
    assert tok(s, "c3") == {"bomb"}


# =============================================================================== masquerade


def test_masquerade_alive_draw_is_adopted_and_old_card_stays_alive_citizen():
    s = game(bandit="Ada", deck=["Pavel"])
    deck_before = len(s.state.deck)
    start = len(s.events)
    do(s, "bandit", "masquerade")
    st = s.state
    assert st.identity["bandit"] == "Pavel"
    assert st.status["Ada"] == "alive" and st.owner("Ada") is None
    assert len(st.deck) == deck_before - 1
    evs = since(s, start)
    public = next(e for e in evs if e.kind == "masquerade")
    private = next(e for e in evs if e.kind == "masquerade-draw")
    assert public.to is None and "Pavel" not in public.text
    assert private.to == ("bandit",) and private.data["adopted"] is True


def test_masquerade_dead_draw_is_discarded_and_identity_unchanged():
    s = game(bandit="Ada", deck=["Gia", "Pavel"])
    do(s, "bandit", "kill a2")  # Gia dies; she is still the top of the deck
    deck_before = len(s.state.deck)
    start = len(s.events)
    do(s, "undercover", "masquerade")
    st = s.state
    assert st.identity["undercover"] == "Leon"
    assert st.deck[0] == "Pavel" and len(st.deck) == deck_before - 1
    assert "Gia" in st.discard
    private = next(e for e in since(s, start) if e.kind == "masquerade-draw")
    assert private.to == ("undercover",) and private.data["adopted"] is False


def _empty_deck(hand: list[str], dead: list[str], alive: list[str] = (), mode: str = "standard-4v4") -> Session:
    """``mode`` (4v4: with a hand) at the Undercover's turn with an empty identity deck; every
    suspect is dead but the identities, the cards of ``hand`` not in ``dead``, and ``alive``
    (test setup)."""
    s = game(mode, hand=hand or None)
    advance_to(s, "undercover")
    st = s.state
    st.deck = []
    living = (set(st.identity.values()) | set(hand) | set(alive)) - set(dead)
    for n in st.suspects:
        st.status[n] = "alive" if n in living else "dead"
    return s


def test_masquerade_on_an_empty_deck_does_not_depend_on_the_hand():
    """Two games the Undercover cannot tell apart: the same cards are alive; in one, the four
    evidence cards are the living ones (a rebuilt deck would be empty); in the other, a dead
    card is in the hand instead of Uma (a rebuild would hold Uma). Legality must not tell."""
    a = _empty_deck(["Rex", "Sofia", "Theo", "Uma"], dead=["Vito"])
    b = _empty_deck(["Rex", "Sofia", "Theo", "Vito"], dead=["Vito"], alive=["Uma"])
    assert [a.state.status[n] for n in a.state.suspects] == [b.state.status[n] for n in b.state.suspects]
    assert a.state.legal_inputs("undercover") == b.state.legal_inputs("undercover")
    assert "masquerade" not in a.state.legal_inputs("undercover")
    ea, eb = refuse(a, "undercover", "masquerade"), refuse(b, "undercover", "masquerade")
    assert (ea.message, ea.allowed) == (eb.message, eb.allowed)
    assert ea.message == ("masquerade: the identity deck is empty, and a rebuilt deck might hold no card: "
                          "there are no more living suspects than identities and evidence cards")


def test_masquerade_on_an_empty_deck_without_a_hand_names_only_the_identities():
    s = _empty_deck([], dead=[], mode="standard-3v3")  # 3v3 deals no evidence hand
    assert s.state.hand == [] and "masquerade" not in s.state.legal_inputs("undercover")
    assert refuse(s, "undercover", "masquerade") == ("masquerade: the identity deck is empty, and a rebuilt deck "
                                                     "might hold no card: there are no more living suspects than identities")


def test_masquerade_on_an_empty_deck_rebuilds_when_a_card_is_surely_free():
    s = _empty_deck(["Rex", "Sofia", "Theo", "Uma"], dead=[], alive=["Vito"])
    assert "masquerade" in s.state.legal_inputs("undercover")
    evs = do(s, "undercover", "masquerade")
    assert "deck-rebuilt" in kinds(evs) and s.state.identity["undercover"] == "Vito"
    # a revealed evidence card that died no longer counts as taken
    s = _empty_deck(["Rex", "Sofia", "Theo", "Uma"], dead=["Uma"], alive=["Vito"])
    s.state.cleared.append("Uma")
    assert "masquerade" in s.state.legal_inputs("undercover")


def test_a_rebuilt_deck_takes_its_living_cards_out_of_the_discard():
    """The rebuild shuffles every living card that is nobody's identity, those in the discard
    too (an identity given up by a masquerade); the discard keeps the rest (the dead)."""
    s = _empty_deck(["Rex", "Sofia", "Theo", "Uma"], dead=[], alive=["Vito"])
    st = s.state
    dead = next(n for n in st.suspects if st.status[n] == "dead")
    st.discard = [dead, "Vito"]  # Vito: given up earlier, alive, nobody's identity now
    old = st.identity["undercover"]
    evs = do(s, "undercover", "masquerade")
    assert next(e for e in evs if e.kind == "deck-rebuilt").data == {"size": 1}
    assert st.identity["undercover"] == "Vito" and st.discard == [dead, old]


# =============================================================================== autopsy


def test_autopsy_lists_mafia_adjacent_to_the_dead_privately():
    # Bandit a1 kills Hugo b2; Maniac c3 is next to b2, the Bomber (f5) is not.
    s = game(bandit="Ada", undercover="Ines", maniac="Olga")
    do(s, "bandit", "kill b2")
    start = len(s.events)
    do(s, "undercover", "autopsy b2")
    evs = since(s, start)
    result = next(e for e in evs if e.kind == "autopsy-result")
    assert result.to == ("undercover",)
    assert result.data["mafia_adjacent"] == ["bandit", "maniac"]
    public = next(e for e in evs if e.kind == "autopsy")
    assert public.to is None and "mafia_adjacent" not in public.data
    assert s.state.view("undercover")["autopsies"][0]["mafia_adjacent"] == ["bandit", "maniac"]


def test_autopsy_needs_a_dead_adjacent_suspect():
    s = game(bandit="Ada", undercover="Jonas")  # d2: b2 is two cells away
    do(s, "bandit", "kill b2")
    assert options(s, "undercover", "autopsy") == set()
    refuse(s, "undercover", "autopsy b2")  # dead but not adjacent
    refuse(s, "undercover", "autopsy c2")  # adjacent but alive


# =============================================================================== inspect


def test_inspect_keeps_one_card_and_puts_the_other_at_the_bottom():
    s = game(detective="Vera", deck=["Pavel", "Quinn", "Nico"])  # d3, e3, b3
    advance_to(s, "detective")
    deck_before = len(s.state.deck)
    start = len(s.events)
    do(s, "detective", "inspect")
    st = s.state
    assert st.phase == "keep" and st.awaiting()[0].seat == "detective"
    assert st.inspecting == ["Pavel", "Quinn"]
    look = next(e for e in since(s, start) if e.kind == "inspect-look")
    assert look.to == ("detective",)
    assert sorted(st.legal_inputs("detective")) == ["keep d3", "keep e3", "surrender"]
    do(s, "detective", "keep d3")
    assert st.kept == ["Pavel"] and "Pavel" not in st.deck
    assert st.deck[0] == "Nico" and st.deck[-1] == "Quinn"
    assert len(st.deck) == deck_before - 1
    assert st.actor == "bomber"


def test_inspect_of_a_one_card_deck_shows_that_card_and_rebuilds_nothing():
    """The documented decision: a deck of one card shows that one (the deck is rebuilt only to
    find a first card, never a second)."""
    s = game(detective="Vera")
    advance_to(s, "detective")
    st = s.state
    st.deck[:] = ["Pavel"]  # test setup: the deck down to one card
    start = len(s.events)
    do(s, "detective", "inspect")
    assert st.inspecting == ["Pavel"] and "deck-rebuilt" not in kinds(since(s, start))
    assert sorted(st.legal_inputs("detective")) == ["keep d3", "surrender"]
    do(s, "detective", "keep d3")
    assert st.kept == ["Pavel"] and st.deck == [] and st.actor == "bomber"


def test_inspect_must_be_finished_before_anything_else():
    s = game(detective="Vera", deck=["Pavel", "Quinn"])
    advance_to(s, "detective")
    do(s, "detective", "inspect")
    refuse(s, "detective", "shift row 1 right")
    refuse(s, "detective", "arrest d4")
    refuse(s, "detective", "inspect", IllegalMoveError)
    refuse(s, "detective", "keep a1")  # not one of the two cards
    refuse(s, "bomber", "plant f5", NotYourTurnError)
    quinn = cell_name(s.state.pos["Quinn"])
    do(s, "detective", "keep quinn")  # by name works too
    assert s.state.kept == ["Quinn"]
    assert s.moves[-1].text == f"keep {quinn}"  # recorded by the card's cell, as a replay reads it


@pytest.mark.parametrize("form", ["cell", "name", "NAME"])
def test_the_inspected_card_is_kept_by_its_cell_or_by_its_name(form):
    """``keep CELL`` and ``keep NAME`` (in any case) keep the same card, recorded by its cell as
    ``legal`` lists it (docs/rules/fbi-vs-mafia.md); the awaiting hint names both forms (it
    said ``keep CELL`` only)."""
    s = game(detective="Vera", deck=["Pavel", "Quinn"])
    advance_to(s, "detective")
    do(s, "detective", "inspect")
    [awaiting] = s.state.awaiting()
    assert awaiting.hint == "detective: keep one of the 2 inspected cards (keep CELL | keep NAME)"
    quinn = cell_name(s.state.pos["Quinn"])
    assert f"keep {quinn}" in s.state.legal_inputs("detective")
    do(s, "detective", {"cell": f"keep {quinn}", "name": "keep Quinn", "NAME": "keep QUINN"}[form])
    assert s.state.kept == ["Quinn"] and s.moves[-1].text == f"keep {quinn}"


def test_surrender_is_accepted_in_the_middle_of_an_inspect():
    s = game(detective="Vera")
    advance_to(s, "detective")
    do(s, "detective", "inspect")
    do(s, "detective", "surrender")
    assert s.state.result.winner == "mafia" and s.state.result.reason == "surrender"


# =============================================================================== evidence


def test_evidence_reveals_an_unrevealed_hand_card_as_cleared():
    hand = ["Pavel", "Quinn", "Rosa", "Sami"]  # b3 c3 d3 e3 on 7x7
    s = game("standard-4v4", hand=hand)
    advance_to(s, "criminalist")
    assert options(s, "criminalist", "evidence") == {"b3", "c3", "d3", "e3"}
    refuse(s, "criminalist", "evidence a1")  # not in the hand
    start = len(s.events)
    do(s, "criminalist", "evidence c3")
    ev = next(e for e in since(s, start) if e.kind == "evidence")
    assert ev.to is None and ev.data["suspect"] == "Quinn"
    board = {c["cell"]: c for c in s.state.view("bandit")["board"]}
    assert board["c3"]["cleared"] is True and board["b3"]["cleared"] is False
    advance_to(s, "criminalist")
    assert options(s, "criminalist", "evidence") == {"b3", "d3", "e3"}
    refuse(s, "criminalist", "evidence c3")  # already revealed
    refuse(s, "criminalist", "evidence quinn")

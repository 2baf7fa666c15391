"""The FBI vs Mafia rules, one focused test per rule.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md. Positions are staged
with ``tests.helpers.fbi_game`` (recorded chance outcomes); tokens are sometimes put directly
on cards as test setup. Turns are advanced by real play (``advance_to``), where the characters
in between shift the bottom row, which no test uses.

Default 6x6 layout (3v3):           Default 7x7 layout (4v4):
    a    b     c    d     e     f        a     b     c     d     e     f     g
 1 Ada  Boris Cass Dario Edna  Felix  1 Ada   Boris Cass  Dario Edna  Felix Gia
 2 Gia  Hugo  Ines Jonas Kira  Leon   2 Hugo  Ines  Jonas Kira  Leon  Mara  Nico
 3 Mara Nico  Olga Pavel Quinn Rosa   3 Olga  Pavel Quinn Rosa  Sami  Tess  Ugo
 4 Sami Tess  Ugo  Vera  Wade  Xena   4 Vera  Wade  Xena  Yuri  Zora  Abel  Bea
 5 Yuri Zora  Abel Bea   Cyril Dora   5 Cyril Dora  Emil  Flora Gus   Hana  Ivo
 6 Emil Flora Gus  Hana  Ivo   Jade   6 Jade  Karl  Lena  Milo  Nora  Otto  Pia
                                      7 Rex   Sofia Theo  Uma   Vito  Wren  Zeno
"""

from __future__ import annotations

import itertools

import pytest

from arbiter.engine.bots import RandomBot
from arbiter.engine.errors import (
    AmbiguousMoveError,
    GameOverError,
    IllegalMoveError,
    InputError,
    NotYourTurnError,
    SyntaxInputError,
)
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia.grid import cell_name, cells as all_cells
from arbiter.engine.games.fbi_mafia.moves import parse_move
from arbiter.engine.session import Session
from tests.helpers import FBI, cell_of, fbi_game, kinds, names, refused, since, snapshot

# Parking places for the characters a test does not care about: the right-hand column and a5,
# far from the cells the tests use, never in the bottom row (which `advance_to` shifts).
BASE3 = dict(bandit="Felix", undercover="Leon", maniac="Rosa", detective="Xena", bomber="Dora",
             operative="Yuri")
BASE4 = dict(bandit="Gia", undercover="Nico", maniac="Ugo", detective="Bea", bomber="Ivo",
             operative="Pia", sniper="Otto", criminalist="Nora")


def game(mode: str = "standard-3v3", *, deck: list[str] | None = None, hand: list[str] | None = None,
         **ids: str) -> Session:
    """A game with every identity pinned: the test's ``ids`` over the parking places; ``deck``
    is the top of the identity deck after setup (the cards redraws and masquerades see first)."""
    base = BASE3 if mode.endswith("3v3") else BASE4
    chosen = {**base, **ids}
    assert len(set(chosen.values())) == len(chosen), f"two characters share an identity: {chosen}"
    taken = set(chosen.values()) | set(hand or [])
    assert not taken & set(deck or []), "a deck card is already an identity or in the hand"
    if hand is None and mode.endswith("4v4"):
        hand = [n for n in names(mode) if n not in taken][-4:]  # bottom-row names: unused
    return fbi_game(mode, identities=chosen, deck_rest=deck, hand=hand)


def at(s: Session, cell: str) -> str:
    """The suspect on ``cell`` now."""
    st = s.state
    r, c = int(cell[1:]) - 1, ord(cell[0]) - ord("a")
    return st.grid[r][c]


def seat(s: Session, character: str) -> str:
    return s.state.seat_of[character]


def do(s: Session, character: str, text: str) -> list:
    """``character``'s seat submits ``text``; returns the events it caused."""
    return s.submit(seat(s, character), text)






def refuse(s: Session, character: str, text: str, error: type[InputError] = IllegalMoveError) -> InputError:
    return refused(s, seat(s, character), text, error)


def pass_turn(s: Session) -> None:
    """The acting character makes a harmless move: protect its own card if it must take the
    protection step, shift the bottom row right, and (Maniac) threaten its last legal target."""
    st = s.state
    actor = st.actor
    me = seat(s, actor)
    if st.phase == "protection":
        own = f"protect {cell_of(s, st.identity[actor])}"
        legal = [o for o in st.legal_inputs(me) if o != "surrender"]
        s.submit(me, own if own in legal else legal[0])
    s.submit(me, f"shift row {st.size} right")
    if st.result is None and st.actor == actor and st.phase == "threat":
        singles = [o for o in st.legal_inputs(me) if o.startswith("threat ") and len(o.split()) == 2]
        s.submit(me, singles[-1])
    assert st.actor != actor


def advance_to(s: Session, character: str) -> None:
    """Pass turns until it is ``character``'s turn (its first phase, e.g. protection)."""
    for _ in range(len(s.state.characters)):
        if s.state.actor == character and s.state.prompt is None:
            return
        pass_turn(s)
    assert s.state.actor == character






def options(s: Session, character: str, verb: str) -> set[str]:
    """The cells (or words) listed in ``legal_inputs`` for ``verb`` by ``character``'s seat."""
    return {o.split(" ", 1)[1] for o in s.state.legal_inputs(seat(s, character)) if o.split()[0] == verb}


def tok(s: Session, cell: str) -> set[str]:
    return set(s.state.tokens[at(s, cell)])


def status(s: Session, cell: str) -> str:
    return s.state.status[at(s, cell)]


def put(s: Session, token: str, *cells: str) -> None:
    """Test setup: put ``token`` on the cards at ``cells``."""
    for c in cells:
        s.state.tokens[at(s, c)].add(token)


def protection_count(s: Session) -> int:
    return sum("protection" in c["tokens"] for c in s.state.view(HOST)["board"])


def kill_results(events) -> list:
    """The resolved kills (the action's announcement is also kind 'kill' but has no score)."""
    return [e for e in events if e.kind == "kill" and "kills" in e.data]


# =============================================================================== ranges


def test_bandit_kill_reach_at_a1_is_three_cells_no_wrap():
    s = game(bandit="Ada")
    assert options(s, "bandit", "kill") == {"a2", "b1", "b2"}
    for far in ("f1", "a6", "f6", "f2", "b6"):  # the wrap-around neighbours do not exist
        refuse(s, "bandit", f"kill {far}")
    refuse(s, "bandit", "kill a1")  # never its own cell
    do(s, "bandit", "kill b2")
    assert status(s, "b2") == "dead"


def test_detective_arrest_is_orthogonal_line_0_to_3_including_own_cell_not_diagonal():
    s = game(detective="Mara")  # a3
    advance_to(s, "detective")
    assert options(s, "detective", "arrest") == {"a3", "a1", "a2", "a4", "a5", "a6", "b3", "c3", "d3"}
    refuse(s, "detective", "arrest b2")  # diagonal neighbour
    refuse(s, "detective", "arrest b4")  # diagonal neighbour
    refuse(s, "detective", "arrest e3")  # 4 cells away
    start = len(s.events)
    do(s, "detective", "arrest d3")  # 3 cells away: a legal (failing) arrest
    assert kinds(since(s, start))[:2] == ["arrest-attempt", "arrest-failed"]


def test_detective_may_arrest_its_own_cell():
    s = game(detective="Mara")
    advance_to(s, "detective")
    start = len(s.events)
    do(s, "detective", "arrest a3")
    assert kinds(since(s, start))[:2] == ["arrest-attempt", "arrest-failed"]
    assert s.state.arrests == 0


def test_undercover_arrest_reaches_own_cell_and_all_eight_neighbours():
    s = game(undercover="Hugo")  # b2
    advance_to(s, "undercover")
    assert options(s, "undercover", "arrest") == {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}
    refuse(s, "undercover", "arrest d2")
    refuse(s, "undercover", "arrest b4")


def test_sniper_shoot_is_diagonal_1_to_3_only():
    s = game("standard-4v4", sniper="Quinn")  # c3 on 7x7
    advance_to(s, "sniper")
    assert options(s, "sniper", "shoot") == {"b2", "a1", "d2", "e1", "b4", "a5", "d4", "e5", "f6"}
    refuse(s, "sniper", "shoot g7")  # diagonal but 4 away
    for ortho in ("c2", "c4", "b3", "d3", "c5"):
        refuse(s, "sniper", f"shoot {ortho}")
    refuse(s, "sniper", "shoot c3")  # own cell
    do(s, "sniper", "shoot e5")
    assert status(s, "e5") == "dead"
    assert s.state.kills == 1


# =============================================================================== shifts


def test_shift_row_wraps_by_one_and_two():
    s = game()
    do(s, "bandit", "shift row 1 right")
    assert s.state.grid[0] == ["Felix", "Ada", "Boris", "Cass", "Dario", "Edna"]
    s = game()
    do(s, "bandit", "shift row 2 left 2")
    assert s.state.grid[1] == ["Ines", "Jonas", "Kira", "Leon", "Gia", "Hugo"]


def test_shift_column_wraps_by_one_and_two():
    s = game()
    do(s, "bandit", "shift col a down")
    assert [row[0] for row in s.state.grid] == ["Emil", "Ada", "Gia", "Mara", "Sami", "Yuri"]
    s = game()
    do(s, "bandit", "shift col b up 2")
    assert [row[1] for row in s.state.grid] == ["Nico", "Tess", "Zora", "Flora", "Boris", "Hugo"]


def test_shift_moves_identities_with_their_cards():
    s = game(bandit="Felix")
    do(s, "bandit", "shift row 1 right")
    assert s.state.identity["bandit"] == "Felix"
    assert s.state.view("bandit")["identities"]["bandit"]["cell"] == "a1"


def test_exact_reverse_of_last_shift_is_refused_same_direction_is_fine():
    s = game()
    do(s, "bandit", "shift row 2 right")
    assert "shift row 2 left" not in s.state.legal_inputs("undercover")
    err = refuse(s, "undercover", "shift row 2 left")
    assert "undo" in err.message
    do(s, "undercover", "shift row 2 right")  # a same-direction repeat is fine
    assert s.state.grid[1] == ["Kira", "Leon", "Gia", "Hugo", "Ines", "Jonas"]


def test_reverse_is_allowed_once_another_shift_came_between():
    s = game()
    do(s, "bandit", "shift row 2 right")
    do(s, "undercover", "shift row 3 right")
    do(s, "maniac", "shift row 2 left")
    assert s.state.grid[1] == names()[6:12]


def test_reverse_ban_holds_for_the_very_next_shift_even_after_a_non_shift_turn():
    s = game()
    do(s, "bandit", "shift row 2 right")  # Leon (undercover) wraps to a2
    do(s, "undercover", "arrest a2")  # not a shift
    refuse(s, "maniac", "shift row 2 left")


def test_reverse_ban_compares_distance_two():
    s = game()
    advance_to(s, "operative")
    pass_protection = f"protect {cell_of(s, 'Yuri')}"
    do(s, "operative", pass_protection)
    do(s, "operative", "shift row 1 right 2")
    refuse(s, "bandit", "shift row 1 left 2")  # the exact reverse
    do(s, "bandit", "shift row 1 left")  # same line, other distance: not the exact reverse
    assert s.state.grid[0] == ["Felix", "Ada", "Boris", "Cass", "Dario", "Edna"]


def test_shift_distances_per_role():
    s = game("standard-4v4")
    expected = {"bandit": {1, 2}, "undercover": {1}, "maniac": {1}, "detective": {1}, "bomber": {1},
                "operative": {1, 2}, "sniper": {1, 2}, "criminalist": {1}}
    for character in s.state.characters:
        st = s.state
        assert st.actor == character
        if st.phase == "protection":
            do(s, character, f"protect {cell_of(s, st.identity[character])}")
        shifts = [o.split() for o in st.legal_inputs(character) if o.startswith("shift ")]
        assert {int(w[4]) if len(w) == 5 else 1 for w in shifts} == expected[character]
        dist = " [1|2]" if 2 in expected[character] else ""
        form = f"shift row N left|right{dist}  or  shift col X up|down{dist}"  # in every list of its forms
        other = "arrest a1" if character == "bomber" else "plant a1"
        assert form in refuse(s, character, other).allowed
        if 2 in expected[character]:
            do(s, character, "shift row 7 right 2")
        else:
            err = refuse(s, character, "shift row 7 right 2")
            assert (err, err.allowed) == (f"shift row 7 right 2: the {character} shifts by 1", (form,))
            do(s, character, "shift row 7 right")
        if st.phase == "threat":
            do(s, character, [o for o in st.legal_inputs(character) if o.startswith("threat ")][-1])


def test_turn_order_and_action_sets_per_role():
    s = game("standard-4v4")
    table = {
        "bandit": {"shift", "kill", "masquerade"},
        "undercover": {"shift", "arrest", "defuse", "masquerade", "autopsy"},
        "maniac": {"shift", "swap"},
        "detective": {"shift", "arrest", "defuse", "inspect"},
        "bomber": {"shift", "plant", "detonate"},
        "operative": {"shift", "arrest", "defuse"},
        "sniper": {"shift", "shoot", "prepare"},
        "criminalist": {"shift", "arrest", "defuse", "evidence"},
    }
    seen = []
    for _ in range(8):
        st = s.state
        actor = st.actor
        seen.append(actor)
        if st.phase == "protection":
            do(s, actor, f"protect {cell_of(s, st.identity[actor])}")
        assert set(st.action_verbs()) == table[actor]
        for verb in {"kill", "arrest", "shoot", "plant", "detonate", "autopsy"} - table[actor]:
            refuse(s, actor, f"{verb} d4")
        pass_turn(s)
    assert seen == list(table)
    assert s.state.actor == "bandit"  # and round again


@pytest.mark.parametrize("character", ["operative", "criminalist"])
def test_other_arrests_reach_own_cell_and_all_eight_neighbours(character):
    s = game("standard-4v4", **{character: "Wade"})  # b4 on 7x7
    advance_to(s, character)
    if s.state.phase == "protection":
        do(s, character, "protect b4")
    assert options(s, character, "arrest") == {"a3", "b3", "c3", "a4", "b4", "c4", "a5", "b5", "c5"}
    refuse(s, character, "arrest b6")
    refuse(s, character, "arrest d4")


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


# =============================================================================== kill, shoot


def test_kill_adjacent_citizen_scores_one():
    s = game(bandit="Olga")  # c3
    assert options(s, "bandit", "kill") == {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}
    refuse(s, "bandit", "kill c3")
    refuse(s, "bandit", "kill e3")
    start = len(s.events)
    do(s, "bandit", "kill d4")
    assert status(s, "d4") == "dead"
    assert s.state.kills == 1
    [k] = kill_results(since(s, start))
    assert k.data["character"] is None and k.to is None


def test_kill_target_must_be_living():
    s = game(bandit="Zora", undercover="Jonas")  # b5
    do(s, "bandit", "kill a4")
    advance_to(s, "bandit")
    refuse(s, "bandit", "kill a4")  # already dead


# =============================================================================== swap


def test_swap_diagonal_neighbours_anywhere_tokens_travel():
    s = game(maniac="Olga")
    put(s, "bomb", "a1")  # on Ada
    advance_to(s, "maniac")
    do(s, "maniac", "swap a1 b2")
    st = s.state
    assert at(s, "a1") == "Hugo" and at(s, "b2") == "Ada"
    assert tok(s, "b2") == {"bomb"} and tok(s, "a1") == set()
    assert st.phase == "threat" and st.actor == "maniac"


def test_swap_includes_dead_cards():
    s = game(bandit="Zora", maniac="Olga")  # b5
    do(s, "bandit", "kill a4")  # Sami dies
    advance_to(s, "maniac")
    do(s, "maniac", "swap a4 b3")
    assert at(s, "b3") == "Sami" and status(s, "b3") == "dead"
    assert at(s, "a4") == "Nico" and status(s, "a4") == "alive"


def test_swap_of_non_adjacent_cards_is_refused():
    s = game(maniac="Olga")
    advance_to(s, "maniac")
    refuse(s, "maniac", "swap a1 c1")
    refuse(s, "maniac", "swap a1 a1")
    refuse(s, "maniac", "swap a1 f1")  # no wrap-around


# =============================================================================== bombs


def test_plant_on_own_or_adjacent_cell_without_a_bomb():
    s = game(bomber="Olga")  # c3
    put(s, "bomb", "b2")
    advance_to(s, "bomber")
    assert options(s, "bomber", "plant") == {"c2", "d2", "b3", "c3", "d3", "b4", "c4", "d4"}
    refuse(s, "bomber", "plant b2")  # already has a bomb
    refuse(s, "bomber", "plant e3")  # two cells away
    do(s, "bomber", "plant c3")
    assert tok(s, "c3") == {"bomb"}


def test_detonate_any_bomb_anywhere():
    s = game(bomber="Olga")
    put(s, "bomb", "e1")
    advance_to(s, "bomber")
    refuse(s, "bomber", "detonate d1")  # no bomb there
    do(s, "bomber", "detonate e1")
    assert status(s, "e1") == "dead" and s.state.kills == 1


def test_detonation_chains_onward_through_three_cards():
    s = game(bomber="Cyril")  # e5
    put(s, "bomb", "a1", "b2", "c3", "e1")  # a1-b2-c3 chain; c3 is not next to a1; e1 is apart
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "detonate a1")
    assert [status(s, c) for c in ("a1", "b2", "c3")] == ["dead"] * 3
    assert status(s, "e1") == "alive" and tok(s, "e1") == {"bomb"}
    assert status(s, "b1") == "alive"  # a neighbour without a bomb is spared
    assert s.state.kills == 3
    evs = since(s, start)
    assert [e.data["cell"] for e in evs if e.kind == "explosion"] == ["a1", "b2", "c3"]


# =============================================================================== prepare


def test_prepare_moves_a_token_to_an_adjacent_living_token_free_card():
    s = game("standard-4v4", sniper="Yuri")
    put(s, "protection", "b2")
    advance_to(s, "sniper")
    do(s, "sniper", "prepare b2 c2")
    assert tok(s, "b2") == set() and tok(s, "c2") == {"protection"}


def test_prepare_refuses_occupied_dead_and_far_destinations():
    s = game("standard-4v4", sniper="Yuri", bandit="Olga")  # bandit a3
    do(s, "bandit", "kill a2")  # Hugo dies
    put(s, "protection", "b2")
    put(s, "threat", "c2")
    advance_to(s, "sniper")
    refuse(s, "sniper", "prepare b2 c2")  # c2 carries a token
    refuse(s, "sniper", "prepare b2 a2")  # a2 is dead
    refuse(s, "sniper", "prepare b2 d2")  # not adjacent to b2
    refuse(s, "sniper", "prepare d5 d6")  # d5 carries no token
    assert "b2 c2" not in options(s, "sniper", "prepare")
    assert "b2 a2" not in options(s, "sniper", "prepare")
    assert "b2 b1" in options(s, "sniper", "prepare")


def test_prepare_must_name_the_token_when_the_source_has_several():
    s = game("standard-4v4", sniper="Yuri")
    put(s, "protection", "b2")
    put(s, "bomb", "b2")
    advance_to(s, "sniper")
    refuse(s, "sniper", "prepare b2 b1", AmbiguousMoveError)
    do(s, "sniper", "prepare b2 b1 bomb")
    assert tok(s, "b1") == {"bomb"} and tok(s, "b2") == {"protection"}


# =============================================================================== Operative's step


def test_operative_must_place_or_remove_protection_before_acting():
    s = game(operative="Olga")  # c3
    advance_to(s, "operative")
    st = s.state
    assert st.phase == "protection" and st.awaiting()[0].kind == "protection"
    refuse(s, "operative", "arrest c3")
    refuse(s, "operative", "shift row 1 right")
    refuse(s, "operative", "protect e5")  # not own or adjacent
    do(s, "operative", "protect d4")
    assert tok(s, "d4") == {"protection"}
    assert st.phase == "action" and st.actor == "operative"
    refuse(s, "operative", "protect c3")  # only one step per turn
    do(s, "operative", "arrest b2")
    assert st.actor == "bandit"


def test_operative_may_skip_its_protection_step():
    """The source says "or skip": a public input of the step, listed in legal, with an event."""
    s = game(operative="Olga")  # c3
    advance_to(s, "operative")
    st = s.state
    assert "skip" in st.legal_inputs("operative") and "protection" in st.awaiting()[0].hint
    assert "skip" in st.awaiting()[0].hint
    start = len(s.events)
    do(s, "operative", "skip")
    evs = since(s, start)
    assert [(e.kind, e.text, e.to) for e in evs] == [("skip", "The operative skips its protection step.", None)]
    assert st.phase == "action" and st.actor == "operative" and protection_count(s) == 0
    assert "skip" not in st.legal_inputs("operative")
    err = refuse(s, "operative", "skip")  # the step is over
    assert "cannot skip" in err.message
    do(s, "operative", "arrest b2")
    assert st.actor == "bandit"
    assert s.moves[-2].text == "skip"


def test_skip_belongs_to_the_protection_step_only():
    s = game(operative="Olga", maniac="Abel")
    refuse(s, "bandit", "skip")  # an action turn
    refuse(s, "operative", "skip", NotYourTurnError)
    refuse(s, "bandit", "skip now", SyntaxInputError)
    advance_to(s, "maniac")
    do(s, "maniac", "shift row 6 right")
    assert s.state.phase == "threat"
    refuse(s, "maniac", "skip")  # the threat step must be taken


def test_a_refused_protection_offers_the_skip():
    s = game(operative="Olga")
    advance_to(s, "operative")
    err = refuse(s, "operative", "protect e5")
    assert err.allowed[-1] == "skip" and "protect d4" in err.allowed
    err = refuse(s, "operative", "arrest c3")
    assert "or skip" in err.message and "skip" in err.allowed


def test_protection_cap_is_six_the_seventh_is_refused():
    s = game(operative="Olga")
    put(s, "protection", "a1", "e1", "f2", "a5", "e5")  # 5, all away from c3
    advance_to(s, "operative")
    do(s, "operative", "protect d4")  # the 6th is fine
    assert protection_count(s) == 6
    do(s, "operative", "shift row 6 right")
    advance_to(s, "operative")
    assert s.state.phase == "protection"
    assert options(s, "operative", "protect") == set()
    assert options(s, "operative", "unprotect") == {"d4"}
    err = refuse(s, "operative", "protect b2")
    assert "6 protection tokens" in err.message
    do(s, "operative", "unprotect d4")
    assert protection_count(s) == 5


def test_protection_step_is_skipped_when_neither_is_legal():
    s = game(operative="Olga")
    put(s, "protection", "a1", "e1", "f2", "a5", "e5", "f1")  # 6, none near c3
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "shift row 6 right")
    st = s.state
    assert st.actor == "operative" and st.phase == "action"
    assert kinds(since(s, start))[-2:] == ["turn", "protection-skipped"]
    do(s, "operative", "arrest b2")


# =============================================================================== Maniac


def test_maniac_must_place_threats_in_line_never_twice():
    s = game(maniac="Olga", bandit="Abel")  # c3; the Bandit is c5
    put(s, "threat", "e3")
    advance_to(s, "maniac")
    do(s, "maniac", "shift row 6 right")
    st = s.state
    assert st.phase == "threat"
    singles = {o.split()[1] for o in st.legal_inputs("maniac") if o.startswith("threat ") and len(o.split()) == 2}
    # c5 is the Bandit's identity, which the Maniac's seat does not know in Standard
    assert singles == {"c1", "c2", "c4", "c5", "c6", "a3", "b3", "d3", "f3"}
    refuse(s, "maniac", "threat e3")  # already threatened
    refuse(s, "maniac", "threat c2 c2")  # twice on one card
    refuse(s, "maniac", "threat b2")  # diagonal
    refuse(s, "maniac", "threat a1")
    refuse(s, "maniac", "threat a3 b3 c2 d3", SyntaxInputError)  # more than 3
    refuse(s, "maniac", "swap a1 b1")  # nothing else until the threats are placed
    do(s, "maniac", "threat c2 f3 c4")
    assert {n for n in st.suspects if "threat" in st.tokens[n]} == {"Ines", "Rosa", "Ugo", "Quinn"}
    assert st.actor == "detective"


def test_standard_maniac_threatens_a_teammate_it_cannot_recognise():
    """Standard, seed 1: the Bomber's identity (e3) is in line with the Maniac's (e5). Its seat
    does not know its teammates, so neither its legal inputs nor a refusal may single e3 out."""
    s = Session(FBI, "standard-3v3", seed=1)
    st = s.state
    assert (cell_of(s, st.identity["maniac"]), cell_of(s, st.identity["bomber"])) == ("e5", "e3")
    s.submit("bandit", "shift row 6 right")
    s.submit("undercover", "shift row 6 right")
    s.submit("maniac", "shift row 1 left")
    assert st.phase == "threat"
    assert "threat e3" in st.legal_inputs("maniac")
    events = s.submit("maniac", "threat e3")
    assert "threat" in st.tokens[st.identity["bomber"]]
    assert [e.kind for e in events][:2] == ["threat", "turn"]


def test_duel_maniac_never_threatens_its_team():
    """In Duel the seat knows its whole team: the exclusion stays, and says whose identity it is."""
    s = game("duel-3v3", maniac="Olga", bandit="Abel")  # c3; the Bandit is c5
    advance_to(s, "maniac")
    do(s, "maniac", "shift row 6 right")
    st = s.state
    assert st.phase == "threat"
    singles = {o.split()[1] for o in st.legal_inputs("mafia") if o.startswith("threat ") and len(o.split()) == 2}
    assert singles == {"c1", "c2", "c4", "c6", "a3", "b3", "d3", "e3", "f3"}
    err = refuse(s, "maniac", "threat c5")
    assert err.message == "threat c5: c5 is the bandit's identity: the Maniac never threatens its own team"
    do(s, "maniac", "threat c4")


def test_a_threat_placed_on_a_teammate_is_friendly_fire():
    """Standard: the Maniac threatens the Bandit's card next to its own; at the start of its next
    turn the threat kills it, which counts as an FBI arrest (no kill), as the Bandit's would."""
    s = game(maniac="Olga", bandit="Ugo", deck=["Nico"])  # c3; the Bandit is c4
    advance_to(s, "maniac")
    do(s, "maniac", "shift row 6 right")
    do(s, "maniac", "threat c4")
    start = len(s.events)
    advance_to(s, "maniac")
    st = s.state
    evs = since(s, start)
    assert [e.kind for e in evs if e.kind in ("threat-kill", "friendly-fire", "arrest", "kill")] == [
        "threat-kill", "friendly-fire", "arrest"]
    assert st.status["Ugo"] == "arrested" and (st.arrests, st.kills) == (1, 0)
    assert st.identity["bandit"] == "Nico"


def test_threats_kill_adjacent_threatened_at_maniac_turn_start_before_its_action():
    s = game(maniac="Olga")  # c3
    put(s, "threat", "b3", "d4", "a1", "e3")  # b3, d4 adjacent; a1, e3 are not
    advance_to(s, "undercover")
    start = len(s.events)
    do(s, "undercover", "shift row 6 right")
    evs = since(s, start)
    assert [e.kind for e in evs if e.kind in ("turn", "threat-kill")] == ["turn", "threat-kill", "threat-kill"]
    assert evs[[e.kind for e in evs].index("turn")].data["character"] == "maniac"
    assert status(s, "b3") == "dead" and status(s, "d4") == "dead"
    assert status(s, "a1") == "alive" and status(s, "e3") == "alive"
    assert tok(s, "e3") == {"threat"}
    assert s.state.kills == 2
    assert s.state.actor == "maniac" and s.state.phase == "action"


# =============================================================================== kill resolution


def test_protect_interrupt_in_row_yes_cancels_the_kill_and_removes_the_token():
    s = game(bandit="Olga", operative="Mara")  # c3 kills d3; Operative a3 shares row 3
    put(s, "protection", "d3")
    start = len(s.events)
    do(s, "bandit", "kill d3")
    st = s.state
    assert [(a.seat, a.kind) for a in st.awaiting()] == [("operative", "protect")]
    assert sorted(st.legal_inputs("operative")) == ["protect no", "protect yes", "surrender"]
    offered = next(e for e in since(s, start) if e.kind == "protect-offered")
    assert offered.to is None
    refuse(s, "undercover", "shift row 6 right", NotYourTurnError)
    assert refuse(s, "operative", "protect d3") == "the operative must first answer: protect yes|no"
    do(s, "operative", "protect yes")
    assert status(s, "d3") == "alive" and tok(s, "d3") == set()
    assert st.kills == 0
    assert st.actor == "undercover" and st.phase == "action"


def test_protect_interrupt_no_lets_the_kill_happen():
    s = game(bandit="Olga", operative="Mara")
    put(s, "protection", "d3")
    do(s, "bandit", "kill d3")
    do(s, "operative", "protect no")
    assert status(s, "d3") == "dead" and tok(s, "d3") == set()
    assert s.state.kills == 1


def test_no_protect_prompt_when_operative_not_in_victims_row():
    s = game(bandit="Olga", operative="Bea")  # Operative d5: same column as d3, not row
    put(s, "protection", "d3")
    start = len(s.events)
    do(s, "bandit", "kill d3")
    assert "protect-offered" not in kinds(since(s, start))
    assert status(s, "d3") == "dead" and s.state.kills == 1
    assert s.state.actor == "undercover"


def test_protect_interrupt_comes_before_the_friendly_fire_check():
    s = game(bandit="Olga", maniac="Pavel", operative="Mara")  # d3 is the Maniac; a3 in row 3
    put(s, "protection", "d3")
    do(s, "bandit", "kill d3")
    assert s.state.awaiting()[0].kind == "protect"
    assert s.state.status["Pavel"] == "alive" and s.state.arrests == 0
    do(s, "operative", "protect no")
    assert s.state.status["Pavel"] == "arrested" and (s.state.arrests, s.state.kills) == (1, 0)


def test_an_arrest_is_not_a_kill_so_no_protect_prompt():
    s = game(undercover="Boris", bandit="Ines", operative="Kira")  # c2; the Operative e2 in row 2
    put(s, "protection", "c2")
    advance_to(s, "undercover")
    start = len(s.events)
    do(s, "undercover", "arrest c2")
    assert "protect-offered" not in kinds(since(s, start))
    assert s.state.status["Ines"] == "arrested" and s.state.actor == "maniac"


def test_friendly_fire_kill_becomes_fbi_arrest():
    s = game(bandit="Olga", maniac="Vera", deck=["Nico"])  # c3 kills d4 = the Maniac
    start = len(s.events)
    do(s, "bandit", "kill d4")
    st = s.state
    assert st.status["Vera"] == "arrested"
    assert (st.arrests, st.kills) == (1, 0)
    assert st.identity["maniac"] == "Nico"
    evs = since(s, start)
    assert "friendly-fire" in kinds(evs) and "arrest" in kinds(evs)
    assert kill_results(evs) == []


def test_friendly_fire_detonation_becomes_fbi_arrest():
    s = game(bomber="Olga", bandit="Edna", deck=["Nico"])
    put(s, "bomb", "e1")
    advance_to(s, "bomber")
    do(s, "bomber", "detonate e1")
    st = s.state
    assert st.status["Edna"] == "arrested" and (st.arrests, st.kills) == (1, 0)
    assert st.identity["bandit"] == "Nico"


def test_friendly_fire_shoot_becomes_fbi_arrest():
    s = game("standard-4v4", sniper="Quinn", bomber="Gus")  # c3 shoots e5 = the Bomber
    advance_to(s, "sniper")
    do(s, "sniper", "shoot e5")
    st = s.state
    assert st.status["Gus"] == "arrested" and (st.arrests, st.kills) == (1, 0)


def test_friendly_fire_threat_becomes_fbi_arrest():
    # The Bomber's card carries a threat (it was threatened before it became the Bomber's).
    s = game(maniac="Olga", bomber="Pavel", deck=["Nico"])  # d3 next to c3
    put(s, "threat", "d3")
    advance_to(s, "maniac")
    st = s.state
    assert st.status["Pavel"] == "arrested" and (st.arrests, st.kills) == (1, 0)
    assert st.identity["bomber"] == "Nico"


def test_killing_an_fbi_identity_scores_two_and_the_character_redraws():
    s = game(bandit="Olga", detective="Vera", deck=["Nico"])
    start = len(s.events)
    do(s, "bandit", "kill d4")
    st = s.state
    assert st.status["Vera"] == "dead" and st.kills == 2 and st.arrests == 0
    assert st.identity["detective"] == "Nico"
    evs = since(s, start)
    [k] = kill_results(evs)
    assert k.to is None and k.data["character"] == "detective"  # whose identity it was is public
    assert any(e.kind == "identity" and e.to == ("detective",) and e.data["suspect"] == "Nico" for e in evs)


def test_redraw_skips_dead_cards():
    s = game(bomber="Cyril", detective="Hugo", deck=["Ada", "Nico"])  # Ada is the deck's top
    put(s, "bomb", "a1", "b2")
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "detonate a1")  # Ada (citizen) dies, then Hugo (the Detective)
    st = s.state
    assert st.kills == 3
    assert st.identity["detective"] == "Nico"
    assert "Ada" in st.discard
    skipped = next(e for e in since(s, start) if e.kind == "draw-skipped")
    assert skipped.data["skipped"] == ["Ada"]


def test_a_kill_strips_every_token():
    s = game(bandit="Olga")  # the Operative (a5) is not in row 4
    put(s, "protection", "d4")
    put(s, "bomb", "d4")
    put(s, "threat", "d4")
    do(s, "bandit", "kill d4")
    assert status(s, "d4") == "dead" and tok(s, "d4") == set()


def test_an_arrest_strips_every_token():
    s = game(undercover="Boris", bandit="Ines")
    put(s, "protection", "c2")
    put(s, "threat", "c2")
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    assert s.state.status["Ines"] == "arrested" and s.state.tokens["Ines"] == set()


def test_post_arrest_detonate_yes_chains_before_tokens_are_stripped():
    s = game(undercover="Boris", bandit="Ines")  # c2; bombs chain c2-c3-d4
    put(s, "bomb", "c2", "c3", "d4")
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    st = s.state
    assert [(a.seat, a.kind) for a in st.awaiting()] == [("bomber", "detonate")]
    assert st.status["Ines"] == "arrested" and "bomb" in st.tokens["Ines"]  # not stripped yet
    refuse(s, "maniac", "shift row 6 right", NotYourTurnError)
    do(s, "bomber", "detonate yes")
    assert status(s, "c3") == "dead" and status(s, "d4") == "dead"
    assert st.status["Ines"] == "arrested" and st.tokens["Ines"] == set()
    assert (st.arrests, st.kills) == (1, 2)
    assert st.actor == "maniac"


def test_post_arrest_detonate_no_strips_the_tokens_and_kills_nobody():
    s = game(undercover="Boris", bandit="Ines")
    put(s, "bomb", "c2", "c3", "d4")
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    do(s, "bomber", "detonate no")
    st = s.state
    assert st.tokens["Ines"] == set() and st.kills == 0
    assert tok(s, "c3") == {"bomb"} and status(s, "c3") == "alive"


# =============================================================================== winning


@pytest.mark.parametrize("mode,arrests,kills", [
    ("standard-3v3", 4, 18), ("duel-3v3", 4, 18), ("standard-4v4", 5, 22), ("duel-4v4", 5, 22)])
def test_thresholds_per_mode(mode, arrests, kills):
    score = fbi_game(mode).state.score()
    assert (score["arrests_to_win"], score["kills_to_win"]) == (arrests, kills)


def default_at(mode: str, cell: str) -> str:
    """The suspect on ``cell`` in the default layout of ``mode``."""
    size = 7 if mode.endswith("4v4") else 6
    return names(mode)[(int(cell[1:]) - 1) * size + ord(cell[0]) - ord("a")]


@pytest.mark.parametrize("mode,preset,ends", [
    ("standard-3v3", 2, False), ("standard-3v3", 3, True), ("duel-3v3", 3, True),
    ("standard-4v4", 3, False), ("standard-4v4", 4, True), ("duel-4v4", 4, True)])
def test_arrest_threshold_ends_the_game_at_once(mode, preset, ends):
    # The Undercover on b1 arrests the Bandit on c2.
    s = game(mode, undercover="Boris", bandit=default_at(mode, "c2"))
    s.state.arrests = preset
    advance_to(s, "undercover")
    do(s, "undercover", "arrest c2")
    st = s.state
    assert st.arrests == preset + 1
    if ends:
        assert (st.result.winner, st.result.reason) == ("fbi", "arrests")
        assert st.awaiting() == [] and st.legal_inputs(seat(s, "maniac")) == []
        with pytest.raises(GameOverError):
            do(s, "maniac", "shift row 1 right")
    else:
        assert st.result is None and st.actor == "maniac"


@pytest.mark.parametrize("mode", ["standard-3v3", "duel-3v3", "standard-4v4", "duel-4v4"])
def test_kill_threshold_ends_the_game_in_the_middle_of_a_chain(mode):
    # Real play: bombs on every card of rows 1-4 (24 or 28 citizens); one detonation chains
    # through all of them, but the game must stop at exactly the kill threshold.
    size = 7 if mode.endswith("4v4") else 6
    pool = names(mode)
    spare = pool[4 * size:]  # rows 5+ hold the identities
    chars = ["bandit", "undercover", "maniac", "detective", "bomber", "operative", "sniper", "criminalist"]
    ids = dict(zip(chars[: 6 if size == 6 else 8], spare))
    s = game(mode, **ids)
    for n in pool[: 4 * size]:
        s.state.tokens[n].add("bomb")
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "detonate a1")
    st = s.state
    target = st.mode.win_kills
    assert st.kills == target
    assert (st.result.winner, st.result.reason) == ("mafia", "kills")
    assert len(kill_results(since(s, start))) == target
    assert sum(st.status[n] == "dead" for n in pool) == target
    still = [n for n in pool[: 4 * size] if st.status[n] == "alive"]
    assert len(still) == 4 * size - target and all("bomb" in st.tokens[n] for n in still)


def test_arrest_threshold_ends_the_game_in_the_middle_of_a_chain():
    # Chain a1 (citizen) -> b2 (the Bandit: friendly fire, FBI's 4th arrest) -> c3 (citizen).
    s = game(bomber="Cyril", bandit="Hugo")
    put(s, "bomb", "a1", "b2", "c3")
    s.state.arrests = 3
    advance_to(s, "bomber")
    do(s, "bomber", "detonate a1")
    st = s.state
    assert (st.result.winner, st.result.reason) == ("fbi", "arrests")
    assert (st.arrests, st.kills) == (4, 1)
    assert status(s, "c3") == "alive" and tok(s, "c3") == {"bomb"}


def test_fbi_identity_bonus_can_cross_the_kill_threshold():
    s = game(bandit="Olga", detective="Vera")
    s.state.kills = 16
    do(s, "bandit", "kill d4")
    st = s.state
    assert st.kills == 18 and (st.result.winner, st.result.reason) == ("mafia", "kills")
    assert st.identity["detective"] == "Vera"  # the game ended before any redraw


# =============================================================================== surrender


def test_any_standard_seat_may_surrender_out_of_turn_for_its_whole_team():
    s = game()
    assert s.state.legal_inputs("detective") == ["surrender"]
    start = len(s.events)
    do(s, "detective", "surrender")  # the Bandit is to act
    r = s.state.result
    assert (r.winner, r.reason) == ("mafia", "surrender")
    assert set(r.winners) == {"bandit", "maniac", "bomber"}
    assert "surrender" in kinds(since(s, start))
    with pytest.raises(GameOverError):
        do(s, "bandit", "kill b2")


def test_surrender_during_an_interrupt():
    s = game(bandit="Olga", operative="Mara")
    put(s, "protection", "d3")
    do(s, "bandit", "kill d3")
    assert s.state.awaiting()[0].kind == "protect"
    do(s, "bomber", "surrender")
    assert (s.state.result.winner, s.state.result.reason) == ("fbi", "surrender")
    assert status(s, "d3") == "alive"


def test_duel_seats_act_for_whichever_character_is_up_and_may_surrender():
    s = game("duel-3v3", bandit="Ada", undercover="Hugo")
    assert s.seats == ("mafia", "fbi")
    refused(s, "fbi", "arrest a1", NotYourTurnError)
    s.submit("mafia", "shift row 6 right")  # the Bandit
    assert s.state.actor == "undercover" and s.state.awaiting()[0].seat == "fbi"
    refused(s, "mafia", "shift row 6 right", NotYourTurnError)
    s.submit("fbi", "arrest a1")  # the Undercover arrests the Bandit
    assert s.state.arrests == 1
    s.submit("fbi", "surrender")  # out of turn: the Maniac is up
    r = s.state.result
    assert (r.winner, r.reason, r.winners) == ("mafia", "surrender", ("mafia",))


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
    ("", SyntaxInputError), ("dance", SyntaxInputError), ("kill", SyntaxInputError),
    ("kill z9", SyntaxInputError), ("kill h1", SyntaxInputError), ("shift row 8 right", SyntaxInputError),
    ("shift row 1 right 3", SyntaxInputError), ("shift diag 1 right", SyntaxInputError),
    ("shift col a left", SyntaxInputError), ("shift col h up", SyntaxInputError), ("threat", SyntaxInputError),
    ("threat a1 a2 a3 a4", SyntaxInputError), ("defuse a1 protection", SyntaxInputError),
    ("protect maybe", SyntaxInputError), ("masquerade now", SyntaxInputError),
    ("evidence a1", IllegalMoveError), ("shoot c5", IllegalMoveError), ("prepare a1 b1", IllegalMoveError),
    ("swap a1 c3", IllegalMoveError), ("keep a1", IllegalMoveError), ("arrest f6", IllegalMoveError),
    ("kill f6", IllegalMoveError), ("plant f6", IllegalMoveError), ("unprotect f6", IllegalMoveError),
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
            refused(s, who, text, error if error is SyntaxInputError else (IllegalMoveError, AmbiguousMoveError))
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

"""The FBI vs Mafia rules, one focused test per rule: the Mafia's actions (kill, swap, plant and
detonate, prepare) and the Operative's protection step.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

from arbiter.engine.errors import AmbiguousMoveError, NotYourTurnError, SyntaxInputError

from tests.helpers import kinds, since
from tests.fbi_staging import (
    advance_to,
    at,
    do,
    game,
    kill_results,
    options,
    protection_count,
    put,
    refuse,
    seat,
    status,
    tok,
)


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


def test_a_refused_swap_offers_the_swaps_of_its_first_card():
    """It offered "(none now)", when every swap of neighbours is legal."""
    s = game(maniac="Olga")
    advance_to(s, "maniac")
    wrong = refuse(s, "maniac", "swap c3 a1")
    assert wrong.error.allowed == ("swap b2 c3", "swap c2 c3", "swap d2 c3", "swap b3 c3", "swap c3 d3",
                                   "swap c3 b4", "swap c3 c4", "swap c3 d4")  # as legal writes them
    assert set(wrong.error.allowed) <= set(s.state.legal_inputs(seat(s, "maniac")))


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


def test_a_protected_card_still_passes_the_blast_on():
    """The documented decision: protecting a card from its own bomb's blast cancels its kill,
    but its bomb went off, so the chain goes on to its neighbours."""
    s = game(operative="Mara")  # a3: the Operative's identity shares row 3
    put(s, "bomb", "c3", "d3")
    put(s, "protection", "c3")
    advance_to(s, "bomber")
    do(s, "bomber", "detonate c3")
    st = s.state
    assert [(a.seat, a.kind) for a in st.awaiting()] == [("operative", "protect")]
    do(s, "operative", "protect yes")
    assert status(s, "c3") == "alive" and tok(s, "c3") == set()  # bomb spent, token used
    assert status(s, "d3") == "dead" and st.kills == 1
    assert st.actor == "operative"


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


def test_protection_step_is_asked_even_when_only_skip_is_legal():
    """Six tokens, none within reach of the Operative's identity: neither protect nor unprotect
    is legal, and the step is asked all the same, with skip. It was skipped automatically, and
    announced: every seat learnt that no token lay near the identity (the twin test below)."""
    s = game(operative="Olga")
    put(s, "protection", "a1", "e1", "f2", "a5", "e5", "f1")  # 6, none near c3
    advance_to(s, "bomber")
    start = len(s.events)
    do(s, "bomber", "shift row 6 right")
    st = s.state
    assert st.actor == "operative" and st.phase == "protection"
    assert kinds(since(s, start))[-1] == "turn"
    assert options(s, "operative", "protect") == set() and options(s, "operative", "unprotect") == set()
    assert st.legal_inputs("operative")[0] == "skip"
    refuse(s, "operative", "arrest b2")
    do(s, "operative", "skip")
    do(s, "operative", "arrest b2")
    assert st.actor == "bandit"


def test_whether_the_operative_can_reach_a_token_is_no_other_seats_business():
    """Twins that differ only in where the Operative's identity lies (a5: no token within reach;
    a3: next to a2 and b2), the board at the cap of six: every other seat sees the same events,
    view and awaiting as the Operative's turn begins."""
    seen = []
    for operative in ("Yuri", "Mara"):
        s = game(operative=operative)
        put(s, "protection", "a1", "b1", "c1", "a2", "b2", "c2")
        advance_to(s, "bomber")
        do(s, "bomber", "shift row 6 right")
        seen.append({seat: ([(e.kind, e.text) for e in s.events.visible_to(seat)], s.state.view(seat),
                            s.state.awaiting_seen_by(seat)) for seat in ("bandit", "maniac", "bomber", "undercover")})
    assert seen[0] == seen[1]

"""The FBI vs Mafia rules, one focused test per rule: the Maniac's threats, and how a kill resolves.

Authority: the rules as implemented, docs/rules/fbi-vs-mafia.md; how positions are staged (every
input under test through ``Session.submit``): ``tests/fbi_staging.py``.
"""

from __future__ import annotations

from arbiter.engine.errors import NotYourTurnError, SyntaxInputError
from arbiter.engine.session import Session

from tests.helpers import FBI, cell_of, kinds, since
from tests.fbi_staging import advance_to, do, game, kill_results, put, refuse, status, tok


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


def test_duel_mafia_never_kills_nor_shoots_its_own_team():
    """The Kill and the Shoot may not target a living teammate. In Standard the seat cannot
    know its teammates, so the attempt is accepted and becomes an FBI arrest (above); in Duel
    the seat knows its whole team, so it is refused, as the Maniac's threat is, naming whose
    identity it is, and is not listed."""
    s = game("duel-3v3", bandit="Olga", maniac="Vera")  # c3 is next to d4, the Maniac
    listed = [o for o in s.state.legal_inputs("mafia") if o.startswith("kill ")]
    assert "kill d4" not in listed and listed, listed
    err = refuse(s, "bandit", "kill d4")
    assert err.message == "kill d4: d4 is the maniac's identity: the Mafia never kills its own team"
    s = game("duel-4v4", sniper="Quinn", bomber="Gus")  # c3 is on a diagonal with e5, the Bomber
    advance_to(s, "sniper")
    assert "shoot e5" not in s.state.legal_inputs("mafia")
    err = refuse(s, "sniper", "shoot e5")
    assert err.message == "shoot e5: e5 is the bomber's identity: the Mafia never shoots its own team"


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

"""FBI vs Mafia positions staged for the rules' tests (``test_fbi_rules_*.py``): a game with
every identity pinned (the characters a test does not care about parked far from the cells
the tests use), tokens put directly on cards as test setup, and turns advanced by real play
(``advance_to``), where the characters in between shift the bottom row, which no test uses.

Default 6x6 layout (3v3):           Default 7x7 layout (4v4):
    a    b     c    d     e     f        a     b     c     d     e     f     g
 1 Ada  Boris Cass Dario Edna  Felix  1 Ada   Boris Cass  Dario Edna  Felix Gia
 2 Gia  Hugo  Ines Jonas Kira  Leon   2 Hugo  Ines  Jonas Kira  Leon  Mara  Nico
 3 Mara Nico  Olga Pavel Quinn Rosa   3 Olga  Pavel Quinn Rosa  Sami  Tess  Ugo
 4 Sami Tess  Ugo  Vera  Wade  Xena   4 Vera  Wade  Xena  Yuri  Zora  Abel  Bea
 5 Yuri Zora  Abel Bea   Cyril Dora   5 Cyril Dora  Emil  Flora Gus   Hana  Ivo
 6 Emil Flora Gus  Hana  Ivo   Jade   6 Jade  Karl  Lena  Milo  Nora  Otto  Pia
                                      7 Rex   Sofia Theo  Uma   Vito  Wren  Zeno

Every input under test goes through ``Session.submit``.
"""

from __future__ import annotations

from arbiter.engine.errors import IllegalMoveError, InputError
from arbiter.engine.events import HOST
from arbiter.engine.session import Session

from tests.helpers import cell_of, fbi_game, names, refused

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

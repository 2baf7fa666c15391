"""The identity deck and the characters' identities: drawing (skipping dead and arrested
cards), rebuilding the deck when it runs out, telling a character its identity, and the public
test of whether a draw is possible. A layer of ``FbiMafiaState`` over ``board``.
"""

from __future__ import annotations

from arbiter.engine.games.fbi_mafia.board import ALIVE, BoardLayer
from arbiter.engine.games.fbi_mafia.grid import cell_name


class DeckLayer(BoardLayer):
    """The identity deck and the identities drawn from it."""

    def _draw_card(self) -> str:
        if not self.deck:
            self._rebuild_deck()
        return self.deck.pop(0)

    def _rebuild_deck(self) -> None:
        taken = set(self.identity.values()) | set(self.hand)
        pool = [n for n in self.suspects if self.status[n] == ALIVE and n not in taken]
        self.deck = self.chance.shuffle("identity-deck-rebuilt", pool)
        self.discard = [n for n in self.discard if n not in pool]
        self.events.emit(
            "deck-rebuilt",
            f"The identity deck ran out: the {len(pool)} living suspects that are nobody's "
            "identity are shuffled into a new deck.",
            {"size": len(pool)},
        )

    def _deck_can_draw(self) -> bool:
        """Whether Masquerade and Inspect may draw now, judged on public facts only (their
        legality must not tell a seat anything it may not know): a card, or a rebuild sure to
        hold one. Every character's identity is a living card, and each evidence card counts
        as taken unless it was revealed and has died since (which of the rest are dead, only
        the hand's holder knows). The count is never above the real rebuild's size."""
        if self.deck:
            return True
        living = sum(1 for n in self.suspects if self.status[n] == ALIVE)
        hand = sum(1 for n in self.hand if n not in self.cleared or self.status[n] == ALIVE)
        return living - len(self.characters) - hand > 0

    def _draw_living(self, character: str) -> str:
        skipped = []
        while True:
            card = self._draw_card()
            if self.status[card] == ALIVE:
                break
            self.discard.append(card)
            skipped.append(card)
        if skipped:
            self.events.emit(
                "draw-skipped",
                f"The {character} skipped {', '.join(skipped)} ({'dead or arrested'}).",
                {"character": character, "skipped": skipped},
                to=[self.seat_of[character]],
            )
        return card

    def _tell_identity(self, character: str, what: str) -> None:
        name = self.identity[character]
        self.events.emit(
            "identity",
            f"The {character}'s identity: {self._at(name)} ({what}).",
            {"character": character, "suspect": name, "cell": cell_name(self.pos[name])},
            to=[self.seat_of[character]],
        )

    def _redraw(self, character: str) -> None:
        old = self.identity[character]
        self.discard.append(old)
        self.identity[character] = self._draw_living(character)
        self.events.emit(
            "redraw",
            f"The {character} draws a new identity.",
            {"character": character, "deck": len(self.deck)},
        )
        self._tell_identity(character, "new identity")

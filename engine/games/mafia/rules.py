"""Classic Mafia: the rules object (a variant per player count, custom decks, the random bot)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import ScenarioError, SetupError
from arbiter.engine.events import EventLog
from arbiter.engine.game import GameInfo, GameState, Rules, Variant
from arbiter.engine.games.mafia import data as md
from arbiter.engine.games.mafia.bot import choose
from arbiter.engine.games.mafia.moves import Move, move_name
from arbiter.engine.games.mafia.render import render_table
from arbiter.engine.games.mafia.state import MafiaState
from arbiter.engine.scenario import Node, deck_document, deck_kind, lines_named


def variant_name(players: int) -> str:
    """The variant of a player count.

    >>> variant_name(8)
    '8-players'
    """
    return f"{players}-players"


class MafiaRules(Rules):
    info = GameInfo(
        name=md.GAME, title="Classic Mafia", variant_label="mode", realtime=False, hidden_information=True,
        players=(6, 12), default_players=8, deck_kind="deck", resign="leave", bot_kinds=("random", "sleuth"),
    )

    def variants(self) -> list[Variant]:
        d = md.load()
        out = []
        for players, deck in d.setups.items():
            cards = ", ".join(f"{d.cards[c].title} x{n}" if n > 1 else d.cards[c].title for c, n in deck.items())
            out.append(Variant(
                name=variant_name(players), title=f"{players} players",
                seats=tuple(f"p{i}" for i in range(1, players + 1)),
                description=f"default deck: {cards}",
                data={"cards": d.raw["cards"], "setup": deck},
            ))
        return out

    @property
    def default_variant(self) -> str:
        return variant_name(md.load().default_players)

    def choose_setup(
        self, variant: str | None, players: int | None = None, deck_file: str | Node | None = None,
        level: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """``--players N`` picks the default deck for N; ``--deck FILE`` a custom deck (whose
        size is the player count); ``--mode N-players`` is the same as ``--players N``."""
        options: dict[str, Any] = {}
        if level is not None:
            raise SetupError("Classic Mafia has no levels (--roles is for Magic Maze: Hidden Roles)", option="--roles")
        if deck_file is not None:
            doc = deck_document(deck_file)
            game, kind, what = deck_kind(doc)
            if (game, kind) != ("mafia", "deck"):  # another game's file: a usage error
                raise SetupError(f"{doc.source}: Classic Mafia takes a deck (game: mafia, kind: deck); {what}",
                                 option="--deck")
            with lines_named(doc):
                title, deck = md.parse_deck_document(doc, md.load())
            size = sum(deck.values())
            if players is not None and players != size:
                raise SetupError(f"--players {players} does not fit --deck {doc.source}, which has {size} cards")
            if variant is not None and variant != variant_name(size):
                raise SetupError(f"--mode {variant} does not fit --deck {doc.source}, which has {size} cards "
                                 f"(a deck's size is the player count: --mode {variant_name(size)})")
            players = size
            options = {"deck": deck, "title": title}
        if players is not None:
            name = variant_name(players)
            counts = sorted(md.load().setups)
            if deck_file is None and players not in counts:  # (said in players, not in modes)
                raise SetupError(f"Classic Mafia's default decks are for {counts[0]} to {counts[-1]} players, "
                                 f"not {players}", [str(n) for n in counts], "--players")
            if variant is not None and variant != name:
                raise SetupError(f"--mode {variant} does not fit {players} players (a mode is its player count: "
                                 f"--mode {name}, or leave out one of the two)")
            variant = name
        chosen = self.default_variant if variant is None else variant
        self.variant(chosen)
        return chosen, options

    def new_state(self, variant: Variant, chance: Chance, events: EventLog, options: dict[str, Any]) -> GameState:
        d = md.load()
        if type(options) is dict and not options:  # the default deck (what the checks below find of no options, without them)
            return MafiaState(d, dict(variant.data["setup"]), variant.title, chance, events)
        node = Node(dict(options), "options")
        node.only_keys("deck", "title")
        deck, title = dict(variant.data["setup"]), variant.title
        if node.has("deck"):
            deck = md.check_deck(node.key("deck"), d)
            if sum(deck.values()) != len(variant.seats):
                raise ScenarioError("options", "deck", f"the deck has {sum(deck.values())} cards for "
                                    f"{len(variant.seats)} players ({variant.name})")
            title = f"{node.optional('title', 'custom deck').text(max_len=md.TITLE_MAX_CHARS)}, {variant.title}"
        elif node.has("title"):
            raise node.key("title").fail("a title names a custom deck; there is no deck option")
        return MafiaState(d, deck, title, chance, events)

    def render(self, state: GameState, seat: str) -> str:
        assert isinstance(state, MafiaState)
        return render_table(state, seat)

    def public_deck(self, state: GameState) -> dict[str, int]:
        """The cards in play (the mode's default deck, or a custom one), in the card list's
        order: public, as the opening event lists them; who holds them is secret.

        >>> from arbiter.engine.session import Session
        >>> MafiaRules().public_deck(Session(MafiaRules(), "6-players", seed=1).state)
        {'seducer': 1, 'civilian': 2, 'chief': 1, 'boss': 1, 'mafia': 1}
        """
        assert isinstance(state, MafiaState)
        return dict(state.deck)

    def seat_sides(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Each seat's side (town, mafia or loner) and card.

        >>> from arbiter.engine.session import Session
        >>> s = Session(MafiaRules(), "6-players", seed=1)
        >>> sorted(MafiaRules().seat_sides(s.state).values())[0]
        ('mafia', 'boss')
        """
        assert isinstance(state, MafiaState)
        return {seat: (state.side_of(seat), state.card[seat]) for seat in state.seats}


    def validate_document(self, doc: Any) -> None:
        md.validate_document(doc)

    def bot_input(self, kind: str, state: GameState, seat: str, rng: random.Random) -> str | None:
        """``random`` (``bot.py``) or ``sleuth`` (``sleuth.py``: plays from its seat's knowledge,
        to win): ``bot_move``'s choice in words."""
        move = self.bot_move(kind, state, seat, rng)
        return None if move is None else move_name(move)

    def bot_move(self, kind: str, state: GameState, seat: str, rng: random.Random) -> Move | None:
        """``bot_input``'s choice as the move value (``MafiaState.apply_move`` applies it)."""
        assert isinstance(state, MafiaState)
        return self.bot_mover(kind)(state, seat, rng)

    def bot_mover(self, kind: str) -> Callable[[GameState, str, random.Random], Move | None]:
        """The function of bot ``kind`` (what ``bot_move`` calls): ``sleuth.choose``, or else
        the random bot's ``bot.choose`` (which reads the packaged talk when given none)."""
        if kind == "sleuth":
            from arbiter.engine.games.mafia import sleuth

            return sleuth.choose  # type: ignore[return-value]
        return choose  # type: ignore[return-value]

    def choose_input(self, state: GameState, seat: str, rng: random.Random) -> str | None:
        assert isinstance(state, MafiaState)
        move = choose(state, seat, rng, md.load_talk())
        return None if move is None else move_name(move)


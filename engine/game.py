"""What every game provides: a rules object (``Rules``) and the state of one game (``GameState``).

The core (sessions, protocol, transcripts, bots) only speaks to these two interfaces, so a
game is added by writing its rules and state and registering it in ``engine.registry``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arbiter.engine.chance import Chance
from arbiter.engine.errors import SetupError, SyntaxInputError, quoted
from arbiter.engine.events import EventLog
from arbiter.engine.lines import BadLine, check_str

if TYPE_CHECKING:
    from arbiter.engine.scenario import Node


SECRET_SEAT = "-"
"""Stands for a seat the viewer may not know: of a secret move, or of a secret awaited input."""


@dataclass(frozen=True)
class Awaiting:
    """One input the game waits for: which seat, what kind of input, and a short hint."""

    seat: str
    kind: str
    hint: str

    def as_dict(self) -> dict[str, str]:
        return {"seat": self.seat, "kind": self.kind, "hint": self.hint}


@dataclass(frozen=True)
class Result:
    """How a game ended. ``winners`` lists the winning seats (empty when nobody won).
    ``as_dict`` is the caller's: its scores are a deep copy (Hidden Roles' hold a dict per seat,
    which a shallow copy shared with the game, so a view's ``result`` changed the game's)."""

    winner: str | None
    reason: str
    text: str
    winners: tuple[str, ...] = ()
    scores: dict[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        """By value, as ``==`` compares: the dataclass's own hash of its fields raised
        ``TypeError`` (``scores`` is a dict), so a result could not be kept in a set or key a
        cache, which a frozen value may."""
        return hash((self.winner, self.reason, self.text, self.winners, _frozen(self.scores)))

    def as_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "text": self.text,
            "winners": list(self.winners),
            "scores": _copied(self.scores),
        }


def _frozen(value: Any) -> Any:
    """``value`` (scores: dicts, lists, strings and numbers) as something hashable that is equal
    exactly when it is: a dict as the set of its items, a list as a tuple."""
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


_ATOMS = frozenset((str, int, float, bool, type(None)))
"""The kinds of value ``_copied`` keeps as they are (nothing in them can be changed)."""


def _copied(value: Any) -> Any:
    """A copy of ``value``'s containers (dicts, lists, tuples), all the way down; anything else
    is kept (scores hold strings and numbers). ``copy.deepcopy`` does the same for such data at
    several times the cost, which a bench game paid at its end (2% of a Classic Mafia game);
    a value that is no container is kept without a call (most scores are flat)."""
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _ATOMS else _copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple([v if type(v) in _ATOMS else _copied(v) for v in value])
    return value


@dataclass(frozen=True)
class Variant:
    """A playable mode or scenario of a game, loaded from scenario data."""

    name: str
    title: str
    seats: tuple[str, ...]
    description: str
    data: dict[str, Any]

    @property
    def data_hash(self) -> str:
        """A digest of the variant's data: a transcript records it to notice changed rules data."""
        text = json.dumps(self.data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def checked_text(text: str) -> str:
    """An input's words given to the session (by the library; the protocol's lines are checked
    as read) that are not plainly printable: refused as a line of the protocol would be (a
    control character, a lone surrogate, too long: a ``SyntaxInputError``)."""
    checked = check_str(text)
    if isinstance(checked, BadLine):
        raise SyntaxInputError(checked.problem)
    return checked


def words_of(move: object, kinds: Any = (), name: Callable[[Any], str] = str) -> str:
    """The words of a value ``apply_move`` (``Session.submit_move``) reads through its words:
    words (a ``str``) as they are, a move value of the game (an instance of ``kinds``) by its
    ``name``, checked as ``submit`` checks words (``checked_text``: a ``Say`` of a control
    character is refused as its words are) and with white space made single as ``submit``
    makes it; any other value is a ``TypeError`` saying what ``submit_move`` takes, raised
    before anything changes."""
    if isinstance(move, str):
        words = move
    elif kinds and isinstance(move, kinds):
        words = name(move)
    else:
        takes = "one of the game's move values or an input's words (a str)" if kinds else "an input's words (a str)"
        raise TypeError(f"submit_move takes {takes}, not {type(move).__name__}: {quoted(move)}")
    if not (len(words) <= 2048 and words.isprintable()):
        words = checked_text(words)
    return " ".join(words.split())


def slotted_state(obj: Any) -> Any:
    """An object's state as ``pickle`` and ``copy`` take it by default (its dict and its
    slots), as the ``__getstate__`` of a class with ``__slots__``: pickle's protocols 0 and 1
    refuse an object of such a class unless the class defines one ("a class that defines
    __slots__ without defining __getstate__ cannot be pickled"); protocols 2 and later take
    this state anyway, so their pickles are unchanged."""
    return object.__getstate__(obj)


class GameState(ABC):
    """One game in progress. Inputs go through ``apply``, which validates completely before it
    changes anything, and reports every change as events in ``self.events``."""

    seats: tuple[str, ...]
    events: EventLog
    result: Result | None = None
    clock_step_ms: int = 1000
    realtime: bool = False
    """True when every seat may act at any moment (no turns): a bot with nothing to do waits,
    and time alone may change the game (``next_deadline``). The session asks a turn game
    (False) no deadline before its inputs."""
    move_kinds: Any = ()
    """The classes of the game's move values that ``apply_move`` reads (a class, a tuple or a
    union of them; none: its inputs are words only). The session refuses any other value but
    words with a ``TypeError`` before time acts or the game's end is judged."""
    bot_memos: tuple[str, ...] = ()
    """Attributes built-in bots may keep on the state (a memo of their search): not part of the
    game, so the contract's snapshot of what an input may change leaves them out."""
    bot_caches: tuple[str, ...] = ()
    """Of the ``bot_memos``, those that only save work: a bot finds the same without them (a
    search kept to go on from, worked out again when missing). A copy of the game starts them
    empty, a new one of their type, instead of copying them."""
    constants: tuple[str, ...] = ()
    """Attributes fixed for the whole game, which no input changes: the mode's data and what is
    worked out from it once (tables, the seats, who holds which card). A copy of the game
    (``Session.copy``) shares them instead of copying them, as it shares any frozen dataclass
    the state holds; the contract checks that no input changes them."""

    __getstate__ = slotted_state  # (Classic Mafia's and FBI vs Mafia's states keep their facts in slots)

    def next_deadline(self) -> int | None:
        """In a real-time game, the next moment at which time alone changes the game if nobody
        acts (the sand running out, a vote closing); else None. ``advance_clock`` past it makes
        the change."""
        return None

    @abstractmethod
    def awaiting(self) -> list[Awaiting]:
        """The inputs awaited now (empty when the game is over)."""

    @abstractmethod
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        """Validate and apply one input of ``seat`` (the words after the seat name); return the
        input in canonical words (what the transcript records).

        Raises an ``engine.errors.InputError`` and changes nothing when the input is refused.
        """

    def apply_move(self, seat: str, move: Any, now_ms: int) -> str:
        """``apply`` of an input given as a move value of the game (``Rules.bot_move``), as the
        session's ``submit_move`` hands it. By default a game's move values are its words: they
        are read like any input. A game whose bots choose among values may apply one without
        writing and reading its words, provided it accepts and refuses exactly what ``apply``
        does of the value's words, and read words (a ``str``) as ``apply`` does."""
        return self.apply(seat, words_of(move), now_ms)

    def public_input(self, seat: str, text: str) -> str | None:
        """What other seats may know of the input ``text`` (canonical words) that ``seat`` has
        just had accepted; the session asks it right after ``apply`` and keeps the answer with
        the move (``Move.public``), so nobody else needs to ask it at the right moment. Games with private choices (a card
        kept) redact them here; None means the input is secret down to who sent it (a night
        action): others learn only that some input was made."""
        return text

    def awaited_seats(self) -> list[str]:
        """The seats of ``awaiting()``, in its order. A game may answer without writing the
        hints (it is asked at every input of a bot game)."""
        return [a.seat for a in self.awaiting()]

    def awaiting_seen_by(self, seat: str) -> list[Awaiting]:
        """The awaited inputs as ``seat`` (or ``engine.events.HOST``) may know them. A game
        where being awaited is a secret (a night role) shows others an entry whose seat is
        ``-`` instead. By default everything awaited is public."""
        return self.awaiting()

    def advance_clock(self, now_ms: int) -> None:
        """Let virtual time pass up to ``now_ms`` with no input (real-time games may end here).

        The session records every call as a ``tick``, so a replay passes time identically.
        ``apply`` gets the input's time too: a real-time state judges an input from that,
        never by changing itself before the input is known to be legal."""

    def changes_by_time(self, now_ms: int) -> bool:
        """Whether time alone changes the game by ``now_ms`` (before any input then)."""
        deadline = self.next_deadline()
        return deadline is not None and deadline <= now_ms

    @abstractmethod
    def legal_inputs(self, seat: str) -> list[str]:
        """Every input ``seat`` may send now, as the words after the seat name: concrete inputs
        only, each one exactly as ``apply`` accepts it (never a template such as ``say TEXT``;
        those are ``input_forms``)."""

    def input_forms(self, seat: str) -> list[str]:
        """Templates of free-text inputs ``seat`` may send now, such as ``say TEXT``: a word in
        capitals stands for the player's own words. Empty by default."""
        return []

    @abstractmethod
    def view(self, seat: str) -> dict[str, Any]:
        """The state as ``seat`` may know it (``engine.events.HOST``: everything)."""


    @abstractmethod
    def score(self) -> dict[str, Any]:
        """The public scores."""


def state_fields(state: GameState) -> dict[str, Any]:
    """Every attribute of a game's state by name, those kept in slots (Classic Mafia's, see
    ``Table.__slots__``) and those in its dict alike, but the bots' memos (``bot_memos``: not
    the game)."""
    fields: dict[str, Any] = {}
    for cls in reversed(type(state).__mro__):
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(state, name):
                fields[name] = getattr(state, name)
    memos = state.bot_memos
    fields.update({k: v for k, v in getattr(state, "__dict__", {}).items() if k not in memos})
    return fields


def shared_values(state: GameState) -> list[Any]:
    """What a copy of the game shares with it, of its state: the values of its ``constants``
    and every frozen dataclass it holds (a scenario, a deal's setup), which no input changes."""
    out = [getattr(state, name) for name in state.constants]
    for value in state_fields(state).values():
        params = getattr(type(value), "__dataclass_params__", None)
        if params is not None and params.frozen:
            out.append(value)
    return out


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once at the top of its rules (the model is OpenSpiel's game
    type): the command line, ``arbiter games``, the bench, the API and the tournament runner
    all read it here.

    >>> from arbiter.engine import registry
    >>> info = registry.get("magic-maze").info
    >>> info.players, info.realtime, info.levels
    ((1, 8), True, (1, 2, 3, 4, 5))
    """

    name: str
    """The game's name on the command line."""
    title: str
    variant_label: str
    """What a variant is called: ``mode`` or ``scenario``."""
    realtime: bool
    """No turns: every seat may act at any moment, on a clock that keeps running."""
    hidden_information: bool
    """Some seat may not know some fact (a card, an identity, the order of a stack)."""
    players: tuple[int, int] | None = None
    """The player counts of a game set up by it (``--players``); None: the variant fixes the seats."""
    default_players: int | None = None
    deck_kind: str | None = None
    """The ``kind:`` of a custom deck file the game takes (``--deck``), if any."""
    levels: tuple[int, ...] = ()
    """The levels of a variant of play chosen by number (Hidden Roles' ``--roles``)."""
    resign: str | None = None
    """The input by which a seat gives up, if the game has one (a failed bot's forfeit)."""
    bot_kinds: tuple[str, ...] = ("random",)
    """The built-in bots (``--bot SEAT=KIND``); ``Rules.bot_input`` plays them."""
    bench_bot: str = "random"
    """What ``arbiter bench`` plays by default: this bot on every seat ..."""
    bench_games: int = 50
    """... this many games per variant ..."""
    bench_players: int | None = None
    """... with this many players, for games set up by player count."""
    outcomes: str = "1 for each winning seat, 0 for every other"
    """What a finished game gives each seat (``Game.returns``)."""


class Rules(ABC):
    """A game's rules: its declaration (``info``), its variants, how a game starts, how it is
    drawn, and its built-in bots."""

    info: GameInfo

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def variant_label(self) -> str:
        return self.info.variant_label

    @property
    def bot_kinds(self) -> tuple[str, ...]:
        return self.info.bot_kinds

    @abstractmethod
    def variants(self) -> list[Variant]:
        """Every mode or scenario, from the scenario data."""

    def data_hash(self, variant: Variant, options: dict[str, Any]) -> str:
        """The digest of all the data a game of ``variant`` with ``options`` plays by (what a
        transcript records to notice changed data): the variant's data by default; a game
        whose options bring more data (a role deck) adds it."""
        return variant.data_hash

    def variant(self, name: str) -> Variant:
        for v in self.variants():
            if v.name == name:
                return v
        names = [v.name for v in self.variants()]
        raise SetupError(  # (the option as the game calls it: ``arbiter play`` takes either name)
            f"{self.name} has no {self.variant_label} {quoted(name)}", names, f"--{self.variant_label}"
        )

    @property
    def default_variant(self) -> str:
        return self.variants()[0].name

    @abstractmethod
    def new_state(
        self, variant: Variant, chance: Chance, events: EventLog, options: dict[str, Any]
    ) -> GameState:
        """Set up a new game; every random decision goes through ``chance``."""

    def choose_setup(
        self, variant: str | None, players: int | None = None, deck_file: str | Node | None = None,
        level: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """The variant and options of a new game from a player's choices (``arbiter play``'s
        ``--mode``, ``--players``, ``--deck``, ``--roles``). Options are recorded in the transcript.
        A deck is its file's path, or its document read before (``scenario.deck_document``)."""
        # the first option given that the game does not take, named as the command line names it
        for given, option, what, instead in (
                (players, "--players", "set up by player count", "fix the seats"),
                (deck_file, "--deck", "played with a custom deck", "say what is played"),
                (level, "--roles", "played at a level (--roles is for Magic Maze: Hidden Roles)", "say what is played")):
            if given is not None:  # (and what is chosen instead: its modes)
                raise SetupError(f"{self.title} is not {what}: leave out {option}; its {self.variant_label}s "
                                 f"{instead}", [v.name for v in self.variants()], option)
        return (self.default_variant if variant is None else variant), {}

    def public_options(self, state: GameState) -> dict[str, str]:
        """The settings of ``state``'s game that change the rules it is played by, that every
        seat may know, and that the game's name and mode do not say (a player count, a level),
        by name, each value one word: what a bot is told before its first ``go`` (``option:``
        lines, ``Session.settings``). Each is the same for every seat and every deal of the same
        setup: a fact of how the game was set up, never of what was dealt. None by default."""
        return {}

    def public_deck(self, state: GameState) -> dict[str, int]:
        """The cards ``state``'s game is dealt from, by name, how many of each, in the deck's
        order, where every seat may know them (which seat holds which card is what is hidden):
        ``deck:`` lines (``Session.settings``). None by default (a game without such a deck)."""
        return {}

    def seat_sides(self, state: GameState) -> dict[str, tuple[str, str]]:
        """Each seat's side and role as the game stands (at its end, the side the seat ended
        on): seat -> (side, role). A tournament reports results by side and by role from it.
        By default every seat is on one side, ``players``, and its role is the seat itself."""
        return {seat: ("players", seat) for seat in state.seats}

    def bench_tally(self, state: GameState) -> dict[str, int]:
        """What ``arbiter bench`` counts of one finished game beyond its winner (summed over the
        games: e.g. Hidden Roles' traitors caught); none by default."""
        return {}

    def bench_figures(self, tallies: dict[str, int]) -> dict[str, str]:
        """``bench_tally``'s counts, summed over the games, as the columns of a table (heading:
        cell), in order; none by default. ``bench_legend`` says what they mean."""
        return {}

    def bench_legend(self, options: dict[str, Any]) -> str:
        """What ``bench_figures``' columns mean, printed above their table, for games set up
        with ``options``; none by default."""
        return ""

    def forfeit_input(self, seat: str) -> str | None:
        """The input by which a seat gives up (a bot that crashed or cheated), if the game has one."""
        return self.info.resign

    def validate_document(self, doc: Any) -> None:
        """Check one scenario YAML document of this game (an ``engine.scenario.Node``)."""
        raise doc.fail(f"{self.name} has no scenario documents to check")

    @abstractmethod
    def render(self, state: GameState, seat: str) -> str:
        """The ASCII board of ``state`` as ``seat`` (or ``engine.events.HOST``) sees it, with no
        empty lines. Rendering reads the state; a game's state never imports its renderer."""

    legend: str = ""
    """What the symbols of the ASCII board mean (``arbiter show --legend``); empty when the
    board explains itself."""

    def bot_input(self, kind: str, state: GameState, seat: str, rng: random.Random) -> str | None:
        """The input of built-in bot ``kind`` for ``seat`` (None: nothing now)."""
        return self.choose_input(state, seat, rng)

    def bot_move(self, kind: str, state: GameState, seat: str, rng: random.Random) -> Any:
        """``bot_input`` as a move value for ``GameState.apply_move`` (None: nothing now), with
        the same draws of ``rng``; by default the input's words themselves."""
        return self.bot_input(kind, state, seat, rng)

    def bot_mover(self, kind: str) -> Callable[[GameState, str, random.Random], Any]:
        """``bot_move`` of built-in bot ``kind`` as one function of ``(state, seat, rng)``, which
        a bot asks for once and keeps (``RandomBot.choose_move``): the same choices with the
        same draws. A game may answer with its bot's own function, so that no input pays for
        the dispatch by kind."""
        return functools.partial(self.bot_move, kind)

    def choose_input(self, state: GameState, seat: str, rng: random.Random) -> str | None:
        """The built-in random bot: a legal input for ``seat`` or None when it has none.

        Games may override this to pick more sensibly (for example the kind of action first).
        """
        legal = state.legal_inputs(seat)
        return legal[rng.randrange(len(legal))] if legal else None

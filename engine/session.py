"""A session: one game, its seed, virtual clock, event log, and the ordered log of what
happened (chance outcomes, accepted moves, clock ticks) that a transcript is made of."""

from __future__ import annotations

import copy
import math
import numbers
import operator
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import UnionType
from typing import Any, NamedTuple, TypeVar, get_args

from arbiter.engine.chance import Chance, ChanceRecord
from arbiter.engine.clock import MAX_MS, seconds_name
from arbiter.engine.errors import GameOverError, TimeError, UnknownSeatError, counted, quoted
from arbiter.engine.events import HOST, Event, EventLog
from arbiter.engine.game import GameState, Rules, Variant, checked_text, shared_values, words_of
from arbiter.engine.lines import printable

T = TypeVar("T")


@dataclass(frozen=True, repr=False)
class Choices:
    """What a seat may send now, as the protocol shows it: ``legal`` inputs to send as they
    are, ``forms`` with a word in capitals for the player's own words (``say TEXT``), and the
    game's way to give up (``resign``), kept apart so a bot picking from ``legal`` never
    gives up by chance."""

    legal: list[str]
    forms: list[str]
    resign: str | None

    def __hash__(self) -> int:
        """By value, as ``==`` compares (the fields are lists, which alone cannot be hashed): an
        agent may key a cache on ``(observation, legal)``. Change no list of a ``Choices`` kept
        in a set or as a key."""
        return hash((tuple(self.legal), tuple(self.forms), self.resign))

    def __repr__(self) -> str:
        """How many inputs are legal and the first few of them, the forms and the way to give up,
        on one short line (as python-chess shows its legal moves): the dataclass's own repr
        listed every input, some 3,000 characters for a Hidden Roles seat, in a notebook's cell
        or a debugger's variable.

        >>> Choices(["pass", "nominate p2", "nominate p3", "nominate p4", "nominate p5"], ["say TEXT"], "leave")
        <Choices: 5 legal inputs (pass, nominate p2, nominate p3, nominate p4, ...), forms (say TEXT), resign leave>
        >>> Choices([], [], None)
        <Choices: no legal input>
        """
        parts = [f"{counted(len(self.legal), 'legal input')} ({_first(self.legal)})" if self.legal
                 else "no legal input"]
        if self.forms:
            parts.append(f"forms ({_first(self.forms)})")
        if self.resign is not None:
            parts.append(f"resign {_first([self.resign])}")
        return f"<Choices: {', '.join(parts)}>"

    def lines(self) -> list[str]:
        """The ``legal:``, ``form:`` and ``resign:`` lines of the protocol."""
        return ([f"legal: {m}" for m in self.legal] + [f"form: {f}" for f in self.forms]
                + ([f"resign: {self.resign}"] if self.resign else []))

    def as_dict(self) -> dict[str, Any]:
        return {"legal": list(self.legal), "forms": list(self.forms), "resign": self.resign}


SHOWN_CHOICES = 4
"""How many legal inputs (or forms) a ``Choices``' repr shows before ``...``."""


def _first(inputs: list[str]) -> str:
    """The first ``SHOWN_CHOICES`` of ``inputs``, each cut at 40 characters, as a repr lists them."""
    shown = [str(i) if len(str(i)) <= 40 else f"{str(i)[:40]}..." for i in inputs[:SHOWN_CHOICES]]
    return ", ".join(shown + ["..."] * (len(inputs) > SHOWN_CHOICES))


def _move_line(move: Move, seat: str) -> list[str]:
    """The line telling ``seat`` of ``move`` (``Session.told``): none for its own or a secret one;
    the host is told every move as it was sent."""
    if seat == HOST:
        return [f"move: {move.seat} {move.text}"]
    return [] if move.seat == seat or move.public is None else [f"move: {move.seat} {move.public}"]


class Move(NamedTuple):
    """An accepted input: the ``n``-th move of the game. ``public`` is what other seats may see
    of it (None: it is secret down to who sent it), asked of the game the moment it was
    accepted, so no later change can make it wrong. (A named tuple: one is made per input, three
    times faster than a frozen dataclass.)"""

    n: int
    seat: str
    text: str
    time_ms: int
    public: str | None = None

    def as_entry(self) -> dict[str, Any]:
        return {"move": {"n": self.n, "seat": self.seat, "text": self.text, "time": _time(self.time_ms)}}

    def shown_to(self, seat: str) -> bool:
        """Whether ``seat``'s session was shown this move: every move for the host, a seat's own
        and the public ones for a seat. What a seat is told of the moves so far (how many) counts
        only these, so it says nothing of the secret inputs (a night's) it was not shown."""
        return self.public is not None or self.seat == seat or seat == HOST


_new_move = tuple.__new__


def _time(ms: int) -> int | float:
    """A time in a transcript: whole seconds as an int, else the exact decimal as a float."""
    if ms % 1000 == 0:  # seconds_name writes str(ms // 1000) then: the commonest case, read at once
        return ms // 1000
    text = seconds_name(ms)
    return float(text) if "." in text else int(text)


MAX_SEED = 10**100
"""Seeds are whole numbers of at most 100 digits (either sign): a transcript writes its seed,
and reads it back, as a plain number."""

BOT_TIMEOUT = (0.01, 3600)
"""The seconds an ``exec:`` bot may be given to answer, least and most (``--bot-timeout`` of
``play`` and the arena; a transcript's ``session`` header and a tournament's configuration)."""

BOT_TIMEOUT_WORDS = f"seconds from {BOT_TIMEOUT[0]:g} to {BOT_TIMEOUT[1]:g}"
"""What ``bot_timeout_seconds`` allows, in the words each refusal of a bot's time says it."""


def bot_timeout_seconds(value: object) -> float:
    """``value`` as the seconds a bot is given to answer, a float, when it is a real number (not
    true or false, nor a text) within ``BOT_TIMEOUT``; else a ``TypeError`` (not a number) or a
    ``ValueError`` (out of range, NaN, infinity) whose text is ``BOT_TIMEOUT_WORDS``. The one
    rule of a tournament's configuration, a transcript's ``session`` header and ``AgentBot``'s
    ``timeout``, each of which puts the words in a refusal of its own kind.

    >>> bot_timeout_seconds(2)
    2.0
    >>> bot_timeout_seconds(float("nan"))
    Traceback (most recent call last):
    ValueError: seconds from 0.01 to 3600
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(BOT_TIMEOUT_WORDS)
    if not BOT_TIMEOUT[0] <= value <= BOT_TIMEOUT[1]:  # (NaN too)
        raise ValueError(BOT_TIMEOUT_WORDS)
    return float(value)

CHOSEN_SEEDS = 2**53
"""How many seeds a game whose seed is not given is drawn from. The seed decides every secret,
and what a seat is shown is decided by it too (FBI vs Mafia's board layout is the first shuffle
of the same generator as the identity deck; the built-in bots' choices come from generators
seeded with it), so a seat that tries every seed the game may have until one gives the board
it sees learns every card: below 2**31, about 7 us a seed in plain Python, 4 CPU hours for
them all (``tests/test_hidden_info_direct.py`` shows how). 2**53 seeds take a million times
longer, and stay exact in every JSON reader (a seed is told at the end)."""


def clipped(value: Any) -> str:
    """``value`` as a seed's error names it: a whole number by how many digits it has, any other
    value as ``errors.quoted`` does."""
    if type(value) is int:  # (str() of more than 4300 digits is itself an error)
        return f"a number of {len(str(abs(value))) if value.bit_length() < 13_000 else 'over 3900'} digits"
    return quoted(value)


def _printable(value: Any) -> Any:
    """``value`` with every text in it, keys too, made ``lines.printable``."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {_printable(k): _printable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_printable(v) for v in value]
    return value


_MOVE_CLASSES: dict[type, frozenset[type]] = {}
"""By a game's state class, the classes its ``move_kinds`` names (``move_classes``)."""


def move_classes(state_class: type[GameState]) -> frozenset[type]:
    """The classes ``state_class.move_kinds`` names (a class, a tuple or a union of them), kept
    once found. A value whose own class is one of them is an instance of ``move_kinds``: the
    session finds it so by its class's hash, and asks ``isinstance`` (which tries a union's
    classes in turn: 2% of a Classic Mafia bench game) only of other values."""
    found = _MOVE_CLASSES.get(state_class)
    if found is None:
        kinds = state_class.move_kinds
        named = get_args(kinds) if isinstance(kinds, UnionType) else kinds if isinstance(kinds, tuple) else (kinds,)
        found = _MOVE_CLASSES[state_class] = frozenset(k for k in named if isinstance(k, type))
    return found


def chance_entry(rec: ChanceRecord) -> dict[str, Any]:
    return {"chance": {"what": rec.label, "outcome": list(rec.outcome)}}


class _Record:
    """The session's log and its listeners, which the game's chance writes to as it draws.

    Apart from the session so that the chance, which the session owns, holds no reference back
    to it: with none, a finished game is freed the moment it is dropped, not left for the
    cyclic garbage collector (whose passes over a bench's or a tournament's leftover games
    cost about a tenth of its time)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any] | Move] = []
        """The log's entries; a move's may stand as its ``Move`` until the log is read (``written``)."""
        self.written_to = 0
        """How many of ``entries`` are dicts for certain."""
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.held: list[dict[str, Any]] | None = None
        """Chance entries held back while an input resolves, to follow its own entry."""

    def entry(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        for listener in self.listeners:
            listener(entry)

    def written(self) -> list[dict[str, Any]]:
        """``entries``, each move's as its dict (``Move.as_entry``), made once when first read."""
        entries = self.entries
        for i in range(self.written_to, len(entries)):
            if type(entries[i]) is Move:
                entries[i] = entries[i].as_entry()  # type: ignore[union-attr]
        self.written_to = len(entries)
        return entries  # type: ignore[return-value]

    def chance(self, rec: ChanceRecord) -> None:
        if self.held is not None:
            self.held.append(chance_entry(rec))
        else:
            self.entry(chance_entry(rec))


def whole_number(value: Any) -> Any:
    """``value`` as a plain ``int`` when Python takes it for a whole number (``operator.index``: an
    int of a subclass, an ``IntEnum``'s, numpy's ``int64``, any class with ``__index__``), so that
    what a game stores, records and shows is a plain int; a ``bool`` (which is refused where a
    number is wanted) and any other value (a float, a str, None) as it is, for the caller to
    refuse in its own words. numpy's integers were refused as "not int64": a researcher's seeds
    and player counts often come out of an array.

    >>> class Three:
    ...     def __index__(self):
    ...         return 3
    >>> whole_number(Three()), whole_number(True), whole_number(2.0), whole_number("3")
    (3, True, 2.0, '3')
    """
    if type(value) is int or isinstance(value, bool):
        return value
    try:
        return int(operator.index(value))
    except TypeError:
        return value


def seed_shown(seed: int) -> str:
    """A seed as a one-line summary shows it: whole, or its start and length past 20 digits (a
    seed may have 100).

    >>> seed_shown(7), seed_shown(10**40)
    ('7', '100000000000... (41 digits)')
    """
    text = str(seed)
    return text if len(text) <= 20 else f"{text[:12]}... ({len(text.lstrip('-'))} digits)"


class Session:
    """Runs one game: checks seats and time, applies inputs and records them.

    ``recorded`` are chance outcomes to reuse (a replay or a resumed game).
    """

    def __init__(
        self,
        rules: Rules,
        variant: str | Variant,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        recorded: Sequence[ChanceRecord] = (),
        strict_chance: bool = True,
    ) -> None:
        self.rules = rules
        self.variant = variant if isinstance(variant, Variant) else rules.variant(variant)
        seed = whole_number(seed)  # (numpy's int64, say: the transcript writes a plain int)
        if seed is not None and (type(seed) is not int or not -MAX_SEED < seed < MAX_SEED):
            raise (TypeError if type(seed) is not int else ValueError)(
                f"seed: a whole number of at most {len(str(MAX_SEED)) - 1} digits, not {clipped(seed)}")
        self.seed = seed if seed is not None else secrets.randbelow(CHOSEN_SEEDS)
        self.options = dict(options or {})
        self._record = record = _Record()
        self.listeners = record.listeners
        self.events = EventLog()
        self.chance = Chance(self.seed, recorded, strict=strict_chance, on_record=record.chance)
        self.state: GameState = rules.new_state(self.variant, self.chance, self.events, self.options)
        self._move_classes = move_classes(type(self.state))  # (a move value's check, at every input)
        self.clock_ms = 0
        self.moves: list[Move] = []
        self.forfeits: list[tuple[int, int, str, str]] = []
        """Each seat's forfeit (a bot that failed: ``note``): the lengths of the event log and the
        moves then, the seat and why."""
        self.move_events: list[int] = []
        """Where in the event log each move's events begin (``moves[i]``'s at ``move_events[i]``):
        what a bot or an agent is told of the others' moves comes before what they caused."""

    def __repr__(self) -> str:
        """The game, its variant, seed and how far it went, on one line, and only what every
        seat knows: a replay's report (``ReplayReport``) showed ``<...Session object at 0x...>``.

        >>> from arbiter.engine import registry
        >>> Session(registry.get("mafia"), "6-players", seed=2)
        <Session mafia 6-players seed=2: 0 moves>
        """
        over = ", over" if self.state.result is not None else ""
        return f"<Session {self.rules.name} {self.variant.name} seed={seed_shown(self.seed)}: " \
               f"{counted(len(self.moves), 'move')}{over}>"

    # -- facts -------------------------------------------------------------------------------
    @property
    def data_hash(self) -> str:
        """The digest of the data this game plays by (see ``Rules.data_hash``)."""
        return self.rules.data_hash(self.variant, self.options)

    @property
    def entries(self) -> list[dict[str, Any]]:
        """The ordered log a transcript is made of: accepted moves, chance outcomes, ticks and
        notes, as dicts. A move's dict is made when the log is first read after it (a game
        played with nothing listening, a bench's, never reads it): ask this again after more
        inputs rather than keep the list."""
        return self._record.written()

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.seats

    @property
    def over(self) -> bool:
        return self.state.result is not None

    def render(self, seat: str) -> str:
        """The ASCII board as ``seat`` (or ``engine.events.HOST``) sees it."""
        return self.rules.render(self.state, seat)

    def choices(self, seat: str) -> Choices:
        """What ``seat`` may send now (see ``Choices``)."""
        legal = self.state.legal_inputs(seat)
        give_up = self.rules.forfeit_input(seat)
        resign = give_up if give_up is not None and give_up in legal else None
        return Choices([m for m in legal if m != resign], self.state.input_forms(seat), resign)

    def told(self, seat: str, since: tuple[int, int, int] = (0, 0, 0)) -> tuple[list[str], tuple[int, int, int]]:
        """What ``seat`` (a bot, an agent) is told of the game since ``since`` (the lengths of the
        event log, the moves and the forfeits then), as protocol lines in the order things
        happened: each other seat's input it may know of, in its public form (``move: SEAT
        INPUT``, as a seat's session is shown it; a secret input is not told), before the events
        it caused; ``event: TEXT`` for each event the seat may see; ``forfeit: SEAT: its bot
        failed`` when another seat's bot failed (the host is told why), as a seat's session is;
        in a real-time game not over, last, ``time: SECONDS``, the game's clock (its sand and
        votes are timed by it), as a session's ``time`` answers it. And where to start next time.

        >>> from arbiter.engine import registry
        >>> s = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
        >>> _ = s.submit("mafia", "shift row 1 left")
        >>> lines, since = s.told("fbi", (len(s.events) - 2, 0, 0))
        >>> print("\\n".join(lines))
        move: mafia shift row 1 left
        event: The bandit shifts: shift row 1 left.
        event: Turn 2: the undercover (fbi) acts.
        """
        events, moves, starts, failed = self.events, self.moves, self.move_events, self.forfeits
        told: list[tuple[tuple[float, float], str]] = []  # (where it happened, its line)
        for i in range(since[1], len(moves)):
            told += [((starts[i], i), line) for line in _move_line(moves[i], seat)]  # before its events
        for at, before, who, why in failed[since[2]:]:
            if who != seat:  # after the moves before it, before its events and the moves after it
                told.append(((at, before - 0.5), f"forfeit: {who}: {why if seat == HOST else 'its bot failed'}"))
        told += [((e.index, math.inf), f"event: {e.text}") for e in events.visible_to(seat, since[0])]
        told.sort(key=lambda t: t[0])  # (stable: each kind's own order kept)
        lines = [line for _, line in told]
        if self.state.realtime and self.state.result is None:
            lines.append(f"time: {seconds_name(self.clock_ms)}")
        return lines, (len(events), len(moves), len(failed))

    def settings(self) -> list[str]:
        """The game's public settings as protocol lines, told to a bot before its first ``go``
        of a game (``docs/protocol.md``): ``option: NAME VALUE`` for each setting that changes
        the rules and that the game's name and mode do not say (``Rules.public_options``), then
        ``deck: CARD COUNT`` for each card the game is dealt from (``Rules.public_deck``). They
        are the same for every seat and every deal: nothing of what was dealt.

        >>> from arbiter.engine import registry
        >>> s = Session(registry.get("magic-maze"), "3", seed=1, options={"players": 5, "roles": 1})
        >>> print("\\n".join(s.settings()))
        option: players 5
        option: level 1
        option: out_of_order_start false
        deck: traitor 1
        deck: hero 4
        """
        state = self.state
        return ([f"option: {name} {value}" for name, value in self.rules.public_options(state).items()]
                + [f"deck: {card} {count}" for card, count in self.rules.public_deck(state).items()])

    def shared(self) -> dict[int, Any]:
        """What every copy of this game shares with it, by ``id``: what no input changes, the
        rules, the mode (``Variant``), its move classes (``move_classes``) and the state's
        ``game.shared_values`` (``copy``; the contract's trial copies share these and the
        record so far)."""
        shared: dict[int, Any] = {id(self.rules): self.rules, id(self.variant): self.variant,
                                  id(self._move_classes): self._move_classes}
        shared.update((id(value), value) for value in shared_values(self.state))
        return shared

    def copy(self) -> Session:
        """An independent game at the same point (``Game.copy``; a search bot's trial), its
        chance's generator too, recording to no listener. It shares what no input changes: the
        rules, the mode's data (the state's ``constants`` and frozen dataclasses,
        ``game.shared_values``) and what is on record so far (moves, events, log entries and
        chance outcomes: each is made once and never changed), in lists of its own, so what one
        game adds the other does not see. The bots' caches (``GameState.bot_caches``) start
        empty; everything else is copied deeply. ``copy.copy`` and ``copy.deepcopy`` make the
        same copy (as ``Game``'s do): a shallow one shared the game's state, so a move played on
        it was played on the game, and a deep one copied the rules and the mode's data too."""
        return self._copy({})

    def __copy__(self) -> Session:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Session:
        return self._copy(memo)

    def _copy(self, memo: dict[int, Any]) -> Session:
        """``copy``, in ``memo`` (``copy.deepcopy``'s, which a list of sessions copied shares):
        what the copy shares and what starts afresh are put in it, then the session is made as
        ``copy.deepcopy`` makes an object without ``__deepcopy__``."""
        memo.update(self.shared())
        memo[id(self.listeners)] = []
        for name in self.state.bot_caches:  # started empty (``GameState.bot_caches``)
            cache = getattr(self.state, "__dict__", {}).get(name)
            if cache is not None:
                memo[id(cache)] = type(cache)()
        for kept in (self.moves, self.entries, self.move_events, self.forfeits):  # (each of immutable things)
            memo[id(kept)] = list(kept)
        twin = memo[id(self)] = object.__new__(type(self))
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    def check_seat(self, seat: str) -> str:
        """``seat``, a seat of this game or the host; another name is an ``UnknownSeatError``, a
        value that is not a ``str`` (None, a seat's number) a ``TypeError``: a caller's mistake,
        not a refusal that ``except InputError`` should take for a player's. A seat given as a
        ``str`` of a subclass (numpy's ``str_``) is answered with the game's own ``str``, which
        a move records (an object that is no ``str`` but compares equal to one is refused too)."""
        if type(seat) is not str:
            if not isinstance(seat, str):
                raise TypeError(f"a seat is named by a str, not {type(seat).__name__}")
            seat = str.__str__(seat)  # (its text as a plain str: a subclass's methods are the caller's)
        if seat != HOST and seat not in self.state.seats:
            raise UnknownSeatError(f"no seat {quoted(seat)} in this game", self.state.seats)
        return seat

    # -- changes -----------------------------------------------------------------------------
    def _entry(self, entry: dict[str, Any]) -> None:
        self._record.entry(entry)

    def note(self, body: dict[str, Any]) -> None:
        """Record a remark that is not an input (e.g. why a bot forfeited); replay plays nothing
        for it. Its text is made printable (``lines.printable``): a bot's words in it (an
        agent's exception) can neither garble the transcript nor make it unreadable. A seat's
        forfeit is kept in ``forfeits`` too, where it stands, for ``told``."""
        entry = _printable(dict(body))
        self._entry({"note": entry})
        if entry.get("seat") in self.state.seats and isinstance(entry.get("forfeit"), str):
            self.forfeits.append((len(self.events), len(self.moves), entry["seat"], entry["forfeit"]))

    def _check_time(self, time_ms: int) -> None:
        if time_ms > MAX_MS:
            raise TimeError(f"the clock cannot pass {seconds_name(MAX_MS)} seconds")
        if time_ms < self.clock_ms:
            raise TimeError(
                f"time {seconds_name(time_ms)} is before the clock ({seconds_name(self.clock_ms)}); "
                "the clock never runs backwards"
            )

    def _log_with_chance(self, action: Callable[[], T], entry: Callable[[T], dict[str, Any]]) -> T:
        """Run ``action``; log ``entry(its result)``, then the chance outcomes it drew, so the
        log reads in cause order (a move, then what its resolution shuffled)."""
        record = self._record
        record.held = held = []
        try:
            result = action()
        finally:
            record.held = None
        self._entry(entry(result))
        for chance in held:
            self._entry(chance)
        return result

    def advance_to(self, time_ms: int) -> list[Event]:
        """Let time pass (a stamped meta-command); recorded as a tick so a replay keeps the clock."""
        self._check_time(time_ms)
        start = len(self.events)
        if time_ms > self.clock_ms and not self.over:
            self._pass_time(time_ms)
        return self.events.since(start)

    def _pass_time(self, time_ms: int) -> None:
        self._log_with_chance(lambda: self.state.advance_clock(time_ms), lambda _: {"tick": {"time": _time(time_ms)}})
        self.clock_ms = time_ms

    def submit(self, seat: str, text: str, time_ms: int | None = None) -> list[Event]:
        """Apply one input of ``seat``; return the events it caused (all of them)."""
        return self._submit(seat, text, None, time_ms)

    def submit_move(self, seat: str, move: Any, time_ms: int | None = None) -> list[Event]:
        """``submit`` of an input given as the game's move value (a built-in bot's choice,
        ``Rules.bot_move``), applied by ``GameState.apply_move`` without writing its words and
        reading them back; recorded as its canonical words, like any input. Words (a ``str``)
        are read as ``submit`` reads them; any other value is a ``TypeError``."""
        return self._submit(seat, None, move, time_ms)

    def _submit(self, seat: str, text: str | None, move: Any, time_ms: int | None) -> list[Event]:
        state = self.state
        if seat not in state.seats:  # the host, or no seat at all
            self.check_seat(seat)
            raise UnknownSeatError("the host does not play; name a seat", state.seats)
        clock = self.clock_ms
        now = clock + state.clock_step_ms if time_ms is None else time_ms
        if now > MAX_MS or now < clock:
            self._check_time(now)
        # words no game reads are refused before time passes to their moment: nothing changes
        if text is not None:
            if not (len(text) <= 2048 and text.isprintable()):  # else the protocol's checks
                text = checked_text(text)
        elif type(move) is str:
            if not (len(move) <= 2048 and move.isprintable()):
                checked_text(move)  # (``apply_move`` reads the words as ``apply`` does)
        elif type(move) not in self._move_classes and not (state.move_kinds and isinstance(move, state.move_kinds)):
            words_of(move, state.move_kinds)  # (raises the TypeError of a value no game reads)
        events = self.events._events  # the log's list: its length now, and what this input adds to it
        start = len(events)
        if state.realtime and state.result is None and now > clock and state.changes_by_time(now):
            self._pass_time(now)  # time alone changed the game before this input: record it
        if state.result is not None:
            raise GameOverError("the game is over: " + state.result.text)
        # as _log_with_chance does: the move's entry, then the chance outcomes its resolution drew
        # (the move and its entry made here as Move(...) and Move.as_entry make them, without
        # their calls: 0.5 of the session's 3 us an input, which a bench or a tournament pays)
        record = self._record
        record.held = held = []
        first = len(events)  # (after the time passed: the move's own events begin here)
        try:
            if text is not None:
                accepted = state.apply(seat, " ".join(text.split()), now)
            else:
                accepted = state.apply_move(seat, move, now)
            moves = self.moves
            move = _new_move(Move, (len(moves) + 1, seat, accepted, now, state.public_input(seat, accepted)))
            moves.append(move)
            self.move_events.append(first)
            self.clock_ms = now
        finally:
            record.held = None
        if record.listeners:
            record.entry(move.as_entry())
        else:  # its dict made when the log is read (``entries``)
            record.entries.append(move)
        for chance in held:
            record.entry(chance)
        return events[start:]  # events.since(start)

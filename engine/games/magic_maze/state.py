"""The state of one Magic Maze game: heroes in a growing mall, a sand timer on the virtual
clock, action tiles, talk windows. Rules text: ``docs/rules/magic-maze.md``.

There are no turns: every seat may act at any moment, with the actions on its tile(s). An
input is read into a ``Move`` value (``parse``), its seat judged (``check_actor``), then
checked completely (``plan``: the move in full and a closure) before anything changes. Time
comes with every input (``now_ms``); the game is lost at the moment the timer runs out, even
between inputs (``next_deadline``/``advance_clock``, built on ``timers``).

A variant is a subclass that overrides the hooks (each says what it is for): ``forms``,
``parse``, ``check_actor``, ``plan``, ``legal_moves``, ``talk_open_for``, ``pass_hands``,
``timers``, ``after_change``, ``finish``, and ``view``/``awaiting`` through ``super()``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from arbiter.engine.chance import Chance
from arbiter.engine.clock import seconds_name
from arbiter.engine.errors import AmbiguousMoveError, IllegalMoveError, InputError, SyntaxInputError, quoted
from arbiter.engine.events import EventLog
from arbiter.engine.game import Awaiting, GameState, Result
from arbiter.engine.games.magic_maze.board import BoardFacts
from arbiter.engine.games.magic_maze.data import MazeData, Scenario
from arbiter.engine.games.magic_maze.mall import Mall, joined_origin, joined_quarters
from arbiter.engine.games.magic_maze.moves import (
    DIR_NAME, FORMS, GAME_ACTIONS, HEROES, Move, move_name, parse_move,
)
from arbiter.engine.games.magic_maze.tiles import CENTRE, Cell

__all__ = ["HEROES", "MazeState", "Plan", "Timer"]

Plan = Callable[[], None]
"""What an accepted input does, run once ``apply`` knows the input is legal."""
Timer = tuple[int, Callable[[], None]]
"""A change time alone makes: the moment (virtual ms) and what happens then."""


_DOING = {"vortex": "take a vortex", "escalator": "take an escalator", "explore": "explore"}
"""What an action tile allows, in a refusal's words (a direction: move that way)."""

class MazeState(BoardFacts, GameState):
    """One Magic Maze game (what the board allows comes from ``BoardFacts``)."""

    realtime = True
    bot_memos = ("_planner_cache", "_roles_watch")  # the planner's search, Hidden Roles' watch
    bot_caches = ("_planner_cache",)  # (the watch judges what it saw as play went: it is kept)
    constants: tuple[str, ...] = ("data", "scenario", "players", "seats", "solo")

    def __init__(self, data: MazeData, scenario: Scenario, players: int, chance: Chance, events: EventLog) -> None:
        self.data = data
        self.scenario = scenario
        self.clock_step_ms = scenario.step_ms
        self.players = players
        self.seats = tuple(f"p{i}" for i in range(1, players + 1))
        self.events = events
        self.chance = chance
        self.mall = Mall()
        self.mall.place(scenario.start, data.tiles[scenario.start], (0, 0), 0)
        self.stack: list[str] = list(scenario.on_top) + chance.shuffle("stack", list(scenario.stack))
        order = chance.shuffle("heroes", list(HEROES))
        self.heroes: dict[str, Cell | None] = {h: None for h in HEROES}
        for hero, cell in zip(order, CENTRE):
            self.heroes[hero] = cell
        self.escaped: list[str] = []
        self.used: set[Cell] = set()
        self.theft = False
        self.deadline_ms = scenario.timer_ms
        self.now_ms = 0
        self.talk_open = True  # always, or (talk windows) from the start, the timer's first flip, to the first action
        self.flips = 0
        self.pawn: str | None = None
        self.crystal_credit: Cell | None = None  # a ball used once, good for one more tile
        self.solo = players == 1
        self.hands: list[tuple[str, ...]] = [] if self.solo else list(data.actions[players])
        self.deck: list[str] = chance.shuffle("solo-deck", list(data.solo)) if self.solo else []
        self.discard: list[str] = []
        self.result: Result | None = None
        events.emit("setup", f"Magic Maze, scenario {scenario.title}: {players} player(s); start tile "
                    f"{scenario.start}; {len(self.stack)} tiles in the stack; the timer runs "
                    f"{seconds_name(scenario.timer_ms)} s.",
                    {"scenario": scenario.name, "players": players,
                     "heroes": {h: self.square_name(c) for h, c in self.heroes.items() if c}})
        if not self.solo:
            for seat, hand in zip(self.seats, self.hands):
                events.emit("hand", f"{seat} holds {' + '.join(hand)}.", {"seat": seat, "actions": list(hand)})
        if scenario.talk == "windows":
            events.emit("talk", "The timer starts: talk is open until the first action.", {})

    # ---------------------------------------------------------------------------- time and hands
    def time_left_ms(self, now_ms: int | None = None) -> int:
        return max(0, self.deadline_ms - (self.now_ms if now_ms is None else now_ms))

    def actions_of(self, seat: str) -> tuple[str, ...]:
        if self.solo:
            return (self.discard[-1],) if self.discard else ()
        return self.hands[self.seats.index(seat)]

    # ---------------------------------------------------------------------------- hooks
    def forms(self) -> dict[str, str]:
        """Every form of input by verb, listed when an input cannot be read. A variant with
        verbs of its own adds their forms (``{**super().forms(), ...}``)."""
        return dict(FORMS)

    def shown_verbs(self) -> list[str]:
        """The verbs whose forms a refusal of unreadable words lists: those a seat may type in
        this game (``draw`` in solo play only, ``stare`` and ``pawn`` at a table only). A variant
        leaves out its own verbs that its rules do not have."""
        signals = ("stare", "pawn")  # (to another player: none in solo play)
        return [v for v in self.forms() if not (v == "draw" and not self.solo or v in signals and self.solo)]

    def parse(self, text: str) -> Move:
        """Read one input into a ``Move`` value (syntax only; raises ``SyntaxInputError``). A
        variant reads its own verbs here and leaves the others to ``super().parse``."""
        return parse_move(text, self.seats, self.forms(), self.shown_verbs())

    def check_actor(self, seat: str, move: Move) -> None:
        """Judge ``seat`` sending ``move`` (as read: a move's count or a vortex's square may be
        missing), after reading and before the rules of the move: raise an ``InputError`` to
        refuse it. The base allows every seat everything. A variant refuses an eliminated
        seat's inputs, or an input breaking a seat's own rule, with its own message;
        ``legal_moves`` leaves out whatever this refuses, so judge from the move's words
        (verb, hero, seat), not from a count or square that may be missing. Talk is a form,
        not a legal input: silence a seat in ``talk_open_for`` too."""

    def talk_open_for(self, seat: str) -> bool:
        """Whether ``seat`` may ``say`` something now (the ``say`` plan and ``input_forms``
        ask it). The base: while talk is open for everyone."""
        return self.talk_open

    def pass_hands(self) -> None:
        """Pass the action tiles on an hourglass flip (scenario 3 on, not solo): every seat's
        to the next seat, with the ``pass`` event. A variant may skip eliminated seats."""
        self.hands = [self.hands[-1]] + self.hands[:-1]
        self.events.emit("pass", "Every player passes their action tile(s) to the next seat: "
                         + "; ".join(f"{s} {'+'.join(h)}" for s, h in zip(self.seats, self.hands)) + ".",
                         {"hands": {s: list(h) for s, h in zip(self.seats, self.hands)}})

    def after_change(self) -> None:
        """Called once at the end of every accepted ``apply`` and every ``advance_clock``, after
        their events: a variant follows its own goals (missions) from the new events here.
        The base does nothing."""

    def finish(self, won: bool, reason: str, text: str) -> None:
        """End the game: the team won (``won``) or lost, for ``reason`` (``escape``, ``time``),
        told by ``text``; sets ``result`` and emits ``game-over``. A variant computes a result
        per seat here."""
        self.result = Result("team" if won else None, reason, text, self.seats if won else (),
                             {"escaped": len(self.escaped), "theft": self.theft})
        self.events.emit("game-over", text, self.result.as_dict())

    def timers(self) -> list[Timer]:
        """Every change time alone will make, as (moment, change), in the order to make them
        when two fall at the same moment. The base: the sand running out. A variant adds its
        own (``super().timers() + [...]``); a change must move or drop its own timer, and
        ``advance_clock`` makes the changes due in the order of their moments."""
        return [(self.deadline_ms, self.sand_runs_out)]

    def sand_runs_out(self, text: str | None = None) -> None:
        """The base's timed change: the game is lost (``now_ms`` is already the moment). Also
        what a flip that leaves no sand does, once its move is over (``text`` tells it), so a
        variant that holds the end back (Hidden Roles' open vote) holds it back then too."""
        text = text or f"The sand ran out at {seconds_name(self.deadline_ms)} s: everyone loses."
        self.finish(False, "time", text)

    # ---------------------------------------------------------------------------- awaiting
    def awaiting(self) -> list[Awaiting]:
        if self.result is not None:
            return []
        return [Awaiting(s, "any", "act at any time with: " + (", ".join(self.actions_of(s)) or "nothing (draw)"))
                for s in self.seats]

    # ---------------------------------------------------------------------------- inputs
    def apply(self, seat: str, text: str, now_ms: int) -> str:
        move = self.parse(text)
        self.check_actor(seat, move)
        move, effect = self.plan(seat, move)
        self.now_ms = now_ms
        if move.verb in GAME_ACTIONS and self.scenario.talk == "windows" and self.talk_open:
            self.talk_open = False
            self.events.emit("silence", "An action: talk is over; silence again.", {})
        effect()
        self.after_change()
        return move_name(move)

    def plan(self, seat: str, move: Move) -> tuple[Move, Plan]:
        """Check ``move`` of ``seat`` completely against the rules, changing nothing: the move
        in full (its canonical text is ``move_name`` of it) and what it does. Raises an
        ``InputError``. The base hands a verb to ``_plan_VERB``; a variant plans its own
        verbs here and leaves the others to ``super().plan``."""
        plan_verb: Callable[[str, Move], tuple[Move, Plan]] = getattr(self, f"_plan_{move.verb}")
        return plan_verb(seat, move)

    def _need(self, seat: str, action: str) -> None:
        held = self.actions_of(seat)
        if action not in held:
            have = ", ".join(held) or "nothing yet (draw)" if self.solo else ", ".join(held)
            doing = _DOING.get(action, f"move {action}")  # an action tile shows a direction or an action
            raise IllegalMoveError(f"{seat} cannot {doing}: {seat}'s action tile(s) show {have}")

    def _present(self, hero: str | None) -> str:
        assert hero is not None
        if self.heroes[hero] is None:
            raise IllegalMoveError(f"the {hero} hero has left the mall")
        return hero

    def _square(self, word: str) -> Cell:
        g = self.mall.parse_square(word)
        if g is None:
            tiles = " ".join(p.name.lower() for p in self.mall.placed)
            raise SyntaxInputError(f"{quoted(word)} is not a square of the mall "
                                   f"(TILE.CELL, e.g. 1a.b2; tiles: {tiles})")
        return g

    def _plan_move(self, seat: str, move: Move) -> tuple[Move, Plan]:
        hero = self._present(move.hero)
        d = move.direction
        assert d is not None
        self._need(seat, DIR_NAME[d])
        path = self.path(hero, d)
        if not path:
            raise IllegalMoveError(f"the {hero} hero cannot move {DIR_NAME[d]}: the way is shut")
        if move.squares is not None:
            if move.squares > len(path):
                raise IllegalMoveError(f"the {hero} hero can move at most {len(path)} square(s) {DIR_NAME[d]}")
            path = path[:move.squares]
        return replace(move, squares=len(path)), lambda: self._walk(hero, path)

    def _plan_vortex(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if move.square is not None:  # the words first (a square is read here, by the mall): then the rules
            self._square(move.square)
        hero = self._present(move.hero)
        self._need(seat, "vortex")
        if self.theft:
            raise IllegalMoveError("the vortexes stopped working at the theft")
        here = self.heroes[hero]
        assert here is not None
        free = [g for g in self.free_vortexes(hero) if g != here]
        options = [move_name(Move("vortex", hero=hero, square=self.square_name(v))) for v in free]
        on_its_vortex = self.kind(here) == ("vortex", hero)
        if move.square is not None:
            g = self._square(move.square)
            if g == here and on_its_vortex:
                if not free:
                    raise IllegalMoveError(self._no_vortex_from_here(hero))
                raise IllegalMoveError(f"the {hero} hero already stands on {self.square_name(g)}: a vortex takes "
                                       f"it to another free {hero} vortex", options)
            if g not in free:
                raise IllegalMoveError(f"{move.square} is not a free {hero} vortex", options)
        elif len(free) == 1:
            g = free[0]
        elif not free and on_its_vortex:
            raise IllegalMoveError(self._no_vortex_from_here(hero))
        elif not free:
            raise IllegalMoveError(f"there is no free {hero} vortex in the mall")
        else:
            raise AmbiguousMoveError(f"the {hero} hero has {len(free)} free vortexes; name one", options)
        return Move("vortex", hero=hero, square=self.square_name(g)), lambda: self._walk(hero, [g])

    def _no_vortex_from_here(self, hero: str) -> str:
        """Why the hero, on a vortex of its colour, has none to travel to: it is the only one
        (the mall as explored, public), or the others are taken (who stands where is public)."""
        here = self.heroes[hero]
        assert here is not None
        others = [g for g in self.mall.with_kind("vortex") if self.kind(g)[1] == hero and g != here]
        where = f"the {hero} hero already stands on {self.square_name(here)}"
        if not others:
            return f"{where}, the only {hero} vortex in the mall: a vortex takes a hero to another vortex of its colour"
        taken = ", ".join(f"{self.square_name(g)} (the {self.hero_at(g)} hero)" for g in others)
        return (f"{where}: a vortex takes a hero to another free vortex of its colour, and the other {hero} "
                f"{'vortex is' if len(others) == 1 else 'vortexes are'} taken: {taken}")

    def _plan_escalator(self, seat: str, move: Move) -> tuple[Move, Plan]:
        hero = self._present(move.hero)
        self._need(seat, "escalator")
        g = self.heroes[hero]
        assert g is not None
        dest = self.escalator_end(g)
        if dest is None:
            raise IllegalMoveError(f"the {hero} hero is not on an escalator")
        if self.hero_at(dest) is not None:
            raise IllegalMoveError(f"the other end of the escalator ({self.square_name(dest)}) is taken")
        return move, lambda: self._walk(hero, [dest])

    def _plan_explore(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if move.square is not None:  # (as _plan_vortex: a square that cannot be read, before the rules)
            self._square(move.square)
        self._need(seat, "explore")
        if not self.stack:
            raise IllegalMoveError("the stack is empty: no tile is left to explore with")
        if move.square is not None:
            return self._plan_crystal(move.square)
        hero = self._present(move.hero)
        g = self.heroes[hero]
        assert g is not None
        side = self.mall.unexplored(g)
        kind, colour = self.kind(g)
        if side is None:
            raise IllegalMoveError(f"the {hero} hero is not on an unexplored exploration square")
        if colour != hero:
            raise IllegalMoveError(f"the {hero} hero stands on a {colour} exploration square; only the {colour} hero explores it")
        plan = self._joining(g, side)
        return move, lambda: self._join(plan, opened_by=hero)

    def _plan_crystal(self, word: str) -> tuple[Move, Plan]:
        if not self.scenario.crystal:
            raise IllegalMoveError("crystal balls are not in force in this scenario")
        mage = self.heroes["purple"]
        if mage is None or self.kind(mage)[0] != "crystal":
            raise IllegalMoveError("the mage (purple) must stand on a crystal ball to explore from afar")
        if mage in self.used and self.crystal_credit != mage:
            raise IllegalMoveError("this crystal ball is used up")
        g = self._square(word)
        side = self.mall.unexplored(g)
        if side is None:
            raise IllegalMoveError(f"{word} is not an unexplored exploration square")
        plan = self._joining(g, side)

        def crystal() -> None:
            first = mage not in self.used
            self.used.add(mage)
            self.crystal_credit = mage if first else None
            self._join(plan, opened_by=None)
        return Move("explore", square=self.square_name(g)), crystal

    def _joining(self, g: Cell, side: str) -> tuple[str, Cell, int, Cell]:
        origin = joined_origin(g, side)
        clash = self.mall.overlap(origin)
        if clash is not None:  # never name the tile: the stack is face down (every tile is 4x4)
            raise IllegalMoveError(f"the next tile would overlap {self.square_name(clash)} here; "
                                   "this square cannot be explored")
        return self.stack[0], origin, joined_quarters(side), g

    def _plan_draw(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if not self.solo:
            raise IllegalMoveError("draw belongs to solo play; your action tiles are face up")

        def draw() -> None:
            if not self.deck:
                self.deck, self.discard = list(self.discard), []
                self.events.emit("solo-deck", "The action deck is empty: the discard pile is turned over.", {})
            self.discard.append(self.deck.pop(0))
            self.events.emit("draw", f"Action tile turned: {self.discard[-1]}.", {"action": self.discard[-1]})
        return move, draw

    def _plan_say(self, seat: str, move: Move) -> tuple[Move, Plan]:
        if not self.talk_open_for(seat):
            raise IllegalMoveError("silence: talk is allowed only from the start of the game, after an hourglass "
                                   "flip" + (" or after the elf explores" if self.scenario.elf_talk else "")
                                   + ", until the next action; staring and the pawn are always allowed")
        words = move.text
        return move, lambda: self.events.emit("say", f"{seat}: {words}", {"seat": seat, "text": words})

    def _plan_pawn(self, seat: str, move: Move) -> tuple[Move, Plan]:
        target = move.seat
        if self.solo:
            raise IllegalMoveError("solo play has no pawn: there is nobody to put it in front of")
        if target == seat or target == self.pawn:
            allowed = [m for m in self.legal_inputs(seat) if m.startswith("pawn ")]  # (a variant's limits too)
            why = (f"{seat} cannot put the pawn in front of itself" if target == seat
                   else f"the pawn is in front of {target} already")
            raise IllegalMoveError(f"{why}; put it in front of another player", allowed)

        def pawn() -> None:
            self.pawn = target
            self.events.emit("pawn", f"{seat} puts the 'Do something!' pawn in front of {target}.",
                             {"seat": seat, "target": target})
        return move, pawn

    def _plan_stare(self, seat: str, move: Move) -> tuple[Move, Plan]:
        target = move.seat
        if target == seat:
            raise IllegalMoveError(f"{seat} cannot stare at itself; stare at another player",
                                   [f"stare {s}" for s in self.seats if s != seat])
        return move, lambda: self.events.emit("stare", f"{seat} stares at {target}.",
                                              {"seat": seat, "target": target})

    # ---------------------------------------------------------------------------- effects
    def _walk(self, hero: str, squares: list[Cell]) -> None:
        """Move ``hero`` through ``squares`` (already checked), with every square's effect."""
        start = self.heroes[hero]
        emptied = False  # a flip left no sand: the move ends on that hourglass, then the sand runs out
        for g in squares:
            if self.result is not None or emptied:
                break
            self.heroes[hero] = g
            kind, _ = self.kind(g)
            if kind == "hourglass" and g not in self.used:
                emptied = self._flip(g)
            if kind == "camera" and hero == "yellow" and self.scenario.cameras and g not in self.used:
                self.used.add(g)
                self.events.emit("camera", f"The barbarian disables the camera at {self.square_name(g)}.",
                                 {"square": self.square_name(g)})
            if self.exit_usable(g, hero):
                self.heroes[hero] = None
                self.escaped.append(hero)
                self.events.emit("escape", f"The {hero} hero leaves the mall by {self.square_name(g)}.",
                                 {"hero": hero, "square": self.square_name(g)})
                break
        if self.crystal_credit is not None and self.heroes["purple"] != self.crystal_credit:
            self.crystal_credit = None
        if self.heroes[hero] is not None:
            self.events.emit("hero", f"The {hero} hero: {self.square_name(start)} -> {self.square_name(self.heroes[hero])}.",
                             {"hero": hero, "from": self.square_name(start), "to": self.square_name(self.heroes[hero])})
        self._check_theft()
        if emptied and self.result is None:
            self.sand_runs_out(f"The flip left no sand at {seconds_name(self.now_ms)} s: everyone loses.")
        elif len(self.escaped) == len(HEROES) and self.result is None:
            self.finish(True, "escape", "Every hero is out with the loot: everyone wins.")

    def _flip(self, g: Cell) -> bool:
        """Flip the timer on the hourglass ``g``; whether the flip left no sand at all (a flip
        with a full timer): the caller ends the move there and lets the sand run out."""
        left = self.time_left_ms()
        self.deadline_ms = self.now_ms + (self.scenario.timer_ms - left)
        self.used.add(g)
        self.flips += 1
        self.events.emit("flip", f"Hourglass at {self.square_name(g)}: the timer is flipped; "
                         f"{seconds_name(self.time_left_ms())} s left (was {seconds_name(left)}).",
                         {"square": self.square_name(g), "left": seconds_name(self.time_left_ms()),
                          "before": seconds_name(left)})
        if self.solo:
            pool = self.deck + self.discard
            self.deck, self.discard = self.chance.shuffle("solo-deck", pool), []
            self.events.emit("solo-deck", "The action tiles are shuffled into a new deck.", {})
        elif self.scenario.pass_on_flip:
            self.pass_hands()
        if self.scenario.talk == "windows":
            self.talk_open = True
            self.events.emit("talk", "Talk is open until the next action.", {})
        return self.deadline_ms <= self.now_ms  # a flip with a full timer leaves no sand at all

    def _join(self, plan: tuple[str, Cell, int, Cell], opened_by: str | None) -> None:
        name, origin, quarters, g = plan
        self.stack.pop(0)
        self.mall.place(name, self.data.tiles[name], origin, quarters)
        self.events.emit("explore", f"Tile {name} joins the mall at {self.square_name(g)}; "
                         f"{len(self.stack)} left in the stack.",
                         {"tile": name, "at": self.square_name(g), "origin": list(origin), "quarters": quarters})
        if opened_by == "green" and self.scenario.elf_talk and self.scenario.talk == "windows":
            self.talk_open = True
            self.events.emit("talk", "The elf explored: talk is open until the next action.", {})

    def _check_theft(self) -> None:
        if self.theft:
            return
        for hero, g in self.heroes.items():
            if g is None or self.kind(g) != ("item", hero):
                return
        self.theft = True
        self.events.emit("theft", "The theft! All four heroes hold their items; the vortexes stop. Now escape.", {})

    # ---------------------------------------------------------------------------- time
    def next_deadline(self) -> int | None:
        """The next moment time alone changes the game: the earliest of ``timers``."""
        if self.result is not None:
            return None
        return min((moment for moment, _ in self.timers()), default=None)

    def advance_clock(self, now_ms: int) -> None:
        """Let time pass to ``now_ms``: every timed change due by then is made at its own moment,
        earliest first, until the game ends."""
        while self.result is None:
            due = [timer for timer in self.timers() if timer[0] <= now_ms]
            if not due:
                break
            moment, change = min(due, key=lambda timer: timer[0])
            self.now_ms = moment
            change()
            if self.result is None and (moment, change) in self.timers():
                raise RuntimeError(f"the timed change {change.__name__} at {moment} ms left its timer in place")
        if self.result is None:
            self.now_ms = now_ms
        self.after_change()

    # ---------------------------------------------------------------------------- legal inputs
    def legal_inputs(self, seat: str) -> list[str]:
        return [move_name(m) for m in self.legal_moves(seat)]

    def legal_moves(self, seat: str) -> list[Move]:
        """Every input ``seat`` may send now, as values in full (``legal_inputs`` is their
        text): per hero its moves, vortexes, escalator and exploration, then the crystal
        ball's explorations, then what needs no action tile; without what ``check_actor``
        refuses. A variant adds its own verbs' moves, or filters, around ``super()``."""
        if self.result is not None:
            return []
        held = self.actions_of(seat)
        out: list[Move] = []
        for hero in HEROES:
            if self.heroes[hero] is not None:
                out += self.hero_moves(hero, held)
        out += self.crystal_moves(held) + self.table_moves(seat)
        return [m for m in out if self.actor_may(seat, m)]

    def actor_may(self, seat: str, move: Move) -> bool:
        """Whether ``check_actor`` lets ``seat`` send ``move``."""
        try:
            self.check_actor(seat, move)
        except InputError:
            return False
        return True

    def hero_moves(self, hero: str, held: tuple[str, ...]) -> list[Move]:
        """The moves of ``hero`` (in the mall) a seat holding the action tiles ``held`` may make."""
        out: list[Move] = []
        g = self.heroes[hero]
        assert g is not None
        for d in "NESW":
            if DIR_NAME[d] in held:
                out += [Move("move", hero=hero, direction=d, squares=n) for n in range(1, len(self.path(hero, d)) + 1)]
        if "vortex" in held and not self.theft:
            out += [Move("vortex", hero=hero, square=self.square_name(v)) for v in self.free_vortexes(hero) if v != g]
        if "escalator" in held:
            end = self.escalator_end(g)
            if end is not None and self.hero_at(end) is None:
                out.append(Move("escalator", hero=hero))
        if "explore" in held and self.stack and self.kind(g)[1] == hero and self.joinable(g):
            out.append(Move("explore", hero=hero))
        return out

    def crystal_moves(self, held: tuple[str, ...]) -> list[Move]:
        """Explorations by the crystal ball the mage stands on, for a seat holding ``held``."""
        if "explore" in held and self.stack and self.scenario.crystal:
            mage = self.heroes["purple"]
            if mage is not None and self.kind(mage)[0] == "crystal" and (mage not in self.used or self.crystal_credit == mage):
                return [Move("explore", square=self.square_name(g)) for g in self.mall.squares() if self.joinable(g)]
        return []

    def table_moves(self, seat: str) -> list[Move]:
        """What needs no action tile: a draw (solo), the pawn, stares (talk is a form)."""
        out = [Move("draw")] if self.solo else []
        return (out + [Move("pawn", seat=s) for s in self.seats if s != seat and s != self.pawn]
                + [Move("stare", seat=s) for s in self.seats if s != seat])

    def input_forms(self, seat: str) -> list[str]:
        """``say TEXT`` exactly when ``seat`` may talk (a ``say`` would be accepted now)."""
        return ["say TEXT"] if self.result is None and self.talk_open_for(seat) else []

    # ---------------------------------------------------------------------------- views
    def view(self, seat: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "scenario": self.scenario.name, "players": self.players,
            "time_left": seconds_name(self.time_left_ms()),
            "theft": self.theft, "escaped": list(self.escaped),
            "heroes": {h: self.square_name(g) for h, g in self.heroes.items() if g is not None},
            "tiles": [{"tile": p.name, "origin": list(p.origin), "quarters": p.quarters} for p in self.mall.placed],
            "stack": len(self.stack), "used": sorted(self.square_name(g) for g in self.used),
            "talk": "open" if self.talk_open else "silence", "pawn": self.pawn,
            "cameras_lock": self.cameras_lock(),
        }
        if self.solo:
            out["deck"] = len(self.deck)
            out["discard_top"] = self.discard[-1] if self.discard else None
        else:
            out["hands"] = {s: list(h) for s, h in zip(self.seats, self.hands)}
        if self.result is not None:
            out["result"] = self.result.as_dict()
        return out

    def score(self) -> dict[str, Any]:
        return {"escaped": len(self.escaped), "theft": self.theft, "time_left": seconds_name(self.time_left_ms())}

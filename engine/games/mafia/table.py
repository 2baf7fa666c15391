"""The table of one Classic Mafia game: who sits where with which card, who is still in, the
phase, and the night's calling order. These are the facts every other part of the rules reads
(``day.py``, ``night.py``, ``state.py``, the renderer), with the two things any phase may end
in: a player leaving the game, and the game's end.
"""

from __future__ import annotations

from collections.abc import Callable

from arbiter.engine.chance import Chance
from arbiter.engine.errors import IllegalMoveError
from arbiter.engine.events import HOST, EventLog
from arbiter.engine.game import GameState, Result
from arbiter.engine.games.mafia.data import MafiaData, NightStep

NOMINATE, VOTE, NIGHT = "nominate", "vote", "night"

Plan = Callable[[], None]
"""What applies an input that has been checked in full (validate, then mutate)."""

_SEATS: dict[int, tuple[str, ...]] = {}
"""The seats of a table of N, made once: every game of N players shares the one tuple and its
names (whose hashes, which every dict of the state keyed by seat needs, are then found once)."""


_CARD_STEPS: dict[int, tuple[tuple[NightStep, ...], dict[str, tuple[str, ...]]]] = {}
"""By the id of a game data's night steps (kept with them, so the id stays theirs): each card's
steps, in calling order. Made once per data, read at every deal."""


def _steps_of_cards(data: MafiaData) -> dict[str, tuple[str, ...]]:
    """Card -> the names of the night steps it acts in (``data.night``'s order)."""
    night = data.night
    kept = _CARD_STEPS.get(id(night))
    if kept is None or kept[0] is not night:
        steps: dict[str, tuple[str, ...]] = {}
        for step in night:
            for c in dict.fromkeys(step.cards):  # (a card named twice in a step is one card)
                steps[c] = steps.get(c, ()) + (step.name,)
        kept = _CARD_STEPS[id(night)] = (night, steps)
    return kept[1]


class Table(GameState):
    """The facts of the game; ``MafiaState`` is the whole game."""

    # Every attribute of the state is a slot (the instance dict is left to the bots' memos,
    # ``bot_memos``): with more than 30 attributes in its dict, CPython gives an object a dict
    # of its own instead of the class's shared keys, and every method called on it and most
    # attributes read are then looked up the slow way. The slots were 5.5% of a bench game's
    # instructions. ``contract.state_fields`` reads slots and dict alike.
    __slots__ = (
        "data", "deck", "title", "events", "seats", "card", "_title", "_side", "_team", "_team_seats", "_holders",
        "alive", "fate", "shown", "result", "day", "night", "phase", "clock_step_ms",
        "nominations", "done_nominating", "round", "candidates", "voters", "votes", "said", "no_vote", "shielded",
        "steps", "step_index", "_step", "_head", "suggestions", "night_acts", "jailed", "arrest_told", "arrested",
    )

    DAY_STEP_MS = 1000
    # ``clock_step_ms``: a day input takes a second of the virtual clock; a night input none, so
    # the clock does not count the secret inputs of the night (a team's whispers) for other
    # seats. A plain attribute, set with the phase (``_set_phase``), as the session reads it at
    # every input.

    def __init__(self, data: MafiaData, deck: dict[str, int], title: str, chance: Chance, events: EventLog) -> None:
        self.data = data
        self.deck = dict(deck)
        self.title = title
        self.events = events
        cards = [name for name, n in deck.items() for _ in range(n)]
        n = len(cards)
        self.seats = _SEATS.get(n) or _SEATS.setdefault(n, tuple(f"p{i}" for i in range(1, n + 1)))
        dealt = chance.shuffle("deal", cards)
        self.card: dict[str, str] = dict(zip(self.seats, dealt))
        # each seat's card's facts, read from the deal (which never changes) at every input
        info = data.cards
        self._title: dict[str, str] = {}
        self._side: dict[str, str] = {}
        self._team: dict[str, str | None] = {}
        self._team_seats: dict[str, tuple[str, ...]] = {}  # team -> its seats in seat order (team_seats)
        # night step -> the seats dealt a card that acts in it, in seat order: who may hold the
        # step's power (``step_holders``, ``_head_of``), found without looking at every seat
        self._holders: dict[str, tuple[str, ...]] = {}
        steps_of = _steps_of_cards(data)
        for s, c in self.card.items():  # in seat order
            facts = info[c]
            self._title[s], self._side[s], self._team[s] = facts.title, facts.side, facts.team
            if facts.team is not None:
                self._team_seats[facts.team] = self._team_seats.get(facts.team, ()) + (s,)
            for step in steps_of.get(c, ()):
                self._holders[step] = self._holders.get(step, ()) + (s,)
        self.alive: dict[str, bool] = {s: True for s in self.seats}
        self.fate: dict[str, str] = {}  # seat -> how it left the game ("expelled on day 2", ...)
        self.shown: set[str] = set()  # seats whose card is public
        self.result: Result | None = None
        self.day = 0
        self.night = 0
        self.phase = NIGHT
        self.clock_step_ms = 0
        # the day
        self.nominations: dict[str, str] = {}  # nominee -> nominator, in nomination order
        self.done_nominating: dict[str, str | None] = {}  # seat -> its nominee, or None (passed)
        self.round = 0
        self.candidates: tuple[str, ...] = ()
        self.voters: tuple[str, ...] = ()
        self.votes: dict[str, str | None] = {}  # voter -> candidate, or None (abstained)
        self.said: dict[str, int] = {}  # lines each seat said in this phase or step
        self.no_vote: str | None = None  # the Chameleon's choice, for today
        self.shielded: str | None = None  # the Agent's choice, for today (secret until it holds)
        # the night
        self.steps: list[NightStep] = []
        self.step_index = 0
        # what ``step()`` answers, and that step's head (``step_head``), kept as the phase, the
        # step, a departure or an arrest changes them (``_sync_step``): read at every input
        self._step: NightStep | None = None
        self._head: str | None = None
        self.suggestions: dict[str, str | None] = {}  # team member -> suggested target, or None
        self.night_acts: dict[str, tuple[str, str, str | None]] = {}  # step -> (seat, verb, target or None)
        self.jailed: str | None = None  # arrested last night: no night action tonight
        self.arrest_told = False  # whether the jailed player's role was called tonight (and told)
        self.arrested: list[str] = []  # everyone ever arrested (once per game)

    # ---------------------------------------------------------------------------- basic facts
    def title_of(self, seat: str) -> str:
        return self._title[seat]

    def side_of(self, seat: str) -> str:
        return self._side[seat]

    def team_of(self, seat: str) -> str | None:
        return self._team[seat]

    def living(self) -> list[str]:
        return [s for s in self.seats if self.alive[s]]

    def team_seats(self, team: str) -> list[str]:
        """The seats dealt a card of ``team`` (kept from the deal, which never changes)."""
        return list(self._team_seats.get(team, ()))

    def awake_team(self, team: str) -> list[str]:
        """Living members of ``team`` who are not under arrest tonight: who confers and hears."""
        alive, jailed = self.alive, self.jailed
        return [s for s in self._team_seats.get(team, ()) if alive[s] and s != jailed]

    def step(self) -> NightStep | None:
        """The night step awake now (None by day, and between the night's last step and dawn)."""
        return self._step

    def _set_phase(self, phase: str) -> None:
        """Change the phase, with what goes with it (the clock's step, the step awake)."""
        self.phase = phase
        self.clock_step_ms = 0 if phase == NIGHT else self.DAY_STEP_MS
        self._sync_step()

    def _sync_step(self) -> None:
        """Keep ``_step`` and ``_head`` for the phase, the step index, the living and the jailed."""
        if self.phase != NIGHT or not -1 < self.step_index < len(self.steps):
            self._step = self._head = None
        else:
            self._step = step = self.steps[self.step_index]
            self._head = self._head_of(step)

    def step_holders(self, step: NightStep) -> list[str]:
        """The living seats dealt a card of ``step`` (one of this game's night steps), in seat order."""
        alive = self.alive
        return [s for s in self._holders.get(step.name, ()) if alive[s]]

    def step_head(self, step: NightStep) -> str | None:
        """Who uses the step's power: the head card's holder (Boss, Chief) or else the first
        living holder in seat order, skipping one under arrest while another may act; a lone
        holder under arrest is still called (and may only pass)."""
        if step is self._step:
            return self._head
        return self._head_of(step)

    def _head_of(self, step: NightStep) -> str | None:
        """``step_head(step)`` found from the table (in one pass over the step's holders)."""
        alive, card, jailed = self.alive, self.card, self.jailed
        head_card = step.cards[0]
        free = held = None  # the first free holder, the first holder (under arrest)
        for s in self._holders.get(step.name, ()):  # in seat order, each dealt a card of the step
            if alive[s]:
                if s != jailed:
                    if card[s] == head_card:
                        return s
                    if free is None:
                        free = s
                elif held is None:
                    held = s
        return free if free is not None else held

    def conferring(self, step: NightStep, head: str | None = None) -> list[str]:
        """Team members still expected to suggest or pass before the head acts (``head``: the
        step's head, ``step_head(step)``, when the caller has found it)."""
        if step.team is None:
            return []
        return self._conferring_with(step, self.step_head(step) if head is None else head)

    def _conferring_with(self, step: NightStep, head: str | None) -> list[str]:
        """``conferring(step)``, the step's head (``step_head(step)``) known."""
        if step.team is None:
            return []
        alive, jailed, suggestions = self.alive, self.jailed, self.suggestions
        return [s for s in self._team_seats.get(step.name, ())
                if alive[s] and s != jailed and s != head and s not in suggestions]

    def current_voter(self) -> str | None:
        """The voter called in the roll-call: the first living voter, in seat order, who has not
        voted this round. Every vote so far was cast by a voter called before it (only the one
        called may vote), so the search starts after as many voters as there are votes. Nobody
        is called once every candidate has left the game: there is nothing left to vote on, so
        the round is over rather than a roll-call of forced abstentions."""
        if not self.candidates:
            return None
        alive, votes, voters = self.alive, self.votes, self.voters
        for v in voters[len(votes):] if votes else voters:
            if alive[v] and v not in votes:
                return v
        return None

    def counts(self) -> dict[str, int]:
        """The living players of each side (a seat's side is town, mafia or loner)."""
        sides = list(map(self._side.__getitem__, filter(self.alive.__getitem__, self.seats)))  # (no loop in Python)
        return {"town": sides.count("town"), "mafia": sides.count("mafia"), "loner": sides.count("loner")}

    def knows_card(self, viewer: str, seat: str) -> bool:
        if viewer == HOST or viewer == seat or seat in self.shown:
            return True
        team = self.team_of(viewer) if viewer in self.card else None
        return team is not None and self.team_of(seat) == team

    def _phase_name(self) -> str:
        if self.phase == NOMINATE:
            return f"the nominations of day {self.day}"
        if self.phase == VOTE:
            return f"the vote of day {self.day} (round {self.round})"
        return f"night {self.night}"

    # ------------------------------------------------------------------------ shared checks
    def _check_living(self, verb: str, target: str, seat: str) -> None:
        if not self.alive[target]:
            raise IllegalMoveError(f"{target} is out of the game ({self.fate[target]}); choose a living player")
        if target == seat:
            raise IllegalMoveError(f"{seat} cannot {verb} themselves")

    # ------------------------------------------------------------------- leaving and winning
    def _remove(self, seat: str, fate: str, text: str) -> None:
        self.alive[seat] = False
        self.fate[seat] = fate
        self.shown.add(seat)
        if self._step is not None:  # the step's head may have left
            self._head = self._head_of(self._step)
        self.events.emit("out", f"{text}; their card: {self.title_of(seat)}.",
                         {"seat": seat, "card": self.card[seat], "fate": fate})

    def _check_win(self) -> bool:
        c = self.counts()
        if c["mafia"] == 0 and c["town"] > 0:
            winner, reason, why = "town", "no-mafia", "The town wins: no Mafia-side player is left."
        elif c["mafia"] > c["town"]:
            winner, reason, why = "mafia", "mafia-majority", (
                f"The Mafia wins: {c['mafia']} Mafia-side against {c['town']} town "
                + ("player." if c["town"] == 1 else "players."))
        elif c["mafia"] == 0:
            left = "only loners are left" if c["loner"] else "no town or Mafia player is left"
            winner, reason, why = None, "no-side", f"Neither side can win: {left}."
        else:
            return False
        loners = [s for s in self.seats if self.side_of(s) == "loner"]
        notes = [f"the {self.title_of(s)} ({s}) " + ("is alive and wins" if self.alive[s] else "is out and loses")
                 for s in loners]
        text = why + (" Loners: " + "; ".join(notes) + "." if notes else "")
        winners = tuple(s for s in self.seats if (winner and self.side_of(s) == winner)
                        or (self.side_of(s) == "loner" and self.alive[s]))
        self.result = Result(winner, reason, text, winners,
                             {s: ("won" if s in winners else "lost") for s in self.seats})
        self.events.emit("game-over", text, self.result.as_dict())
        for s in self.seats:
            if s not in self.shown:
                self.shown.add(s)
                self.events.emit("reveal", f"{s} was the {self.title_of(s)}.", {"seat": s, "card": self.card[s]})
        return True

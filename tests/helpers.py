"""Test helpers: staging exact positions (a game's chance outcomes are fed as recorded ones, so
a test chooses the board layout, the deal, who holds which identity without touching
internals), and running the ``arbiter`` command in-process and reading its framed answers."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from click.testing import CliRunner, Result

from arbiter.engine import registry
from arbiter.engine.chance import ChanceRecord
from arbiter.engine.errors import IllegalMoveError, InputError
from arbiter.engine.events import HOST
from arbiter.engine.games.fbi_mafia import data as fm_data
from arbiter.engine.session import Session

FBI = registry.get("fbi-mafia")


def names(mode: str = "standard-3v3") -> list[str]:
    size = fm_data.load().modes[mode].board
    return list(fm_data.load().suspects[: size * size])


def fbi_game(
    mode: str = "standard-3v3",
    *,
    identities: dict[str, str] | None = None,
    hand: list[str] | None = None,
    deck_rest: list[str] | None = None,
    layout: list[str] | None = None,
    seed: int = 0,
) -> Session:
    """A game whose board is ``layout`` (default: the suspects in data order, row by row, so
    a1=Ada, b1=Boris, ...), whose characters draw ``identities`` (character -> suspect; the
    rest are filled in order), then the Criminalist's ``hand``, then ``deck_rest``."""
    spec = fm_data.load().modes[mode]
    pool = names(mode)
    board = list(layout) if layout is not None else list(pool)
    chosen = dict(identities or {})
    free = [n for n in pool if n not in chosen.values() and n not in (hand or []) and n not in (deck_rest or [])]
    deck = []
    for character in spec.turn_order:
        deck.append(chosen[character] if character in chosen else free.pop(0))
    deck += list(hand or [])
    if spec.evidence_hand and hand is None:
        deck += [free.pop(0) for _ in range(spec.evidence_hand)]
    deck += list(deck_rest or [])
    deck += [n for n in free if n not in deck]
    records = [ChanceRecord("board", board), ChanceRecord("identity-deck", deck)]
    return Session(FBI, mode, seed=seed, recorded=records)


def fbi_states(mode: str, seed: int, every: int = 2):
    """The states of one random FBI vs Mafia game, every ``every``-th input (a replay up to each;
    the state changes in place as the replay goes on)."""
    from arbiter.engine.bench import play_random

    rules = registry.get("fbi-mafia")
    whole = play_random(rules, mode, seed)
    s = Session(rules, mode, seed=seed)
    for k, move in enumerate(whole.moves):
        if k % every == 0 and not s.over:
            yield s.state
        s.submit(move.seat, move.text, move.time_ms)


def cell_of(session: Session, suspect: str) -> str:
    from arbiter.engine.games.fbi_mafia.grid import cell_name

    return cell_name(session.state.pos[suspect])


def play(session: Session, *lines: str) -> None:
    """Submit ``seat words`` lines in order."""
    for line in lines:
        seat, _, text = line.partition(" ")
        session.submit(seat, text)


def host_view(session: Session) -> dict:
    return session.state.view(HOST)


MAFIA = registry.get("mafia")


def mafia_game(cards: list[str], *, deck: dict[str, int] | None = None, seed: int = 0) -> Session:
    """A Classic Mafia game whose seats p1, p2, ... are dealt ``cards`` in that order. The
    default setup for ``len(cards)`` players is used unless ``deck`` (a custom deck) is given;
    ``cards`` must be a dealing of that deck."""
    from arbiter.engine.games.mafia.rules import variant_name

    options = {"deck": deck} if deck is not None else {}
    return Session(MAFIA, variant_name(len(cards)), seed=seed, options=options,
                   recorded=[ChanceRecord("deal", list(cards))])


MAZE = registry.get("magic-maze")
MAZE_HEROES = ("purple", "yellow", "green", "orange")


def roles_game(scenario: str, cards: list[str], *, level: int = 3, players: int | None = None,
               deck: dict | None = None, stack: tuple[str, ...] | list[str] = (),
               heroes: tuple[str, ...] = MAZE_HEROES, seed: int = 0) -> Session:
    """A Hidden Roles game of ``scenario`` whose role cards come off the shuffled deck in the
    order ``cards`` (p1 gets the first usable one, p2 the next, ...; a card the game cannot
    use is discarded and the seat draws again), the rest of the deck after them. The level's
    deck, or ``deck`` (a custom deck's options: title, level, cards). ``players``: the number
    of cards by default. The stack starts with ``stack``; the heroes stand on b2, c2, b3, c3 of
    the start tile in ``heroes`` order."""
    from arbiter.engine.games.magic_maze import data as mm
    from arbiter.engine.games.magic_maze.roles.deal import RoleSetup

    players = players if players is not None else len(cards)
    options = {"players": players, **({"deck": deck} if deck is not None else {"roles": level})}
    pool = list(RoleSetup.from_options(options).cards)
    for card in cards:
        pool.remove(card)
    sc = mm.load().scenarios[scenario]
    order = list(stack) + [t for t in sc.stack if t not in stack]
    records = [ChanceRecord("stack", order), ChanceRecord("heroes", list(heroes)),
               ChanceRecord("roles", list(cards) + pool)]
    return Session(MAZE, scenario, seed=seed, options=options, recorded=records)


def responses(output: str) -> list[list[str]]:
    """Text-mode responses: each a list of lines opening with '= ' or '? ', closed by a blank
    line. Lines the CLI prints before the game (starting with '#') are skipped."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in output.splitlines():
        if current is None:
            if line.startswith(("= ", "? ")) or line in ("=", "?"):
                current = [line]
            elif line.strip() and not line.startswith("#"):
                raise AssertionError(f"text outside a response: {line!r}")
        elif line == "":
            out.append(current)
            current = None
        else:
            current.append(line)
    assert current is None, f"last response not closed by an empty line: {current}"
    return out


LIBYAML = getattr(yaml, "CSafeLoader", None) is not None
"""Whether this PyYAML has libyaml, which reads the data files (Python's reader otherwise: the
same values, its own words for a refusal)."""
REFUSED_VALUE_COLON = "mapping values are not allowed " + ("in this context" if LIBYAML else "here")
"""The reader's words for a colon YAML does not read as a key's (a key too long, a value's)."""
REFUSED_FLOW_COLON = "did not find expected ',' or '}'" if LIBYAML else "expected ',' or '}', but got ':'"
"""The reader's words for a colon in a flow mapping it does not read as a key's."""


def run(*args: object, input: str | None = None) -> Result:
    """Invoke ``arbiter ARGS`` in-process and check that it did not crash."""
    from arbiter.cli.main import main

    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    clean(result)
    return result


def clean(result: Result) -> None:
    """No Python traceback: either success, or a handled exit (ClickException, usage error)."""
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"crashed with {exc!r}:\n{result.output}"
    assert "Traceback" not in result.output


def precondition(ok: bool, why: str) -> None:
    """A set-up check: fails the test as a set-up problem, never as the behaviour under test."""
    if not ok:
        raise RuntimeError(f"test set-up went wrong: {why}")


def system_can_name(text: str) -> bool:
    """Whether ``text`` can be a file's name or an environment variable's value here: the
    system's encoding (the locale's, ``sys.getfilesystemencoding``) can write it. Under a
    Latin-1 locale, Arabic-Indic digits cannot be; arbiter never asks for them, but some tests
    put them in a name to see them refused."""
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


REPO = Path(__file__).resolve().parents[1]


def tree_env() -> dict[str, str]:
    """This process's environment with this tree's source first on Python's path: for a child
    Python that must run the code under test."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=str(REPO) + (os.pathsep + path if path else ""))


def run_referee(args: list[str], cwd: Path, timeout: float = 60) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``arbiter ARGS`` as a child process (this tree's source first on the path), with no
    input; the completed process and the seconds it took. A referee that hangs or prints a
    traceback fails the test."""
    env = tree_env()
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "arbiter.cli.main", *args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the referee hung: no exit within {timeout} s: arbiter {' '.join(args)}")
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc, time.monotonic() - start


def unwrap(lines: list[str]) -> list[str]:
    """Board lines with the wrapped ones joined again (a continuation starts with two spaces)."""
    out: list[str] = []
    for line in lines:
        if line.startswith("  ") and out and not line.strip().startswith(("|", "+")):
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


# -- staging rules tests: one set of helpers, one strictness, for every game ------------------
class Refusal(str):
    """The message of a refused input (a ``str``, for ``in``), with the error itself at hand."""

    error: InputError

    def __new__(cls, error: InputError) -> Refusal:
        made = super().__new__(cls, error.message)
        made.error = error
        return made

    @property
    def message(self) -> str:
        return self.error.message

    @property
    def allowed(self) -> tuple[str, ...]:
        return self.error.allowed

    @property
    def kind(self) -> str:
        return self.error.kind


def snapshot(s: Session) -> bytes:
    """Everything an input could change: the state, its events and chance, the log, the moves
    and the clock (what the contract checks a refusal leaves alone)."""
    from arbiter.engine.contract import state_snapshot

    return state_snapshot(s)


def refused(s: Session, seat: str, text: str,
            error: type[InputError] | tuple[type[InputError], ...] = IllegalMoveError,
            time_ms: int | None = None) -> Refusal:
    """Submit an input that must be refused with exactly ``error`` (or one of several; never a
    subclass or a parent of it); nothing at all may change."""
    before = snapshot(s)
    with pytest.raises(InputError) as info:
        s.submit(seat, text, time_ms)
    exact = error if isinstance(error, tuple) else (error,)
    assert type(info.value) in exact, f"{text!r}: {type(info.value).__name__}: {info.value.message}"
    assert snapshot(s) == before, f"refused input {text!r} changed the game"
    return Refusal(info.value)


def host(s: Session) -> dict:
    return s.state.view(HOST)


def since(s: Session, start: int) -> list:
    """The events from index ``start`` of the whole log."""
    return s.events.since(start)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]

"""End-to-end tests of the ``arbiter`` command for Classic Mafia (``docs/rules/mafia.md``): games with
random bots, player counts and modes, a game by hand among bots, ``show``, ``bench``, and a
failing external bot.

How these tests run (in-process, or a child process with a hard timeout for an external bot;
never a traceback) and what they share: ``tests/mafia_cli_staging.py``.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from arbiter.engine.bots import RandomBot
from arbiter.engine.match import Match
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session

from tests.helpers import REPO, precondition, responses, run, run_referee, unwrap, write
from tests.mafia_cli_staging import (
    ALL_MODES,
    COUNTS,
    GOOD_DECK,
    MAFIA,
    SETUPS,
    TITLES,
    deck_file,
    deck_titles,
    table,
)


# -- play with random bots --------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
def test_play_random_bots_to_a_result_for_every_player_count(tmp_path: Path, players: int) -> None:
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--players", players, "--bots", "random", "--seed", 5, "--transcript", t)
    assert r.exit_code == 0, r.output
    seats = [f"p{i}" for i in range(1, players + 1)]
    first = r.output.splitlines()[0]
    assert "seed 5" in first and first.endswith("seats: " + " ".join(seats)), first
    resp = responses(r.stdout)
    moves, board = resp[:-1], resp[-1]
    assert all(x[0].startswith("= ") for x in moves), "a bot input was refused"
    results = [line for x in moves for line in x if line.startswith("result: ")]
    assert len(results) == 1 and results[0] in moves[-1], "the result is not in the last move's answer"
    # the output ends with the board table and the result line
    assert board[0] == "= board"
    assert unwrap(board)[-1] == results[0], board
    rows = table(board)
    assert sorted(rows, key=lambda s: int(s[1:])) == seats
    assert "?" not in {card for _, card in rows.values()}, "a card is still hidden at the end"
    assert Counter(card for _, card in rows.values()) == deck_titles(SETUPS[players])
    assert unwrap(r.output.rstrip("\n").splitlines())[-1] == results[0]
    # the transcript replays
    rr = run("replay", t)
    assert rr.exit_code == 0, rr.output
    assert rr.output.startswith(f"ok {t}: {len(moves)} moves, finished"), rr.output
    assert yaml.safe_load(t.read_text(encoding="utf-8"))["options"] == {}


def test_play_same_seed_same_game() -> None:
    a = run("play", "mafia", "--players", 9, "--bots", "random", "--seed", 42)
    b = run("play", "mafia", "--players", 9, "--bots", "random", "--seed", 42)
    c = run("play", "mafia", "--players", 9, "--bots", "random", "--seed", 43)
    assert a.exit_code == b.exit_code == c.exit_code == 0
    assert a.output == b.output
    assert a.output != c.output


def test_mode_is_the_same_as_players() -> None:
    a = run("play", "mafia", "--players", 7, "--bots", "random", "--seed", 3)
    b = run("play", "mafia", "--mode", "7-players", "--bots", "random", "--seed", 3)
    c = run("play", "mafia", "--players", 7, "--mode", "7-players", "--bots", "random", "--seed", 3)
    assert a.exit_code == b.exit_code == c.exit_code == 0, a.output + b.output + c.output
    assert a.output == b.output == c.output


# -- player counts and modes that do not exist ------------------------------------------------


@pytest.mark.parametrize("players", [5, 13, 1, 40])
def test_player_count_without_a_deck_is_a_clear_error(players: int) -> None:
    """Said in players, not in modes (it once answered "mafia has no mode '3-players'"), as a
    usage error of ``--players`` (the option named, as Click names one), in play and bench."""
    for command in (("play", "mafia", "--players", players, "--bots", "random"),
                    ("bench", "mafia", "--players", players)):
        r = run(*command)
        assert r.exit_code == 2, r.output
        assert ("Error: Invalid value for --players: Classic Mafia's default decks are for 6 to 12 players, not "
                f"{players} (allowed: 6, 7, 8, 9, 10, 11, 12)") in r.output


@pytest.mark.parametrize(("args", "option"), [
    (("magic-maze", "--players", "9"), "--players"),
    (("magic-maze", "--players", "2", "--roles", "2"), "--players"),
    (("mafia", "--roles", "2"), "--roles"),
    (("mafia", "--deck", "scenarios/magic_maze/roles.yaml"), "--deck"),  # another game's file
])
def test_a_setup_that_does_not_fit_names_the_option_it_came_from(args: tuple[str, ...], option: str) -> None:
    """The game's refusal of a setup names the option (``SetupError.option``), as Click's own do."""
    r = run("play", *(str(REPO / a) if a.endswith(".yaml") else a for a in args))
    assert r.exit_code == 2, r.output
    assert f"Error: Invalid value for {option}: " in r.output


def test_player_count_zero_is_a_usage_error() -> None:
    r = run("play", "mafia", "--players", 0, "--bots", "random")
    assert r.exit_code == 2 and "--players" in r.output


def test_players_and_a_different_mode_are_refused() -> None:
    r = run("play", "mafia", "--players", 8, "--mode", "9-players", "--bots", "random")
    assert r.exit_code != 0, r.output
    assert "Error" in r.output and "9-players" in r.output and "8 players" in r.output


@pytest.mark.parametrize("option", ["--players", "--deck"])
def test_fbi_mafia_refuses_players_and_decks(tmp_path: Path, option: str) -> None:
    value = 6 if option == "--players" else deck_file(tmp_path / "d.yaml", GOOD_DECK)
    r = run("play", "fbi-mafia", option, value, "--bots", "random", "--transcript", tmp_path / "t.yaml")
    assert r.exit_code != 0, r.output
    assert "Error" in r.output
    assert f"Invalid value for {option}: FBI vs Mafia is not " in r.output and f"leave out {option}" in r.output
    assert "standard-3v3" in r.output  # says what to use instead
    assert not (tmp_path / "t.yaml").exists()


# -- playing by hand among bots ----------------------------------------------------------------


def seed_where_p1_holds(card: str, players: int = 6) -> int:
    for seed in range(1, 500):
        if Session(MAFIA, f"{players}-players", seed=seed).state.card["p1"] == card:
            return seed
    raise RuntimeError(f"no seed deals p1 the {card}")


def hand_inputs(seed: int, players: int = 6) -> tuple[list[str], Session, str]:
    """Play the game in-process as the CLI does (random bots p2..pN, p1 by hand) and return
    p1's input lines (all legal when sent), the finished session and the responses' text."""
    session = Session(MAFIA, f"{players}-players", seed=seed)
    protocol = Protocol(session, "p1")
    bots = {s: RandomBot(s, seed) for s in session.seats if s != "p1"}
    sent: list[str] = []

    def lines() -> Iterator[str]:
        board_sent = talked = False
        while not session.over and session.state.alive["p1"]:
            legal = session.state.legal_inputs("p1")
            acts = [m for m in legal if m != "leave"]
            precondition(bool(acts), f"p1 asked for an input with none to give: {legal}")
            if not board_sent:
                board_sent = True
                line = "board"
            elif not talked and "say TEXT" in session.state.input_forms("p1"):
                talked = True
                line = "p1 say hello, I am new here"
            else:
                line = "p1 " + next((m for m in ("pass", "abstain") if m in acts), acts[0])
            sent.append(line)
            yield line

    out = "".join(Match(protocol, bots, lines()).run())
    return sent, session, out


@pytest.mark.parametrize("card", ["civilian", "boss", "seducer", "chief"])
def test_play_by_hand_as_p1_among_bots(tmp_path: Path, card: str) -> None:
    seed = seed_where_p1_holds(card)
    sent, session, expected = hand_inputs(seed)
    precondition(session.over, "the in-process game did not end")
    moves = tmp_path / "p1.txt"
    moves.write_text("\n".join(sent) + "\n", encoding="utf-8")
    bots = [a for i in range(2, 7) for a in ("--bot", f"p{i}=random")]
    r = run("play", "mafia", "--players", 6, "--seed", seed, "--as", "p1", *bots, "--moves", moves)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0].endswith("; you are p1")
    # the opening events: p1's own card, nobody else's
    opening = [line[len("# event: "):] for line in r.output.splitlines() if line.startswith("# event: ")]
    title = TITLES[card]
    assert f"You are p1: your card is the {title}." in opening
    assert not [e for e in opening if re.match(r"You are p[2-9]", e)], opening
    team = [e for e in opening if e.startswith("Your team")]
    if card in ("boss", "chief"):
        assert len(team) == 1 and "p1 (" in team[0]
    else:
        assert team == []
    # every line was accepted, and the game's answers are those of the in-process game
    resp = responses(r.stdout)
    assert all(x[0].startswith("= ") for x in resp), [x for x in resp if x[0].startswith("?")]
    assert expected in r.output
    # p1 sees exactly its own event stream: nothing more, nothing less
    shown = opening + [line[len("event: "):] for x in resp if x[0] != "= board"
                       for line in x if line.startswith("event: ")]
    assert shown == [e.text for e in session.events.visible_to("p1")]
    hidden = {e.text for e in session.events if not e.visible_to("p1")}
    hidden -= {e.text for e in session.events.visible_to("p1")}
    leaked = [h for h in hidden if h in r.output]
    assert not leaked, leaked
    assert "seen by the host" not in r.output
    # a secret night input of a bot shows as '- (a secret input)'; awaited night roles as '-'
    for x in resp:
        if x[0].startswith("= p") and x[0].split()[1] != "p1":
            words = x[0].split()
            assert words[2] in ("say", "nominate", "pass", "vote", "abstain", "leave"), x[0]
    # the boards before the end show p1's card, its team's, and the cards of the out only
    host = session.state
    boards = [x for x in resp if x[0] == "= board"]
    assert boards, "no board was shown"
    first = table(boards[0])
    for seat, (status, shown_card) in first.items():
        if seat == "p1" or host.team_of("p1") and host.team_of(seat) == host.team_of("p1"):
            assert shown_card == host.title_of(seat)
        else:
            assert shown_card == "?", (seat, shown_card)
    # the end: the final board with every card and the result
    final = resp[-1]
    assert final[0] == "= board" and final[-1].startswith("result: ")
    assert all(c == host.title_of(s) for s, (_, c) in table(final).items())


def test_play_by_hand_input_running_out_ends_cleanly(tmp_path: Path) -> None:
    seed = seed_where_p1_holds("civilian")
    moves = write(tmp_path / "p1.txt", """
        # p1 answers the first nominations only, then the file ends
        board
        p1 pass
        p1 nominate p1
        legal p1
    """)
    bots = [a for i in range(2, 7) for a in ("--bot", f"p{i}=random")]
    r = run("play", "mafia", "--players", 6, "--seed", seed, "--as", "p1", *bots, "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    resp = responses(r.stdout)
    heads = [x[0] for x in resp]
    assert "= p1 pass" in heads and "= board" in heads
    # p1 answered last, so the roll-call (or the night) follows: a second nomination is refused
    refused = [x for x in resp if x[0].startswith("? ")]
    assert len(refused) == 1 and refused[0][0].startswith("? illegal: "), refused
    assert heads[-1] == "= legal p1"
    # the file ended while p1 was awaited: no result, no final board
    assert "result:" not in r.output
    assert resp[-1][1:] and all(line.startswith(("legal: ", "form: ", "resign: ")) for line in resp[-1][1:])
    assert resp[-1][-1] == "resign: leave"


def test_play_as_p1_cannot_move_for_another_seat(tmp_path: Path) -> None:
    seed = seed_where_p1_holds("civilian")
    moves = write(tmp_path / "m.txt", "p2 pass\nboard p2\nlegal p3\np1 pass\n")
    r = run("play", "mafia", "--players", 6, "--seed", seed, "--as", "p1", "--moves", moves)
    assert r.exit_code == 3, r.output  # a line of the moves file was refused
    heads = [x[0] for x in responses(r.stdout)]
    assert [h.split(":")[0] for h in heads[:3]] == ["? denied"] * 3
    assert heads[3] == "= p1 pass"


# -- show ---------------------------------------------------------------------------------------


def _bot_transcript(tmp_path: Path, players: int = 9, seed: int = 7) -> tuple[Path, Session]:
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--players", players, "--bots", "random", "--seed", seed, "--transcript", t)
    precondition(r.exit_code == 0, r.output)
    return t, Session(MAFIA, f"{players}-players", seed=seed)


MAFIA_SIDE = {"boss", "mafia"}


def test_show_a_seat_table_of_a_mafia_transcript(tmp_path: Path) -> None:
    t, fresh = _bot_transcript(tmp_path)
    cards = fresh.state.card
    mafia_seat = next(s for s in fresh.seats if cards[s] == "mafia")
    civilian = next(s for s in fresh.seats if cards[s] == "civilian")
    for seat in (mafia_seat, civilian):
        r = run("show", t, "--seat", seat, "--at", 0)
        assert r.exit_code == 0, r.output
        lines = r.output.splitlines()
        assert lines[0] == "Classic Mafia, 9 players: day 1: nominations"
        rows = table(lines)
        assert len(rows) == 9
        for s, (status, card) in rows.items():
            knows = s == seat or (cards[seat] in MAFIA_SIDE and cards[s] in MAFIA_SIDE)
            assert card == (TITLES[cards[s]] if knows else "?"), (seat, s, card)
        assert f"your card: {TITLES[cards[seat]]}" in lines
        own = next(line for line in lines if line.startswith(seat + " "))
        assert own.rstrip().endswith("you")
    # the end of the game: every card shown, the seat's own card line and the result
    r = run("show", t, "--seat", civilian)
    assert r.exit_code == 0, r.output
    lines = unwrap(r.output.splitlines())
    assert lines[0].endswith("game over") and lines[-1].startswith("result: ")
    assert {s: c for s, (_, c) in table(lines).items()} == {s: TITLES[c] for s, c in cards.items()}
    host = run("show", t)
    assert host.exit_code == 0 and host.output != r.output


def test_show_unknown_seat_is_a_clear_error(tmp_path: Path) -> None:
    t, _ = _bot_transcript(tmp_path, players=6, seed=1)
    r = run("show", t, "--seat", "p7")
    assert r.exit_code != 0 and "p7" in r.output and "Error" in r.output


# -- bench --------------------------------------------------------------------------------------


def test_bench_mafia_one_row_per_player_count() -> None:
    r = run("bench", "mafia", "--games", 3, "--repeat", 1)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "games/s" in lines[0] and "inputs/s" in lines[0] and "won" in lines[0]
    rows = [line.split() for line in lines[2:2 + len(ALL_MODES)]]
    assert [row[0] for row in rows] == ALL_MODES
    for row in rows:
        assert row[1] == "3"
        float(row[2]), float(row[3])
        assert row[-1].endswith("%")
        winners = next(line for line in lines if line.startswith(f"winners of {row[0]}: "))
        wins = dict(w.split() for w in winners.split(": ", 1)[1].split(", "))
        assert set(wins) <= {"town", "mafia", "nobody"}, winners  # no game left unfinished
        assert sum(int(n) for n in wins.values()) == 3
    assert lines[-2] == "random bots on every seat; median of 1 round of the same games"
    assert re.fullmatch(r"peak memory: \d+(\.\d+)? MiB", lines[-1])


# -- a failing external bot ---------------------------------------------------------------------


CRASH_BOT = "import sys\nsys.exit(3)\n"
ILLEGAL_BOT = r'''
import sys
for line in sys.stdin:
    if line.startswith("go "):
        print("shoot p1", flush=True)   # nobody may shoot by day
'''


@pytest.mark.parametrize("kind", ["crash", "illegal"])
def test_failing_exec_bot_leaves_and_the_game_goes_on(tmp_path: Path, kind: str) -> None:
    script = tmp_path / f"{kind}.py"
    script.write_text(CRASH_BOT if kind == "crash" else ILLEGAL_BOT, encoding="utf-8")
    args = ["play", "mafia", "--players", "8", "--seed", "3", "--bots", "random",
            "--bot", f"p2=exec:{sys.executable} {script}", "--bot-timeout", "5", "--transcript", "t.yaml"]
    start = time.monotonic()
    proc, _ = run_referee(args, tmp_path)
    assert time.monotonic() - start < 30
    assert proc.returncode == 0, proc.stderr
    resp = responses(proc.stdout)
    i = next(i for i, x in enumerate(resp) if x[0] == "= p2 leave")
    leave = resp[i]
    assert leave[1].startswith("forfeit: p2: "), leave
    if kind == "crash":
        assert re.search(r"exited|closed", leave[1]), leave
    else:
        assert "illegal input 'shoot p1'" in leave[1], leave
    assert any(re.fullmatch(r"event: p2 leaves the game; their card: .+\.", line) for line in leave), leave
    # the game went on after the forfeit, to a result
    after = [x for x in resp[i + 1:] if x[0].startswith("= p")]
    assert after, "nothing happened after the forfeit"
    assert not any(x[0].startswith("= p2 ") for x in after)
    assert len([line for x in resp[:-1] for line in x if line.startswith("result: ")]) == 1
    assert resp[-1][0] == "= board"
    assert table(resp[-1])["p2"][0].startswith("out: left on day 1")
    doc = yaml.safe_load((tmp_path / "t.yaml").read_text(encoding="utf-8"))
    notes = [e["note"] for e in doc["log"] if "note" in e]
    assert len(notes) == 1 and notes[0]["seat"] == "p2" and notes[0]["forfeit"] == leave[1][len("forfeit: p2: "):]
    moves = [e["move"] for e in doc["log"] if "move" in e]
    assert sum(1 for m in moves if m["seat"] == "p2") == 1
    assert {"seat": "p2", "text": "leave"}.items() <= next(m for m in moves if m["seat"] == "p2").items()
    assert doc.get("result")
    rr = run("replay", tmp_path / "t.yaml")
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


def test_a_deck_naming_a_card_twice_is_refused_with_its_line(tmp_path) -> None:
    deck = tmp_path / "twice.yaml"
    deck.write_text("game: mafia\nkind: deck\ncards: {boss: 1, mafia: 1, seducer: 1, chief: 1, civilian: 2, civilian: 3}\n",
                    encoding="utf-8")
    r = run("play", "mafia", "--deck", str(deck), "--bots", "random", "--seed", "1")
    assert r.exit_code != 0 and "Traceback" not in r.output
    assert "line 3" in r.output and "'civilian' is given twice" in r.output

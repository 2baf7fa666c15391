"""The command line as Click users expect it: typed parameters with completion and readable
help, usage errors with status 2, documented exit statuses, a seat's session without its
name, 80 columns, every problem of a file at once, replays of folders with a diff, and a
terminal player's completion of what may be typed."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml

from arbiter.cli.main import main
from arbiter.cli.terminal import TerminalLines
from arbiter.cli.types import BotSpecType, Count, Decimal, GameType, SeatType, VariantType
from arbiter.engine import registry
from arbiter.engine import transcript as tr
from arbiter.engine.protocol import Protocol
from arbiter.engine.session import Session
from tests.helpers import REPO, responses, run

ROOT = Path(__file__).resolve().parents[1]


def completions(param_type: click.ParamType, incomplete: str, **params: str) -> list[str]:
    ctx = click.Context(main, info_name="arbiter")
    ctx.params.update(params)
    return [c.value for c in param_type.shell_complete(ctx, click.Option(["--x"]), incomplete)]


def test_games_modes_seats_and_bots_complete_in_the_shell() -> None:
    assert completions(GameType(), "") == registry.names()
    assert completions(GameType(), "ma") == ["mafia", "magic-maze"]
    assert completions(VariantType(), "duel", game="fbi-mafia") == ["duel-3v3", "duel-4v4"]
    assert completions(VariantType(), "", game="magic-maze") == [str(n) for n in range(1, 8)]
    assert "operative" in completions(SeatType(), "op", game="fbi-mafia")
    assert completions(BotSpecType(), "p1=", game="magic-maze") == ["p1=random", "p1=planner", "p1=exec:", "p1=py:"]
    assert completions(VariantType(), "x") == []  # no game named yet: nothing to offer


@pytest.mark.parametrize("line, offered", [
    ("play fbi-mafia --mode d", ["duel-3v3", "duel-4v4"]),
    ("play fbi-mafia --as b", ["bandit", "bomber"]),
    ("play fbi-mafia --bots r", ["random"]),
    ("play fbi-mafia --bot b", ["bandit=", "bomber="]),
    ("play fbi-mafia --bot bandit=r", ["bandit=random"]),
    ("play magic-maze --scenario ", [str(n) for n in range(1, 8)]),
    ("match mafia --players 8 s", ["sleuth"]),
    ("match mafia --players 8 new=r", ["new=random"]),
    ("tournament fbi-mafia --entrant a=r", ["a=random"]),
    ("play --mode ", []),  # no game named yet: nothing to offer
    # the seats of the mode or player count typed, not every mode's (bandit is no duel's seat)
    ("play fbi-mafia --mode duel-3v3 --as ", ["mafia", "fbi"]),
    ("play fbi-mafia --mode duel-3v3 --bot ", ["mafia=", "fbi="]),
    ("play magic-maze --players 2 --as p", ["p1", "p2"]),
    ("play mafia --players 7 --as p", [f"p{n}" for n in range(1, 8)]),
])
def test_the_shell_completes_a_command_line_as_it_is_typed(line: str, offered: list[str]) -> None:
    """Through Click's own completion, as ``eval "$(_ARBITER_COMPLETE=bash_source arbiter)"``
    runs it: an option still waiting for the value being completed once made Click stop before
    the game argument, and modes, seats and bots were never offered (the test above sets the
    game by hand, which hid it)."""
    from click.shell_completion import ShellComplete

    *args, incomplete = line.split(" ")
    found = ShellComplete(main, {}, "arbiter", "_ARBITER_COMPLETE").get_completions(args, incomplete)
    assert [c.value for c in found] == offered


def test_help_names_its_values_not_text() -> None:
    out = run("play", "--help").output
    for metavar in ("[GAME]", "--mode, --scenario MODE", "--as SEAT", "--bots KIND", "--bot SEAT=KIND"):
        assert metavar in out, metavar
    assert re.search(r"^ +--moves FILE +Read input lines from FILE", out, flags=re.M)  # (not FILENAME)
    # --bots takes what --bot takes (exec:, py: too), and its help says so
    assert "--bots KIND A bot on every seat but yours (--as), of any KIND --bot takes." in " ".join(out.split())
    assert "TEXT" not in out.split("Options:")[1].split("--seed")[0]
    for command in ([], ["play"], ["replay"], ["show"], ["games"], ["validate"], ["bench"], ["tournament"], ["match"]):
        text = run(*command, "--help").output
        widest = max(map(len, text.splitlines()))
        assert widest <= 80, (command, widest)
        assert "None" not in text, (command, text)  # (an unbounded range was shown as [x<=None])
    assert "Exit statuses" in run("--help").output
    # validate checks a custom deck too (docs/rules), and says so where a user looks first
    assert "custom decks (`kind: deck`, `kind: roles`)" in " ".join(run("validate", "--help").output.split())


@pytest.mark.parametrize("value", ["\u0663", "1_0", "+3", "3.0", "0x3", "abc", "", " ", "1" * 31, "9" * 45])
@pytest.mark.parametrize("command", [["show", "--at"], ["play", "mafia", "--players"], ["replay", "--workers"],
                                     ["bench", "--games"], ["tournament", "mafia", "--games"]])
def test_a_count_is_written_in_ascii_digits(tmp_path: Path, command: list[str], value: str) -> None:
    """Python's ``int()`` takes other scripts' digits, ``_`` and ``+``; arbiter's numbers are
    0-9 only, everywhere (as times and seeds are)."""
    t = tmp_path / "t.yaml"
    t.write_text("", encoding="utf-8")  # (the FILE show and replay need; the option is refused first)
    r = run(*command, value, *([t] if command[0] in ("show", "replay") else []))
    assert r.exit_code == 2, r.output
    shown = repr(value) if len(value) <= 40 else repr(value[:40]) + f"... ({len(value)} characters)"  # (errors.quoted)
    assert f"{shown} is not a whole number (digits 0-9, at most 30)" in r.output, r.output


def test_a_count_in_ascii_digits_is_taken() -> None:
    assert Count(min=0).convert(" 12 ", None, None) == 12
    with pytest.raises(click.BadParameter, match="-1 is not in the range x>=0"):
        Count(min=0).convert("-1", None, None)
    assert Decimal(0, 1, what="probability").convert("0.25", None, None) == 0.25
    assert Decimal(0, 1).convert(".5", None, None) == 0.5


@pytest.mark.parametrize("command, statuses", [
    ("play", (0, 1, 2, 3, 4, 130, 141)),
    ("tournament", (0, 1, 2, 130, 141)),  # (match: "as for tournament")
])
def test_a_commands_help_names_every_status_it_may_end_with(command: str, statuses: tuple[int, ...]) -> None:
    """Each status the command may end with (``arbiter --help`` lists them all), 141 too: a
    script piping the output into ``head`` reads from the help that it is not a failure."""
    text = " ".join(run(command, "--help").output.split()).split("Exit status: ")[1].split("Options:")[0]
    named = [int(n) for n in re.findall(r"(?:^|, )(\d+) ", text)]
    assert named == list(statuses), text


@pytest.mark.parametrize("lines, status, said", [
    ("bandit shift row 1 left\nquit\n", 0, []),  # the session ended as asked
    ("bandit shift row 1 left\n", 4, ["the input ended before the game did; resume it with"]),
    # a line was refused (the status), and the input ended before the game did: stderr says both
    ("bandit shift row 1 left\nbandit fly\n", 3, ["--moves ", "the input ended before the game did; resume it with"]),
    ("bandit fly\nquit\n", 3, ["--moves "]),
])
def test_play_exit_statuses(tmp_path: Path, lines: str, status: int, said: list[str]) -> None:
    """A refused line (its ``?`` answer on standard output) is the status, and stderr names it
    (the answer does not); that the input ended before the game did is said on stderr then too
    (it was silent then: a script could not tell the game unfinished, nor how to resume it)."""
    moves = tmp_path / "moves.txt"
    moves.write_text(lines, encoding="utf-8")
    r = run("play", "fbi-mafia", "--seed", 1, "--moves", moves, "--transcript", tmp_path / "t.yaml")
    assert r.exit_code == status
    told = [line for line in r.stderr.splitlines() if line]
    assert len(told) == len(said) and all(line.startswith(s) for line, s in zip(told, said)), told
    assert run("play", "fbi-mafia", "--seed", 1, "--bots", "random", "--max-moves", 3).exit_code == 0


def test_a_seats_session_may_leave_its_name_out() -> None:
    r = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 1, "--as", "mafia", "--bot", "fbi=random",
            "--moves", "-", input="shift row 1 left\nlegal\n")
    heads = [x[0] for x in responses(r.stdout)]
    assert heads[0] == "= mafia shift row 1 left"
    assert heads[-1] == "= legal mafia"  # a look defaults to the session's own seat too
    host = run("play", "fbi-mafia", "--mode", "duel-3v3", "--seed", 1, "--moves", "-", input="shift row 1 left\n")
    assert responses(host.stdout)[0][0].startswith("? unknown-command"), "the host always names the seat"


def test_as_with_bots_fills_every_other_seat_and_bot_overrides_one(tmp_path: Path) -> None:
    """``--as SEAT --bots KIND`` puts KIND on every seat but SEAT; a ``--bot`` replaces one."""
    record = tmp_path / "t.yaml"
    r = run("play", "fbi-mafia", "--mode", "standard-3v3", "--seed", 2, "--as", "detective", "--bots", "random",
            "--bot", "bomber=exec:python3 docs/examples/random_bot.py", "--moves", "-", "--transcript", record,
            input="")
    assert r.exit_code == 4, r.output  # the detective's (empty) input ended before the game did
    bots = yaml.safe_load(record.read_text(encoding="utf-8"))["session"]["bots"]
    assert bots == {"bandit": "random", "undercover": "random", "maniac": "random",
                    "bomber": "exec:python3 docs/examples/random_bot.py", "operative": "random"}
    assert responses(r.stdout)[0][0].startswith("= bandit "), "the bots played up to the detective's turn"


def test_bench_plays_a_mode_named_twice_once() -> None:
    """``--mode 7 --mode 1 --mode 7`` benched scenario 7 twice, two rows of one mode."""
    r = run("bench", "mafia", "--mode", "7-players", "--mode", "6-players", "--mode", "7-players", "--games", 1,
            "--repeat", 1, "--json")
    assert r.exit_code == 0 and [x["variant"] for x in json.loads(r.output)["results"]] == ["7-players", "6-players"]


def test_bench_json_has_every_figure() -> None:
    r = run("bench", "mafia", "--mode", "6-players", "--games", 2, "--repeat", 1, "--json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    (result,) = obj["results"]
    assert result["variant"] == "6-players" and result["games"] == 2 and result["inputs"] > 0
    assert result["games_per_s"] > 0 and result["inputs_per_s"] > 0 and sum(result["winners"].values()) == 2
    assert result["median_copy_ms"] > 0
    assert obj["interrupted"] is False and obj["peak_memory_mib"] > 0
    assert result["options"] == {}  # the setup: a default deck
    r = run("bench", "magic-maze", "--scenario", 1, "--players", 3, "--roles", 2, "--games", 1, "--repeat", 1, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["results"][0]["options"] == {"players": 3, "roles": 2}, r.output


def test_bench_interrupted_prints_what_it_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    import arbiter.cli.bench as bench_cli

    calls = []
    real = bench_cli.run_bench

    def stop_on_the_second(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(bench_cli, "run_bench", stop_on_the_second)
    r = run("bench", "fbi-mafia", "--games", 1, "--repeat", 1)
    assert r.exit_code == 130
    assert "standard-3v3" in r.output and "standard-4v4" not in r.output.split("interrupted")[0].split("\n")[2]
    assert "interrupted: 1 of 4 modes measured" in r.output


def test_validate_names_every_problem_of_a_file_with_its_line(tmp_path: Path) -> None:
    roles = yaml.safe_load((ROOT / "scenarios" / "magic_maze" / "roles.yaml").read_text(encoding="utf-8"))
    roles["cards"]["mage-first"]["mission"] = {"hero-leaves-second": {"hero": "purple"}}
    roles["cards"]["mute"]["rule"] = {"silent": {"loudly": True}}
    roles["cards"]["decoy"]["levels"] = ["Z"]
    bad = tmp_path / "roles.yaml"
    bad.write_text(yaml.safe_dump(roles, sort_keys=False), encoding="utf-8")
    r = run("validate", bad)
    assert r.exit_code == 1, r.output
    fails = [line for line in r.output.splitlines() if line.startswith("FAIL ")]
    assert len(fails) == 3, r.output
    text = bad.read_text(encoding="utf-8").splitlines()
    for fail, word in zip(fails, ("hero-leaves-second", "loudly", "Z")):
        line = int(re.match(rf"FAIL {re.escape(str(bad))}:(\d+): ", fail).group(1))
        assert word in text[line - 1] or word in text[line], (fail, text[line - 1])


def test_replay_takes_a_folder_and_shows_a_divergence_as_a_diff(tmp_path: Path) -> None:
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    session.submit("mafia", "shift row 1 left")
    session.submit("fbi", "surrender")
    good = tmp_path / "games" / "a.yaml"
    good.parent.mkdir()
    good.write_text(tr.dump(session), encoding="utf-8")
    bad = tmp_path / "games" / "b.yaml"
    bad.write_text(tr.dump(session).replace("surrendered for the FBI", "surrendered for the MAFIA"), encoding="utf-8")
    r = run("replay", tmp_path / "games")
    assert r.exit_code == 1, r.output
    assert f"ok {good}: 2 moves" in r.output and f"FAIL {bad}:" in r.output
    assert f"--- {bad} (recorded)" in r.output and f"+++ {bad} (replayed)" in r.output
    assert re.search(r"^-.*surrendered for the MAFIA", r.output, re.MULTILINE)
    assert re.search(r"^\+.*surrendered for the FBI", r.output, re.MULTILINE)


def test_a_terminal_player_completes_what_may_be_typed_now() -> None:
    session = Session(registry.get("fbi-mafia"), "duel-3v3", seed=1)
    seat = TerminalLines(Protocol(session, "mafia"))
    lines = seat.candidates()
    assert "shift row 1 left" in lines and "mafia shift row 1 left" in lines and "board" in lines
    assert "surrender" in lines and not any(line.startswith("fbi ") for line in lines)
    host = TerminalLines(Protocol(session))
    assert "mafia shift row 1 left" in host.candidates() and "shift row 1 left" not in host.candidates()
    assert seat.prompt == "mafia> " and host.prompt == "arbiter> "


def test_validate_keys_holding_dots_and_brackets_are_named_at_their_lines(tmp_path: Path) -> None:
    """A key may hold '.' or '[': the problem is still found at its own line, and the next one too."""
    roles = yaml.safe_load((ROOT / "scenarios" / "magic_maze" / "roles.yaml").read_text(encoding="utf-8"))
    cards = roles["cards"]
    cards["odd[y]"] = dict(cards["mage-first"], levels=["Z"])
    cards["odd.b"] = dict(cards["mage-first"], levels=["Q"])
    bad = tmp_path / "roles.yaml"
    text = yaml.safe_dump(roles, sort_keys=False)
    bad.write_text(text, encoding="utf-8")
    r = run("validate", bad)
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    lines = text.splitlines()
    for key, level in (("odd[y]", "Z"), ("odd.b", "Q")):
        hit = next(line for line in r.output.splitlines() if f"cards.{key}.levels[0]" in line)
        number = int(re.search(rf"{re.escape(str(bad))}:(\d+):", hit).group(1))
        assert lines[number - 1].strip() == f"- {level}", (hit, lines[number - 1])
        assert lines.index(f"  {key}:") < number - 1


def test_bots_that_cannot_play_are_refused_before_any_game(tmp_path: Path) -> None:
    """A py: agent that cannot be made is a usage error in play and in a tournament (not a
    forfeit in every game); bench plays only the game's built-in bots; a tournament folder that
    cannot be made is a clear error."""
    r = run("play", "fbi-mafia", "--seed", 1, "--bot", "bandit=py:nosuch_module:X", "--moves", "-", input="")
    assert r.exit_code == 2 and "No module named 'nosuch_module'" in r.output, r.output
    r = run("tournament", "mafia", "--entrant", "a=py:nosuch_module:X", "--entrant", "b=random", "--games", 2,
            "--out", tmp_path / "t")
    assert r.exit_code == 2 and "cannot make the agent" in r.output and not (tmp_path / "t").exists(), r.output
    r = run("bench", "mafia", "--bots", "py:tests.agents_for_tests:Last")
    assert r.exit_code == 2 and "built-in bots only" in r.output, r.output
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    r = run("tournament", "mafia", "--entrant", "a=random", "--entrant", "b=random", "--games", 2,
            "--out", tmp_path / "afile" / "sub")
    assert r.exit_code == 1 and "cannot make the tournament's folder" in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_bench_players_picks_the_modes_that_fit() -> None:
    """Classic Mafia is set up by player count: --players 8 benches its 8-players mode; a game
    not set up by player count refuses --players as a usage error."""
    r = run("bench", "mafia", "--players", 8, "--games", 2, "--repeat", 1, "--json")
    assert r.exit_code == 0, r.output
    assert [row["variant"] for row in json.loads(r.output)["results"]] == ["8-players"]
    r = run("bench", "fbi-mafia", "--players", 8, "--games", 1)
    assert r.exit_code == 2 and "not set up by player count" in r.output, r.output
    # modes named are benched as named: one that does not fit the players is refused, not skipped
    r = run("bench", "mafia", "--mode", "7-players", "--mode", "8-players", "--players", 7, "--games", 1, "--repeat", 1)
    assert r.exit_code == 2 and "--mode 8-players does not fit 7 players" in r.output, r.output


@pytest.mark.parametrize("command", [["play"], ["match", "a=random", "b=random", "--out", "OUT"]])
@pytest.mark.parametrize("option, value, said", [
    ("--roles", 2, "FBI vs Mafia is not played at a level (--roles is for Magic Maze: Hidden Roles): leave out "
                   "--roles; its modes say what is played"),
    ("--deck", "deck.yaml", "FBI vs Mafia is not played with a custom deck: leave out --deck; its modes say "
                            "what is played"),
])
def test_an_option_a_game_does_not_take_is_named_as_the_usage_error(tmp_path: Path, command, option, value,
                                                                    said) -> None:
    """``--roles 2`` with ``--mode duel-3v3`` on FBI vs Mafia was refused as "not set up by player
    count, deck or level; choose a mode": a mode was chosen, and the option at fault went unnamed."""
    args = [str(tmp_path / "out") if a == "OUT" else a for a in command]
    if option == "--deck":  # the option is at fault, whatever the file holds (it is not read)
        value = tmp_path / value
        value.write_text("- [not: {a deck\n", encoding="utf-8")
    r = run(args[0], "fbi-mafia", *args[1:], "--mode", "duel-3v3", option, value)
    allowed = " (allowed: standard-3v3, standard-4v4, duel-3v3, duel-4v4)"
    assert r.exit_code == 2 and f"Error: Invalid value for {option}: {said}{allowed}\n" in r.output, r.output
    assert not (tmp_path / "out").exists()


def test_the_output_is_utf8_whatever_the_locale_says(tmp_path: Path) -> None:
    """The protocol's lines are UTF-8 (docs/protocol.md), even where Python would write another
    encoding (a Latin-1 locale, here PYTHONIOENCODING): a word in French comes out as UTF-8.
    (Click itself mends an ASCII stream; not one that can write the text another way.)"""
    moves = tmp_path / "moves.txt"
    moves.write_text("p1 say café au lait\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-m", "arbiter.cli.main", "play", "mafia", "--seed", "1", "--moves", str(moves)],
                         capture_output=True, env=env, timeout=60, cwd=tmp_path)
    assert out.returncode == 4, out.stderr  # the moves ran out before the game ended
    assert "= p1 say café au lait\n".encode() in out.stdout and b"Traceback" not in out.stderr


def test_main_called_with_streams_that_name_no_encoding_writes_to_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program may call ``main`` with its own streams in place (an ``io.StringIO`` names no
    encoding): the command writes to them, not a traceback about the missing encoding."""
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    with pytest.raises(SystemExit) as ended:
        main(["games"], prog_name="arbiter")
    assert ended.value.code == 0 and "mafia" in out.getvalue() and err.getvalue() == ""


@pytest.mark.parametrize("command", [["play", "mafia", "--bots", "random"], ["bench", "mafia", "--games", "1"],
                                     ["tournament", "mafia", "--entrant", "random", "--entrant", "sleuth"]])
def test_a_seed_is_a_whole_number_of_at_most_100_digits_or_a_usage_error(tmp_path: Path, command: list[str]) -> None:
    """A longer seed (which a transcript could not take) is refused before anything is made."""
    for seed in ("1" + "0" * 100, "x", "1.5", "-" + "9" * 101):
        result = run(*command, "--seed", seed, "--out", tmp_path / "t") if command[0] == "tournament" \
            else run(*command, "--seed", seed)
        assert result.exit_code == 2 and "is not a whole number of at most 100 digits" in result.output, result.output
    assert not (tmp_path / "t").exists()
    assert run("play", "mafia", "--bots", "random", "--seed", "9" * 100).exit_code == 0


def test_bench_refuses_a_seed_its_later_games_would_take_past_100_digits() -> None:
    """Game i of a bench plays seed + i: a first seed near the most one may be ended the run
    with a traceback at its second game."""
    top = 10**100
    r = run("bench", "fbi-mafia", "--mode", "duel-3v3", "--games", 2, "--repeat", 1, "--seed", top - 1)
    assert r.exit_code == 2 and r.output.endswith("with 2 games a mode, --seed is at most 10**100 - 2\n"), r.output
    assert run("bench", "fbi-mafia", "--mode", "duel-3v3", "--games", 2, "--repeat", 1, "--seed", top - 2).exit_code == 0


@pytest.mark.parametrize("command", [["play", "mafia", "--bots", "random"], ["bench", "mafia", "--games", "1"]])
def test_a_negative_seed_is_a_usage_error_for_it_deals_what_its_absolute_value_deals(
        tmp_path: Path, command: list[str]) -> None:
    """Python's generator deals -5 as it deals 5: ``bench --seed -2`` played its first games
    twice over. A new game takes a seed from 0; a transcript's negative seed still replays. (A
    tournament's seed is hashed into its deals' seeds, never a generator's own: -5 is its own
    tournament, and taken.)"""
    from arbiter.engine.session import Session
    from arbiter.engine.registry import get

    rules = get("mafia")
    assert Session(rules, "8-players", seed=-5).state.card == Session(rules, "8-players", seed=5).state.card
    for seed in ("-5", "-0001"):
        result = run(*command, "--seed", seed, "--out", tmp_path / "t") if command[0] == "tournament" \
            else run(*command, "--seed", seed)
        assert result.exit_code == 2 and f"{seed} is negative: a seed is 0 or more" in result.output, result.output
        assert f"as it deals {seed.lstrip('-').lstrip('0')}, the same game" in result.output
    t = tmp_path / "old.yaml"
    assert run("play", "mafia", "--bots", "random", "--seed", "5", "--transcript", t).exit_code == 0
    t.write_text(t.read_text(encoding="utf-8").replace("seed: 5\n", "seed: -5\n"), encoding="utf-8")
    assert run("replay", t).exit_code == 0  # a transcript of a negative seed (an older arbiter's) replays
    from arbiter.engine.arena.schedule import deal_seed

    assert deal_seed(-5, 0) != deal_seed(5, 0)
    out = tmp_path / "arena"
    r = run("tournament", "mafia", "--entrant", "random", "--entrant", "sleuth", "--games", "2", "--seed", "-5",
            "--out", out)
    assert r.exit_code == 0 and '"seed": -5' in (out / "tournament.json").read_text(encoding="utf-8"), r.output


@pytest.mark.parametrize("command, option", [
    (["play", "fbi-mafia", "--bots", "random", "--seed", "2"], "--transcript"),
    (["tournament", "mafia", "--entrant", "random", "--entrant", "sleuth", "--games", "2"], "--out"),
    (["match", "mafia", "random", "sleuth", "--games", "2"], "--out"),
])
def test_an_empty_path_to_write_to_is_a_usage_error_not_no_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  command: list[str], option: str) -> None:
    """``--transcript "$T"`` with T unset once played the whole game and kept nothing (and a
    tournament wrote to its default folder), as though the option had not been given."""
    monkeypatch.chdir(tmp_path)
    result = run(*command, option, "")
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}': an empty path names nothing to write to" in result.output
    assert "result:" not in result.output and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("term, clear, back", [("xterm", "\r\x1b[J", "\r\x1b[7C"), ("dumb", "\n", ""),
                                               (None, "\n", "")])
def test_output_while_typing_clears_the_prompt_only_where_the_terminal_has_escapes(
        monkeypatch: pytest.MonkeyPatch, term: str | None, clear: str, back: str) -> None:
    """A move arriving while the person types is printed over the prompt's line: with the ANSI
    erase on a terminal that has it (the cursor then put back where readline's is), on a new
    line on ``TERM=dumb`` (it would print ``^[[K``)."""
    import arbiter.cli.terminal as terminal

    if term is None:
        monkeypatch.delenv("TERM", raising=False)
    else:
        monkeypatch.setenv("TERM", term)
    lines = TerminalLines.__new__(TerminalLines)
    lines._at_prompt, lines.prompt = True, "p1> "
    monkeypatch.setattr(terminal, "readline", type("R", (), {"get_line_buffer": staticmethod(lambda: "mov")}))
    written: list[str] = []  # (click.echo drops escapes when the output is no terminal, as here)
    monkeypatch.setattr(terminal.click, "echo", lambda text, nl=True: written.append(text))
    monkeypatch.setattr(terminal, "_point", lambda typed: len(typed))  # (readline's cursor at the line's end)
    monkeypatch.setattr(terminal, "_columns", lambda: 80)
    lines.show("= p2 pass\n\n")
    lines.finish()
    assert "".join(written) == f"{clear}= p2 pass\n\np1> mov{back}{clear}"


@pytest.mark.parametrize("args, limit", [
    (["play", "{z}"], 40), (["play", "mafia", "--mode", "{z}"], 40), (["play", "mafia", "--as", "{z}"], 40),
    (["play", "mafia", "--players", "{z}"], 40), (["bench", "{z}"], 40), (["bench", "mafia", "--bots", "{z}"], 40),
    (["show", "--as", "{z}", "{root}/transcripts/mafia/10-players-mafia-seed1.yaml"], 40),
    # a bot's spec may be a command, whose path the user needs to see: its first 200 characters
    (["play", "mafia", "--bot", "{z}"], 200), (["play", "mafia", "--bot", "p1={z}"], 200),
    (["play", "mafia", "--bots", "{z}"], 200),
    (["tournament", "mafia", "--games", "4", "--entrant", "{z}"], 200),
    (["tournament", "mafia", "--games", "4", "--entrant", "a={z}", "--entrant", "b=random"], 200),
])
def test_a_usage_error_quotes_a_long_value_by_its_start_and_length(args: list[str], limit: int) -> None:
    """A pasted page given as an option's value came back whole in the usage error."""
    long = "z" * 3000
    r = run(*[a.format(z=long, root=Path(__file__).resolve().parents[1]) for a in args])
    assert r.exit_code == 2, r.output
    assert "'" + "z" * limit + "'... (3000 characters)" in r.output and "z" * (limit + 1) not in r.output, r.output[-400:]

"""End-to-end tests of the ``arbiter`` command (``cli.main.main``): external bots, and user mistakes.

How these tests run (in-process, or a child process with a hard timeout for external bots; never a
traceback; known bugs as strict xfails) and what they share: ``tests/cli_staging.py``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from arbiter.cli.main import main

from tests.helpers import clean, precondition, responses, run, run_referee, write
from tests.cli_staging import (
    CRASH_BOT,
    DEAF_BOT,
    GOOD_BOT,
    ILLEGAL_BOT,
    SLOW_BOT,
    STANDARD_SEATS,
    bot_script,
)


# -- external bots ------------------------------------------------------------------------------


def test_exec_bots_on_every_seat_play_a_whole_game(tmp_path: Path) -> None:
    logs = {seat: tmp_path / f"{seat}.log" for seat in STANDARD_SEATS}
    good = tmp_path / "good.py"
    good.write_text(GOOD_BOT, encoding="utf-8")
    args = ["play", "fbi-mafia", "--seed", "1", "--transcript", "t.yaml", "--bot-timeout", "5"]
    for i, seat in enumerate(STANDARD_SEATS):
        extra = " with-seat" if i % 2 else ""  # half the bots answer with a full line
        args += ["--bot", f"{seat}=exec:{sys.executable} {good} {logs[seat]}{extra}"]
    proc, _ = run_referee(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "forfeit" not in proc.stdout
    assert len(re.findall(r"^result: ", proc.stdout, re.M)) == 1
    heads = [x[0] for x in responses(proc.stdout)]
    assert all(h.startswith("= ") for h in heads)
    assert heads[-1] == "= board"
    assert {h.split()[1] for h in heads[:-1]} == set(STANDARD_SEATS)
    # the bots were spoken to as docs/protocol.md says
    bandit = logs["bandit"].read_text(encoding="utf-8").splitlines()
    first_go = bandit.index("go bandit action")
    assert any(line.startswith("event: ") for line in bandit[:first_go])
    assert bandit[first_go - 2].startswith("legal: ") and bandit[first_go - 1] == "resign: surrender"
    assert "legal: surrender" not in bandit  # the give-up input has a line of its own
    assert all(re.fullmatch(r"(event|legal|resign): .+|move: (?!bandit )\w+ .+|go bandit \w+", line) for line in bandit)
    assert any(line.startswith("move: undercover ") for line in bandit)  # the others' moves, in public form
    # ... and told only what their seat may see: their own identity, nobody else's
    assert any("The bandit's identity" in line for line in bandit)
    assert not any(re.search(r"The (undercover|maniac|detective|bomber|operative)'s identity", line)
                   for line in bandit)
    rr = run("replay", tmp_path / "t.yaml")
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


def _forfeit_game(tmp_path: Path, bot: str) -> tuple[str, str, float]:
    args = ["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot", f"undercover={bot}",
            "--bot-timeout", "0.5", "--transcript", "t.yaml"]
    proc, elapsed = run_referee(args, tmp_path, timeout=30)
    assert proc.returncode == 0, proc.stderr
    transcript = (tmp_path / "t.yaml").read_text(encoding="utf-8")
    return proc.stdout, transcript, elapsed


def _assert_forfeit_recorded(tmp_path: Path, out: str, transcript: str, reason: str) -> None:
    resp = responses(out)
    surrender = next(x for x in resp if x[0] == "= undercover surrender")
    assert surrender[1].startswith("forfeit: undercover: ") and reason in surrender[1], surrender
    assert any(line.startswith("result: ") for line in surrender)
    notes = [e["note"] for e in yaml.safe_load(transcript)["log"] if "note" in e]
    assert len(notes) == 1, notes
    assert notes[0]["seat"] == "undercover" and reason in notes[0]["forfeit"], notes
    assert "\nresult:" in transcript
    rr = run("replay", tmp_path / "t.yaml")
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


def test_exec_bot_too_slow_forfeits(tmp_path: Path) -> None:
    out, transcript, elapsed = _forfeit_game(tmp_path, bot_script(tmp_path, "slow", SLOW_BOT))
    _assert_forfeit_recorded(tmp_path, out, transcript, "no answer within 0.5 s")
    assert elapsed < 10, f"the referee took {elapsed:.1f} s on a bot that never answers"


def test_exec_bot_that_crashes_forfeits(tmp_path: Path) -> None:
    out, transcript, _ = _forfeit_game(tmp_path, bot_script(tmp_path, "crash", CRASH_BOT))
    reason = re.search(r"forfeit: undercover: (.*)", out)
    assert reason and re.search(r"exited|closed", reason.group(1)), out
    _assert_forfeit_recorded(tmp_path, out, transcript, reason.group(1).split(" (")[0])


def test_exec_bot_with_an_illegal_input_forfeits(tmp_path: Path) -> None:
    out, transcript, _ = _forfeit_game(tmp_path, bot_script(tmp_path, "cheat", ILLEGAL_BOT))
    _assert_forfeit_recorded(tmp_path, out, transcript, "illegal input 'kill a1'")
    assert "its stderr ends" not in out  # it wrote nothing there


def test_an_illegal_inputs_forfeit_ends_with_the_bots_stderr_as_every_forfeit_does(tmp_path: Path) -> None:
    """docs/protocol.md: a bot's losing reason ends with the last lines it wrote on stderr; an
    illegal input's once did not (its reason is made by the referee's loop, not the bot's pipe)."""
    talking = ILLEGAL_BOT.replace('print("kill a1"', 'print("sure of it", file=sys.stderr, flush=True); print("kill a1"')
    out, transcript, _ = _forfeit_game(tmp_path, bot_script(tmp_path, "cheat", talking))
    _assert_forfeit_recorded(tmp_path, out, transcript, "illegal input 'kill a1': illegal: ")
    assert re.search(r"forfeit: undercover: illegal input 'kill a1': .*; its stderr ends: sure of it\n", out), out


def test_exec_bot_that_cannot_start_is_a_clear_error(tmp_path: Path) -> None:
    r = run("play", "fbi-mafia", "--bots", "random", "--bot", "undercover=exec:/nonexistent/dir/bot --fast")
    assert r.exit_code == 1
    assert "cannot start bot for undercover" in r.output


def test_exec_bot_whose_command_cannot_be_read_is_a_usage_error_before_the_game(tmp_path: Path) -> None:
    """A command with an unclosed quote is refused as the option is read (as a tournament's
    entrant is), naming the spec, before any game starts or any file is written."""
    r = run("play", "fbi-mafia", "--bots", "random", "--bot", "undercover=exec:'unbalanced quote",
            "--transcript", tmp_path / "t.yaml")
    assert r.exit_code == 2, r.output
    assert "exec:'unbalanced quote\": the command cannot be read (No closing quotation)" in r.output
    assert not (tmp_path / "t.yaml").exists()


def test_exec_bot_that_never_reads_cannot_hang_the_referee(tmp_path: Path) -> None:
    args = ["play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot",
            f"bandit={bot_script(tmp_path, 'deaf', DEAF_BOT)}", "--bot-timeout", "0.5"]
    proc, elapsed = run_referee(args, tmp_path, timeout=60)
    precondition(proc.returncode == 0, proc.stderr)
    precondition("result: " in proc.stdout, "the game did not end")
    # the bot exits by itself after 8 s; a referee that waited for it hung on it
    assert elapsed < 6, f"the referee hung {elapsed:.1f} s on a bot that does not read its input"


def test_exec_bot_forfeit_in_json_output(tmp_path: Path) -> None:
    args = ["play", "fbi-mafia", "--seed", "1", "--json", "--bots", "random",
            "--bot", f"undercover={bot_script(tmp_path, 'crash', CRASH_BOT)}"]
    proc, _ = run_referee(args, tmp_path, timeout=30)
    assert proc.returncode == 0, proc.stderr
    objects = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(o["ok"] for o in objects)
    surrender = [o for o in objects if o.get("seat") == "undercover" and o.get("input") == "surrender"]
    assert len(surrender) == 1 and surrender[0] is objects[-1]
    assert surrender[0]["result"]["reason"] == "surrender"
    forfeit = surrender[0]["forfeit"]
    assert forfeit["seat"] == "undercover" and re.search(r"exited|closed", forfeit["reason"])


def test_play_as_seat_does_not_see_the_detectives_kept_card() -> None:
    bots = [a for seat in STANDARD_SEATS[:-1] for a in ("--bot", f"{seat}=random")]
    for seed in range(1, 60):
        r = run("play", "fbi-mafia", "--seed", seed, "--as", "operative", *bots, "--moves", os.devnull)
        precondition(r.exit_code in (0, 4), r.output)  # 4: the operative's (empty) input ended first
        if "The detective keeps one card" in r.output:
            break
    else:
        precondition(False, "no seed where the detective inspects before the operative's turn")
    assert not re.search(r"^= detective keep [a-g][1-7]\b", r.output, re.M), "the kept card leaks to the operative"
    assert re.search(r"^= detective keep \(one of the inspected cards\)", r.output, re.M)


# -- user mistakes ------------------------------------------------------------------------------


MISTAKES: dict[str, tuple[list[str], str, int]] = {
    "unknown game": (["play", "chess"], "no game named 'chess'", 2),
    "unknown mode": (["play", "fbi-mafia", "--mode", "nope", "--bots", "random"], "no mode 'nope'", 2),
    "bot for unknown seat": (["play", "fbi-mafia", "--bot", "nobody=random"], "no seat 'nobody'", 2),
    "unknown bot kind": (["play", "fbi-mafia", "--bot", "bandit=weird"], "unknown bot 'weird'", 2),
    "bot without kind": (["play", "fbi-mafia", "--bot", "bandit"], "SEAT=KIND", 2),
    "bot with a blank kind": (["play", "fbi-mafia", "--bot", "bandit= "], "'bandit= ': expected SEAT=KIND", 2),
    "empty exec": (["play", "fbi-mafia", "--bot", "bandit=exec:", "--bots", "random"], "exec:", 2),
    "as unknown seat": (["play", "fbi-mafia", "--bots", "random", "--as", "nobody"], "nobody", 2),
    "as a bot's seat": (["play", "fbi-mafia", "--bot", "bandit=random", "--as", "bandit"], "played by a bot", 2),
    # the last --bot of a seat played it, silently (a typo for another seat, most likely)
    "a seat given two bots": (["play", "fbi-mafia", "--bots", "random", "--bot", "bandit=random", "--bot",
                               "Bandit=exec:./mine"], "Invalid value for --bot: bandit is given a bot twice "
                              "('bandit=random', then 'Bandit=exec:./mine'); give each seat one --bot", 2),
    "resume non-transcript": (["play", "--resume", "{notes}"], "not a transcript", 1),
    "resume missing": (["play", "--resume", "{tmp}/gone.yaml"], "does not exist", 2),
    "no game": (["play"], "name a game", 2),
    "bots kind": (["play", "fbi-mafia", "--bots", "clever"], "clever", 2),
    "bench unknown game": (["bench", "chess", "--games", "1"], "no game named 'chess'", 2),
    "bench unknown mode": (["bench", "fbi-mafia", "--mode", "nope", "--games", "1"], "no mode 'nope'", 2),
    "bench no games": (["bench", "fbi-mafia", "--games", "0"], "--games", 2),
    "show non-transcript": (["show", "{notes}"], "not a transcript", 1),
    "validate missing": (["validate", "{tmp}/gone"], "does not exist", 2),
    "unknown command": (["referee"], "No such command", 2),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_user_mistakes_are_clear_errors_with_their_exit_status(tmp_path: Path, case: str) -> None:
    """Usage errors exit with status 2 and name what is allowed; errors of a file, 1."""
    notes = write(tmp_path / "notes.txt", "just some notes\n")
    args, message, status = MISTAKES[case]
    r = run(*(a.format(notes=notes, tmp=tmp_path) for a in args))
    assert r.exit_code == status, r.output
    assert message in r.output
    assert "Error" in r.output


def test_transcript_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["play", "fbi-mafia", "--bots", "random",
                                       "--transcript", str(tmp_path / "no" / "such" / "t.yaml")])
    clean(result)
    assert result.exit_code != 0


DIGITS = "is not a number of seconds: write it in digits 0-9, with one '.' at most"


@pytest.mark.parametrize("timeout, why", [("-1", "seconds from 0.01 to 3600, not -1"),
                                          ("4000.5", "seconds from 0.01 to 3600, not 4000.5"),
                                          ("inf", f"'inf' {DIGITS}"), ("nan", f"'nan' {DIGITS}"),
                                          ("1e3", f"'1e3' {DIGITS}"), ("1_0", f"'1_0' {DIGITS}"),
                                          ("\u0663", f"'\u0663' {DIGITS}")])  # (ARABIC-INDIC DIGIT THREE)
def test_bad_bot_timeout_is_a_usage_error_before_any_bot_starts(tmp_path: Path, timeout: str, why: str) -> None:
    r = run("play", "fbi-mafia", "--seed", "1", "--bots", "random", "--bot-timeout", timeout,
            "--bot", f"bandit={bot_script(tmp_path, 'good', GOOD_BOT)}", "--transcript", tmp_path / "t.yaml")
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '--bot-timeout': {why}" in r.output
    assert not (tmp_path / "t.yaml").exists()


TEAM_KILLER = r'''
import sys
legal = []
for line in sys.stdin:
    if line.startswith("legal: "):
        legal.append(line[7:].strip())
    elif line.startswith("go "):
        night = line.split()[-1] == "night" and any(m.startswith("kill ") for m in legal)
        print("kill p2" if night else legal[0], flush=True)  # p2 is of its own team: refused
        legal = []
'''


@pytest.mark.parametrize("json_mode", [False, True])
def test_a_seats_session_is_not_told_why_another_seats_bot_failed(tmp_path: Path, json_mode: bool) -> None:
    """A Mafia bot's refused kill of its teammate once reached a Civilian's session whole ("the
    Mafia cannot kill one of its own (p2)"): another seat's forfeit is said without its reason
    there; the host's session and the transcript's note keep it whole."""
    moves = tmp_path / "p3.txt"
    moves.write_text("pass\nabstain\nabstain\nabstain\n", encoding="utf-8")
    bot = bot_script(tmp_path, "teamkill", TEAM_KILLER)
    common = ["play", "mafia", "--players", "8", "--seed", "1", "--bots", "random", "--bot", f"p4={bot}",
              "--bot-timeout", "5", *(["--json"] if json_mode else [])]
    civilian, _ = run_referee([*common, "--as", "p3", "--moves", str(moves), "--transcript", "c.yaml"], tmp_path)
    host, _ = run_referee([*common, "--transcript", "h.yaml"], tmp_path)
    secret = "the Mafia cannot kill one of its own (p2)"
    assert secret in host.stdout and secret not in civilian.stdout, civilian.stdout
    told = "its bot failed" if json_mode else "forfeit: p4: its bot failed\n"
    assert told in civilian.stdout
    for name in ("c.yaml", "h.yaml"):
        notes = [e["note"] for e in yaml.safe_load((tmp_path / name).read_text(encoding="utf-8"))["log"] if "note" in e]
        assert any(secret in n.get("forfeit", "") for n in notes), notes

"""End-to-end tests of the ``arbiter`` command for Classic Mafia (``docs/rules/mafia.md``): custom decks,
and ``validate``.

How these tests run (in-process, or a child process with a hard timeout for an external bot;
never a traceback) and what they share: ``tests/mafia_cli_staging.py``.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.helpers import REPO, precondition, responses, run
from tests.mafia_cli_staging import GOOD_DECK, GOOD_DECK_COUNTS, deck_file, deck_titles, table


# -- custom decks -----------------------------------------------------------------------------


def test_custom_deck_plays_records_and_replays(tmp_path: Path) -> None:
    deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK, title="Friday table")
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--deck", deck, "--bots", "random", "--seed", 2, "--transcript", t)
    assert r.exit_code == 0, r.output
    seats = [f"p{i}" for i in range(1, 10)]  # nine cards: nine seats
    assert r.output.splitlines()[0].endswith("seats: " + " ".join(seats))
    assert "# event: Classic Mafia, Friday table, 9 players: seats p1 p2" in r.output
    board = responses(r.stdout)[-1]
    assert board[0] == "= board" and board[1].startswith("Classic Mafia, Friday table, 9 players: game over")
    rows = table(board)
    assert sorted(rows, key=lambda s: int(s[1:])) == seats
    assert Counter(card for _, card in rows.values()) == deck_titles(GOOD_DECK_COUNTS)
    # the deck is in the transcript's options: the game replays without the file
    doc = yaml.safe_load(t.read_text(encoding="utf-8"))
    assert doc["variant"] == "9-players" and doc["seats"] == seats
    assert doc["options"] == {"deck": GOOD_DECK_COUNTS, "title": "Friday table"}
    deal = next(e["chance"]["outcome"] for e in doc["log"] if "chance" in e)
    assert Counter(deal) == Counter(GOOD_DECK_COUNTS)
    deck.unlink()
    rr = run("replay", t)
    assert rr.exit_code == 0, rr.output
    assert re.match(rf"ok {re.escape(str(t))}: \d+ moves, finished", rr.output), rr.output
    s = run("show", t)
    assert s.exit_code == 0 and s.output.splitlines() == board[1:], s.output


@pytest.mark.parametrize("case", ["two-leaders", "bad-ratio", "wrong-size", "unknown-option", "non-ascii-title",
                                  "long-title"])
def test_transcript_with_a_tampered_deck_fails_to_replay(tmp_path: Path, case: str) -> None:
    deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK)
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--deck", deck, "--bots", "random", "--seed", 2, "--transcript", t)
    precondition(r.exit_code == 0, r.output)
    text = t.read_text(encoding="utf-8")
    old = "  deck: {agent: 1, civilian: 2,"
    precondition(text.count(old) == 1, text[:400])
    new, words = {
        "two-leaders": ("  deck: {agent: 1, seducer: 1, civilian: 1,", ["exactly one leader", "has 2"]),
        "bad-ratio": ("  deck: {agent: 1, civilian: 3,", ["1.5 to 2.5 times", "3.00 times"]),
        "wrong-size": ("  deck: {agent: 1, civilian: 1,", ["the deck has 8 cards for 9 players"]),
        "unknown-option": ("  colour: red\n  deck: {agent: 1, civilian: 2,", ["colour", "unknown key"]),
        "non-ascii-title": ("Caf\u00e9", ["title", "(U+00E9) at character 4", "board is ASCII"]),
        "long-title": ("x" * 81, ["title", "81 characters is too long (at most 80)"]),
    }[case]
    if case.endswith("title"):
        precondition(len(re.findall(r"^  title: ", text, re.M)) == 1, text[:400])
        old, new = re.search(r"^  title: .*$", text, re.M).group(), f"  title: {new}"
    t.write_text(text.replace(old, new), encoding="utf-8")
    rr = run("replay", t)
    assert rr.exit_code == 1, rr.output
    assert rr.output.startswith(f"FAIL {t}:") and "setup: options" in rr.output, rr.output
    for w in words:
        assert w in rr.output, (w, rr.output)
    s = run("show", t)
    assert s.exit_code != 0 and "does not replay" in s.output


def test_custom_deck_of_a_default_size_differs_from_the_default(tmp_path: Path) -> None:
    # a 6-card deck unlike the default 6 (Agent instead of Seducer)
    deck = deck_file(tmp_path / "six.yaml", "{boss: 1, mafia: 1, agent: 1, chief: 1, civilian: 2}")
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--deck", deck, "--players", 6, "--bots", "random", "--seed", 1, "--transcript", t)
    assert r.exit_code == 0, r.output
    cards = Counter(card for _, card in table(responses(r.stdout)[-1]).values())
    assert cards["Agent"] == 1 and cards["Seducer"] == 0
    assert "custom deck, 6 players" in r.output
    assert run("replay", t).exit_code == 0


def test_custom_deck_and_a_different_player_count_are_refused(tmp_path: Path) -> None:
    deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK)
    r = run("play", "mafia", "--deck", deck, "--players", 8, "--bots", "random", "--transcript", tmp_path / "t.yaml")
    assert r.exit_code != 0
    assert "--players 8" in r.output and "9 cards" in r.output and str(deck) in r.output
    assert not (tmp_path / "t.yaml").exists()
    r = run("play", "mafia", "--deck", deck, "--mode", "8-players", "--bots", "random")
    assert r.exit_code == 2 and f"--mode 8-players does not fit --deck {deck}, which has 9 cards" in r.output
    assert "--mode 9-players" in r.output  # what would fit it


def test_custom_deck_game_resumes(tmp_path: Path) -> None:
    deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK, title="Friday table")
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--deck", deck, "--bots", "random", "--seed", 4, "--transcript", t, "--max-moves", 12)
    assert r.exit_code == 0 and "stopped after 12 moves" in r.output, r.output
    deck.unlink()
    before = t.read_text(encoding="utf-8")
    r = run("play", "--resume", t, "--players", 8, "--bots", "random")  # it has 9: a contradiction
    assert r.exit_code == 2 and "--resume" in r.output and "9 players, not 8" in r.output, r.output
    assert t.read_text(encoding="utf-8") == before
    r = run("play", "--resume", t, "--players", 9)  # options that agree are accepted; the bots are the recorded ones
    assert r.exit_code == 0, r.output
    resp = responses(r.stdout)
    assert all(x[0].startswith("= ") for x in resp)
    assert resp[-1][0] == "= board" and resp[-1][1].startswith("Classic Mafia, Friday table, 9 players: game over")
    assert len([line for x in resp[:-1] for line in x if line.startswith("result: ")]) == 1
    assert yaml.safe_load(t.read_text(encoding="utf-8"))["options"]["deck"] == GOOD_DECK_COUNTS


def test_a_custom_deck_game_resumes_with_its_deck_file_and_not_another(tmp_path: Path) -> None:
    deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK)
    other = deck_file(tmp_path / "saturday.yaml", "{boss: 1, mafia: 2, agent: 1, chief: 1, police: 1, civilian: 2, chameleon: 1}")
    t = tmp_path / "t.yaml"
    assert run("play", "mafia", "--deck", deck, "--bots", "random", "--seed", 4, "--transcript", t,
               "--max-moves", 6).exit_code == 0
    r = run("play", "--resume", t, "--deck", other)
    assert r.exit_code == 2 and f"its deck is not the deck of {other}" in r.output, r.output
    smaller = deck_file(tmp_path / "sunday.yaml", "{agent: 1, boss: 1, mafia: 1, chief: 1, police: 1, civilian: 2}")
    r = run("play", "--resume", t, "--deck", smaller)  # (of another size: the same, not a --mode never given)
    assert r.exit_code == 2 and r.output.rstrip().endswith(f"--resume {t}: its deck is not the deck of {smaller}"), \
        r.output
    r = run("play", "--resume", t, "--deck", deck, "--max-moves", 8)
    assert r.exit_code == 0 and "stopped after 8 moves" in r.output, r.output
    rr = run("replay", t)
    assert rr.exit_code == 0 and "finished" in rr.output, rr.output


# Refused decks: (file text, words the error must hold: the rule and its counts).
REFUSED = {
    "two-leaders": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: 1, seducer: 1, agent: 1, chief: 1, civilian: 2}\n",
        ["deck refused", "exactly one leader", "has 2", "seducer 1", "agent 1"]),
    "bad-ratio": (
        "game: mafia\nkind: deck\ncards: {boss: 1, agent: 1, chief: 1, police: 1, civilian: 4}\n",
        ["deck refused", "1.5 to 2.5 times", "town 7", "Mafia 1", "7.00 times"]),
    "ratio-too-low": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: 3, seducer: 1, chief: 1, civilian: 2, fighter: 1}\n",
        ["deck refused", "town 4", "Mafia 4", "1.00 times"]),
    "unknown-card": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: 1, agent: 1, chief: 1, civilian: 2, wizard: 1}\n",
        ["cards.wizard", "no card named 'wizard'"]),
    # an entry at fault alone (the deck judged without it would break the ratio too: not said)
    "card-in-capitals": (
        "game: mafia\nkind: deck\ncards: {Boss: 1, mafia: 1, agent: 1, civilian: 4}\n",
        ["cards.Boss", "no card named 'Boss'"]),
    "negative-count": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: -1, agent: 1, chief: 1, civilian: 2}\n",
        ["cards.mafia", "-1 is out of range"]),
    "not-yaml": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: [1,\n",
        ["not valid YAML"]),
    "too-few-cards": (
        "game: mafia\nkind: deck\ncards: {boss: 1, seducer: 1, chief: 1}\n",
        ["deck refused", "6 to 12 players", "3 cards"]),
    "too-many-copies": (
        "game: mafia\nkind: deck\ncards: {boss: 1, mafia: 4, seducer: 1, chief: 1, police: 2, civilian: 3}\n",
        ["deck refused", "4 Mafia cards", "only 3"]),
    "no-mafia": (
        "game: mafia\nkind: deck\ncards: {seducer: 1, chief: 1, civilian: 4}\n",
        ["deck refused", "at least one Mafia-side card"]),
    "not-a-deck": (
        "game: mafia\nkind: deck\ncards: [boss, mafia]\n",
        ["cards", "expected a mapping"]),
    # a title is printed on the board and in the protocol's lines, to every bot: a line break
    # would end a response early and forge the next line (`= p1 kill p2`), a control character
    # reach the terminal
    "title-with-a-line-break": (
        'game: mafia\nkind: deck\ntitle: "T\\n\\n= p1 kill p2\\nevent: fake"\n'
        "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2}\n",
        ["title", "a line break (U+000A) at character 2", "one line of printable text"]),
    "title-with-a-control-character": (
        'game: mafia\nkind: deck\ntitle: "Friday\\x1b[2J"\n'
        "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2}\n",
        ["title", "a control character (U+001B) at character 7"]),
    "title-with-a-unicode-line-separator": (
        'game: mafia\nkind: deck\ntitle: "T\\u2028x"\n'
        "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2}\n",
        ["title", "a line break (U+2028) at character 2"]),
    # the board is ASCII and fits 80 columns: a wide character (two columns each) or an accent
    # would break both promises
    "title-with-an-accent": (
        'game: mafia\nkind: deck\ntitle: "Caf\u00e9 nuit"\n'
        "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2}\n",
        ["title", "'\u00e9' (U+00E9) at character 4", "text shown on the board is ASCII"]),
    "title-in-wide-characters": (
        'game: mafia\nkind: deck\ntitle: "\u65e5\u672c\u8a9e"\n'
        "cards: {boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2}\n",
        ["title", "(U+65E5) at character 1", "text shown on the board is ASCII"]),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_refused_deck_names_the_file_and_the_rule(tmp_path: Path, case: str) -> None:
    text, words = REFUSED[case]
    bad = tmp_path / f"{case}.yaml"
    bad.write_text(text, encoding="utf-8")
    t = tmp_path / "t.yaml"
    r = run("play", "mafia", "--deck", bad, "--bots", "random", "--seed", 1, "--transcript", t)
    assert r.exit_code != 0, r.output
    assert r.output.startswith("Error: ") and str(bad) in r.output, r.output
    for w in words:
        assert w in r.output, (w, r.output)
    assert not t.exists(), "a transcript was written for a refused deck"
    assert "result:" not in r.output and "= " not in r.output


@pytest.mark.parametrize(("game", "text", "where"), [
    ("mafia", "game: mafia\nkind: deck\ncards:\n  boss: 1\n  mafia: 1\n  wizard: 2\n  civilian: 4\n", ":6: cards.wizard: "),
    ("mafia", "game: mafia\nkind: deck\ntitle: \"Caf\u00e9\"\ncards: {boss: 1, mafia: 1, civilian: 4}\n", ":3: title: "),
    ("magic-maze", "game: magic-maze\nkind: roles\nlevel: 3\ncards:\n  hero: 3\n  nope: 3\n", ":6: cards.nope: "),
])
def test_a_refused_deck_names_the_line_as_validate_does(tmp_path: Path, game: str, text: str, where: str) -> None:
    """``play --deck`` named the path in the file but not its line, which ``validate`` names."""
    bad = tmp_path / "deck.yaml"
    bad.write_text(text, encoding="utf-8")
    r = run("play", game, "--deck", bad, "--bots", "random")
    assert r.exit_code == 1 and r.output.startswith(f"Error: {bad}{where}"), r.output
    v = run("validate", bad)
    assert f"FAIL {bad}{where}" in v.output, v.output


@pytest.mark.parametrize("case", ["negative-count", "not-yaml", "two-leaders", "title-with-a-line-break"])
def test_bench_and_tournament_refuse_a_bad_deck_as_play_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            case: str) -> None:
    """A deck that is not good data is an error of the run (status 1) in every command that
    takes one: ``bench --deck`` crashed with a traceback, and ``tournament``/``match`` called
    it a usage error (status 2)."""
    text, words = REFUSED[case]
    bad = tmp_path / f"{case}.yaml"
    bad.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for args in (("bench", "mafia", "--deck", bad, "--games", 1, "--repeat", 1),
                 ("tournament", "mafia", "--entrant", "a=random", "--entrant", "b=random", "--games", 2,
                  "--deck", bad, "--out", tmp_path / "arena"),
                 ("match", "mafia", "random", "sleuth", "--games", 2, "--deck", bad, "--out", tmp_path / "arena")):
        r = run(*args)
        assert r.exit_code == 1 and r.output.startswith(f"Error: {bad}"), (args[0], r.output)
        for w in words:
            assert w in r.output, (args[0], w, r.output)
    assert sorted(p.name for p in tmp_path.iterdir()) == [bad.name], "a refused deck left a folder behind"


def test_another_games_file_as_the_deck_is_a_usage_error_either_way(tmp_path: Path) -> None:
    """A Hidden Roles deck given to Classic Mafia, like a Mafia deck given to Magic Maze, is the
    wrong file for the option (status 2, naming what the option takes), not bad data (it once
    was status 1 one way and 2 the other)."""
    roles = REPO / "scenarios" / "magic_maze" / "roles.yaml"
    r = run("play", "mafia", "--deck", roles, "--bots", "random")
    assert r.exit_code == 2 and "Classic Mafia takes a deck (game: mafia, kind: deck); this file is " \
        "game: magic-maze, kind: roles" in r.output, r.output
    mafia_deck = deck_file(tmp_path / "friday.yaml", GOOD_DECK)
    r = run("play", "magic-maze", "--scenario", 3, "--players", 5, "--deck", mafia_deck, "--bots", "random")
    assert r.exit_code == 2 and "Magic Maze takes a Hidden Roles deck" in r.output, r.output
    # with --roles too: the file is said to be the wrong one, not to bring "its own level (its
    # 'level:' key)", which a Classic Mafia deck does not have
    r = run("play", "magic-maze", "--scenario", 3, "--players", 5, "--roles", 2, "--deck", mafia_deck, "--bots", "random")
    assert r.exit_code == 2 and "Invalid value for --deck:" in r.output and "Magic Maze takes a Hidden Roles deck" \
        in r.output and "level:' key" not in r.output, r.output


@pytest.mark.parametrize("text, what", [("", "this file holds nothing, not a mapping with game: and kind:"),
                                        ("- a\n", "this file holds a list, not a mapping with game: and kind:"),
                                        ("seven\n", "this file holds one value (text), not a mapping with game: and kind:"),
                                        ("cards: {}\n", "this file names no game: and no kind:")])
@pytest.mark.parametrize("game", ["mafia", "magic-maze"])
def test_a_deck_file_of_no_kind_says_what_it_holds(tmp_path: Path, text: str, what: str, game: str) -> None:
    """An empty file, a list or a mapping naming no kind was "this file is game: None, kind:
    None": Python's None, shown to a person."""
    (tmp_path / "d.yaml").write_text(text)
    r = run("play", game, "--deck", tmp_path / "d.yaml", "--bots", "random")
    assert r.exit_code == 2 and f"{what}\n" in r.output and "None" not in r.output, r.output


@pytest.mark.parametrize("text, what", [
    ("kind: roles\ncards: []\n", "this file is kind: roles and names no game:"),
    ("game: mafia\ncards: {}\n", "this file is game: mafia and names no kind:"),
    ("game:\nkind: deck\n", "this file is kind: deck and names no game:"),
    ("game: [mafia]\nkind: true\n", "this file is game: a list, kind: true"),
    ("game: magic maze\nkind: 3\n", "this file is game: 'magic maze', kind: 3"),
    # (YAML's dates, binary data and sets were shown by Python's names, as if the file said them:
    # "this file is game: date, kind: bytes")
    ("game: 2024-01-01\nkind: !!binary aGk=\n", "this file is game: a date, kind: binary data"),
    ("game: !!set {mafia}\nkind: 2024-01-01 10:00:00\n", "this file is game: a set, kind: a date and time"),
    # (and YAML's not-a-number and infinities as YAML writes them, not Python's "nan" and "inf")
    ("game: .nan\nkind: -.inf\n", "this file is game: .nan, kind: -.inf"),
])
@pytest.mark.parametrize("command", [["play", "mafia"], ["bench", "mafia"], ["play", "magic-maze", "--scenario", "1"],
                                     ["bench", "magic-maze", "--roles", "1"],
                                     ["tournament", "mafia", "--entrant", "a=random", "--entrant", "b=random"]])
def test_a_deck_file_of_another_kind_is_named_once_in_the_users_words(tmp_path: Path, text: str, what: str,
                                                                       command: list[str]) -> None:
    """A file naming a kind but no game was "Invalid value for --deck: --deck F: Classic Mafia
    takes a deck (...); this file is game: None, kind: roles": the option said twice, and
    Python's None (or a list's repr) shown for what the file does not say."""
    deck = tmp_path / "d.yaml"
    deck.write_text(text, encoding="utf-8")
    r = run(*command, "--deck", deck, "--games", 1, "--out", tmp_path / "out") if command[0] == "tournament" else \
        run(*command, "--deck", deck, *(["--bots", "random"] if command[0] == "play" else ["--games", "1"]))
    takes = ("Classic Mafia takes a deck (game: mafia, kind: deck)" if command[1] == "mafia" else
             "Magic Maze takes a Hidden Roles deck (game: magic-maze, kind: roles, with a level)")
    assert r.exit_code == 2 and f"Error: Invalid value for --deck: {deck}: {takes}; {what}\n" in r.output, r.output
    assert r.output.count("--deck") == 1 and "None" not in r.output and not (tmp_path / "out").exists()


def test_deck_refusal_names_every_broken_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # two leaders and a bad ratio at once: both are named, with their counts
    text = "game: mafia\nkind: deck\ncards: {boss: 1, seducer: 1, agent: 1, chief: 1, civilian: 3}\n"
    monkeypatch.chdir(tmp_path)  # the deck is named by a relative path, as a user types it
    Path("d.yaml").write_text(text, encoding="utf-8")
    r = run("play", "mafia", "--deck", "d.yaml", "--bots", "random")
    assert r.exit_code != 0
    assert "exactly one leader" in r.output and "has 2 (seducer 1, agent 1)" in r.output
    assert "town 6" in r.output and "Mafia 1" in r.output and "6.00 times" in r.output


# -- validate ---------------------------------------------------------------------------------


def test_validate_a_good_deck(tmp_path: Path) -> None:
    good = deck_file(tmp_path / "friday.yaml", GOOD_DECK, title="Friday table")
    r = run("validate", good)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [f"ok {good}"]


@pytest.mark.parametrize("case", list(REFUSED))
def test_validate_a_bad_deck_fails_with_the_reason(tmp_path: Path, case: str) -> None:
    text, words = REFUSED[case]
    bad = tmp_path / f"{case}.yaml"
    bad.write_text(text, encoding="utf-8")
    r = run("validate", bad)
    assert r.exit_code == 1, r.output
    lines = r.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"FAIL {bad}:"), r.output
    for w in words:
        assert w in lines[0], (w, r.output)


def test_validate_a_folder_of_decks(tmp_path: Path) -> None:
    good = deck_file(tmp_path / "a-good.yaml", GOOD_DECK)
    bad = tmp_path / "b-bad.yaml"
    bad.write_text(REFUSED["two-leaders"][0], encoding="utf-8")
    r = run("validate", tmp_path)
    assert r.exit_code == 1, r.output
    assert r.output.splitlines()[0] == f"ok {good}"
    assert r.output.splitlines()[1].startswith(f"FAIL {bad}:")
    assert len(r.output.splitlines()) == 2


def test_validate_looks_into_a_folder_named_like_a_yaml_file(tmp_path: Path) -> None:
    """A sub-folder ``old.yaml`` was read as a file ("not a regular file (a folder)", status 1)
    though the decks inside it were checked too and were good, as ``replay`` looks into one."""
    (tmp_path / "old.yaml").mkdir()
    good = deck_file(tmp_path / "old.yaml" / "a-good.yaml", GOOD_DECK)
    r = run("validate", tmp_path)
    assert (r.exit_code, r.output) == (0, f"ok {good}\n")


def test_validate_without_a_path_checks_the_packaged_mafia_files() -> None:
    r = run("validate")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    for name in ("cards", "setups", "talk"):
        assert f"ok scenarios/mafia/{name}.yaml" in lines
    assert "ok mafia: 7 modes load and cross-check" in lines
    assert "FAIL" not in r.output

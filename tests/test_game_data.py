"""The games' YAML data as the engine judges it: each check of Classic Mafia's cards, setups and
talk, FBI vs Mafia's roles and modes, and Magic Maze's scenarios and action tiles refuses what
breaks it, with its path and words, and takes its edge cases (a range whose ends meet, the ends
of an allowed span). The packaged files are the starting point; each case changes one thing in
a copy. (``arbiter validate`` on broken copies: ``tests/test_cli_records.py`` and the games' CLI tests;
the Hidden Roles deck: ``tests/test_roles_data.py``.)"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from arbiter.engine.errors import ScenarioError
from arbiter.engine.games.fbi_mafia import data as fbi
from arbiter.engine.games.mafia import data as mafia
from arbiter.engine.games.magic_maze import data as maze
from arbiter.engine.scenario import MAX_FILE_BYTES, every_problem, load_file, load_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@functools.cache
def _packaged_document(relative: str) -> dict[str, Any]:
    """The packaged file at ``relative`` as the YAML library reads it, read once a process
    (``packaged`` hands out copies: the tests change them)."""
    return yaml.safe_load((SCENARIOS / relative).read_text(encoding="utf-8"))


def packaged(relative: str) -> dict[str, Any]:
    """A copy of the packaged file at ``relative``, as the YAML library reads it: the caller's
    own, to change."""
    return copy.deepcopy(_packaged_document(relative))


def parsed(relative: str, change: Callable[[dict[str, Any]], None], parse: Callable[[Any], Any]) -> Any:
    """``parse`` of the packaged file at ``relative`` after ``change`` edits a copy of it."""
    doc = packaged(relative)
    change(doc)
    return parse(load_text(yaml.safe_dump(doc, sort_keys=False), relative))


def refusal(relative: str, change: Callable[[dict[str, Any]], None], parse: Callable[[Any], Any]) -> str:
    with pytest.raises(ScenarioError) as caught:
        parsed(relative, change, parse)
    return caught.value.message


# -- Classic Mafia: cards.yaml ------------------------------------------------------------------
def cards(change: Callable[[dict[str, Any]], None]) -> tuple[Any, ...]:
    return parsed("mafia/cards.yaml", change, mafia.parse_cards)


def cards_refusal(change: Callable[[dict[str, Any]], None]) -> str:
    return refusal("mafia/cards.yaml", change, mafia.parse_cards)


@pytest.mark.parametrize("card, side, problem", [
    ("mafia", "town", "a mafia team card must be on the mafia side"),
    ("boss", "loner", "a mafia team card must be on the mafia side"),
    ("police", "mafia", "a police team card must be on the town side"),
    ("chief", "loner", "a police team card must be on the town side"),
])
def test_a_team_card_off_its_teams_side_is_refused(card: str, side: str, problem: str) -> None:
    def move(doc: dict[str, Any]) -> None:
        doc["cards"][card]["side"] = side
    assert cards_refusal(move) == f"mafia/cards.yaml: cards.{card}.team: {problem}"


def test_a_ratio_or_a_player_range_whose_ends_meet_is_one_value() -> None:
    def narrow(doc: dict[str, Any]) -> None:
        doc["selection"]["town_per_mafia"] = {"min": 2, "max": 2}
        doc["selection"]["players"] = {"min": 8, "max": 8}
    _, selection, _ = cards(narrow)
    assert (selection.ratio_min, selection.ratio_max, selection.min_players, selection.max_players) == (2.0, 2.0, 8, 8)


def test_a_ratio_or_a_player_range_upside_down_is_refused() -> None:
    def ratio(doc: dict[str, Any]) -> None:
        doc["selection"]["town_per_mafia"] = {"min": 2.5, "max": 1.5}

    def players(doc: dict[str, Any]) -> None:
        doc["selection"]["players"] = {"min": 9, "max": 8}
    assert cards_refusal(ratio) == "mafia/cards.yaml: selection.town_per_mafia: min 2.5 is above max 1.5"
    assert cards_refusal(players) == "mafia/cards.yaml: selection.players: min is above max"


# (.nan passed every comparison and was taken; .inf too; a whole number past a float's range was an
# OverflowError's traceback from ``arbiter validate``)
@pytest.mark.parametrize("value", [0, -1.5, "2", True, None, float("nan"), float("inf"), 10 ** 400],
                         ids=["0", "-1.5", "text", "true", "null", "nan", "inf", "10**400"])
def test_a_ratio_that_is_not_a_positive_number_is_refused(value: Any) -> None:
    def ratio(doc: dict[str, Any]) -> None:
        doc["selection"]["town_per_mafia"]["min"] = value
    assert cards_refusal(ratio) == "mafia/cards.yaml: selection.town_per_mafia.min: expected a positive number"


def night_step(name: str, **fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        step = next(s for s in doc["night"] if s["step"] == name)
        step.update(fields)
    return change


def test_a_step_of_one_role_names_one_card_the_deck_holds_once() -> None:
    one = "a step of one role names exactly one card, of which the deck holds one"
    assert cards_refusal(night_step("seducer", cards=["seducer", "agent"])) == f"mafia/cards.yaml: night[0].cards: {one}"

    def two_fighters(doc: dict[str, Any]) -> None:
        doc["cards"]["fighter"]["copies"] = 2
    assert cards_refusal(two_fighters) == f"mafia/cards.yaml: night[5].cards: {one}"


@pytest.mark.parametrize("step, cards_named, problem", [
    ("seducer", ["boss"], "night[0].cards[0]: 'boss' cannot act in the seducer step: it belongs to a team"),
    ("mafia", ["boss", "civilian"], "night[2].cards[1]: 'civilian' cannot act in the mafia step: it is not on the mafia team"),
    ("police", ["chief", "mafia"], "night[3].cards[1]: 'mafia' cannot act in the police step: it is not on the police team"),
])
def test_a_card_in_a_step_it_cannot_act_in_is_named(step: str, cards_named: list[str], problem: str) -> None:
    assert cards_refusal(night_step(step, cards=cards_named)) == f"mafia/cards.yaml: {problem}"


# -- Classic Mafia: setups.yaml and talk.yaml ----------------------------------------------------
@pytest.mark.parametrize("key, shown", [("six", "six"), (6.5, "6.5")])
def test_a_setup_not_keyed_by_a_whole_number_is_refused(key: Any, shown: str) -> None:
    def add(doc: dict[str, Any]) -> None:
        doc["setups"][key] = dict(doc["setups"][6])
    assert refusal("mafia/setups.yaml", add, lambda d: mafia.parse_setups(d, mafia.load())) == \
        f"mafia/setups.yaml: setups.{shown}: a setup is keyed by its player count (a whole number)"


@pytest.mark.parametrize("line", ["I trust {name}", "I trust {seat", "seat} is quiet", "{seat} and {seat}}"])
def test_a_talk_line_with_a_brace_outside_seat_is_refused(line: str) -> None:
    def add(doc: dict[str, Any]) -> None:
        doc["night"].append(line)
    where = f"night[{len(packaged('mafia/talk.yaml')['night'])}]"
    assert refusal("mafia/talk.yaml", add, mafia.parse_talk) == \
        f"mafia/talk.yaml: {where}: the only placeholder a line may hold is {{seat}}"


def test_a_talk_line_may_name_seat_more_than_once() -> None:
    def add(doc: dict[str, Any]) -> None:
        doc["day"].append("{seat}, {seat}: answer me.")
    assert parsed("mafia/talk.yaml", add, mafia.parse_talk)["day"][-1] == "{seat}, {seat}: answer me."


# -- FBI vs Mafia: roles.yaml and modes.yaml -------------------------------------------------------
def test_threats_per_turn_may_be_one_number_and_not_upside_down() -> None:
    def fixed(doc: dict[str, Any]) -> None:
        doc["limits"]["threats_per_turn"] = [2, 2]

    def upside_down(doc: dict[str, Any]) -> None:
        doc["limits"]["threats_per_turn"] = [3, 2]
    _, limits = parsed("fbi_mafia/roles.yaml", fixed, fbi.parse_roles)
    assert (limits.threats_min, limits.threats_max) == (2, 2)
    assert refusal("fbi_mafia/roles.yaml", upside_down, fbi.parse_roles) == \
        "fbi_mafia/roles.yaml: limits.threats_per_turn: minimum 3 is above maximum 2"


def mode_refusal(mode: str, **fields: Any) -> str:
    def change(doc: dict[str, Any]) -> None:
        doc["modes"][mode].update(fields)
    return refusal("fbi_mafia/modes.yaml", change, lambda d: fbi.parse_modes(d, fbi.load().roles))


@pytest.mark.parametrize("order, team", [
    (["undercover", "detective", "operative"], "mafia"), (["bandit", "maniac", "bomber"], "fbi"),
])
def test_a_turn_order_without_a_team_is_refused(order: list[str], team: str) -> None:
    assert mode_refusal("standard-3v3", turn_order=order) == \
        f"fbi_mafia/modes.yaml: modes.standard-3v3.turn_order: no {team} character in the turn order"


def test_a_turn_order_fills_at_most_half_the_board() -> None:
    def board(size: int) -> Callable[[dict[str, Any]], None]:
        def change(doc: dict[str, Any]) -> None:
            doc["modes"]["standard-4v4"]["board"] = size
        return change
    half = parsed("fbi_mafia/modes.yaml", board(4), lambda d: fbi.parse_modes(d, fbi.load().roles))["standard-4v4"]
    assert (half.board, len(half.turn_order)) == (4, 8)
    assert refusal("fbi_mafia/modes.yaml", board(3), lambda d: fbi.parse_modes(d, fbi.load().roles)) == \
        "fbi_mafia/modes.yaml: modes.standard-4v4.turn_order: 8 characters do not fit a 3x3 board"


def test_an_evidence_hand_needs_a_character_who_can_use_it() -> None:
    assert mode_refusal("standard-3v3", evidence_hand=4) == ("fbi_mafia/modes.yaml: modes.standard-3v3.evidence_hand: "
                                                             "an evidence hand needs a character with the evidence action")
    assert fbi.load().modes["standard-4v4"].evidence_hand == 4  # the Criminalist's


# -- Magic Maze: scenarios.yaml and actions.yaml -------------------------------------------------
def scenario_1(**fields: Any) -> Any:
    def change(doc: dict[str, Any]) -> None:
        doc["scenarios"]["1"].update(fields)
    return parsed("magic_maze/scenarios.yaml", change, lambda d: maze.parse_scenarios(d, maze.load().tiles))["1"]


@pytest.mark.parametrize("fields, problem", [
    ({"title": "   "}, "scenarios.1.title: expected text, found only blanks"),
    ({"title": 7}, "scenarios.1.title: expected text, found a number"),
    ({"stack": ["2", "3", "2"]}, "scenarios.1.stack[2]: '2' is listed twice"),
])
def test_a_text_must_have_words_and_a_list_of_names_no_name_twice(fields: dict[str, Any], problem: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        scenario_1(**fields)
    assert caught.value.message == f"magic_maze/scenarios.yaml: {problem}"


@pytest.mark.parametrize("timer, step, timer_ms, step_ms", [
    (1, 0.001, 1_000, 1), (3600, 3600, 3_600_000, 3_600_000), (180, 1.5, 180_000, 1_500),
])
def test_seconds_take_the_ends_of_their_span(timer: float, step: float, timer_ms: int, step_ms: int) -> None:
    s = scenario_1(timer_seconds=timer, step_seconds=step)
    assert (s.timer_ms, s.step_ms) == (timer_ms, step_ms)


@pytest.mark.parametrize("field, value, low", [
    ("timer_seconds", 0.5, "1"), ("timer_seconds", 3600.5, "1"), ("timer_seconds", "180", "1"),
    ("timer_seconds", True, "1"), ("step_seconds", 0.0005, "0.001"), ("step_seconds", 3601, "0.001"),
    ("step_seconds", None, "0.001"),
    # .nan failed both comparisons, so passed them, and rounding it was a traceback
    ("timer_seconds", float("nan"), "1"), ("step_seconds", float("nan"), "0.001"),
    ("timer_seconds", -10 ** 400, "1"), ("step_seconds", float("inf"), "0.001"),
])
def test_seconds_outside_their_span_or_not_a_number_are_refused(field: str, value: Any, low: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        scenario_1(**{field: value})
    assert caught.value.message == (f"magic_maze/scenarios.yaml: scenarios.1.{field}: "
                                    f"expected a number of seconds from {low} to 3600")


def actions(change: Callable[[dict[str, Any]], None]) -> Any:
    return parsed("magic_maze/actions.yaml", change, maze.parse_actions)


@pytest.mark.parametrize("count, shown", [(1, "1"), (9, "9"), ("4", "4"), (2.5, "2.5")])
def test_a_player_count_outside_2_to_8_is_refused(count: Any, shown: str) -> None:
    def add(doc: dict[str, Any]) -> None:
        players = count if isinstance(count, int) and not isinstance(count, bool) else 4
        doc["players"][count] = [list(maze.ACTIONS)] + [["north"]] * (players - 1)
    with pytest.raises(ScenarioError) as caught:
        actions(add)
    assert caught.value.message == f"magic_maze/actions.yaml: players.{shown}: a player count is a whole number from 2 to 8"


# -- every problem of one file (what validate names) ---------------------------------------------
def found_in(relative: str, change: Callable[[dict[str, Any]], None],
             limit: int = 50) -> tuple[list[ScenarioError], list[str]]:
    """The problems ``every_problem`` finds in a changed copy of a packaged file, and its lines."""
    doc = packaged(relative)
    change(doc)
    text = yaml.safe_dump(doc, sort_keys=False)
    return every_problem(text, relative, mafia.validate_document, limit), text.splitlines()


def problems(relative: str, change: Callable[[dict[str, Any]], None]) -> list[str]:
    return [e.message for e in found_in(relative, change)[0]]


def test_every_problem_of_a_file_is_named_at_its_place_in_the_file() -> None:
    """Each holder at fault is left out to go on; an entry after one left out of the same list
    keeps its own index and line (night[3], not the night[2] it is once night[1] is out)."""
    def three(doc: dict[str, Any]) -> None:
        doc["colour"] = "red"  # a stray key that holds no collection
        doc["night"][1]["cards"] = ["wizard"]
        doc["night"][3]["cards"] = ["chief", "civilian"]
    found, lines = found_in("mafia/cards.yaml", three)
    assert [e.path for e in found] == ["colour", "night[1].cards[0]", "night[3].cards[1]"], [e.message for e in found]
    assert [lines[e.line - 1] for e in found if e.line] == ["colour: red", "  - wizard", "  - civilian"]
    assert "'civilian' cannot act in the police step" in found[2].message


@pytest.mark.parametrize("change, only", [
    (lambda doc: doc.update(night=[]), "night: expected at least 1 entries, found 0"),
    (lambda doc: doc["selection"].pop("leaders"), "selection.leaders: missing (required)"),
    (lambda doc: doc.update(selection=5), "selection: expected a mapping, found a number"),
    (lambda doc: doc.pop("night"), "night: missing (required)"),
])
def test_a_problem_of_a_whole_section_is_named_and_the_search_stops_there(change: Any, only: str) -> None:
    assert problems("mafia/cards.yaml", change) == [f"mafia/cards.yaml: {only}"]


def test_a_whole_entry_at_fault_after_one_left_out_keeps_its_index() -> None:
    def two(doc: dict[str, Any]) -> None:
        doc["night"][1]["cards"] = ["wizard"]
        doc["night"][3] = "police"  # the entry itself, not a value inside it
    found, lines = found_in("mafia/cards.yaml", two)
    assert [(e.path, e.problem) for e in found] == [
        ("night[1].cards[0]", "'wizard' is not one of: " + ", ".join(sorted(mafia.load().cards))),
        ("night[3]", "expected a mapping, found text")]
    assert lines[found[1].line - 1] == "- police"


def test_a_yaml_error_is_named_at_its_line() -> None:
    (problem,) = every_problem("game: mafia\nkind: cards\ncards: [1, 2\n", "c.yaml", mafia.validate_document)
    assert (problem.line, problem.message.split(": ")[1]) == (4, "line 4, column 1")
    (whole,) = every_problem("#" * (MAX_FILE_BYTES + 1), "c.yaml", mafia.validate_document)
    assert whole.line is None and "larger than a data file may be" in whole.message  # the file's, no line's


def test_every_problem_stops_at_its_limit_and_at_a_problem_of_the_document_itself() -> None:
    def three(doc: dict[str, Any]) -> None:
        doc.update(colour="red", size="big", weight="heavy")
    assert [e.path for e in found_in("mafia/cards.yaml", three, limit=2)[0]] == ["colour", "size"]
    assert [e.path for e in found_in("mafia/cards.yaml", three)[0]] == ["colour", "size", "weight"]
    whole = every_problem("- a list\n- not a mapping\n", "c.yaml", mafia.validate_document)
    assert [(e.path, e.problem) for e in whole] == [("", "expected a mapping, found a list")]


def test_setups_are_checked_against_the_cards_beside_them_and_decks_against_those_they_play_by(tmp_path: Path) -> None:
    cards = packaged("mafia/cards.yaml")
    cards["cards"]["civilian"]["copies"] = 2  # this folder's game holds two Civilians
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(cards, sort_keys=False), encoding="utf-8")
    setups = tmp_path / "setups.yaml"
    setups.write_text((SCENARIOS / "mafia" / "setups.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"setups\.10: deck refused: 3 Civilian cards, but the deck holds only 2"):
        mafia.validate_document(load_file(setups))
    mafia.validate_document(load_file(SCENARIOS / "mafia" / "setups.yaml"))  # against the packaged cards: fine
    # a custom deck made in that folder is played (--deck) by the packaged cards: checked by them,
    # as play checks it (validate said ok to a deck beside more cards than the packaged ones hold)
    cards["cards"]["civilian"]["copies"] = 9
    (tmp_path / "cards.yaml").write_text(yaml.safe_dump(cards, sort_keys=False), encoding="utf-8")
    deck = tmp_path / "deck.yaml"
    deck.write_text("game: mafia\nkind: deck\ncards: {seducer: 1, civilian: 7, boss: 1, mafia: 3}\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"7 Civilian cards, but the deck holds only 6 \(by the packaged cards, by "
                                            r"which --deck plays a deck; not the cards.yaml beside it\)$"):
        mafia.validate_document(load_file(deck))


def test_a_problem_inside_a_setup_is_named_at_its_line_and_the_next_setup_still_checked() -> None:
    def two(doc: dict[str, Any]) -> None:
        doc["setups"][7] = {"wizard": 1, **doc["setups"][7]}
        doc["setups"][9]["mafia"] = 5
    doc = packaged("mafia/setups.yaml")
    two(doc)
    text = yaml.safe_dump(doc, sort_keys=False)
    found = every_problem(text, "setups.yaml", lambda node: mafia.parse_setups(node, mafia.load()))
    assert [e.path for e in found] == ["setups.7.wizard", "setups.9"], [e.message for e in found]
    lines = text.splitlines()
    assert [lines[e.line - 1].strip() for e in found] == ["wizard: 1", "9:"]


@pytest.mark.parametrize("text, problem", [
    ("a\nb", "a line break (U+000A) at character 2: this must be one line of printable text"),
    ("a\r", "a line break (U+000D) at character 2"),
    ("ok\u2029", "a line break (U+2029) at character 3"),
    ("bell\x07", "a control character (U+0007) at character 5"),
    ("tab\there", "a control character (U+0009) at character 4"),
    ("Friday table, \u00e9", "'\u00e9' (U+00E9) at character 15: text shown on the board is ASCII"),
    ("family \U0001F468\u200d\U0001F467", "'\U0001F468' (U+1F468) at character 8"),
    ("Friday\u00a0night", "'\\xa0' (U+00A0) at character 7"),  # (repr: a no-break space is not seen)
    ("\u65e5\u672c", "'\u65e5' (U+65E5) at character 1"),  # (two columns each on a terminal)
])
def test_a_text_is_one_line_of_printable_ascii(text: str, problem: str) -> None:
    """A data file's text is printed on boards, in the protocol's lines and to bots: a line
    break there would forge a line, a control character reach the terminal, and anything but
    ASCII break the ASCII board in 80 columns (a wide character takes two)."""
    node = load_text(yaml.safe_dump({"title": text}), "t.yaml").key("title")
    with pytest.raises(ScenarioError) as err:
        node.text()
    assert err.value.problem.startswith(problem), err.value
    for fine in ("Friday table, 9 players!", "'quoted' & (bracketed) ~ #1"):
        assert load_text(yaml.safe_dump({"title": fine}), "t.yaml").key("title").text() == fine


def test_a_text_of_lines_takes_line_breaks_and_nothing_else() -> None:
    """A tile's map is lines of text: line breaks pass, any other unprintable character does not."""
    node = load_text(yaml.safe_dump({"map": "+--+\n|..|\n+--+"}), "t.yaml").key("map")
    assert node.text(lines=True) == "+--+\n|..|\n+--+"
    with pytest.raises(ScenarioError, match="line break"):
        node.text()
    bad = load_text(yaml.safe_dump({"map": "+--+\n|.\t.|"}), "t.yaml").key("map")
    with pytest.raises(ScenarioError, match=r"a control character \(U\+0009\) at character 8: each line must"):
        bad.text(lines=True)


@pytest.mark.parametrize("text, line, column", [
    ("game: mafia\ntitle: \"ab\0c\"\n", 2, 11),
    ("game: mafia\ntitle: \"éé\x07c\"\n", 2, 11),  # (libyaml counts the bytes of é; the place is a character's)
    ("a: [1,\n  2]\nb: \x1b\n", 3, 4),
])
def test_a_character_yaml_does_not_allow_is_named_by_its_line_and_column(text: str, line: int, column: int) -> None:
    """The YAML library names such a character only by its offset ('in "<unicode string>",
    position 33', on a second line of the message); the error says where it is, as every
    other YAML error does."""
    with pytest.raises(ScenarioError) as err:
        load_text(text, "deck.yaml")
    code = next(ord(c) for c in text if c in "\0\x07\x1b")
    assert str(err.value) == (f"deck.yaml: line {line}, column {column}: not valid YAML: the character "
                              f"U+{code:04X} is not allowed in YAML (a control character)")
    assert err.value.line == line


def test_a_step_naming_a_card_left_out_is_no_problem_of_its_own() -> None:
    """A card at fault is left out to go on; the night's steps that call on it then failed too,
    named as problems at lines that are right ("night[2].cards[1]: 'mafia' is not one of")."""
    def side(doc: dict[str, Any]) -> None:
        doc["cards"]["mafia"]["side"] = "mafya"
    assert problems("mafia/cards.yaml", side) == [
        "mafia/cards.yaml: cards.mafia.side: 'mafya' is not one of: town, mafia, loner"]


def test_a_custom_hidden_roles_deck_with_its_level_at_fault_is_still_a_custom_deck() -> None:
    """Left out to go on, the level took the deck for the packaged one (which defines every
    card), and every card of a right deck, and its title, was named wrong."""
    from arbiter.engine import registry

    text = ("game: magic-maze\nkind: roles\ntitle: Friday night\nlevel: 9\n"
            "cards: {traitor: 2, hero: 2, mage-first: 1, mute: 1, master-thief: 1}\n")
    found = every_problem(text, "d.yaml", registry.validate_document)
    assert [(e.message, e.line) for e in found] == [("d.yaml: level: 9 is out of range (allowed: 1..5)", 4)]

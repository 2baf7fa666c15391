"""Data files a user hands the referee (decks, scenario files, transcripts) are read within
bounds: a file too large, a text too long or nesting too deep is refused with the file, the
place and the limit, never a traceback, and nothing else happens."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.engine import transcript as tr
from arbiter.engine.errors import ScenarioError, TranscriptError
from arbiter.engine.games.mafia.data import TITLE_MAX_CHARS
from arbiter.engine.scenario import MAX_DEPTH, MAX_FILE_BYTES, MAX_TEXT_CHARS, load_file, load_text
from arbiter.engine.yamlio import line_of
from tests.helpers import LIBYAML, REFUSED_FLOW_COLON, REFUSED_VALUE_COLON, precondition, run

DECK = "game: mafia\nkind: deck\n{title}cards: {{boss: 1, mafia: 1, agent: 1, chief: 1, police: 1, civilian: 2, " \
       "chameleon: 1, fighter: 1}}\n"


def test_yaml_nested_100000_deep_is_refused_by_validate_and_deck(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 100_000, encoding="utf-8")
    for args in (("validate", deep), ("play", "mafia", "--deck", deep, "--bots", "random")):
        r = run(*args)
        assert r.exit_code != 0, r.output
        assert "nested too deeply" in r.output and str(deep) in r.output and "RecursionError" not in r.output


def test_yaml_nested_past_the_limit_names_the_place() -> None:
    """The document's mapping and MAX_DEPTH - 1 lists in it are MAX_DEPTH levels: the limit."""
    with pytest.raises(ScenarioError) as caught:
        load_text("cards: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH, "deck.yaml")
    assert caught.value.message == "deck.yaml: cards" + "[0]" * (MAX_DEPTH - 1) + f": nested more than {MAX_DEPTH} levels deep"
    load_text("cards: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "deck.yaml")  # at the limit: fine


def test_a_text_too_long_is_refused_with_its_path() -> None:
    with pytest.raises(ScenarioError, match=rf"deck.yaml: title: a text of {MAX_TEXT_CHARS + 1} characters"):
        load_text("title: " + "x" * (MAX_TEXT_CHARS + 1), "deck.yaml")
    assert load_text("title: " + "x" * MAX_TEXT_CHARS, "deck.yaml").key("title").text() == "x" * MAX_TEXT_CHARS


@pytest.mark.parametrize("text, path", [
    ("lines: [short, LONG]", "lines[1]"), ("setups: {6: LONG}", "setups.6"), ("setups: {6: [a, {b: LONG}]}", "setups.6[1].b"),
])
def test_a_text_too_long_is_named_by_its_keys_and_indexes(text: str, path: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_text(text.replace("LONG", "x" * (MAX_TEXT_CHARS + 1)), "f.yaml")
    assert caught.value.message == f"f.yaml: {path}: a text of {MAX_TEXT_CHARS + 1} characters is too long " \
                                   f"(at most {MAX_TEXT_CHARS})"


def test_validate_names_the_line_of_a_text_too_long_under_a_whole_number_key(tmp_path: Path) -> None:
    setups = tmp_path / "setups.yaml"
    text = (Path(__file__).resolve().parents[1] / "scenarios" / "mafia" / "setups.yaml").read_text(encoding="utf-8")
    precondition(text.count("\n  7:  {boss: 1,") == 1, "the packaged setups are not as this test expects")
    setups.write_text(text.replace("\n  7:  {boss: 1,", "\n  7:  {note: " + "x" * (MAX_TEXT_CHARS + 1) + ", boss: 1,"),
                      encoding="utf-8")
    line = next(i for i, s in enumerate(setups.read_text(encoding="utf-8").splitlines(), 1) if s.startswith("  7:"))
    r = run("validate", setups)
    assert r.exit_code == 1
    assert r.output == f"FAIL {setups}:{line}: setups.7.note: a text of {MAX_TEXT_CHARS + 1} characters is too long " \
                       f"(at most {MAX_TEXT_CHARS})\n"


@pytest.mark.parametrize("steps, line", [
    (["b"], 2), (["b", "c", 1], 5), (["b", "c", 2], 3), (["b", "d"], 2), (["e", 6], 6), (["e", "6"], 6), (["a", "x"], 1), ([], 1),
])
def test_line_of_finds_a_value_by_its_keys_and_indexes_or_the_nearest_holder(steps: list, line: int) -> None:
    text = "a: 1\nb:\n  c:\n    - x\n    - y\ne: {6: z}\n"
    assert line_of("\n" + text, steps) == line + 1  # a blank first line: lines count from the file's first
    assert line_of(text, steps) == line


def test_line_of_an_empty_or_broken_document_is_unknown() -> None:
    assert line_of("", ["a"]) is None
    assert line_of("a: [1\n", ["a"]) is None


def test_a_value_not_among_the_choices_is_quoted_up_to_40_characters() -> None:
    for value, shown in (("y" * 40, repr("y" * 40)), ("y" * 41, repr("y" * 40) + "... (41 characters)")):
        with pytest.raises(ScenarioError) as caught:
            load_text(f"side: {value}", "f.yaml").key("side").text(("town", "mafia"))
        assert caught.value.message == f"f.yaml: side: {shown} is not one of: town, mafia"


LONG = "x" * 1000
"""A key or a value far longer than any name of the data: an error names it by its start and length."""


@pytest.mark.parametrize("kind, text, problem", [
    ("mafia deck", f"game: mafia\nkind: deck\ncards: {{{LONG}: 1, boss: 1, civilian: 4}}\n",
     "3: cards.'x{40}'... \\(1000 characters\\): no card named 'x{40}'... \\(1000 characters\\) \\(cards:"),
    ("roles deck", f"game: magic-maze\nkind: roles\nlevel: 1\ncards: {{{LONG}: 1}}\n",
     "4: cards.'x{40}'... \\(1000 characters\\): no card 'x{40}'... \\(1000 characters\\) in the role deck"),
    ("roles deck", f"game: magic-maze\nkind: roles\nlevel: 1\ncards: {{hero: 3}}\nout_of_order_start: {LONG}\n",
     "5: out_of_order_start: true or false, not 'x{40}'... \\(1000 characters\\): whether"),
    ("a key that is not text", f"game: mafia\nkind: deck\ncards: {{{'9' * 200}: 1}}\n",
     "3: cards: keys must be text, found 9{40}... \\(200 characters\\)$"),
])
def test_an_error_of_a_data_file_names_a_long_key_or_value_by_its_start_and_length(
        tmp_path: Path, kind: str, text: str, problem: str) -> None:
    """A 1000-character card name came back twice whole: a 2,125-character line."""
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    r = run("validate", path)
    assert r.exit_code == 1, r.output
    line = next(line for line in r.output.splitlines() if line.startswith("FAIL"))
    assert re.search(problem, line), (kind, line)
    assert "x" * 41 not in r.output and "9" * 41 not in r.output, (kind, len(r.output))  # nowhere whole


@pytest.mark.parametrize("head, line", [("game: mafia\nkind: deck\ncards:\n  ", 4), ("", 1)])
def test_a_key_longer_than_yaml_reads_is_said_to_be_one(tmp_path: Path, head: str, line: int) -> None:
    """Past 1024 characters YAML does not read a plain key of a block mapping, and the library's
    words ("mapping values are not allowed in this context") did not say why."""
    path = tmp_path / "deck.yaml"
    path.write_text(f"{head}{'x' * 1100}: 1\n", encoding="utf-8")
    r = run("validate", path)
    assert r.exit_code == 1
    assert f"{path}:{line}: not valid YAML: {REFUSED_VALUE_COLON} (YAML reads a key of at most " \
           "1024 characters; this one has 1100)" in r.output, r.output
    for text in (f"game: mafia\nkind: deck\ncards:\n  {'x' * 1020}: 1\n",  # a long key YAML reads
                 f"game: mafia\ntitle: {'x' * 1100}: 1\n"):  # a value's colon, which YAML refuses in any value
        path.write_text(text, encoding="utf-8")
        assert "at most 1024" not in run("validate", path).output
    path.write_text(f"game: mafia\nkind: deck\nlist:\n  - {'x' * 1100}: 1\n", encoding="utf-8")
    assert "this one has 1100)" in run("validate", path).output  # the key of a list's entry


_NOTE = "(YAML reads a key of at most 1024 characters; this one has {})"


def test_a_key_longer_than_yaml_reads_in_a_flow_mapping_is_said_to_be_one(tmp_path: Path) -> None:
    """The same past 1024 characters in a flow mapping (``cards: {KEY: 1}``), where the library
    says only "did not find expected ',' or '}'" at the key's colon."""
    path = tmp_path / "deck.yaml"
    for cards, length in ((f"{{{'x' * 1100}: 1}}", 1100), (f"{{boss: 1, {'x' * 1025}: 1}}", 1025),
                          (f"{{boss: 1,\n    {'x' * 1100}: 1}}", 1100),  # (the key on a line of its own)
                          (f"{{'{'x' * 1100}': 1}}", 1102)):  # (quotes are counted)
        path.write_text(f"game: mafia\nkind: deck\ncards: {cards}\n", encoding="utf-8")
        r = run("validate", path)
        assert r.exit_code == 1 and f"not valid YAML: {REFUSED_FLOW_COLON} " + _NOTE.format(length) \
            in r.output, r.output


@pytest.mark.parametrize("text, why", [
    (f"cards: {{{'x' * 1024}: 1}}\n", "a key of 1024 characters, which YAML reads"),
    (f"cards: {{a: {'x' * 1100}: 1}}\n", "a value's colon, refused in any value"),
    (f"cards: {{a: \"{'x' * 1100}, b\": 1}}\n", "a long quoted value holding a comma, then a colon"),
    (f"cards: {{a: {'x' * 1100}, b: 2 c: 3}}\n", "a short value's colon, after a long entry"),
    (f"cards: {{{'x' * 600}\n  {'y' * 600}: 1}}\n", "a key over two lines, 1,202 characters in all"),
    (f"cards: {{a: 1,\n  x\n  {'y' * 1100}: 1}}\n", "a key over two lines, the second long"),
    (f"cards: [{'x' * 1100}, b c: d: e]\n", "a list's entry of two colons, after a long one"),
    ("cards: {a: 1 b: 2}\n", "the same refusal, with no long key"),
])
def test_a_flow_mappings_refusal_is_not_blamed_on_a_long_key_it_does_not_have(text: str, why: str) -> None:
    try:
        load_text(text, "f.yaml")
    except ScenarioError as exc:
        assert "reads a key" not in exc.message, (why, exc.message)
    else:
        assert "1024" in why, why  # (only the key YAML reads loads)


@pytest.mark.parametrize("loader", [pytest.param("libyaml", marks=pytest.mark.skipif(
    not LIBYAML, reason="this PyYAML has no libyaml")), "python"])
def test_either_reader_names_a_flow_key_too_long(loader: str) -> None:
    """libyaml's reader and Python's (which reads a text that may nest deeply) refuse the key in
    their own words; the note is the same, in a flow list's single-pair mapping too."""
    import yaml

    from arbiter.engine import yamlio

    chosen = yamlio.FAST_STRICT if loader == "libyaml" else yamlio.STRICT
    for text, end in ((f"a: {{b: 1, {'é' * 1100}: 1}}\n", "}"), (f"a: [{'x' * 1100}: 1]\n", "]")):
        with pytest.raises(yaml.YAMLError) as caught:
            yaml.load(text, Loader=chosen)
        line, column, problem = yamlio.error_place(caught.value, text)
        assert (line, column) == (1, text.rindex(": 1") + 1), problem
        said = rf"(did not find )?expected ',' or '\{end}'(, but got ':')? "
        assert re.fullmatch(said + re.escape(_NOTE.format(1100)), problem), problem


def test_a_text_of_the_largest_size_a_file_may_have_is_read() -> None:
    head = "title: x\n"
    largest = head + "#" * (MAX_FILE_BYTES - len(head))
    assert load_text(largest, "f.yaml").key("title").text() == "x"
    with pytest.raises(ScenarioError, match=rf"f.yaml: {MAX_FILE_BYTES + 1} characters is larger than a data file"):
        load_text(largest + "#", "f.yaml")


def test_a_huge_deck_title_is_refused(tmp_path: Path) -> None:
    deck = tmp_path / "deck.yaml"
    deck.write_text(DECK.format(title="title: " + "T" * (TITLE_MAX_CHARS + 1) + "\n"), encoding="utf-8")
    r = run("play", "mafia", "--deck", deck, "--bots", "random", "--seed", 1)
    assert r.exit_code == 1 and f"title: {TITLE_MAX_CHARS + 1} characters is too long" in r.output, r.output
    deck.write_text(DECK.format(title="title: " + "T" * TITLE_MAX_CHARS + "\n"), encoding="utf-8")
    assert run("validate", deck).exit_code == 0


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("title: " + "x" * 50 + "\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1), encoding="utf-8")
    with pytest.raises(ScenarioError, match="larger than a data file may be"):
        load_file(big)
    r = run("play", "mafia", "--deck", big)
    assert r.exit_code == 1 and "larger than a data file may be" in r.output


def test_a_file_of_the_largest_size_is_read(tmp_path: Path) -> None:
    largest = tmp_path / "largest.yaml"
    largest.write_bytes(b"title: x\n" + b"#" * (MAX_FILE_BYTES - 9))
    assert load_file(largest).key("title").text() == "x"
    largest.write_bytes(largest.read_bytes() + b"#")
    with pytest.raises(ScenarioError, match=rf"{MAX_FILE_BYTES + 1} bytes is larger than a data file may be"):
        load_file(largest)


def test_a_transcript_nested_too_deep_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("format: 1\nlog: " + "[" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(TranscriptError, match="nested too deeply"):
        tr.read(path)
    r = run("replay", path)
    assert r.exit_code == 1 and "nested too deeply" in r.output


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")])
def test_the_pure_python_reader_refuses_past_its_depth_at_once(opener: str, closer: str) -> None:
    """Texts that may nest deeply go to the pure-Python loader, which stops at ``READ_DEPTH``
    open collections (flow or block) with ``TooDeep``: exactly there, not a level sooner."""
    from arbiter.engine import yamlio

    flow = opener * yamlio.READ_DEPTH + "1" + closer * yamlio.READ_DEPTH
    value = yamlio.load(flow)
    for _ in range(yamlio.READ_DEPTH):
        value = value[0] if isinstance(value, list) else value["a"]
    assert value == 1
    with pytest.raises(yamlio.TooDeep):
        yamlio.load(opener + flow + closer)
    block = "".join("  " * i + "-\n" for i in range(yamlio.READ_DEPTH - 1)) + "  " * (yamlio.READ_DEPTH - 1) + "- x\n"
    assert yamlio.nesting_bound(block) >= yamlio.FAST_DEPTH  # read by the pure-Python loader
    value = yamlio.load(block)
    for _ in range(yamlio.READ_DEPTH):
        value = value[0]
    assert value == "x"
    with pytest.raises(yamlio.TooDeep):
        yamlio.load("-\n" + "".join("  " + line + "\n" for line in block.splitlines()))


GOLDEN = Path(__file__).resolve().parents[1] / "transcripts" / "mafia" / "10-players-mafia-seed1.yaml"


@pytest.mark.parametrize("edit, named", [
    (lambda t: t.replace("options: {}\n", "options: {}\n" + "k" * 3000 + ": 1\n"),
     "unknown key '" + "k" * 40 + "'... (3000 characters) (a transcript has"),
    (lambda t: t.replace("format: 1\n", "format: " + "9" * 3000 + "\n"),
     "format " + "9" * 40 + "... (3000 characters) is not supported"),
    (lambda t: t.replace("{n: 1, seat: p1, text: nominate p2, time: 1}", "{n: 1, seat: p1, text: nominate p2, time: " + "7" * 3000 + "}"),
     "time " + "7" * 40 + "... (3000 characters) is later than the clock runs"),
    (lambda t: t.replace("options: {}\n", "options: {}\nsession: {as: " + "s" * 3000 + "}\n"),
     "as: '" + "s" * 40 + "'... (3000 characters) is not a seat of this game"),
])
def test_a_transcript_error_names_a_long_key_or_value_by_its_start_and_length(tmp_path: Path, edit, named: str) -> None:
    """An edited transcript is refused naming what is wrong, as a data file is: a long key or
    value by its start and length (``errors.quoted``), not written back whole."""
    path = tmp_path / "t.yaml"
    path.write_text(edit(GOLDEN.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(TranscriptError) as caught:
        tr.read(path)
    assert named in caught.value.message and len(caught.value.message) < 400, caught.value.message[:600]


def test_a_long_key_given_twice_is_named_by_its_start_and_length() -> None:
    key = "k" * 1000
    with pytest.raises(ScenarioError) as caught:
        load_text(f"{key}: 1\n{key}: 2\n", "f.yaml")
    assert caught.value.message == f"f.yaml: line 2, column 1: not valid YAML: the key '{'k' * 40}'... (1000 characters) is given twice"

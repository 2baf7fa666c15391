"""Hostile data files and transcripts are refused at once with one clear line: a path that is not
a regular file (a device that never ends, a FIFO that blocks), a number too long for Python to
read, and YAML aliases that expand a small text into millions of values (a "billion laughs")."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arbiter.engine import files, logline, scenario, yamlio
from arbiter.engine import transcript as tr
from arbiter.engine.errors import ScenarioError, TranscriptError
from arbiter.engine.scenario import MAX_DEPTH, MAX_EXPANDED, load_text, read_file
from tests.helpers import REPO, precondition, run

GOLDEN = REPO / "transcripts" / "mafia" / "6-players-mafia-seed1.yaml"
FIRST_MOVE = "- {move: {n: 1, seat: p1, text: nominate p2, time: 1}}\n"
DECK = "game: mafia\nkind: deck\n"


def _referee(args: list[object], cwd: Path, timeout: float = 30) -> subprocess.CompletedProcess:
    """``arbiter ARGS`` as a child process held to 1 GiB of memory and ``timeout`` seconds, so a
    referee that reads without end fails the test rather than the machine."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        return subprocess.run([sys.executable, "-m", "arbiter.cli.main", *map(str, args)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              preexec_fn=cap)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the referee hung: no exit within {timeout} s: arbiter {args}")


def _bomb(levels: int, width: int, indent: str = "") -> str:
    """A "billion laughs": a list of ``width`` texts, then ``levels`` lists each of ``width``
    aliases to the one before (``width ** (levels + 1)`` texts when expanded)."""
    lines = [f"{indent}l0: &l0 [{', '.join(['lol'] * width)}]"]
    for k in range(1, levels + 1):
        lines.append(f"{indent}l{k}: &l{k} [{', '.join([f'*l{k - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


@contextmanager
def _fifo(path: Path) -> Iterator[Path]:
    """A FIFO at ``path``, written to (and so unblocked) after 5 s if a reader opened it and
    waits: a reader that opens it fails its test rather than hanging."""
    os.mkfifo(path)
    done = threading.Event()

    def unblock() -> None:
        if not done.wait(5):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # no reader waiting: ENXIO
            except OSError:
                return
            os.write(fd, b"a: 1\n")
            os.close(fd)

    thread = threading.Thread(target=unblock, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        done.set()
        thread.join()


def _golden() -> str:
    text = GOLDEN.read_text(encoding="utf-8")
    precondition(text.count(FIRST_MOVE) == 1 and "\noptions: {}\n" in text, "the golden transcript changed")
    return text


# -- 1. not a regular file --------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_the_capped_reader_refuses_a_device_whatever_its_size_says(device: str) -> None:
    with pytest.raises(files.NotRegularFile, match=r"not a regular file \(a character device\)") as caught:
        files.read_text_capped(device, 100)
    assert isinstance(caught.value, OSError) and caught.value.path == device


def test_the_capped_reader_refuses_a_fifo_without_opening_it(tmp_path: Path) -> None:
    with _fifo(tmp_path / "ff.yaml") as fifo, \
            pytest.raises(files.NotRegularFile, match=r"not a regular file \(a FIFO\)"):
        files.read_text_capped(fifo, 100)
    with pytest.raises(files.NotRegularFile, match=r"a folder"):
        files.read_text_capped(tmp_path, 100)


def test_the_capped_reader_reads_the_limit_and_refuses_a_byte_more(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(b"a: 1\r\n" + b"#" * 94)
    assert files.read_text_capped(path, 100) == "a: 1\n" + "#" * 94  # line ends as read_text gives them
    path.write_bytes(b"a: 1\n" + b"#" * 96)
    with pytest.raises(files.FileTooLarge) as caught:
        files.read_text_capped(path, 100)
    assert (caught.value.size, caught.value.limit) == (101, 100) and isinstance(caught.value, ValueError)


def test_the_capped_reader_stops_at_the_limit_when_the_size_said_less(tmp_path: Path, monkeypatch) -> None:
    """A file that grew after its size was taken (here: a size said as 0) is read no further
    than a byte past the limit, and refused."""
    path = tmp_path / "f.yaml"
    path.write_bytes(b"#" * 10_000)
    real = os.fstat
    monkeypatch.setattr(files.os, "fstat", lambda fd: os.stat_result((*real(fd)[:6], 0, *real(fd)[7:])))
    with pytest.raises(files.FileTooLarge) as caught:
        files.read_text_capped(path, 100)
    assert caught.value.size == 101


def test_a_data_file_not_regular_is_a_scenario_error_naming_it(tmp_path: Path) -> None:
    with _fifo(tmp_path / "ff.yaml") as fifo, pytest.raises(ScenarioError) as caught:
        read_file(fifo)
    assert caught.value.message == f"{fifo}: not a regular file (a FIFO): a data file must be a regular file"


@pytest.mark.parametrize("args", [["validate"], ["play", "mafia", "--bots", "random", "--seed", "1", "--deck"],
                                  ["replay"], ["show"], ["play", "--resume"]])
@pytest.mark.parametrize("target", ["/dev/zero", "fifo"])
def test_data_files_and_transcripts_refuse_a_device_or_a_fifo_at_once(tmp_path: Path, args: list[str], target: str) -> None:
    if target == "fifo":
        target = str(tmp_path / "ff.yaml")
        os.mkfifo(target)
    proc = _referee([*args, target], tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "not a regular file" in proc.stdout + proc.stderr and target in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("args", [["validate"], ["play", "mafia", "--bots", "random", "--seed", "1", "--deck"],
                                  ["replay"], ["play", "--resume"]])
def test_a_file_that_is_not_utf8_is_refused_naming_its_line_and_column(tmp_path: Path, args: list[str]) -> None:
    """A data file's byte that is not UTF-8 was refused in the codec's words ("'utf-8' codec
    can't decode byte 0xe9 in position 33: invalid continuation byte"); data files and
    transcripts now say it alike: the line and the column."""
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(DECK.encode() + b"cards: {boss: 1, caf\xe9: 2}\n")
    r = run(*args, bad)
    assert r.exit_code == 1, r.output
    kind = "a transcript" if args[0] == "replay" or "--resume" in args else "a data file"
    assert f"{bad}: cannot read: line 3 is not UTF-8 text (byte 0xe9 at column 21); {kind} is UTF-8" in r.output


# -- 2. numbers too long for Python ---------------------------------------------------------------

@pytest.mark.parametrize("number", ["9" * 5000, "-" + "9" * 4301, "0x" + "f" * 4000, "1" + ":59" * 3000])
def test_yaml_refuses_a_number_too_long_naming_its_line(number: str) -> None:
    with pytest.raises(yamlio.NumberTooLong) as caught:
        yamlio.load(f"a: 1\nb: [2, {number}]\n")
    assert caught.value.problem == "a number of more than 4300 digits (at most 4300)"
    assert isinstance(caught.value, yaml_error()) and caught.value.problem_mark.line == 1
    assert yamlio.load("b: " + "9" * 4300) == {"b": int("9" * 4300)}  # the longest read


def yaml_error() -> type:
    import yaml

    return yaml.YAMLError


def test_a_deck_with_a_number_too_long_is_refused_with_its_line(tmp_path: Path) -> None:
    deck = tmp_path / "bi.yaml"
    deck.write_text(DECK + "cards: {boss: " + "9" * 5000 + "}\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        scenario.load_file(deck)
    assert caught.value.message == f"{deck}: line 3, column 15: a number of more than 4300 digits (at most 4300)"
    r = run("validate", deck)
    assert r.exit_code == 1 and r.output == f"FAIL {deck}:3: a number of more than 4300 digits (at most 4300)\n"
    r = run("play", "mafia", "--deck", deck, "--bots", "random")
    assert r.exit_code == 1 and "line 3, column 15: a number of more than 4300 digits" in r.output


@pytest.mark.parametrize("line", [
    "- {move: {n: 1, seat: p1, text: pass, time: NUMBER}}\n", "- {move: {n: NUMBER, seat: p1, text: pass, time: 1}}\n",
    "- {note: {x: NUMBER}}\n", "- {note: {x: [-NUMBER, 0]}}\n",
])
def test_the_fast_line_reader_leaves_a_number_past_640_digits_to_the_library(line: str) -> None:
    assert logline.read_entry_line(line.replace("NUMBER", "9" * 640)) is not None
    assert logline.read_entry_line(line.replace("NUMBER", "9" * 641)) is None


@pytest.mark.parametrize("old, new, line", [
    (FIRST_MOVE, FIRST_MOVE.replace("time: 1}", "time: " + "9" * 5000 + "}"), 12),
    (FIRST_MOVE, FIRST_MOVE.replace("n: 1,", "n: " + "9" * 5000 + ","), 12),
    ("\nseed: 1\n", "\nseed: " + "9" * 5000 + "\n", 6),
])
def test_a_transcript_with_a_number_too_long_is_one_clear_error(tmp_path: Path, old: str, new: str, line: int) -> None:
    path = tmp_path / "bt.yaml"
    path.write_text(_golden().replace(old, new, 1), encoding="utf-8")
    with pytest.raises(TranscriptError, match=rf"\(line {line}\): not valid YAML: a number of more than 4300 digits"):
        tr.read(path)
    for args in (("replay", path), ("show", path)):
        r = run(*args)
        assert r.exit_code == 1 and "a number of more than 4300 digits" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1, r.output


# -- 3. aliases ------------------------------------------------------------------------------------

def test_a_document_expanding_past_the_limit_is_refused_naming_the_limit() -> None:
    text = DECK + _bomb(5, 12) + "cards: {boss: 1}\n"  # 12 ** 6: about 3 million texts
    with pytest.raises(ScenarioError) as caught:
        load_text(text, "bomb.yaml")
    lists = [13]  # l0 and its 12 texts, then each list and its 12 copies of the one before
    for _ in range(5):
        lists.append(1 + 12 * lists[-1])
    expanded = 1 + 2 + sum(lists) + 2  # the document, game and kind, the lists, cards and its one value
    assert caught.value.message == f"bomb.yaml: its aliases expand it to {expanded} values, more than a data file " \
                                   f"may hold (at most {MAX_EXPANDED})"


def test_validate_and_a_deck_refuse_a_billion_laughs_at_once(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(DECK + _bomb(6, 9) + "cards: {boss: 1}\n", encoding="utf-8")  # 9 ** 7: 4.8 million
    for args in (("validate", bomb), ("play", "mafia", "--deck", bomb, "--bots", "random")):
        proc = _referee(list(args), tmp_path, timeout=60)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1 and f"more than a data file may hold (at most {MAX_EXPANDED})" in out, out
        assert len(out.strip().splitlines()) == 1, out


def test_a_list_shared_by_aliases_is_read_and_walked_once(monkeypatch) -> None:
    """Anchors to share a value are fine; the bounds check walks what they name once (here a
    mapping of 2,000 values that 200 aliases hold: 400,000 values expanded)."""
    text = "base: &base {" + ", ".join(f"k{i}: {i}" for i in range(2000)) + "}\nuses: [" + ", ".join(["*base"] * 200) + "]\n"
    made = []
    real = scenario.Node._child
    monkeypatch.setattr(scenario.Node, "_child", lambda self, value, step: made.append(step) or real(self, value, step))
    root = load_text(text, "f.yaml")
    assert root.value["uses"][199]["k1999"] == 1999 and len(root.value["uses"]) == 200
    assert len(made) < 2 * 2000 + 200 + 10, len(made)


def test_a_shared_list_too_deep_where_an_alias_puts_it_is_named_there_without_walking_it_again(monkeypatch) -> None:
    """A shared list that fits where it is first met is not walked again, unless where an alias
    puts it now it nests past the limit: the problem is named as in the text written out."""
    deep = "[" * (MAX_DEPTH - 2) + "X" + "]" * (MAX_DEPTH - 2)  # X at MAX_DEPTH levels (b, its list, these)
    shared = "[" + ", ".join(str(i) for i in range(1000)) + "]"
    text = f"b: [&x {shared}, {deep.replace('X', '*x')}]\na: [" + ", ".join(["*x"] * 50) + "]\n"
    written_out = f"b: [{shared}, {deep.replace('X', shared)}]\na: [{', '.join([shared] * 50)}]\n"
    with pytest.raises(ScenarioError) as expected:
        load_text(written_out, "f.yaml")
    made = []
    real = scenario.Node._child
    monkeypatch.setattr(scenario.Node, "_child", lambda self, value, step: made.append(step) or real(self, value, step))
    with pytest.raises(ScenarioError) as caught:
        load_text(text, "f.yaml")
    assert caught.value.message == expected.value.message
    assert caught.value.message.endswith(f"nested more than {MAX_DEPTH} levels deep")
    assert len(made) < 2 * 1000 + 200, len(made)


@pytest.mark.parametrize("text, problem", [
    ("a: &x [1]\nb: *x\n", "anchor (&x)"), ("- *x\n", "alias (*x)"), ("a: {b: &x 1}\n", "anchor (&x)"),
    ("[" * 70 + "*x" + "]" * 70, "alias (*x)"),  # read by the pure-Python loader (may nest deeply)
    ("[" * 70 + "&x 1" + "]" * 70, "anchor (&x)"),
])
def test_yaml_refuses_anchors_and_aliases_when_asked(text: str, problem: str) -> None:
    with yamlio.refusing_aliases():
        with pytest.raises(yamlio.AliasFound, match=re.escape(f"a YAML {problem}")):
            yamlio.load(text)
        assert yamlio.load("a: 'me & you', b: '*x', c: a&b*c\n".replace(", ", "\n")) == \
            {"a": "me & you", "b": "*x", "c": "a&b*c"}  # only an anchor or an alias
    assert yamlio.load("a: &x [1]\nb: *x\n") == {"a": [1], "b": [1]}  # outside it: read as ever


def _laughing_transcript(where: str) -> str:
    """The golden transcript with a billion laughs under an unknown key of its header, used by
    a note in its log, or in its ending."""
    text = _golden()
    if where == "log":
        text = text.replace("\noptions: {}\n", "\noptions: {}\nzz:\n" + _bomb(8, 9, "  "), 1)
        return text.replace(FIRST_MOVE, "- {note: {x: *l8}}\n" + FIRST_MOVE, 1)
    precondition("\nresult:\n" in text, "the golden transcript has no ending")
    return text.replace("\nresult:\n", "\nzz:\n" + _bomb(8, 9, "  ") + "result:\n", 1)


@pytest.mark.parametrize("where", ["log", "ending"])
def test_a_transcript_with_an_alias_is_refused_as_one_arbiter_never_writes(where: str) -> None:
    text = _laughing_transcript(where)
    with pytest.raises(TranscriptError, match=r"^t.yaml \(line (\d+)\): the transcript holds a YAML (alias|anchor) "
                                              r"\(([*&]l[0-8])\), which arbiter never writes$") as caught:
        tr.parse(text, "t.yaml")
    line, token, _ = re.match(r"t.yaml \(line (\d+)\): .* \(([*&](l[0-8]))\)", caught.value.message).groups()
    assert token in text.splitlines()[int(line) - 1], "the line named holds it"
    # a lone alias in a log line, which is read apart from the rest: its line in the file
    lone = _golden().replace(FIRST_MOVE, "- {note: {x: *here}}\n" + FIRST_MOVE, 1)
    with pytest.raises(TranscriptError) as caught:
        tr.parse(lone, "t.yaml")
    assert caught.value.message.startswith(f"t.yaml (line {lone[:lone.index('*here')].count(chr(10)) + 1}): ")


@pytest.mark.parametrize("args", [("replay", "--update"), ("replay",), ("show",)])
def test_replay_and_show_refuse_a_billion_laughs_at_once_and_change_nothing(tmp_path: Path, args: tuple) -> None:
    path = tmp_path / "t.yaml"
    text = _laughing_transcript("log")
    if args == ("replay",):  # a move refused: the replay writes the difference
        text = text.replace(FIRST_MOVE, FIRST_MOVE.replace("nominate p2", "fly away"), 1)
    path.write_text(text, encoding="utf-8")
    proc = _referee([*args, path], tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "holds a YAML alias (*l8), which arbiter never writes" in out, out
    assert len(out.strip().splitlines()) == 1, out
    assert path.read_text(encoding="utf-8") == text

"""Golden transcripts: every file under transcripts/ replays exactly, every game mode has at
least two, the FBI vs Mafia goldens of each sub-mode together show every action, step,
interrupt answer and ending, and the files are what ``tools/goldens.py`` writes.

Regenerate after an intended rules change with ``python tools/goldens.py`` (and review the
diff)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from arbiter.engine import registry
from arbiter.engine.games.fbi_mafia import data as fm_data
from arbiter.engine.session import Session
from arbiter.engine.transcript import ReplayReport, Transcript, read, replay

ROOT = Path(__file__).resolve().parents[1]
TRANSCRIPTS = ROOT / "transcripts"


@cache
def goldens():
    """``tools/goldens.py``, the one golden generator, loaded as a module."""
    spec = importlib.util.spec_from_file_location("goldens", ROOT / "tools" / "goldens.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FILES = goldens().golden_files()  # the files the tool's --check knows of, no other


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@cache
def replay_of(path: Path) -> tuple[Transcript, ReplayReport]:
    t = read(path)
    return t, replay(t)


def replayed(path: Path) -> tuple[str, str, Session]:
    """Game, mode and the replayed session of a golden that replays exactly."""
    t, report = replay_of(path)
    assert report.ok, f"{rel(path)}: " + "; ".join(report.problems)
    assert report.session is not None
    return t.game, t.variant, report.session


def test_there_are_goldens() -> None:
    assert FILES, f"no transcripts under {rel(TRANSCRIPTS)}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden_replays_exactly(path: Path) -> None:
    t, report = replay_of(path)
    assert not t.notes, t.notes
    assert report.ok, f"{rel(path)}: " + "; ".join(report.problems)
    assert t.finished, f"{rel(path)}: a golden is a whole game, this one has no result"
    assert report.session is not None and report.session.over
    assert report.moves == len(report.session.moves) > 0


def test_every_game_mode_has_two_goldens() -> None:
    count = Counter((replayed(p)[0], replayed(p)[1]) for p in FILES)
    short = [
        f"{rules.name} {v.name}: {count[(rules.name, v.name)]}"
        for rules in registry.games() for v in rules.variants() if count[(rules.name, v.name)] < 2
    ]
    assert not short, "modes with fewer than two golden transcripts: " + ", ".join(short)


def test_goldens_are_of_reasonable_size() -> None:
    total = sum(p.stat().st_size for p in FILES)
    assert total < 1_000_000, f"transcripts/ holds {total} bytes; keep the goldens under 1 MB"


# --------------------------------------------------------------------------- FBI vs Mafia coverage
FBI_MODES = [v.name for v in registry.get("fbi-mafia").variants()]
# The list, per sub-mode: every action verb available in the mode ...
BASE_VERBS = {"shift", "arrest", "defuse", "masquerade", "autopsy", "inspect", "keep", "kill", "swap",
              "plant", "detonate"}
EXTRA_VERBS_4V4 = {"shoot", "prepare", "evidence"}
# ... the protection step (placed, removed, skipped), threat placement, both answers to both
# interrupts ...
STEPS_AND_ANSWERS = {"protect CELL", "unprotect CELL", "skip", "threat", "protect yes", "protect no",
                     "detonate yes", "detonate no"}
# ... friendly fire, a chain detonation, threat kills, both win reasons and a surrender.
EVENTS = {"friendly-fire", "threat-kill"}
ENDINGS = {"kills", "arrests", "surrender"}


def verbs_of(mode: str) -> set[str]:
    """Every verb of the mode, from its data: shift, the roles' actions, and inspect's keep."""
    d = fm_data.load()
    verbs = {"shift"} | {a for c in d.modes[mode].turn_order for a in d.roles[c].actions}
    return verbs | ({"keep"} if "inspect" in verbs else set())


def chain_sizes(kinds: list[str]) -> list[int]:
    """Explosions set off by each Detonate action (until the next turn or the end)."""
    sizes, current = [], None
    for kind in kinds:
        if kind == "detonate":
            current = 0
        elif kind == "explosion" and current is not None:
            current += 1
        elif kind in ("turn", "game-over") and current is not None:
            sizes.append(current)
            current = None
    if current is not None:
        sizes.append(current)
    return sizes


def shown(session: Session) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {"inputs": set(), "events": set(), "endings": set(), "chains": set()}
    for move in session.moves:
        words = move.text.split()
        if words[0] in ("protect", "detonate") and words[1:] in (["yes"], ["no"]):
            out["inputs"].add(move.text)
        elif words[0] in ("protect", "unprotect"):
            out["inputs"].add(f"{words[0]} CELL")
        else:
            out["inputs"].add(words[0])
    kinds = [e.kind for e in session.events]
    out["events"] = set(kinds)
    if max(chain_sizes(kinds), default=0) >= 2:
        out["chains"].add("chain detonation")
    if session.state.result is not None:
        out["endings"].add(session.state.result.reason)
    return out


@pytest.mark.parametrize("mode", FBI_MODES)
def test_fbi_goldens_cover_the_mode(mode: str) -> None:
    mine = [p for p in FILES if replayed(p)[:2] == ("fbi-mafia", mode)]
    have: dict[str, set[str]] = {"inputs": set(), "events": set(), "endings": set(), "chains": set()}
    for p in mine:
        for key, items in shown(replayed(p)[2]).items():
            have[key] |= items
    verbs = verbs_of(mode)
    listed = BASE_VERBS | (EXTRA_VERBS_4V4 if mode.endswith("4v4") else set())
    assert listed <= verbs, f"{mode}: the data lacks {sorted(listed - verbs)}"
    missing = sorted((verbs | STEPS_AND_ANSWERS) - have["inputs"])
    missing += sorted(f"event {k}" for k in EVENTS - have["events"])
    missing += sorted(f"ending {k}" for k in ENDINGS - have["endings"])
    missing += sorted({"chain detonation"} - have["chains"])
    assert not missing, f"{mode}: no golden shows {missing} (regenerate: python tools/goldens.py fbi-mafia)"


def test_chain_detection_counts_one_detonate_at_a_time() -> None:
    kinds = ["turn", "detonate", "explosion", "kill", "explosion", "kill", "turn", "detonate", "explosion",
             "turn", "arrest", "detonate-accepted", "explosion", "explosion", "turn"]
    assert chain_sizes(kinds) == [2, 1]


# --------------------------------------------------------------------------- the generator
def generator(game: str = "fbi-mafia"):
    """The generator's module of one game (``tools/golden_games/``)."""
    return goldens().GAMES[game]


def check(game: str) -> None:
    """Same as ``python tools/goldens.py --check GAME``: regenerate in memory and compare."""
    problems = goldens().check([game])
    assert not problems, "\n".join(problems) + f"\nregenerate: python tools/goldens.py {game}"


def test_goldens_are_what_the_generator_writes() -> None:
    check("fbi-mafia")


def test_the_check_names_every_file_that_differs_is_missing_or_extra(tmp_path: Path, monkeypatch) -> None:
    """``--check`` is only worth something if it fails: a changed, a deleted and a stray golden
    are each named, and the command exits 1 without writing anything."""
    tool = goldens()
    out = tmp_path / "mafia"
    out.mkdir()
    names = sorted(p.name for p in (TRANSCRIPTS / "mafia").glob("*.yaml"))
    for name in names:
        (out / name).write_bytes((TRANSCRIPTS / "mafia" / name).read_bytes())
    edited = out / names[0]
    edited.write_text(edited.read_text(encoding="utf-8").replace("seed:", "seed: ", 1), encoding="utf-8")
    (out / names[1]).unlink()
    (out / names[2]).write_bytes(b"game: \xff\n")  # not UTF-8: a traceback, and no report of the rest
    (out / "stray.yaml").write_text("{}\n", encoding="utf-8")
    (out / "sub").mkdir()
    (out / "sub" / "stray.yaml").write_text("{}\n", encoding="utf-8")  # this file's FILES has it too
    monkeypatch.setattr(tool, "out_of", lambda game: tmp_path / game)
    problems = tool.check(["mafia"])
    assert problems == [f"differs: {out}/{names[0]}", f"missing: {out}/{names[1]}",
                        f"cannot read it: {out}/{names[2]}: not UTF-8 (byte 7)",
                        f"not made by the generator: {out}/stray.yaml",
                        f"not made by the generator: {out}/sub/stray.yaml"]
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert tool.main(["--check", "mafia"]) == 1
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_the_check_sees_every_file_this_test_replays(tmp_path: Path, monkeypatch, capsys) -> None:
    """``--check`` once looked at ``transcripts/GAME/*.yaml`` only, while this file replays every
    ``*.yaml`` under ``transcripts/``: a golden in a sub-folder or in a folder of no game was
    replayed here and passed ``--check`` unseen. Both use the tool's ``golden_files``; one outside
    every game's folder is named (a game's own folder is ``compare``'s, above)."""
    tool = goldens()
    for rel in ("mafia/a.yaml", "mafia/sub/b.yaml", "other/c.yaml", "d.yaml", "mafia/notes.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr(tool, "TRANSCRIPTS", tmp_path)
    assert tool.golden_files() == [tmp_path / r for r in ("d.yaml", "mafia/a.yaml", "mafia/sub/b.yaml", "other/c.yaml")]
    assert tool.strays() == [f"not made by the generator: {tmp_path}/d.yaml",
                             f"not made by the generator: {tmp_path}/other/c.yaml"]

    class OneGame:  # its generator makes what its folder holds
        @staticmethod
        def generate(doc):
            return {"a.yaml": "{}\n", "sub/b.yaml": "{}\n"}, []
    monkeypatch.setattr(tool, "GAMES", {"mafia": OneGame})
    monkeypatch.setattr(tool, "out_of", lambda game: tmp_path / game)
    assert tool.check() == tool.strays()
    assert tool.main(["--check"]) == 1
    told = capsys.readouterr().out.splitlines()[-1]  # running the generator would not remove them
    assert told == "the goldens the generator makes are up to date; remove the files it does not make"


def test_generator_covers_at_least_what_this_test_requires() -> None:
    """The generator's own list (which drives its search) must not ask for less than this file."""
    gen = generator()
    for mode in FBI_MODES:
        need = gen.required(mode)
        for verb in verbs_of(mode) | STEPS_AND_ANSWERS:
            assert f"input: {verb}" in need, (mode, verb)
        for kind in EVENTS:
            assert f"event: {kind}" in need, (mode, kind)
        for reason in ENDINGS:
            assert f"end: {reason}" in need, (mode, reason)
        assert "chain detonation" in need


# --------------------------------------------------------------------------- Classic Mafia
def mafia_generator():
    return generator("mafia")


MAFIA_FILES = [p for p in FILES if p.parent.name == "mafia"]
# The list: a town win and a Mafia win with every default deck, a tie and its re-vote,
# a protection that holds (the Agent's by day, the Seducer's by night), and the powers' edges
# (the Agent and the Police head may decline).
MAFIA_SHOWN = {"revote", "revote-tied", "protection-held", "seducer-saved", "arrest-skip", "fighter-kill", "ban",
               "team-talk", "agent-pass", "police-pass", "leave", "custom-deck"}


def test_mafia_goldens_are_what_the_generator_writes() -> None:
    check("mafia")


def test_mafia_goldens_show_every_player_count_won_by_each_side_and_every_rule() -> None:
    gen = mafia_generator()
    assert set(gen.REQUIRED) >= MAFIA_SHOWN
    ends: dict[str, set[str]] = {}
    shown: set[str] = set()
    for p in MAFIA_FILES:
        _, variant, session = replayed(p)
        got = gen.coverage(session)
        shown |= got
        if not session.options and not any(m.text == "leave" for m in session.moves):
            ends.setdefault(variant, set()).update(g for g in got if g.startswith("end: "))
    for v in registry.get("mafia").variants():
        assert {"end: town", "end: mafia"} <= ends.get(v.name, set()), f"{v.name}: {sorted(ends.get(v.name, set()))}"
    assert MAFIA_SHOWN <= shown, sorted(MAFIA_SHOWN - shown)


def test_mafia_coverage_reads_what_a_game_shows() -> None:
    """The coverage detector must not see what a game does not show (or the test above is empty)."""
    from tests.helpers import mafia_game

    session = mafia_game(["boss", "mafia", "seducer", "chief", "civilian", "civilian"])
    assert mafia_generator().coverage(session) == {"unfinished"}
    for seat in session.seats:
        session.submit(seat, "pass")
    assert mafia_generator().coverage(session) == {"unfinished"}
    session.submit("p3", "seduce p5")
    session.submit("p2", "say p5 now")
    assert "team-talk" in mafia_generator().coverage(session)


# --------------------------------------------------------------------------- Magic Maze
def test_magic_maze_goldens_win_and_lose_every_scenario_and_solo() -> None:
    """The issue's list: a win and a loss for each scenario 1-7, solo included."""
    ends: dict[tuple[str, bool], set[str]] = {}
    for p in FILES:
        game, scenario, session = replayed(p)
        if game != "magic-maze" or "roles" in session.options or "deck" in session.options:
            continue  # Hidden Roles has its own test below
        result = session.state.result
        assert result is not None
        solo = len(session.seats) == 1
        ends.setdefault((scenario, solo), set()).add("win" if result.winner else "loss")
        if not result.winner:
            assert result.reason == "time"
    for v in registry.get("magic-maze").variants():
        assert ends.get((v.name, False)) == {"win", "loss"}, f"scenario {v.name}: {ends.get((v.name, False))}"
    solo = set().union(*(e for (s, solo), e in ends.items() if solo))
    assert solo == {"win", "loss"}


def test_magic_maze_goldens_are_what_the_generator_writes() -> None:
    check("magic-maze")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_golden_board_fits_80_columns(path: Path) -> None:
    """The final board of every golden game, as the host and as each seat sees it, fits an 80
    column terminal (a mall too wide comes in strips; its lines never wrap), and no line of it
    ends in spaces (FBI vs Mafia's column letters did: a copied board carried them)."""
    _, _, session = replayed(path)
    for seat in ("host", *session.seats[:3]):
        lines = session.render(seat).splitlines()
        widest = max(len(line) for line in lines)
        assert widest <= 80, f"{rel(path)} as {seat}: {widest} columns"
        assert [line for line in lines if line != line.rstrip()] == [], f"{rel(path)} as {seat}"


def test_hidden_roles_goldens_play_every_level_twice_and_show_the_expansion() -> None:
    """Two goldens per level, named by their level, and between them an upheld accusation of a
    hero, a traitor eliminated, a failed mission, a side switch, an abandonment and a right
    divining (what ``tools/goldens.py`` requires of its recipes, seen in the files)."""
    gen = generator("magic-maze")
    plots = gen.roles
    levels: Counter = Counter()
    shown: set[str] = set()
    for p in FILES:
        game, _, session = replayed(p)
        if game != "magic-maze" or "roles" not in session.options:
            continue
        level = session.options["roles"]
        assert p.name.startswith(f"roles-level{level}-"), p.name
        levels[level] += 1
        shown |= plots.shows(session)
        result = session.state.result
        assert set(result.winners) == {s for s, line in result.scores["players"].items() if line["won"]}
        assert set(session.state.revealed) == set(session.seats)
    assert all(levels[n] >= 2 for n in (1, 2, 3, 4, 5)), levels
    wanted = {"hero-accused", "traitor-eliminated", "failed-mission", "switch", "abandon", "divine-right"}
    assert wanted <= shown, sorted(wanted - shown)
    assert set(gen.ROLES_SHOWN) >= wanted and set(gen.ROLES_LEVELS) >= {1, 2, 3, 4, 5}  # the tool asks as much


def test_the_roles_coverage_sees_nothing_in_a_game_that_shows_nothing() -> None:
    """The detector behind the test above must not find what a game does not show."""
    from tests.helpers import roles_game

    assert generator("magic-maze").roles.shows(roles_game("3", ["traitor", "hero", "hero"], level=1)) == set()

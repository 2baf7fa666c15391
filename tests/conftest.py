"""What every test shares: hypothesis runs the same examples every time, and the order the
tests are handed to pytest-xdist's workers is the slowest first.

Hypothesis is derandomized (its examples follow from each test, not from a random seed or a
database of past failures), so a run of the suite is the same on every machine and at every
stop; a counterexample found while developing becomes an ``@example`` of its test. Nor does it
time its examples (``deadline=None``): one example held up past hypothesis's default 200 ms (the
process left waiting for a core on a busy machine) failed its test as "Unreliable test timings".

The workers take the next test as they finish one (``--dist loadgroup``: every test is its own
unit of work, but for the tests that share one play of a game, ``WALKED``: those of one game
are one unit, handed out first), so starting the long tests first leaves only short
ones for the end, and neither worker sits idle while the other finishes a long test. The
order changes nothing a test asserts; a test missing from ``SLOW`` keeps its place after them.

``-n auto`` starts a worker more than the cores this process may run on
(``pytest_xdist_auto_num_workers``): a sixth of the suite's worker time is spent waiting (on
bots that hang until their time runs out, on Ray starting, on pools stopping), and the extra
worker uses a core while another waits. On the 2-core machine, in six interleaved pairs of runs
of the whole suite, three workers took 80-98 s and two 90-110 s (7% more on average; three were
faster in five pairs, as fast in one); four gained nothing more. A count set in
``PYTEST_XDIST_AUTO_NUM_WORKERS`` is taken as it is, and ``-n N`` as ever.

Once the tests are collected, everything alive then (the modules, their data, the collected
tests) is moved out of the garbage collector's reach (``gc.freeze``): it lives to the end of
the run anyway, and every full collection would otherwise walk it again (~2 s of CPU a worker).
The collector then starts a young collection every 10,000 new objects instead of every 700
(``gc.set_threshold``), and so its full ones, which walk everything the tests keep (memos,
games shared by tests, hypothesis's data), as seldom: about 5 a worker in a run instead of 33.
What it frees is only garbage held in reference cycles (anything else is freed when dropped;
the tests that check a game is freed at once hold it by references alone), and it frees that
a little later. Timed by the collector's own callbacks over a whole run, its passes took
4.6 s of CPU in the three workers with the default thresholds, 2.2 s with these.

The suite starts its children as a terminal's jobs start, with Ctrl-C at its default: a
non-interactive shell that runs ``python -m pytest &`` starts it with SIGINT ignored, which every
process it starts would inherit and keep (the referee leaves an ignored signal ignored, as
``nohup`` asks), so the tests that interrupt a referee, a worker or a pty's session failed.

The processes the tests start buffer their output as a user's do (in a file or a pipe, a block
at a time): ``PYTHONUNBUFFERED``, which this machine's shells and its CI set, is taken out of
their environment. With it set, every write goes out at once, and that hid a fault: without
it, a tournament whose report a full disk refused ended with status 120 and "Exception ignored"
(the refused text can stay in the buffer and fail again at the interpreter's last flush), while
its test, run with it, passed. Output that a process forgot to flush would likewise reach a
test waiting for it, and never a user.

Where the suite runs with ``PYTHONDONTWRITEBYTECODE`` set (this machine's shells set it), the
hundreds of interpreters the tests start (``arbiter`` commands, bots, workers) would each compile
the project from source again. Their bytecode goes instead to a cache in this user's own cache
folder (``$XDG_CACHE_HOME`` or ``~/.cache``, ``arbiter/test-pycache``; not the shared temporary
folder, where another user could make the folder first and plant bytecode in it), set by
``PYTHONPYCACHEPREFIX`` and checked against each source file's time and size as Python's own
``__pycache__`` is: nothing is written into the tree, and a changed file is compiled again. The
suite's own processes keep there the test modules pytest rewrites (its assertions) and what they
import: collecting the tests took 4.8 s of CPU in each worker at every run, 1.5 s with the cache.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest
from hypothesis import settings

settings.register_profile("arbiter", derandomize=True, database=None, print_blob=True, deadline=None)
settings.load_profile("arbiter")

if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):  # (see the docstring: for the processes the tests start)
    _cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(_cache, "arbiter", "test-pycache")
    # and for this process: the test modules pytest rewrites and the modules they import
    sys.pycache_prefix, sys.dont_write_bytecode = os.environ["PYTHONPYCACHEPREFIX"], False

os.environ.pop("PYTHONUNBUFFERED", None)  # (see the docstring: the processes the tests start buffer as a user's)

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # (see the docstring; this process and its children)
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Seconds one test (one parametrization) of these took on a 2-core machine, roughly
# (``python -m pytest --durations=0``, tests/test_*.py as of issue 11). Only the order matters;
# a figure that drifts costs a little wall time, never a result.
SLOW: dict[str, float] = {
    "tests/test_goldens.py::test_magic_maze_goldens_are_what_the_generator_writes": 8.0,
    "tests/test_hidden_info_twins.py::test_twins_with_inputs_legal_in_both": 7.0,
    # its fixture builds a virtual environment (wall time: pip), once a run: the first test makes
    # it early; the others, in their place, find it made (a worker waiting on it would sit idle)
    "tests/test_install.py::test_one_import_package_named_arbiter": 7.0,
    "tests/test_arena_ray.py::": 7.0,  # Ray starts for it
    "tests/test_roles_bot.py::test_the_bot_decides_from_its_seats_knowledge_only": 5.0,
    "tests/test_transcripts_lines.py::test_a_log_line_is_what_the_yaml_library_writes": 5.0,
    "tests/test_arena_resume.py::test_a_run_killed_with_sigkill_resumes_and_ends_as_an_uninterrupted_one": 4.0,
    "tests/test_maze_play_property.py::test_random_legal_inputs_keep_the_invariants": 3.5,
    "tests/test_mafia_invariants.py::test_invariants_hold_after_every_input": 3.5,
    "tests/test_fbi_fast_checks.py::test_one_cell_checks_answer_as_the_listings_do": 3.0,
    "tests/test_record.py::test_whatever_happens_the_written_transcript_replays_the_game": 3.0,
    "tests/test_transcript_reading.py::test_any_line_the_writer_writes_reads_back_as_the_library_reads_it": 3.0,
    "tests/test_bots_close.py::test_a_bot_whose_child_holds_its_pipes_cannot_hang_the_referee": 2.5,
    "tests/test_maze_cli_tools.py::test_bench_with_roles_reports_the_hidden_roles_figures": 2.5,
    "tests/test_hidden_info_twins.py::test_twins_replaying_random_games": 2.0,
    "tests/test_hidden_info_direct.py::test_identities_field_shows_only_the_seats_own": 2.0,
    "tests/test_roles_hidden_info.py::test_other_seats_cards_stay_hidden_until_revealed": 2.0,
    "tests/test_maze_hidden_info.py::test_the_face_down_orders_stay_hidden_until_a_tile_is_turned": 2.0,
    "tests/test_record.py::test_every_cut_point_of_a_finished_transcript_reads_replays_and_resumes": 2.0,
    "tests/test_mafia_hidden_info_swaps.py::test_swapped_cards_unknown_to_a_civilian_stay_hidden_from_it": 2.0,
    "tests/test_mafia_hidden_info_swaps.py::test_swapped_cards_stay_hidden_from_other_seats": 1.5,
    "tests/test_transcript_reading.py::test_lines_edited_at_random_are_read_as_the_library_reads_them_or_left_to_it": 2.0,
    "tests/test_protocol_framing.py::test_garbage_lines_in_a_seats_session": 2.0,
    "tests/test_roles_bot.py::test_bots_accuse_vote_and_catch_traitors_over_many_games": 2.0,
    "tests/test_roles_bot.py::test_a_whole_bot_game_finishes_and_replays": 1.5,
    "tests/test_hidden_info_direct.py::test_criminalist_hand_is_absent_from_other_seats": 1.5,
    "tests/test_transcript_reading.py::test_every_golden_reads_as_the_yaml_library_reads_it_and_fast": 1.5,
    "tests/test_arena_forfeits.py::test_crashing_hanging_and_cheating_entrants_forfeit_and_the_tournament_finishes": 1.5,
    "tests/test_protocol_framing.py::test_garbage_lines_as_host": 1.5,
    "tests/test_contract.py::test_every_game_keeps_the_contract": 1.0,
    "tests/test_maze_play.py::test_planner_bots_win_every_later_scenario_on_the_first_seeds": 1.0,
    "tests/test_fbi_move_path.py::test_the_value_path_accepts_and_refuses_as_the_words": 2.5,
    "tests/test_fbi_views.py::test_views_and_boards_are_the_reference_ones": 1.0,
    "tests/test_maze_planner_search.py::test_the_goal_plans_and_solo_steps_are_the_plain_planners": 2.0,
    "tests/test_maze_planner_search.py::test_the_barbarians_map_while_cameras_lock_is_the_plain_searchs": 1.8,
    "tests/test_maze_rules_talk.py::test_say_text_is_a_form_exactly_when_talk_is_accepted": 1.0,
    "tests/test_transcripts_lines.py::test_plain_headers_and_endings_are_written_as_the_pure_python_emitter_writes_them": 1.6,
    "tests/test_roles_bot_plans.py::test_every_seats_choice_is_the_whole_plans": 1.5,
    "tests/test_transcript_reading.py::test_headers_and_endings_edited_at_random_are_read_as_the_library_reads_them_or_left_to_it": 1.8,
    "tests/test_transcript_reading.py::test_any_header_or_ending_of_game_values_reads_back_as_the_library_reads_it": 1.3,
}


WALKED = {f"tests/test_maze_planner_search.py::{name}" for name in (
    "test_slide_answers_as_the_rule_walked_square_by_square",
    "test_the_malls_memos_are_what_walking_the_walls_finds_after_every_tile",
    "test_every_route_is_the_plain_searchs",
    "test_the_goal_plans_and_solo_steps_are_the_plain_planners",
)}
"""Tests that share one play of their game (its parameters) in a process: each checks its own
positions as play reaches them (``walk`` in that module). Their parametrizations of one game
are one unit of work, run by one worker, which plays the game once for all of them; xdist's
``xdist_group`` mark cannot say so under pytest 9, whose node ids no longer take the group's
suffix (the scheduler sees only node ids)."""


def _unit(nodeid: str) -> str | None:
    """The unit of work a test belongs to, when it shares one with others (``WALKED``)."""
    name, _, params = nodeid.partition("[")
    return f"{name.split('::', 1)[0]}[{params}" if name in WALKED else None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadgroup`` as xdist does it, with the units of ``_unit``."""
    if config.getvalue("dist") != "loadgroup":
        return None
    try:  # (a private method of xdist's: where a later xdist lacks it, its own scheduling)
        from xdist.scheduler import LoadGroupScheduling
    except ImportError:
        return None
    if not callable(getattr(LoadGroupScheduling, "_split_scope", None)):
        return None

    class Scheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid) or super()._split_scope(nodeid)

    return Scheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: the cores this process may run on, plus one (see the module's docstring);
    None (xdist's own count) where ``PYTEST_XDIST_AUTO_NUM_WORKERS`` says how many."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # (no affinity on this platform: macOS, Windows)
        cores = os.cpu_count() or 1
    return cores + 1


def _key(nodeid: str) -> str:
    name = nodeid.split("[", 1)[0]
    return name if name in SLOW else name.split("::", 1)[0] + "::"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: -SLOW.get(_key(item.nodeid), 0.0))  # stable: the rest keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.freeze()  # see the module's docstring
    gc.set_threshold(10_000, 10, 10)  # (the default: 700, 10, 10)

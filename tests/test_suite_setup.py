"""The suite's own setup (tests/conftest.py): how many workers ``-n auto`` starts, and what
hypothesis's profile leaves to chance."""

from __future__ import annotations

import os

import pytest

from tests import conftest


def test_auto_starts_a_worker_more_than_the_cores_unless_told_how_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """A third worker on two cores uses a core while another test waits (issue 11's suite time);
    a count in ``PYTEST_XDIST_AUTO_NUM_WORKERS`` is left to xdist, which takes it as it is."""
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert conftest.pytest_xdist_auto_num_workers(None) == 3
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(16)), raising=False)
    assert conftest.pytest_xdist_auto_num_workers(None) == 17
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "2")
    assert conftest.pytest_xdist_auto_num_workers(None) is None


def test_hypothesis_draws_the_same_examples_and_times_none_of_them() -> None:
    """An example held up past hypothesis's default deadline (200 ms; the process waiting for a
    core on a busy machine) failed its test as "Unreliable test timings"."""
    from hypothesis import settings

    profile = settings.get_profile("arbiter")
    assert (profile.derandomize, profile.database, profile.deadline) == (True, None, None)
    assert settings.default.deadline is None  # (the profile is the one loaded)

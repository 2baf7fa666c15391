"""The suite's own setup (tests/conftest.py): how many workers ``-n auto`` starts."""

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

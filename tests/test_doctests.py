"""The examples in the package's, the engine's and the command line's docstrings run as tests, so they cannot
drift from the code."""

from __future__ import annotations

import doctest
import functools
import importlib
import pkgutil

import pytest

from arbiter import cli, engine

MODULES = ["arbiter", *sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "arbiter.engine.")),
           *sorted(m.name for m in pkgutil.walk_packages(cli.__path__, "arbiter.cli."))]


@functools.cache
def examples_of(name: str) -> doctest.TestResults:
    """The module's examples run (``...`` matching anything), once a process: how many were
    attempted and how many failed. An example is attempted whatever the option flags, so
    ``test_examples_exist`` counts the very runs ``test_docstring_examples`` judges."""
    return doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = examples_of(name)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_examples_exist() -> None:
    attempted = sum(examples_of(n).attempted for n in MODULES)
    assert attempted >= 8

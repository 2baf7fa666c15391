"""``python -m arbiter``: the ``arbiter`` command."""

from arbiter.cli.entry import run

run()

"""The ``arbiter`` command. Thin: each command parses options, calls the engine, prints.

Each command lives in a module of its own (``cli/play.py``, ...), imported only when that
command runs, so ``arbiter --help`` and a quick command never pay for the others.
"""

from __future__ import annotations

import importlib

import click

from arbiter import __version__
from arbiter.cli.common import EXIT_HELP, interrupted, utf8_output
from arbiter.cli.entry import is_interrupt, output_failed, output_gone, output_refused, reader_gone

COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("arbiter.cli.play", "Play a game: moves from the terminal, a file, a pipe or bots."),
    "replay": ("arbiter.cli.records", "Re-run transcripts and report any divergence."),
    "show": ("arbiter.cli.records", "Print a transcript's board as a seat saw it after move N."),
    "games": ("arbiter.cli.data", "List the games and their modes or scenarios."),
    "validate": ("arbiter.cli.data", "Check scenario, deck and role YAML, naming every problem."),
    "bench": ("arbiter.cli.bench", "Bot self-play: games/s, inputs/s, results, memory."),
    "tournament": ("arbiter.cli.tournament", "Bots against bots over many fair games: win rates, ratings, SPRT."),
    "match": ("arbiter.cli.tournament", "Two bots against each other (a two-entrant tournament)."),
}
"""Each command: the module that defines it (a function of the command's name) and its line
in ``arbiter --help``."""


class LazyGroup(click.Group):
    """A group whose commands are imported when they run (or are asked for their help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[name][0])
        return getattr(module, name)  # type: ignore[no-any-return]

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a Ctrl-C that it does not handle itself ends the run with status
        130 (``cli/entry.py``), not Click's ``Aborted!`` and status 1; standard output's reader
        going away (``| head``) ends it quietly with status 141, not Click's status 1, which
        would say that a file failed."""
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, RuntimeError) as exc:
            if not is_interrupt(exc):
                raise
            interrupted("interrupted")
        except BrokenPipeError:
            if not output_gone():
                raise
            reader_gone()
        except OSError as exc:  # standard output refuses writes (a full disk, /dev/full): one line, status 1
            if not output_refused(exc):
                raise
            output_failed(exc)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_HELP)
@click.version_option(__version__, prog_name="arbiter")
def main() -> None:
    """arbiter: a referee for tabletop hidden-role games.

    Moves are text lines (docs/protocol.md); every game can be recorded as a transcript that
    replays exactly.
    """
    utf8_output()


if __name__ == "__main__":
    from arbiter.cli.entry import run

    run()

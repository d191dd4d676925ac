"""The command line of Reversi, Gomoku and Lines of Action: what a player or
an operator runs.

The rules (show, perft, replay), the search (think, solve, arena, warm), the
engine protocols (engine) and tree models (selfplay, model). The lab's
commands (strength suites, benches, fitting and training, books) are
python -m mcts.lab's.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Iterable

from . import engine, models, rules, search, solve

#: The registrars of the product's subcommands, in the order ``--help`` lists.
REGISTRARS = (rules, search, solve, engine, models)


def build_parser(
    prog: str = "python -m mcts",
    description: str | None = __doc__,
    registrars: Iterable = REGISTRARS,
) -> argparse.ArgumentParser:
    """Return an argument parser named ``prog`` with the subcommands of every
    module in ``registrars`` (each has ``add_commands(subparsers)``)."""
    # The description is a module's docstring: plain words, for a terminal.
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for module in registrars:
        module.add_commands(commands)
    return parser


def run(parser: argparse.ArgumentParser, argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's) with ``parser`` and run the
    chosen subcommand; return the process exit code."""
    args, extra = parser.parse_known_args(argv)
    # Moves may follow the options (`show gomoku --size 9 e5 e6`): argparse
    # leaves them over, so they join the MOVES list here.
    if extra and hasattr(args, "moves") and not any(t.startswith("-") for t in extra):
        args.moves.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    # The command as typed, for what a command records of how it was run.
    args.command_line = f"{parser.prog} " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except ValueError as error:  # bad game name or options: a message, not a trace
        print(f"error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went (`| head`): no traceback, and none at exit as
        # Python flushes standard output (the documented remedy).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m mcts``; return the process exit code."""
    return run(build_parser(), argv)

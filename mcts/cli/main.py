"""The ``python -m mcts`` command line: one parser, its subcommands registered by
the modules of this package (rules tools, search tools, tree-model tools,
the engine protocols, the endgame solver, the training of networks)."""

from __future__ import annotations

import argparse
import shlex
import sys

from . import (
    bench,
    book,
    conversion,
    engine,
    models,
    patterns,
    rules,
    search,
    shapes,
    solve,
    strength,
    training,
)


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m mcts`` with every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m mcts", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    rules.add_commands(commands)
    search.add_commands(commands)
    bench.add_commands(commands)
    models.add_commands(commands)
    engine.add_commands(commands)
    solve.add_commands(commands)
    strength.add_commands(commands)
    conversion.add_commands(commands)
    patterns.add_commands(commands)
    shapes.add_commands(commands)
    training.add_commands(commands)
    book.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # Moves may follow the options (`show gomoku --size 9 e5 e6`): argparse
    # leaves them over, so they join the MOVES list here.
    if extra and hasattr(args, "moves") and not any(t.startswith("-") for t in extra):
        args.moves.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    # The command as typed, for what a command records of how it was run.
    args.command_line = "python -m mcts " + shlex.join(
        sys.argv[1:] if argv is None else argv
    )
    try:
        return args.func(args)
    except ValueError as error:  # bad game name or options: a message, not a trace
        print(f"error: {error}", file=sys.stderr)
        return 2

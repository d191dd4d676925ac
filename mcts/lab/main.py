"""The lab's command line: its tools.

Strength suites and matches against engines (strength), the conversion and
threat benchmarks (conversion, threats, lost-moves), benches (bench,
bench-playouts, bench-model), random games (random), fitting and training
(train-patterns, fit-shapes, train-net, net-chart, net-export), opening
books (book) and matches between two builds (versus). What a player or an
operator runs is python -m mcts.
"""

from __future__ import annotations

from ..cli.main import build_parser, run
from .commands import (
    bench,
    book,
    conversion,
    model_bench,
    patterns,
    playouts,
    shapes,
    strength,
    training,
    versus,
)

#: The registrars of the lab's subcommands, in the order ``--help`` lists.
REGISTRARS = (
    strength,
    conversion,
    bench,
    model_bench,
    playouts,
    patterns,
    shapes,
    training,
    book,
    versus,
)


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m mcts.lab``; return the process exit code."""
    return run(build_parser("python -m mcts.lab", __doc__, REGISTRARS), argv)

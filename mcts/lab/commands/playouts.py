"""The lab's rules tools: ``random`` (uniformly random games as JSON lines)
and ``bench-playouts`` (random playouts per second from the start)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np

from ...games import kernels
from ...games.arguments import add_game_arguments, game_from_args
from ...games.base import COLOR_NAMES


def cmd_random(args: argparse.Namespace) -> int:
    """Print N uniformly random games as JSON lines (moves, result, reason)."""
    game = game_from_args(args)
    rng = random.Random(args.seed)
    for _ in range(args.games):
        state = game.initial_state()
        moves = []
        while True:
            legal = game.legal_moves(state)
            if not legal:
                break
            move = rng.choice(legal)
            moves.append(game.format_move(state, move))
            state = game.apply(state, move)
        outcome = game.outcome(state)
        # A game has legal moves until it ends: the loop stopped at the end.
        assert outcome is not None, "a game without legal moves is over"
        print(
            json.dumps(
                {
                    "moves": moves,
                    "result": outcome.winner or "draw",
                    "reason": outcome.reason,
                    "score": outcome.score,
                }
            )
        )
    return 0


def cmd_bench_playouts(args: argparse.Namespace) -> int:
    """Print random playouts per second from the start (median of the runs last)."""
    game = game_from_args(args)
    root = game.initial_state().array.copy()
    kernels.seed(args.seed)
    start = time.perf_counter()
    kernels.playouts_for(game.game_id, root, 1)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    for run in range(args.runs):
        count, batch = 0, 256
        tally = np.zeros(3, dtype=np.int64)
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            tally += kernels.playouts_for(game.game_id, root, batch)
            count += batch
        rate = count / (time.perf_counter() - start)
        rates.append(rate)
        wins = ", ".join(
            f"{name} {n}" for name, n in zip((*COLOR_NAMES, "draw"), tally, strict=True)
        )
        print(f"run {run + 1}: {rate:,.0f} playouts/s ({wins})")
    print(f"median playouts/s: {statistics.median(rates):.0f}")
    print(round(statistics.median(rates)))
    return 0


def add_commands(subparsers) -> None:
    """Register ``random`` and ``bench-playouts`` on ``subparsers``."""
    rand = subparsers.add_parser("random", help="play uniformly random games")
    add_game_arguments(rand)
    rand.add_argument("--games", type=int, default=1)
    rand.add_argument("--seed", type=int, default=0)
    rand.set_defaults(func=cmd_random)

    bench = subparsers.add_parser(
        "bench-playouts", help="random playouts per second from the start"
    )
    add_game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=2.0, help="per run")
    bench.add_argument("--runs", type=int, default=3)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(func=cmd_bench_playouts)

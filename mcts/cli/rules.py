"""The rules tools of ``python -m mcts``: perft, show, random, replay and
bench-playouts."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import numpy as np

from ..games import Game, kernels
from ..games.base import COLOR_NAMES
from .args import add_game_arguments, game_from_args


def cmd_perft(args: argparse.Namespace) -> int:
    """Print the leaf count at the given depth; the integer alone on the last line."""
    game = game_from_args(args)
    root = game.initial_state().array.copy()
    kernels.perft(
        game.game_id, root, 1
    )  # compile (or load the cache) outside the timing
    start = time.perf_counter()
    leaves = kernels.perft(game.game_id, root, args.depth)
    elapsed = time.perf_counter() - start
    print(f"perft {game.name} depth {args.depth}: {elapsed:.3f} s", file=sys.stderr)
    print(leaves)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print the board, the side to move and the legal moves after MOVES."""
    game = game_from_args(args)
    state = game.play_all(args.moves)
    print(game.render(state))
    if not game.is_terminal(state):
        print("legal:", " ".join(game.legal_move_texts(state)))
    print("state:", game.state_string(state))
    return 0


def result_name(game: Game, state) -> str | None:
    """Return "black", "white", "draw", or None while the game goes on."""
    outcome = game.outcome(state)
    if outcome is None:
        return None
    return outcome.winner or "draw"


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


def replay_line(game: Game, line: str) -> dict:
    """Return the replay verdict of one JSON line ``{"moves": [...]}``."""
    try:
        record = json.loads(line)
        moves = record["moves"]
        if not isinstance(moves, list):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        message = 'expected a JSON object {"moves": [move, ...]}'
        return {"legal": [], "result": None, "error": {"ply": 0, "message": message}}
    state = game.initial_state()
    legal_lists = []
    for ply, text in enumerate(moves, start=1):
        legal_lists.append(game.legal_move_texts(state))
        try:
            state = game.play(state, text)
        except ValueError as error:
            return {
                "legal": legal_lists,
                "result": result_name(game, state),
                "error": {"ply": ply, "message": str(error)},
            }
    return {"legal": legal_lists, "result": result_name(game, state), "error": None}


def cmd_replay(args: argparse.Namespace) -> int:
    """Answer each JSON line on standard input with its replay verdict."""
    game = game_from_args(args)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(replay_line(game, line)), flush=True)
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
    """Register the rules tools (perft, show, random, replay, bench-playouts)."""
    perft = subparsers.add_parser("perft", help="count leaf positions at a depth")
    add_game_arguments(perft)
    perft.add_argument("depth", type=int)
    perft.set_defaults(func=cmd_perft)

    show = subparsers.add_parser("show", help="print the position after some moves")
    add_game_arguments(show)
    show.add_argument("moves", nargs="*")
    show.set_defaults(func=cmd_show)

    rand = subparsers.add_parser("random", help="play uniformly random games")
    add_game_arguments(rand)
    rand.add_argument("--games", type=int, default=1)
    rand.add_argument("--seed", type=int, default=0)
    rand.set_defaults(func=cmd_random)

    replay = subparsers.add_parser(
        "replay", help='check JSON lines {"moves": [...]} from standard input'
    )
    add_game_arguments(replay)
    replay.set_defaults(func=cmd_replay)

    bench = subparsers.add_parser(
        "bench-playouts", help="random playouts per second from the start"
    )
    add_game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=2.0, help="per run")
    bench.add_argument("--runs", type=int, default=3)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(func=cmd_bench_playouts)

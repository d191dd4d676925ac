"""The ``python -m mcts`` command line: rules tools (perft, show, random, replay,
bench-playouts) and, registered from :mod:`mcts.search_cli`, the search tools."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import numpy as np

from . import model_cli, search_cli
from .games import Game, find_game, kernels
from .games.base import COLOR_NAMES


def parse_option(text: str) -> tuple[str, object]:
    """Return ``(key, value)`` from ``KEY=VALUE``, the value as int when it is one."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.replace("-", "_"), int(value) if value.lstrip("-").isdigit() else value


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the GAME argument and the game options (--size, --row, --option)."""
    parser.add_argument("game", help="reversi (othello), gomoku or loa")
    parser.add_argument("--size", type=int, help="Gomoku board size (5..19)")
    parser.add_argument("--row", type=int, help="Gomoku winning row length")
    parser.add_argument(
        "-o",
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another game option, e.g. double_connection=mover_wins for loa",
    )


def game_from_args(args: argparse.Namespace) -> Game:
    """Return the Game that the GAME argument and the option flags name."""
    options = dict(args.option)
    if args.size is not None:
        options["size"] = args.size
    if args.row is not None:
        options["row"] = args.row
    return find_game(args.game, **options)


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


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``python -m mcts`` with every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m mcts", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    perft = commands.add_parser("perft", help="count leaf positions at a depth")
    add_game_arguments(perft)
    perft.add_argument("depth", type=int)
    perft.set_defaults(func=cmd_perft)

    show = commands.add_parser("show", help="print the position after some moves")
    add_game_arguments(show)
    show.add_argument("moves", nargs="*")
    show.set_defaults(func=cmd_show)

    rand = commands.add_parser("random", help="play uniformly random games")
    add_game_arguments(rand)
    rand.add_argument("--games", type=int, default=1)
    rand.add_argument("--seed", type=int, default=0)
    rand.set_defaults(func=cmd_random)

    replay = commands.add_parser(
        "replay", help='check JSON lines {"moves": [...]} from standard input'
    )
    add_game_arguments(replay)
    replay.set_defaults(func=cmd_replay)

    bench = commands.add_parser(
        "bench-playouts", help="random playouts per second from the start"
    )
    add_game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=2.0, help="per run")
    bench.add_argument("--runs", type=int, default=3)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(func=cmd_bench_playouts)

    search_cli.add_commands(commands)
    model_cli.add_commands(commands)
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
    try:
        return args.func(args)
    except ValueError as error:  # bad game name or options: a message, not a trace
        print(f"error: {error}", file=sys.stderr)
        return 2

"""The rules tools of ``python -m mcts``: perft, show and replay."""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..games import Game, kernels
from ..games.arguments import add_game_arguments, game_from_args, non_negative_int


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


def add_commands(subparsers) -> None:
    """Register the rules tools (perft, show, replay)."""
    perft = subparsers.add_parser("perft", help="count leaf positions at a depth")
    add_game_arguments(perft)
    perft.add_argument("depth", type=non_negative_int)
    perft.set_defaults(func=cmd_perft)

    show = subparsers.add_parser("show", help="print the position after some moves")
    add_game_arguments(show)
    show.add_argument("moves", nargs="*")
    show.set_defaults(func=cmd_show)

    replay = subparsers.add_parser(
        "replay",
        help='check JSON lines {"moves": [...]} from standard input',
        description='Read lines {"moves": [...]} and print for each {"legal": '
        '[[the legal moves before ply 1], ...], "result": "black" | "white" | '
        '"draw" | null, "error": null | {"ply": i, "message": ...}}.',
    )
    add_game_arguments(replay)
    replay.set_defaults(func=cmd_replay)

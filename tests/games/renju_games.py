"""Random renju games played by the rules library and the reference rules
side by side, compared move by move: the legal moves (black's forbidden
points left out) and the result after every ply.

The moves are random among the legal ones within two points of a stone, so
the stones gather and black meets forbidden points often. The suite plays a
sample (tests/games/test_gomoku_rules.py); the full count is a command:

    .venv/bin/python tests/games/renju_games.py --games 2000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcts.games.gomoku import Gomoku  # noqa: E402
from tests.games import reference_renju as ref  # noqa: E402

RESULTS = {1: "x", 2: "o", 3: "draw", 0: None}


def play(seed: int, size: int = 15) -> tuple[int, int]:
    """Play the game of ``seed``; return (plies, forbidden points met), or
    raise AssertionError at the first disagreement, naming the position."""
    rng = random.Random(seed)
    game = Gomoku(size=size, rule="renju")
    state = game.initial_state()
    board = ref.Board(size, 5, "renju")
    plies = met = 0
    while True:
        legal = game.legal_moves(state)
        expected = [r * size + c for (c, r) in board.legal()]
        where = f"game {seed}, ply {plies}: {game.state_string(state)}"
        assert legal == expected, f"{where}: legal moves differ at " + ", ".join(
            game.format_move(state, m) for m in sorted(set(legal) ^ set(expected))
        )
        assert RESULTS[game.status(state)] == board.result(), f"{where}: result"
        if not legal:
            return plies, met
        if game.to_move(state) == "black":
            met += len(board.empties()) - len(legal)
        stones = list(board.stones)
        near = [
            m
            for m in legal
            if any(
                abs(m % size - c) <= 2 and abs(m // size - r) <= 2 for c, r in stones
            )
        ]
        move = rng.choice(near or legal)
        state = game.apply(state, move)
        board.play((move % size, move // size))
        plies += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    started = time.monotonic()
    plies = met = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        length, forbidden = play(seed)
        plies += length
        met += forbidden
        done = seed - args.first_seed + 1
        if done % 100 == 0:
            print(f"{done} games agree so far", flush=True)
    print(
        f"{args.games} random renju games, {plies} plies, {met} forbidden points "
        f"met by black: the library and the reference agree on every move "
        f"({time.monotonic() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()

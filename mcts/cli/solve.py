"""The ``solve`` subcommand of ``python -m mcts``: the exact value of a Reversi
endgame (:mod:`mcts.search.reversi.endgame`).

It prints the nodes searched, the time, the nodes per second and the best
move, and last, alone on the last line, the exact final disc margin for the
side to move, signed (``+4``, ``-2``, ``0``), so that scripts can read it.
"""

from __future__ import annotations

import argparse
import time

from ..games import Reversi, State
from ..search.reversi.endgame import NO_MOVE, solve

#: The most empty squares solved: each one more takes about three times as
#: long (docs/performance.md: about 2 s at 20, 10 s at 22 or 23), so that 30
#: takes hours and 40 would never end.
MAX_EMPTIES = 30

#: A position with one empty square: solving it loads the compiled code.
_ONE_EMPTY = Reversi().parse_state("x" * 62 + "o. b")


def add_commands(subparsers) -> None:
    """Register the ``solve`` subcommand on ``subparsers``."""
    parser = subparsers.add_parser(
        "solve", help="solve a Reversi endgame exactly: best move and final margin"
    )
    parser.add_argument("game", help="reversi (othello): the only game it solves")
    parser.add_argument(
        "state",
        nargs="?",
        help="the state string that `show` prints, quoted: '<64 squares> <b|w>' "
        "(put the options after it)",
    )
    parser.add_argument(
        "--moves",
        dest="from_start",  # not `moves`: main() gives left-over words to that
        nargs="+",
        metavar="MOVE",
        help="moves from the start instead of a state string",
    )
    parser.add_argument(
        "--wof",
        action="store_true",
        help="score as published endgame suites do (empties left at the end go "
        "to the winner); by default the project's plain disc count",
    )
    parser.set_defaults(func=cmd_solve)


def _position(game: Reversi, args: argparse.Namespace) -> State:
    if args.state is None and args.from_start is None:
        raise ValueError("give a state string or --moves")
    if args.state is not None and args.from_start is not None:
        raise ValueError("give either a state string or --moves, not both")
    if args.from_start is not None:
        return game.play_all(args.from_start)
    return game.parse_state(args.state)


def cmd_solve(args: argparse.Namespace) -> int:
    """Print the board, the search's figures and the margin (last line)."""
    game = Reversi()
    if args.game.lower() not in ("reversi", "othello"):
        raise ValueError(f"only reversi endgames can be solved, not {args.game!r}")
    state = _position(game, args)
    empties = 64 - sum(game.score(state).values())
    if empties > MAX_EMPTIES:
        raise ValueError(
            f"{empties} empties: solve takes at most {MAX_EMPTIES} (each one more "
            "takes about three times as long); `think` searches any position"
        )
    print(game.render(state))
    start = time.perf_counter()
    solve(_ONE_EMPTY)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    result = solve(state, wof=args.wof)
    seconds = time.perf_counter() - start
    move = (
        "none (game over)"
        if result.move == NO_MOVE
        else game.format_move(state, result.move)
    )
    scoring = "empties to the winner" if args.wof else "plain disc count"
    print(f"empties: {empties}, scoring: {scoring}")
    print(
        f"nodes: {result.nodes} in {seconds:.3f} s "
        f"({result.nodes / max(seconds, 1e-9):,.0f} nodes/s)"
    )
    print(f"best: {move}; the margin below is the side to move's, in discs")
    print(f"{result.margin:+d}" if result.margin else "0")
    return 0

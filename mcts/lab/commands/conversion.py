"""The Gomoku benchmarks judged by a reference engine: ``python -m mcts
conversion`` (:mod:`mcts.lab.conversion`: in positions the engine proves
won, does our move keep the win), ``python -m mcts.lab threats`` (how many of
them the threat search alone wins, and how fast; with ``--alphabeta``, how
many the alpha-beta proves) and ``python -m mcts
lost-moves`` (:mod:`mcts.lab.lost_moves`: in games against the engine,
which of our moves lost, and would the engine's own choice have held)."""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from ...atomic import write_text_atomically
from ...games import find_game
from ...play.players import parse_spec
from ...search.gomoku.alphabeta import WIN_BOUND, forget, new_search, think
from ...search.gomoku.threats.root import DEEP_VCT_NODES_PER_SECOND
from ...search.gomoku.threats.vct import deep_vct
from .. import lost_moves
from ..conversion import (
    Judge,
    find_positions,
    load_positions,
    position_after,
    run,
)
from .strength import DEFAULT_PLAYER

#: The positions the project ships (217, from Rapfi's games; docs/).
SHIPPED_POSITIONS = Path("docs/conversion-positions.jsonl")


def add_commands(subparsers) -> None:
    """Register the ``conversion``, ``threats`` and ``lost-moves``
    subcommands on ``subparsers``."""
    command = subparsers.add_parser(
        "conversion",
        help="Gomoku: in positions a reference engine proves won, how often our "
        "player's move keeps the win (the engine judges it)",
    )
    command.add_argument(
        "--engine",
        required=True,
        help="the reference engine, e.g. 'engine:piskvork:cmd=DIR/pbrain-rapfi' "
        "(it must print Rapfi's 'Eval +M<n>' proofs; not part of this project)",
    )
    command.add_argument(
        "--positions",
        type=Path,
        default=Path("conversion-positions.jsonl"),
        help="the test positions, one JSON list of move codes a line; made by "
        "the engine playing itself when the file does not exist",
    )
    command.add_argument(
        "--games", type=int, default=40, help="engine games that make the positions"
    )
    command.add_argument("--seed", type=int, default=1, help="of those games' openings")
    command.add_argument("--size", type=int, default=15, help="Gomoku board size")
    command.add_argument("--player", default=DEFAULT_PLAYER, help="our player spec")
    command.add_argument("--seconds", type=float, default=1.0, help="our time a move")
    command.add_argument(
        "--play-out-all",
        action="store_true",
        help="play out every move the engine cannot judge, not only those our "
        "search found won (slower; the rate is then no lower bound)",
    )
    command.set_defaults(func=cmd_conversion)

    command = subparsers.add_parser(
        "threats",
        help="Gomoku: how many positions of a conversion positions file the "
        "threat search alone (VCF, then VCTs deepening) wins, and its speed",
    )
    command.add_argument(
        "--positions",
        type=Path,
        default=SHIPPED_POSITIONS,
        help="one JSON list of move codes a line (as `conversion` makes them)",
    )
    command.add_argument(
        "--nodes",
        type=int,
        default=DEEP_VCT_NODES_PER_SECOND,
        help="VCF nodes for each position (default: what a 1 s move buys)",
    )
    command.add_argument(
        "--alphabeta",
        type=float,
        metavar="SECONDS",
        help="instead, how many the alpha-beta search proves won in SECONDS "
        "each, from an empty table (how far it reads)",
    )
    command.add_argument("--size", type=int, default=15, help="Gomoku board size")
    command.set_defaults(func=cmd_threats)

    command = subparsers.add_parser(
        "lost-moves",
        help="Gomoku: play a reference engine, then find in each game the first "
        "of our moves after which the engine proves its win, and whether its "
        "own choice there is proven lost too",
    )
    command.add_argument(
        "--engine",
        required=True,
        help="the opponent and judge, e.g. "
        "'engine:piskvork:cmd=DIR/pbrain-rapfi,ms=200' (its time a move); it "
        "must print Rapfi's 'Eval +M<n>' proofs; not part of this project",
    )
    command.add_argument("--games", type=int, default=10, help="colours alternate")
    command.add_argument("--seed", type=int, default=1, help="of the openings")
    command.add_argument("--size", type=int, default=15, help="Gomoku board size")
    command.add_argument("--player", default=DEFAULT_PLAYER, help="our player spec")
    command.add_argument("--seconds", type=float, default=1.0, help="our time a move")
    command.set_defaults(func=cmd_lost_moves)


def _check_engine(text: str) -> None:
    """Raise ValueError unless ``text`` is an ``engine:piskvork`` spec."""
    spec = parse_spec(text)
    if spec.kind != "engine" or spec.options.get("protocol") != "piskvork":
        raise ValueError(f"--engine must be an engine:piskvork spec, got {text!r}")


def cmd_conversion(args: argparse.Namespace) -> int:
    """Make the positions if need be, test our player in each (one line a
    position) and print the rate of kept wins with its 95% interval."""
    _check_engine(args.engine)
    game = find_game("gomoku", size=args.size, row=5)
    judge = Judge(args.engine)
    if not args.positions.exists():
        found = list(find_positions(game, judge, args.games, args.seed))
        write_text_atomically(
            args.positions, "".join(json.dumps(moves) + "\n" for moves in found)
        )
        print(
            f"{len(found)} positions from {args.games} engine games -> {args.positions}"
        )
    positions = load_positions(args.positions)
    if not positions:
        raise ValueError(f"{args.positions} holds no positions")
    print(
        f"our player: {args.player}, {args.seconds} s a move, "
        f"{len(positions)} positions"
    )

    def show(index: int, verdict) -> None:
        if verdict.played_out:
            after = f"None; played out: {'won' if verdict.kept else 'not won'}"
        elif verdict.proof_after is None and verdict.kept:
            after = "five"
        else:
            after = verdict.proof_after
        print(
            f"{index:4} {verdict.move:4} {'kept' if verdict.kept else 'lost':4} "
            f"(engine after it: {after}) {verdict.seconds:.2f} s",
            flush=True,
        )

    verdicts = run(
        game,
        args.player,
        args.seconds,
        judge,
        positions,
        show,
        play_out_all=args.play_out_all,
    )
    kept = sum(verdict.kept for verdict in verdicts)
    rate = kept / len(verdicts)
    interval = 1.96 * math.sqrt(rate * (1 - rate) / len(verdicts))
    seconds = sum(verdict.seconds for verdict in verdicts) / len(verdicts)
    print(
        f"kept {kept}/{len(verdicts)} = {100 * rate:.1f}% ± {100 * interval:.1f}, "
        f"{seconds:.2f} s a move"
    )
    return 0


def cmd_threats(args: argparse.Namespace) -> int:
    """Run the root's deepening VCT (:func:`deep_vct`) in every position;
    print how many it wins, the time each took (median, 90th percentile,
    most) and the VCF nodes searched a second."""
    game = find_game("gomoku", size=args.size, row=5)
    positions = load_positions(args.positions)
    if not positions:
        raise ValueError(f"{args.positions} holds no positions")
    if args.alphabeta is not None:
        return _alphabeta_proofs(game, positions, args.alphabeta)
    deep_vct(game.initial_state().array, 1, 1)  # compile outside the timing
    found, seconds, nodes = 0, [], 0
    for moves in positions:
        state = position_after(game, moves)
        start = time.perf_counter()
        move, left = deep_vct(state.array, 1, args.nodes)
        seconds.append(time.perf_counter() - start)
        found += move >= 0
        nodes += args.nodes - left
    median, tenth, most = np.percentile(seconds, [50, 90, 100])
    print(
        f"won {found}/{len(positions)} with {args.nodes:,} VCF nodes each; "
        f"seconds median {median:.3f}, 90th percentile {tenth:.3f}, most {most:.3f}; "
        f"{nodes / sum(seconds):,.0f} nodes/s"
    )
    return 0


def _alphabeta_proofs(game, positions: list[list[int]], seconds: float) -> int:
    """Search every position with the alpha-beta (:func:`think`, the hand
    weights, a table emptied each time) for ``seconds``; print how many it
    proves won and the median depth it completed and nodes it searched."""
    search = new_search(game.options["size"], game.options["row"])
    think(search, game.initial_state().array, 0.01)  # compile outside the timing
    proved, depths, nodes = 0, [], []
    for moves in positions:
        forget(search)
        _, value, depth, searched = think(
            search, position_after(game, moves).array, seconds
        )
        proved += value >= WIN_BOUND
        depths.append(depth)
        nodes.append(searched)
    print(
        f"the alpha-beta proved {proved}/{len(positions)} won in {seconds} s each; "
        f"median depth {np.median(depths):.0f}, median nodes {np.median(nodes):,.0f}"
    )
    return 0


def cmd_lost_moves(args: argparse.Namespace) -> int:
    """Play the games, print where each was lost (one line a game), then
    for each colour how many games were lost, after which of our moves the
    engine proved its win, and how often its own choice there was proven
    lost too (or the position before it already)."""
    _check_engine(args.engine)
    game = find_game("gomoku", size=args.size, row=5)
    judge = Judge(args.engine)
    print(f"our player: {args.player}, {args.seconds} s a move; {args.engine}")

    def show(number: int, lost: lost_moves.LostMove) -> None:
        result = (
            "drawn"
            if lost.winner is None
            else ("won" if lost.winner == lost.colour else "lost")
        )
        line = (
            f"game {number + 1:3}: ours {lost.colour}, {result} in {lost.plies} plies"
        )
        if lost.ply is not None:
            line += (
                f"; engine proves +M{lost.after} after our ply {lost.ply} "
                f"{lost.move}; its own {lost.engine_move} there: "
                f"{_proof(lost.engine_after)}; before: {_proof(lost.before)}"
            )
        print(line, flush=True)

    found = lost_moves.run(
        game, args.player, args.engine, judge, args.games, args.seconds, args.seed, show
    )
    for colour in ("black", "white"):
        games = [lost for lost in found if lost.colour == colour]
        if not games:
            continue
        proven = [lost for lost in games if lost.ply is not None]
        plies = sorted(lost.ply for lost in proven if lost.ply is not None)
        also = sum(
            lost.engine_after is not None and lost.engine_after > 0 for lost in proven
        )
        before = sum(lost.before is not None and lost.before < 0 for lost in proven)
        won = sum(lost.winner == colour for lost in games)
        where = (
            f" at ply {plies[len(plies) // 2]} (median; {plies[0]}-{plies[-1]})"
            if plies
            else ""
        )
        print(
            f"as {colour}: won {won} of {len(games)}; the engine proved its win "
            f"after our move in {len(proven)}{where}; its own choice there was "
            f"proven lost too in {also}, the position before already in {before}"
        )
    return 0


def _proof(plies: int | None) -> str:
    """Return an engine proof as Rapfi prints it (``+M17``, ``-M8``) or ``none``."""
    if plies is None:
        return "none"
    return f"{'+' if plies > 0 else '-'}M{abs(plies)}"

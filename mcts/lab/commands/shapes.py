"""The ``fit-shapes`` subcommand of ``python -m mcts``: fit the Gomoku
alpha-beta's shape weights to its own games (:mod:`mcts.training.gomoku_shapes`)
and write their file, or put them into a Gomoku tree model (``--model``),
whose manifest then lists them with their sha256 and this command."""

from __future__ import annotations

import argparse
from pathlib import Path

from tqdm import tqdm

from ...models.weights import SHAPES, attach_weights
from ...search.gomoku.weights import HAND_WEIGHTS, ShapeWeights, from_array
from ...search.gomoku.weights import from_bytes as weights_from_bytes
from ...training.gomoku_shapes import fit_shapes


def add_commands(subparsers) -> None:
    """Register the ``fit-shapes`` subcommand on ``subparsers``."""
    parser = subparsers.add_parser(
        "fit-shapes",
        help="fit the Gomoku alpha-beta's shape weights to its self-play results",
    )
    parser.add_argument("game", help="gomoku: the only game with shape weights")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="write the weights file here")
    target.add_argument(
        "--model",
        type=Path,
        help="put the weights into this Gomoku tree model folder (its manifest "
        "lists them)",
    )
    parser.add_argument(
        "--games", type=int, default=600, help="self-play games to fit to"
    )
    parser.add_argument(
        "--seconds", type=float, default=0.02, help="think time a self-play move"
    )
    parser.add_argument(
        "--start",
        type=Path,
        help="a shape weights file (shapes.npz) to play with and fit from, "
        "instead of the hand-set weights",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes that play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--games-file",
        type=Path,
        default=Path("fit-shapes-games.npz"),
        help="save the games' positions here as they finish, and keep them: a "
        "run with the same settings plays only the games missing, so a fit "
        "can be run again without playing",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=cmd_fit_shapes)


def cmd_fit_shapes(args: argparse.Namespace) -> int:
    """Play, fit, write the weights; print the fit and the weights."""
    if args.game.lower() != "gomoku":
        raise ValueError("only gomoku has shape weights")
    if args.games < 10:
        raise ValueError("give at least 10 games")
    if not 0 < args.seconds <= 10:
        raise ValueError("--seconds must be above 0 and at most 10")
    start = HAND_WEIGHTS
    if args.start is not None:
        start = weights_from_bytes(args.start.read_bytes())
    weights = fit_shapes(
        args.games,
        args.seconds,
        start,
        seed=args.seed,
        workers=max(1, args.workers),
        games_file=args.games_file,
        bar=None if args.quiet else tqdm,
        log=(lambda _line: None) if args.quiet else print,
    )
    record = {
        **weights.fitted,
        "started_from": "hand" if args.start is None else str(args.start),
        "command": args.command_line,
    }
    weights = from_array(weights.array(), record)
    if args.model is not None:
        path = attach_weights(args.model, SHAPES, weights)
    else:
        path = args.out
        path.write_bytes(weights.to_bytes())
    _print_fit(weights)
    print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


def _print_fit(weights: ShapeWeights) -> None:
    """Print the fit's losses and the weights beside the ones it started from."""
    fitted = weights.fitted
    print(
        f"{fitted['games']} games, {fitted['positions']} quiet positions, "
        f"scale {fitted['scale']:g}, {fitted['seconds']} s"
    )
    print(
        f"loss {fitted['loss_before']} -> {fitted['loss']}, held out "
        f"{fitted['held_out_loss_before']} -> {fitted['held_out_loss']}"
    )
    names = (
        *("none", "two", "three", "open three", "four", "open four", "five"),
        *("four fork", "three fork", "block", "spread"),
    )
    for name, before, after in zip(
        names, fitted["start"], weights.array(), strict=True
    ):
        print(f"{name:>10}  {before:>10g}  {after:>10g}")

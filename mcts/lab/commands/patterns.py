"""The ``train-patterns`` subcommand of ``python -m mcts``: learn the Reversi
pattern evaluation (:mod:`mcts.training.reversi_patterns`) and write its
weights file, or put it into a tree model (``--model``), whose manifest then
lists it with its sha256 and this command."""

from __future__ import annotations

import argparse
from pathlib import Path

from tqdm import tqdm

from ...models.weights import PATTERNS, attach_weights
from ...search.reversi.patterns import PatternWeights, from_bytes
from ...training.reversi_patterns import POLICY_TEMPERATURE, SOLVE_EMPTIES, train


def add_commands(subparsers) -> None:
    """Register the ``train-patterns`` subcommand on ``subparsers``."""
    parser = subparsers.add_parser(
        "train-patterns",
        help="learn the Reversi pattern evaluation from self-play positions",
    )
    parser.add_argument("game", help="reversi (othello): the only game with patterns")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", type=Path, help="write the weights file here")
    target.add_argument(
        "--model",
        type=Path,
        help="put the weights into this tree model folder (listed in its manifest)",
    )
    parser.add_argument(
        "--positions", type=int, default=1_000_000, help="positions to learn from"
    )
    parser.add_argument(
        "--solve-empties",
        type=int,
        default=SOLVE_EMPTIES,
        help="label positions with at most this many empties exactly",
    )
    parser.add_argument(
        "--play-with",
        type=Path,
        help="a pattern weights file (patterns.npz) whose evaluation plays the "
        "self-play games, instead of the rollout policy",
    )
    parser.add_argument(
        "--temperature",
        type=float,
        default=POLICY_TEMPERATURE,
        help="with --play-with: how far its moves stray from the best, in discs",
    )
    parser.add_argument(
        "--policy-share",
        type=float,
        default=1.0,
        help="the share of the games the evaluation plays (the rest by rollouts)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="train this many times, each round's games played by the weights "
        "of the round before (the first by --play-with, else the rollout policy)",
    )
    parser.add_argument("--workers", type=int, default=1, help="threads that solve")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=Path("train-patterns.checkpoint.npz"),
        help="save progress here after the labels and after each stage; a run "
        "with the same settings resumes from it (removed when done)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.set_defaults(func=cmd_train_patterns)


def cmd_train_patterns(args: argparse.Namespace) -> int:
    """Train, write the weights, print the fit of each stage."""
    if args.game.lower() not in ("reversi", "othello"):
        raise ValueError("only reversi has a pattern evaluation")
    if args.positions < 1000:
        raise ValueError("give at least 1000 positions")
    if not 0 <= args.solve_empties <= 16:
        raise ValueError("--solve-empties must be 0..16")
    if not 0 <= args.policy_share <= 1:
        raise ValueError("--policy-share must be 0..1")
    if args.rounds < 1:
        raise ValueError("--rounds must be at least 1")
    policy = None
    if args.play_with is not None:
        policy = from_bytes(args.play_with.read_bytes())
    played_by = []
    for round_ in range(args.rounds):
        if args.rounds > 1:
            print(f"round {round_ + 1} of {args.rounds}", flush=True)
        weights = train(
            positions=args.positions,
            seed=args.seed,
            solve_empties=args.solve_empties,
            workers=max(1, args.workers),
            bar=None if args.quiet else tqdm,
            checkpoint=_round_file(args.checkpoint, round_),
            policy=policy,
            temperature=args.temperature,
            policy_share=args.policy_share,
        )
        played_by.append(weights.fitted["played_by"])
        # The next round plays with the weights as a model stores them.
        policy = from_bytes(weights.to_bytes())
    command = args.command_line
    if args.model is not None:
        fitted = {**weights.fitted, "rounds": played_by, "command": command}
        weights = PatternWeights(weights.weights, weights.scale, fitted)
        path = attach_weights(args.model, PATTERNS, weights)
    else:
        path = args.out
        path.write_bytes(weights.to_bytes())
    print("stage  empties  positions  exact  train RMSE  held-out RMSE  label sd")
    for row in weights.fitted["stages"]:
        low, high = row["empties"]
        print(
            f"{row['stage']:>5}  {low:>2}-{high:<4} {row['positions']:>10} "
            f"{row['exact']:>6} {row['train_rmse']:>11} {row['holdout_rmse']:>14} "
            f"{row['label_sd']:>9}"
        )
    print(
        f"{weights.fitted['games']} games, {args.positions} positions, "
        f"{weights.fitted['seconds']} s; wrote {path} ({path.stat().st_size} bytes)"
    )
    return 0


def _round_file(checkpoint: Path, round_: int) -> Path:
    """Return the checkpoint file of a round (the given one for the first)."""
    if round_ == 0:
        return checkpoint
    return checkpoint.with_name(
        f"{checkpoint.stem}.round{round_ + 1}{checkpoint.suffix}"
    )

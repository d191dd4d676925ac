"""A self-play run as both command lines start it (``python -m mcts selfplay``
and ``python manage.py selfplay``): its arguments and the run they describe."""

from __future__ import annotations

import argparse
import shutil

from ..games.arguments import non_negative_int, positive_int, positive_number
from . import model as treemodel
from . import store
from .selfplay import SelfPlayConfig, build

MODEL_DIR = store.MODEL_DIR
model_path = store.model_path


def add_selfplay_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the self-play options (shared with ``manage.py selfplay``)."""
    parser.add_argument("--games", type=positive_int, required=True, help="total games")
    parser.add_argument("--model", required=True, help="name (model/GAME/NAME) or path")
    parser.add_argument("--model-dir", default=str(MODEL_DIR))
    parser.add_argument("--workers", type=positive_int, default=1)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--seconds", type=positive_number, help="search seconds per move"
    )
    budget.add_argument(
        "--sims", type=positive_int, help="simulations per move (default 200)"
    )
    parser.add_argument(
        "--min-visits", type=positive_int, default=1, help="pruning on save"
    )
    parser.add_argument("--checkpoint-every", type=positive_int, default=10)
    parser.add_argument("--noise-plies", type=non_negative_int, default=12)
    parser.add_argument(
        "--temperature",
        type=positive_number,
        default=1.0,
        help="of the noise plies' sampling (lower: nearer the most visited move)",
    )
    parser.add_argument(
        "--study-plies",
        type=int,
        help="give the budget to the first N plies only (later: 100 simulations)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--patterns",
        metavar="MODEL",
        help="Reversi: carry this model's pattern evaluation and search with it "
        "(default: the one the model being resumed carries)",
    )
    parser.add_argument(
        "--fresh", action="store_true", help="discard an existing model"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_selfplay(
    game, args: argparse.Namespace, command: str | None = None
) -> treemodel.Model:
    """Build the model the parsed self-play ``args`` describe; return it."""
    path = model_path(game.name, args.model, args.model_dir)
    if args.fresh and path.exists():
        shutil.rmtree(path)
    config = SelfPlayConfig(
        simulations=None if args.seconds is not None else (args.sims or 200),
        seconds=args.seconds,
        noise_plies=args.noise_plies,
        temperature=args.temperature,
        seed=args.seed,
        min_visits=args.min_visits,
        checkpoint_every=max(1, args.checkpoint_every),
        workers=max(1, args.workers),
        study_plies=args.study_plies,
    )
    patterns = None
    if getattr(args, "patterns", None):
        source = store.load(
            model_path(game.name, args.patterns, args.model_dir), game=game
        )
        if source.patterns is None:
            raise treemodel.ModelError(f"{args.patterns}: carries no pattern weights")
        patterns = source.patterns
    return build(
        game,
        path,
        args.games,
        config,
        progress=not args.quiet,
        command=command,
        patterns=patterns,
    )

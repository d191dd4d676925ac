"""``python -m mcts.lab train-net``: train a Gomoku policy-value network by
self-play (needs the training extra: ``make train-setup``)."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ...games.arguments import add_game_arguments, game_from_args
from ...models.reader import read_manifest
from ...models.store import MODEL_DIR, model_path


def add_commands(subparsers) -> None:
    """Register the ``train-net`` subcommand on ``subparsers``."""
    parser = subparsers.add_parser(
        "train-net",
        help="train a Gomoku policy-value network by self-play (AlphaZero); "
        "needs `make train-setup`",
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--model",
        required=True,
        help="the tree model to write the network into: a name "
        "(model/gomoku/NAME) or a path",
    )
    parser.add_argument("--model-dir", default=str(MODEL_DIR))
    parser.add_argument(
        "--games", type=int, required=True, help="self-play games in all"
    )
    parser.add_argument("--sims", type=int, default=400, help="simulations a move")
    parser.add_argument("--sample-plies", type=int, default=8)
    parser.add_argument("--buffer", type=int, default=10_000, help="examples kept")
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--steps", type=int, default=5, help="gradient steps a game")
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--gate-every", type=int, default=50)
    parser.add_argument("--gate-games", type=int, default=20)
    parser.add_argument("--gate-sims", type=int, default=400)
    parser.add_argument(
        "--gate-score",
        type=float,
        help="the score a network needs against the best to replace it "
        "(0.55; 0: every gate passes, as AlphaZero kept no gate)",
    )
    parser.add_argument(
        "--eval-games",
        type=int,
        default=0,
        help="at each gate, games of the best network against plain MCTS "
        "(the strength over training time; 0: none)",
    )
    parser.add_argument(
        "--eval-playouts", type=int, default=1000, help="plain MCTS's playouts a move"
    )
    parser.add_argument(
        "--warm-start",
        metavar="TREE",
        help="a fresh run first learns from this tree model's searches (a "
        "name, e.g. full, or a path): the visits and values of each position "
        "it studied",
    )
    parser.add_argument("--warm-start-epochs", type=int, default=3)
    parser.add_argument(
        "--warm-start-min-study",
        type=int,
        default=200,
        help="positions whose moves the tree's searches visited fewer times "
        "are left out",
    )
    parser.add_argument(
        "--start-from",
        metavar="MODEL",
        help="a fresh run goes on from this model's trained network (a name, "
        "e.g. net-8x5, or a path) instead of an untrained one",
    )
    parser.add_argument(
        "--search-value",
        type=float,
        default=0.0,
        help="the weight (0..1) of the search's value of a position in its "
        "value target, the game's result weighing the rest (0: AlphaZero's "
        "result alone)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes playing self-play and gate games at once",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=cmd_train_net)

    chart = subparsers.add_parser(
        "net-chart",
        help="draw a trained network's strength over its training time (a PNG)",
    )
    chart.add_argument("model", help="the model folder that carries the network")
    chart.add_argument("--out", required=True, help="the image to write (.png)")
    chart.set_defaults(func=cmd_net_chart)

    exporter = subparsers.add_parser(
        "net-export",
        help="write the network a train-net run is training (no gate passed it "
        "yet) into a model of its own, to measure it",
    )
    add_game_arguments(exporter)
    exporter.add_argument(
        "--model", required=True, help="the model the run trains (as in train-net)"
    )
    exporter.add_argument("--out", required=True, help="the model to write")
    exporter.add_argument("--model-dir", default=str(MODEL_DIR))
    exporter.set_defaults(func=cmd_net_export)


def cmd_train_net(args: argparse.Namespace) -> int:
    """Train (or resume); print the gating history and where the model is."""
    try:
        from ...training.trainer import TrainConfig, train
    except ImportError as error:
        return _without_extra("train-net", error)
    game = game_from_args(args)
    if game.name != "gomoku":
        print("train-net trains Gomoku networks only", file=sys.stderr)
        return 2
    options = {
        "games": args.games,
        "simulations": args.sims,
        "sample_plies": args.sample_plies,
        "buffer": args.buffer,
        "batch": args.batch,
        "steps": args.steps,
        "learning_rate": args.learning_rate,
        "gate_every": args.gate_every,
        "gate_games": args.gate_games,
        "gate_simulations": args.gate_sims,
        "eval_games": args.eval_games,
        "eval_playouts": args.eval_playouts,
        "seed": args.seed,
        "workers": args.workers,
        "warm_start": None
        if args.warm_start is None
        else str(model_path(game.name, args.warm_start, args.model_dir)),
        "warm_start_epochs": args.warm_start_epochs,
        "warm_start_min_study": args.warm_start_min_study,
        "start_from": None
        if args.start_from is None
        else str(model_path(game.name, args.start_from, args.model_dir)),
        "search_value": args.search_value,
    }
    if args.gate_score is not None:
        options["gate_score"] = args.gate_score
    try:
        config = TrainConfig(**options)
    except ValueError as error:
        print(f"train-net: {error}", file=sys.stderr)
        return 2
    out = model_path(game.name, args.model, args.model_dir)
    command = args.command_line
    bars: dict = {}

    def shown_bar(name: str, total: int, unit: str):
        """Return the progress bar ``name`` (made on first use: the warm
        start's comes and goes before the games' one), or None if quiet."""
        if args.quiet:
            return None
        if name not in bars:
            from tqdm import tqdm

            bars[name] = tqdm(total=total, unit=unit, desc=name, dynamic_ncols=True)
        return bars[name]

    def on_warm_step(step: int, steps: int, loss: float) -> None:
        bar = shown_bar("warm start", steps, "step")
        if bar is not None:
            bar.update(1)
            bar.set_postfix(loss=f"{loss:.3f}")
            if step == steps:
                bar.close()

    def on_game(progress, loss: float) -> None:
        bar = shown_bar("train-net", args.games, "game")
        if bar is not None:
            bar.n = progress.games
            bar.set_postfix(loss=f"{loss:.3f}", examples=progress.examples)

    try:
        with terminate_as_interrupt():
            progress = train(
                game,
                out,
                config,
                command=command,
                on_game=on_game,
                on_warm_step=on_warm_step,
            )
    except KeyboardInterrupt:
        print(
            f"{out}: stopped; the checkpoint is saved: run the same command to resume",
            file=sys.stderr,
        )
        return 130
    finally:
        for bar in bars.values():
            bar.close()
    for gate in progress.gates:
        verdict = "accepted" if gate["accepted"] else "kept the best"
        score = f"{gate['score']:.0%} against the best"
        pure = gate.get("pure_mcts")
        versus = "" if pure is None else f"; the best {pure:.0%} against plain MCTS"
        print(f"after {gate['games']} games: {score}, {verdict}{versus}")
    print(f"{out}: {progress.games} games in {progress.seconds:.0f} s")
    return 0


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``, a service manager stopping the
    job) raises KeyboardInterrupt as Ctrl-C does, so that training saves its
    checkpoint before it exits: a job a shell started in the background
    ignores Ctrl-C's SIGINT, so it is stopped this way."""

    def interrupt(signum, frame) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def cmd_net_chart(args: argparse.Namespace) -> int:
    """Draw the chart of the model's gates; print the image's path."""
    try:
        from ...training.chart import draw
    except ImportError as error:
        return _without_extra("net-chart", error)
    manifest = read_manifest(Path(args.model))
    trained = (manifest.get("network") or {}).get("built") or {}
    config = trained.get("config", {})
    title = (
        f"{args.model}: {config.get('simulations')} simulations a move against "
        f"MCTS of {config.get('eval_playouts')} playouts"
    )
    workers = config.get("workers", 1)
    clock = f"hours of training, {workers} worker{'s' if workers != 1 else ''}"
    try:
        count = draw(trained.get("gates", []), Path(args.out), title=title, clock=clock)
    except ValueError as error:
        print(f"{args.model}: {error}", file=sys.stderr)
        return 1
    print(f"{args.out}: {count} points")
    return 0


def cmd_net_export(args: argparse.Namespace) -> int:
    """Export the run's training network; print where it is."""
    try:
        from ...training.trainer import export_training
    except ImportError as error:
        return _without_extra("net-export", error)
    game = game_from_args(args)
    out = model_path(game.name, args.model, args.model_dir)
    to = model_path(game.name, args.out, args.model_dir)
    try:
        games = export_training(game, out, to)
    except ValueError as error:
        print(f"net-export: {error}", file=sys.stderr)
        return 2
    print(f"{to}: the training network of {args.model} after {games} games")
    return 0


def _without_extra(command: str, error: ImportError) -> int:
    """Say that ``command`` needs the training extra; return the exit code."""
    print(
        f"{command} needs the training extra ({error.name} is missing): "
        "run `make train-setup`",
        file=sys.stderr,
    )
    return 2

"""Command line of tree models: ``selfplay`` and
``model info|merge|prune|pack|unpack``.

python -m mcts selfplay reversi --games 200 --model full --seconds 0.1
python -m mcts model info model/reversi/light
python -m mcts model merge A B --out C
python -m mcts model prune model/reversi/full --out model/reversi/light --max-mb 5
python -m mcts model pack model/reversi/full
python -m mcts model unpack model/reversi/full.tar.xz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..games.arguments import add_game_arguments, game_from_args
from ..models import model as treemodel
from ..models import packed, store
from ..models.selfplay_run import add_selfplay_arguments, run_selfplay

MODEL_DIR = store.MODEL_DIR
model_path = store.model_path


def add_commands(subparsers) -> None:
    """Register the ``selfplay`` and ``model`` subcommands on ``subparsers``."""

    selfplay = subparsers.add_parser("selfplay", help="grow a tree model by self-play")
    add_game_arguments(selfplay)
    add_selfplay_arguments(selfplay)
    selfplay.set_defaults(func=cmd_selfplay)

    model = subparsers.add_parser("model", help="inspect, merge, prune or pack models")
    commands = model.add_subparsers(dest="model_command", required=True)
    info = commands.add_parser("info", help="node count, depth, size, top lines")
    info.add_argument("path")
    info.add_argument("--json", action="store_true", help="print JSON")
    info.add_argument("--fast", action="store_true", help="skip replaying states")
    info.set_defaults(func=cmd_info)
    merge = commands.add_parser("merge", help="add the statistics of two models")
    merge.add_argument("a")
    merge.add_argument("b")
    merge.add_argument("--out", required=True)
    merge.add_argument("--min-visits", type=int, default=1)
    merge.set_defaults(func=cmd_merge)
    prune = commands.add_parser(
        "prune", help="save a smaller copy: nodes under a visit count, or a size"
    )
    prune.add_argument("path")
    prune.add_argument("--out", required=True)
    limit = prune.add_mutually_exclusive_group(required=True)
    limit.add_argument(
        "--min-visits", type=int, help="keep children of nodes this busy"
    )
    limit.add_argument("--max-mb", type=float, help="the largest size on disk, in MB")
    prune.set_defaults(func=cmd_prune)
    pack = commands.add_parser(
        "pack", help="write a model folder into one NAME.tar.xz beside it"
    )
    pack.add_argument("path")
    pack.add_argument("--out", help="the archive (default: PATH.tar.xz)")
    pack.set_defaults(func=cmd_pack)
    unpack = commands.add_parser(
        "unpack", help="unpack NAME.tar.xz into the folder NAME beside it"
    )
    unpack.add_argument("archive")
    unpack.set_defaults(func=cmd_unpack)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Grow the model; print where it is and its size."""

    game = game_from_args(args)
    try:
        model = run_selfplay(game, args, args.command_line)
    except KeyboardInterrupt:
        # CLI QA: "checkpoint saved" while a round of 100 games was lost.
        lost = " (the round of workers under way is lost)" if args.workers > 1 else ""
        print(
            f"interrupted: the games finished are saved{lost}; the same "
            "command resumes",
            file=sys.stderr,
        )
        return 130
    path = model_path(game.name, args.model, args.model_dir)
    print(json.dumps(treemodel.info(store.load(path, check="fast")), indent=1))
    del model
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """Print the model summary."""
    archive = Path(str(args.path).rstrip("/") + ".tar.xz")
    if not Path(args.path).exists() and archive.is_file():
        raise ValueError(
            f"{args.path} is packed: python -m mcts model unpack {archive}"
        )
    model = store.load(args.path, check="fast" if args.fast else "full")
    summary = treemodel.info(model)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{summary['game']} {summary['options'] or ''}".rstrip())
    print(
        f"nodes {summary['nodes']}, depth {summary['depth']}, "
        f"root visits {summary['root_visits']}, {summary['bytes']} bytes "
        f"({summary['bytes'] / summary['nodes']:.1f} a node, format version "
        f"{model.manifest['version']})"
    )
    print(f"built {json.dumps(summary['built'])}")
    fitted = summary["evaluation"]
    if fitted is None:
        print("evaluation: none")
    else:
        print(
            f"evaluation: fitted to {fitted.get('positions')} positions "
            f"(min visits {fitted.get('min_visits')}), explains "
            f"{fitted.get('explained')} of the held-out value variance"
        )
    for line in summary["top_lines"]:
        print(f"  {line['visits']:>8} {line['value']}  {line['line']}")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    """Merge two models into ``--out``."""
    merged = treemodel.merge(store.load(args.a), store.load(args.b))
    manifest = store.save(merged, args.out, min_visits=args.min_visits)
    print(
        f"{args.out}: {manifest['nodes']} nodes, root visits {manifest['root_visits']}"
    )
    return 0


def cmd_prune(args: argparse.Namespace) -> int:
    """Save a pruned copy of a model at ``--out``: by ``--min-visits``, or the
    lightest pruning that fits in ``--max-mb`` megabytes."""
    model = store.load(args.path)
    min_visits = args.min_visits
    # The pattern weights file (Reversi) and the manifest count toward
    # --max-mb but do not shrink with the tree (the source's manifest is the
    # guess; the saved one is measured).
    patterns = model.manifest.get("patterns", {}).get("bytes", 0)
    fixed = patterns + len(json.dumps(model.manifest, indent=1))
    if args.max_mb is not None:
        limit = args.max_mb * 1_000_000 - fixed
        files = model.manifest["files"].values()
        bytes_per_node = sum(entry["bytes"] for entry in files) / model.nodes
        smallest = 1 + int(model.tree.n_children[0])  # the root and its moves
        if smallest * bytes_per_node > limit:
            raise treemodel.ModelError(_too_small(args.max_mb, smallest, patterns))
        min_visits = treemodel.min_visits_for(model.tree, int(limit / bytes_per_node))
    built = dict(model.manifest.get("built") or {})
    # A model pruned before keeps its build's node count; the result is that
    # build pruned at the higher of the two thresholds.
    earlier = built.get("pruned") or {}

    def record(min_visits: int) -> None:
        built["pruned"] = {
            "from_nodes": earlier.get("from_nodes", model.nodes),
            "min_visits": max(min_visits, earlier.get("min_visits", 0)),
        }

    record(min_visits)
    # The first guess takes the source's bytes a node, which another format
    # version (a version 1 source) makes far too many: guess again once.
    guessed_again = args.max_mb is None
    while True:
        manifest = store.save(model, args.out, min_visits=min_visits, built=built)
        tree_bytes = sum(entry["bytes"] for entry in manifest["files"].values())
        size = patterns + (Path(args.out) / store.MANIFEST).stat().st_size
        size += tree_bytes
        if not guessed_again:
            guessed_again = True
            per_node = tree_bytes / manifest["nodes"]
            better = treemodel.min_visits_for(model.tree, int(limit / per_node))
            if better < min_visits:
                min_visits = better
                record(min_visits)
                continue
        if args.max_mb is None or size <= args.max_mb * 1_000_000:
            break
        if min_visits > int(model.tree.visits[0]):  # already the smallest
            raise treemodel.ModelError(
                _too_small(args.max_mb, manifest["nodes"], patterns)
            )
        min_visits = int(min_visits * 1.1) + 1
        record(min_visits)
    print(
        f"{args.out}: {manifest['nodes']} nodes (min visits {min_visits}), "
        f"{size / 1e6:.2f} MB"
    )
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    """Pack a model folder; print the archive's path, its size and its ratio
    to the folder's size."""
    folder = Path(args.path)
    archive = packed.pack(folder, Path(args.out) if args.out else None)
    size = archive.stat().st_size
    unpacked = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    print(
        f"{archive}: {size / 1e6:.2f} MB, {size / unpacked:.0%} of the folder's "
        f"{unpacked / 1e6:.2f} MB"
    )
    return 0


def cmd_unpack(args: argparse.Namespace) -> int:
    """Unpack a packed model (nothing to do if its folder exists); print the
    folder."""
    print(packed.unpack(Path(args.archive)))
    return 0


def _too_small(max_mb: float, nodes: int, patterns: int) -> str:
    weights = f" and the pattern weights ({patterns / 1e6:.2f} MB)" if patterns else ""
    return (
        f"--max-mb {max_mb} is too small: the smallest pruning keeps the root "
        f"and its moves ({nodes} nodes){weights}"
    )

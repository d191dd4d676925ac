"""Command line of tree models: ``selfplay`` and
``model info|merge|prune|pack|unpack|bench``.

python -m mcts selfplay reversi --games 200 --model full --seconds 0.1
python -m mcts model info model/reversi/light
python -m mcts model merge A B --out C
python -m mcts model prune model/reversi/full --out model/reversi/light --max-mb 5
python -m mcts model pack model/reversi/full
python -m mcts model unpack model/reversi/full.tar.xz
python -m mcts model bench --nodes 1000000 --versions 2,1
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from ..games import find_game
from ..games.base import ONGOING
from ..models import model as treemodel
from ..models import packed, store
from ..models.selfplay import SelfPlayConfig, build
from ..search.tree import Proven, Tree
from .args import add_game_arguments, game_from_args

MODEL_DIR = store.MODEL_DIR
model_path = store.model_path


def add_commands(subparsers) -> None:
    """Register the ``selfplay`` and ``model`` subcommands on ``subparsers``."""

    selfplay = subparsers.add_parser("selfplay", help="grow a tree model by self-play")
    add_game_arguments(selfplay)
    add_selfplay_arguments(selfplay)
    selfplay.set_defaults(func=cmd_selfplay)

    model = subparsers.add_parser("model", help="inspect, merge or benchmark models")
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
    bench = commands.add_parser(
        "bench", help="load time and memory of a synthetic model; bytes per node"
    )
    bench.add_argument("--nodes", type=int, default=1_000_000)
    bench.add_argument("--game", default="reversi")
    bench.add_argument("--dir", help="where to write it (default: a temporary folder)")
    bench.add_argument(
        "--versions",
        default="2",
        help="format versions to save and load, e.g. 2,1 (default: 2, the current)",
    )
    bench.set_defaults(func=cmd_bench)


def add_selfplay_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the self-play options (shared with ``manage.py selfplay``)."""
    parser.add_argument("--games", type=int, required=True, help="total games")
    parser.add_argument("--model", required=True, help="name (model/GAME/NAME) or path")
    parser.add_argument("--model-dir", default=str(MODEL_DIR))
    parser.add_argument("--workers", type=int, default=1)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="search seconds per move")
    budget.add_argument("--sims", type=int, help="simulations per move (default 200)")
    parser.add_argument("--min-visits", type=int, default=1, help="pruning on save")
    parser.add_argument("--checkpoint-every", type=int, default=10)
    parser.add_argument("--noise-plies", type=int, default=12)
    parser.add_argument(
        "--temperature",
        type=float,
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


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Grow the model; print where it is and its size."""

    game = game_from_args(args)
    try:
        model = run_selfplay(game, args, args.command_line)
    except KeyboardInterrupt:
        print("interrupted: checkpoint saved", file=sys.stderr)
        return 130
    path = model_path(game.name, args.model, args.model_dir)
    print(json.dumps(treemodel.info(store.load(path, check="fast")), indent=1))
    del model
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    """Print the model summary."""
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
    # The pattern weights file (Reversi) counts toward --max-mb but does not
    # shrink with the tree.
    fixed = model.manifest.get("patterns", {}).get("bytes", 0)
    if args.max_mb is not None:
        limit = args.max_mb * 1_000_000 - fixed
        files = model.manifest["files"].values()
        bytes_per_node = sum(entry["bytes"] for entry in files) / model.nodes
        smallest = 1 + int(model.tree.n_children[0])  # the root and its moves
        if smallest * bytes_per_node > limit:
            raise treemodel.ModelError(_too_small(args.max_mb, smallest))
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
        size = fixed + tree_bytes
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
            raise treemodel.ModelError(_too_small(args.max_mb, manifest["nodes"]))
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


def _too_small(max_mb: float, nodes: int) -> str:
    return (
        f"--max-mb {max_mb} is too small: the smallest pruning keeps the root "
        f"and its moves ({nodes} nodes)"
    )


def synthetic_tree(game, nodes: int, seed: int = 0) -> Tree:
    """Return a tree of about ``nodes`` nodes of real moves: the start position
    expanded breadth first, each node with random visits (for benchmarks)."""

    rng = np.random.default_rng(seed)
    tree = Tree(nodes + 512)
    queue = [(0, game.initial_state())]
    head = 0
    while head < len(queue) and tree.size < nodes:
        node, state = queue[head]
        head += 1
        if game.status(state) != ONGOING:
            continue
        moves = game.legal_moves(state)[: nodes - tree.size]
        first = tree.size
        tree.first_child[node] = first
        tree.n_children[node] = len(moves)
        for k, code in enumerate(moves):
            child = first + k
            tree.parent[child] = node
            tree.move[child] = code
            tree.first_child[child] = -1
            tree.n_children[child] = 0
            queue.append((child, game.apply(state, code)))
        tree.size += len(moves)
    tree.visits[: tree.size] = rng.integers(1, 1000, tree.size)
    tree.value_sum[: tree.size] = tree.visits[: tree.size] * 0.5
    tree.proven[: tree.size] = Proven.UNKNOWN
    return tree


def cmd_bench(args: argparse.Namespace) -> int:
    """Save a synthetic model in each format version asked for, then load it
    in fresh processes, with the full check (the default) and the fast one;
    print the figures as JSON (load seconds, peak memory, bytes per node),
    by version."""

    game = find_game(args.game)
    versions = [int(v) for v in args.versions.split(",")]
    folder = (
        Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="mcts-bench-"))
    )
    start = time.perf_counter()
    tree = synthetic_tree(game, args.nodes)
    made = time.perf_counter() - start
    figures: dict[str, object] = {"build_seconds": round(made, 2)}
    try:
        for version in versions:
            path = folder / f"bench-v{version}"
            start = time.perf_counter()
            model = treemodel.Model(game, tree, game.initial_state())
            store.save(model, path, built={"by": "bench"}, version=version)
            figures[f"version {version}"] = _bench_loads(
                path, time.perf_counter() - start
            )
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(figures, indent=1))
    return 0


def _bench_loads(path: Path, saved: float) -> dict:
    """Return the figures of loading the model at ``path`` in fresh processes."""
    sizes = {p.name: p.stat().st_size for p in path.iterdir()}
    loads = {}
    for check in ("full", "fast"):
        child = subprocess.run(
            [sys.executable, "-m", "mcts.cli.models", "--load", str(path), check],
            capture_output=True,
            text=True,
            check=True,
        )
        loads[check] = json.loads(child.stdout)
    nodes = loads["full"]["nodes"]
    return {
        "nodes": nodes,
        "save_seconds": round(saved, 2),
        **loads,
        "bytes": sizes,
        "bytes_per_node": round(sum(sizes.values()) / nodes, 1),
        "nodes_bytes_per_node": round(sizes[store.NODES] / nodes, 1),
    }


def _rss_mb(field: str = "VmRSS") -> float:
    """Return this process's resident memory now (``VmHWM``: its peak since
    it started), in MB (Linux)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def _measure_load(path: str, check: str) -> dict:
    """Return the load time and memory of one model (run in a fresh process).

    The numba kernels are loaded from their cache first (compiled, if the
    cache is cold), as a server process has them after its first load."""
    start = time.perf_counter()
    version = store.read_manifest(Path(path))["version"]
    with tempfile.TemporaryDirectory() as scratch:
        store.load(_save_tiny_model(Path(scratch), version), check=check)
    kernels = time.perf_counter() - start
    before = _rss_mb()
    start = time.perf_counter()
    model = store.load(path, check=check)
    seconds = time.perf_counter() - start
    after = _rss_mb()
    start = time.perf_counter()
    index = model.index  # what a player builds on its first lookup
    return {
        "nodes": model.nodes,
        "check": check,
        "kernels_seconds": round(kernels, 2),
        "load_seconds": round(seconds, 2),
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "index_seconds": round(time.perf_counter() - start, 2),
        "indexed_nodes": len(index.nodes),
        "rss_with_index_mb": round(_rss_mb(), 1),
        # getrusage's peak would include the parent's from before the exec
        "peak_rss_mb": round(_rss_mb("VmHWM"), 1),
        "tree_mb": round(model.tree.nbytes() / 2**20, 1),
    }


def _save_tiny_model(folder: Path, version: int) -> Path:
    """Save a tiny model in format ``version`` in ``folder``; return its path
    (loading it loads the kernels that version needs)."""

    game = find_game("reversi")
    path = folder / "tiny"
    tiny = treemodel.Model(game, synthetic_tree(game, 50), game.initial_state())
    store.save(tiny, path, version=version)
    return path


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--load":
    print(json.dumps(_measure_load(sys.argv[2], sys.argv[3])))

"""``python -m mcts.lab bench-model``: the load time and memory of a synthetic
tree model in each file-format version, and its bytes per node.

python -m mcts.lab bench-model --nodes 1000000 --versions 2,1
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

from ...games import find_game
from ...games.base import ONGOING
from ...models import model as treemodel
from ...models import store
from ...search.tree import Proven, Tree


def add_commands(subparsers) -> None:
    """Register the ``bench-model`` subcommand on ``subparsers``."""
    bench = subparsers.add_parser(
        "bench-model", help="load time and memory of a synthetic model; bytes per node"
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
            [
                sys.executable,
                "-m",
                "mcts.lab.commands.model_bench",
                "--load",
                str(path),
                check,
            ],
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

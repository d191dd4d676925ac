"""The ``bench`` subcommand of ``python -m mcts.lab``: a search's speed from a
position, one core (simulations a second of the tree searches, nodes a
second of Gomoku's alpha-beta), the median of a few runs printed last.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ...games.arguments import add_game_arguments, game_from_args
from ...models.model import evaluation_for, patterns_for
from ...models.store import load, model_path
from ...search.config import SearchConfig, game_settings
from ...search.gomoku.alphabeta import MAX_DEPTH, new_search, think
from ...search.gomoku.config import GomokuSearch
from ...search.gomoku.net_search import DEFAULT_NET_SEARCH, NetSearcher
from ...search.gomoku.network import random_weights
from ...search.searcher import Searcher


def add_commands(subparsers) -> None:
    """Register the ``bench`` subcommand on ``subparsers``."""
    bench = subparsers.add_parser(
        "bench", help="simulations per second of a search from the start (one core)"
    )
    add_game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=2.0, help="per run")
    bench.add_argument("--runs", type=int, default=3)
    bench.add_argument(
        "--evaluator",
        choices=("random", "heavy", "network", "alphabeta"),
        default="random",
        help="network: PUCT with the network of --model (Gomoku), or of an "
        "untrained one if no model is given; alphabeta: Gomoku's alpha-beta "
        "search (nodes a second and the depth it completes). Gomoku's heavy "
        "search is timed without the alpha-beta that plans its move",
    )
    bench.add_argument(
        "--batch", type=int, default=None, help="network: leaves evaluated at once"
    )
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument(
        "--model",
        help="score the heavy rollouts with this tree model's learned evaluation "
        "(a name under model/GAME/ or a path), or with its pattern evaluation "
        "(Reversi) when it carries one",
    )
    bench.add_argument(
        "--moves",
        default="",
        help="random or heavy rollouts: the moves (notation, spaces between) "
        "played before the timing starts, e.g. 'h8 i9 h9 h10 j8 g7': threat "
        "checks cost little on an empty board",
    )
    bench.add_argument(
        "--depth",
        type=int,
        default=None,
        help="alphabeta: search to this depth from an empty table instead of "
        "for --seconds; the nodes it takes are the same every run, so two "
        "builds' move ordering and pruning compare without timing noise",
    )
    bench.set_defaults(func=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    """Print simulations per second from the start; the median line last."""
    game = game_from_args(args)
    if args.evaluator == "network":
        if game.name != "gomoku":
            raise ValueError("--evaluator network: only gomoku has networks")
        return _bench_network(game, args)
    if args.evaluator == "alphabeta":
        return _bench_alphabeta(game, args)
    model = None
    if args.model:
        if args.evaluator != "heavy":
            raise ValueError("--model scores heavy rollouts: add --evaluator heavy")
        model = load(model_path(game.name, args.model))
    # The tree search's own rate: Gomoku's alpha-beta (its own bench) off.
    settings = game_settings(game, args.evaluator)
    if isinstance(settings, GomokuSearch):
        settings = settings._replace(alphabeta=0.0)
    config = SearchConfig(evaluator=args.evaluator, game=settings)
    state = game.play_all(args.moves.split())

    def searcher(seed: int) -> Searcher:
        made = Searcher(game, state, config=config, seed=seed)
        if model is not None:
            made.evaluation = evaluation_for(model, game)
            made.patterns = patterns_for(model, game)
        return made

    start = time.perf_counter()
    searcher(args.seed).search(simulations=1)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    c = minimax = None
    scored = ""
    for run in range(args.runs):
        timed = searcher(args.seed + run)
        result = timed.search(seconds=args.seconds)
        c, minimax = timed.c, timed.minimax
        if timed.patterns is not None:
            scored = f", scored by {args.model}'s pattern evaluation"
        elif timed.evaluation is not None:
            scored = f", scored by {args.model}'s evaluation"
        rate = result.simulations / result.elapsed
        rates.append(rate)
        print(
            f"run {run + 1}: {result.simulations} simulations in "
            f"{result.elapsed:.2f} s = {rate:,.0f}/s, {result.nodes} nodes, "
            f"best {result.move}"
        )
    if args.moves:
        scored += f", after {args.moves}"
    print(
        f"{game.name} {args.evaluator} rollouts{scored}, c={c}, minimax={minimax}: "
        f"median simulations/s: {statistics.median(rates):.0f}"
    )
    return 0


def _bench_network(game, args: argparse.Namespace) -> int:
    """Print the network search's simulations per second from the start."""
    if args.model:
        network = load(model_path(game.name, args.model)).network
        if network is None:
            raise ValueError(f"model {args.model!r} carries no network")
    else:
        network = random_weights(game.options["size"])
    settings = DEFAULT_NET_SEARCH
    if args.batch is not None:
        settings = settings._replace(batch=args.batch)
    start = time.perf_counter()
    NetSearcher(game, network=network, settings=settings).search(simulations=1)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    for run in range(args.runs):
        searcher = NetSearcher(
            game, network=network, settings=settings, seed=args.seed + run
        )
        result = searcher.search(seconds=args.seconds)
        rate = result.simulations / result.elapsed
        rates.append(rate)
        print(
            f"run {run + 1}: {result.simulations} simulations in "
            f"{result.elapsed:.2f} s = {rate:,.0f}/s, best {result.move}"
        )
    print(
        f"{game.name} network search, batch {searcher.batch}: "
        f"median simulations/s: {statistics.median(rates):.0f}"
    )
    return 0


def _bench_alphabeta(game, args: argparse.Namespace) -> int:
    """Print the Gomoku alpha-beta's nodes a second after ``--moves`` (and
    with ``--depth`` the nodes it takes to that depth)."""
    if game.name != "gomoku":
        raise ValueError("the alpha-beta searches Gomoku only")
    if args.depth is not None and args.depth < 1:
        raise ValueError(f"depth must be at least 1, got {args.depth}")
    state = game.play_all(args.moves.split())
    size, row = game.options["size"], game.options["row"]
    start = time.perf_counter()
    think(new_search(size, row), state.array, 0.001)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    # To a depth: no time limit (a year), the iterations stop at the depth.
    seconds, max_depth = (
        (args.seconds, MAX_DEPTH) if args.depth is None else (3.2e7, args.depth)
    )
    rates = []
    for run in range(args.runs):
        search = new_search(size, row)  # an empty table each run
        start = time.perf_counter()
        move, value, depth, nodes = think(search, state.array, seconds, max_depth)
        elapsed = time.perf_counter() - start
        rates.append(nodes / elapsed)
        print(
            f"run {run + 1}: {nodes} nodes in {elapsed:.2f} s = "
            f"{nodes / elapsed:,.0f}/s, depth {depth}, value {value:+.1f}, "
            f"best {game.format_move(state, move)}"
        )
    after = f", after {args.moves}" if args.moves else ""
    print(
        f"{game.name} alpha-beta{after}: median nodes/s: {statistics.median(rates):.0f}"
    )
    return 0

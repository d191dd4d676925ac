"""The search subcommands of ``python -m mcts``: think, arena, bench and warm.

:func:`add_commands` registers them on the CLI's subparsers; each sets
``func(args) -> exit code``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ..models.model import evaluation_for, patterns_for
from ..models.store import load, model_path
from ..play.arena import GameRecord, distinct_positions, run_match
from ..play.players import find_player, parse_spec
from ..play.warmup import warm_up
from ..search.gomoku_alphabeta import new_search, think
from ..search.loa_search import DEFAULT_LOA_EVAL
from ..search.net_search import NetSearcher
from ..search.network import random_weights
from ..search.searcher import Searcher
from .args import add_game_arguments, game_from_args


def proven_mark(proven: str | None) -> str:
    """Return how a table shows a result's ``proven`` text (a
    :attr:`Proven.text <mcts.search.tree.Proven.text>`): "proven win", or
    empty while unproven."""
    return f"proven {proven}" if proven else ""


def add_commands(subparsers) -> None:
    """Register the ``think``, ``arena``, ``bench`` and ``warm`` subcommands on
    ``subparsers``."""

    think = subparsers.add_parser(
        "think", help="search a position and show the root moves' statistics"
    )
    add_game_arguments(think)
    think.add_argument("moves", nargs="*", help="moves from the start, in notation")
    _add_budget(think)
    think.add_argument(
        "--player",
        default="mcts-heavy",
        help="player spec, e.g. mcts or mcts-heavy:c=0.8 (default mcts-heavy)",
    )
    think.add_argument("--seed", type=int, default=None)
    think.add_argument("--top", type=int, default=20, help="root moves to list")
    think.set_defaults(func=cmd_think)

    arena = subparsers.add_parser(
        "arena", help="play a match between two players, colours alternating"
    )
    add_game_arguments(arena)
    arena.add_argument(
        "--a",
        required=True,
        type=_spec,
        help="player A spec, e.g. mcts-heavy:model=light, or an external engine: "
        "'engine:nboard:cmd=./ntest x,cwd=DIR,depth=4' or "
        "'engine:piskvork:cmd=PROGRAM,ms=200' (a move it answers that is "
        "malformed, illegal or late loses the game; see mcts.play.players)",
    )
    arena.add_argument("--b", required=True, type=_spec, help="player B spec")
    arena.add_argument("--games", type=int, default=10)
    _add_budget(arena)
    arena.add_argument("--workers", type=int, default=1, help="worker processes")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument(
        "--opening-plies",
        type=int,
        default=None,
        help="random opening plies (default: reversi 4, loa 2, gomoku 2, "
        "except 15x15 five in a row: a balanced opening of 3 stones)",
    )
    arena.add_argument("--quiet", action="store_true", help="print the summary only")
    arena.add_argument(
        "--variety",
        type=_plies,
        default=(),
        metavar="PLIES",
        help="also count the distinct positions (up to symmetry) after these "
        "plies, e.g. 2,4,8,16: how much the players vary",
    )
    arena.set_defaults(func=cmd_arena)

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
    bench.add_argument(
        "--mix",
        type=float,
        default=None,
        help="network: the share of a leaf's value heavy rollouts give",
    )
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument(
        "--model",
        help="score the heavy rollouts with this tree model's learned evaluation "
        "(a name under model/GAME/ or a path), or with its pattern evaluation "
        "(Reversi) when it carries one",
    )
    bench.add_argument(
        "--no-patterns",
        action="store_true",
        help="leave the model's pattern evaluation out (the learned one scores)",
    )
    bench.add_argument(
        "--minimax",
        type=float,
        help="the weight of the implicit minimax values in selection "
        "(by default the search's: 0.3 with Reversi's patterns, else 0)",
    )
    bench.add_argument(
        "--vct",
        type=int,
        default=None,
        help="Gomoku, heavy rollouts: VCF nodes of the VCT of one three that "
        "also proves new leaves (by default the search's: 0, none)",
    )
    bench.add_argument(
        "--sharpness",
        type=float,
        default=None,
        help="Gomoku, heavy rollouts with --model: score quiet leaves by the "
        "model's evaluation with its log-odds times this (by default the "
        "search's: 0, by the line shapes)",
    )
    bench.add_argument(
        "--moves",
        default="",
        help="random or heavy rollouts: the moves (notation, spaces between) "
        "played before the timing starts, e.g. 'h8 i9 h9 h10 j8 g7': threat "
        "checks cost little on an empty board",
    )
    bench.add_argument(
        "--loa-eval",
        default=DEFAULT_LOA_EVAL,
        help="Lines of Action, heavy rollouts: the named evaluation and search "
        "settings (2026-11: the earlier search, the benchmark baseline)",
    )
    bench.set_defaults(func=cmd_bench)

    warm = subparsers.add_parser(
        "warm",
        help="compile the AI's kernels (or load them from the cache) by one quick "
        "game in each game, as `make run` does before the server starts",
    )
    warm.add_argument(
        "--model",
        default="light",
        help="the tree model the page's AI plays with (default light); "
        "'none' warms the search alone",
    )
    warm.set_defaults(func=cmd_warm)


def _add_budget(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("budget per move")
    group.add_argument("--seconds", type=float, default=None)
    group.add_argument("--sims", type=int, default=None, help="simulations")


def _spec(text: str) -> str:
    """Return ``text`` if it is a valid player spec (argparse type)."""
    try:
        parse_spec(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _plies(text: str) -> tuple[int, ...]:
    """Return the sorted plies of a comma list like ``2,4,8`` (argparse type)."""
    try:
        plies = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        plies = []
    if not plies or plies[0] < 1:
        raise argparse.ArgumentTypeError(
            f"expected plies like 2,4,8 (each at least 1), got {text!r}"
        )
    return tuple(plies)


def _game(args: argparse.Namespace):

    return game_from_args(args)


# ---- think ----------------------------------------------------------------------
def cmd_think(args: argparse.Namespace) -> int:
    """Print the board, then the root moves by visits with win % and proofs."""
    game = _game(args)
    state = game.play_all(args.moves)
    print(game.render(state))
    if game.is_terminal(state):
        return 0
    seconds = args.seconds
    if seconds is None and args.sims is None:
        seconds = 1.0
    player = find_player(
        args.player, game, seconds=seconds, simulations=args.sims, seed=args.seed
    )
    if not hasattr(player, "searcher"):
        print(f"error: {args.player!r} does not search", file=sys.stderr)
        return 2
    player.choose(state)
    print(format_result(player.last_result, top=args.top))
    return 0


def format_result(result, *, top: int = 20) -> str:
    """Return a text table of a SearchResult: moves by visits, win %, proofs."""
    lines = [f"{'move':>8} {'visits':>9} {'win %':>7}  proven"]
    for stats in result.moves[:top]:
        win = "" if stats.value is None else f"{100 * stats.value:.1f}"
        lines.append(
            f"{stats.move:>8} {stats.visits:>9} {win:>7}  {proven_mark(stats.proven)}"
        )
    if len(result.moves) > top:
        lines.append(f"... {len(result.moves) - top} more moves")
    proven = f" ({proven_mark(result.proven)})" if result.proven else ""
    if result.found and not result.proven:
        proven = f" ({result.found} found against the replies searched)"
    lines += [
        f"best: {result.move}  value for {result.side}: "
        f"{100 * result.value:.1f}%{proven}",
        f"pv: {' '.join(result.pv)}",
        f"simulations: {result.simulations} in {result.elapsed:.2f} s "
        f"({result.simulations / max(result.elapsed, 1e-9):,.0f}/s), "
        f"nodes: {result.nodes}",
    ]
    return "\n".join(lines)


# ---- arena ----------------------------------------------------------------------
def cmd_arena(args: argparse.Namespace) -> int:
    """Play the match and print one line per game, then the summary line
    (and, with ``--variety``, the distinct positions after it)."""
    game = _game(args)
    seconds = args.seconds
    if seconds is None and args.sims is None:
        seconds = 0.2

    def report(record: GameRecord) -> None:
        if args.quiet:
            return
        a_colour = "black" if record.a_black else "white"
        winner = record.winner or "draw"
        forfeit = f" ({record.reason})" if "forfeits" in record.reason else ""
        print(
            f"game {record.index + 1}: A {a_colour}, winner {winner}, "
            f"{len(record.moves)} plies, A scores {record.a_score}{forfeit}",
            flush=True,
        )

    start = time.perf_counter()
    result = run_match(
        game,
        args.a,
        args.b,
        games=args.games,
        seconds=seconds,
        simulations=args.sims,
        workers=args.workers,
        seed=args.seed,
        opening_plies=args.opening_plies,
        on_game=report,
    )
    budget = f"{args.sims} sims" if args.sims is not None else f"{seconds} s"
    print(
        f"{game.name}: A = {args.a}, B = {args.b}, {budget}/move, "
        f"{time.perf_counter() - start:.0f} s"
    )
    a_seconds, b_seconds = result.seconds_per_move()
    print(f"time per move: A {a_seconds:.3f} s, B {b_seconds:.3f} s")
    model_use = result.model_use()
    if any(moves for moves, _ in model_use):
        print(
            "moves searched from the tree model's statistics, a game: "
            + ", ".join(
                f"{side} {moves:.1f} (latest at ply {last})"
                for side, (moves, last) in zip("AB", model_use, strict=True)
            )
        )
    print(result.summary())  # last: scripts read the score from it
    if args.variety:
        counts = distinct_positions(game, result.records, args.variety)
        print(
            "distinct positions after ply "
            + ", ".join(f"{ply}: {count}" for ply, count in counts.items())
        )
    return 0


# ---- bench ----------------------------------------------------------------------
def cmd_bench(args: argparse.Namespace) -> int:
    """Print simulations per second from the start; the median line last."""
    game = _game(args)
    if args.evaluator == "network":
        return _bench_network(game, args)
    if args.evaluator == "alphabeta":
        return _bench_alphabeta(game, args)
    evaluation = patterns = None
    if args.model:
        if args.evaluator != "heavy":
            raise ValueError("--model scores heavy rollouts: add --evaluator heavy")
        model = load(model_path(game.name, args.model))
        evaluation = evaluation_for(model, game)
        if not args.no_patterns:
            patterns = patterns_for(model, game)
        if evaluation is None:
            raise ValueError(f"model {args.model!r} has no evaluation for {game.name}")
    start = time.perf_counter()
    # The tree search's own rate: Gomoku's alpha-beta (its own bench) off.
    settings = {"loa_eval": args.loa_eval, "minimax": args.minimax, "alphabeta": 0}
    if args.vct is not None:
        settings["vct_nodes"] = args.vct
    if args.sharpness is not None:
        settings["sharpness"] = args.sharpness
    state = game.play_all(args.moves.split())
    Searcher(game, state, evaluator=args.evaluator, seed=args.seed, **settings).search(
        simulations=1
    )
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    c = minimax = None
    for run in range(args.runs):
        searcher = Searcher(
            game,
            state,
            evaluator=args.evaluator,
            evaluation=evaluation,
            patterns=patterns,
            seed=args.seed + run,
            **settings,
        )
        result = searcher.search(seconds=args.seconds)
        c, minimax = searcher.c, searcher.minimax
        rate = result.simulations / result.elapsed
        rates.append(rate)
        print(
            f"run {run + 1}: {result.simulations} simulations in "
            f"{result.elapsed:.2f} s = {rate:,.0f}/s, {result.nodes} nodes, "
            f"best {result.move}"
        )
    scored = f", scored by {args.model}'s evaluation" if evaluation else ""
    if patterns is not None:
        scored = f", scored by {args.model}'s pattern evaluation"
    if game.name == "loa" and args.evaluator == "heavy":
        scored += f", loa_eval={args.loa_eval}"
    if args.vct is not None:
        scored += f", vct={args.vct}"
    if args.sharpness is not None:
        scored += f", sharpness={args.sharpness}"
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
    given = {"batch": args.batch, "mix": args.mix}
    options = {name: value for name, value in given.items() if value is not None}
    start = time.perf_counter()
    NetSearcher(game, network=network, **options).search(simulations=1)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    for run in range(args.runs):
        searcher = NetSearcher(game, network=network, seed=args.seed + run, **options)
        result = searcher.search(seconds=args.seconds)
        rate = result.simulations / result.elapsed
        rates.append(rate)
        print(
            f"run {run + 1}: {result.simulations} simulations in "
            f"{result.elapsed:.2f} s = {rate:,.0f}/s, best {result.move}"
        )
    print(
        f"{game.name} network search, batch {searcher.batch}, mix {searcher.mix}: "
        f"median simulations/s: {statistics.median(rates):.0f}"
    )
    return 0


def _bench_alphabeta(game, args: argparse.Namespace) -> int:
    """Print the Gomoku alpha-beta's nodes a second after ``--moves``."""
    if game.name != "gomoku":
        raise ValueError("the alpha-beta searches Gomoku only")
    state = game.play_all(args.moves.split())
    size, row = game.options["size"], game.options["row"]
    start = time.perf_counter()
    think(new_search(size, row), state.array, 0.001)
    print(f"first call (compile or cache load): {time.perf_counter() - start:.2f} s")
    rates = []
    for run in range(args.runs):
        search = new_search(size, row)  # an empty table each run
        start = time.perf_counter()
        move, value, depth, nodes = think(search, state.array, args.seconds)
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


def cmd_warm(args: argparse.Namespace) -> int:
    """Play one quick game of each game with the page's AI, printing how long
    each took: the first run on a checkout compiles the kernels."""
    print(
        "preparing the AI: the first start compiles its kernels (a minute or "
        "two), later starts load them from the cache",
        flush=True,
    )

    def report(game: str, seconds: float) -> None:
        print(f"  {game}: ready in {seconds:.1f} s", flush=True)

    model = None if args.model == "none" else args.model
    warm_up(model=model, report=report)
    return 0

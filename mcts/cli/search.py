"""The search subcommands of ``python -m mcts``: think, arena and warm.

:func:`add_commands` registers them on the CLI's subparsers; each sets
``func(args) -> exit code``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..games import find_game
from ..games.arguments import (
    add_game_arguments,
    game_from_args,
    non_negative_int,
    positive_int,
    positive_number,
)
from ..models.reader import read_manifest
from ..models.store import model_path
from ..play.arena import (
    GameRecord,
    distinct_positions,
    run_match,
    tally,
    write_records,
)
from ..play.players import find_player, parse_spec
from ..play.warmup import (
    GAMES,
    GameProgress,
    stop_with_parent,
    warm_up,
    write_status,
)


def proven_mark(proven: str | None) -> str:
    """Return how a table shows a result's ``proven`` text (a
    :attr:`Proven.text <mcts.search.tree.Proven.text>`): "proven win", or
    empty while unproven."""
    return f"proven {proven}" if proven else ""


def add_commands(subparsers) -> None:
    """Register the ``think``, ``arena`` and ``warm`` subcommands on
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
    think.add_argument(
        "--top", type=positive_int, default=20, help="root moves to list"
    )
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
    arena.add_argument("--games", type=positive_int, default=10)
    _add_budget(arena)
    arena.add_argument(
        "--workers", type=positive_int, default=1, help="worker processes"
    )
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument(
        "--opening-plies",
        type=non_negative_int,
        default=None,
        help="random opening plies (default: reversi 4, loa 2, gomoku 2, "
        "except 15x15 five in a row: a balanced opening of 3 stones)",
    )
    arena.add_argument(
        "--swap2",
        action="store_true",
        help="Gomoku: open by Swap2 instead, A and B opening in turn (MCTS "
        "players decide by their search, piskvork engines by SWAP2BOARD)",
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
    arena.add_argument(
        "--record",
        type=Path,
        default=None,
        metavar="FILE",
        help="write the games (their moves, winner, reason and think times) "
        "to FILE as JSON lines, rewritten whole after each game, so that an "
        "interrupted match keeps the games it finished",
    )
    arena.set_defaults(func=cmd_arena)

    warm = subparsers.add_parser(
        "warm",
        help="compile the AI's kernels (or load them from the cache) by playing "
        "every path of each game, as a server does in the background at start",
    )
    warm.add_argument(
        "--model",
        help="the tree model the page's AI plays with (default light, or the "
        "search alone where it cannot be loaded, as the server does); 'none' "
        "warms the search alone",
    )
    warm.add_argument(
        "--jobs",
        type=int,
        default=min(len(GAMES), os.cpu_count() or 1),
        help="games warmed at once, each in a process of its own "
        "(default: one a core, at most one a game)",
    )
    warm.add_argument(
        "--status",
        type=Path,
        metavar="FILE",
        help="keep the progress in FILE as JSON (rewritten whole at each "
        "change) for a server to show",
    )
    warm.add_argument(
        "--parent",
        type=int,
        metavar="PID",
        help="stop (removing FILE) once process PID, which started this "
        "warm-up (a server), exits",
    )
    warm.add_argument(
        "games", nargs="*", metavar="GAME", help=f"{', '.join(GAMES)} (default: all)"
    )
    warm.set_defaults(func=cmd_warm)


def _add_budget(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("budget per move")
    group.add_argument("--seconds", type=positive_number, default=None)
    group.add_argument("--sims", type=positive_int, default=None, help="simulations")


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


def _one_budget(args: argparse.Namespace, *specs: str) -> None:
    """Refuse a level beside --seconds or --sims: the level's own budget
    would win without a word (CLI QA)."""
    if args.seconds is None and args.sims is None:
        return
    for text in specs:
        if "level" in parse_spec(text).options:
            raise ValueError(
                f"{text}: a level sets its own time a move; drop --seconds "
                "or --sims, or the level"
            )


def _model_notes(game, *specs: str) -> None:
    """Say on stderr which of ``specs`` names a model built for other
    options than ``game``'s: it adds nothing there (its tree, evaluation and
    shapes judge its own board alone), and was taken without a word (CLI QA)."""
    for text in specs:
        spec = parse_spec(text)
        name = spec.options.get("model")
        folder = model_path(game.name, name) if name else None
        if spec.kind == "engine" or folder is None or not folder.is_dir():
            continue  # a missing one is the player's to refuse
        manifest = read_manifest(folder)
        built = find_game(manifest["game"], **manifest.get("options", {}))
        if (built.name, built.options) != (game.name, game.options):
            print(
                f"note: model {name} was built for {built!r}: it adds nothing "
                f"to {game!r}",
                file=sys.stderr,
            )


def _game(args: argparse.Namespace):

    return game_from_args(args)


# ---- think ----------------------------------------------------------------------
def cmd_think(args: argparse.Namespace) -> int:
    """Print the board, then the root moves by visits with win % and proofs."""
    game = _game(args)
    _one_budget(args, args.player)
    state = game.play_all(args.moves)
    seconds = args.seconds
    if seconds is None and args.sims is None:
        seconds = 1.0
    # The player before the board: a bad one is one line (CLI QA).
    _model_notes(game, args.player)
    player = find_player(
        args.player, game, seconds=seconds, simulations=args.sims, seed=args.seed
    )
    if not hasattr(player, "searcher"):
        print(
            f"error: think shows a tree search's statistics; {args.player!r} has none",
            file=sys.stderr,
        )
        return 2
    print(game.render(state))
    if game.is_terminal(state):
        return 0
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
    _one_budget(args, args.a, args.b)
    _model_notes(game, args.a, args.b)
    seconds = args.seconds
    if seconds is None and args.sims is None:
        seconds = 0.2
    # Before the games, not after the first (CLI QA: a folder given left
    # FOLDER.tmp beside it).
    if args.record is not None and (
        args.record.is_dir() or not args.record.parent.is_dir()
    ):
        raise ValueError(f"--record {args.record}: not a file in an existing folder")

    finished: list[GameRecord] = []

    def report(record: GameRecord) -> None:
        finished.append(record)
        if args.record is not None:
            write_records(args.record, finished)
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
    try:
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
            swap2_opening=args.swap2,
            on_game=report,
        )
    except KeyboardInterrupt:
        # Ctrl-C: the games finished, summed up (CLI QA: a traceback, and
        # no word of them).
        print(f"interrupted after {len(finished)} games", file=sys.stderr)
        if finished:
            print(tally(finished).summary())
        return 130
    budget = f"{args.sims} sims" if args.sims is not None else f"{seconds} s"
    print(
        f"{game.name}: A = {args.a}, B = {args.b}, {budget}/move, "
        f"{time.perf_counter() - start:.0f} s"
    )
    a_seconds, b_seconds = result.seconds_per_move()
    print(f"time per move: A {a_seconds:.3f} s, B {b_seconds:.3f} s")
    print(result.summary())  # last: scripts read the score from it
    if args.variety:
        counts = distinct_positions(game, result.records, args.variety)
        print(
            "distinct positions after ply "
            + ", ".join(f"{ply}: {count}" for ply, count in counts.items())
        )
    return 0


def _missing_model(games: tuple[str, ...], name: str) -> str | None:
    """Why model ``name`` cannot be warmed for each of ``games`` (none such,
    or packed), or None: asked for by name, it is not left out in silence."""
    missing = [game for game in games if not model_path(game, name).is_dir()]
    if not missing:
        return None
    packed = [g for g in missing if Path(f"{model_path(g, name)}.tar.xz").is_file()]
    if packed:
        archive = f"{model_path(packed[0], name)}.tar.xz"
        return (
            f"{name} is packed for {packed[0]}: python -m mcts model unpack {archive}"
        )
    return f"no model {name} for {', '.join(missing)}"


def cmd_warm(args: argparse.Namespace) -> int:
    """Compile the rules, then warm each game, printing when each is ready
    (and keeping the progress in ``--status``); 1 if a game failed."""
    started = time.time()
    games = tuple(args.games) or GAMES
    unknown = set(games) - set(GAMES)
    if unknown:
        print(f"no such game: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if args.model not in (None, "none"):
        refusal = _missing_model(games, args.model)
        if refusal:
            print(refusal, file=sys.stderr)
            return 2
    if args.parent is not None:
        stop_with_parent(args.parent, args.status)
    progress = {name: GameProgress() for name in games}
    rules = False

    def save() -> None:
        if args.status is not None:
            write_status(args.status, progress, started, rules=rules)

    save()
    print(
        f"getting the AI ready: {', '.join(games)} ({args.jobs} at once); the "
        "first start compiles, later ones load the compiled code",
        flush=True,
    )
    last_saved = [0.0]
    told: set[str] = set()

    def report(game: str, entry: GameProgress) -> None:
        progress[game] = entry
        if entry.state in ("ready", "failed") and game not in told:
            told.add(game)
            if entry.error:
                print(f"  {game}: failed after {entry.seconds:.1f} s: {entry.error}")
            else:
                print(f"  {game}: ready in {entry.seconds:.1f} s", flush=True)
        elif time.monotonic() - last_saved[0] < 0.2:
            return
        last_saved[0] = time.monotonic()
        save()

    def on_rules() -> None:
        nonlocal rules
        rules = True
        save()

    model = None if args.model == "none" else args.model or "light"
    final = warm_up(
        games=games, model=model, jobs=args.jobs, report=report, on_rules=on_rules
    )
    progress.update(final)
    save()
    return 0 if all(entry.state == "ready" for entry in final.values()) else 1

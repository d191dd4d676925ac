"""Command line of the game-learnt opening book (:mod:`mcts.lab.book`).

python -m mcts.lab book learn gomoku --book BOOK.jsonl --games 1000 --side white
python -m mcts.lab book show gomoku --book BOOK.jsonl
python -m mcts.lab book graft gomoku --book BOOK.jsonl \
    --model model/gomoku/full --out DIR
"""

from __future__ import annotations

import argparse
import time

from ...games.arguments import add_game_arguments, game_from_args
from ...models import store
from .. import book as opening_book
from .. import book_games


def add_commands(subparsers) -> None:
    """Register the ``book`` subcommands on ``subparsers``."""
    book = subparsers.add_parser(
        "book", help="an opening book learnt from whole games (Meta-MCTS)"
    )
    commands = book.add_subparsers(dest="book_command", required=True)

    learn = commands.add_parser("learn", help="add games to a book (resumes it)")
    add_game_arguments(learn)
    learn.add_argument("--book", required=True, help="the book's JSON-lines file")
    learn.add_argument("--games", type=int, required=True, help="games to add")
    learn.add_argument(
        "--player",
        default="mcts-heavy:model=light",
        help="the player that plays both sides past the book",
    )
    learn.add_argument(
        "--learner-player",
        help="a book for one side: the player of that side past the book "
        "(the player the book is for; default: --player)",
    )
    learn.add_argument(
        "--seconds", type=float, default=0.1, help="a move, past the book"
    )
    learn.add_argument(
        "--side",
        choices=("black", "white", "both"),
        default="both",
        help="the side whose moves the book widens; the other keeps to the "
        "player's own moves (the opponent the book learns to answer)",
    )
    learn.add_argument(
        "--widening",
        type=float,
        default=opening_book.WIDENING,
        help="book moves a position may have after n games: "
        "ceil(WIDENING * sqrt(n)); lower keeps to the player's own moves longer",
    )
    learn.add_argument("--workers", type=int, default=2)
    learn.add_argument("--checkpoint-every", type=int, default=10)
    learn.add_argument("--quiet", action="store_true", help="no progress bar")
    learn.set_defaults(func=cmd_learn)

    show = commands.add_parser("show", help="the book's most played line")
    add_game_arguments(show)
    show.add_argument("--book", required=True)
    show.set_defaults(func=cmd_show)

    graft = commands.add_parser(
        "graft", help="save a model with the book's statistics added"
    )
    add_game_arguments(graft)
    graft.add_argument("--book", required=True)
    graft.add_argument("--model", required=True, help="the model folder to add to")
    graft.add_argument("--out", required=True, help="the new model folder")
    graft.set_defaults(func=cmd_graft)


def cmd_learn(args: argparse.Namespace) -> int:
    """Add ``--games`` games to the book at ``--book``, saving as it goes."""
    game = game_from_args(args)
    learner = None if args.side == "both" else args.side
    book = opening_book.load_book(game, args.book, learner, args.widening)
    started = time.perf_counter()
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", desc="book", dynamic_ncols=True)

    def on_game(done: int, moves: list[int], status: int) -> None:
        if bar is not None:
            bar.update(1)
            bar.set_postfix(book_games=int(book.root.games), plies=len(moves))

    book_games.learn(
        game,
        book,
        spec=args.player,
        learner_spec=args.learner_player,
        seconds=args.seconds,
        games=args.games,
        workers=args.workers,
        save=lambda b, done: opening_book.save_book(b, args.book),
        checkpoint_every=args.checkpoint_every,
        on_game=on_game,
    )
    if bar is not None:
        bar.close()
    print(
        f"{args.book}: {int(book.root.games)} games in the book, "
        f"{args.games} added in {time.perf_counter() - started:.0f} s"
    )
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print the book's most played line, with each move's games and score."""
    game = game_from_args(args)
    book = opening_book.load_book(game, args.book)
    print(f"{int(book.root.games)} games, {book.size()} positions")
    state = game.initial_state()
    for ply, (move, games, score) in enumerate(book.principal_line()):
        print(
            f"{ply + 1:3d}. {game.format_move(state, move):>4s}  "
            f"{int(games):6d} games, {100 * score / games:5.1f}% for its player"
        )
        state = game.apply(state, move)
    return 0


def cmd_graft(args: argparse.Namespace) -> int:
    """Save ``--model`` with the book folded in at ``--out``."""
    game = game_from_args(args)
    book = opening_book.load_book(game, args.book)
    model = store.load(args.model, game=game)
    model.tree = opening_book.graft_book(book, model.tree)
    built = dict(model.manifest.get("built") or {})
    # A model may take several books (one a side): each is listed.
    built["books"] = [
        *built.get("books", []),
        {
            "games": int(book.root.games),
            "positions": book.size(),
            "game_visits": opening_book.GAME_VISITS,
            "command": args.command_line,
        },
    ]
    manifest = store.save(model, args.out, built=built)
    print(
        f"{args.out}: {manifest['nodes']} nodes, "
        f"root visits {manifest['root_visits']}, a book of {int(book.root.games)} games"
    )
    return 0

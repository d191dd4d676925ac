"""Arguments every game subcommand shares: GAME and the game options."""

from __future__ import annotations

import argparse

from . import Game, find_game


def parse_option(text: str) -> tuple[str, object]:
    """Return ``(key, value)`` from ``KEY=VALUE``, the value as int when it is one."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.replace("-", "_"), int(value) if value.lstrip("-").isdigit() else value


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the GAME argument and the game options (--size, --row, --option)."""
    parser.add_argument("game", help="reversi (othello), gomoku or loa")
    parser.add_argument("--size", type=int, help="Gomoku board size (5..19)")
    parser.add_argument("--row", type=int, help="Gomoku winning row length")
    parser.add_argument(
        "-o",
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="another game option, e.g. double_connection=mover_wins for loa",
    )


def game_from_args(args: argparse.Namespace) -> Game:
    """Return the Game that the GAME argument and the option flags name."""
    options = dict(args.option)
    if args.size is not None:
        options["size"] = args.size
    if args.row is not None:
        options["row"] = args.row
    return find_game(args.game, **options)

"""Arguments the command lines share: GAME, the game options, and the value
types of numbers (argparse ``type=``), which refuse in one line, before any
work, what would fail later or mean nothing (CLI QA: an infinite --seconds
was an OverflowError's traceback, --games 0 a progress bar and then a
missing file, a negative engine --seconds a GUI waiting forever)."""

from __future__ import annotations

import argparse
import math

from . import Game, find_game


def positive_number(text: str) -> float:
    """A finite number above 0 (seconds, a temperature)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text!r}")
    return value


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if value < least:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of at least {least}, got {text!r}"
        )
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (games, workers, simulations)."""
    return _whole(text, 1)


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (plies, depths)."""
    return _whole(text, 0)


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

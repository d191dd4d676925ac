"""The rules library: one module per game behind one protocol, :class:`Game`.

>>> game = find_game("othello")
>>> game.name
'reversi'
>>> game.legal_move_texts(game.initial_state())
['d3', 'c4', 'f5', 'e6']
"""

from __future__ import annotations

from .base import (
    BLACK,
    BLACK_WINS,
    DRAW,
    ONGOING,
    WHITE,
    WHITE_WINS,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    State,
)
from .gomoku import Gomoku
from .loa import LinesOfAction
from .reversi import Reversi

#: The games by registry name.
GAMES: dict[str, type[Game]] = {
    "reversi": Reversi,
    "gomoku": Gomoku,
    "loa": LinesOfAction,
}

#: Other names people use for the same games.
ALIASES = {
    "othello": "reversi",
    "lines-of-action": "loa",
    "linesofaction": "loa",
    "five-in-a-row": "gomoku",
}


class UnknownGameError(ValueError):
    """A game name that the registry does not know."""


def find_game(name: str, **options) -> Game:
    """Return a Game for ``name`` (or an alias) with ``options``.

    Raises UnknownGameError for an unknown name and InvalidOptionsError for
    options the game does not accept.
    """
    key = ALIASES.get(str(name).lower(), str(name).lower())
    if key not in GAMES:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(GAMES)}"
        )
    return GAMES[key](**options)


__all__ = [
    "ALIASES",
    "BLACK",
    "BLACK_WINS",
    "DRAW",
    "GAMES",
    "Game",
    "Gomoku",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionsError",
    "InvalidStateError",
    "LinesOfAction",
    "ONGOING",
    "Outcome",
    "Reversi",
    "State",
    "UnknownGameError",
    "WHITE",
    "WHITE_WINS",
    "find_game",
]

"""Monte Carlo Tree Search for Reversi, Gomoku and Lines of Action.

A pure Python library (no Django): the web app imports from this façade only.
"""

from .games import (
    GAMES,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    State,
    UnknownGameError,
    find_game,
)

__all__ = [
    "GAMES",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionsError",
    "InvalidStateError",
    "Outcome",
    "State",
    "UnknownGameError",
    "find_game",
]

"""Monte Carlo Tree Search for Reversi, Gomoku and Lines of Action.

A pure Python library (no Django): the web app imports from this façade only.
"""

from . import _numba_cache

_numba_cache.configure()  # before any @njit(cache=True) function is defined

from .games import (  # noqa: E402
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

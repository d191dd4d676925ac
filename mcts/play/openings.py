"""How matches open: a few random plies from the start (Gomoku's near the
centre), or in standard Gomoku a balanced opening, as Gomocup's tournaments
open (:func:`match_opening`). The arena (:mod:`.arena`), the benchmarks
judged by a reference engine and the self-play that fits shape weights
draw their openings here.
"""

from __future__ import annotations

import numpy as np

from ..games.base import Game, State
from ..search.gomoku.alphabeta import value_at_depth
from ..search.gomoku.planner import borrowed_search

#: Random plies of the openings, by game: enough to vary the games, few
#: enough to keep them balanced.
OPENING_PLIES = {"reversi": 4, "gomoku": 2, "loa": 2}
#: Gomoku opening stones stay this close (Chebyshev) to the centre.
GOMOKU_OPENING_RADIUS = 2
#: Standard Gomoku (15 x 15, five in a row) opens balanced instead, as
#: Gomocup's tournaments do: after two random plies black wins nearly every
#: game, whoever plays (black won 17 of 20 games of the heavy player against
#: itself at 0.15 s a move, and Rapfi proves white lost by ply 4-12: README,
#: Performance), so a match there measures little but the colours. A
#: balanced opening is BALANCED_PLIES random stones within
#: BALANCED_RADIUS of the centre whose BALANCED_DEPTH-ply alpha-beta value
#: for white, to move, lies in BALANCED_VALUES: the band where the heavy
#: player against itself won as often with black as with white (README).
BALANCED_PLIES = 3
BALANCED_RADIUS = 3
BALANCED_DEPTH = 6
BALANCED_VALUES = (3.0, 15.0)


def random_opening(game: Game, plies: int, rng: np.random.Generator) -> list[int]:
    """Return ``plies`` random move codes from the start that leave the game going.

    Gomoku stones stay near the centre (a corner opening is no real game).
    """
    for _ in range(100):
        state = game.initial_state()
        moves = []
        for _ in range(plies):
            legal = opening_moves(game, state)
            if not legal:
                break
            move = legal[int(rng.integers(len(legal)))]
            moves.append(move)
            state = game.apply(state, move)
        if len(moves) == plies and not game.is_terminal(state):
            return moves
    return []


def opening_moves(
    game: Game, state: State, radius: int = GOMOKU_OPENING_RADIUS
) -> list[int]:
    """Return the moves a random opening may pick from (Gomoku: those within
    ``radius`` of the centre)."""
    legal = game.legal_moves(state)
    if game.name != "gomoku":
        return legal
    size = game.options["size"]
    centre = size // 2
    return [
        m
        for m in legal
        if max(abs(m // size - centre), abs(m % size - centre)) <= radius
    ] or legal


def opens_balanced(game: Game) -> bool:
    """Return whether the arena opens ``game`` with :func:`balanced_opening`
    (standard Gomoku: the band of values was measured there only)."""
    return game.name == "gomoku" and (game.options["size"], game.options["row"]) == (
        15,
        5,
    )


def balanced_opening(game: Game, rng: np.random.Generator) -> list[int]:
    """Return the move codes of a balanced opening of standard Gomoku (see
    :data:`BALANCED_VALUES`): random ones drawn until one is balanced, the
    last drawn if none of a thousand is."""
    size, row = game.options["size"], game.options["row"]
    low, high = BALANCED_VALUES
    moves: list[int] = []
    with borrowed_search(size, row) as search:
        for _ in range(1000):
            moves, state = [], game.initial_state()
            for _ in range(BALANCED_PLIES):
                legal = opening_moves(game, state, BALANCED_RADIUS)
                moves.append(legal[int(rng.integers(len(legal)))])
                state = game.apply(state, moves[-1])
            if low <= value_at_depth(search, state.array, BALANCED_DEPTH) <= high:
                break
    return moves


def match_opening(
    game: Game, rng: np.random.Generator, plies: int | None = None
) -> list[int]:
    """Return the move codes of an opening as a match plays them: balanced
    where :func:`opens_balanced` (unless ``plies`` is given), else ``plies``
    random ones (None: :data:`OPENING_PLIES` of the game)."""
    if plies is None and opens_balanced(game):
        return balanced_opening(game, rng)
    if plies is None:
        plies = OPENING_PLIES.get(game.name, 0)
    return random_opening(game, plies, rng)

"""Game-independent numba kernels: dispatch on a game id, perft, random playouts.

Numba caches a compiled function only when the functions it calls are plain
module globals (not arguments, not closures), so search-level code that must
serve all three games calls the functions here, which branch on ``game_id``
to the games' own kernels. The branch costs nothing next to a move generation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import gomoku, loa, reversi
from .base import MAX_MOVES, ONGOING

REVERSI_ID = reversi.GAME_ID
GOMOKU_ID = gomoku.GAME_ID
LOA_ID = loa.GAME_ID


@njit(cache=True, nogil=True)
def legal_moves(game_id, state, out):
    """Write the legal move codes of ``state`` into ``out``; return their count."""
    if game_id == REVERSI_ID:
        return reversi.legal_moves(state, out)
    if game_id == GOMOKU_ID:
        return gomoku.legal_moves(state, out)
    return loa.legal_moves(state, out)


@njit(cache=True, nogil=True)
def apply_move(game_id, state, move):
    """Play the legal ``move`` on ``state`` in place."""
    if game_id == REVERSI_ID:
        reversi.apply_move(state, move)
    elif game_id == GOMOKU_ID:
        gomoku.apply_move(state, move)
    else:
        loa.apply_move(state, move)


@njit(cache=True, nogil=True)
def status(game_id, state):
    """Return ONGOING, BLACK_WINS, WHITE_WINS or DRAW for ``state``."""
    if game_id == REVERSI_ID:
        return reversi.status(state)
    if game_id == GOMOKU_ID:
        return gomoku.status(state)
    return loa.status(state)


@njit(cache=True, nogil=True)
def side_to_move(game_id, state):
    """Return 0 (black) or 1 (white): the side to move in ``state``."""
    if game_id == REVERSI_ID:
        return reversi.side_to_move(state)
    if game_id == GOMOKU_ID:
        return gomoku.side_to_move(state)
    return loa.side_to_move(state)


@njit(cache=True, nogil=True)
def render_state(game_id, state, out):
    """Write ``Game.state_string(state)`` as ASCII bytes into ``out`` (room for
    ``STATE_STRING_ROOM`` bytes); return its length."""
    if game_id == REVERSI_ID:
        return reversi.render_state(state, out)
    if game_id == GOMOKU_ID:
        return gomoku.render_state(state, out)
    return loa.render_state(state, out)


@njit(cache=True, nogil=True)
def random_playout(game_id, state):
    """Play random moves on ``state`` in place to the end; return the final status."""
    if game_id == REVERSI_ID:
        return reversi.random_playout(state)
    if game_id == GOMOKU_ID:
        return gomoku.random_playout(state)
    return loa.random_playout(state)


@njit(cache=True, nogil=True)
def seed(value):
    """Seed the kernels' random generator (numba keeps its own, apart from numpy's)."""
    np.random.seed(value)


@njit(cache=True, nogil=True)
def perft(game_id, root, depth):
    """Return the number of leaf positions ``depth`` plies below ``root``.

    A pass counts as a move and a finished game is a leaf wherever it ends.
    Iterative, with one state and one move list per ply, so no recursion and no
    allocation inside the walk.
    """
    if depth == 0 or status(game_id, root) != ONGOING:
        return 1
    states = np.empty((depth + 1, root.shape[0]), dtype=root.dtype)
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    cursor = np.zeros(depth, dtype=np.int64)
    states[0, :] = root
    counts[0] = legal_moves(game_id, states[0], moves[0])
    leaves = 0
    ply = 0
    while ply >= 0:
        if cursor[ply] == counts[ply]:
            ply -= 1
            continue
        child = states[ply + 1]
        child[:] = states[ply]
        apply_move(game_id, child, moves[ply, cursor[ply]])
        cursor[ply] += 1
        if ply + 1 == depth or status(game_id, child) != ONGOING:
            leaves += 1
            continue
        ply += 1
        counts[ply] = legal_moves(game_id, child, moves[ply])
        cursor[ply] = 0
    return leaves


@njit(cache=True, nogil=True)
def playouts_for(game_id, root, count):
    """Return [black wins, white wins, draws] of ``count`` random playouts."""
    tally = np.zeros(3, dtype=np.int64)
    work = np.empty_like(root)
    for _ in range(count):
        work[:] = root
        tally[status_index(random_playout(game_id, work))] += 1
    return tally


@njit(cache=True, nogil=True)
def status_index(code):
    """Map a final status (1, 2, 3) to 0, 1, 2."""
    return code - 1

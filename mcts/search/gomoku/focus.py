"""In-tree move focus: the moves a game's knowledge keeps out of the tree.

Only Gomoku prunes: on an empty board all but the centre, else all but the
few moves near the stones that best build and block rows
(:func:`gomoku_move_score`). The searcher turns focus on with the heavy
evaluator (:class:`~mcts.search.searcher.Searcher`'s ``focus``); the kernel
calls :func:`focus_moves` when it expands a node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...games import gomoku
from ...games.base import MAX_MOVES
from ..rollouts import window_start
from .shapes import board_cells, shape_move_score
from .threats.lines import cells_of, exact_five, win_cells

#: Gomoku tree moves are kept to this Chebyshev distance of a stone...
GOMOKU_FOCUS_DISTANCE = 2
#: ...and to this many of those, the best by :func:`gomoku_move_score`
#: (the searcher's ``focus_width``, the players' ``width`` option).
#: Tuned by 100-game matches at 0.1 s/move against the distance rule alone
#: (width 10 and width 5 each won 100-0), then against width 10 (width 5: 89.0%) and
#: width 5 (width 3: 55.0%, width 1, no search at all: 16.5%); at 1 s/move
#: width 5 scored 87.5% against width 12 (40 games).
GOMOKU_FOCUS_WIDTH = 5
#: ...and at the root of a search, this many (the players' ``root_width``):
#: the move that keeps a won game won is often not among the 5 (Rapfi's
#: winning move was in only half the positions where we lost the win). In
#: 217 positions that Rapfi proves won, our move at 1 s kept the win in 74.7%
#: at root width 10 against 69.1% at 5 (``python -m mcts.lab conversion``,
#: docs/experiments).
GOMOKU_ROOT_WIDTH = 10
#: The worth of a window of ``row`` cells through a move that holds stones
#: of one colour only, by how many more that colour needs to complete it:
#: 0 (the move completes a row), 1, 2, 3; windows needing more count 0.
GOMOKU_WINDOW_WEIGHTS = np.array([4096.0, 64.0, 8.0, 1.0])
#: Blocking a window counts this fraction of building the same window.
GOMOKU_BLOCK_WEIGHT = 0.9


@njit(cache=True, nogil=True)
def focus_moves(game_id, state, moves, count, width=GOMOKU_FOCUS_WIDTH, shapes=0):
    """Drop moves that the game's knowledge says are never worth a tree node;
    return the new count (the kept moves stay at the front of ``moves``).

    Only Gomoku prunes. On an empty board only the centre is kept: it leaves
    the most room for rows (players open there), and rollouts cannot tell
    first moves apart. Otherwise the intersections within
    GOMOKU_FOCUS_DISTANCE of a stone are kept (others can neither block nor
    extend a line), and of those the ``width`` best by
    :func:`gomoku_move_score` (with ``shapes``, by the line shapes they make
    and block, :func:`mcts.search.gomoku.shapes.shape_move_score`), ties
    broken at random. A rollout may still
    play a dropped move. A proof that every move loses then covers only the
    kept moves: a practical, not a strict, proof; a move that wins or blocks
    a win scores far above any other, so it is always kept.
    """
    if game_id != gomoku.GAME_ID:
        return count
    size = np.int64(state[gomoku.SIZE])
    if count == size * size:  # an empty board: every intersection is legal
        moves[0] = (size // 2) * size + size // 2
        return 1
    kept = _near_stones(state, size, moves, count)
    if kept == 0:
        return count
    return _best_scored(state, moves, kept, width, shapes)


@njit(cache=True, nogil=True)
def _near_stones(state, size, moves, count):
    """Keep the moves within GOMOKU_FOCUS_DISTANCE of a stone at the front of
    ``moves``; return how many."""
    kept = 0
    for i in range(count):
        cell = moves[i]
        r0 = cell // size
        c0 = cell % size
        near = False
        for r in range(
            max(0, r0 - GOMOKU_FOCUS_DISTANCE),
            min(size, r0 + GOMOKU_FOCUS_DISTANCE + 1),
        ):
            for c in range(
                max(0, c0 - GOMOKU_FOCUS_DISTANCE),
                min(size, c0 + GOMOKU_FOCUS_DISTANCE + 1),
            ):
                if state[gomoku.HEADER + r * size + c] != np.uint64(0):
                    near = True
                    break
            if near:
                break
        if near:
            moves[kept] = cell
            kept += 1
    return kept


def beginner_moves(state: np.ndarray, legal: list[int]) -> list[int]:
    """Return the moves of ``legal`` within GOMOKU_FOCUS_DISTANCE of a stone
    (on an empty board, of the centre), or all of them if none is: the
    moves a weak level's random move is drawn from. A stone far from the
    others, which nobody plays, told the player the computer was broken."""
    size = int(state[gomoku.SIZE])
    board = np.asarray(state[gomoku.HEADER : gomoku.HEADER + size * size])
    stones = np.argwhere(board.reshape(size, size) != 0)
    if not len(stones):
        stones = np.array([[size // 2, size // 2]])
    near = [
        code
        for code in legal
        if np.abs(stones - divmod(code, size)).max(axis=1).min()
        <= GOMOKU_FOCUS_DISTANCE
    ]
    return near or legal


@njit(cache=True, nogil=True)
def _best_scored(state, moves, count, width, shapes):
    """Keep the ``width`` best-scored of ``moves[:count]`` at the front, best
    first; return how many are kept."""
    if count <= width:
        return count
    scores = np.empty(count, dtype=np.float64)
    if shapes > 0:
        cells = board_cells(state)
        size = np.int64(state[gomoku.SIZE])
        row = np.int64(state[gomoku.ROW])
        mover = np.int64(state[gomoku.SIDE]) + 1
        for i in range(count):
            # The window score breaks ties between equal shapes.
            scores[i] = (
                shape_move_score(cells, size, row, mover, moves[i])
                + 0.001 * gomoku_move_score(state, moves[i])
                + 0.0001 * np.random.random()
            )
    else:
        for i in range(count):
            # Scores are multiples of 0.1: the jitter only breaks ties.
            scores[i] = gomoku_move_score(state, moves[i]) + 0.01 * np.random.random()
    best = moves[np.argsort(-scores)[:width]]
    moves[:width] = best
    return width


@njit(cache=True, nogil=True)
def gomoku_move_score(state, cell):
    """Return how much placing the mover's stone on the empty ``cell`` builds
    and blocks: over every window of ``row`` cells through it, in the four
    directions, GOMOKU_WINDOW_WEIGHTS of the windows it extends (none of the
    opponent's stones) plus GOMOKU_BLOCK_WEIGHT times those of the windows
    it blocks (none of the mover's)."""
    size = np.int64(state[gomoku.SIZE])
    row = np.int64(state[gomoku.ROW])
    mover = np.int64(state[gomoku.SIDE]) + 1
    score = 0.0
    for d in range(4):
        step = gomoku.DIRECTIONS[d, 0] * size + gomoku.DIRECTIONS[d, 1]
        for back in range(row):
            start = window_start(size, row, cell, d, back)
            if start < 0:
                continue
            own, other = gomoku.window_stones(state, start, step, row, mover)
            if other == 0 and row - 1 - own < 4:
                score += GOMOKU_WINDOW_WEIGHTS[row - 1 - own]
            if own == 0 and row - 1 - other < 4:
                score += GOMOKU_BLOCK_WEIGHT * GOMOKU_WINDOW_WEIGHTS[row - 1 - other]
    return score


@njit(cache=True, nogil=True)
def replies_covered(game_id, state, kept):
    """Return whether ``kept`` moves that focus kept at ``state`` hold every
    reply that might not lose, so that a proof that they all lose is strict:
    true when focus dropped no move near a stone, or when the player to move
    must block a four (every other move loses at once, and the block scores
    above any other so it is kept). Other games prune nothing."""
    if game_id != gomoku.GAME_ID:
        return True
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = gomoku.legal_moves(state, moves)
    if kept >= focus_moves(
        game_id, state, moves, count, np.int64(MAX_MOVES), np.int64(0)
    ):
        return True
    cells, size, row = cells_of(state)
    opponent = 2 - np.int64(state[gomoku.SIDE])  # colours: 1 black, 2 white
    exact = exact_five(np.int64(state[gomoku.RULE]), opponent)
    return win_cells(cells, (size, row), opponent, moves, exact) > 0

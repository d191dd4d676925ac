"""Leaf evaluators: numba rollout policies that score a position for black.

Every evaluator takes a non-terminal state vector (which it may overwrite:
the search hands it a scratch copy) and returns the expected score for
**black** in [0, 1]: 1 a black win, 0 a white win, 0.5 a draw, or a fraction
when a rollout is cut off and scored by an evaluation function.

The search calls :func:`evaluate` with an integer evaluator id and branches
here, so that numba can cache the whole search loop (functions passed as
arguments would force a recompile in every process).

- :data:`RANDOM` (``"random"``): uniformly random moves to the end
  (:func:`mcts.games.kernels.random_playout`).
- :data:`HEAVY` (``"heavy"``): a game-specific policy (the default player).
  Given the learned evaluation of a tree model (:mod:`mcts.search.learned`), the
  Reversi and Gomoku rollouts stop after :data:`LEARNED_CUTOFF_PLIES` plies
  (Gomoku: at the first quiet position from there, with no win to take or
  block, and only from leaves before :data:`GOMOKU_LEARNED_MAX_FILL`) and
  the evaluation scores the position; without one they play to the end.

  * Reversi: roulette-wheel moves weighted by a static square table: corners
    100, edges 10, inner squares 5, and the X- and C-squares next to an empty
    corner 0.5 and 2 (they hand the corner over), back to normal once the
    corner is taken.
  * Gomoku: win now if possible, else block the opponent's immediate win, else
    play next to the stones (within distance 2) with high probability. Winning
    cells are kept in per-colour lists updated from the windows through each
    new stone, so a ply costs O(row**2), not a board scan.
  * Lines of Action (MC-LOA, after Winands and Björnsson): moves weighted toward
    the centre and toward captures, and an evaluation cut-off. Given LOA's
    search parameters as ``learned`` (:mod:`mcts.search.loa.config`) the
    MIA-style evaluation stops the rollout once decisive, else scores it
    after a few plies (:mod:`mcts.search.loa.search`).

:func:`~mcts.search.gomoku.focus.focus_moves` (in
:mod:`mcts.search.gomoku.focus`) is the other piece of game knowledge: it
prunes moves from the tree; LOA's static evaluation is in
:mod:`mcts.search.loa.evaluation`.

It holds the three games' rollout policies side by side with
:func:`evaluate`, which dispatches to them by game id: one place to read
what a leaf evaluation does in each game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import gomoku, kernels, loa, reversi
from ..games.base import BLACK, BLACK_WINS, DRAW, ONGOING, WHITE_WINS
from ..games.bitboard import bit_square
from .features import position_value
from .loa import search as loa_search
from .reversi.patterns import pattern_win_chance

RANDOM = 0
HEAVY = 1

#: Plies a heavy rollout plays, by game, before a learned evaluation scores
#: the position (the searcher's ``cutoff_plies``); Gomoku's 0 plays only the
#: wins and blocks that make a position quiet. Tuned by 100-game matches at
#: 0.1 s a move (docs/models.md, "Tuning the search for the evaluation").
LEARNED_CUTOFF_PLIES = {"reversi": 4, "gomoku": 0}
#: A Gomoku rollout from a leaf with at least this share of the board
#: filled plays to the end instead (15x15: 40 stones): past the early
#: middle game, rollouts judged better than the evaluation (docs/models.md,
#: "Tuning the search for the evaluation").
GOMOKU_LEARNED_MAX_FILL = 40 / 225
#: A rollout's ply limit when nothing scores a position before the end.
TO_THE_END = 1 << 30

#: Evaluator names (as used in player specs) and their kernel ids.
EVALUATORS = {"random": RANDOM, "heavy": HEAVY}


def evaluator_id(name: str) -> int:
    """Return the kernel id of the evaluator called ``name``; ValueError if unknown."""
    try:
        return EVALUATORS[name]
    except KeyError:
        raise ValueError(
            f"unknown evaluator {name!r}; expected one of {', '.join(EVALUATORS)}"
        ) from None


@njit(cache=True, nogil=True)
def terminal_reward(code):
    """Return black's score for a final status: 1.0, 0.0 or 0.5."""
    if code == BLACK_WINS:
        return 1.0
    if code == WHITE_WINS:
        return 0.0
    return 0.5


@njit(cache=True, nogil=True)
def evaluate(evaluator, game_id, state, learned, cutoff, patterns=None):
    """Return black's expected score of ``state`` by the evaluator ``evaluator``.

    ``learned`` holds the weights of a learned evaluation (empty for none),
    which heavy rollouts use after ``cutoff`` plies; ``patterns`` (Reversi)
    the weights of the pattern evaluation, over its logistic scale (none, or
    no rows, for none), which then takes the learned evaluation's place.
    ``state`` is overwritten (it ends as the rollout's final position).
    """
    if evaluator == HEAVY:
        return heavy_rollout(game_id, state, learned, cutoff, patterns)
    return terminal_reward(kernels.random_playout(game_id, state))


@njit(cache=True, nogil=True, inline="always")
def heavy_rollout(game_id, state, learned, cutoff, patterns=None):
    """Return black's score from the game's heavy rollout policy, cut off
    after ``cutoff`` plies and scored by the ``learned`` weights when there
    are any and they serve ``state`` (:func:`learned_serves`); in Reversi
    scored by the ``patterns`` instead when there are any
    (:func:`reversi_pattern_leaf`)."""
    if game_id == loa.GAME_ID:  # learned: LOA's search parameters (loa.config)
        if learned.shape[0] < loa_search.PARAM_COUNT:  # none given: a plain playout
            return terminal_reward(kernels.random_playout(game_id, state))
        return loa_search.rollout(state, learned)
    if patterns is not None and game_id == reversi.GAME_ID and patterns.shape[0] > 0:
        return reversi_pattern_leaf(state, cutoff, patterns)
    plies = TO_THE_END
    if learned.shape[0] > 0 and learned_serves(game_id, state):
        plies = cutoff
    if game_id == reversi.GAME_ID:
        code = reversi_rollout(state, plies)
    else:
        code = gomoku_rollout(state, plies)
    if code != ONGOING:
        return terminal_reward(code)
    mover_wins = position_value(game_id, state, learned)
    if kernels.side_to_move(game_id, state) == BLACK:
        return mover_wins
    return 1.0 - mover_wins


@njit(cache=True, nogil=True)
def learned_serves(game_id, state):
    """Return whether a learned evaluation scores rollouts from ``state``:
    always in Reversi, in Gomoku while less than GOMOKU_LEARNED_MAX_FILL of
    the board is filled."""
    if game_id != gomoku.GAME_ID:
        return True
    size = np.int64(state[gomoku.SIZE])
    return np.int64(state[gomoku.STONES]) < GOMOKU_LEARNED_MAX_FILL * (size * size)


# ---- Reversi ----------------------------------------------------------------------
def _reversi_tables():
    """Return (base weights, corner of each X/C square or -1, weight once that
    corner is taken), indexed by square code (row * 8 + col, a1 top-left)."""
    base = np.full(64, 5.0)
    corner_of = np.full(64, -1, dtype=np.int64)
    for sq in range(64):
        row, col = divmod(sq, 8)
        if row in (0, 7) or col in (0, 7):
            base[sq] = 10.0
    settled = base.copy()
    for corner in (0, 7, 56, 63):
        row, col = divmod(corner, 8)
        base[corner] = 100.0
        dr = 1 if row == 0 else -1
        dc = 1 if col == 0 else -1
        x_square = (row + dr) * 8 + col + dc
        # An X-square hands the corner over; a C-square often does.
        base[x_square], settled[x_square] = 0.5, 5.0
        corner_of[x_square] = corner
        for c_square in ((row + dr) * 8 + col, row * 8 + col + dc):
            base[c_square], settled[c_square] = 2.0, 10.0
            corner_of[c_square] = corner
    return base, corner_of, settled


REVERSI_WEIGHT, REVERSI_CORNER_OF, REVERSI_SETTLED_WEIGHT = _reversi_tables()
_CORNERS = np.uint64((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True, nogil=True)
def reversi_rollout(state, plies):
    """Play weighted random Reversi moves on ``state`` in place, at most
    ``plies`` of them (a pass counts); return the status where it stops
    (ONGOING if the game goes on)."""
    weights = np.empty(64, dtype=np.float64)
    squares = np.empty(64, dtype=np.int64)
    for _ in range(plies):
        side = np.int64(state[reversi.SIDE])
        own = state[side]
        opp = state[1 - side]
        mobile = reversi.mobility(own, opp)
        if mobile == _ZERO:
            if reversi.mobility(opp, own) == _ZERO:
                return reversi.status(state)
            reversi.apply_move(state, reversi.PASS)
            continue
        occupied = own | opp
        count = 0
        total = 0.0
        bits = mobile
        while bits != _ZERO:
            low = bits & (~bits + _ONE)
            bits ^= low
            sq = bit_square(low)
            w = REVERSI_WEIGHT[sq]
            corner = REVERSI_CORNER_OF[sq]
            if corner >= 0 and (occupied >> np.uint64(corner)) & _ONE:
                w = REVERSI_SETTLED_WEIGHT[sq]
            squares[count] = sq
            total += w
            weights[count] = total
            count += 1
        pick = np.random.random() * total
        chosen = squares[count - 1]
        for i in range(count):
            if pick < weights[i]:
                chosen = squares[i]
                break
        reversi.apply_move(state, chosen)
    return reversi.status(state)


@njit(cache=True, nogil=True)
def reversi_pattern_leaf(state, plies, patterns):
    """Return black's score of a Reversi leaf: ``plies`` heavy-rollout plies,
    then the logistic of the pattern evaluation's predicted margin
    (:mod:`mcts.search.reversi.patterns`; ``patterns`` are its weights over
    the logistic's scale)."""
    code = reversi_rollout(state, plies)
    if code != ONGOING:
        return terminal_reward(code)
    side = np.int64(state[reversi.SIDE])
    mover_wins = pattern_win_chance(state[side], state[1 - side], patterns, 1.0)
    return mover_wins if side == BLACK else 1.0 - mover_wins


# ---- Gomoku -----------------------------------------------------------------------
#: Chance that a quiet Gomoku rollout move is played next to the stones.
GOMOKU_NEAR_PROBABILITY = 0.9


@njit(cache=True, nogil=True)
def _set_remove(items, where, count, cell):
    """Remove ``cell`` from the index set (items, where); return the new count."""
    i = where[cell]
    if i < 0:
        return count
    count -= 1
    last = items[count]
    items[i] = last
    where[last] = i
    where[cell] = -1
    return count


@njit(cache=True, nogil=True)
def _set_add(items, where, count, cell):
    """Add ``cell`` to the index set (items, where) if absent; return the new count."""
    if where[cell] >= 0:
        return count
    items[count] = cell
    where[cell] = count
    return count + 1


@njit(cache=True, nogil=True)
def window_start(size, row, cell, d, back):
    """Return the first cell of the window of ``row`` cells along direction
    ``d`` (a row of gomoku.DIRECTIONS) that holds ``cell`` ``back`` cells from its
    start, or -1 if that window leaves the board; its cells are then
    ``start + k * (dr * size + dc)``."""
    dr = gomoku.DIRECTIONS[d, 0]
    dc = gomoku.DIRECTIONS[d, 1]
    rs = cell // size - back * dr
    cs = cell % size - back * dc
    re = rs + (row - 1) * dr
    ce = cs + (row - 1) * dc
    if min(rs, cs, re, ce) < 0 or max(rs, cs, re, ce) >= size:
        return -1
    return rs * size + cs


@njit(cache=True, nogil=True)
def _add_threats(cells, size, row, cell, colour, threats, n_threats):
    """Append to ``threats`` the empty cells that would complete a row for
    ``colour`` in a window through ``cell``; return the new count."""
    for d in range(4):
        step = gomoku.DIRECTIONS[d, 0] * size + gomoku.DIRECTIONS[d, 1]
        for back in range(row):
            start = window_start(size, row, cell, d, back)
            if start < 0:
                continue
            own = 0
            empty = -1
            blocked = False
            for k in range(row):
                value = cells[start + k * step]
                if value == colour:
                    own += 1
                elif value == 0:
                    if empty >= 0:
                        blocked = True
                        break
                    empty = start + k * step
                else:
                    blocked = True
                    break
            full = n_threats >= threats.shape[0]
            if not blocked and own == row - 1 and empty >= 0 and not full:
                threats[n_threats] = empty
                n_threats += 1
    return n_threats


@njit(cache=True, nogil=True)
def _live_threat(cells, threats, n_threats):
    """Return (an empty cell of ``threats`` or -1, the count once filled cells
    are dropped)."""
    i = 0
    while i < n_threats:
        cell = threats[i]
        if cells[cell] == 0:
            return cell, n_threats
        n_threats -= 1
        threats[i] = threats[n_threats]
    return -1, n_threats


@njit(cache=True, nogil=True)
def gomoku_rollout(state, plies):
    """Play a Gomoku rollout (win now, else block, else near the stones);
    return the final status, or, once ``plies`` plies are played and the
    position is quiet (nothing to win or block), ONGOING with that position
    written into ``state``."""
    size = np.int64(state[gomoku.SIZE])
    row = np.int64(state[gomoku.ROW])
    side = np.int64(state[gomoku.SIDE])
    n = size * size
    cells = np.empty(n, dtype=np.int64)
    for i in range(n):
        cells[i] = np.int64(state[gomoku.HEADER + i])
    empties = np.empty(n, dtype=np.int64)
    empty_at = np.full(n, -1, dtype=np.int64)
    near = np.empty(n, dtype=np.int64)
    near_at = np.full(n, -1, dtype=np.int64)
    n_empty = 0
    n_near = 0
    for i in range(n):
        if cells[i] == 0:
            n_empty = _set_add(empties, empty_at, n_empty, i)
    capacity = 8 * n + 64
    threats = np.empty((2, capacity), dtype=np.int64)
    n_threats = np.zeros(2, dtype=np.int64)
    for i in range(n):
        if cells[i] != 0:
            n_near = _mark_near(cells, size, i, near, near_at, n_near)
            colour = cells[i]
            n_threats[colour - 1] = _add_threats(
                cells, size, row, i, colour, threats[colour - 1], n_threats[colour - 1]
            )
    ply = 0
    while n_empty > 0:
        colour = side + 1
        cell, n_threats[side] = _live_threat(cells, threats[side], n_threats[side])
        if cell >= 0:  # completes a row: the mover wins
            return BLACK_WINS if side == 0 else WHITE_WINS
        cell, n_threats[1 - side] = _live_threat(
            cells, threats[1 - side], n_threats[1 - side]
        )
        if cell < 0:
            if ply >= plies:  # a quiet position: no win to take, none to block
                for i in range(n):
                    state[gomoku.HEADER + i] = np.uint64(cells[i])
                state[gomoku.SIDE] = np.uint64(side)
                state[gomoku.STONES] = np.uint64(n - n_empty)
                return ONGOING
            if n_near > 0 and np.random.random() < GOMOKU_NEAR_PROBABILITY:
                cell = near[np.random.randint(0, n_near)]
            else:
                cell = empties[np.random.randint(0, n_empty)]
        cells[cell] = colour
        n_empty = _set_remove(empties, empty_at, n_empty, cell)
        n_near = _set_remove(near, near_at, n_near, cell)
        n_near = _mark_near(cells, size, cell, near, near_at, n_near)
        n_threats[side] = _add_threats(
            cells, size, row, cell, colour, threats[side], n_threats[side]
        )
        side = 1 - side
        ply += 1
    return DRAW


@njit(cache=True, nogil=True)
def _mark_near(cells, size, cell, near, near_at, n_near):
    """Add the empty cells within distance 2 of ``cell`` to the near set;
    return the set's new size."""
    r0 = cell // size
    c0 = cell % size
    for r in range(max(0, r0 - 2), min(size, r0 + 3)):
        for c in range(max(0, c0 - 2), min(size, c0 + 3)):
            other = r * size + c
            if cells[other] == 0:
                n_near = _set_add(near, near_at, n_near, other)
    return n_near

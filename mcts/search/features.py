"""Position features for the learned evaluation, as numba kernels.

A tree model carries an evaluation fitted to its own positions and values
(:mod:`mcts.search.learned`); this module says what it looks at. Each game has
one feature function that writes the features of a position into ``out``,
every one **from the view of the side to move** (its own minus the
opponent's, or its own and the opponent's apart), and returns the game's
stage in [0, 1]: how far the game has gone (-1 for a position that is not
quiet: one a rollout plays on from). The evaluation is a logistic of a
linear form whose weights vary with the stage (:func:`position_value`)::

    P(the side to move wins) = 1 / (1 + exp(-sum_k f_k * (a_k + b_k s + c_k s**2)))

The names of each game's features are in :data:`FEATURE_NAMES`; the weights
are learnt, never set by hand. Games without a feature set (Lines of Action,
whose rollouts have a hand-made evaluation) get no learned evaluation.

>>> from mcts.games import find_game
>>> game = find_game("reversi")
>>> out = np.zeros(feature_count(game.game_id))
>>> stage = features(game.game_id, game.initial_state().array, out)
>>> stage, float(out[FEATURE_NAMES["reversi"].index("mobility")])
(0.0, 0.0)
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..games import gomoku, reversi
from ..games.bitboard import bit_square, popcount

#: Every weight comes in this many stage terms: constant, linear, quadratic.
STAGE_TERMS = 3

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)


# ---- Reversi ------------------------------------------------------------------------
def _reversi_square_classes():
    """Return (class of each square under the board's 8 symmetries, 0..9 in
    the order a1 b1 c1 d1 b2 c2 d2 c3 d3 d4; the corner next to each X- and
    C-square, else -1; 1 for X-squares)."""
    order = [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3)]
    order.append((3, 3))
    classes = np.zeros(64, dtype=np.int64)
    for square in range(64):
        row, col = divmod(square, 8)
        a, b = sorted((min(row, 7 - row), min(col, 7 - col)))
        classes[square] = order.index((a, b))
    corner_of = np.full(64, -1, dtype=np.int64)
    is_x = np.zeros(64, dtype=np.int64)
    for corner in (0, 7, 56, 63):
        row, col = divmod(corner, 8)
        dr = 1 if row == 0 else -1
        dc = 1 if col == 0 else -1
        x_square = (row + dr) * 8 + col + dc
        corner_of[x_square] = corner
        is_x[x_square] = 1
        for c_square in ((row + dr) * 8 + col, row * 8 + col + dc):
            corner_of[c_square] = corner
    return classes, corner_of, is_x


_REVERSI_CLASS, _REVERSI_CORNER_OF, _REVERSI_IS_X = _reversi_square_classes()

REVERSI_FEATURES = (
    "discs a1",  # corners
    "discs b1, corner empty",  # C-squares
    "discs c1",
    "discs d1",
    "discs b2, corner empty",  # X-squares
    "discs c2",
    "discs d2",
    "discs c3",
    "discs d3",
    "discs d4",
    "discs b1, corner taken",
    "discs b2, corner taken",
    "mobility",
    "mobility share",
    "potential mobility",
    "frontier",
    "edge discs held from a corner",
    "parity",
    "bias",
)
_R_TAKEN_C = 10
_R_MOBILITY = 12


@njit(cache=True, nogil=True)
def _grow(x):
    """Return the squares 8-adjacent to the bitboard ``x`` (and ``x``)."""
    x = x | ((x << _ONE) & _NOT_FILE_A) | ((x >> _ONE) & _NOT_FILE_H)
    return x | (x << np.uint64(8)) | (x >> np.uint64(8))


@njit(cache=True, nogil=True)
def _run_from(discs, square, step):
    """Return how many of the 7 squares from ``square`` along an edge, by
    ``step``, are in ``discs`` without a gap."""
    count = 0
    for _ in range(7):
        if not (discs >> np.uint64(square)) & _ONE:
            break
        count += 1
        square += step
    return count


@njit(cache=True, nogil=True)
def _anchored_edge_discs(discs):
    """Return the discs of ``discs`` on an edge in an unbroken line from a
    corner it holds (a corner counts once per edge): they can never flip."""
    total = 0
    for corner, along, across in ((0, 1, 8), (7, -1, 8), (56, 1, -8), (63, -1, -8)):
        if (discs >> np.uint64(corner)) & _ONE:
            total += _run_from(discs, corner, along) + _run_from(discs, corner, across)
    return total


@njit(cache=True, nogil=True)
def reversi_features(state, out):
    """Write the Reversi features (see :data:`REVERSI_FEATURES`) of ``state``
    into ``out``; return the stage (discs on the board - 4) / 60."""
    side = np.int64(state[reversi.SIDE])
    own = state[side]
    opp = state[1 - side]
    out[:] = 0.0
    occupied = own | opp
    bits = occupied
    while bits != _ZERO:
        low = bits & (~bits + _ONE)
        bits ^= low
        square = bit_square(low)
        sign = 1.0 if own & low else -1.0
        corner = _REVERSI_CORNER_OF[square]
        if corner >= 0 and (occupied >> np.uint64(corner)) & _ONE:
            out[_R_TAKEN_C + _REVERSI_IS_X[square]] += sign
        else:
            out[_REVERSI_CLASS[square]] += sign
    own_moves = float(popcount(reversi.mobility(own, opp)))
    opp_moves = float(popcount(reversi.mobility(opp, own)))
    out[_R_MOBILITY] = own_moves - opp_moves
    out[_R_MOBILITY + 1] = (own_moves - opp_moves) / (own_moves + opp_moves + 1.0)
    empty = ~occupied
    out[_R_MOBILITY + 2] = float(
        popcount(empty & _grow(opp)) - popcount(empty & _grow(own))
    )
    near_empty = _grow(empty)
    out[_R_MOBILITY + 3] = float(
        popcount(opp & near_empty) - popcount(own & near_empty)
    )
    out[_R_MOBILITY + 4] = float(_anchored_edge_discs(own) - _anchored_edge_discs(opp))
    discs = popcount(occupied)
    # With an odd number of empty squares the side to move gets the last one.
    out[_R_MOBILITY + 5] = 1.0 if (64 - discs) % 2 == 1 else -1.0
    out[_R_MOBILITY + 6] = 1.0
    return (discs - 4) / 60.0


# ---- Gomoku -------------------------------------------------------------------------
GOMOKU_FEATURES = (
    "own windows needing 2",
    "own windows needing 3",
    "own windows needing 4",
    "opponent windows needing 2",
    "opponent windows needing 3",
    "opponent windows needing 4",
    "own cells making a four",
    "own cells making two fours",
    "opponent cells making a four",
    "opponent cells making two fours",
    "own cells making an open three",
    "own cells making a four and a three",
    "own cells making two threes",
    "opponent cells making an open three",
    "opponent cells making a four and a three",
    "opponent cells making two threes",
    "bias",
)


@njit(cache=True, nogil=True)
def gomoku_features(state, out):
    """Write the Gomoku features (see :data:`GOMOKU_FEATURES`) of ``state``
    into ``out``; return the stage (stones / intersections), or -1.0 when
    the position is not quiet: a side has a window one stone from a row
    (the side to move wins at once, or must block), which the evaluation is
    not for.

    A window is a line of ``row`` intersections; it counts for a side when
    it holds that side's stones only, by how many more the side needs to
    fill it (log(1 + count), so the first few count most). A cell makes a
    four when a stone there leaves a window one stone short, two fours when
    it does so in two windows; it makes a three along a line when a stone
    there leaves two windows of that line two stones short (an open three
    or a split one), and the cells that make a four and a three, or threes
    along two lines, are the forks that win unless the opponent is quicker.
    """
    size = np.int64(state[gomoku.SIZE])
    row = np.int64(state[gomoku.ROW])
    mover = np.int64(state[gomoku.SIDE]) + 1
    n = size * size
    counts = np.zeros((2, 5), dtype=np.int64)
    # Windows two (fours) and three (threes) short through each empty cell,
    # by side and line direction.
    fours = np.zeros((2, 4, n), dtype=np.int64)
    threes = np.zeros((2, 4, n), dtype=np.int64)
    for d in range(4):
        dr = gomoku.DIRECTIONS[d, 0]
        dc = gomoku.DIRECTIONS[d, 1]
        step = dr * size + dc
        for r in range(size - (row - 1) * dr):
            for c in range(size):
                end_c = c + (row - 1) * dc
                if end_c < 0 or end_c >= size:
                    continue
                start = r * size + c
                own, other = gomoku.window_stones(state, start, step, row, mover)
                for who, stones, rival in ((0, own, other), (1, other, own)):
                    need = row - stones
                    if stones == 0 or rival > 0 or need > 4:
                        continue
                    if need == 1:
                        return -1.0
                    counts[who, need] += 1
                    if need > 3:
                        continue
                    for k in range(row):
                        cell = start + k * step
                        if state[gomoku.HEADER + cell] == _ZERO:
                            if need == 2:
                                fours[who, d, cell] += 1
                            else:
                                threes[who, d, cell] += 1
    for who in range(2):
        out[3 * who] = math.log1p(counts[who, 2])
        out[3 * who + 1] = math.log1p(counts[who, 3])
        out[3 * who + 2] = math.log1p(counts[who, 4])
        makes_one = 0
        makes_two = 0
        makes_three = 0
        makes_four_three = 0
        makes_two_threes = 0
        for cell in range(n):
            four_total = 0
            four_lines = 0
            three_lines = 0
            for d in range(4):
                four_total += fours[who, d, cell]
                if fours[who, d, cell] > 0:
                    four_lines += 1
                elif threes[who, d, cell] >= 2:
                    three_lines += 1
            if four_total >= 1:
                makes_one += 1
            if four_total >= 2:
                makes_two += 1
            if three_lines >= 1:
                makes_three += 1
            if four_lines >= 1 and three_lines >= 1:
                makes_four_three += 1
            if three_lines >= 2:
                makes_two_threes += 1
        out[6 + 2 * who] = math.log1p(makes_one)
        out[7 + 2 * who] = math.log1p(makes_two)
        out[10 + 3 * who] = math.log1p(makes_three)
        out[11 + 3 * who] = math.log1p(makes_four_three)
        out[12 + 3 * who] = math.log1p(makes_two_threes)
    out[16] = 1.0
    return float(np.int64(state[gomoku.STONES])) / n


# ---- dispatch -----------------------------------------------------------------------
#: Each game's feature names, in the order of its weights; games that are not
#: here have no learned evaluation.
FEATURE_NAMES = {"reversi": REVERSI_FEATURES, "gomoku": GOMOKU_FEATURES}
_COUNTS = {reversi.GAME_ID: len(REVERSI_FEATURES), gomoku.GAME_ID: len(GOMOKU_FEATURES)}


def feature_count(game_id: int) -> int:
    """Return how many features the game with ``game_id`` has (0: none)."""
    return _COUNTS.get(game_id, 0)


@njit(cache=True, nogil=True)
def features(game_id, state, out):
    """Write the features of ``state`` into ``out``; return the stage in
    [0, 1], or -1.0 for a position that is not quiet (see the game's
    feature function), which the evaluation neither learns from nor scores."""
    if game_id == reversi.GAME_ID:
        return reversi_features(state, out)
    return gomoku_features(state, out)


@njit(cache=True, nogil=True)
def position_value(game_id, state, weights):
    """Return the chance that the side to move in ``state`` wins, by the
    learned ``weights`` (STAGE_TERMS blocks of one weight per feature)."""
    return 1.0 / (1.0 + math.exp(-position_logit(game_id, state, weights)))


@njit(cache=True, nogil=True)
def position_logit(game_id, state, weights):
    """Return the log-odds that the side to move in ``state`` wins, by the
    learned ``weights`` (see :func:`position_value`)."""
    n = weights.shape[0] // STAGE_TERMS
    f = np.empty(n, dtype=np.float64)
    stage = features(game_id, state, f)
    total = 0.0
    for k in range(n):
        total += f[k] * (
            weights[k] + stage * (weights[n + k] + stage * weights[2 * n + k])
        )
    return total

"""Lines of Action's static evaluations, as numba kernels.

:func:`evaluation` is the evaluation in the style of MIA and MC-LOA
(Winands, Björnsson and Uiterwijk): a weighted sum, black's feature minus
white's, of what the strongest LOA programs measure
(:data:`FEATURE_NAMES`):

- **concentration**: how far the pieces lie from their centre of mass,
  beyond the least total distance that many pieces could have (MIA's
  concentration), per piece;
- **centralisation**: the mean of MIA-style piece-square values (the edges
  and corners are poor squares: pieces there are hard to join and easy to
  block);
- **centre of mass**: how central the centre of mass is;
- **quads**: the Euler number of the side's pieces (Gray's 2x2 quad counts,
  8-connectivity), a cheap count of groups minus holes; one solid group is 1;
- **mobility**: the side's moves, captures counting double and moves onto
  the edge half;
- **groups**: the number of 8-connected groups;
- **walls**: enemy pieces the side's pieces hem in on the edge (an edge
  piece whose inward neighbours are all the side's own);
- **tempo**: +1 for the side to move (a move in hand is worth something).

Each feature is scaled so that its range is about a unit;
the weights (:data:`WEIGHTS`) are set by hand after MIA's order of
importance (a match checked mobility's worth: see
:func:`mcts.search.loa.search.make_params`). The score is in evaluation
units; a logistic of it is black's win chance.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ...games import loa
from ...games.bitboard import bit_square, popcount

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_EDGE = np.uint64(0xFF818181818181FF)

#: The evaluation's features, in the order of :data:`WEIGHTS`.
FEATURE_NAMES = (
    "concentration",
    "centralisation",
    "centre_of_mass",
    "quads",
    "mobility",
    "groups",
    "walls",
    "tempo",
)
CONCENTRATION, CENTRALISATION, CENTRE_OF_MASS, QUADS = 0, 1, 2, 3
MOBILITY, GROUPS, WALLS, TEMPO = 4, 5, 6, 7
FEATURE_COUNT = len(FEATURE_NAMES)

#: Hand-set weights, each feature being about a unit wide: concentration
#: first (MIA's strongest term: a win is all pieces together), then
#: centralisation, mobility and the Euler number.
WEIGHTS = np.array([2.0, 1.0, 0.3, 0.3, 0.5, 0.3, 0.2, 0.2])


def _tables():
    """Return (piece-square values / 100, MIA style; the least total
    Chebyshev distance to a centre of n pieces, n = 0..12)."""
    ring_value = (-0.5, 0.0, 0.15, 0.3)
    square = np.zeros(64)
    for sq in range(64):
        row, col = divmod(sq, 8)
        ring = min(row, col, 7 - row, 7 - col)
        square[sq] = ring_value[ring]
    for corner in (0, 7, 56, 63):
        square[corner] = -0.8
    least = np.zeros(13)
    distances = [0] + [1] * 8 + [2] * 16
    for n in range(1, 13):
        least[n] = sum(distances[:n])
    return square, least


SQUARE_VALUE, LEAST_DISTANCE = _tables()
_ROWS = np.array([np.uint64(0xFF) << np.uint64(8 * r) for r in range(8)])
_COLS = np.array([np.uint64(0x0101010101010101) << np.uint64(c) for c in range(8)])


@njit(cache=True, nogil=True)
def _grow(x):
    """Return ``x`` with every square 8-adjacent to it added."""
    x = x | ((x << _ONE) & _NOT_FILE_A) | ((x >> _ONE) & _NOT_FILE_H)
    return x | (x << np.uint64(8)) | (x >> np.uint64(8))


@njit(cache=True, nogil=True)
def groups(pieces):
    """Return the number of 8-connected groups of the bitboard ``pieces``."""
    count = 0
    rest = pieces
    while rest != _ZERO:
        group = rest & (~rest + _ONE)
        while True:
            grown = _grow(group) & rest
            if grown == group:
                break
            group = grown
        rest &= ~group
        count += 1
    return count


@njit(cache=True, nogil=True)
def euler_number(pieces):
    """Return the 8-connectivity Euler number of ``pieces`` (groups minus
    holes) by Gray's quads: (Q1 - Q3 - 2 QD) / 4 over every 2x2 window of
    the board padded by an empty ring."""
    # Windows whose top-right square is on the board: their four squares,
    # each bitboard indexed by that top-right square (row up = bit + 8).
    a = pieces
    b = (pieces << _ONE) & _NOT_FILE_A
    c = pieces << np.uint64(8)
    d = (pieces << np.uint64(9)) & _NOT_FILE_A
    s1 = a ^ b
    c1 = a & b
    s2 = c ^ d
    c2 = c & d
    q1 = popcount((s1 ^ s2) & ~c1 & ~c2)
    q3 = popcount((s1 & c2) | (s2 & c1))
    qd = popcount((a & d & ~b & ~c) | (b & c & ~a & ~d))
    # The 17 windows beyond the top row and the right file hold one or two
    # squares of one line: one piece in them is a Q1, two are neither.
    top = (pieces >> np.uint64(56)) & np.uint64(0xFF)
    q1 += popcount((top ^ (top << _ONE)) & np.uint64(0x1FF))
    right = _ZERO
    for row in range(8):
        right |= ((pieces >> np.uint64(8 * row + 7)) & _ONE) << np.uint64(row)
    # windows i = 0..7 hold rows i-1 and i of file h (row 7 is in `top`'s)
    q1 += popcount((right ^ (right << _ONE)) & np.uint64(0xFF))
    return (q1 - q3 - 2 * qd) / 4.0


@njit(cache=True, nogil=True)
def centre_of_mass(pieces):
    """Return (row, column) of the mean square of ``pieces`` (non-empty)."""
    n = popcount(pieces)
    sum_r = 0
    sum_c = 0
    for i in range(8):
        sum_r += i * popcount(pieces & _ROWS[i])
        sum_c += i * popcount(pieces & _COLS[i])
    return sum_r / n, sum_c / n


@njit(cache=True, nogil=True)
def concentration(pieces):
    """Return MIA's concentration of ``pieces``: the total Chebyshev distance
    to their centre of mass beyond the least that many pieces could have
    around a square, per piece (0: as close as possible)."""
    n = popcount(pieces)
    if n <= 1:
        return 0.0
    mean_r, mean_c = centre_of_mass(pieces)
    total = 0.0
    rest = pieces
    while rest != _ZERO:
        low = rest & (~rest + _ONE)
        rest ^= low
        sq = bit_square(low)
        total += max(abs(sq // 8 - mean_r), abs(sq % 8 - mean_c))
    return max(0.0, total - LEAST_DISTANCE[n]) / n


@njit(cache=True, nogil=True)
def centralisation(pieces):
    """Return the mean piece-square value (:data:`SQUARE_VALUE`) of ``pieces``."""
    n = popcount(pieces)
    if n == 0:
        return 0.0
    total = 0.0
    rest = pieces
    while rest != _ZERO:
        low = rest & (~rest + _ONE)
        rest ^= low
        total += SQUARE_VALUE[bit_square(low)]
    return total / n


@njit(cache=True, nogil=True)
def mobility(own, enemy):
    """Return the weighted moves of the side owning ``own``: a capture counts
    2, a move onto the edge 0.5, any other move 1."""
    occupied = own | enemy
    total = 0.0
    pieces = own
    while pieces != _ZERO:
        low = pieces & (~pieces + _ONE)
        pieces ^= low
        sq = bit_square(low)
        for axis in range(4):
            distance = popcount(loa.LINE[sq, axis] & occupied)
            for d in range(2 * axis, 2 * axis + 2):
                to = loa.TARGET[sq, d, distance]
                if to < 0 or own & loa.BIT[to] != _ZERO:
                    continue
                if loa.BETWEEN[sq, to] & enemy != _ZERO:
                    continue
                if enemy & loa.BIT[to] != _ZERO:
                    total += 2.0
                elif _EDGE & loa.BIT[to] != _ZERO:
                    total += 0.5
                else:
                    total += 1.0
    return total


@njit(cache=True, nogil=True)
def walls(own, enemy):
    """Return how many enemy edge pieces ``own`` walls in: every square next
    to the piece that is off the edge line is ``own``'s."""
    count = 0
    rest = enemy & _EDGE
    while rest != _ZERO:
        low = rest & (~rest + _ONE)
        rest ^= low
        inward = _grow(low) & ~_EDGE & ~low
        if inward != _ZERO and inward & ~own == _ZERO:
            count += 1
    return count


@njit(cache=True, nogil=True)
def side_features(own, enemy, out):
    """Write the features of the side owning ``own`` into ``out`` (tempo left
    0), each signed so that more is better for that side."""
    com_r, com_c = centre_of_mass(own)
    out[CONCENTRATION] = -concentration(own)
    out[CENTRALISATION] = centralisation(own)
    out[CENTRE_OF_MASS] = -max(abs(com_r - 3.5), abs(com_c - 3.5)) / 3.5
    out[QUADS] = -euler_number(own)
    out[MOBILITY] = mobility(own, enemy) / 10.0
    out[GROUPS] = -float(groups(own))
    out[WALLS] = float(walls(own, enemy))
    out[TEMPO] = 0.0


@njit(cache=True, nogil=True)
def features(black, white, side, out):
    """Write black's features minus white's into ``out`` (FEATURE_COUNT
    values; tempo +1 when black is to move, else -1)."""
    other = np.empty(FEATURE_COUNT)
    side_features(black, white, out)
    side_features(white, black, other)
    for k in range(FEATURE_COUNT):
        out[k] -= other[k]
    out[TEMPO] = 1.0 if side == 0 else -1.0


@njit(cache=True, nogil=True)
def evaluation(black, white, side, weights):
    """Return the evaluation for black (positive is good for black) of the
    position ``black``/``white`` with ``side`` to move: the dot product of
    ``weights`` (FEATURE_COUNT of them) and :func:`features`."""
    f = np.empty(FEATURE_COUNT)
    features(black, white, side, f)
    score = 0.0
    for k in range(FEATURE_COUNT):
        score += weights[k] * f[k]
    return score


# ---- the evaluation of 2026-11 (the benchmark baseline), frozen ------------------
# ---- speed -----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _evaluate_all(boards, sides, weights, rounds):
    """Return the sum of the evaluations of every position, ``rounds`` times."""
    total = 0.0
    for _ in range(rounds):
        for i in range(sides.shape[0]):
            total += evaluation(boards[i, 0], boards[i, 1], sides[i], weights)
    return total


def evaluations_per_second(*, positions: int = 2000, seed: int = 0) -> float:
    """Return how many :func:`evaluation` calls a second one core makes, on
    ``positions`` positions from random games (0 to 60 plies), best of 3."""
    game = loa.LinesOfAction()
    rng = np.random.default_rng(seed)
    boards = np.empty((positions, 2), dtype=np.uint64)
    sides = np.empty(positions, dtype=np.int64)
    for i in range(positions):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 61))):
            if game.is_terminal(state):
                break
            legal = game.legal_moves(state)
            state = game.apply(state, legal[int(rng.integers(len(legal)))])
        boards[i] = state.array[:2]
        sides[i] = int(state.array[2])
    _evaluate_all(boards, sides, WEIGHTS, 1)  # compile or load
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        _evaluate_all(boards, sides, WEIGHTS, 50)
        best = max(best, 50 * positions / (time.perf_counter() - start))
    return best

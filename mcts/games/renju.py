"""Renju's forbidden points for black, in numba (the rule is stated in
:mod:`.gomoku`'s docstring).

Black, and only black, may not play a double three, a double four or an
overline, unless the same stone makes a five (RIF rules, article 9). The
checks place the stone, look along each line within four points of it, and
take it back; a three's straight four is real only where its own point is
not forbidden, so the three check asks again, with one more stone placed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .gomoku_board import BLACK_STONE, DIRECTIONS, EMPTY, HEADER, SIZE, line_length

#: Why a point is forbidden to black under renju (:func:`forbidden`).
NOT_FORBIDDEN = 0
DOUBLE_THREE = 1
DOUBLE_FOUR = 2
OVERLINE = 3
FORBIDDEN_NAMES = {
    DOUBLE_THREE: "double three",
    DOUBLE_FOUR: "double four",
    OVERLINE: "overline",
}


_BLACK = np.uint64(BLACK_STONE)


@njit(cache=True, nogil=True)
def _step(size, code, d, k):
    """Return the code ``k`` points from ``code`` along direction ``d``, or -1
    off the board."""
    r = code // size + k * DIRECTIONS[d, 0]
    c = code % size + k * DIRECTIONS[d, 1]
    if 0 <= r < size and 0 <= c < size:
        return r * size + c
    return -1


@njit(cache=True, nogil=True)
def _five_points(state, size, code, d):
    """Return (how many, the first, the last) of the empty points along
    direction ``d``, within four of the black stone on ``code``, where one more
    black stone makes exactly five with it."""
    count = 0
    first = 0
    last = 0
    for k in range(-4, 5):
        point = _step(size, code, d, k)
        if k == 0 or point < 0 or state[HEADER + point] != np.uint64(EMPTY):
            continue
        state[HEADER + point] = _BLACK
        if line_length(state, size, code, d, _BLACK) == 5:
            count += 1
            if count == 1:
                first = k
            last = k
        state[HEADER + point] = np.uint64(EMPTY)
    return count, first, last


@njit(cache=True, nogil=True)
def _fours(state, size, code, d):
    """Return how many fours the black stone on ``code`` is part of along
    direction ``d``: a straight four (two five points with the four between
    them) counts once, two fours on one line twice."""
    count, first, last = _five_points(state, size, code, d)
    if count == 2 and last - first == 5:
        return 1
    return count


@njit(cache=True, nogil=True)
def _near_black(state, size, code):
    """Return the most black stones within four points of ``code`` on any one
    of its lines (a three needs two besides the new stone)."""
    most = 0
    for d in range(4):
        count = 0
        for k in range(-4, 5):
            point = _step(size, code, d, k)
            if k != 0 and point >= 0 and state[HEADER + point] == _BLACK:
                count += 1
        most = max(most, count)
    return most


@njit(cache=True, nogil=True)
def _forbidden_at(state, size, code):
    """:func:`forbidden` on a board of side ``size``. The three check asks it
    again of each straight four's point, with one more stone on the board
    (one recursive function: numba's cache mishandles mutual recursion)."""
    if _near_black(state, size, code) < 2:
        return NOT_FORBIDDEN
    state[HEADER + code] = _BLACK
    reason = NOT_FORBIDDEN
    five = False
    for d in range(4):
        length = line_length(state, size, code, d, _BLACK)
        if length == 5:
            five = True
        elif length > 5:
            reason = OVERLINE
    if not five and reason == NOT_FORBIDDEN:
        fours = 0
        threes = 0
        for d in range(4):
            found = _fours(state, size, code, d)
            if found:
                fours += found
                continue
            # A three: one more black stone on this line, on a point that is
            # not itself forbidden, makes a straight four with this one.
            for k in range(-4, 5):
                point = _step(size, code, d, k)
                if k == 0 or point < 0 or state[HEADER + point] != np.uint64(EMPTY):
                    continue
                state[HEADER + point] = _BLACK
                count, first, last = _five_points(state, size, code, d)
                state[HEADER + point] = np.uint64(EMPTY)
                straight = count == 2 and last - first == 5
                if straight and _forbidden_at(state, size, point) == NOT_FORBIDDEN:
                    threes += 1
                    break
        if fours >= 2:
            reason = DOUBLE_FOUR
        elif threes >= 2:
            reason = DOUBLE_THREE
    if five:
        reason = NOT_FORBIDDEN
    state[HEADER + code] = np.uint64(EMPTY)
    return reason


@njit(cache=True, nogil=True)
def forbidden(state, code):
    """Return why the empty point ``code`` is forbidden to black under renju:
    NOT_FORBIDDEN, DOUBLE_THREE, DOUBLE_FOUR or OVERLINE (whatever the game's
    rule). ``state`` must be writable: stones are placed and taken back."""
    return _forbidden_at(state, np.int64(state[SIZE]), code)


@njit(cache=True, nogil=True)
def black_can_move(state):
    """Return True if black has a point that is not forbidden."""
    size = np.int64(state[SIZE])
    for code in range(size * size):
        empty = state[HEADER + code] == np.uint64(EMPTY)
        if empty and forbidden(state, code) == NOT_FORBIDDEN:
            return True
    return False

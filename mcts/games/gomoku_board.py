"""Gomoku's board as its state vector holds it, in numba: the header's
fields, the rules' codes, the cell values, the four line directions, and the
length of a line through a stone. :mod:`.gomoku` (the rules, which describe
the vector) and :mod:`.renju` (black's forbidden points) both read it."""

from __future__ import annotations

import numpy as np
from numba import njit

SIDE = 0
SIZE = 1
ROW = 2
STONES = 3
RESULT = 4
RULE = 5
HEADER = 6

#: The rules, coded as the piskvork protocol's ``INFO rule`` numbers them.
FREESTYLE = 0
STANDARD = 1
RENJU = 4
RULES = {"freestyle": FREESTYLE, "standard": STANDARD, "renju": RENJU}

EMPTY = 0
BLACK_STONE = 1
WHITE_STONE = 2

#: The four line directions as (row step, column step); each line is walked
#: both ways from a stone.
DIRECTIONS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)


@njit(cache=True, nogil=True)
def run_from(state, size, r, c, dr, dc, colour, limit):
    """Return how many ``colour`` stones follow (r, c) in direction (dr, dc),
    not counting (r, c) itself and stopping at ``limit``."""
    count = np.int64(0)
    r += dr
    c += dc
    while 0 <= r < size and 0 <= c < size and count < limit:
        if state[HEADER + r * size + c] != colour:
            break
        count += 1
        r += dr
        c += dc
    return count


@njit(cache=True, nogil=True)
def line_length(state, size, code, d, colour):
    """Return the length of the unbroken ``colour`` line through the stone on
    ``code`` in direction ``d`` (0..3 of DIRECTIONS), that stone included."""
    r = code // size
    c = code % size
    dr = DIRECTIONS[d, 0]
    dc = DIRECTIONS[d, 1]
    return (
        1
        + run_from(state, size, r, c, dr, dc, colour, size)
        + run_from(state, size, r, c, -dr, -dc, colour, size)
    )

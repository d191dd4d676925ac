"""Lines of Action's static evaluation, which scores a cut-off LOA rollout.

After MC-LOA (Winands and Björnsson): a side is better off with fewer groups
of pieces and with its pieces closer together (a win joins them all).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True, nogil=True)
def _groups(pieces):
    """Return the number of 8-connected groups of the bitboard ``pieces``."""
    groups = 0
    rest = pieces
    while rest != _ZERO:
        group = rest & (~rest + _ONE)
        while True:
            grown = _grow(group) & rest
            if grown == group:
                break
            group = grown
        rest &= ~group
        groups += 1
    return groups


@njit(cache=True, nogil=True)
def _grow(x):
    """Return ``x`` with every square 8-adjacent to it added."""
    x = (
        x
        | ((x << _ONE) & np.uint64(0xFEFEFEFEFEFEFEFE))
        | ((x >> _ONE) & np.uint64(0x7F7F7F7F7F7F7F7F))
    )
    return x | (x << np.uint64(8)) | (x >> np.uint64(8))


@njit(cache=True, nogil=True)
def _spread(pieces):
    """Return the mean Chebyshev distance of the pieces to their centre of mass."""
    n = 0
    sum_r = 0
    sum_c = 0
    for sq in range(64):
        if (pieces >> np.uint64(sq)) & _ONE:
            n += 1
            sum_r += sq // 8
            sum_c += sq % 8
    if n <= 1:
        return 0.0
    mean_r = sum_r / n
    mean_c = sum_c / n
    total = 0.0
    for sq in range(64):
        if (pieces >> np.uint64(sq)) & _ONE:
            total += max(abs(sq // 8 - mean_r), abs(sq % 8 - mean_c))
    return total / n


@njit(cache=True, nogil=True)
def loa_evaluation(black, white):
    """Return an evaluation for black (positive is good): fewer groups and
    pieces closer together than white's."""
    groups = _groups(white) - _groups(black)
    spread = _spread(white) - _spread(black)
    return 0.5 * groups + 1.0 * spread

"""The eight symmetries of a square board: rotations and mirror images.

The rules of all three games are unchanged when the board is rotated or
mirrored (Lines of Action's start position is not, but its rules are), so a
position and its seven images have the same value and the same moves, mapped.
A tree model uses that to find a position it studied in another orientation.

A symmetry is a *square map*: ``image[square]`` is where ``square`` goes, with
squares numbered ``row * side + column`` as the games number them.

>>> [image.tolist() for image in square_maps(2)][:2]
[[0, 1, 2, 3], [1, 3, 0, 2]]
"""

from __future__ import annotations

from functools import cache

import numpy as np


@cache
def square_maps(side: int) -> tuple[np.ndarray, ...]:
    """Return the eight square maps of a ``side`` x ``side`` board, the
    identity first (then the rotations, then the mirror images); read-only."""
    row, column = np.divmod(np.arange(side * side), side)
    last = side - 1
    images = [
        (row, column),
        (column, last - row),
        (last - row, last - column),
        (last - column, row),
        (row, last - column),
        (last - row, column),
        (column, row),
        (last - column, last - row),
    ]
    maps = tuple((r * side + c).astype(np.int64) for r, c in images)
    for image in maps:
        image.flags.writeable = False
    return maps


def inverse(image: np.ndarray) -> np.ndarray:
    """Return the square map that undoes ``image``."""
    undo = np.empty_like(image)
    undo[image] = np.arange(len(image))
    return undo


#: The symmetries of the 8x8 board (Reversi, Lines of Action).
EIGHT_BY_EIGHT = square_maps(8)
_BITS = np.arange(64, dtype=np.uint64)


def map_bitboards(array: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Return a copy of an 8x8 game's state vector, whose first two words are
    the black and the white bitboard, with square ``i`` moved to ``image[i]``."""
    out = array.copy()
    for word in (0, 1):
        squares = np.flatnonzero((array[word] >> _BITS) & np.uint64(1))
        out[word] = np.bitwise_or.reduce(
            np.left_shift(np.uint64(1), image[squares].astype(np.uint64)),
            initial=np.uint64(0),
        )
    return out

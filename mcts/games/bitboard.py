"""Bit tricks on uint64 bitboards, shared by the 8x8 games' kernels.

Bit ``i`` is square ``i``; every constant is a ``np.uint64`` because numba
turns uint64 mixed with int64 into float64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_DEBRUIJN = 0x03F79D71B4CB0A89


def _build_debruijn_index() -> np.ndarray:
    index = np.zeros(64, dtype=np.int64)
    for square in range(64):
        index[((1 << square) * _DEBRUIJN & (2**64 - 1)) >> 58] = square
    return index


_DEBRUIJN_INDEX = _build_debruijn_index()

_X, _O, _DOT, _SPACE = ord("x"), ord("o"), ord("."), ord(" ")
_SIDE_LETTERS = np.array([ord("b"), ord("w")], dtype=np.uint8)


@njit(cache=True, nogil=True)
def render_position(black, white, side, out):
    """Write the state string of an 8x8 game, ``<64 squares> <b|w>``, as bytes
    into ``out``; return its length (66). Squares a1..h1, a2..h2, ..., h8 are
    'x' (a bit of ``black``), 'o' (of ``white``) or '.'."""
    for square in range(64):
        bit = np.uint64(1) << np.uint64(square)
        out[square] = _X if black & bit else (_O if white & bit else _DOT)
    out[64] = _SPACE
    out[65] = _SIDE_LETTERS[side]
    return 66


@njit(cache=True, nogil=True)
def popcount(x):
    """Return the number of set bits of the uint64 ``x`` (as int64)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True, nogil=True)
def lowest_bit(x):
    """Return the lowest set bit of the non-zero uint64 ``x`` as a uint64."""
    return x & (~x + _ONE)


@njit(cache=True, nogil=True)
def bit_square(bit):
    """Return the square index (0..63) of the single-bit uint64 ``bit``."""
    return _DEBRUIJN_INDEX[(bit * np.uint64(_DEBRUIJN)) >> np.uint64(58)]

"""A Reversi evaluation of n-tuple patterns (Logistello / Edax style), in numba.

The board is seen through small fixed groups of squares, *patterns*: the edge
with its two X-squares, the 3x3 and 2x5 corners, the diagonals of 4 to 8
squares and the rows (and columns) 2, 3 and 4 from an edge. Each pattern is
placed on the board in every image of the 8 board symmetries (its
*instances*, 84 in all); the squares of an instance, each empty, own (side to
move) or opponent's, read as a base-3 number, index a table of weights that
all instances of the pattern share. The evaluation is the sum of the weights
the instances index plus a bias, with one table per game *stage* (the number
of empty squares, :data:`STAGE_EMPTIES` per stage): the expected final disc
margin of the side to move.

Because every pattern comes with all its images, and an image reads its
squares in the transformed order, the score is exactly the same for the 8
symmetric images of a position.

The indices are computed from the bitboards square by square: each occupied
square adds its power of three (twice for an opponent's disc) to the index of
the few instances that hold it (:data:`SQUARE_START` / :data:`SQUARE_TERMS`),
about 11 additions a disc.

The weights are learnt by :mod:`mcts.training.reversi_patterns` and shipped in
the Reversi tree model (``patterns.npz``, listed in its manifest);
:class:`PatternWeights` holds them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ...games.bitboard import bit_square, lowest_bit, popcount
from ..weightsfile import npz_bytes, read_npz

#: Empty squares per stage: stage ``(empties - 1) // STAGE_EMPTIES``.
STAGE_EMPTIES = 4
#: Stages: 1-4 empties is stage 0, ..., 57-60 empties stage 14.
STAGES = 15
#: Weights are stored as int16 counts of this many discs: the rounding moves
#: a score (85 terms) by about 0.2 disc, and the file is 1.6 MB where 1/128
#: made it 2.1 MB.
QUANTUM = 1.0 / 16.0


def _square(row: int, col: int) -> int:
    return row * 8 + col


#: The patterns, by name, as their squares (row, col) in reading order.
PATTERNS: dict[str, tuple[tuple[int, int], ...]] = {
    "edge+2x": tuple((0, c) for c in range(8)) + ((1, 1), (1, 6)),
    "corner 3x3": tuple((r, c) for r in range(3) for c in range(3)),
    "corner 2x5": tuple((r, c) for r in range(2) for c in range(5)),
    "diagonal 8": tuple((i, i) for i in range(8)),
    "diagonal 7": tuple((i, i + 1) for i in range(7)),
    "diagonal 6": tuple((i, i + 2) for i in range(6)),
    "diagonal 5": tuple((i, i + 3) for i in range(5)),
    "diagonal 4": tuple((i, i + 4) for i in range(4)),
    "row 2": tuple((1, c) for c in range(8)),
    "row 3": tuple((2, c) for c in range(8)),
    "row 4": tuple((3, c) for c in range(8)),
}

#: The 8 symmetries of the board, as maps of (row, col).
SYMMETRIES = (
    lambda r, c: (r, c),
    lambda r, c: (r, 7 - c),
    lambda r, c: (7 - r, c),
    lambda r, c: (7 - r, 7 - c),
    lambda r, c: (c, r),
    lambda r, c: (c, 7 - r),
    lambda r, c: (7 - c, r),
    lambda r, c: (7 - c, 7 - r),
)


def _instances() -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Return (squares of each instance, padded with -1; its length; the
    offset of its pattern's table in a stage's weights; weights a stage has,
    its last one the bias)."""
    squares: list[list[int]] = []
    lengths: list[int] = []
    offsets: list[int] = []
    offset = 0
    for cells in PATTERNS.values():
        seen: set[tuple[int, ...]] = set()
        for symmetry in SYMMETRIES:
            image = tuple(_square(*symmetry(r, c)) for r, c in cells)
            if image in seen:
                continue
            seen.add(image)
            squares.append(list(image) + [-1] * (10 - len(image)))
            lengths.append(len(image))
            offsets.append(offset)
        offset += 3 ** len(cells)
    return (
        np.array(squares, dtype=np.int64),
        np.array(lengths, dtype=np.int64),
        np.array(offsets, dtype=np.int64),
        offset + 1,
    )


INSTANCE_SQUARES, INSTANCE_LENGTH, INSTANCE_OFFSET, STAGE_WEIGHTS = _instances()
INSTANCES = len(INSTANCE_LENGTH)
#: Index of the bias in a stage's weights.
BIAS = STAGE_WEIGHTS - 1


def _square_terms() -> tuple[np.ndarray, np.ndarray]:
    """Return (start of each square's terms, 65 entries; the terms: rows of
    (instance, power of three of the square in it))."""
    by_square: list[list[tuple[int, int]]] = [[] for _ in range(64)]
    for inst in range(INSTANCES):
        for k in range(INSTANCE_LENGTH[inst]):
            by_square[INSTANCE_SQUARES[inst, k]].append((inst, 3**k))
    start = np.zeros(65, dtype=np.int64)
    terms: list[tuple[int, int]] = []
    for sq in range(64):
        start[sq + 1] = start[sq] + len(by_square[sq])
        terms.extend(by_square[sq])
    return start, np.array(terms, dtype=np.int64)


SQUARE_START, SQUARE_TERMS = _square_terms()


@njit(cache=True, nogil=True)
def stage_of(own, opp):
    """Return the stage (0..STAGES-1) of a position by its empty squares."""
    empties = 64 - popcount(own | opp)
    stage = (empties - 1) // STAGE_EMPTIES
    return min(max(stage, 0), STAGES - 1)


@njit(cache=True, nogil=True)
def pattern_indices(own, opp, out):
    """Write into ``out`` (INSTANCES int entries) the index of every instance
    in its pattern's table, offsets included, for ``own`` (the side to move)
    against ``opp``."""
    for i in range(INSTANCES):
        out[i] = INSTANCE_OFFSET[i]
    bits = own
    while bits:
        low = lowest_bit(bits)
        bits ^= low
        sq = bit_square(low)
        for t in range(SQUARE_START[sq], SQUARE_START[sq + 1]):
            out[SQUARE_TERMS[t, 0]] += SQUARE_TERMS[t, 1]
    bits = opp
    while bits:
        low = lowest_bit(bits)
        bits ^= low
        sq = bit_square(low)
        for t in range(SQUARE_START[sq], SQUARE_START[sq + 1]):
            out[SQUARE_TERMS[t, 0]] += 2 * SQUARE_TERMS[t, 1]


@njit(cache=True, nogil=True)
def pattern_score(own, opp, weights):
    """Return the expected final disc margin of ``own`` (to move) against
    ``opp`` by ``weights`` (STAGES x STAGE_WEIGHTS)."""
    index = np.empty(INSTANCES, dtype=np.int64)
    pattern_indices(own, opp, index)
    table = weights[stage_of(own, opp)]
    total = table[BIAS]
    for i in range(INSTANCES):
        total += table[index[i]]
    return total


@njit(cache=True, nogil=True)
def pattern_win_chance(own, opp, weights, scale):
    """Return the chance that ``own`` (to move) wins: the logistic of the
    predicted margin over ``scale`` discs."""
    return 1.0 / (1.0 + math.exp(-pattern_score(own, opp, weights) / scale))


# ---- the weights --------------------------------------------------------------------
#: Discs of predicted margin per factor e of the win odds, when the search
#: turns a margin into a value (see :func:`pattern_win_chance`).
DEFAULT_SCALE = 8.0


@dataclass(frozen=True)
class PatternWeights:
    """The weights of the pattern evaluation (float32, STAGES x
    STAGE_WEIGHTS, in discs) and what the training recorded (``fitted``)."""

    weights: np.ndarray
    scale: float = DEFAULT_SCALE
    fitted: dict = field(default_factory=dict, compare=False)

    def to_bytes(self) -> bytes:
        """Return the weights file: a compressed ``.npz`` of the int16
        weights (in QUANTUM discs), the quantum and the scale, with fixed
        timestamps, so the same weights always give the same bytes."""
        counts = np.clip(np.rint(self.weights / QUANTUM), -32767, 32767)
        arrays = {
            "weights": counts.astype(np.int16),
            "quantum": np.float64(QUANTUM),
            "scale": np.float64(self.scale),
        }
        return npz_bytes(arrays)


def from_bytes(data: bytes, fitted: dict | None = None) -> PatternWeights:
    """Return the PatternWeights of a weights file's bytes; ValueError saying
    what is wrong when they are not one."""
    arrays = read_npz(data)
    try:
        counts = arrays["weights"]
        quantum = float(arrays["quantum"])
        scale = float(arrays["scale"])
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"not a pattern weights file ({error})") from None
    if counts.shape != (STAGES, STAGE_WEIGHTS) or counts.dtype != np.int16:
        raise ValueError(
            f"expected int16 weights of shape {(STAGES, STAGE_WEIGHTS)}, "
            f"got {counts.dtype} {counts.shape}"
        )
    if not (quantum > 0 and math.isfinite(quantum)):
        raise ValueError(f"bad quantum {quantum!r}")
    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"bad scale {scale!r}")
    weights = (counts.astype(np.float32) * np.float32(quantum)).astype(np.float32)
    return PatternWeights(weights, scale, dict(fitted or {}))


def no_patterns() -> np.ndarray:
    """Return the empty weights array the search takes for "no patterns"."""
    return np.zeros((0, STAGE_WEIGHTS), dtype=np.float32)

"""The weights of the Gomoku alpha-beta's evaluation
(:mod:`mcts.search.gomoku.alphabeta`): what each line shape a stone makes
is worth, what its forks add, and how the quiet value mixes the two sides'
cells. A Gomoku tree model carries weights fitted to self-play results
(``shapes.npz``, listed in its manifest; :mod:`mcts.training.shape_fitting`
fits them); without a model the search plays :data:`HAND_WEIGHTS`, the
weights of :mod:`mcts.search.gomoku.shapes`.

The search reads them from one float64 array (:meth:`ShapeWeights.array`),
laid out by the index constants below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..weightsfile import npz_bytes, read_npz
from .shapes import BLOCK_WEIGHT, FOUR_FORK, SHAPE_WEIGHTS, THREE_FORK

#: Shape codes (:mod:`mcts.search.gomoku.shapes`, NONE to FIVE).
SHAPES = len(SHAPE_WEIGHTS)
# Where each weight sits in the array the search reads: the shapes' weights
# by shape code, then these.
FOUR_FORK_AT = SHAPES
THREE_FORK_AT = SHAPES + 1
BLOCK_AT = SHAPES + 2
SPREAD_AT = SHAPES + 3
#: The array's length.
WEIGHTS = SHAPES + 4
#: The shapes whose weights are learnt: a two to a four. NONE is worth 0, an
#: open four and a five are wins the threat levels see (their weights only
#: have to dwarf the rest).
LEARNT_SHAPES = (1, 2, 3, 4)


@dataclass(frozen=True)
class ShapeWeights:
    """The alpha-beta's evaluation weights and what their fit recorded.

    - ``shapes``: a stone's worth for each line shape it makes, by shape code;
    - ``four_fork``: added for two fours or a four and an open three;
    - ``three_fork``: added for two open threes;
    - ``block``: the quiet value is the mover's best cell minus ``block``
      times the opponent's best,
    - ``spread``: plus ``spread`` times the difference of all their cells.
    """

    shapes: tuple[float, ...]
    four_fork: float
    three_fork: float
    block: float
    spread: float
    fitted: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        values = (*self.shapes, self.four_fork, self.three_fork, self.block)
        if len(self.shapes) != SHAPES:
            raise ValueError(f"expected {SHAPES} shape weights, got {len(self.shapes)}")
        if not all(math.isfinite(v) and v >= 0 for v in (*values, self.spread)):
            raise ValueError("shape weights must be finite and not negative")

    def array(self) -> np.ndarray:
        """Return the weights as the search reads them (float64, WEIGHTS)."""
        out = np.zeros(WEIGHTS, dtype=np.float64)
        out[:SHAPES] = self.shapes
        out[FOUR_FORK_AT] = self.four_fork
        out[THREE_FORK_AT] = self.three_fork
        out[BLOCK_AT] = self.block
        out[SPREAD_AT] = self.spread
        return out

    def to_bytes(self) -> bytes:
        """Return the weights file: a ``.npz`` of the array, the same bytes
        for the same weights."""
        return npz_bytes({"weights": self.array()})


def from_array(values: np.ndarray, fitted: dict | None = None) -> ShapeWeights:
    """Return the ShapeWeights of an array laid out as :meth:`ShapeWeights.array`."""
    numbers = [float(v) for v in values]
    return ShapeWeights(
        tuple(numbers[:SHAPES]),
        numbers[FOUR_FORK_AT],
        numbers[THREE_FORK_AT],
        numbers[BLOCK_AT],
        numbers[SPREAD_AT],
        dict(fitted or {}),
    )


def from_bytes(data: bytes, fitted: dict | None = None) -> ShapeWeights:
    """Return the ShapeWeights of a weights file's bytes; ValueError saying
    what is wrong when they are not one."""
    arrays = read_npz(data)
    values = arrays.get("weights")
    if values is None or values.shape != (WEIGHTS,) or values.dtype != np.float64:
        got = "none" if values is None else f"{values.dtype} {values.shape}"
        raise ValueError(f"expected {WEIGHTS} float64 shape weights, got {got}")
    return from_array(values, fitted)


#: The hand-set weights the search plays without a model. Their spread, 0.1,
#: scored best against Rapfi of those tried (docs/experiments, "the
#: alpha-beta player").
HAND_WEIGHTS = ShapeWeights(
    tuple(float(v) for v in SHAPE_WEIGHTS),
    FOUR_FORK,
    THREE_FORK,
    BLOCK_WEIGHT,
    0.1,
)

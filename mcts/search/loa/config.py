"""What Lines of Action's search needs to know: its typed record."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .search import make_params


class LoaSearch(NamedTuple):
    """Lines of Action's search settings (MC-LOA's, see
    :mod:`mcts.search.loa.search`; tuned as :func:`make_params` says)."""

    #: Plies a heavy rollout plays before the evaluation scores it.
    cutoff: int = 6
    #: Evaluation units per factor e of the win odds.
    scale: float = 1.0
    #: A rollout stops as a win once the evaluation passes this (0: never).
    decisive: float = 3.0
    #: ... checked every this many plies.
    check_every: int = 2
    #: The progressive bias's weight (0: plain UCT).
    bias: float = 1.0
    #: An unvisited child's value in selection, before its bias.
    unvisited: float = 1.0

    def array(self) -> np.ndarray:
        """Return the float64 parameter vector the kernels read."""
        return make_params(**self._asdict())

"""The learned evaluation a tree model carries: fitted to the model's own nodes.

Self-play leaves in the tree thousands of positions from every stage of the
game, each with the value its searches found. Fitting a logistic evaluation
of the position's features (:mod:`mcts.search.features`) to those values turns that
study into knowledge that holds in positions the tree never met: a search
given the evaluation stops its heavy rollouts after a few plies and asks the
evaluation instead (:func:`mcts.search.rollouts.heavy_rollout`), which is both
faster and less noisy than playing on to the end. This, more than the
opening statistics, is what a model is worth in Reversi and Gomoku, whose
games are decided where positions no longer repeat (``docs/models.md``).

:func:`fit` learns an :class:`Evaluation` from a tree; the model's manifest
stores it (``"evaluation"``), and :func:`from_json` reads it back with a
clear error for anything malformed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

from ..games import kernels
from ..games.base import ONGOING, Game, State
from .features import FEATURE_NAMES, STAGE_TERMS, feature_count, features
from .tree import Tree
from .walk import state_at, walk

#: Nodes with fewer visits are too noisy to learn from.
FIT_MIN_VISITS = 100
#: A node's weight in the fit is its visits, up to this many: the opening's
#: nodes, visited by every game, would otherwise drown out the rest.
FIT_WEIGHT_CAP = 2000
#: The fit uses at most this many positions (a fixed sample of the eligible
#: nodes), which bounds its memory (Reversi: 57 float64 a row, 46 MB) and time.
FIT_MAX_POSITIONS = 100_000
#: The share of positions held out to measure the fit, and the seed that
#: chooses them (so a fit is reproducible).
FIT_HOLDOUT = 0.2
FIT_SEED = 0
#: L2 penalty on the weights; keeps rarely seen features from running off.
FIT_L2 = 1e-4
#: Weights are rounded to this many decimals, so the manifest stays short.
WEIGHT_DECIMALS = 6


@dataclass(frozen=True)
class Evaluation:
    """Weights of a game's learned evaluation, and how they were fitted.

    ``weights`` hold STAGE_TERMS blocks of one weight per feature of
    ``FEATURE_NAMES[game]`` (constant, times the stage, times its square).
    ``fitted`` records the fit: positions used, the minimum visits, and the
    share of the held-out positions' value variance the fit explains.
    """

    game: str
    weights: tuple[float, ...]
    fitted: dict = field(default_factory=dict, compare=False)

    def array(self) -> np.ndarray:
        """Return the weights as the float64 array the search kernels take."""
        return np.array(self.weights, dtype=np.float64)

    def to_json(self) -> dict:
        """Return the manifest's ``"evaluation"`` entry."""
        return {
            "features": list(FEATURE_NAMES[self.game]),
            "weights": list(self.weights),
            "fitted": dict(self.fitted),
        }


def from_json(game: Game, data) -> Evaluation:
    """Return the Evaluation of a manifest's ``"evaluation"`` entry for
    ``game``; ValueError saying what is wrong when it is malformed."""
    names = FEATURE_NAMES.get(game.name)
    if names is None:
        raise ValueError(f"{game.name} has no learned evaluation")
    if not isinstance(data, dict):
        raise ValueError(f"expected an object, got {type(data).__name__}")
    if data.get("features") != list(names):
        raise ValueError(
            f"its features are {data.get('features')!r}, expected {list(names)!r}"
        )
    weights = data.get("weights")
    expected = STAGE_TERMS * len(names)
    if not isinstance(weights, list) or len(weights) != expected:
        raise ValueError(f"expected a list of {expected} weights")
    for weight in weights:
        if isinstance(weight, bool) or not isinstance(weight, int | float):
            raise ValueError(f"weight {weight!r} is not a number")
        if not math.isfinite(weight):
            raise ValueError(f"weight {weight!r} is not finite")
    fitted = data.get("fitted", {})
    if not isinstance(fitted, dict):
        raise ValueError("'fitted' must be an object")
    return Evaluation(game.name, tuple(float(w) for w in weights), fitted)


# ---- fitting ------------------------------------------------------------------------
def fit(
    game: Game,
    tree: Tree,
    root: State,
    *,
    min_visits: int = FIT_MIN_VISITS,
    max_positions: int = FIT_MAX_POSITIONS,
) -> Evaluation | None:
    """Return the evaluation fitted to the values of ``tree``'s nodes with
    at least ``min_visits`` visits (``root`` is node 0's position), or None
    when the game has no features or the tree too few such positions.

    Each position's target is the chance that its side to move wins, as the
    node's value says; the fit is a weighted logistic regression (Newton's
    method), measured on a held-out fifth of the positions, then refitted
    on all of them.
    """
    count = feature_count(game.game_id)
    if count == 0:
        return None
    rows, targets, weights = training_data(
        game, tree, root, min_visits=min_visits, max_positions=max_positions
    )
    if len(targets) < 10 * rows.shape[1]:
        return None
    rng = np.random.default_rng(FIT_SEED)
    order = rng.permutation(len(targets))
    held = order[: int(len(order) * FIT_HOLDOUT)]
    kept = order[len(held) :]
    trial = _logistic_fit(rows[kept], targets[kept], weights[kept])
    explained = _explained(trial, rows[held], targets[held], weights[held])
    final = _logistic_fit(rows, targets, weights)
    fitted = {
        "positions": int(len(targets)),
        "min_visits": int(min_visits),
        "explained": round(explained, 4),
    }
    rounded = tuple(round(float(w), WEIGHT_DECIMALS) + 0.0 for w in final)
    return Evaluation(game.name, rounded, fitted)


def training_data(
    game: Game,
    tree: Tree,
    root: State,
    *,
    min_visits: int = FIT_MIN_VISITS,
    max_positions: int = FIT_MAX_POSITIONS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return (feature rows with their stage terms, targets, weights) of the
    positions of ``tree``'s nodes that have ``min_visits`` visits and are
    quiet and not over (the positions an evaluation is asked about); drawn
    from a fixed sample of ``max_positions`` nodes if there are more."""
    size = tree.size
    eligible = np.flatnonzero(tree.visits[:size] >= min_visits)
    if len(eligible) > max_positions:
        pick = np.random.default_rng(FIT_SEED).choice(
            len(eligible), max_positions, replace=False
        )
        eligible = np.sort(eligible[pick])
    wanted = np.zeros(size, dtype=np.bool_)
    wanted[eligible] = True
    count = feature_count(game.game_id)
    rows = np.zeros((len(eligible), STAGE_TERMS * count), dtype=np.float64)
    targets = np.zeros(len(eligible), dtype=np.float64)
    weights = np.zeros(len(eligible), dtype=np.float64)
    arrays = tree.arrays.head(size)
    filled = _collect(
        game.game_id,
        walk(arrays, root.array),
        arrays,
        wanted,
        Samples(rows, targets, weights),
    )
    return rows[:filled], targets[:filled], np.minimum(weights[:filled], FIT_WEIGHT_CAP)


class Samples(NamedTuple):
    """The fit's rows: features (by stage), targets and weights."""

    rows: np.ndarray  # float64, one row a position
    targets: np.ndarray  # float64
    weights: np.ndarray  # float64


@njit(cache=True, nogil=True)
def _collect(game_id, way, tree, wanted, samples):
    """Walk the tree (``way``, a :class:`~mcts.search.walk.Walk`); for each
    wanted node whose position is quiet and not over, write its feature row,
    target and weight into ``samples`` (:class:`Samples`). Return the number
    of rows written."""
    order, levels, states = way.order, way.levels, way.states
    rows, targets, weights = samples.rows, samples.targets, samples.weights
    move, visits, value_sum = tree.move, tree.visits, tree.value_sum
    count = rows.shape[1] // STAGE_TERMS
    f = np.empty(count, dtype=np.float64)
    filled = 0
    for i in range(order.shape[0]):
        node, level = order[i], levels[i]
        state = state_at(game_id, states, level, move[node])
        stage = -1.0
        if wanted[node] and kernels.status(game_id, state) == ONGOING:
            stage = features(game_id, state, f)
        if stage >= 0.0:
            for k in range(count):
                rows[filled, k] = f[k]
                rows[filled, count + k] = f[k] * stage
                rows[filled, 2 * count + k] = f[k] * stage * stage
            # A node's value is the view of the player who moved into it;
            # the target is the side to move's.
            targets[filled] = 1.0 - value_sum[node] / visits[node]
            weights[filled] = visits[node]
            filled += 1
    return filled


def _logistic_fit(
    rows: np.ndarray, targets: np.ndarray, weights: np.ndarray, *, iterations=25
) -> np.ndarray:
    """Return the weights minimising the weighted cross-entropy of the
    logistic of ``rows @ w`` against ``targets`` (in [0, 1]), plus FIT_L2."""
    scale = weights / weights.mean()
    w = np.zeros(rows.shape[1])
    eye = FIT_L2 * np.eye(rows.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(rows @ w)))
        gradient = rows.T @ (scale * (p - targets)) / len(targets) + FIT_L2 * w
        hessian = (rows * (scale * p * (1.0 - p))[:, None]).T @ rows / len(targets)
        step = np.linalg.solve(hessian + eye, gradient)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def _explained(w, rows, targets, weights) -> float:
    """Return the share of the weighted variance of ``targets`` that the
    logistic of ``rows @ w`` explains (1 - residual / total)."""
    p = 1.0 / (1.0 + np.exp(-(rows @ w)))
    mean = np.average(targets, weights=weights)
    total = np.average((targets - mean) ** 2, weights=weights)
    residual = np.average((targets - p) ** 2, weights=weights)
    return float(1.0 - residual / total) if total > 0 else 0.0

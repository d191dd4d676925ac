"""Lines of Action knowledge inside the MCTS, after MC-LOA (Winands and Björnsson).

Three pieces, all driven by one float64 parameter vector (:func:`make_params`
of :class:`~mcts.search.loa.config.LoaSearch`, the searcher's LOA ``learned``
array), so that two players with different settings can meet in one process
without a recompile:

- :func:`rollout`: the heavy rollout (moves weighted toward the centre and
  toward captures) that stops early once the evaluation
  (:func:`mcts.search.loa.evaluation.evaluation`) is decisive, checked every few
  plies (MC-LOA's evaluation cut-off), and else after a fixed number of
  plies, where a logistic of the evaluation scores it;
- :func:`select`: UCT with **progressive bias**: a child's score gains
  ``W * p / (n + 1)``, ``p`` in [0, 1] from a cheap move ordering
  (:func:`move_weight`: captures, moves toward the centre and toward the
  mover's centre of mass, moves off the edge), so the first visits go to
  the likely moves and the bias fades as the child's own visits grow;
- the MCTS-Solver's rules are the kernel's own, shared through
  :func:`~mcts.search.tree.proof_step` (proven losses are never chosen, a
  proven win at once, proven draws skipped while an unknown sibling is
  left).

An empty parameter vector (the random evaluator's) means plain UCT.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...games import loa
from ...games.base import BLACK_WINS, MAX_MOVES, ONGOING, WHITE_WINS
from ..tree import DRAWN, SCORE, TAKE, proof_choice, proof_step
from .evaluation import FEATURE_COUNT, WEIGHTS, centre_of_mass, evaluation

_ONE = np.uint64(1)

# The parameter vector: the evaluation's weights, then the search's knobs.
#: Plies a rollout plays before the evaluation scores it.
CUTOFF = FEATURE_COUNT
#: Evaluation units per factor e of the win odds (the logistic's scale).
SCALE = FEATURE_COUNT + 1
#: A rollout stops as a win once the evaluation passes this (0: never).
DECISIVE = FEATURE_COUNT + 2
#: ... checked every this many plies.
CHECK_EVERY = FEATURE_COUNT + 3
#: The progressive bias's weight W (0: plain UCT).
BIAS = FEATURE_COUNT + 4
#: An unvisited child's value in the selection (before its bias): at 1 the
#: children with the best priors are tried first and the search may never
#: try a child the move ordering ranks low; above 1 every child is tried
#: once, best prior first, before any is tried twice.
UNVISITED = FEATURE_COUNT + 5
PARAM_COUNT = FEATURE_COUNT + 6


def make_params(
    *,
    weights: np.ndarray = WEIGHTS,
    cutoff: int = 6,
    scale: float = 1.0,
    decisive: float = 3.0,
    check_every: int = 2,
    bias: float = 1.0,
    unvisited: float = 1.0,
) -> np.ndarray:
    """Return the parameter vector of these settings (see the indices above).

    The defaults were tuned by 60-game matches at 0.1 s a move against the
    default of the time, on a machine loaded 7-12 on 2 cores (scores ±12%):
    with every child tried first (``unvisited`` 10), cutoff 2 scored 52.5%,
    10 41.7% and 0 (the evaluation alone at the leaf) 36.7%; no decisive
    stop 45.0%; no bias 45.0%, bias 3 45.8%; mobility's weight 0 (25% more
    speed) 40.8%; ``unvisited`` 1 then scored 70.0% and became the
    default, against which bias 3 scored 39.2%, bias 2 45.0% and bias 0.5
    60.0% (within the noise: bias 1 stayed; README: the ablations of the
    final default). The evaluation's weights are hand-set (MIA's order
    of importance), not fitted: there was no time to fit them to game
    results.
    """
    p = np.zeros(PARAM_COUNT)
    p[:FEATURE_COUNT] = weights
    p[CUTOFF] = cutoff
    p[SCALE] = scale
    p[DECISIVE] = decisive
    p[CHECK_EVERY] = check_every
    p[BIAS] = bias
    p[UNVISITED] = unvisited
    return p


def _rings():
    """Return the centre ring of each square: 0 on the edge up to 3 in the middle."""
    ring = np.zeros(64, dtype=np.int64)
    for sq in range(64):
        row, col = divmod(sq, 8)
        ring[sq] = min(row, col, 7 - row, 7 - col)
    return ring


RING = _rings()


@njit(cache=True, nogil=True)
def _score(black, white, side, p):
    """Return black's win chance by the logistic of the evaluation."""
    score = evaluation(black, white, side, p)
    return 1.0 / (1.0 + math.exp(-score / p[SCALE]))


@njit(cache=True, nogil=True)
def _reward(code):
    """Return black's score for a final status."""
    if code == BLACK_WINS:
        return 1.0
    if code == WHITE_WINS:
        return 0.0
    return 0.5


@njit(cache=True, nogil=True)
def play_weighted_move(state, moves, count, weights):
    """Play on ``state`` one of its ``count`` legal ``moves``, drawn with
    weights toward the centre and toward captures (MC-LOA's rollout policy;
    ``weights`` is scratch space)."""
    enemy = state[1 - np.int64(state[2])]
    total = 0.0
    for i in range(count):
        move = moves[i]
        w = 1.0
        if move != loa.PASS:
            source = move >> 6
            target = move & 63
            w = 4.0 + 2.0 * (RING[target] - RING[source])
            if (enemy >> np.uint64(target)) & _ONE:
                w += 4.0
            if w < 1.0:
                w = 1.0
        total += w
        weights[i] = total
    pick = np.random.random() * total
    chosen = moves[count - 1]
    for i in range(count):
        if pick < weights[i]:
            chosen = moves[i]
            break
    loa.apply_move(state, chosen)


@njit(cache=True, nogil=True)
def rollout(state, p):
    """Play centre- and capture-weighted moves on ``state`` (in place) for at
    most ``p[CUTOFF]`` plies, stopping at once when the evaluation is
    decisive (checked every ``p[CHECK_EVERY]`` plies); return black's score:
    1 or 0 for a decisive evaluation or a finished game, else the logistic
    of the evaluation."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    weights = np.empty(MAX_MOVES, dtype=np.float64)
    cutoff = np.int64(p[CUTOFF])
    every = max(1, np.int64(p[CHECK_EVERY]))
    decisive = p[DECISIVE]
    for ply in range(cutoff):
        count = loa.legal_moves(state, moves)
        if count == 0:
            return _reward(loa.status(state))
        side = np.int64(state[2])
        if decisive > 0.0 and ply > 0 and ply % every == 0:
            score = evaluation(state[0], state[1], side, p)
            if score >= decisive:
                return 1.0
            if score <= -decisive:
                return 0.0
        play_weighted_move(state, moves, count, weights)
    code = loa.status(state)
    if code != ONGOING:
        return _reward(code)
    return _score(state[0], state[1], np.int64(state[2]), p)


@njit(cache=True, nogil=True)
def move_weight(move, enemy, com_r, com_c):
    """Return the move-ordering weight (> 0) of ``move`` for a mover whose
    centre of mass is (``com_r``, ``com_c``): captures, moves toward the
    centre and toward the centre of mass (joining the pieces), and moves
    off the edge weigh more."""
    if move == loa.PASS:
        return 1.0
    source = move >> 6
    target = move & 63
    w = 2.0 + (RING[target] - RING[source])
    if (enemy >> np.uint64(target)) & _ONE:
        w += 2.0
    before = max(abs(source // 8 - com_r), abs(source % 8 - com_c))
    after = max(abs(target // 8 - com_r), abs(target % 8 - com_c))
    w += 0.5 * (before - after)
    return max(w, 0.25)


@njit(cache=True, nogil=True)
def select(node, tree, state, c, p):
    """Return ``(child, floored)`` like :func:`mcts.search.kernel._select`
    (UCT, the same solver rules: :func:`~mcts.search.tree.proof_step`), with
    each unproven child's score raised by the progressive bias
    ``p[BIAS] * weight / (max weight * (n + 1))`` (:func:`move_weight` in
    ``state``, the position at ``node``)."""
    proven, visits, value_sum = tree.proven, tree.visits, tree.value_sum
    first = tree.first_child[node]
    count = tree.n_children[node]
    side = np.int64(state[2])
    own = state[side]
    enemy = state[1 - side]
    com_r, com_c = centre_of_mass(own)
    top = 0.0
    for child in range(first, first + count):
        top = max(top, move_weight(tree.move[child], enemy, com_r, com_c))
    bias = p[BIAS] / top
    log_n = math.log(max(visits[node], 1))
    best = -1
    best_score = -np.inf
    draw = -1
    for child in range(first, first + count):
        step = proof_step(proven[child])
        if step == TAKE:
            return child, False
        if step == DRAWN:
            draw = child
        if step != SCORE:
            continue
        n = visits[child]
        prior = bias * move_weight(tree.move[child], enemy, com_r, com_c)
        if n == 0:
            score = p[UNVISITED] + prior
        else:
            score = value_sum[child] / n + c * math.sqrt(log_n / n) + prior / (n + 1)
        if score > best_score:
            best_score = score
            best = child
    return proof_choice(best, draw)

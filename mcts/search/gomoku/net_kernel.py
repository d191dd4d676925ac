"""The network search's simulations in numba: a batch of PUCT descents, then
the network's answers expanded and backed up.

:class:`~mcts.search.gomoku.net_search.NetSearcher` runs a batch in three steps:

1. :func:`descend` runs up to a batch of descents from the root by PUCT over
   the per-node ``prior`` array, counting each visit on the way down (a
   virtual loss, so that the next descent of the batch prefers other lines).
   A descent that ends on a finished game, a proven node or a leaf whose
   player to move wins by a small VCF is backed up at once (MCTS-Solver); the
   others wait for the network, their input planes written into ``planes``;
2. the network evaluates those planes (numpy, :mod:`mcts.search.gomoku.network`);
3. :func:`finish` expands each waiting leaf with every legal move, stores
   its children's priors (the softmax of the logits over the legal moves) and
   backs the value up.

A node whose children have no priors (NaN: the tree was renumbered by tree
reuse or by the root's threat search) is a leaf for the network again: it
is not expanded twice, only given its priors back.

The rewards, proofs and first-play urgency are those the Python loop of the
first network player used; only where they run changed, since a descent in
Python cost more than the network's evaluation of its leaf.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ...games import gomoku
from ...games.base import BLACK, BLACK_WINS, DRAW, MAX_MOVES, ONGOING
from ..kernel import MAX_DEPTH, add_children, prove_upward, proven_reward
from ..tree import Proven
from .threats.vct import wins_by_threats


class NetParams(NamedTuple):
    """The network search's settings as :func:`descend` reads them."""

    c: float  # exploration constant of PUCT
    threat_nodes: int  # VCF nodes that may prove a new leaf (0: none)
    vct_nodes: int  # VCF nodes of a new leaf's VCT of one three (0: none)


class Batch(NamedTuple):
    """A batch's leaves waiting for the network, one row each."""

    paths: np.ndarray  # int64, (batch, MAX_DEPTH): the path from the root
    depths: np.ndarray  # int64: the path's last index
    states: np.ndarray  # the leaf's state vector
    planes: np.ndarray  # float32: the network's input planes


@njit(cache=True, nogil=True)
def encode_into(state, last_move, out):
    """Write the network's input planes of the Gomoku ``state`` (whose last
    move was ``last_move``, -1 if none) into ``out`` (PLANES, n, n), as
    :func:`mcts.search.gomoku.network.encode` does."""
    size = np.int64(state[gomoku.SIZE])
    side = np.int64(state[gomoku.SIDE])
    out[:] = 0.0
    own = np.uint64(gomoku.BLACK_STONE + side)
    other = np.uint64(gomoku.WHITE_STONE - side)
    for code in range(size * size):
        cell = state[gomoku.HEADER + code]
        if cell == own:
            out[0, code // size, code % size] = 1.0
        elif cell == other:
            out[1, code // size, code % size] = 1.0
    if last_move >= 0:
        out[2, last_move // size, last_move % size] = 1.0
    if side == 0:
        out[3, :, :] = 1.0


@njit(cache=True, nogil=True)
def _select(node, tree, prior, c):
    """Return the child of ``node`` PUCT picks: mean + c * prior * sqrt(N) /
    (1 + n), an unvisited child valued at the parent's value for the player
    to move (first-play urgency); a proven win at once, a proven loss never
    while another child is open (-1 if every child is lost)."""
    first = tree.first_child[node]
    count = tree.n_children[node]
    parent_visits = max(1, tree.visits[node])
    parent_mean = 1.0 - tree.value_sum[node] / parent_visits
    sqrt_n = math.sqrt(parent_visits)
    best = -1
    best_score = -np.inf
    for child in range(first, first + count):
        proven = tree.proven[child]
        if proven == Proven.WIN:
            return child
        if proven == Proven.LOSS:
            continue
        n = tree.visits[child]
        mean = tree.value_sum[child] / n if n > 0 else parent_mean
        score = mean + c * prior[child] * sqrt_n / (1 + n)
        if score > best_score:
            best_score = score
            best = child
    return best


@njit(cache=True, nogil=True)
def _back_up(path, depth, reward, tree):
    """Add ``reward`` (for the player who moved into ``path[depth]``) up the
    path, alternating views; the visits were counted on the way down."""
    for i in range(depth, -1, -1):
        tree.value_sum[path[i]] += reward
        reward = 1.0 - reward


@njit(cache=True, nogil=True)
def descend(root, root_last, tree, prior, params, count, batch):
    """Run up to ``count`` descents from the state vector ``root`` (reached
    by ``root_last``) by PUCT with ``params.c`` (:class:`NetParams`). A new
    leaf whose player to move wins by a VCF found within
    ``params.threat_nodes`` nodes (0: not looked for), or by a VCT of one
    three within ``params.vct_nodes`` (0: not looked for), is proven lost for
    the player who moved there. Return ``(ran, waiting)``: the descents run
    and how many of them wait for the network, each in ``batch``
    (:class:`Batch`) as its path (``paths[i, : depths[i] + 1]``), its leaf
    state (``states[i]``) and its input planes (``planes[i]``). The batch
    ends early when a descent reaches a leaf already waiting, or the root is
    proven."""
    c, threat_nodes, vct_nodes = params.c, params.threat_nodes, params.vct_nodes
    paths, depths, states, planes = (
        batch.paths,
        batch.depths,
        batch.states,
        batch.planes,
    )
    work = np.empty_like(root)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    ran = 0
    waiting = 0
    while ran < count and tree.proven[0] == Proven.UNKNOWN:
        work[:] = root
        last = root_last
        node = 0
        depth = 0
        path[0] = 0
        while (
            tree.first_child[node] >= 0
            and tree.proven[node] == Proven.UNKNOWN
            and prior[tree.first_child[node]] == prior[tree.first_child[node]]
            and depth < MAX_DEPTH - 1
        ):
            child = _select(node, tree, prior, c)
            if child < 0:
                break
            last = np.int64(tree.move[child])
            gomoku.apply_move(work, last)
            depth += 1
            path[depth] = child
            node = child
        for i in range(waiting):
            if paths[i, depths[i]] == node:
                return ran, waiting
        for i in range(depth + 1):
            tree.visits[path[i]] += 1
        ran += 1
        if tree.proven[node] != Proven.UNKNOWN:
            _back_up(path, depth, proven_reward(tree.proven[node]), tree)
            continue
        code = gomoku.status(work)
        if code != ONGOING:
            mover = 1 - gomoku.side_to_move(work)
            if code == DRAW:
                tree.proven[node] = Proven.DRAW
            elif (code == BLACK_WINS) == (mover == BLACK):
                tree.proven[node] = Proven.WIN
            else:
                tree.proven[node] = Proven.LOSS
            _back_up(path, depth, proven_reward(tree.proven[node]), tree)
            prove_upward(path, depth, tree, gomoku.GAME_ID, root, False)
        elif (
            tree.first_child[node] < 0
            and threat_nodes > 0
            and wins_by_threats(work, threat_nodes, vct_nodes)
        ):
            # The player to move wins by continuous threats: the move into
            # the leaf loses, as the numba MCTS proves its leaves.
            tree.proven[node] = Proven.LOSS
            _back_up(path, depth, 0.0, tree)
            prove_upward(path, depth, tree, gomoku.GAME_ID, root, False)
        else:
            paths[waiting, : depth + 1] = path[: depth + 1]
            depths[waiting] = depth
            states[waiting] = work
            encode_into(work, last, planes[waiting])
            waiting += 1
    return ran, waiting


@njit(cache=True, nogil=True)
def finish(tree, prior, size, waiting, batch, logits, values):
    """Expand the ``waiting`` leaves of :func:`descend` in ``batch`` (a leaf
    expanded already only gets its children's priors back) with the
    network's ``logits`` and back its ``values`` up (for the player to move
    at the leaf, -1..1); return the new tree size. The tree must have room
    for every legal move of every leaf past ``size``."""
    paths, depths, states = batch.paths, batch.depths, batch.states
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(waiting):
        depth = depths[i]
        node = paths[i, depth]
        if tree.first_child[node] < 0:
            count = gomoku.legal_moves(states[i], moves)
            size = add_children(node, size, moves, count, tree)
        set_priors(node, tree, prior, logits[i])
        # The network's value is for the player to move at the leaf; the
        # leaf's reward is for the player who moved into it.
        reward = (1.0 - values[i]) / 2.0
        _back_up(paths[i], depth, reward, tree)
    return size


@njit(cache=True, nogil=True)
def set_priors(node, tree, prior, logits):
    """Set the priors of ``node``'s children: the softmax of ``logits`` over
    their moves."""
    first = tree.first_child[node]
    count = tree.n_children[node]
    if count == 0:
        return
    top = -np.inf
    for child in range(first, first + count):
        top = max(top, logits[tree.move[child]])
    total = 0.0
    for child in range(first, first + count):
        weight = math.exp(logits[tree.move[child]] - top)
        prior[child] = weight
        total += weight
    for child in range(first, first + count):
        prior[child] = prior[child] / total

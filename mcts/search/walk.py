"""Walk a tree depth first with the position of every node, in numba.

A tree stores moves, not positions. Jobs that need the position of many nodes
(the evaluation's fit in :mod:`mcts.search.learned`, the model replay in
:mod:`mcts.models.replay`) walk the tree depth first and hold one state per
level: a node's state is its parent's, one level up, with the node's move
applied. The kernels here hold that walk once:

- :func:`preorder` gives the visiting order and each node's level;
- :func:`state_at` makes a node's state from its parent's, one level up;
- :func:`passed_over` and :func:`skip_illegal_children` leave out the
  subtrees under a move that is not legal in its parent's position (a
  damaged or hand-edited model), for the walkers that check the moves.

A walker takes a :class:`Walk` (:func:`walk`) and loops over its order::

    way = walk(tree.arrays.head(tree.size), root)
    for i in range(way.order.shape[0]):
        node, level = way.order[i], way.levels[i]
        state = state_at(game_id, way.states, level, move[node])

The order is the one a stack gives (children pushed first to last, so the last
child's subtree is walked first); when a node is reached, the state one level
up is always its parent's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..games import kernels


@njit(cache=True, nogil=True)
def preorder(tree):
    """Return ``(order, levels)``: the ids of every node under the root of
    ``tree`` (a :class:`~mcts.search.tree.TreeArrays`) in depth-first order,
    and the level of each (0 for the root)."""
    first_child, n_children = tree.first_child, tree.n_children
    size = first_child.shape[0]
    order = np.empty(size, dtype=np.int64)
    levels = np.empty(size, dtype=np.int64)
    stack = np.empty((size, 2), dtype=np.int64)
    stack[0, 0], stack[0, 1] = 0, 0
    top = 1
    count = 0
    while top > 0:
        top -= 1
        node, level = stack[top, 0], stack[top, 1]
        order[count], levels[count] = node, level
        count += 1
        first = first_child[node]
        if first >= 0:
            for child in range(first, first + n_children[node]):
                stack[top, 0], stack[top, 1] = child, level + 1
                top += 1
    return order[:count], levels[:count]


class Walk(NamedTuple):
    """A depth-first walk of a tree: the visiting order, each node's level
    and room for one state a level (the root's in row 0)."""

    order: np.ndarray  # int64 node ids
    levels: np.ndarray  # int64
    states: np.ndarray  # one state vector a level


def walk(tree, root: np.ndarray) -> Walk:
    """Return the :class:`Walk` of ``tree`` (a :class:`~mcts.search.tree.TreeArrays`)
    from the state vector ``root``."""
    order, levels = preorder(tree)
    return Walk(order, levels, level_states(root, levels))


def level_states(root: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """Return room for one state per level of a walk, ``root`` in row 0."""
    depth = int(levels.max(initial=0)) + 1
    states = np.empty((depth, root.shape[0]), dtype=root.dtype)
    states[0, :] = root
    return states


@njit(cache=True, nogil=True)
def state_at(game_id, states, level, move):
    """Return the state of the node reached by ``move`` at ``level`` of the
    walk: the root's at level 0, else ``states[level]``, made from its
    parent's state ``states[level - 1]``."""
    if level == 0:
        return states[0]
    states[level, :] = states[level - 1, :]
    kernels.apply_move(game_id, states[level], np.int64(move))
    return states[level]


@njit(cache=True, nogil=True)
def passed_over(first_child, n_children, node, skipped):
    """Return whether ``node`` lies under an illegal move (``skipped``); if
    so, mark its children too: their subtrees follow it in the walk."""
    if not skipped[node]:
        return False
    first = first_child[node]
    if first >= 0:
        skipped[first : first + n_children[node]] = True
    return True


@njit(cache=True, nogil=True)
def skip_illegal_children(
    game_id, first, n_children, move, state, legal, skipped, first_illegal
):
    """Mark in ``skipped`` the children (``n_children`` from ``first``) whose
    ``move`` is not legal in their parent's position ``state`` (``legal``:
    room for the legal moves); return the lowest illegal node found so far,
    ``first_illegal`` included (-1: none)."""
    if first < 0:
        return first_illegal
    count = kernels.legal_moves(game_id, state, legal)
    for child in range(first, first + n_children):
        is_legal = False
        for k in range(count):
            if legal[k] == move[child]:
                is_legal = True
                break
        if not is_legal:
            skipped[child] = True
            if first_illegal < 0 or child < first_illegal:
                first_illegal = child
    return first_illegal

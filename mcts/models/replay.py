"""Replay a tree's moves in numba: the position of every node, as a digest.

A tree stores moves, not positions. Two jobs need every node's position: the
model loader's full check (each move legal in its parent's position, each
line of ``states.jsonl`` equal to the position the moves reach) and the
position index that finds a game's position in a model (transpositions
included). :func:`replay` walks the tree depth first (the walk of
:mod:`mcts.search.walk`, one state per level) and gives each node the side
to move and a 64-bit FNV-1a digest of its state string
(:meth:`Game.state_string`, rendered by the kernels), so neither job builds
a million Python states.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..games import kernels
from ..games.base import MAX_MOVES, STATE_STRING_ROOM, Game, State
from ..search.tree import Tree
from ..search.walk import passed_over, skip_illegal_children, state_at, walk

_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)


@dataclass(frozen=True)
class Replay:
    """Per node: ``digests`` of the state strings and ``sides`` to move (0
    black, 1 white); ``first_illegal``: the lowest id whose move is illegal in
    its parent's position (its subtree is not replayed), or -1."""

    digests: np.ndarray
    sides: np.ndarray
    first_illegal: int


def replay(game: Game, tree: Tree, root: State) -> Replay:
    """Return the :class:`Replay` of ``tree`` with ``root`` as node 0's position."""
    size = tree.size
    digests = np.zeros(size, dtype=np.uint64)
    sides = np.zeros(size, dtype=np.int8)
    arrays = tree.arrays.head(size)
    first_illegal = _replay(
        game.game_id, walk(arrays, root.array), arrays, digests, sides
    )
    return Replay(digests, sides, int(first_illegal))


def state_digest(game: Game, state: State) -> int:
    """Return the digest of ``state``'s state string (as :func:`replay` gives)."""
    return int(
        _state_digest(game.game_id, state.array, np.empty(STATE_STRING_ROOM, np.uint8))
    )


@njit(cache=True, nogil=True)
def _fnv(data, start, stop):
    """Return the FNV-1a digest of ``data[start:stop]``."""
    h = _FNV_OFFSET
    for i in range(start, stop):
        h = (h ^ np.uint64(data[i])) * _FNV_PRIME
    return h


@njit(cache=True, nogil=True)
def _state_digest(game_id, state, room):
    return _fnv(room, 0, kernels.render_state(game_id, state, room))


@njit(cache=True, nogil=True)
def _replay(game_id, way, tree, digests, sides):
    """Walk the tree (``way``, a :class:`~mcts.search.walk.Walk`), filling
    ``digests`` and ``sides`` of every node reached by legal moves; return
    the lowest illegal node or -1."""
    order, levels, states = way.order, way.levels, way.states
    first_child, n_children, move = tree.first_child, tree.n_children, tree.move
    legal = np.empty(MAX_MOVES, dtype=np.int64)
    room = np.empty(STATE_STRING_ROOM, dtype=np.uint8)
    # Nodes under an illegal move: skipped, with their subtrees.
    skipped = np.zeros(first_child.shape[0], dtype=np.bool_)
    first_illegal = -1
    for i in range(order.shape[0]):
        node, level = order[i], levels[i]
        if passed_over(first_child, n_children, node, skipped):
            continue
        state = state_at(game_id, states, level, move[node])
        digests[node] = _state_digest(game_id, state, room)
        sides[node] = kernels.side_to_move(game_id, state)
        first_illegal = skip_illegal_children(
            game_id,
            first_child[node],
            n_children[node],
            move,
            state,
            legal,
            skipped,
            first_illegal,
        )
    return first_illegal


_PREFIX = np.frombuffer(b'{"id":', dtype=np.uint8)
_SIDE_FIELD = np.frombuffer(b',"side":"', dtype=np.uint8)
_STATE_FIELD = np.frombuffer(b'","state":"', dtype=np.uint8)
_SUFFIX = np.frombuffer(b'"}\n', dtype=np.uint8)
_SIDE_NAMES = np.frombuffer(b"blackwhite", dtype=np.uint8).reshape(2, 5)


def first_bad_state_line(lines: bytes, first_id: int, result: Replay) -> int:
    """Return the index of the first of ``lines`` (whole lines of
    ``states.jsonl``, the first one of node ``first_id``) that is not exactly
    the line saving writes for its node, or -1 when all are."""
    data = np.frombuffer(lines, dtype=np.uint8)
    return int(_first_bad_line(data, first_id, result.digests, result.sides))


@njit(cache=True, nogil=True)
def _expect(data, at, token):
    """Return the position after ``token`` if ``data`` holds it at ``at``, else -1."""
    if at + token.shape[0] > data.shape[0]:
        return -1
    for i in range(token.shape[0]):
        if data[at + i] != token[i]:
            return -1
    return at + token.shape[0]


@njit(cache=True, nogil=True)
def _first_bad_line(data, first_id, digests, sides):
    at = 0
    index = 0
    while at < data.shape[0]:
        node = first_id + index
        end = at
        while data[end] != 10:  # every line ends with a newline
            end += 1
        ok = node < digests.shape[0]
        pos = _expect(data, at, _PREFIX) if ok else -1
        if pos >= 0:  # the id, in decimal without leading zeros
            digits = 1
            while node // 10**digits > 0:
                digits += 1
            for k in range(digits):
                if (
                    pos + k >= end
                    or data[pos + k] != 48 + node // 10 ** (digits - 1 - k) % 10
                ):
                    pos = -1
                    break
            if pos >= 0:
                pos += digits
        if pos >= 0:
            pos = _expect(data, pos, _SIDE_FIELD)
        if pos >= 0:
            pos = _expect(data, pos, _SIDE_NAMES[sides[node]])
        if pos >= 0:
            pos = _expect(data, pos, _STATE_FIELD)
        if pos >= 0:
            stop = pos
            while stop < end and data[stop] != 34:  # the closing quote
                stop += 1
            if _fnv(data, pos, stop) != digests[node]:
                pos = -1
            else:
                pos = _expect(data, stop, _SUFFIX)
        if pos != end + 1:
            return index
        at = end + 1
        index += 1
    return -1

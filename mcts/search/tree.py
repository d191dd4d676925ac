"""The search tree: a struct of numpy arrays indexed by node id, root 0.

No Python object exists per node. Each node is one row across seven arrays:

============  =======  ==================================================
array         dtype    meaning
============  =======  ==================================================
parent        int32    parent id (-1 for the root)
move          int32    move code that leads from the parent to the node
first_child   int32    id of the first child, -1 while not expanded
n_children    int16    number of children (all allocated contiguously)
visits        int32    simulations that went through the node
value_sum     float32  sum of rewards, from the view of the player who
                       made ``move`` (win 1, draw 0.5, loss 0)
proven        int8     MCTS-Solver result for that same player:
                       0 unknown, +1 win, -1 loss, 2 draw
============  =======  ==================================================

That is 23 bytes a node, so a million nodes take 23 MB (plus the unused part
of the last doubling). ``float32`` sums are exact for the half-integer rewards
of finished rollouts up to 2**23 visits and lose at most a relative 1e-7
otherwise, which is far below the noise of any Monte Carlo estimate.

The seven arrays travel together as one :class:`TreeArrays` record, which
is what the numba kernels take. The arrays grow by doubling
(:meth:`Tree.reserve`). States are not stored:
the search replays moves from the root state while it descends.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np
from numba import njit


class Proven(enum.IntEnum):
    """A node's MCTS-Solver result, from the view of the player who made the
    move into it (the values the ``proven`` array holds).

    An ``IntEnum`` so the numba kernels compile its members as integer
    constants and compare them with the ``int8`` array directly.
    """

    UNKNOWN = 0
    WIN = 1
    LOSS = -1
    DRAW = 2

    @property
    def text(self) -> str | None:
        """Return ``"win"``, ``"loss"``, ``"draw"``, or None while unknown:
        the word results, the store and the page use."""
        return _PROVEN_TEXT[self]

    @property
    def flipped(self) -> Proven:
        """Return the same result from the other player's view."""
        return _PROVEN_FLIPPED[self]

    @classmethod
    def from_text(cls, text: str | None) -> Proven:
        """Return the member whose :attr:`text` is ``text`` (KeyError if none)."""
        return _TEXT_PROVEN[text]


_PROVEN_TEXT = {
    Proven.UNKNOWN: None,
    Proven.WIN: "win",
    Proven.LOSS: "loss",
    Proven.DRAW: "draw",
}
_TEXT_PROVEN = {text: proven for proven, text in _PROVEN_TEXT.items()}
_PROVEN_FLIPPED = {
    Proven.UNKNOWN: Proven.UNKNOWN,
    Proven.WIN: Proven.LOSS,
    Proven.LOSS: Proven.WIN,
    Proven.DRAW: Proven.DRAW,
}


#: What a selection does with a child, by its proof (:func:`proof_step`).
SCORE = 0
SKIP = 1
TAKE = 2
DRAWN = 3


@njit(cache=True, nogil=True, inline="always")
def proof_step(proof):
    """Return what the MCTS-Solver's selection does with a child proven
    ``proof`` (for the player who moved into it): a proven loss is never
    chosen (SKIP), a proven win at once (TAKE); a proven draw is passed over
    while an unknown sibling is left (DRAWN: the caller remembers it, see
    :func:`proof_choice`), since its exact value needs no more visits and
    only the unknown siblings can still prove or refute the node; an unknown
    child is chosen by its score (SCORE). Every selection rule shares these
    (inlined into each)."""
    if proof == Proven.LOSS:
        return SKIP
    if proof == Proven.WIN:
        return TAKE
    if proof == Proven.DRAW:
        return DRAWN
    return SCORE


@njit(cache=True, nogil=True, inline="always")
def proof_choice(best, draw):
    """Return ``(child, floored)`` once a selection scored every unknown
    child: the best-scored one (``best``), else the proven draw (``draw``),
    or -1 when every child is lost; ``floored`` says a proven-draw sibling
    was passed over, so the caller backs up at least a draw for the player
    to move (he can always take it)."""
    if best < 0:
        return draw, False
    return best, draw >= 0


class TreeArrays(NamedTuple):
    """The tree's per-node arrays, one row per node (see the module docstring).

    The numba kernels take this record whole (numba compiles and caches a
    NamedTuple of arrays) instead of seven positional arguments.
    """

    parent: np.ndarray  # int32
    move: np.ndarray  # int32
    first_child: np.ndarray  # int32
    n_children: np.ndarray  # int16
    visits: np.ndarray  # int32
    value_sum: np.ndarray  # float32
    proven: np.ndarray  # int8, a Proven value

    @classmethod
    def empty(cls, capacity: int) -> TreeArrays:
        """Return uninitialised arrays for ``capacity`` nodes."""
        return cls(*(np.empty(capacity, dtype=dtype) for _, dtype in FIELDS))

    def head(self, size: int) -> TreeArrays:
        """Return views of the first ``size`` rows of every array."""
        return TreeArrays(*(array[:size] for array in self))


#: The per-node arrays and their dtypes, in :class:`TreeArrays` order.
FIELDS = (
    ("parent", np.int32),
    ("move", np.int32),
    ("first_child", np.int32),
    ("n_children", np.int16),
    ("visits", np.int32),
    ("value_sum", np.float32),
    ("proven", np.int8),
)

#: Bytes one node costs across all arrays.
BYTES_PER_NODE = sum(np.dtype(dtype).itemsize for _, dtype in FIELDS)

# int32 ids: more nodes than this would overflow the parent/first_child links.
MAX_CAPACITY = 2**31 - 1


class Tree:
    """A growable MCTS tree held in numpy arrays; node 0 is the root.

    ``arrays`` holds the node arrays (replaced when the tree grows, so read
    them through the tree, not from a copy kept across a :meth:`reserve`);
    ``size`` is the number of nodes in use; rows past it are garbage.
    """

    arrays: TreeArrays
    size: int

    def __init__(self, capacity: int = 1024) -> None:
        self.arrays = TreeArrays.empty(max(2, int(capacity)))
        self.size = 1
        self._init_root()

    def _init_root(self) -> None:
        self.parent[0] = -1
        self.move[0] = -1
        self.first_child[0] = -1
        self.n_children[0] = 0
        self.visits[0] = 0
        self.value_sum[0] = 0.0
        self.proven[0] = Proven.UNKNOWN

    # ---- the arrays by name -------------------------------------------------------
    @property
    def parent(self) -> np.ndarray:
        """Return the parent ids (int32, -1 for the root)."""
        return self.arrays.parent

    @property
    def move(self) -> np.ndarray:
        """Return the move codes leading into each node (int32)."""
        return self.arrays.move

    @property
    def first_child(self) -> np.ndarray:
        """Return the first child ids (int32, -1 while not expanded)."""
        return self.arrays.first_child

    @property
    def n_children(self) -> np.ndarray:
        """Return the children counts (int16)."""
        return self.arrays.n_children

    @property
    def visits(self) -> np.ndarray:
        """Return the visit counts (int32)."""
        return self.arrays.visits

    @property
    def value_sum(self) -> np.ndarray:
        """Return the reward sums for the player who moved in (float32)."""
        return self.arrays.value_sum

    @property
    def proven(self) -> np.ndarray:
        """Return the :class:`Proven` values (int8)."""
        return self.arrays.proven

    # ---- capacity -----------------------------------------------------------------
    @property
    def capacity(self) -> int:
        """Return the number of nodes the arrays can hold without growing."""
        return len(self.parent)

    def reserve(self, needed: int) -> None:
        """Grow the arrays (doubling) until they hold at least ``needed`` nodes."""
        if needed <= self.capacity:
            return
        if needed > MAX_CAPACITY:
            raise MemoryError(f"a tree of {needed} nodes exceeds int32 node ids")
        capacity = self.capacity
        while capacity < needed:
            capacity *= 2
        capacity = min(capacity, MAX_CAPACITY)
        grown = TreeArrays.empty(capacity)
        for old, new in zip(self.arrays, grown, strict=True):
            new[: self.size] = old[: self.size]
        self.arrays = grown

    def nbytes(self) -> int:
        """Return the bytes held by the node arrays (allocated capacity, not size)."""
        return sum(array.nbytes for array in self.arrays)

    # ---- reading ------------------------------------------------------------------
    def children(self, node: int = 0) -> range:
        """Return the ids of ``node``'s children (empty while not expanded)."""
        first = int(self.first_child[node])
        if first < 0:
            return range(0)
        return range(first, first + int(self.n_children[node]))

    def child_with_move(self, node: int, move: int) -> int:
        """Return the id of ``node``'s child reached by ``move``, or -1."""
        for child in self.children(node):
            if int(self.move[child]) == move:
                return child
        return -1

    def mean(self, node: int) -> float | None:
        """Return the node's mean reward for the player who moved into it, or None."""
        visits = int(self.visits[node])
        if visits == 0:
            return None
        return float(self.value_sum[node]) / visits

    # ---- growing ------------------------------------------------------------------
    def add_children(self, node: int, moves: np.ndarray) -> int:
        """Expand ``node`` with one new, unvisited child per move code of
        ``moves`` (allocated contiguously, growing the arrays if need be);
        return the first child's id. (The numba kernel expands in place
        the same way.)"""
        count = len(moves)
        self.reserve(self.size + count)
        first = self.size
        children = slice(first, first + count)
        self.parent[children] = node
        self.move[children] = moves
        self.first_child[children] = -1
        self.n_children[children] = 0
        self.visits[children] = 0
        self.value_sum[children] = 0.0
        self.proven[children] = Proven.UNKNOWN
        self.first_child[node] = first
        self.n_children[node] = count
        self.size = first + count
        return first

    def widened_root(self, moves: np.ndarray) -> Tree:
        """Return a compact tree whose expanded root has, after its own
        children, a new unvisited child for each of ``moves`` it lacks (this
        tree itself, unchanged, when there are none; else this tree is left
        with unreachable rows and should be dropped).

        The root's children move to the end of the arrays, the new ones right
        after them so the block stays contiguous, and :meth:`subtree` then
        renumbers the whole tree."""
        old = self.children(0)
        have = {int(self.move[child]) for child in old}
        extra = np.array([m for m in moves if int(m) not in have], dtype=np.int64)
        if not len(old) or not len(extra):
            return self
        count = len(old)
        self.reserve(self.size + count + len(extra))
        first = self.size
        for array in self.arrays:
            array[first : first + count] = array[old.start : old.stop]
        for child in range(first, first + count):
            grand = int(self.first_child[child])
            if grand >= 0:
                self.parent[grand : grand + int(self.n_children[child])] = child
        self.size = first + count
        self.add_children(0, extra)
        self.first_child[0] = first
        self.n_children[0] = count + len(extra)
        return self.subtree(0)

    # ---- reuse --------------------------------------------------------------------
    def snapshot(self) -> Tree:
        """Return a copy of the tree as it is, its node ids unchanged: one
        copy of each array, far cheaper than :meth:`subtree`'s renumbering,
        to keep a tree that is about to change."""
        tree = Tree.__new__(Tree)
        tree.arrays = TreeArrays(*(array[: self.size].copy() for array in self.arrays))
        tree.size = self.size
        return tree

    def subtree(self, node: int, max_nodes: int | None = None) -> Tree:
        """Return a new, compact Tree holding the subtree under ``node`` as its root.

        Node ids are renumbered breadth first, so every node's children stay
        contiguous; the statistics and proofs are copied unchanged. With
        ``max_nodes``, the copy stops expanding nodes (breadth first, a
        node's children all or none) where more would not fit: those become
        leaves that keep their own statistics.
        """
        count = _subtree_size(self.arrays, node)
        if max_nodes is not None:
            count = min(count, max(1, int(max_nodes)))
        tree = Tree(_capacity_for(count))
        tree.size = _copy_subtree(node, self.arrays, tree.arrays, count)
        tree.parent[0] = -1
        return tree

    def __repr__(self) -> str:
        return (
            f"Tree(size={self.size}, capacity={self.capacity}, "
            f"root_visits={int(self.visits[0])})"
        )


class NodeValues:
    """A float32 value per node of the current tree, kept beside it (a
    search's minimax values, a network's priors): kept while the tree is the
    same object and growing with it, unknown (NaN) for a new tree (tree
    reuse and models renumber the nodes)."""

    def __init__(self) -> None:
        self._values = np.empty(0, dtype=np.float32)
        self._tree: Tree | None = None

    def of(self, tree: Tree) -> np.ndarray:
        """Return the values of ``tree``'s nodes, one per node of its
        capacity (read again after the tree grows)."""
        values = self._values if self._tree is tree else self._values[:0]
        if len(values) < tree.capacity:
            grown = np.full(tree.capacity, np.nan, dtype=np.float32)
            grown[: len(values)] = values
            values = grown
        self._values, self._tree = values, tree
        return values


def depth_of(tree: Tree) -> int:
    """Return the depth of the deepest node (the root alone has depth 0)."""
    depth = np.zeros(tree.size, dtype=np.int32)
    return int(_depths(tree.parent, tree.size, depth)) if tree.size > 1 else 0


@njit(cache=True)
def _depths(parent, size, depth):
    deepest = 0
    for node in range(1, size):  # a parent's id is below its children's
        depth[node] = depth[parent[node]] + 1
        if depth[node] > deepest:
            deepest = depth[node]
    return deepest


def _capacity_for(count: int) -> int:
    """Return the power of two (at least 1024) that holds ``count`` nodes."""
    capacity = 1024
    while capacity < count:
        capacity *= 2
    return capacity


@njit(cache=True, nogil=True)
def _subtree_size(arrays, node):
    """Return the number of nodes in the subtree rooted at ``node``."""
    first_child, n_children = arrays.first_child, arrays.n_children
    stack = [node]
    count = 0
    while len(stack) > 0:
        current = stack.pop()
        count += 1
        first = first_child[current]
        if first >= 0:
            for child in range(first, first + n_children[current]):
                stack.append(child)
    return count


@njit(cache=True, nogil=True)
def _copy_subtree(node, old, new, limit):
    """Copy the subtree under ``node`` into the new arrays, breadth first, at
    most ``limit`` nodes (a node whose children would pass it is copied
    unexpanded); return the nodes copied.

    The new arrays double as the queue: new node ``i`` is read back in order,
    and ``old_id[i]`` remembers where its row came from.
    """
    total = new.parent.shape[0]
    old_id = np.empty(total, dtype=np.int64)
    old_id[0] = node
    new.parent[0] = -1
    size = 1
    head = 0
    while head < size:
        source = old_id[head]
        new.move[head] = old.move[source]
        new.visits[head] = old.visits[source]
        new.value_sum[head] = old.value_sum[source]
        new.proven[head] = old.proven[source]
        new.n_children[head] = old.n_children[source]
        first = old.first_child[source]
        if first < 0 or size + old.n_children[source] > limit:
            new.first_child[head] = -1
            new.n_children[head] = 0
        else:
            new.first_child[head] = size
            for k in range(old.n_children[source]):
                old_id[size] = first + k
                new.parent[size] = head
                size += 1
        head += 1
    return size

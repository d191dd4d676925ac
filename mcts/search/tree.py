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

The arrays grow by doubling (:meth:`Tree.reserve`). States are not stored:
the search replays moves from the root state while it descends.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Proven values, from the view of the player who made the move into the node.
UNKNOWN = 0
PROVEN_WIN = 1
PROVEN_LOSS = -1
PROVEN_DRAW = 2

PROVEN_NAMES = {
    UNKNOWN: None,
    PROVEN_WIN: "win",
    PROVEN_LOSS: "loss",
    PROVEN_DRAW: "draw",
}

#: The per-node arrays and their dtypes, in the order the kernels take them.
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

    ``size`` is the number of nodes in use; rows past it are garbage.
    """

    def __init__(self, capacity: int = 1024) -> None:
        capacity = max(2, int(capacity))
        for name, dtype in FIELDS:
            setattr(self, name, np.empty(capacity, dtype=dtype))
        self.size = 1
        self._init_root()

    def _init_root(self) -> None:
        self.parent[0] = -1
        self.move[0] = -1
        self.first_child[0] = -1
        self.n_children[0] = 0
        self.visits[0] = 0
        self.value_sum[0] = 0.0
        self.proven[0] = UNKNOWN

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
        for name, dtype in FIELDS:
            old = getattr(self, name)
            new = np.empty(capacity, dtype=dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)

    def nbytes(self) -> int:
        """Return the bytes held by the node arrays (allocated capacity, not size)."""
        return sum(getattr(self, name).nbytes for name, _ in FIELDS)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """Return the node arrays in :data:`FIELDS` order (for the numba kernels)."""
        return tuple(getattr(self, name) for name, _ in FIELDS)

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

    # ---- reuse --------------------------------------------------------------------
    def subtree(self, node: int) -> Tree:
        """Return a new, compact Tree holding the subtree under ``node`` as its root.

        Node ids are renumbered breadth first, so every node's children stay
        contiguous; the statistics and proofs are copied unchanged.
        """
        count = _subtree_size(self.first_child, self.n_children, node)
        tree = Tree(_capacity_for(count))
        _copy_subtree(node, *self.arrays(), *tree.arrays())
        tree.parent[0] = -1
        tree.size = count
        return tree

    def __repr__(self) -> str:
        return (
            f"Tree(size={self.size}, capacity={self.capacity}, "
            f"root_visits={int(self.visits[0])})"
        )


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
def _subtree_size(first_child, n_children, node):
    """Return the number of nodes in the subtree rooted at ``node``."""
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
def _copy_subtree(
    node,
    parent,
    move,
    first_child,
    n_children,
    visits,
    value_sum,
    proven,
    new_parent,
    new_move,
    new_first_child,
    new_n_children,
    new_visits,
    new_value_sum,
    new_proven,
):
    """Copy the subtree under ``node`` into the new arrays, breadth first.

    The new arrays double as the queue: new node ``i`` is read back in order,
    and ``old_id[i]`` remembers where its row came from.
    """
    total = new_parent.shape[0]
    old_id = np.empty(total, dtype=np.int64)
    old_id[0] = node
    new_parent[0] = -1
    size = 1
    head = 0
    while head < size:
        source = old_id[head]
        new_move[head] = move[source]
        new_visits[head] = visits[source]
        new_value_sum[head] = value_sum[source]
        new_proven[head] = proven[source]
        new_n_children[head] = n_children[source]
        first = first_child[source]
        if first < 0:
            new_first_child[head] = -1
        else:
            new_first_child[head] = size
            for k in range(n_children[source]):
                old_id[size] = first + k
                new_parent[size] = head
                size += 1
        head += 1
    return size

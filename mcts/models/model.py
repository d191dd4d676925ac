"""A tree model in memory: the Model, pruning, merging, and warm starts.

A model is a search tree grown by self-play (:mod:`mcts.models.selfplay`) with the
position of its root; :mod:`mcts.models.store` saves it to and loads it from disk.

In play a model is shared read-only by many games: :func:`warm_tree` finds
the current position in it (by a hash index of every expanded node's
position, so the move path and transpositions alike lead to it) and copies
that subtree into a new Tree for the searcher.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit

from ..games.base import Game, State
from ..games.symmetry import inverse
from ..search.gomoku.network import NetworkWeights
from ..search.gomoku.weights import ShapeWeights
from ..search.learned import Evaluation, fit
from ..search.reversi.patterns import PatternWeights
from ..search.tree import Proven, Tree, depth_of
from .replay import replay, state_digest


class ModelError(ValueError):
    """A model that cannot be loaded or saved; the message names file and line."""


@dataclass
class Model:
    """A loaded model: the game, a read-only tree (root 0 = ``root_state``),
    its manifest and the evaluation learnt from the tree (None if the game
    has none or it was not fitted), and the weights it carries
    (:mod:`mcts.models.weights`, None if none): a Reversi model's pattern
    evaluation, a Gomoku model's policy-value network and its alpha-beta's
    shape weights. ``path`` is where it
    was loaded from (None if built in memory)."""

    game: Game
    tree: Tree
    root_state: State
    manifest: dict = field(default_factory=dict)
    path: Path | None = None
    evaluation: Evaluation | None = None
    patterns: PatternWeights | None = None
    network: NetworkWeights | None = None
    shape_weights: ShapeWeights | None = None
    _index: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def nodes(self) -> int:
        """Return the number of nodes."""
        return int(self.tree.size)

    @property
    def index(self) -> PositionIndex:
        """Return the index of the model's positions, built on first use (and
        again if the tree was replaced or grown since)."""
        with _INDEX_LOCK:
            cached = self._index
            if cached is None or cached[0] is not self.tree or cached[1] != self.nodes:
                index = PositionIndex(self.game, self.tree, self.root_state)
                self._index = cached = (self.tree, self.nodes, index)
            return cached[2]


_INDEX_LOCK = threading.Lock()


# ---- pruning ----------------------------------------------------------------------
def prune(tree: Tree, min_visits: int = 1) -> Tree:
    """Return a compact breadth-first copy of ``tree`` keeping the children of
    every node that has at least ``min_visits`` visits (the root always).

    A node's children are kept all or none, because the search treats an
    expanded node's children as the complete list of its moves: dropping one
    would hide that move from every later search.
    """
    keep = np.empty(tree.size, dtype=np.int64)
    count = _prune_order(tree.arrays, int(min_visits), keep)
    keep = keep[:count]
    out = Tree(max(2, count))
    _prune_copy(keep, int(min_visits), tree.arrays, out.arrays)
    out.size = count
    return out


def min_visits_for(tree: Tree, max_nodes: int) -> int:
    """Return the smallest ``min_visits`` for which :func:`prune` keeps at
    most ``max_nodes`` nodes (at least the root and its children are kept)."""
    keep = np.empty(tree.size, dtype=np.int64)

    def kept(min_visits: int) -> int:
        return int(_prune_order(tree.arrays, min_visits, keep))

    low, high = 1, int(tree.visits[: tree.size].max(initial=0)) + 1
    while low < high:  # the count falls as min_visits rises
        middle = (low + high) // 2
        if kept(middle) <= max_nodes:
            high = middle
        else:
            low = middle + 1
    return low


@njit(cache=True, nogil=True)
def _prune_order(tree, min_visits, keep):
    """Fill ``keep`` with the old ids of the kept nodes, breadth first; return
    their count."""
    first_child, n_children, visits = tree.first_child, tree.n_children, tree.visits
    keep[0] = 0
    size = 1
    head = 0
    while head < size:
        node = keep[head]
        first = first_child[node]
        if first >= 0 and (head == 0 or visits[node] >= min_visits):
            for k in range(n_children[node]):
                keep[size] = first + k
                size += 1
        head += 1
    return size


@njit(cache=True, nogil=True)
def _prune_copy(keep, min_visits, tree, out):
    """Copy the kept nodes of ``tree`` into ``out`` under their new ids
    (``keep[new]`` is the old id, as :func:`_prune_order` fills it)."""
    size = 1
    out.parent[0] = -1
    for new in range(keep.shape[0]):
        old = keep[new]
        out.move[new] = tree.move[old]
        out.visits[new] = tree.visits[old]
        out.value_sum[new] = tree.value_sum[old]
        out.proven[new] = tree.proven[old]
        first = tree.first_child[old]
        if first >= 0 and (new == 0 or tree.visits[old] >= min_visits):
            out.first_child[new] = size
            out.n_children[new] = tree.n_children[old]
            for k in range(tree.n_children[old]):
                out.parent[size + k] = new
            size += tree.n_children[old]
        else:
            out.first_child[new] = -1
            out.n_children[new] = 0


# ---- combining trees -------------------------------------------------------------
def graft(dst: Tree, dst_node: int, src: Tree, *, weight: float = 0.0) -> None:
    """Fold the tree ``src`` (rooted at the position of ``dst_node``) into ``dst``.

    With ``weight`` 0 the statistics of matching nodes are replaced by src's
    (self-play: the search started from a copy of dst's, so src's include
    them); otherwise ``weight`` times src's are added (merging models).
    Nodes that src expanded and dst did not are appended to dst. Where both
    expanded a node, src children missing in dst are dropped: children must
    stay consecutive. Proofs known in either tree are kept.
    """
    dst.reserve(dst.size + src.size)
    stack = np.empty(src.size + 1, dtype=np.int64)
    dst.size = int(
        _graft(int(dst_node), dst.size, dst.arrays, src.arrays, float(weight), stack)
    )


@njit(cache=True, nogil=True)
def _graft(dst_node, size, dst, src, weight, pairs):
    """Return dst's new size after folding src into it (see :func:`graft`)."""
    parent, move, first_child, n_children = (
        dst.parent,
        dst.move,
        dst.first_child,
        dst.n_children,
    )
    visits, value_sum, proven = dst.visits, dst.value_sum, dst.proven
    s_move, s_first, s_n = src.move, src.first_child, src.n_children
    s_visits, s_value, s_proven = src.visits, src.value_sum, src.proven
    # pairs holds src ids; the matching dst id is packed into the high bits.
    pairs[0] = dst_node * (1 << 31) + 0
    top = 1
    while top > 0:
        top -= 1
        d = pairs[top] >> 31
        s = pairs[top] & ((1 << 31) - 1)
        if weight == 0.0:
            visits[d] = s_visits[s]
            value_sum[d] = s_value[s]
        else:
            visits[d] = visits[d] + np.int32(round(weight * s_visits[s]))
            value_sum[d] = value_sum[d] + weight * s_value[s]
            if visits[d] < 0:
                visits[d] = 0
        if proven[d] == Proven.UNKNOWN:
            proven[d] = s_proven[s]
        sf = s_first[s]
        if sf < 0:
            continue
        if first_child[d] < 0:
            first_child[d] = size
            n_children[d] = s_n[s]
            for k in range(s_n[s]):
                c = size + k
                parent[c] = d
                move[c] = s_move[sf + k]
                first_child[c] = -1
                n_children[c] = 0
                visits[c] = 0
                value_sum[c] = 0.0
                proven[c] = Proven.UNKNOWN
                pairs[top] = c * (1 << 31) + sf + k
                top += 1
            size += s_n[s]
        else:
            df = first_child[d]
            for k in range(s_n[s]):
                m = s_move[sf + k]
                for j in range(df, df + n_children[d]):
                    if move[j] == m:
                        pairs[top] = j * (1 << 31) + sf + k
                        top += 1
                        break
    return size


def merge(a: Model, b: Model) -> Model:
    """Return a new model whose statistics are the sums of ``a``'s and ``b``'s
    (same game, options and root); ModelError otherwise."""
    if (a.game.name, a.game.options) != (b.game.name, b.game.options):
        raise ModelError(f"cannot merge a {a.game!r} model with a {b.game!r} model")
    if a.root_state != b.root_state:
        raise ModelError("cannot merge models with different root positions")
    tree = a.tree.subtree(0)
    graft(tree, 0, b.tree, weight=1.0)
    built = {
        "by": "merge",
        "sources": [_describe_source(a), _describe_source(b)],
        "selfplay_games": _games(a) + _games(b),
    }
    evaluation = fit(a.game, tree, a.root_state)
    patterns = a.patterns if a.patterns is not None else b.patterns
    network = a.network if a.network is not None else b.network
    shape_weights = a.shape_weights or b.shape_weights
    return Model(
        a.game,
        tree,
        a.root_state,
        {"built": built},
        None,
        evaluation,
        patterns,
        network,
        shape_weights,
    )


def _describe_source(model: Model) -> dict:
    return {
        "path": str(model.path) if model.path else None,
        "nodes": model.nodes,
        "built": model.manifest.get("built"),
    }


def _games(model: Model) -> int:
    built = model.manifest.get("built") or {}
    return int(built.get("selfplay_games", 0) or 0)


def empty_model(game: Game, root: State | None = None) -> Model:
    """Return a model of one unvisited root (the start of a self-play build)."""
    return Model(game, Tree(), game.initial_state() if root is None else root, {}, None)


# ---- use in play --------------------------------------------------------------------
def evaluation_for(model: Model, game: Game) -> Evaluation | None:
    """Return the model's learned evaluation if it may score ``game``'s
    positions: same game and options (a Gomoku evaluation fitted on 15x15
    does not judge a 9x9 board); else None."""
    if (game.name, game.options) != (model.game.name, model.game.options):
        return None
    return model.evaluation


def patterns_for(model: Model, game: Game) -> PatternWeights | None:
    """Return the model's pattern evaluation if it may score ``game``'s
    positions (same game and options), else None."""
    if (game.name, game.options) != (model.game.name, model.game.options):
        return None
    return model.patterns


def shape_weights_for(model: Model, game: Game) -> ShapeWeights | None:
    """Return the Gomoku alpha-beta's shape weights the model carries if
    they may judge ``game``'s positions (same game and options), else None."""
    if (game.name, game.options) != (model.game.name, model.game.options):
        return None
    return model.shape_weights


#: The most nodes of a model a search starts from: the shallowest, breadth
#: first. A full model holds more than a million below its first moves, and
#: copying them all cost the page's AI 0.75 s a move while a 0.15 s search
#: reaches a few thousand.
WARM_MAX_NODES = 200_000


def warm_tree(model: Model, game: Game, state: State) -> Tree | None:
    """Return a new Tree with the model's statistics for ``state``, or None
    when the model does not know it (another game or options, or a position
    it never expanded).

    The position is looked up by its digest in each of the board's eight
    orientations (a model that studied a position also knows its rotations
    and mirror images) and reached by any move order (a transposition);
    where several nodes hold it, the most studied one is taken
    (:meth:`PositionIndex.study`), its moves mapped back to ``state``'s
    orientation. The copy is the searcher's to grow: the model itself is
    never modified. It holds at most :data:`WARM_MAX_NODES` nodes.

    The copy's root counts at least its children's visits, and then their
    value: a self-play model studies a position without adding to its own
    visits (its parent's view), and a search whose root counted fewer visits
    than its children would barely explore.
    """
    if (game.name, game.options) != (model.game.name, model.game.options):
        return None
    index = model.index
    best, best_image = -1, game.symmetries()[0]
    for image in game.symmetries():
        node = index.find(game.map_state(state, image))
        if node >= 0 and (best < 0 or index.study(node) > index.study(best)):
            best, best_image = node, image
    if best < 0:
        return None
    tree = model.tree.subtree(best, WARM_MAX_NODES)
    # The model's moves are in the mapped orientation: map them back.
    back = game.move_map(inverse(best_image))
    tree.move[1 : tree.size] = back[tree.move[1 : tree.size]]
    studied = index.study(best)
    if studied > int(tree.visits[0]):
        children = tree.children(0)
        mover_value = float(tree.value_sum[children.start : children.stop].sum())
        # The root's value is from the view of the player who moved into it.
        tree.value_sum[0] = studied - mover_value
        tree.visits[0] = studied
    return tree


class PositionIndex:
    """The expanded nodes of a tree, sorted by the digest of their position.

    Built once per model (well under a second per million nodes, 16 bytes
    per expanded node and 8 per node for the study). Two positions with the
    same 64-bit digest would be confused: a lookup in a million nodes hits a
    wrong one about once in 10^13.
    """

    def __init__(self, game: Game, tree: Tree, root: State) -> None:
        self.game = game
        digests = replay(game, tree, root).digests
        size = tree.size
        # A node's study is the visits of its children: what searches from
        # the position learnt. Its own visits are its parent's searches, and
        # self-play searches a position without adding to them.
        self._study = np.zeros(size, dtype=np.int64)
        np.add.at(self._study, tree.parent[1:size], tree.visits[1:size])
        expanded = np.flatnonzero(tree.first_child[:size] >= 0)
        # Most studied first within a digest, so the first match is the best.
        order = np.lexsort((-self._study[expanded], digests[expanded]))
        self.nodes = expanded[order]
        self.digests = digests[self.nodes]

    def study(self, node: int) -> int:
        """Return the visits of ``node``'s children: how much searches from
        its position have studied it."""
        return int(self._study[node])

    def find(self, state: State) -> int:
        """Return the most studied expanded node holding ``state``, or -1."""
        key = np.uint64(state_digest(self.game, state))
        at = int(np.searchsorted(self.digests, key))
        if at < len(self.digests) and self.digests[at] == key:
            return int(self.nodes[at])
        return -1


# ---- summaries ----------------------------------------------------------------------
def info(model: Model, *, top: int = 5, plies: int = 8) -> dict:
    """Return a JSON-ready summary: node count, depth, bytes on disk, root
    visits and the top lines (most visited moves at the root, each followed
    by its most visited continuation)."""
    tree, game = model.tree, model.game
    lines = []
    children = sorted(tree.children(0), key=lambda c: -int(tree.visits[c]))[:top]
    for child in children:
        state = model.root_state
        node = child
        line: list[str] = []
        while node >= 0 and len(line) < plies and tree.visits[node] > 0:
            code = int(tree.move[node])
            line.append(game.format_move(state, code))
            state = game.apply(state, code)
            kids = list(tree.children(node))
            node = max(kids, key=lambda c: int(tree.visits[c])) if kids else -1
        mean = tree.mean(child)
        lines.append(
            {
                "line": " ".join(line),
                "visits": int(tree.visits[child]),
                "value": None if mean is None else round(mean, 3),
            }
        )
    size = None
    if model.path is not None:
        size = sum(p.stat().st_size for p in Path(model.path).iterdir() if p.is_file())
    return {
        "game": game.name,
        "options": dict(game.options),
        "nodes": model.nodes,
        "depth": depth_of(tree),
        "root_visits": int(tree.visits[0]),
        "bytes": size,
        "built": model.manifest.get("built"),
        "created": model.manifest.get("created"),
        "evaluation": model.evaluation.fitted if model.evaluation else None,
        "patterns": model.patterns.fitted if model.patterns else None,
        "network": model.network.trained if model.network else None,
        "shapes": model.shape_weights.fitted if model.shape_weights else None,
        "top_lines": lines,
    }

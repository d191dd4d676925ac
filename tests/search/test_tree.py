"""The tree arrays: growth by doubling, memory per node, subtree copies."""

import numpy as np

from mcts.games import find_game
from mcts.search.config import SearchConfig
from mcts.search.searcher import Searcher
from mcts.search.tree import BYTES_PER_NODE, FIELDS, Proven, Tree, TreeArrays

from .configs import config

RANDOM = SearchConfig(evaluator="random")


def test_a_new_tree_holds_only_an_unexpanded_root():
    tree = Tree()
    assert tree.size == 1
    assert tree.parent[0] == -1
    assert tree.first_child[0] == -1
    assert tree.visits[0] == 0
    assert list(tree.children(0)) == []


def test_reserve_doubles_capacity_and_keeps_the_rows():
    tree = Tree(capacity=4)
    tree.visits[0] = 7
    tree.reserve(5)
    assert tree.capacity == 8
    tree.reserve(33)
    assert tree.capacity == 64
    assert tree.visits[0] == 7
    tree.reserve(10)  # never shrinks
    assert tree.capacity == 64


def test_the_search_grows_a_small_tree_by_doubling():
    game = find_game("reversi")
    searcher = Searcher(game, config=RANDOM, seed=1)
    searcher.tree = Tree(capacity=1024)
    searcher.search(simulations=5_000)
    tree = searcher.tree
    assert tree.size > 1024
    assert tree.capacity >= tree.size
    assert tree.capacity & (tree.capacity - 1) == 0  # a power of two
    assert tree.capacity < 4 * tree.size + 1024


def test_a_node_costs_23_bytes():
    assert BYTES_PER_NODE == 23
    assert Tree(capacity=1000).nbytes() == 23_000


def test_a_million_node_tree_takes_under_150_mb():
    tree = Tree(capacity=1_000_000)
    assert tree.nbytes() < 150_000_000
    assert tree.nbytes() <= 25 * 1_000_000


def test_max_nodes_caps_the_tree_and_the_search_still_runs():
    game = find_game("gomoku")
    searcher = Searcher(game, config=RANDOM, seed=2, max_nodes=2048)
    result = searcher.search(simulations=3_000)
    assert searcher.tree.size <= 2048
    assert searcher.tree.capacity <= 2048
    assert result.simulations == 3_000


def _same_subtree(a, node_a, b, node_b):
    assert a.move[node_a] == b.move[node_b]
    assert a.visits[node_a] == b.visits[node_b]
    assert a.value_sum[node_a] == b.value_sum[node_b]
    assert a.proven[node_a] == b.proven[node_b]
    kids_a, kids_b = list(a.children(node_a)), list(b.children(node_b))
    assert len(kids_a) == len(kids_b)
    for child_a, child_b in zip(kids_a, kids_b, strict=True):
        assert b.parent[child_b] == node_b
        _same_subtree(a, child_a, b, child_b)


def test_subtree_copies_every_statistic_under_the_new_root():
    game = find_game("reversi")
    searcher = Searcher(game, config=RANDOM, seed=3)
    searcher.search(simulations=3_000)
    tree = searcher.tree
    child = max(tree.children(0), key=lambda ch: tree.visits[ch])
    sub = tree.subtree(child)
    assert sub.parent[0] == -1
    _same_subtree(tree, child, sub, 0)
    # breadth-first renumbering keeps every child block contiguous and in range
    used = sub.first_child[: sub.size]
    assert np.all((used == -1) | ((used > 0) & (used < sub.size)))


def test_a_snapshot_keeps_the_tree_as_it_was_while_the_tree_grows_on():
    game = find_game("reversi")
    searcher = Searcher(game, config=RANDOM, seed=3)
    searcher.search(simulations=2_000)
    size = searcher.tree.size
    copy = searcher.tree.snapshot()
    kept = [array.copy() for array in copy.arrays]
    searcher.search(simulations=2_000)
    assert searcher.tree.size > size and copy.size == size
    for array, before in zip(copy.arrays, kept, strict=True):
        assert np.array_equal(array, before)
    _same_subtree(copy, 0, copy.subtree(0), 0)


def test_a_capped_subtree_keeps_the_shallowest_nodes_whole_families_only():
    game = find_game("reversi")
    searcher = Searcher(game, config=RANDOM, seed=3)
    searcher.search(simulations=3_000)
    tree = searcher.tree
    assert tree.size > 100
    capped = tree.subtree(0, max_nodes=100)
    assert capped.size <= 100 and capped.visits[0] == tree.visits[0]
    for node in range(capped.size):  # a node holds all its children or none
        if capped.first_child[node] >= 0:
            assert (
                capped.n_children[node]
                == tree.n_children[_same_node(tree, capped, node)]
            )
    # the root's moves are all there, with their statistics
    assert sorted(capped.move[list(capped.children(0))]) == sorted(
        tree.move[list(tree.children(0))]
    )
    assert tree.subtree(0, max_nodes=10**9).size == tree.size


def _same_node(tree, copy, node):
    """Return the id in ``tree`` of ``copy``'s node ``node`` (by its moves)."""
    line = []
    while node > 0:
        line.append(int(copy.move[node]))
        node = int(copy.parent[node])
    found = 0
    for move in reversed(line):
        found = tree.child_with_move(found, move)
    return found


def test_fields_are_the_documented_arrays():
    assert [name for name, _ in FIELDS] == [
        "parent",
        "move",
        "first_child",
        "n_children",
        "visits",
        "value_sum",
        "proven",
    ]


def test_tree_arrays_record_names_the_fields_in_order_with_their_dtypes():
    tree = Tree(8)
    assert TreeArrays._fields == tuple(name for name, _ in FIELDS)
    for (name, dtype), array in zip(FIELDS, tree.arrays, strict=True):
        assert array.dtype == dtype
        assert getattr(tree, name) is array


def test_reserve_replaces_the_record_and_keeps_the_rows():
    tree = Tree(2)
    tree.visits[0] = 7
    tree.reserve(100)
    assert tree.capacity >= 100
    assert tree.visits is tree.arrays.visits
    assert tree.visits[0] == 7


def test_proven_values_are_the_array_codes_with_one_text_each():
    assert [int(p) for p in Proven] == [0, 1, -1, 2]
    assert [p.text for p in Proven] == [None, "win", "loss", "draw"]
    for proven in Proven:
        assert Proven.from_text(proven.text) is proven
        assert Proven(np.int8(proven)) is proven


def test_proven_flipped_is_the_other_players_view():
    assert Proven.WIN.flipped is Proven.LOSS
    assert Proven.LOSS.flipped is Proven.WIN
    assert Proven.DRAW.flipped is Proven.DRAW
    assert Proven.UNKNOWN.flipped is Proven.UNKNOWN


def test_a_widened_root_keeps_its_children_subtrees_and_adds_the_new_moves():
    game = find_game("gomoku", size=9, row=5)
    state = game.initial_state()
    for move in ("e5", "d4", "e4"):
        state = game.apply(state, game.parse_move(state, move))
    settings = config(game, focus_width=3, root_width=3)
    searcher = Searcher(game, state, config=settings, seed=2)
    searcher.search(simulations=2_000)
    before = searcher.tree.subtree(0)  # a copy: widening rewrites the tree
    old_moves = [int(before.move[child]) for child in before.children(0)]
    assert len(old_moves) == 3
    extra = [m for m in game.legal_moves(state) if m not in old_moves][:4]
    wide = searcher.tree.widened_root(np.array(old_moves[:1] + extra))
    assert wide.n_children[0] == 3 + 4
    assert [int(wide.move[c]) for c in wide.children(0)] == old_moves + extra
    for child in before.children(0):  # every old subtree, whole
        _same_subtree(before, child, wide, wide.child_with_move(0, before.move[child]))
    for move in extra:  # the new moves: unvisited leaves
        child = wide.child_with_move(0, move)
        assert wide.visits[child] == 0 and wide.first_child[child] == -1
    assert wide.visits[0] == before.visits[0]
    assert wide.size == before.size + 4  # no unreachable rows are kept


def test_a_widened_root_without_new_moves_is_the_same_tree():
    tree = Tree()
    tree.add_children(0, np.array([3, 5]))
    assert tree.widened_root(np.array([5, 3])) is tree
    assert Tree().widened_root(np.array([1])).size == 1  # unexpanded: unchanged

"""The depth-first walk shared by the evaluation's fit and the model replay."""

import numpy as np

from mcts.games import find_game
from mcts.search.config import SearchConfig
from mcts.search.searcher import Searcher
from mcts.search.walk import level_states, preorder, state_at


def _searched_tree():
    game = find_game("reversi")
    searcher = Searcher(game, config=SearchConfig(evaluator="random"), seed=3)
    searcher.search(simulations=400)
    return game, searcher.tree


def test_preorder_reaches_every_node_once_after_its_parent():
    _, tree = _searched_tree()
    order, levels = preorder(tree.arrays.head(tree.size))
    assert sorted(order.tolist()) == list(range(tree.size))
    position = np.empty(tree.size, dtype=np.int64)
    position[order] = np.arange(tree.size)
    level_of = np.empty(tree.size, dtype=np.int64)
    level_of[order] = levels
    assert order[0] == 0 and levels[0] == 0
    for node in range(1, tree.size):
        parent = tree.parent[node]
        assert position[parent] < position[node]
        assert level_of[node] == level_of[parent] + 1


def test_preorder_walks_the_last_child_first():
    _, tree = _searched_tree()
    order, _ = preorder(tree.arrays.head(tree.size))
    last = tree.first_child[0] + tree.n_children[0] - 1
    assert order[1] == last


def test_state_at_gives_each_node_the_position_its_moves_reach():
    game, tree = _searched_tree()
    root = game.initial_state()
    order, levels = preorder(tree.arrays.head(tree.size))
    states = level_states(root.array, levels)
    expected = {0: root}
    for node, level in zip(order.tolist(), levels.tolist(), strict=True):
        state = state_at(game.game_id, states, level, tree.move[node])
        if node:
            expected[node] = game.apply(
                expected[int(tree.parent[node])], int(tree.move[node])
            )
        assert np.array_equal(state, expected[node].array)

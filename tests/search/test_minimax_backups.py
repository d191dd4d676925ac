"""Implicit minimax backups: the evaluation's best line backed up the tree."""

import math

import numpy as np
import pytest

from mcts.games import find_game
from mcts.games.base import BLACK, WHITE
from mcts.models.store import load_shared, model_path
from mcts.search.config import SearchConfig
from mcts.search.kernel import _back_up_minimax
from mcts.search.reversi import patterns as rp
from mcts.search.reversi.config import PATTERN_MINIMAX, ReversiSearch
from mcts.search.searcher import Searcher
from mcts.search.tree import Proven, Tree


def _line_tree():
    """Return a root with children 1, 2, 3; child 1 has children 4 and 5."""
    tree = Tree()
    tree.add_children(0, np.array([10, 11, 12]))
    tree.add_children(1, np.array([20, 21]))
    tree.visits[: tree.size] = 1
    tree.value_sum[: tree.size] = 0.5
    return tree


def test_a_leaf_keeps_its_value_and_each_parent_takes_its_best_child_flipped():
    tree = _line_tree()
    minimax = np.full(tree.capacity, np.nan, dtype=np.float32)
    minimax[2], minimax[3], minimax[5] = 0.25, 0.5, 0.125
    path = np.array([0, 1, 4])
    movers = np.array([WHITE, BLACK, WHITE])  # black moved into 1, white into 4
    _back_up_minimax(path, movers, 2, 0.75, tree.arrays, minimax)
    assert minimax[4] == 0.75
    assert minimax[1] == 0.25  # white's best reply scores 0.75 for white
    assert minimax[0] == 0.5  # black's best move (3) leaves white 0.5


def test_a_proven_child_counts_with_its_exact_value():
    tree = _line_tree()
    tree.proven[5] = Proven.WIN
    minimax = np.full(tree.capacity, np.nan, dtype=np.float32)
    path = np.array([0, 1, 4])
    movers = np.array([WHITE, BLACK, WHITE])
    _back_up_minimax(path, movers, 2, 0.75, tree.arrays, minimax)
    assert minimax[1] == 0.0  # white wins by move 21
    # Children 2 and 3 have no minimax value yet: their means (0.5) stand in.
    assert minimax[0] == 0.5


def test_a_child_never_visited_is_left_out():
    tree = _line_tree()
    tree.visits[5] = 0
    minimax = np.full(tree.capacity, np.nan, dtype=np.float32)
    path = np.array([0, 1, 4])
    movers = np.array([WHITE, BLACK, WHITE])
    _back_up_minimax(path, movers, 2, 0.875, tree.arrays, minimax)
    assert minimax[1] == 0.125


def _pattern_searcher(minimax, **changes):
    """Return a Reversi searcher whose leaves the shipped light model's
    pattern evaluation scores, with minimax weight ``minimax``."""
    game = find_game("reversi")
    settings = ReversiSearch(minimax=minimax, **changes)
    searcher = Searcher(game, config=SearchConfig(game=settings), seed=3)
    searcher.patterns = _shipped_patterns()
    return searcher


def _shipped_patterns():
    return load_shared(model_path("reversi", "light"), check="fast").patterns


def test_after_a_search_the_root_holds_its_best_childs_value():
    searcher = _pattern_searcher(0.5, endgame_empties=0)
    searcher.search(simulations=3_000)
    tree, minimax = searcher.tree, searcher._minimax_array()
    children = tree.children(0)
    assert all(not math.isnan(minimax[child]) for child in children)
    best = max(float(minimax[child]) for child in children)
    assert minimax[0] == pytest.approx(1.0 - best)


def test_minimax_values_follow_the_tree_through_growth_and_reuse():
    searcher = _pattern_searcher(0.5)
    searcher.search(simulations=2_000)  # grows the tree past its first capacity
    values = searcher._minimax_array()
    assert len(values) == searcher.tree.capacity
    assert not math.isnan(values[0])
    searcher.advance(int(searcher.tree.move[searcher.tree.children(0)[0]]))
    assert np.isnan(searcher._minimax_array()).all()


def test_the_weight_is_on_only_with_patterns_and_is_checked():
    reversi = find_game("reversi")
    assert Searcher(reversi).minimax == 0.0
    patterns = rp.PatternWeights(np.zeros((rp.STAGES, rp.STAGE_WEIGHTS), np.float32))
    with_patterns = Searcher(reversi)
    with_patterns.patterns = patterns
    assert with_patterns.minimax == PATTERN_MINIMAX > 0
    given = Searcher(reversi, config=SearchConfig(game=ReversiSearch(minimax=0.25)))
    assert given.minimax == 0.0  # no patterns: off
    given.patterns = patterns
    assert given.minimax == 0.25
    with pytest.raises(ValueError, match="minimax"):
        Searcher(reversi, config=SearchConfig(game=ReversiSearch(minimax=1.5)))

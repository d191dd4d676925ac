"""The Gomoku alpha-beta's shape weights: their file, their checks, and the
search evaluating by the weights it is given."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.search.gomoku import alphabeta as ab
from mcts.search.gomoku.patterns import WEIGHTS as BOARD_WEIGHTS
from mcts.search.gomoku.shapes import BLOCK_WEIGHT, SHAPE_WEIGHTS
from mcts.search.gomoku.weights import (
    HAND_WEIGHTS,
    ShapeWeights,
    from_bytes,
)
from mcts.search.weightsfile import npz_bytes

FITTED = ShapeWeights(
    (0.0, 4.5, 64.0, 190.0, 295.0, 1000.0, 1e5), 800.0, 300.0, 0.0, 0.27
)


def test_the_hand_weights_are_the_shape_scores_of_the_tree_search():
    array = HAND_WEIGHTS.array()
    assert np.array_equal(array[: len(SHAPE_WEIGHTS)], SHAPE_WEIGHTS)
    assert HAND_WEIGHTS.block == BLOCK_WEIGHT


def test_weights_round_trip_through_their_file_byte_for_byte():
    data = FITTED.to_bytes()
    loaded = from_bytes(data, {"games": 3})
    assert loaded == FITTED
    assert loaded.fitted == {"games": 3}
    assert loaded.to_bytes() == data


@pytest.mark.parametrize(
    "data, message",
    [
        (b"junk", "not a weights file"),
        (npz_bytes({"weights": np.zeros(3)}), "expected 11 float64"),
        (npz_bytes({"other": np.zeros(11)}), "got none"),
        (npz_bytes({"weights": np.full(11, -1.0)}), "not negative"),
        (npz_bytes({"weights": np.full(11, np.nan)}), "finite"),
    ],
)
def test_a_bad_weights_file_says_what_is_wrong(data, message):
    with pytest.raises(ValueError, match=message):
        from_bytes(data)


def test_the_search_evaluates_by_the_weights_it_is_given():
    game = find_game("gomoku")
    state = game.play_all(["h8", "i9", "h9", "h10", "j8", "g7"])
    search = ab.new_search(15, 5)
    fitted = ab.value_at_depth(search, state.array, 2, FITTED)
    assert np.array_equal(search[BOARD_WEIGHTS], FITTED.array())
    hand = ab.value_at_depth(search, state.array, 2)
    assert np.array_equal(search[BOARD_WEIGHTS], HAND_WEIGHTS.array())
    assert fitted != hand
    assert ab.value_at_depth(ab.new_search(15, 5), state.array, 2, FITTED) == fitted


def test_a_change_of_weights_empties_the_table_and_the_same_weights_keep_it():
    game = find_game("gomoku")
    state = game.play_all(["h8", "i9", "h9"])
    search = ab.new_search(15, 5)
    ab.think(search, state.array, 0.05)
    assert search[ab.TABLE_KEYS].any()
    ab.use_weights(search, HAND_WEIGHTS)
    assert search[ab.TABLE_KEYS].any()
    ab.use_weights(search, FITTED)
    assert not search[ab.TABLE_KEYS].any()


def test_the_balance_of_an_opening_does_not_depend_on_the_weights_a_search_had():
    game = find_game("gomoku")
    state = game.play_all(["h8", "i9", "h9"])
    search = ab.new_search(15, 5)
    before = ab.value_at_depth(search, state.array, 4)
    ab.use_weights(search, FITTED)
    assert ab.value_at_depth(search, state.array, 4) == before

"""How matches open: random plies near the centre, standard Gomoku's
balanced openings."""

import numpy as np

from mcts.games import find_game
from mcts.play.openings import (
    BALANCED_DEPTH,
    BALANCED_PLIES,
    BALANCED_RADIUS,
    BALANCED_VALUES,
    balanced_opening,
    random_opening,
)
from mcts.search.gomoku.alphabeta import new_search, value_at_depth


def test_gomoku_openings_stay_near_the_centre_and_leave_the_game_going():
    game = find_game("gomoku")
    rng = np.random.default_rng(0)
    for _ in range(20):
        moves = random_opening(game, 3, rng)
        assert len(moves) == 3
        for move in moves:
            assert max(abs(move // 15 - 7), abs(move % 15 - 7)) <= 2


def test_a_balanced_gomoku_opening_is_random_stones_whose_value_is_in_the_band():
    game = find_game("gomoku")
    search = new_search(15, 5)
    low, high = BALANCED_VALUES
    openings = [balanced_opening(game, np.random.default_rng(s)) for s in range(3)]
    assert len({tuple(o) for o in openings}) == 3
    for moves in openings:
        assert len(moves) == BALANCED_PLIES
        for move in moves:
            assert max(abs(move // 15 - 7), abs(move % 15 - 7)) <= BALANCED_RADIUS
        state = game.initial_state()
        for move in moves:
            state = game.apply(state, move)
        assert low <= value_at_depth(search, state.array, BALANCED_DEPTH) <= high
    # The same seed draws the same opening.
    assert balanced_opening(game, np.random.default_rng(0)) == openings[0]


def test_the_value_at_a_depth_does_not_depend_on_what_the_search_saw_before():
    game = find_game("gomoku")
    state = game.play_all(["h8", "i9", "g9"])
    search = new_search(15, 5)
    first = value_at_depth(search, state.array, 4)
    value_at_depth(search, game.play_all(["h8", "h9"]).array, 5)
    assert value_at_depth(search, state.array, 4) == first

"""LOA knowledge in the search: its parameters, rollouts and progressive bias."""

import numpy as np

from mcts.games import find_game, kernels
from mcts.search.config import SearchConfig
from mcts.search.loa.config import LoaSearch
from mcts.search.loa.search import (
    BIAS,
    UNVISITED,
    make_params,
    move_weight,
    rollout,
    select,
)
from mcts.search.searcher import Searcher
from mcts.search.tree import Proven, Tree

GAME = find_game("loa")
# Black to move: b1-d3 joins the two groups (see tests/search/test_solver.py).
WIN_IN_ONE = ".x.o..........o...........o..o...o.x.x...oox.xx...x..o.......... b"
#: The search's parameter vector by default.
PARAMS = LoaSearch().array()


def test_the_settings_record_gives_the_parameter_vector():
    assert np.array_equal(PARAMS, make_params())
    assert PARAMS[BIAS] > 0
    assert LoaSearch(bias=0.0).array()[BIAS] == 0
    assert LoaSearch(unvisited=10.0).array()[UNVISITED] == 10.0


def test_the_searcher_hands_the_parameters_to_heavy_loa_searches_only():
    assert np.array_equal(Searcher(GAME)._learned, PARAMS)
    no_bias = SearchConfig(game=LoaSearch(bias=0.0))
    assert Searcher(GAME, config=no_bias)._learned[BIAS] == 0
    random = SearchConfig(evaluator="random")
    assert Searcher(GAME, config=random)._learned.shape == (0,)
    assert Searcher(find_game("reversi"))._learned.shape == (0,)


def test_a_won_position_scores_as_won():
    # black is connected: the rollout stops at once with black's win
    won = GAME.parse_state(
        "..................xxx.....xxx.....xxx...o......oo......oo......o w"
    )
    assert GAME.outcome(won).winner == "black"
    assert rollout(won.array.copy(), PARAMS) == 1.0


def test_a_decisive_evaluation_stops_the_rollout():
    # black: one compact group but a piece; white: scattered on the edges
    state = GAME.parse_state(
        "o..o...o.....x..........xx......xx.......x..............o...o..o b"
    )
    kernels.seed(5)
    scores = [rollout(state.array.copy(), PARAMS) for _ in range(50)]
    assert np.mean(scores) > 0.9
    assert scores.count(1.0) > 25  # stopped early as a win, not a logistic


def test_moves_that_capture_centralise_and_join_weigh_more():
    enemy = np.uint64(1 << 27)  # d4
    quiet_centre = 0 * 64 + 18  # a1 -> c3: off the corner, toward the mass
    capture = 0 * 64 + 27  # a1 x d4
    to_edge = 18 * 64 + 16  # c3 -> a3: onto the edge, away from the mass
    com = (3.0, 3.0)
    assert move_weight(capture, enemy, *com) > move_weight(quiet_centre, enemy, *com)
    assert move_weight(quiet_centre, enemy, *com) > move_weight(to_edge, enemy, *com)
    assert move_weight(to_edge, enemy, *com) > 0


def test_progressive_bias_sends_the_first_visit_to_the_best_ordered_move():
    state = GAME.initial_state()
    tree = Tree()
    legal = GAME.legal_moves(state)
    tree.reserve(len(legal) + 1)
    arrays = tree.arrays
    arrays.first_child[0] = 1
    arrays.n_children[0] = len(legal)
    for i, move in enumerate(legal):
        arrays.move[1 + i] = move
        arrays.first_child[1 + i] = -1
        arrays.visits[1 + i] = 0
        arrays.value_sum[1 + i] = 0.0
        arrays.proven[1 + i] = Proven.UNKNOWN
    tree.size = len(legal) + 1
    child, floored = select(0, arrays, state.array, 1.0, PARAMS)
    chosen = GAME.format_move(state, int(arrays.move[child]))
    # b1-d3 / g1-e3 and their mirrors go off the edge toward the centre
    assert chosen in {"b1-d3", "g1-e3", "b8-d6", "g8-e6"}
    assert not floored


def test_the_player_finds_a_one_move_win():
    state = GAME.parse_state(WIN_IN_ONE)
    searcher = Searcher(GAME, state, seed=3)
    result = searcher.search(simulations=20_000)
    assert result.proven == "win"
    assert GAME.outcome(GAME.apply(state, result.code)).winner == "black"
    assert result.simulations < 20_000

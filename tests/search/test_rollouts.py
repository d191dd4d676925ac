"""Rollout policies: scores in range, and the knowledge each heavy policy uses."""

import numpy as np
import pytest

from mcts.games import find_game, gomoku, kernels
from mcts.games.base import BLACK, BLACK_WINS, MAX_MOVES, ONGOING
from mcts.search.gomoku.focus import GOMOKU_FOCUS_WIDTH, focus_moves, gomoku_move_score
from mcts.search.loa.config import LoaSearch
from mcts.search.rollouts import (
    HEAVY,
    RANDOM,
    evaluate,
    evaluator_id,
    gomoku_rollout,
    heavy_rollout,
)

NO_EVALUATION = np.empty(0, dtype=np.float64)
EVERY_PLY = 1 << 30


@pytest.mark.parametrize("evaluator", [RANDOM, HEAVY])
@pytest.mark.parametrize("name", ["reversi", "gomoku", "loa"])
def test_every_evaluator_scores_between_zero_and_one(name, evaluator):
    game = find_game(name)
    kernels.seed(7)
    root = game.initial_state().array
    # LOA's heavy rollouts read the search's parameters where the other
    # games read a learned evaluation (the searcher hands them over).
    heavy_loa = name == "loa" and evaluator == HEAVY
    learned = LoaSearch().array() if heavy_loa else NO_EVALUATION
    scores = [
        evaluate(evaluator, game.game_id, root.copy(), learned, 0) for _ in range(30)
    ]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert len(set(scores)) > 1  # rollouts vary


def test_evaluator_names_map_to_ids():
    assert evaluator_id("random") == RANDOM
    assert evaluator_id("heavy") == HEAVY
    with pytest.raises(ValueError, match="unknown evaluator"):
        evaluator_id("oracle")


def test_gomoku_rollout_completes_its_own_four_at_once():
    game = find_game("gomoku")
    state = game.play_all(["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"])
    kernels.seed(1)
    codes = [gomoku_rollout(state.array.copy(), EVERY_PLY) for _ in range(20)]
    assert codes == [BLACK_WINS] * 20


def test_gomoku_rollout_blocks_the_opponents_four():
    # Black to move; white threatens a5. A rollout that did not block would
    # lose to a5 at once in about 9 of 10 rollouts from this open position.
    game = find_game("gomoku")
    state = game.play_all(["h8", "a1", "h10", "a2", "m3", "a3", "c12", "a4"])
    kernels.seed(2)
    wins = [
        gomoku_rollout(state.array.copy(), EVERY_PLY) == BLACK_WINS for _ in range(200)
    ]
    assert np.mean(wins) > 0.3


def test_gomoku_rollout_cut_off_leaves_the_position_it_reached():
    game = find_game("gomoku")
    work = game.play_all(["h8", "h9"]).array.copy()
    assert gomoku_rollout(work, 6) == ONGOING
    assert int(work[gomoku.SIDE]) == BLACK  # two stones, then six plies
    assert int(work[gomoku.STONES]) == 8
    assert int(np.count_nonzero(work[gomoku.HEADER :])) == 8


def _focus(game, state):
    """Return the move names focus_moves keeps in ``state``, best first."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = kernels.legal_moves(game.game_id, state.array, moves)
    kept = focus_moves(game.game_id, state.array, moves, count)
    return [game.format_move(state, int(m)) for m in moves[:kept]]


def test_gomoku_focus_keeps_a_few_moves_next_to_the_stones():
    game = find_game("gomoku")
    state = game.play_all(["h8", "h9", "j10"])
    kept = _focus(game, state)
    assert len(kept) == GOMOKU_FOCUS_WIDTH
    empty = game.initial_state()
    stones = [game.parse_move(empty, name) for name in ("h8", "h9", "j10")]
    for name in kept:
        code = game.parse_move(state, name)
        rows_apart = [abs(code // 15 - s // 15) for s in stones]
        cols_apart = [abs(code % 15 - s % 15) for s in stones]
        assert min(map(max, rows_apart, cols_apart)) <= 2


def test_gomoku_focus_keeps_the_win_first_and_the_block_next():
    # Black to move: black wins at h12 (h8-h11), white threatens a5 (a1-a4).
    game = find_game("gomoku")
    state = game.play_all(["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"])
    kept = _focus(game, state)
    assert kept[0] in ("h7", "h12")
    assert "a5" in kept


def test_gomoku_move_score_prefers_building_a_row_to_a_quiet_move():
    game = find_game("gomoku")
    state = game.play_all(["h8", "a15", "j8", "a14"])  # black to move, k8 makes three
    three = gomoku_move_score(state.array, game.parse_move(state, "k8"))
    quiet = gomoku_move_score(state.array, game.parse_move(state, "h12"))
    assert three > quiet > 0


@pytest.mark.parametrize(("size", "centre"), [(15, "h8"), (9, "e5")])
def test_gomoku_focus_opens_in_the_centre(size, centre):
    game = find_game("gomoku", size=size)
    state = game.initial_state()
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = kernels.legal_moves(game.game_id, state.array, moves)
    assert count == size * size
    assert focus_moves(game.game_id, state.array, moves, count) == 1
    assert game.format_move(state, int(moves[0])) == centre


@pytest.mark.parametrize("name", ["reversi", "loa"])
def test_focus_leaves_other_games_alone(name):
    game = find_game(name)
    state = game.initial_state()
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = kernels.legal_moves(game.game_id, state.array, moves)
    assert focus_moves(game.game_id, state.array, moves, count) == count


def test_a_loa_heavy_rollout_without_its_parameters_plays_out_plainly():
    game = find_game("loa")
    kernels.seed(3)
    rewards = {
        heavy_rollout(game.game_id, game.initial_state().array.copy(), NO_EVALUATION, 0)
        for _ in range(20)
    }
    assert rewards <= {0.0, 0.5, 1.0} and len(rewards) > 1

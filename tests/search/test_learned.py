"""The learned evaluation: its features on hand-built positions, the fit,
its manifest entry, and the searcher's use of it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mcts.games import find_game
from mcts.models.model import Model, evaluation_for
from mcts.play.players import find_player
from mcts.search.features import (
    FEATURE_NAMES,
    STAGE_TERMS,
    feature_count,
    features,
    position_value,
)
from mcts.search.learned import Evaluation, _logistic_fit, fit, from_json
from mcts.search.rollouts import (
    GOMOKU_LEARNED_MAX_FILL,
    LEARNED_CUTOFF_PLIES,
    heavy_rollout,
    learned_serves,
)
from mcts.search.searcher import GAME_C, LEARNED_GAME_C, Searcher


def _features(game, state) -> tuple[float, dict]:
    out = np.zeros(feature_count(game.game_id))
    stage = features(game.game_id, state.array, out)
    return stage, dict(zip(FEATURE_NAMES[game.name], out.tolist(), strict=True))


def _reversi_board(black: str, white: str, side: str):
    """Return a Reversi state with discs on the named squares."""
    game = find_game("reversi")
    squares = ["."] * 64
    for names, char in ((black, "x"), (white, "o")):
        for name in names.split():
            squares[game.parse_move_text(None, name)] = char
    return game, game.parse_state("".join(squares) + " " + side)


def _random_position(game, plies: int, seed: int):
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(plies):
        state = game.apply(state, int(rng.choice(game.legal_moves(state))))
    return state


# ---- Reversi features ----------------------------------------------------------------
def test_the_reversi_start_is_level_but_for_parity():
    game = find_game("reversi")
    stage, named = _features(game, game.initial_state())
    assert stage == 0.0
    assert named.pop("bias") == 1.0
    assert named.pop("parity") == -1.0  # 60 empty squares: the opponent gets the last
    assert set(named.values()) == {0.0}


def test_squares_next_to_a_taken_corner_count_apart_from_those_by_an_empty_one():
    game, state = _reversi_board("a1 b1 g8", "b2 h7", "b")
    stage, named = _features(game, state)
    assert stage == pytest.approx(1 / 60)
    assert named["discs a1"] == 1.0
    assert named["discs b1, corner taken"] == 1.0  # a1 is black's
    assert named["discs b2, corner taken"] == -1.0  # white's X-square by a1
    assert named["discs b1, corner empty"] == 1.0 - 1.0  # g8 black, h7 white
    # a1-b1 along the first rank, a1 alone up the a-file: 3 for black.
    assert named["edge discs held from a corner"] == 3.0


def test_reversi_features_are_from_the_side_to_move():
    game = find_game("reversi")
    state = _random_position(game, 20, seed=3)
    text = game.state_string(state).split()[0]
    _, black_view = _features(game, game.parse_state(text + " b"))
    _, white_view = _features(game, game.parse_state(text + " w"))
    for name in FEATURE_NAMES["reversi"]:
        if name not in ("parity", "bias"):
            assert black_view[name] == -white_view[name], name


# ---- Gomoku features -----------------------------------------------------------------
def test_gomoku_windows_and_stage_on_a_hand_built_position():
    game = find_game("gomoku")
    state = game.play_all(["h8", "a1", "i8"])  # white to move
    stage, named = _features(game, state)
    assert stage == pytest.approx(3 / 225)
    # White's a1 starts a window along the rank, the file and the diagonal.
    assert named["own windows needing 4"] == pytest.approx(math.log1p(3))
    # Black's h8-i8 lie together in 4 windows of the rank; each stone alone
    # in 1 more of the rank and 5 along each of the other three lines.
    assert named["opponent windows needing 3"] == pytest.approx(math.log1p(4))
    assert named["opponent windows needing 4"] == pytest.approx(math.log1p(32))
    assert named["opponent windows needing 2"] == 0.0
    assert named["opponent cells making a four"] == 0.0


def test_a_gomoku_three_makes_fours_and_a_four_is_not_quiet():
    game = find_game("gomoku")
    three = game.play_all(["h8", "a1", "i8", "a3", "j8"])  # white to move
    _, named = _features(game, three)
    # Black's open three h8-j8 makes a four at f8, g8, k8 or l8.
    assert named["opponent cells making a four"] == pytest.approx(math.log1p(4))
    assert named["opponent cells making two fours"] == pytest.approx(math.log1p(2))
    four = game.play_all(["a5", "k8"], three)
    assert _features(game, four)[0] == -1.0


def test_a_gomoku_pair_makes_open_and_split_threes():
    game = find_game("gomoku")
    pair = game.play_all(["h8", "a1", "i8", "o15", "a15"])  # white to move
    _, named = _features(game, pair)
    # f8 and k8 make split threes, g8 and j8 open ones; e8 and l8 are too far.
    assert named["opponent cells making an open three"] == pytest.approx(math.log1p(4))
    assert named["opponent cells making two threes"] == 0.0
    assert named["own cells making an open three"] == 0.0


def test_gomoku_forks_make_a_four_and_a_three_or_two_threes():
    game = find_game("gomoku")
    # Black: a three h8-j8 closed by white's g8, and k9-k10 on the k file:
    # k8 makes a four along the rank and a three along the file.
    four_three = game.play_all(
        ["h8", "g8", "i8", "a1", "j8", "o15", "k9", "a15", "k10"]
    )
    _, named = _features(game, four_three)
    assert named["opponent cells making a four and a three"] == pytest.approx(
        math.log1p(1)
    )
    assert named["opponent cells making a four"] == pytest.approx(math.log1p(2))
    # Black: h8-i8 along the rank and j9-j10 on the j file meet at j8.
    two_threes = game.play_all(["h8", "a1", "i8", "o15", "j9", "a15", "j10"])
    _, named = _features(game, two_threes)
    assert named["opponent cells making two threes"] == pytest.approx(math.log1p(1))
    assert named["opponent cells making a four and a three"] == 0.0


@pytest.mark.parametrize("game_name", ["reversi", "gomoku"])
def test_features_do_not_change_under_the_boards_symmetries(game_name):
    game = find_game(game_name)
    for seed in range(3):
        state = _random_position(game, 12, seed)
        stage, named = _features(game, state)
        for image in game.symmetries():
            assert _features(game, game.map_state(state, image)) == (stage, named)


def test_position_value_is_the_logistic_of_the_stage_weighted_sum():
    game = find_game("reversi")
    state = game.initial_state()
    count = feature_count(game.game_id)
    weights = np.zeros(STAGE_TERMS * count)
    assert position_value(game.game_id, state.array, weights) == 0.5
    weights[FEATURE_NAMES["reversi"].index("bias")] = 2.0
    expected = 1 / (1 + math.exp(-2.0))
    assert position_value(game.game_id, state.array, weights) == pytest.approx(expected)


# ---- fitting -------------------------------------------------------------------------
def test_the_logistic_fit_recovers_known_weights():
    rng = np.random.default_rng(1)
    rows = np.column_stack([rng.normal(size=(4000, 3)), np.ones(4000)])
    truth = np.array([1.5, -0.7, 0.2, 0.4])
    targets = 1 / (1 + np.exp(-(rows @ truth)))
    found = _logistic_fit(rows, targets, rng.uniform(1, 5, size=4000))
    assert found == pytest.approx(truth, abs=0.01)


def test_fit_learns_from_a_searched_tree_and_lines_of_action_has_nothing_to_learn():
    game = find_game("reversi")
    searcher = Searcher(game, seed=5)
    searcher.search(simulations=6000)
    evaluation = fit(game, searcher.tree, game.initial_state(), min_visits=5)
    assert evaluation is not None and evaluation.game == "reversi"
    assert len(evaluation.weights) == STAGE_TERMS * feature_count(game.game_id)
    assert evaluation.fitted["positions"] >= 10 * len(evaluation.weights)
    assert evaluation.fitted["explained"] <= 1.0
    assert fit(game, searcher.tree, game.initial_state(), min_visits=10**6) is None
    loa = find_game("loa")
    loa_searcher = Searcher(loa, seed=5)
    loa_searcher.search(simulations=200)
    assert fit(loa, loa_searcher.tree, loa.initial_state(), min_visits=1) is None


# ---- the manifest entry --------------------------------------------------------------
def _evaluation(game_name="reversi") -> Evaluation:
    count = len(FEATURE_NAMES[game_name]) * STAGE_TERMS
    weights = tuple(round(0.01 * k - 0.2, 6) for k in range(count))
    return Evaluation(game_name, weights, {"positions": 123, "explained": 0.5})


def test_an_evaluation_survives_its_json():
    evaluation = _evaluation()
    again = from_json(find_game("reversi"), evaluation.to_json())
    assert again == evaluation and again.fitted == evaluation.fitted


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda data: data.update(features=["bias"]), "its features are"),
        (lambda data: data["weights"].pop(), "list of 57 weights"),
        (lambda data: data["weights"].__setitem__(0, "1"), "not a number"),
        (lambda data: data["weights"].__setitem__(0, True), "not a number"),
        (lambda data: data["weights"].__setitem__(0, math.inf), "not finite"),
        (lambda data: data.update(fitted=[]), "'fitted' must be an object"),
    ],
)
def test_a_malformed_evaluation_is_a_clear_error(edit, message):
    data = _evaluation().to_json()
    edit(data)
    with pytest.raises(ValueError, match=message):
        from_json(find_game("reversi"), data)


def test_an_evaluation_is_only_for_a_game_with_features():
    with pytest.raises(ValueError, match="loa has no learned evaluation"):
        from_json(find_game("loa"), _evaluation().to_json())
    with pytest.raises(ValueError, match="expected an object"):
        from_json(find_game("reversi"), [1, 2])


# ---- the searcher --------------------------------------------------------------------
def test_a_searcher_refuses_an_evaluation_of_another_game():
    searcher = Searcher(find_game("gomoku"))
    with pytest.raises(ValueError, match="reversi cannot serve gomoku"):
        searcher.evaluation = _evaluation("reversi")
    assert searcher.evaluation is None


def test_a_search_with_an_evaluation_plays_legal_moves_and_can_drop_it():
    game = find_game("gomoku")
    state = game.play_all(["h8", "h9"])
    searcher = Searcher(game, state, seed=2)
    searcher.evaluation = _evaluation("gomoku")
    assert searcher.search(simulations=300).code in game.legal_moves(state)
    searcher.evaluation = None
    assert searcher.evaluation is None
    assert searcher.search(simulations=100).code in game.legal_moves(state)


def test_a_models_evaluation_serves_only_its_own_game_and_options():
    gomoku = find_game("gomoku")
    searcher = Searcher(gomoku, seed=1)
    searcher.search(simulations=50)
    model = Model(gomoku, searcher.tree, gomoku.initial_state())
    model.evaluation = _evaluation("gomoku")
    assert evaluation_for(model, gomoku) is model.evaluation
    assert evaluation_for(model, find_game("gomoku", size=9)) is None
    assert evaluation_for(model, find_game("reversi")) is None


def test_the_cutoff_is_the_games():
    game = find_game("reversi")
    assert Searcher(game).cutoff_plies == LEARNED_CUTOFF_PLIES["reversi"]


def test_an_evaluation_brings_the_exploration_constant_tuned_for_it():
    game = find_game("gomoku")
    searcher = Searcher(game)
    assert (searcher.c, searcher.cutoff_plies) == (GAME_C["gomoku"], 0)
    searcher.evaluation = _evaluation("gomoku")
    assert searcher.c == LEARNED_GAME_C["gomoku"] != GAME_C["gomoku"]
    searcher.evaluation = None
    assert searcher.c == GAME_C["gomoku"]
    # A constant the player gives wins.
    player = find_player("mcts-heavy:c=0.9", game)
    player.searcher.evaluation = _evaluation("gomoku")
    assert player.searcher.c == 0.9


def test_a_rollout_cut_off_at_once_is_the_evaluation_of_its_position():
    game = find_game("reversi")
    state = game.play_all(["f5"])  # white to move
    weights = _evaluation().array()
    white_wins = position_value(game.game_id, state.array, weights)
    black_score = heavy_rollout(game.game_id, state.array.copy(), weights, 0)
    assert black_score == pytest.approx(1.0 - white_wins)
    assert white_wins != 0.5


def test_gomoku_rollouts_take_the_evaluation_only_before_the_board_fills():
    game = find_game("gomoku")
    weights = _evaluation("gomoku").array()
    early = game.play_all(["h8", "h9"])  # quiet, black to move
    assert learned_serves(game.game_id, early.array)
    black_score = heavy_rollout(game.game_id, early.array.copy(), weights, 0)
    assert black_score == pytest.approx(
        position_value(game.game_id, early.array, weights)
    )
    limit = round(GOMOKU_LEARNED_MAX_FILL * 225)
    for plies, serves in ((limit - 1, True), (limit, False)):
        state = _random_position(game, plies, seed=5)
        assert learned_serves(game.game_id, state.array) == serves
    # Past the limit the rollout plays to the end: a win, a loss or a draw.
    late = _random_position(game, limit, seed=5)
    assert heavy_rollout(game.game_id, late.array.copy(), weights, 0) in (0.0, 0.5, 1.0)

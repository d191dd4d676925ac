"""Player specs, the strength ladder and the players' moves."""

import pytest

from mcts.games import find_game
from mcts.models.model import Model
from mcts.play.players import (
    LEVELS,
    MODEL_STUDY_RATIO,
    MctsPlayer,
    PlayerSpec,
    RandomPlayer,
    find_player,
    parse_spec,
)
from mcts.search.features import FEATURE_NAMES, STAGE_TERMS
from mcts.search.learned import Evaluation
from mcts.search.searcher import Searcher


def test_a_spec_parses_kind_and_typed_options():
    spec = parse_spec("mcts:c=1.4,sims=500,t=0.5,seed=3")
    assert spec == PlayerSpec(
        "mcts", {"c": 1.4, "sims": 500, "temperature": 0.5, "seed": 3}
    )
    assert str(parse_spec("mcts-heavy")) == "mcts-heavy"
    assert parse_spec(" MCTS-Heavy:level=2 ").options == {"level": 2}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alphazero", "unknown player"),
        ("mcts:c", "key=value"),
        ("mcts:depth=3", "depth"),
        ("mcts:sims=many", "int"),
        ("mcts:level=9", "level"),
        ("random:sims=5", "random player"),
        ("mcts-heavy:model=light,use=all", "use must be one of both, book, eval"),
        ("mcts-heavy:use=eval", "use needs a model"),
    ],
)
def test_a_bad_spec_raises_a_clear_error(text, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(text)


def test_the_ladder_has_six_levels_from_weak_to_strong():
    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]
    assert LEVELS[1].simulations == 10 and LEVELS[1].temperature == 1.0
    assert LEVELS[6].seconds == 2.0 and LEVELS[6].temperature == 0.0
    temperatures = [LEVELS[n].temperature for n in range(1, 7)]
    assert temperatures == sorted(temperatures, reverse=True)


def test_find_player_builds_each_kind():
    game = find_game("reversi")
    assert isinstance(find_player("random", game), RandomPlayer)
    light = find_player("mcts:sims=100", game)
    heavy = find_player("mcts-heavy:sims=100", game)
    assert isinstance(light, MctsPlayer) and light.searcher.evaluator == "random"
    assert heavy.searcher.evaluator == "heavy"
    assert (light.simulations, light.seconds) == (100, None)


def test_a_level_sets_budget_and_temperature_and_explicit_options_win():
    game = find_game("reversi")
    player = find_player("mcts-heavy:level=1", game)
    assert (player.simulations, player.seconds, player.temperature) == (10, None, 1.0)
    assert player.random_moves == LEVELS[1].random_moves > 0
    player = find_player("mcts-heavy:level=1,sims=80,t=0", game)
    assert (player.simulations, player.temperature) == (80, 0.0)
    player = find_player("mcts-heavy:level=5", game, simulations=10)
    assert (player.seconds, player.simulations) == (0.5, None)


def test_budget_defaults_apply_when_the_spec_has_none():
    game = find_game("loa")
    player = find_player("mcts:c=0.7", game, seconds=0.05)
    assert (player.seconds, player.simulations) == (0.05, None)
    assert player.searcher.c == 0.7


def test_the_width_option_sets_the_searchers_focus_width():
    player = find_player("mcts-heavy:width=3", find_game("gomoku"), seconds=0.05)
    assert player.searcher.focus_width == 3
    assert find_player("mcts", find_game("gomoku")).searcher.focus_width == 0


def test_the_sharpness_option_reaches_the_searcher_and_is_off_by_default():
    game = find_game("gomoku")
    player = find_player("mcts-heavy:sharpness=2.5", game, seconds=0.05)
    assert player.searcher.sharpness == 2.5
    assert find_player("mcts-heavy", game).searcher.sharpness == 0.0
    with pytest.raises(ValueError, match="sharpness"):
        find_player("mcts-heavy:sharpness=-1", game)


def test_the_strict_option_reaches_the_searcher_and_is_off_by_default():
    game = find_game("gomoku")
    assert find_player("mcts-heavy:strict=1", game, seconds=0.05).searcher.strict
    assert not find_player("mcts-heavy", game).searcher.strict


def test_the_recheck_option_reaches_the_searcher_and_is_on_by_default():
    game = find_game("gomoku")
    assert not find_player("mcts-heavy:recheck=0", game).searcher.recheck
    assert find_player("mcts-heavy", game).searcher.recheck


def test_a_model_that_is_not_on_disk_is_a_clear_error():
    with pytest.raises(ValueError, match="no model at .*reversi/no-such-model"):
        find_player("mcts:model=no-such-model", find_game("reversi"))


def test_a_shipped_model_warms_the_player():
    game = find_game("reversi")
    player = find_player("mcts-heavy:model=light,sims=50,seed=1", game)
    stored_visits = int(player.model.tree.visits[0])
    start = game.initial_state()
    assert player.choose(start) in game.legal_moves(start)
    # The search started from the model's statistics, not from an empty tree.
    assert int(player.searcher.tree.visits[0]) > stored_visits > 50


@pytest.mark.parametrize(
    "spec", ["random:seed=1", "mcts:sims=60,seed=1", "mcts-heavy:level=1,seed=1"]
)
def test_players_choose_legal_moves(spec):
    game = find_game("gomoku", size=9, row=5)
    player = find_player(spec, game)
    state = game.initial_state()
    for _ in range(6):
        move = player.choose(state)
        assert move in game.legal_moves(state)
        player.observe(state, move)
        state = game.apply(state, move)


def test_an_mcts_player_reuses_its_tree_across_observed_moves():
    game = find_game("reversi")
    player = find_player("mcts:sims=400,seed=2", game)
    state = game.initial_state()
    move = player.choose(state)
    player.observe(state, move)
    state = game.apply(state, move)
    reply = game.legal_moves(state)[0]
    player.observe(state, reply)
    state = game.apply(state, reply)
    kept = int(player.searcher.tree.visits[0])
    player.choose(state)
    assert player.last_result.root_visits == kept + 400


def test_level_one_is_weak_enough_to_vary_its_moves():
    game = find_game("reversi")
    state = game.initial_state()
    moves = {
        find_player(f"mcts-heavy:level=1,seed={s}", game).choose(state)
        for s in range(10)
    }
    assert len(moves) > 1


def test_a_model_is_used_only_where_it_studied_far_more_than_a_search():
    # 300 simulations of study: worth taking on a first move, not after a
    # search of 100 (the model must hold MODEL_STUDY_RATIO = 5 times that).
    game = find_game("reversi")
    start = game.initial_state()
    searcher = Searcher(game, start, evaluator="random", seed=2)
    searcher.search(simulations=300)
    model = Model(game, searcher.tree, start)

    fresh = MctsPlayer(game, evaluator="random", simulations=100, seed=1, model=model)
    fresh.choose(start)
    assert int(fresh.searcher.tree.visits[0]) == 300 + 100

    busy = MctsPlayer(game, evaluator="random", simulations=100, seed=1, model=model)
    busy.choose(game.play_all(["f5"]))  # a search of 100 elsewhere
    busy.choose(start)
    assert MODEL_STUDY_RATIO * 100 > 300
    assert int(busy.searcher.tree.visits[0]) == 100


def test_early_plies_are_searched_for_early_seconds():
    game = find_game("reversi")
    player = find_player("mcts:sims=30,early_plies=1,early_seconds=0.2,seed=1", game)
    state = game.initial_state()
    move = player.choose(state)
    assert player.last_result.elapsed >= 0.15
    assert player.last_result.simulations > 30
    player.observe(state, move)
    state = game.apply(state, move)
    player.choose(state)
    assert player.last_result.simulations == 30


def test_early_plies_without_early_seconds_is_an_error():
    with pytest.raises(ValueError, match="early_plies and early_seconds go together"):
        parse_spec("mcts-heavy:early_plies=8")


@pytest.mark.parametrize(
    ("use", "has_book", "has_evaluation"),
    [("both", True, True), ("book", True, False), ("eval", False, True)],
)
def test_use_chooses_the_models_book_its_evaluation_or_both(
    use, has_book, has_evaluation
):
    game = find_game("reversi")
    searcher = Searcher(game, evaluator="random", seed=2)
    searcher.search(simulations=100)
    weights = (0.0,) * (STAGE_TERMS * len(FEATURE_NAMES["reversi"]))
    model = Model(game, searcher.tree, game.initial_state())
    model.evaluation = Evaluation("reversi", weights)
    player = MctsPlayer(game, simulations=20, seed=1, model=model, use=use)
    assert (player.model is model) == has_book
    assert (player.searcher.evaluation is model.evaluation) == has_evaluation
    assert player.choose(game.initial_state()) in game.legal_moves(game.initial_state())

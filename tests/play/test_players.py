"""Player specs, the strength ladder and the players' moves."""

import pytest

from mcts.games import find_game
from mcts.models.model import Model
from mcts.play.players import (
    ENGINE_OPTIONS,
    KIND_OPTIONS,
    LEVELS,
    MODEL_STUDY_RATIO,
    OPTIONS,
    Level,
    MctsPlayer,
    PlayerSpec,
    RandomPlayer,
    find_player,
    parse_spec,
)
from mcts.search.config import SearchConfig, game_settings
from mcts.search.features import FEATURE_NAMES, STAGE_TERMS
from mcts.search.gomoku.config import GomokuSearch
from mcts.search.learned import Evaluation
from mcts.search.searcher import Searcher


def test_a_spec_parses_kind_and_typed_options():
    spec = parse_spec("mcts:c=1.4,sims=500,seconds=0.5,seed=3,model=light")
    assert spec == PlayerSpec(
        "mcts",
        {"c": 1.4, "sims": 500, "seconds": 0.5, "seed": 3, "model": "light"},
    )
    assert str(parse_spec("mcts-heavy")) == "mcts-heavy"
    assert parse_spec(" MCTS-Heavy:level=2 ").options == {"level": 2}
    assert parse_spec("mcts:simulations=20").options == {"sims": 20}


def test_the_options_are_the_players_and_the_engines():
    ours = {"level", "seconds", "sims", "model", "seed", "c"}
    assert set(OPTIONS) == ours | set(ENGINE_OPTIONS)
    assert set(ENGINE_OPTIONS) == {"cmd", "cwd", "depth", "ms", "timeout"}
    assert KIND_OPTIONS["mcts"] == KIND_OPTIONS["mcts-heavy"] == ours
    assert KIND_OPTIONS["random"] == {"seed"}
    assert KIND_OPTIONS["alphabeta"] == {"seconds", "model"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("alphazero", "unknown player"),
        ("mcts:c", "key=value"),
        ("mcts:depth=3", "depth"),
        ("mcts:sims=many", "a whole number"),
        ("mcts:level=9", "level"),
        ("random:sims=5", "random player"),
        ("alphabeta:sims=5", "alphabeta player takes model, seconds"),
        ("mcts:cmd=ntest", "mcts player takes c, level, model, seconds, seed, sims"),
    ],
)
def test_a_bad_spec_raises_a_clear_error(text, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(text)


@pytest.mark.parametrize(
    "text",
    [
        "mcts-heavy:bogus=1",
        "mcts:t=0.5",
        "mcts-heavy:random=0.1",
        "mcts-heavy:width=3",
        "mcts-net:model=net,knob=0.5",
    ],
)
def test_an_unknown_option_is_refused_naming_the_allowed_ones(text):
    with pytest.raises(ValueError, match="bad option") as error:
        parse_spec(text)
    allowed = str(error.value).rpartition("key one of ")[2]
    assert allowed.split(", ") == list(OPTIONS)
    with pytest.raises(ValueError, match="bad option"):
        find_player(text, find_game("gomoku"))


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
    assert light.level == Level(simulations=100)


def test_a_level_sets_budget_and_temperature_and_explicit_options_win():
    game = find_game("reversi")
    player = find_player("mcts-heavy:level=1", game)
    assert player.level == LEVELS[1]
    assert (player.level.simulations, player.level.seconds) == (10, None)
    assert player.level.temperature == 1.0
    assert player.level.random_moves == LEVELS[1].random_moves > 0
    # An explicit budget replaces the level's; its temperature and random
    # moves stay.
    player = find_player("mcts-heavy:level=1,sims=80", game)
    assert (player.level.simulations, player.level.seconds) == (80, None)
    assert player.level.temperature == LEVELS[1].temperature
    assert player.level.random_moves == LEVELS[1].random_moves
    player = find_player("mcts-heavy:level=5", game, simulations=10)
    assert (player.level.seconds, player.level.simulations) == (0.5, None)
    player = find_player("mcts-heavy:level=5,seconds=0.2", game)
    assert (player.level.seconds, player.level.simulations) == (0.2, None)


def test_budget_defaults_apply_when_the_spec_has_none():
    game = find_game("loa")
    player = find_player("mcts:c=0.7", game, seconds=0.05)
    assert (player.level.seconds, player.level.simulations) == (0.05, None)
    assert player.searcher.c == 0.7
    assert find_player("mcts", game).level == Level(seconds=1.0)


def test_each_kind_searches_with_its_evaluators_game_settings():
    game = find_game("gomoku")
    heavy = find_player("mcts-heavy", game).searcher
    assert heavy.config.game == game_settings(game, "heavy")
    assert heavy.focus_width == GomokuSearch().focus_width > 0
    assert heavy.threats and heavy.recheck and not heavy.strict
    plain = find_player("mcts", game).searcher
    assert plain.config.game == game_settings(game, "random")
    assert plain.focus_width == 0 and not plain.threats
    assert not plain.strict


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
    random = SearchConfig(evaluator="random")
    searcher = Searcher(game, start, config=random, seed=2)
    searcher.search(simulations=300)
    model = Model(game, searcher.tree, start)
    level = Level(simulations=100)

    fresh = MctsPlayer(
        game, Searcher(game, config=random, seed=1), level=level, model=model
    )
    fresh.choose(start)
    assert int(fresh.searcher.tree.visits[0]) == 300 + 100

    busy = MctsPlayer(
        game, Searcher(game, config=random, seed=1), level=level, model=model
    )
    busy.choose(game.play_all(["f5"]))  # a search of 100 elsewhere
    busy.choose(start)
    assert MODEL_STUDY_RATIO * 100 > 300
    assert int(busy.searcher.tree.visits[0]) == 100


def test_a_player_with_a_model_takes_its_book_and_its_evaluation():
    game = find_game("reversi")
    searcher = Searcher(game, config=SearchConfig(evaluator="random"), seed=2)
    searcher.search(simulations=100)
    weights = (0.0,) * (STAGE_TERMS * len(FEATURE_NAMES["reversi"]))
    model = Model(game, searcher.tree, game.initial_state())
    model.evaluation = Evaluation("reversi", weights)
    player = MctsPlayer(
        game, Searcher(game, seed=1), level=Level(simulations=20), model=model
    )
    assert player.model is model
    assert player.searcher.evaluation is model.evaluation
    assert player.choose(game.initial_state()) in game.legal_moves(game.initial_state())


def test_an_engine_protocol_lowers_a_searchers_think_time_through_seconds():
    player = find_player("mcts-heavy", find_game("gomoku"), seconds=0.5)
    assert player.seconds == 0.5
    player.seconds = 0.2  # what piskvork's match clock does
    assert player.level.seconds == 0.2 and player.seconds == 0.2

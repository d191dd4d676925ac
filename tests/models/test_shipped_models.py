"""The light models shipped in model/<game>/light/ keep the issue's promises:
each loads with every line checked, is under 5 MB, and its manifest says
how it was built (a self-play build of at least 200 games); the Reversi and
Gomoku ones carry the evaluation learnt from their build; the full models
ship packed; the 8x8 and 15x15 Gomoku networks load and play like trained
ones."""

import pytest

from mcts.games import find_game
from mcts.models import model as treemodel
from mcts.models import store

MAX_LIGHT_BYTES = 5_000_000  # `model prune --max-mb 5` counts decimal megabytes


@pytest.mark.parametrize("game_name", ["reversi", "gomoku", "loa"])
def test_a_shipped_light_model_is_checked_small_and_says_how_it_was_built(game_name):
    path = store.model_path(game_name, "light")
    model = store.load(path, game=find_game(game_name), check="full")
    assert treemodel.info(model)["bytes"] <= MAX_LIGHT_BYTES
    built = model.manifest["built"]
    assert built["by"] == "selfplay" and built["selfplay_games"] >= 200
    assert built["command"].startswith("python -m mcts selfplay " + game_name)
    assert built["pruned"]["min_visits"] >= built["config"]["min_visits"]


# Standard ships none: every build scored below no model
# (docs/experiments/2026-11-29-gomoku-rules.md).
@pytest.mark.parametrize("rule", ["renju"])
def test_a_gomoku_rule_has_a_light_model_of_its_own(rule):
    path = store.model_path("gomoku", f"light-{rule}")
    model = store.load(path, game=find_game("gomoku", rule=rule), check="full")
    assert model.game.options["rule"] == rule
    assert treemodel.info(model)["bytes"] <= MAX_LIGHT_BYTES
    built = model.manifest["built"]
    assert built["by"] == "selfplay" and built["selfplay_games"] >= 200
    assert built["command"].startswith(f"python -m mcts selfplay gomoku -o rule={rule}")


@pytest.mark.parametrize("game_name", ["reversi", "gomoku"])
def test_a_shipped_light_model_carries_a_well_fitted_evaluation(game_name):
    model = store.load(store.model_path(game_name, "light"), check="fast")
    fitted = model.evaluation.fitted
    assert fitted["positions"] >= 10_000 and fitted["explained"] > 0.5


#: The games whose full model ships packed (model/<game>/full.tar.xz).
FULL_MODELS = ("reversi", "gomoku", "loa")
MAX_PACKED_BYTES = 25_000_000


@pytest.mark.parametrize("game_name", FULL_MODELS)
def test_a_shipped_full_model_is_a_large_compact_self_play_build(game_name):
    from mcts.models.packed import packed_path, read_packed_manifest

    archive = packed_path(store.model_path(game_name, "full"))
    assert archive.stat().st_size <= MAX_PACKED_BYTES
    manifest = read_packed_manifest(archive)
    built = manifest["built"]
    assert built["by"] == "selfplay" and built["selfplay_games"] >= 1000
    assert manifest["nodes"] >= 1_000_000 and manifest["version"] == 2
    tree_bytes = sum(entry["bytes"] for entry in manifest["files"].values())
    assert tree_bytes / manifest["nodes"] <= 100


def test_the_shipped_8x8_network_loads_and_opens_in_the_centre():
    import numpy as np

    from mcts.search.gomoku import network

    model = store.load(store.model_path("gomoku", "net-8x5"))
    assert model.game.options == {"size": 8, "row": 5, "rule": "freestyle"}
    assert model.network is not None and model.network.size == 8
    trained = model.manifest["network"]["built"]
    assert trained["command"].startswith("python -m mcts train-net gomoku --size 8")
    assert trained["selfplay_games"] >= 800 and trained["gates"][-1]["accepted"]
    empty = model.game.initial_state()
    logits, _ = model.network.evaluate(network.encode(empty.array)[None])
    policy = network.softmax(logits[0]).reshape(8, 8)
    assert policy[2:6, 2:6].sum() > 0.5  # a trained net opens in the centre
    assert np.isclose(policy.sum(), 1.0)


def test_the_shipped_15x15_network_learnt_the_full_models_searches():
    import numpy as np

    from mcts.search.gomoku import network

    model = store.load(store.model_path("gomoku", "net-15x5"))
    game = model.game
    assert game.options == {"size": 15, "row": 5, "rule": "freestyle"}
    assert model.network is not None and model.network.size == 15
    trained = model.manifest["network"]["built"]
    assert trained["command"].startswith("python -m mcts train-net gomoku --size 15")
    assert trained["warm_start"]["tree"] == "full"
    assert trained["warm_start"]["positions"] >= 100_000
    # After h8 h9, a trained network looks next to the stones; an untrained
    # one spreads its priors over the board.
    before = game.play_all(["h8"])
    state = game.apply(before, game.parse_move(before, "h9"))
    planes = network.encode(state.array, game.parse_move(before, "h9"))
    logits, _ = model.network.evaluate(planes[None])
    policy = network.softmax(logits[0])
    top = np.argsort(-policy)[:5]
    for move in top:
        row, column = divmod(int(move), 15)
        assert 6 <= row <= 9 and 6 <= column <= 8, game.format_move(state, int(move))
    assert policy[top].sum() > 0.3


def test_the_shipped_10x10_network_takes_a_win_and_knows_black_wins():
    import numpy as np

    from mcts.search.gomoku import network

    model = store.load(store.model_path("gomoku", "net-10x4"))
    game = model.game
    assert game.options == {"size": 10, "row": 4, "rule": "freestyle"}
    trained = model.manifest["network"]["built"]
    assert trained["command"].startswith("python -m mcts train-net gomoku --size 10")
    # No gate can pass on a board black always wins: each kept the newest.
    assert trained["config"]["gate_score"] == 0 and trained["selfplay_games"] >= 1000
    # Black to move with three in a row, open at both ends: the win cells
    # lead the policy and the value says won; an untrained network knows
    # neither. From the empty board too, black (to move) is winning.
    before = game.play_all(["d5", "d6", "e5", "e6", "f5"])
    f6 = game.parse_move(before, "f6")
    state = game.apply(before, f6)
    logits, value = model.network.evaluate(network.encode(state.array, f6)[None])
    best = int(np.argmax(logits[0]))
    assert game.format_move(state, best) in ("c5", "g5") and value[0] > 0.9
    _, value = model.network.evaluate(network.encode(game.initial_state().array)[None])
    assert value[0] > 0.5

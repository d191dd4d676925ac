"""The light models shipped in model/<game>/light/ keep the issue's promises:
each loads with every line checked, is under 5 MB, and its manifest says
how it was built (a self-play build of at least 200 games); the Reversi and
Gomoku ones carry the evaluation learnt from their build."""

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

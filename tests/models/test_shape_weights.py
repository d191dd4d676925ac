"""The shape weights a Gomoku model carries for its alpha-beta: saved and
loaded with the model, checked against the manifest's sha256, reported by
file name when damaged, and played by the players that load the model."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mcts.games import find_game
from mcts.models import store
from mcts.models.model import Model, ModelError, merge, shape_weights_for
from mcts.models.weights import SHAPES, attach_weights
from mcts.search.config import SearchConfig
from mcts.search.gomoku.weights import ShapeWeights
from mcts.search.searcher import Searcher

from .weights_faults import flip_a_byte, junk_with_its_checksum

WEIGHTS = ShapeWeights(
    (0.0, 4.5, 64.0, 190.0, 295.0, 1000.0, 1e5), 800.0, 300.0, 0.0, 0.27, {"games": 7}
)


@pytest.fixture(scope="module")
def saved_once(tmp_path_factory):
    game = find_game("gomoku", size=9, row=5)
    searcher = Searcher(game, seed=3, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=100)
    model = Model(game, searcher.tree, game.initial_state(), shape_weights=WEIGHTS)
    folder = tmp_path_factory.mktemp("model") / "m"
    store.save(model, folder)
    return folder


@pytest.fixture
def saved(tmp_path, saved_once):
    """A fresh copy of the saved model, for a test to damage."""
    return Path(shutil.copytree(saved_once, tmp_path / "m"))


def test_a_model_with_shape_weights_round_trips_and_lists_the_file(saved):
    manifest = json.loads((saved / store.MANIFEST).read_text())
    assert manifest["shapes"]["file"] == SHAPES.file
    assert manifest["shapes"]["built"] == {"games": 7}
    loaded = store.load(saved, check="fast")
    assert loaded.shape_weights == WEIGHTS
    assert loaded.shape_weights.fitted == {"games": 7}
    assert shape_weights_for(loaded, find_game("gomoku", size=9, row=5)) == WEIGHTS
    # Another board's search does not take them.
    assert shape_weights_for(loaded, find_game("gomoku")) is None
    assert merge(loaded, loaded).shape_weights == WEIGHTS


def test_a_damaged_shape_weights_file_is_reported_by_name(saved):
    flip_a_byte(saved, SHAPES)
    with pytest.raises(ModelError, match=rf"{SHAPES.file}: sha256 does not match"):
        store.load(saved, check="fast")


def test_shape_weights_that_match_their_checksum_but_are_not_weights_are_refused(
    saved,
):
    junk_with_its_checksum(saved, SHAPES)
    with pytest.raises(ModelError, match=rf"{SHAPES.file}: not a weights file"):
        store.load(saved, check="fast")


def test_only_a_gomoku_model_carries_shape_weights(tmp_path):
    game = find_game("reversi")
    folder = tmp_path / "r"
    store.save(Model(game, Searcher(game).tree, game.initial_state()), folder)
    with pytest.raises(ModelError, match="only a gomoku model carries shapes"):
        attach_weights(folder, SHAPES, WEIGHTS)


def test_attached_shape_weights_keep_their_record_and_load(tmp_path, saved):
    copy = tmp_path / "copy"
    shutil.copytree(saved, copy)
    fitted = {"command": "python -m mcts.lab fit-shapes gomoku --model copy"}
    attach_weights(
        copy, SHAPES, ShapeWeights(WEIGHTS.shapes, 1.0, 2.0, 0.5, 0.1, fitted)
    )
    loaded = store.load(copy, check="fast")
    assert loaded.shape_weights.four_fork == 1.0
    assert loaded.shape_weights.fitted["command"].startswith(
        "python -m mcts.lab fit-shapes"
    )


def test_selfplay_plans_with_the_shape_weights_a_resumed_model_carries(
    tmp_path, monkeypatch
):
    from mcts.models import selfplay

    used = []

    class RecordingSearcher(selfplay.Searcher):
        def search(self, **budget):
            used.append(self.shape_weights)
            return super().search(**budget)

    monkeypatch.setattr(selfplay, "Searcher", RecordingSearcher)
    game = find_game("gomoku", size=9, row=5)
    config = selfplay.SelfPlayConfig(simulations=8, study_plies=2, seed=1)
    path = tmp_path / "full"
    selfplay.build(game, path, 1, config, progress=False)
    assert used and all(w is None for w in used)
    attach_weights(path, SHAPES, WEIGHTS)
    used.clear()
    selfplay.build(game, path, 2, config, progress=False)
    assert used and all(w == WEIGHTS for w in used)
    assert store.load(path).shape_weights == WEIGHTS

"""The pattern weights a Reversi model carries: saved and loaded with the
model, checked against the manifest's sha256, and a damaged or missing file
reported by its name."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from mcts.games import find_game
from mcts.models import store
from mcts.models.model import Model, ModelError
from mcts.models.weights import PATTERNS, attach_weights
from mcts.search.config import SearchConfig
from mcts.search.reversi import patterns as rp
from mcts.search.searcher import Searcher

from .weights_faults import flip_a_byte, junk_with_its_checksum


@pytest.fixture(scope="module")
def weights():
    rng = np.random.default_rng(0)
    table = (rng.normal(size=(rp.STAGES, rp.STAGE_WEIGHTS)) * 2).astype(np.float32)
    # Round to the quantum so the loaded weights equal these exactly.
    table = np.rint(table / rp.QUANTUM).astype(np.float32) * np.float32(rp.QUANTUM)
    return rp.PatternWeights(table, scale=6.0, fitted={"positions": 123})


@pytest.fixture(scope="module")
def saved_once(tmp_path_factory, weights):
    game = find_game("reversi")
    searcher = Searcher(game, seed=3, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=200)
    model = Model(game, searcher.tree, game.initial_state(), patterns=weights)
    folder = tmp_path_factory.mktemp("model") / "m"
    store.save(model, folder)
    return folder


@pytest.fixture
def saved(tmp_path, saved_once):
    """A fresh copy of the saved model, for a test to damage."""
    return Path(shutil.copytree(saved_once, tmp_path / "m"))


def test_a_model_with_patterns_round_trips_and_lists_the_file(saved, weights):
    manifest = json.loads((saved / store.MANIFEST).read_text())
    assert manifest["patterns"]["file"] == PATTERNS.file
    assert manifest["patterns"]["bytes"] == (saved / PATTERNS.file).stat().st_size
    loaded = store.load(saved, check="fast")
    assert loaded.patterns is not None
    assert loaded.patterns.scale == 6.0
    assert loaded.patterns.fitted == {"positions": 123}
    assert np.array_equal(loaded.patterns.weights, weights.weights)


def test_a_damaged_weights_file_is_reported_by_name(saved):
    flip_a_byte(saved, PATTERNS)
    with pytest.raises(ModelError, match=rf"{PATTERNS.file}: sha256 does not match"):
        store.load(saved, check="fast")


def test_a_missing_weights_file_is_reported_by_name(saved):
    (saved / PATTERNS.file).unlink()
    with pytest.raises(ModelError, match=rf"{PATTERNS.file}: cannot read"):
        store.load(saved, check="fast")


def test_a_weights_file_that_matches_its_checksum_but_is_not_weights_is_refused(
    saved,
):
    junk_with_its_checksum(saved, PATTERNS)
    with pytest.raises(ModelError, match=rf"{PATTERNS.file}: not a weights file"):
        store.load(saved, check="fast")


def test_attaching_weights_records_the_command_and_loads(tmp_path, saved, weights):
    copy = tmp_path / "copy"
    shutil.copytree(saved, copy)
    (copy / PATTERNS.file).unlink()
    fitted = {"command": "python -m mcts train-patterns reversi"}
    attach_weights(copy, PATTERNS, rp.PatternWeights(weights.weights, 6.0, fitted))
    loaded = store.load(copy, check="fast")
    assert loaded.patterns.fitted["command"].startswith("python -m mcts train-patterns")


def test_selfplay_searches_with_the_patterns_it_carries_and_keeps_them_on_resume(
    tmp_path, weights, monkeypatch
):
    from mcts.models import selfplay

    used = []

    class RecordingSearcher(selfplay.Searcher):
        def search(self, **budget):
            used.append(self.patterns)
            return super().search(**budget)

    monkeypatch.setattr(selfplay, "Searcher", RecordingSearcher)
    game = find_game("reversi")
    config = selfplay.SelfPlayConfig(simulations=8, study_plies=2, seed=1)
    path = tmp_path / "full"
    selfplay.build(game, path, 1, config, progress=False, patterns=weights)
    assert used and all(p is weights for p in used)
    built = store.load(path)
    assert np.array_equal(built.patterns.weights, weights.weights)
    used.clear()
    selfplay.build(game, path, 2, config, progress=False)  # resumed: no patterns given
    assert used and all(p is not None for p in used)
    resumed = store.load(path)
    assert resumed.manifest["built"]["selfplay_games"] == 2
    assert np.array_equal(resumed.patterns.weights, weights.weights)

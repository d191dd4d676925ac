"""The live model (mcts.models.live): a search's gain is what it added to its
tree, and a finished game's gains grow the model along its moves, saved
every few games, its seed never changed."""

from __future__ import annotations

import json
import shutil

import pytest

from mcts import LiveModel, find_game, search_gain
from mcts.models import store
from mcts.search.searcher import Searcher

GAME = find_game("reversi")
LIGHT = store.model_path("reversi", "light")


def test_a_search_gain_is_what_the_search_added():
    searcher = Searcher(GAME, seed=1)
    searcher.search(simulations=300)
    before = searcher.tree.subtree(0)
    searcher.search(simulations=500)
    gain = search_gain(before, searcher.tree, min_visits=1)
    assert int(gain.visits[0]) == 500
    assert sum(int(gain.visits[c]) for c in gain.children(0)) == 500
    # Pruned like self-play: only nodes with enough visits keep their children.
    pruned = search_gain(before, searcher.tree, min_visits=50)
    assert int(pruned.visits[0]) == 500 and pruned.size < gain.size
    assert all(
        int(pruned.visits[pruned.parent[n]]) >= 50 for n in range(1, pruned.size)
    )


def _game_with_gains(seconds_moves: int = 6):
    """Play a short line with a searcher; return its move codes and gains."""
    state = GAME.initial_state()
    searcher = Searcher(GAME, state, seed=2)
    moves, gains = [], {}
    for ply in range(seconds_moves):
        searcher.set_state(state)
        before = searcher.tree.subtree(0)
        result = searcher.search(simulations=2000)
        gains[ply] = search_gain(before, searcher.tree)
        moves.append(result.code)
        searcher.advance(result.code)
        state = GAME.apply(state, result.code)
    return moves, gains


def test_a_finished_game_grows_the_model_along_its_moves_and_saves(tmp_path):
    seed = tmp_path / "light"
    shutil.copytree(LIGHT, seed)
    seed_bytes = (seed / store.NODES).read_bytes()
    live = LiveModel(GAME, tmp_path / "live", seed=seed, save_every=2)
    root_before = int(live.model.tree.visits[0])
    moves, gains = _game_with_gains()
    assert live.add_game(moves, gains) is False  # saved every 2 games
    assert not (tmp_path / "live").exists()
    assert int(live.model.tree.visits[0]) == root_before + 2000
    node = live.model.tree.child_with_move(0, moves[0])
    assert node >= 0
    assert live.add_game(moves, gains) is True
    manifest = json.loads((tmp_path / "live" / store.MANIFEST).read_text())
    assert manifest["built"]["by"] == "live"
    assert manifest["built"]["live_games"] == 2
    assert manifest["built"]["seeded_from"]["model"] == "light"
    assert (seed / store.NODES).read_bytes() == seed_bytes  # the seed is untouched
    # A restart resumes from the saved model and its count.
    again = LiveModel(GAME, tmp_path / "live", seed=seed)
    assert again.games_merged == 2
    assert int(again.model.tree.visits[0]) >= root_before + 4000 - 1


def test_save_every_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="save_every"):
        LiveModel(GAME, tmp_path / "live", save_every=0)

"""The live model (mcts.models.live): a search's gain is what it added to its
tree, and a finished game's gains grow the model along its moves, saved
every few games, its seed never changed."""

from __future__ import annotations

import json
import shutil

import numpy as np
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


def test_a_gain_from_snapshots_is_the_gain_from_compact_copies():
    # The web app hands the live model snapshots (node ids as the search left
    # them), cheaper than compact copies: the gain must not differ.
    searcher = Searcher(GAME, seed=4)
    searcher.search(simulations=1500)
    before, compact = searcher.tree.snapshot(), searcher.tree.subtree(0)
    searcher.search(simulations=1500)
    ours = search_gain(before, searcher.tree.snapshot(), min_visits=5)
    theirs = search_gain(compact, searcher.tree, min_visits=5)
    assert ours.size == theirs.size > 1
    for array, same in zip(
        ours.arrays.head(ours.size), theirs.arrays.head(theirs.size), strict=True
    ):
        assert np.array_equal(array, same)


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


def test_two_processes_growing_one_live_model_lose_no_games(tmp_path):
    """QA: ``playlive`` beside the server saved 3 games, and the server's
    next save, from the model it had loaded before, overwrote them. A save
    that finds the model changed on disk takes that one and folds its own
    unsaved games in again."""
    moves, gains = _game_with_gains(1)
    per_game = int(gains[0].visits[0])
    server = LiveModel(GAME, tmp_path / "live", save_every=1)
    server.add_game(moves, gains)  # saved: one game
    server.save_every = 3
    server.add_game(moves, gains)  # in memory only
    beside = LiveModel(GAME, tmp_path / "live", save_every=1)
    beside.add_game(moves, gains)
    beside.add_game(moves, gains)  # on disk: three games
    server.add_game(moves, gains)  # in memory: three games, two unsaved
    server.save()
    saved = store.load(tmp_path / "live")
    assert saved.manifest["built"]["live_games"] == server.games_merged == 5
    assert int(saved.tree.visits[0]) == 5 * per_game
    assert server.unsaved == 0
    # And the other way round: the one beside folds its game into the
    # server's save.
    beside.add_game(moves, gains)
    assert store.load(tmp_path / "live").manifest["built"]["live_games"] == 6


def test_a_live_model_deleted_on_disk_is_saved_again_from_memory(tmp_path):
    moves, gains = _game_with_gains(1)
    live = LiveModel(GAME, tmp_path / "live", save_every=1)
    live.add_game(moves, gains)
    shutil.rmtree(tmp_path / "live")
    live.add_game(moves, gains)
    assert store.load(tmp_path / "live").manifest["built"]["live_games"] == 2


def test_save_every_must_be_positive(tmp_path):
    with pytest.raises(ValueError, match="save_every"):
        LiveModel(GAME, tmp_path / "live", save_every=0)


def test_a_save_over_the_node_cap_prunes_the_model_to_it(tmp_path):
    moves, gains = _game_with_gains(3)
    live = LiveModel(GAME, tmp_path / "live", save_every=1, max_nodes=10_000)
    live.add_game(moves, gains)
    grown = live.model.nodes
    assert grown > 40
    live.max_nodes = 40
    live.add_game(moves, gains)
    saved = store.load(tmp_path / "live")
    assert saved.nodes <= 40 and live.model.nodes == saved.nodes
    assert saved.manifest["built"]["pruned"]["from_nodes"] > 40
    per_game = int(gains[0].visits[0])
    assert int(saved.tree.visits[0]) == 2 * per_game  # pruning keeps the counts
    live.add_game(moves, gains)  # the pruned tree still grows
    assert int(live.model.tree.visits[0]) == 3 * per_game


def test_max_nodes_must_leave_room_for_a_root_and_a_move(tmp_path):
    with pytest.raises(ValueError, match="max_nodes"):
        LiveModel(GAME, tmp_path / "live", max_nodes=1)


# A child process that folds one game into an existing live model and saves
# it, pausing at the disk write argv[2] (1-based; 0: none) so the test can
# kill it there; it prints each write's number.
_KILLED_LIVE_SAVE = """
import os, sys, time
from mcts import LiveModel, find_game, search_gain
from mcts.search.searcher import Searcher
from mcts.search.tree import Tree
game = find_game("reversi")
live = LiveModel(game, sys.argv[1], save_every=1)
searcher = Searcher(game, seed=9)
searcher.search(simulations=3000)
gains = {0: search_gain(Tree(1), searcher.tree, min_visits=1)}
real, count, stop = os.fsync, [0], int(sys.argv[2])
def counting_fsync(fd):
    real(fd)
    count[0] += 1
    print("write", count[0], flush=True)
    if count[0] == stop:
        time.sleep(60)
os.fsync = counting_fsync
live.add_game([], gains)
print("saved", flush=True)
"""


def _run_live_save(folder, stop: int):
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    return subprocess.Popen(
        [sys.executable, "-c", _KILLED_LIVE_SAVE, str(folder), str(stop)],
        stdout=subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=str(repo)),
        cwd=repo,
    )


def test_a_server_killed_during_a_live_model_save_leaves_a_model_that_loads(
    tmp_path,
):
    import signal

    folder = tmp_path / "live"
    first = LiveModel(GAME, folder, save_every=1)
    moves, gains = _game_with_gains(1)
    first.add_game(moves, gains)  # the model on disk: one game merged
    child = _run_live_save(folder, 0)
    out, _ = child.communicate(timeout=300)
    writes = out.decode().count("write ")
    assert out.decode().endswith("saved\n") and writes >= 4
    shutil.rmtree(folder)
    first.save()
    # Kill a save at its first write, in the middle, and at its last (the
    # folder already swapped in): each time a model that loads is there.
    for stop in sorted({1, writes // 2, writes - 1, writes}):
        child = _run_live_save(folder, stop)
        try:
            for line in child.stdout:
                if line == f"write {stop}\n".encode():
                    break
            child.send_signal(signal.SIGKILL)
        finally:
            child.wait(timeout=30)
        reloaded = LiveModel(GAME, folder)
        # Before the new folder is swapped in (the last write syncs the swap)
        # the old model is there, whole; after it, the new one.
        assert reloaded.games_merged == (2 if stop == writes else 1), stop
        assert store.load(folder).nodes > 1
        if reloaded.games_merged == 2:
            first.save()  # back to the one-game model for the next kill

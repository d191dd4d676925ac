"""Tree models on disk: round trip, validation errors, atomic saves, merge,
warm start."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mcts.cli import models as model_cli
from mcts.games import find_game
from mcts.models import model as treemodel
from mcts.models import store
from mcts.models.model import ModelError
from mcts.search.config import SearchConfig
from mcts.search.features import FEATURE_NAMES, STAGE_TERMS
from mcts.search.learned import Evaluation
from mcts.search.searcher import Searcher

REPO = Path(__file__).resolve().parents[2]
FILES = (store.MANIFEST, store.NODES, store.STATES)


@pytest.fixture(scope="module")
def reversi():
    return find_game("reversi")


@pytest.fixture(scope="module")
def searched(reversi):
    searcher = Searcher(reversi, seed=7, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=600)
    return searcher.tree


@pytest.fixture()
def saved(tmp_path, reversi, searched):
    """A model in format version 1, whose line checks these tests edit
    (version 2's: tests/models/test_compact_format.py)."""
    path = tmp_path / "m"
    model = treemodel.Model(reversi, searched, reversi.initial_state())
    store.save(model, path, version=1)
    return path


def _bytes(path: Path) -> dict:
    return {name: (path / name).read_bytes() for name in FILES}


def _rewrite(path: Path, name: str, edit) -> None:
    """Edit the lines of a data file, then make the manifest's checksums
    match again, so only the line checks can catch the fault."""
    lines = (path / name).read_bytes().splitlines(keepends=True)
    lines = edit(lines)
    data = b"".join(lines)
    (path / name).write_bytes(data)
    manifest = json.loads((path / store.MANIFEST).read_text())
    entry = manifest["files"][name]
    entry["sha256"] = hashlib.sha256(data).hexdigest()
    step = store.BLOCK_LINES
    entry["blocks"] = [
        hashlib.sha256(b"".join(lines[i : i + step])).hexdigest()[:16]
        for i in range(0, len(lines), step)
    ]
    (path / store.MANIFEST).write_text(json.dumps(manifest))


def _edit_node(number: int, **changes):
    def edit(lines):
        rec = json.loads(lines[number - 1])
        rec.update(changes)
        lines[number - 1] = (json.dumps(rec) + "\n").encode()
        return lines

    return edit


def test_save_load_save_gives_byte_identical_files(saved, tmp_path, reversi):
    model = store.load(saved)
    again = tmp_path / "again"
    store.save(model, again, version=1)
    assert _bytes(saved) == _bytes(again)
    assert model.nodes == json.loads((saved / store.MANIFEST).read_text())["nodes"]


def _with_evaluation(path: Path, reversi, searched) -> treemodel.Model:
    count = len(FEATURE_NAMES["reversi"]) * STAGE_TERMS
    weights = tuple(round(0.001 * k - 0.02, 6) for k in range(count))
    evaluation = Evaluation("reversi", weights, {"positions": 600, "explained": 0.5})
    model = treemodel.Model(reversi, searched, reversi.initial_state())
    model.evaluation = evaluation
    store.save(model, path)
    return model


def test_a_model_keeps_its_evaluation_byte_for_byte(tmp_path, reversi, searched):
    first = tmp_path / "first"
    model = _with_evaluation(first, reversi, searched)
    loaded = store.load(first)
    assert loaded.evaluation == model.evaluation
    assert loaded.evaluation.fitted == model.evaluation.fitted
    store.save(loaded, tmp_path / "again")
    assert _bytes(first) == _bytes(tmp_path / "again")


def test_a_bad_evaluation_is_reported_in_the_manifest(tmp_path, reversi, searched):
    path = tmp_path / "m"
    _with_evaluation(path, reversi, searched)
    before = _bytes(path)
    manifest = json.loads((path / store.MANIFEST).read_text())
    manifest["evaluation"]["weights"][3] = "strong"
    (path / store.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(
        ModelError, match=r"manifest\.json: bad evaluation: weight 'strong'"
    ):
        store.load(path)
    assert _bytes(path)[store.NODES] == before[store.NODES]


def test_load_keeps_the_statistics(saved, searched):
    model = store.load(saved)
    assert int(model.tree.visits[0]) == int(searched.visits[0])
    best = max(searched.children(0), key=lambda c: int(searched.visits[c]))
    child = model.tree.child_with_move(0, int(searched.move[best]))
    assert int(model.tree.visits[child]) == int(searched.visits[best])
    assert float(model.tree.value_sum[child]) == float(searched.value_sum[best])


def test_lines_are_sorted_compact_json(saved):
    first = (saved / store.NODES).read_text().splitlines()[0]
    value = json.loads(first)["value"]
    expected = {"id": 0, "move": None, "parent": -1, "proven": None, "visits": 600}
    assert first == json.dumps(
        dict(expected, value=value), sort_keys=True, separators=(",", ":")
    )
    assert first.startswith('{"id":0,"move":null,"parent":-1,"proven":null,"value":')
    state = json.loads((saved / store.STATES).read_text().splitlines()[0])
    assert state == {"id": 0, "side": "black", "state": state["state"]}


@pytest.mark.parametrize("offset", [5, 40, 200, 1000, -30])
def test_a_flipped_byte_is_reported_with_file_and_line(saved, offset):
    path = saved / store.NODES
    data = bytearray(path.read_bytes())
    position = offset % len(data)
    data[position] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match=r"nodes\.jsonl.* lines? \d+"):
        store.load(saved)


def test_a_truncated_last_line_is_reported(saved):
    path = saved / store.NODES
    data = path.read_bytes()
    path.write_bytes(data[:-7])
    count = data.count(b"\n")
    with pytest.raises(ModelError, match=rf"nodes\.jsonl line {count}: truncated"):
        store.load(saved)


def test_a_line_that_is_not_utf8_is_reported_as_not_json(saved):
    def edit(lines):
        lines[1] = lines[1].replace(b'"move":"', b'"move":"\xff', 1)
        return lines

    _rewrite(saved, store.NODES, edit)
    with pytest.raises(ModelError, match=r"nodes\.jsonl line 2: not JSON \(not UTF-8"):
        store.load(saved)


def test_a_damaged_line_that_is_not_utf8_is_reported(saved):
    path = saved / store.NODES
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"move":"', b'"move":"\xff', 1))
    with pytest.raises(ModelError, match=r"line 2: damaged: not JSON \(not UTF-8"):
        store.load(saved)


def test_a_manifest_that_is_not_json_is_reported_with_its_line(saved):
    (saved / store.MANIFEST).write_text('{\n"format": oops}')
    with pytest.raises(ModelError, match=r"manifest\.json line 2: not JSON"):
        store.read_manifest(saved)
    (saved / store.MANIFEST).write_bytes(b'{"format": "\xff"}')
    with pytest.raises(ModelError, match=r"manifest\.json: not JSON \(not UTF-8"):
        store.read_manifest(saved)


def test_a_missing_line_is_reported(saved):
    _rewrite(saved, store.NODES, lambda lines: lines[:-1])
    with pytest.raises(ModelError, match=r"nodes\.jsonl line \d+: missing"):
        store.load(saved)


def test_a_missing_parent_is_reported(saved):
    _rewrite(saved, store.NODES, _edit_node(9, parent=500000))
    with pytest.raises(
        ModelError, match=r"nodes\.jsonl line 9: parent 500000 is missing"
    ):
        store.load(saved)


def test_an_illegal_move_is_reported(saved):
    _rewrite(saved, store.NODES, _edit_node(2, move="a1"))
    with pytest.raises(ModelError, match=r"nodes\.jsonl line 2: illegal move"):
        store.load(saved)


def test_a_state_that_does_not_match_is_reported(saved):
    def edit(lines):
        rec = json.loads(lines[3])
        rec["state"] = rec["state"].replace("x", "o", 1)
        lines[3] = (json.dumps(rec) + "\n").encode()
        return lines

    _rewrite(saved, store.STATES, edit)
    with pytest.raises(ModelError, match=r"states\.jsonl line 4: state does not match"):
        store.load(saved)


def test_a_model_of_another_game_is_refused(saved):
    with pytest.raises(ModelError, match=r"manifest\.json: the model is for Reversi"):
        store.load(saved, game=find_game("loa"))


def test_a_manifest_naming_the_wrong_game_fails_at_the_first_move(saved):
    manifest = json.loads((saved / store.MANIFEST).read_text())
    manifest["game"] = "loa"
    (saved / store.MANIFEST).write_text(json.dumps(manifest))
    # The Reversi root string is a well-formed LOA board too: the move shows it.
    with pytest.raises(ModelError, match=r"nodes\.jsonl line 2: bad move"):
        store.load(saved)


def test_a_failed_save_leaves_the_old_model_untouched(saved, reversi, searched):
    before = _bytes(saved)
    broken = searched.subtree(0)
    broken.move[broken.size - 1] = 63 * 0 + 0  # a1: never legal early in Reversi
    with pytest.raises(ValueError):
        store.save(treemodel.Model(reversi, broken, reversi.initial_state()), saved)
    assert _bytes(saved) == before
    assert sorted(p.name for p in saved.parent.iterdir()) == ["m"]


_KILLED_SAVE = """
import os, sys, time
from mcts.models import store
from mcts.models import model as treemodel
from mcts.games import find_game
from mcts.search.config import SearchConfig
from mcts.search.searcher import Searcher
game = find_game("reversi")
searcher = Searcher(game, seed=3, config=SearchConfig(evaluator="random"))
searcher.search(simulations=300)
real = os.fsync
def slow_fsync(fd):
    real(fd)
    print("fsync", flush=True)
    time.sleep(60)
os.fsync = slow_fsync
store.save(treemodel.Model(game, searcher.tree, game.initial_state()), sys.argv[1])
"""


def test_a_killed_save_leaves_the_old_model_untouched(saved):
    before = _bytes(saved)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLED_SAVE, str(saved)],
        stdout=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    try:
        assert child.stdout.readline() == b"fsync\n"  # mid-save: a file is written
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert _bytes(saved) == before
    assert store.load(saved).nodes > 1
    leftovers = [p.name for p in saved.parent.iterdir() if p.name != "m"]
    assert leftovers and all(name.startswith(".m.tmp-") for name in leftovers)


def test_merge_adds_the_statistics(saved, reversi):
    model = store.load(saved)
    other = Searcher(reversi, seed=8, config=SearchConfig(evaluator="random"))
    other.search(simulations=300)
    b = treemodel.Model(reversi, other.tree, reversi.initial_state())
    merged = treemodel.merge(model, b)
    assert int(merged.tree.visits[0]) == 900
    for child in other.tree.children(0):
        code = int(other.tree.move[child])
        mine = model.tree.child_with_move(0, code)
        theirs = merged.tree.child_with_move(0, code)
        assert int(merged.tree.visits[theirs]) == int(model.tree.visits[mine]) + int(
            other.tree.visits[child]
        )
    assert int(model.tree.visits[0]) == 600  # the inputs are not modified


def test_pruning_keeps_children_of_nodes_with_enough_visits(searched):
    pruned = treemodel.prune(searched, 20)
    assert 1 < pruned.size < searched.size
    expanded = pruned.first_child[: pruned.size] >= 0
    assert np.all(pruned.visits[: pruned.size][expanded][1:] >= 20)
    assert pruned.n_children[0] == searched.n_children[0]


def test_min_visits_for_is_the_lightest_pruning_under_a_node_count(searched):
    for limit in (50, 400, 2000):
        chosen = treemodel.min_visits_for(searched, limit)
        assert treemodel.prune(searched, chosen).size <= limit
        assert chosen == 1 or treemodel.prune(searched, chosen - 1).size > limit


def test_warm_tree_gives_the_stored_visits_at_the_root(saved, reversi):
    model = store.load(saved)
    best = max(model.tree.children(0), key=lambda c: int(model.tree.visits[c]))
    position = reversi.apply(reversi.initial_state(), int(model.tree.move[best]))
    stored = int(model.tree.visits[best])
    searcher = Searcher(reversi, position, seed=1)
    searcher.tree = treemodel.warm_tree(model, reversi, position)
    assert searcher.result().root_visits == stored
    searcher.search(simulations=50)
    assert searcher.result().root_visits == stored + 50
    assert int(model.tree.visits[best]) == stored  # the shared model is unchanged


def test_warm_tree_is_none_off_the_model(saved, reversi):
    model = store.load(saved)
    far = reversi.play_all(["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3", "c2", "e3"])
    assert treemodel.warm_tree(model, reversi, far) is None
    gomoku = find_game("gomoku")
    assert treemodel.warm_tree(model, gomoku, gomoku.initial_state()) is None


def _positions_by_replay(game, model) -> dict:
    """Map each expanded node's position, in whichever orientation has the
    smallest key, to its nodes (plain Python)."""
    tree, found = model.tree, {}
    states = {0: model.root_state}
    for node in range(tree.size):  # breadth first: parents come first
        if node:
            states[node] = game.apply(
                states[int(tree.parent[node])], int(tree.move[node])
            )
        if tree.first_child[node] >= 0:
            key = min(
                game.map_state(states[node], image).key() for image in game.symmetries()
            )
            found.setdefault(key, []).append((node, states[node]))
    return found


def test_warm_tree_finds_a_transposition_and_takes_the_most_studied(reversi):
    searcher = Searcher(
        reversi, seed=5, config=SearchConfig(evaluator="random", expand_visits=1)
    )
    searcher.search(simulations=20000)
    model = treemodel.Model(reversi, searcher.tree, reversi.initial_state())
    shared = [
        nodes
        for nodes in _positions_by_replay(reversi, model).values()
        if len(nodes) > 1
    ]
    assert shared, "a 20000-simulation Reversi tree holds transpositions"
    assert any(len({state.key() for _, state in nodes}) > 1 for nodes in shared)
    for nodes in shared:
        best = max(model.index.study(node) for node, _ in nodes)
        for _node, state in nodes:
            warm = treemodel.warm_tree(model, reversi, state)
            assert sum(int(warm.visits[c]) for c in warm.children(0)) == best


def test_warm_tree_finds_a_rotated_or_mirrored_position(reversi):
    first = reversi.apply(
        reversi.initial_state(), reversi.legal_moves(reversi.initial_state())[0]
    )
    searcher = Searcher(reversi, first, seed=3, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=300)
    model = treemodel.Model(reversi, searcher.tree, first)
    for image in reversi.symmetries():
        query = reversi.map_state(first, image)
        warm = treemodel.warm_tree(model, reversi, query)
        assert warm is not None and int(warm.visits[0]) == 300
        table = reversi.move_map(image)
        for child in warm.children(0):
            move = int(warm.move[child])
            assert move in reversi.legal_moves(query)
            original = searcher.tree.child_with_move(
                0, int(np.flatnonzero(table == move)[0])
            )
            assert int(warm.visits[child]) == int(searcher.tree.visits[original])


def test_info_lists_nodes_depth_and_top_lines(saved):
    summary = treemodel.info(store.load(saved))
    assert summary["nodes"] > 1 and summary["depth"] >= 2
    assert summary["bytes"] == sum(len(b) for b in _bytes(saved).values())
    assert summary["top_lines"][0]["visits"] >= summary["top_lines"][-1]["visits"]


def test_info_and_prune_keep_the_evaluation(tmp_path, reversi, searched, capsys):
    path = tmp_path / "m"
    model = _with_evaluation(path, reversi, searched)
    assert treemodel.info(store.load(path))["evaluation"]["positions"] == 600
    model_cli.cmd_info(argparse.Namespace(path=str(path), fast=False, json=False))
    assert "evaluation: fitted to 600 positions" in capsys.readouterr().out
    light = tmp_path / "light"
    model_cli.cmd_prune(
        argparse.Namespace(path=str(path), out=str(light), min_visits=50, max_mb=None)
    )
    assert store.load(light).evaluation == model.evaluation


def test_pruning_a_pruned_model_keeps_its_builds_node_count(
    tmp_path, reversi, searched, capsys
):
    path = tmp_path / "m"
    _with_evaluation(path, reversi, searched)
    for source, out, min_visits in (("m", "once", 50), ("once", "twice", 10)):
        model_cli.cmd_prune(
            argparse.Namespace(
                path=str(tmp_path / source),
                out=str(tmp_path / out),
                min_visits=min_visits,
                max_mb=None,
            )
        )
    pruned = store.load(tmp_path / "twice").manifest["built"]["pruned"]
    assert pruned == {"from_nodes": store.load(path).nodes, "min_visits": 50}


def test_fast_load_reads_the_same_tree(saved):
    full, fast = store.load(saved), store.load(saved, check="fast")
    for name in ("parent", "move", "first_child", "n_children", "visits", "proven"):
        size = full.tree.size
        assert np.array_equal(
            getattr(full.tree, name)[:size], getattr(fast.tree, name)[:size]
        )


def test_load_shared_returns_one_copy(saved):
    assert store.load_shared(saved) is store.load_shared(saved)
    shutil.rmtree(saved)


def test_a_line_past_a_repetition_draw_is_saved_and_loaded(tmp_path):
    """The search's kernels never see Lines of Action's repetitions (the
    rules judge them from the history), so a tree grows lines past a third
    repetition. Saving one raised IllegalMoveError: the server's live model
    of Lines of Action, once its games had such a line, was never saved
    again, each finished game logging the error."""
    from mcts.search.tree import Tree

    loa = find_game("loa")
    there_and_back = ["b1-h1", "a2-c2", "h1-b1", "c2-a2"]
    state, codes = loa.initial_state(), []
    for text in there_and_back * 2:
        codes.append(loa.parse_move(state, text))
        state = loa.play(state, text)
    assert loa.legal_moves(state) == []  # the third repetition: a draw
    codes += codes[:2]  # and the search's tree goes on: b1-h1, a2-c2 again
    tree = Tree()
    node = 0
    for code in codes:
        node = tree.add_children(node, np.array([code]))
    tree.visits[: tree.size] = np.arange(tree.size, 0, -1)
    model = treemodel.Model(loa, tree, loa.initial_state(), {}, None)
    store.save(model, tmp_path / "m")
    loaded = store.load(tmp_path / "m", game=loa)
    assert loaded.tree.size == tree.size == 11
    assert loaded.tree.move[: tree.size].tolist() == tree.move[: tree.size].tolist()

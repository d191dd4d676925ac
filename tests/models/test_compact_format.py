"""Format version 2 (mcts.models.compact, mcts.models.version2): the lines,
their round trip in every game, and every damaged line named by file and line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mcts.games import find_game
from mcts.models import compact, store
from mcts.models import model as treemodel
from mcts.models.model import ModelError
from mcts.search.config import SearchConfig
from mcts.search.searcher import Searcher

from .test_store import _bytes, _rewrite

GAMES = [("reversi", {}), ("gomoku", {"size": 9, "row": 5}), ("loa", {})]


@pytest.fixture(scope="module", params=GAMES, ids=[name for name, _ in GAMES])
def grown(request):
    name, options = request.param
    game = find_game(name, **options)
    searcher = Searcher(game, seed=4, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=400)
    return treemodel.Model(game, searcher.tree, game.initial_state())


@pytest.fixture()
def saved(tmp_path):
    game = find_game("reversi")
    searcher = Searcher(game, seed=7, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=600)
    path = tmp_path / "m"
    store.save(treemodel.Model(game, searcher.tree, game.initial_state()), path)
    return path


def test_every_game_saves_version_2_loads_it_checked_and_saves_it_again_byte_for_byte(
    tmp_path, grown
):
    store.save(grown, tmp_path / "a")
    loaded = store.load(tmp_path / "a")
    store.save(loaded, tmp_path / "b")
    assert _bytes(tmp_path / "a") == _bytes(tmp_path / "b")
    assert loaded.manifest["version"] == 2
    size = loaded.nodes
    original = treemodel.prune(grown.tree)
    for name in ("parent", "move", "first_child", "n_children", "visits", "proven"):
        assert np.array_equal(
            getattr(loaded.tree, name)[:size], getattr(original, name)[:size]
        )
    assert np.array_equal(loaded.tree.value_sum[:size], original.value_sum[:size])


def test_version_1_and_version_2_files_hold_the_same_tree(tmp_path, grown):
    store.save(grown, tmp_path / "v1", version=1)
    store.save(grown, tmp_path / "v2")
    one, two = store.load(tmp_path / "v1"), store.load(tmp_path / "v2")
    assert one.manifest["version"] == 1 and two.manifest["version"] == 2
    size = one.nodes
    for name in ("parent", "move", "visits", "value_sum", "proven"):
        assert np.array_equal(
            getattr(one.tree, name)[:size], getattr(two.tree, name)[:size]
        )
    v1 = sum(len(data) for data in _bytes(tmp_path / "v1").values())
    v2 = sum(len(data) for data in _bytes(tmp_path / "v2").values())
    assert v2 < v1 / 2


def test_a_state_line_decodes_to_the_position_of_its_node(tmp_path, grown):
    game = grown.game
    store.save(grown, tmp_path / "m")
    model = store.load(tmp_path / "m")
    lines = (tmp_path / "m" / store.STATES).read_text().splitlines()
    assert len({len(line) for line in lines}) == 1  # a table of fixed-width rows
    from mcts.models.checker import position_of

    for node in (0, 1, model.nodes - 1):
        state = position_of(game, model.root_state, model.tree, node)
        text = json.loads(lines[node])
        assert text == compact.encode_state(game, state)
        back = compact.decode_state(game, model.root_state, text)
        assert game.state_string(back) == game.state_string(state)


def test_node_lines_are_short_arrays(saved):
    lines = (saved / store.NODES).read_text().splitlines()
    root, child = json.loads(lines[0]), json.loads(lines[1])
    assert root[:2] == [-1, None] and root[2] == 600 and root[4] == 0
    assert child[0] == 0 and isinstance(child[1], str) and len(child) == 5
    assert lines[1] == json.dumps(child, separators=(",", ":"))


def test_value_texts_are_short_and_read_back_exactly():
    values = np.array(
        [0.0, 0.5, 277.0, 534.669189453125, 1301258.375, 0.1, 3e-7, 1e16, 2**24 + 2],
        dtype=np.float32,
    )
    texts = compact.value_texts(values)
    assert texts[:4] == ["0", "0.5", "277", "534.6692"]
    assert all(len(text) <= 15 for text in texts)
    assert np.array_equal(np.array([float(t) for t in texts], np.float32), values)
    lines = "".join(f"[-1,null,1,{text},0]\n" for text in texts).encode()
    parsed = compact.parse_nodes(lines, len(texts))
    assert parsed.bad == -1
    assert np.array_equal(parsed.value.astype(np.float32), values)


def _replace(number: int, old: bytes, new: bytes):
    def edit(lines):
        assert old in lines[number - 1]
        lines[number - 1] = lines[number - 1].replace(old, new, 1)
        return lines

    return edit


def _set_node(number: int, index: int, value):
    def edit(lines):
        rec = json.loads(lines[number - 1])
        rec[index] = value
        lines[number - 1] = (json.dumps(rec, separators=(",", ":")) + "\n").encode()
        return lines

    return edit


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_replace(5, b"[", b"{"), r"line 5: not JSON"),
        (_replace(5, b"]", b",0]"), r"line 5: expected an array \[parent, move"),
        (_replace(6, b",", b",[1],"), r"line 6: expected an array"),
        (_set_node(7, 0, 9), r"line 7: parent 9 is missing \(parents come first\)"),
        (_set_node(7, 0, -3), r"line 7: parent -3 is missing"),
        (_set_node(8, 4, 5), r"line 8: bad proven 5"),
        (_set_node(8, 4, "win"), r"line 8: bad proven 'win'"),
        (_set_node(9, 1, None), r"line 9: move None is not a move"),
        (_set_node(9, 1, "z9"), r"line 9: bad move"),
        (_set_node(9, 1, "a1"), r"line 9: illegal move"),
        (_set_node(4, 2, -1), r"line 4: bad visits -1"),
        (_set_node(4, 3, 1e9), r"line 4: bad visits \d+ or value sum"),
        (_set_node(4, 2, "many"), r"line 4: bad visits 'many'"),
        (_set_node(1, 0, 0), r"line 1: the root needs parent -1 and move null"),
        (_replace(3, b",", b", "), r"line 3: not in the saved form"),
    ],
)
def test_a_damaged_node_line_is_reported_with_file_and_line(saved, edit, message):
    _rewrite(saved, store.NODES, edit)
    with pytest.raises(ModelError, match=r"nodes\.jsonl " + message):
        store.load(saved)


def test_a_parent_out_of_breadth_first_order_is_reported(saved):
    lines = (saved / store.NODES).read_bytes().splitlines(keepends=True)
    last = max(n for n, line in enumerate(lines) if json.loads(line)[0] > 0) + 1
    _rewrite(saved, store.NODES, _set_node(last - 1, 0, json.loads(lines[last - 1])[0]))
    _rewrite(saved, store.NODES, _set_node(last, 0, 0))
    with pytest.raises(
        ModelError, match=rf"line {last}: parent 0 out of breadth-first"
    ):
        store.load(saved)


def test_the_fault_at_the_lowest_line_is_reported(saved):
    _rewrite(saved, store.NODES, _set_node(9, 4, 7))
    _rewrite(saved, store.NODES, _set_node(12, 0, 99999))
    _rewrite(saved, store.NODES, _replace(20, b"[", b"{"))
    with pytest.raises(ModelError, match=r"nodes\.jsonl line 9: bad proven 7"):
        store.load(saved)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (_replace(4, b'"', b"'"), r"line 4: not JSON"),
        (_replace(4, b'"', b'["'), r"line 4: not JSON"),
        (_replace(4, b'"\n', b'A"\n'), r"line 4: bad state encoding: \d+ bytes"),
        (_replace(4, b"A", b"*"), r"line 4: bad state encoding"),
        (_replace(4, b'"', b" "), r"line 4: not JSON|line 4: expected a string"),
    ],
)
def test_a_damaged_state_line_is_reported_with_file_and_line(saved, edit, message):
    _rewrite(saved, store.STATES, edit)
    with pytest.raises(ModelError, match=r"states\.jsonl " + message):
        store.load(saved)


def test_a_state_of_another_position_is_reported(saved):
    game = find_game("reversi")
    other = json.dumps(compact.encode_state(game, game.initial_state())).encode()
    line = (saved / store.STATES).read_bytes().splitlines()[5]
    _rewrite(saved, store.STATES, _replace(6, line, other))
    with pytest.raises(
        ModelError, match=r"states\.jsonl line 6: state does not match the position"
    ):
        store.load(saved)
    assert store.load(saved, check="fast").nodes > 6  # the fast check trusts it


@pytest.mark.parametrize("name", [store.NODES, store.STATES])
@pytest.mark.parametrize("offset", [3, 200, -5])
def test_a_flipped_byte_is_reported_with_file_and_line(saved, name, offset):
    path = saved / name
    data = bytearray(path.read_bytes())
    data[offset % len(data)] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(ModelError, match=name.replace(".", r"\.") + r".* lines? \d+"):
        store.load(saved)


def test_a_truncated_file_is_reported_at_its_last_line(saved):
    path = saved / store.NODES
    data = path.read_bytes()
    path.write_bytes(data[:-4])
    last = data.count(b"\n")
    with pytest.raises(ModelError, match=rf"nodes\.jsonl line {last}: truncated"):
        store.load(saved)


@pytest.mark.parametrize(
    ("name", "options"), [("reversi", {}), ("loa", {}), ("gomoku", {"size": 7})]
)
def test_every_game_packs_its_state_vector_as_its_state_string(name, options):
    game = find_game(name, **options)
    room = np.empty((3, 384), dtype=np.uint8)
    other = np.empty((3, 384), dtype=np.uint8)
    rng = np.random.default_rng(1)
    state = game.initial_state()
    for _ in range(40):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, moves[int(rng.integers(len(moves)))])
        n = compact._encode(game.game_id, state.array, room)
        m = compact._encode_rendered(game.game_id, state.array, other)
        assert n == m and bytes(room[2, :n]) == bytes(other[2, :m])


def test_a_value_with_more_digits_than_numba_reads_exactly_is_read_by_python():
    lines = b'[-1,null,9,0.10000000149011612,0]\n[0,"d3",1,1.2345678901234567e-3,1]\n'
    parsed = compact.parse_nodes(lines, 2)
    assert parsed.bad == -1 and not parsed.value_exact.any()
    assert parsed.value.tolist() == [0.10000000149011612, 1.2345678901234567e-3]
    assert parsed.proven.tolist() == [0, 1] and parsed.parent.tolist() == [-1, 0]


def test_pruning_a_version_1_model_to_a_size_fills_it_in_version_2(tmp_path, grown):
    import argparse

    from mcts.cli import models as model_cli

    store.save(grown, tmp_path / "v1", version=1)
    whole = sum(len(data) for data in _bytes(tmp_path / "v1").values())
    limit_mb = whole / 8 / 1e6  # half of the whole tree in version 2, about
    args = argparse.Namespace(
        path=str(tmp_path / "v1"),
        out=str(tmp_path / "v2"),
        min_visits=None,
        max_mb=limit_mb,
    )
    assert model_cli.cmd_prune(args) == 0
    size = sum(len(data) for data in _bytes(tmp_path / "v2").values())
    assert limit_mb * 1e6 / 3 < size <= limit_mb * 1e6
    assert store.load(tmp_path / "v2").manifest["version"] == 2

"""The numba replay behind the model check and the position index: rendered
state strings, digests, illegal moves and the state-line check."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mcts.games import find_game, kernels
from mcts.models import checker, replay, store
from mcts.models import model as treemodel
from mcts.search.config import SearchConfig
from mcts.search.searcher import Searcher

from .test_store import _rewrite

GAMES = [
    ("reversi", {}),
    ("loa", {}),
    ("gomoku", {}),
    ("gomoku", {"size": 19, "row": 5}),
    ("gomoku", {"size": 5, "row": 3}),
]


def _random_positions(game, count: int, seed: int):
    """Yield positions along random games, finished ones and passes included."""
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(count):
        yield state
        if game.is_terminal(state):
            state = game.initial_state()
            continue
        legal = game.legal_moves(state)
        state = game.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_kernels_render_the_state_string(name, options):
    game = find_game(name, **options)
    room = np.empty(400, dtype=np.uint8)
    for state in _random_positions(game, 300, seed=3):
        length = kernels.render_state(game.game_id, state.array, room)
        assert room[:length].tobytes().decode() == game.state_string(state)


@pytest.fixture(scope="module")
def reversi_tree():
    game = find_game("reversi")
    searcher = Searcher(game, seed=11, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=400)
    return game, searcher.tree


def test_replay_gives_every_node_the_digest_of_its_position(reversi_tree):
    game, tree = reversi_tree
    result = replay.replay(game, tree, game.initial_state())
    assert result.first_illegal == -1
    for node in range(0, tree.size, 37):
        state = checker.position_of(game, game.initial_state(), tree, node)
        assert int(result.digests[node]) == replay.state_digest(game, state)
        assert result.sides[node] == (game.to_move(state) == "white")


def test_replay_names_the_lowest_illegal_node(reversi_tree):
    game, tree = reversi_tree
    broken = tree.subtree(0)
    deep = next(n for n in range(tree.size) if broken.parent[n] > 0)
    broken.move[deep] = 0  # a1: never legal in the first plies
    result = replay.replay(game, broken, game.initial_state())
    assert result.first_illegal == deep


def test_the_saved_state_lines_pass_and_a_changed_one_is_found(tmp_path, reversi_tree):
    game, tree = reversi_tree
    path = tmp_path / "m"
    store.save(treemodel.Model(game, tree, game.initial_state()), path, version=1)
    saved = store.load(path, check="fast").tree  # renumbered breadth first
    result = replay.replay(game, saved, game.initial_state())
    lines = (path / store.STATES).read_bytes()
    assert replay.first_bad_state_line(lines, 0, result) == -1
    rows = lines.splitlines(keepends=True)
    assert replay.first_bad_state_line(b"".join(rows[5:9]), 5, result) == -1

    def first_bad_after(index: int, old: bytes, new: bytes) -> int:
        changed = list(rows)
        assert old in changed[index]
        changed[index] = changed[index].replace(old, new)
        return replay.first_bad_state_line(b"".join(changed[5:9]), 5, result)

    assert first_bad_after(6, b'"id":6', b'"id":06') == 1
    assert first_bad_after(7, b'"id":7,', b'"id": 7,') == 2
    side = b"white" if b"white" in rows[8] else b"black"
    other = b"black" if side == b"white" else b"white"
    assert first_bad_after(8, side, other) == 3
    assert first_bad_after(6, b'"state":"', b'"state":"x') == 1
    assert first_bad_after(6, b'"}\n', b'" }\n') == 1


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_every_game_saves_and_loads_with_the_full_check(tmp_path, name, options):
    game = find_game(name, **options)
    searcher = Searcher(game, seed=5, config=SearchConfig(evaluator="random"))
    searcher.search(simulations=300)
    path = tmp_path / "m"
    model = treemodel.Model(game, searcher.tree, game.initial_state())
    store.save(model, path, version=1)
    model = store.load(path)
    assert model.nodes > 1

    def shift_the_last_board(lines):
        rec = json.loads(lines[-1])
        board, side = rec["state"].rsplit(" ", 1)
        rec["state"] = f"x{board[:-1]} {side}"  # well formed, the wrong position
        lines[-1] = (
            json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n"
        ).encode()
        return lines

    _rewrite(path, store.STATES, shift_the_last_board)
    with pytest.raises(
        treemodel.ModelError, match=rf"states\.jsonl line {model.nodes}: state does"
    ):
        store.load(path)

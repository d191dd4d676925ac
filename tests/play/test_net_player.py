"""The network player: a Gomoku tree model carrying network.npz, checked like
its other files, and the ``mcts-net`` spec that plays with it (an
:class:`~mcts.play.players.MctsPlayer` over a
:class:`~mcts.search.gomoku.net_search.NetSearcher`)."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.models import store
from mcts.models.model import Model, ModelError
from mcts.models.weights import NETWORK
from mcts.play.players import LEVELS, MctsPlayer, find_player
from mcts.search.gomoku import network
from mcts.search.gomoku.net_search import NET_C, NetSearcher, last_stone
from mcts.search.tree import Tree

GAME = find_game("gomoku", size=7, row=4)


@pytest.fixture
def saved(tmp_path):
    weights = network.random_weights(7, seed=2)
    weights = network.NetworkWeights(7, weights.parameters, {"games": 12})
    model = Model(GAME, Tree(2), GAME.initial_state(), network=weights)
    store.save(model, tmp_path / "net", built={"by": "train-net"})
    return tmp_path / "net"


def test_a_model_carries_its_network_with_a_checksum(saved):
    loaded = store.load(saved)
    assert loaded.network is not None and loaded.network.trained == {"games": 12}
    expected = network.random_weights(7, seed=2).parameters
    assert all(
        np.array_equal(loaded.network.parameters[k], v) for k, v in expected.items()
    )
    (saved / NETWORK.file).write_bytes(b"junk")
    with pytest.raises(ModelError, match="network.npz: sha256 does not match"):
        store.load(saved)


def test_the_spec_plays_with_the_models_network_and_keeps_its_tree(saved):
    player = find_player(f"mcts-net:model={saved},sims=60,seed=1", GAME)
    assert isinstance(player, MctsPlayer)
    assert isinstance(player.searcher, NetSearcher)
    assert player.searcher.c == NET_C and player.searcher.rule == "puct"
    state = GAME.initial_state()
    move = player.choose(state)
    assert player.last_result.simulations == 60
    player.observe(state, move)
    state = GAME.apply(state, move)
    reply = GAME.legal_moves(state)[0]
    player.observe(state, reply)
    state = GAME.apply(state, reply)
    player.choose(state)
    assert player.searcher.last_move == reply


def test_a_player_given_a_new_position_finds_the_last_stone(saved):
    player = find_player(f"mcts-net:model={saved},sims=5", GAME)
    state = GAME.play_all(["d4", "c3", "e5"])
    player.choose(state)
    assert player.searcher.last_move == -1  # nothing to compare with
    after = GAME.play(state, player.last_result.move)
    after = GAME.play(after, next(m for m in GAME.legal_move_texts(after)))
    assert last_stone(state, after) == -1  # two stones more: unknown
    one_more = GAME.play(state, "a1")
    assert last_stone(state, one_more) == GAME.parse_move(state, "a1")


def test_the_spec_needs_a_model_with_a_network(tmp_path):
    with pytest.raises(ValueError, match="needs a model with a network"):
        find_player("mcts-net:sims=5", GAME)
    plain = Model(GAME, Tree(2), GAME.initial_state())
    store.save(plain, tmp_path / "plain")
    with pytest.raises(ValueError, match="needs a model with a network"):
        find_player(f"mcts-net:model={tmp_path / 'plain'}", GAME)


def test_the_spec_plays_only_the_board_of_its_network(saved):
    with pytest.raises(ValueError, match="the model's network plays"):
        find_player(f"mcts-net:model={saved}", find_game("gomoku", size=9, row=5))


def test_the_specs_c_and_level_reach_the_network_search(saved):
    player = find_player(f"mcts-net:model={saved},c=1.5,level=2", GAME)
    assert player.searcher.c == 1.5
    assert player.level == LEVELS[2]

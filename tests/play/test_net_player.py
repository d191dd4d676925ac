"""The network player: a Gomoku tree model carrying network.npz, checked like
its other files, and the ``mcts-net`` spec that plays with it."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.models import store
from mcts.models.model import Model, ModelError
from mcts.models.weights import NETWORK
from mcts.play.net_player import NetPlayer, last_stone
from mcts.play.players import find_player
from mcts.search.gomoku import network
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
    assert isinstance(player, NetPlayer)
    assert player.searcher.mix == 0.0  # the network's values alone
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
    with pytest.raises(ValueError, match="needs model=NAME"):
        find_player("mcts-net:sims=5", GAME)
    plain = Model(GAME, Tree(2), GAME.initial_state())
    store.save(plain, tmp_path / "plain")
    with pytest.raises(ValueError, match="carries no network"):
        find_player(f"mcts-net:model={tmp_path / 'plain'}", GAME)


def test_the_spec_mixes_rollouts_into_the_leaves_values(saved):
    player = find_player(f"mcts-net:model={saved},sims=5,mix=0.5,rollouts=3", GAME)
    assert (player.searcher.mix, player.searcher.rollouts) == (0.5, 3)
    with pytest.raises(ValueError, match="mix must be within 0..1"):
        find_player(f"mcts-net:model={saved},mix=1.5", GAME)

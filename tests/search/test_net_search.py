"""The network-guided PUCT search: its statistics, the MCTS-Solver, the
threat search at the root, noise and tree reuse (untrained networks: the
search, not the network, is under test)."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.search.gomoku import net_kernel, network
from mcts.search.gomoku.net_search import NetSearch, NetSearcher
from mcts.search.gomoku.threats.vcf import has_vcf
from mcts.search.searcher import MIN_TIMED_SIMULATIONS
from mcts.search.tree import Proven

GAME = find_game("gomoku", size=7, row=4)
WEIGHTS = network.random_weights(7, seed=1)
NO_THREATS = NetSearch(threats=False)


def test_root_visits_are_the_simulations_and_children_hold_them():
    searcher = NetSearcher(GAME, network=WEIGHTS, seed=1)
    result = searcher.search(simulations=150)
    assert result.simulations == 150 and result.root_visits == 150
    assert sum(m.visits for m in result.moves) == 149  # the first expanded the root
    assert len(result.moves) == 49 and result.nodes > 49


def test_a_search_whose_time_is_already_up_still_searches_its_move():
    searcher = NetSearcher(GAME, network=WEIGHTS, seed=1)
    searcher.search(simulations=8)  # compile outside the clock
    result = searcher.search(seconds=1e-9)
    assert result.simulations >= MIN_TIMED_SIMULATIONS


def test_a_win_in_one_is_proven_and_played_without_the_threat_search():
    state = GAME.play_all(["a1", "g7", "b1", "g6", "c1", "g5"])
    searcher = NetSearcher(GAME, state, network=WEIGHTS, settings=NO_THREATS, seed=2)
    result = searcher.search(simulations=500)
    assert result.move == "d1" and result.proven == "win" and result.value == 1.0


def test_a_loss_is_proven_when_every_move_loses():
    # White to move faces two open ends of black's three on 7x7 with row 4:
    # whatever white does, black makes four.
    state = GAME.play_all(["c4", "a1", "d4", "a7", "e4"])
    searcher = NetSearcher(GAME, state, network=WEIGHTS, settings=NO_THREATS, seed=3)
    result = searcher.search(simulations=4000)
    assert result.proven == "loss" and result.value == 0.0


def test_the_root_threat_search_blocks_a_four():
    state = GAME.play_all(["a1", "g7", "b1", "g6", "c1"])
    searcher = NetSearcher(GAME, state, network=WEIGHTS, seed=4)
    assert searcher.search(simulations=50).move == "d1"


def test_noise_changes_the_root_priors_and_seeds_repeat_a_search():
    quiet = NetSearcher(GAME, network=WEIGHTS, seed=5)
    noise = NetSearch(noise=(0.3, 0.25))
    noisy = NetSearcher(GAME, network=WEIGHTS, settings=noise, seed=5)
    again = NetSearcher(GAME, network=WEIGHTS, settings=noise, seed=5)
    visits = [
        [m.visits for m in s.search(simulations=100).moves]
        for s in (quiet, noisy, again)
    ]
    assert visits[1] == visits[2] and visits[0] != visits[1]


def test_advancing_keeps_the_subtree_and_the_last_move():
    searcher = NetSearcher(GAME, network=WEIGHTS, seed=6)
    result = searcher.search(simulations=300)
    best = result.moves[0]
    searcher.advance(best.code)
    assert searcher.last_move == best.code
    again = searcher.search(simulations=10)
    assert again.root_visits == best.visits + 10


def test_the_last_move_is_an_input_plane():
    state = GAME.play_all(["d4", "c3"])
    planes = network.encode(state.array, GAME.parse_move(GAME.play_all(["d4"]), "c3"))
    assert planes.shape == (network.PLANES, 7, 7)
    assert planes[0].sum() == 1 and planes[1].sum() == 1  # black to move: own d4
    assert planes[2].sum() == 1 and planes[2][2, 2] == 1  # c3: row 2, column 2
    assert planes[3].min() == 1


def test_the_kernels_planes_are_the_encoders():
    rng = np.random.default_rng(7)
    out = np.empty((network.PLANES, 7, 7), dtype=np.float32)
    state = GAME.initial_state()
    last = -1
    for _ in range(12):
        net_kernel.encode_into(state.array, last, out)
        assert np.array_equal(out, network.encode(state.array, last))
        last = int(rng.choice(GAME.legal_moves(state)))
        state = GAME.apply(state, last)


def test_priors_lost_by_a_renumbered_tree_are_asked_for_again():
    searcher = NetSearcher(GAME, network=WEIGHTS, seed=8)
    searcher.search(simulations=200)
    searcher.tree = searcher.tree.subtree(0)  # as tree reuse renumbers it
    priors = searcher._priors.of(searcher.tree)
    assert np.isnan(priors[: searcher.tree.size]).all()
    result = searcher.search(simulations=50)
    assert result.root_visits == 250
    children = searcher.tree.children(0)
    root_priors = priors_now = searcher._priors.of(searcher.tree)
    assert np.isclose(root_priors[children.start : children.stop].sum(), 1.0)
    assert not np.isnan(priors_now[children.start : children.stop]).any()


def test_a_network_for_another_board_or_game_is_refused():
    with pytest.raises(ValueError, match="7x7"):
        NetSearcher(find_game("gomoku", size=9, row=5), network=WEIGHTS)
    with pytest.raises(ValueError, match="gomoku"):
        NetSearcher(find_game("reversi"), network=WEIGHTS)


def test_weights_files_round_trip_and_bad_ones_are_refused():
    data = WEIGHTS.to_bytes()
    again = network.from_bytes(data)
    assert again.to_bytes() == data
    assert all(
        np.array_equal(again.parameters[k], v) for k, v in WEIGHTS.parameters.items()
    )
    parameters = dict(WEIGHTS.parameters)
    parameters["conv1.bias"] = np.zeros(3, dtype=np.float32)
    with pytest.raises(ValueError, match="conv1.bias"):
        network.NetworkWeights(7, parameters)
    with pytest.raises(ValueError, match="not a weights file"):
        network.from_bytes(b"junk")


@pytest.mark.parametrize("threats", [True, False])
def test_a_leaf_where_the_player_to_move_wins_by_fours_is_proven_lost(threats):
    # White to move; black's open two c4-d4 (row 4) wins by continuous
    # fours after a white move elsewhere, such as g7. The simulations run
    # without the root's threat search (which would keep only the blocks),
    # so only the leaves' threat search can prove that so soon.
    state = GAME.play_all(["c4", "a1", "d4"])
    settings = NetSearch(threats=threats)
    searcher = NetSearcher(GAME, state, network=WEIGHTS, settings=settings, seed=4)
    for _ in range(30):
        searcher._simulate_batch(8)
    tree = searcher.tree
    children = tree.children(0)
    lost = {
        GAME.format_move(state, int(tree.move[child]))
        for child in range(children.start, children.stop)
        if tree.proven[child] == int(Proven.LOSS)
    }
    assert ("g7" in lost) == threats


@pytest.mark.parametrize("vct_nodes", [200, 0])
def test_a_leaf_where_the_player_to_move_wins_by_threes_is_proven_lost(vct_nodes):
    # After b4, white to move wins by a VCT of one three (no VCF): found by
    # a random search of 7x7 positions with the threat module's functions.
    before = GAME.play_all(["a5", "b1", "f1", "d3"])
    assert not has_vcf(GAME.play_all(["a5", "b1", "f1", "d3", "b4"]).array, 10_000)
    settings = NetSearch(vct_nodes=vct_nodes)
    searcher = NetSearcher(GAME, before, network=WEIGHTS, settings=settings, seed=4)
    for _ in range(30):
        searcher._simulate_batch(8)
    tree = searcher.tree
    b4 = tree.child_with_move(0, GAME.parse_move(before, "b4"))
    assert (tree.proven[b4] == int(Proven.LOSS)) == (vct_nodes > 0)

"""The numpy network that plays gives the training library's outputs."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mcts.games import find_game
from mcts.search.gomoku import network
from mcts.training.torchnet import PolicyValueNet, export, load_into


@pytest.mark.parametrize("size", [8, 10, 15])
def test_numpy_inference_matches_torch_on_fixed_inputs(size):
    torch.manual_seed(size)
    net = PolicyValueNet(size).eval()
    game = find_game("gomoku", size=size, row=5 if size != 10 else 4)
    rng = np.random.default_rng(size)
    states, state, last = [], game.initial_state(), -1
    for _ in range(12):
        states.append(network.encode(state.array, last))
        last = int(rng.choice(game.legal_moves(state)))
        state = game.apply(state, last)
    planes = np.stack(states)
    with torch.no_grad():
        logits, values = net(torch.from_numpy(planes))
    weights = export(net)
    ours_logits, ours_values = weights.evaluate(planes)
    for row in range(len(planes)):
        expected = torch.softmax(logits[row].double(), 0).numpy()
        assert np.allclose(network.softmax(ours_logits[row]), expected, atol=1e-5)
    assert np.allclose(ours_values, values.numpy(), atol=1e-5)


def test_exported_weights_round_trip_through_the_file_and_back_into_a_module():
    net = PolicyValueNet(8)
    weights = export(net, {"games": 3})
    again = network.from_bytes(weights.to_bytes(), {"games": 3})
    other = PolicyValueNet(8)
    load_into(other, again)
    for name, tensor in other.state_dict().items():
        assert np.array_equal(tensor.numpy(), weights.parameters[name]), name
    assert weights.to_bytes() == again.to_bytes()

"""The policy-value network in PyTorch, for training, and its export.

:class:`PolicyValueNet` has exactly the layers and parameter names of
:mod:`mcts.search.gomoku.network`, which plays with the exported weights in numpy:
:func:`export` turns a trained module into :class:`NetworkWeights` and
:func:`load_into` puts such weights back into a module (resuming, gating).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.nn import functional

from ..search.gomoku.network import (
    PLANES,
    POLICY_CHANNELS,
    TRUNK,
    VALUE_CHANNELS,
    VALUE_HIDDEN,
    NetworkWeights,
)


class PolicyValueNet(nn.Module):
    """The network for ``size`` x ``size`` boards (see mcts.search.gomoku.network)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        cells = size * size
        self.conv1 = nn.Conv2d(PLANES, TRUNK[0], 3, padding=1)
        self.conv2 = nn.Conv2d(TRUNK[0], TRUNK[1], 3, padding=1)
        self.conv3 = nn.Conv2d(TRUNK[1], TRUNK[2], 3, padding=1)
        self.policy_conv = nn.Conv2d(TRUNK[2], POLICY_CHANNELS, 1)
        self.policy_fc = nn.Linear(POLICY_CHANNELS * cells, cells)
        self.value_conv = nn.Conv2d(TRUNK[2], VALUE_CHANNELS, 1)
        self.value_fc1 = nn.Linear(VALUE_CHANNELS * cells, VALUE_HIDDEN)
        self.value_fc2 = nn.Linear(VALUE_HIDDEN, 1)

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Return the policy logits (B, size * size) and the values (B,)."""
        x = functional.relu(self.conv1(planes))
        x = functional.relu(self.conv2(x))
        x = functional.relu(self.conv3(x))
        policy = functional.relu(self.policy_conv(x)).flatten(1)
        logits = self.policy_fc(policy)
        value = functional.relu(self.value_conv(x)).flatten(1)
        value = functional.relu(self.value_fc1(value))
        return logits, torch.tanh(self.value_fc2(value))[:, 0]


def training_loss(
    net: PolicyValueNet,
    planes: torch.Tensor,
    policies: torch.Tensor,
    values: torch.Tensor,
) -> torch.Tensor:
    """Return the loss of a batch: cross-entropy of the policy against the
    target distributions plus squared error of the value (L2 on the weights
    is the optimiser's weight decay)."""
    logits, predicted = net(planes)
    policy_loss = -(policies * functional.log_softmax(logits, 1)).sum(1).mean()
    return policy_loss + functional.mse_loss(predicted, values)


def export(net: PolicyValueNet, trained: dict | None = None) -> NetworkWeights:
    """Return the module's weights for playing (float32 numpy arrays)."""
    parameters = {
        name: tensor.detach().cpu().numpy().astype(np.float32).copy()
        for name, tensor in net.state_dict().items()
    }
    return NetworkWeights(net.size, parameters, dict(trained or {}))


def load_into(net: PolicyValueNet, weights: NetworkWeights) -> None:
    """Set the module's parameters to ``weights``."""
    if weights.size != net.size:
        raise ValueError(f"weights for {weights.size}x{weights.size}, net {net.size}")
    net.load_state_dict(
        {
            name: torch.from_numpy(array.copy())
            for name, array in weights.parameters.items()
        }
    )

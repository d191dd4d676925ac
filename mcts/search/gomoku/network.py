"""A policy-value network for Gomoku (the AlphaZero method), run with numpy and numba.

The network reads a position as four planes of the board: the stones of the
player to move, the opponent's stones, the last move, and a plane of ones
when black is to move. Three 3x3 convolutions (32, 64 and 128 channels,
ReLU, zero padding) feed two heads:

- **policy**: a 1x1 convolution to 4 channels, ReLU, then a fully connected
  layer to one logit per intersection; a softmax over the legal moves gives
  the search's priors;
- **value**: a 1x1 convolution to 2 channels, ReLU, a fully connected layer of
  64, ReLU, and one output through tanh: the expected result for the player
  to move, from -1 (loss) to +1 (win).

That is the network of the AlphaZero-style Gomoku programs the product learns
from, small enough to train and to play on a CPU. Training needs a
deep-learning library (:mod:`mcts.training`); playing needs only this module:
:class:`NetworkWeights` holds the exported weights under the training
library's parameter names and :meth:`NetworkWeights.evaluate` runs the
network in float32, a batch at a time (numpy's matrix products; numba
gathers the convolutions' windows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ...games import gomoku
from ..weightsfile import npz_bytes, read_npz

#: Input planes: own stones, opponent's stones, last move, black to move.
PLANES = 4
#: Channels of the three 3x3 convolutions.
TRUNK = (32, 64, 128)
#: Channels of the policy and value heads' 1x1 convolutions, and the value
#: head's hidden layer.
POLICY_CHANNELS = 4
VALUE_CHANNELS = 2
VALUE_HIDDEN = 64


def encode(array: np.ndarray, last_move: int = -1) -> np.ndarray:
    """Return the input planes (PLANES, size, size) of the Gomoku position
    ``array`` (a state vector) whose last move was ``last_move`` (-1 when
    unknown or none), for the player to move. Row r, column c of a plane is
    the intersection with move code r * size + c."""
    size = int(array[gomoku.SIZE])
    side = int(array[gomoku.SIDE])
    cells = array[gomoku.HEADER :].reshape(size, size)
    planes = np.zeros((PLANES, size, size), dtype=np.float32)
    planes[0] = cells == gomoku.BLACK_STONE + side
    planes[1] = cells == gomoku.WHITE_STONE - side
    if last_move >= 0:
        planes[2].flat[last_move] = 1.0
    if side == 0:
        planes[3] = 1.0
    return planes


def parameter_shapes(size: int) -> dict[str, tuple[int, ...]]:
    """Return the shape of every parameter of the network for a ``size`` x
    ``size`` board, by name, in the order the training library lists them."""
    cells = size * size
    shapes: dict[str, tuple[int, ...]] = {}
    channels = PLANES
    for number, width in enumerate(TRUNK, start=1):
        shapes[f"conv{number}.weight"] = (width, channels, 3, 3)
        shapes[f"conv{number}.bias"] = (width,)
        channels = width
    shapes["policy_conv.weight"] = (POLICY_CHANNELS, channels, 1, 1)
    shapes["policy_conv.bias"] = (POLICY_CHANNELS,)
    shapes["policy_fc.weight"] = (cells, POLICY_CHANNELS * cells)
    shapes["policy_fc.bias"] = (cells,)
    shapes["value_conv.weight"] = (VALUE_CHANNELS, channels, 1, 1)
    shapes["value_conv.bias"] = (VALUE_CHANNELS,)
    shapes["value_fc1.weight"] = (VALUE_HIDDEN, VALUE_CHANNELS * cells)
    shapes["value_fc1.bias"] = (VALUE_HIDDEN,)
    shapes["value_fc2.weight"] = (1, VALUE_HIDDEN)
    shapes["value_fc2.bias"] = (1,)
    return shapes


@dataclass(frozen=True)
class NetworkWeights:
    """The weights of a trained network for ``size`` x ``size`` boards
    (float32 arrays by parameter name, see :func:`parameter_shapes`) and what
    the training recorded (``trained``: the command, games, time...)."""

    size: int
    parameters: dict[str, np.ndarray]
    trained: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        shapes = parameter_shapes(self.size)
        if set(self.parameters) != set(shapes):
            missing = sorted(set(shapes) - set(self.parameters))
            extra = sorted(set(self.parameters) - set(shapes))
            raise ValueError(f"parameters missing {missing}, unexpected {extra}")
        for name, shape in shapes.items():
            array = self.parameters[name]
            if array.shape != shape:
                raise ValueError(f"{name}: expected shape {shape}, got {array.shape}")
            if not np.all(np.isfinite(array)):
                raise ValueError(f"{name}: not every weight is a finite number")

    def to_bytes(self) -> bytes:
        """Return the weights file: an ``.npz`` of the board size and the
        float32 parameters, the same bytes for the same weights."""
        arrays: dict[str, object] = {"size": np.int64(self.size)}
        for name in parameter_shapes(self.size):
            arrays[name] = self.parameters[name].astype(np.float32)
        return npz_bytes(arrays)

    def evaluate(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Run the network on a batch of inputs (B, PLANES, size, size);
        return the policy logits (B, size * size) and the values (B,), in
        -1..1 for the player to move."""
        p = self.parameters
        # Channels last inside: each layer is then one matrix product.
        x = np.asarray(planes, dtype=np.float32).transpose(0, 2, 3, 1)
        for number in range(1, len(TRUNK) + 1):
            x = _relu(_conv3x3(x, p[f"conv{number}.weight"], p[f"conv{number}.bias"]))
        policy = _relu(_conv1x1(x, p["policy_conv.weight"], p["policy_conv.bias"]))
        logits = _flatten(policy) @ p["policy_fc.weight"].T + p["policy_fc.bias"]
        value = _relu(_conv1x1(x, p["value_conv.weight"], p["value_conv.bias"]))
        hidden = _relu(_flatten(value) @ p["value_fc1.weight"].T + p["value_fc1.bias"])
        out = hidden @ p["value_fc2.weight"].T + p["value_fc2.bias"]
        return logits, np.tanh(out[:, 0])


def from_bytes(data: bytes, trained: dict | None = None) -> NetworkWeights:
    """Return the NetworkWeights of a weights file's bytes; ValueError saying
    what is wrong when they are not one."""
    arrays = read_npz(data)
    if "size" not in arrays or arrays["size"].shape != ():
        raise ValueError("not a network weights file (no board size)")
    size = int(arrays.pop("size"))
    if not 3 <= size <= 19:
        raise ValueError(f"bad board size {size}")
    parameters = {name: array.astype(np.float32) for name, array in arrays.items()}
    return NetworkWeights(size, parameters, dict(trained or {}))


def random_weights(size: int, seed: int = 0) -> NetworkWeights:
    """Return an untrained network (the training library's default
    initialisation scale: uniform in +-1/sqrt(fan in))."""
    rng = np.random.default_rng(seed)
    parameters = {}
    for name, shape in parameter_shapes(size).items():
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        bound = 1.0 / math.sqrt(fan_in)
        parameters[name] = rng.uniform(-bound, bound, shape).astype(np.float32)
    return NetworkWeights(size, parameters)


def softmax(logits: np.ndarray) -> np.ndarray:
    """Return the softmax of a vector of logits (float64 for accuracy)."""
    shifted = np.asarray(logits, dtype=np.float64) - np.max(logits)
    weights = np.exp(shifted)
    return weights / weights.sum()


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, np.float32(0))


def _conv3x3(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Return the 3x3 convolution (zero padding 1) of x (B, n, n, C), channels
    last, with a weight of the training library's shape (out, C, 3, 3)."""
    batch, n, _, channels = x.shape
    padded = np.zeros((batch, n + 2, n + 2, channels), dtype=np.float32)
    padded[:, 1:-1, 1:-1] = x
    columns = np.empty((batch * n * n, channels * 9), dtype=np.float32)
    _windows(padded, n, columns)
    out = columns @ weight.reshape(weight.shape[0], -1).T + bias
    return out.reshape(batch, n, n, -1)


@njit(cache=True, nogil=True)
def _windows(padded, n, out):
    """Write the 3x3 window around every point of ``padded`` (B, n + 2, n + 2,
    C) into ``out`` (B * n * n, C * 9): one row a point, its inputs in the
    weight's order (channel, row, column). numpy's strided copy of the same
    windows took three times as long, a third of the network's time."""
    channels = padded.shape[3]
    row = 0
    for b in range(padded.shape[0]):
        for y in range(n):
            for x in range(n):
                for c in range(channels):
                    for dy in range(3):
                        for dx in range(3):
                            out[row, c * 9 + dy * 3 + dx] = padded[b, y + dy, x + dx, c]
                row += 1


def _conv1x1(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Return the 1x1 convolution of x (B, n, n, C), channels last."""
    return x @ weight[:, :, 0, 0].T + bias


def _flatten(x: np.ndarray) -> np.ndarray:
    """Return x (B, n, n, C) flattened as the training library flattens
    (B, C, n, n): channel by channel."""
    return x.transpose(0, 3, 1, 2).reshape(x.shape[0], -1)

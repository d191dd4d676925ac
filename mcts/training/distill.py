"""A network's warm start: supervised learning from a tree model's searches.

Self-play from an untrained network needs thousands of games before its
network knows what the heavy search already does, and on 15×15 a game at
400 simulations takes seconds. A tree model built by self-play holds what
those searches learnt: at each position it studied, how the search spread
its visits over the moves and what it judged the position worth.
:func:`tree_examples` turns each position studied at least ``min_study``
times into one training example (the same kind self-play gives):

- the policy target: the children's visits, normalised (the children the
  model's pruning kept);
- the value target: the children's mean result for the player to move, from
  -1 to +1, or the proven result where the MCTS-Solver proved one.

:func:`distill` then trains the network on them for some epochs, each batch
in one of the board's eight orientations, so that self-play starts from a
network that already plays like the search that built the tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
import torch

from ..games.symmetry import square_maps
from ..models.model import Model
from ..search.gomoku.network import encode
from ..search.tree import Proven
from .examples import Examples
from .torchnet import PolicyValueNet, training_loss

#: Positions studied fewer times than this are left out: their visit counts
#: are one short search's, mostly noise.
MIN_STUDY = 200


@dataclass(frozen=True)
class Distilled:
    """What a warm start did (recorded with the network)."""

    tree: str
    tree_command: str | None
    positions: int
    min_study: int
    epochs: int
    loss: float

    def to_json(self) -> dict:
        return {**asdict(self), "loss": round(self.loss, 4)}


def tree_examples(model: Model, min_study: int = MIN_STUDY) -> Examples:
    """Return one example for each of ``model``'s positions whose children
    hold at least ``min_study`` visits (depth first from the root; a
    position is only reached through studied parents)."""
    tree, game = model.tree, model.game
    cells = game.options["size"] ** 2
    planes, policies, values = [], [], []
    stack = [(0, model.root_state)]
    while stack:
        node, state = stack.pop()
        children = tree.children(node)
        if len(children) == 0:
            continue
        visits = tree.visits[children.start : children.stop].astype(np.float64)
        study = visits.sum()
        if study < min_study:
            continue
        policy = np.zeros(cells, dtype=np.float32)
        policy[tree.move[children.start : children.stop]] = visits / study
        planes.append(encode(state.array, int(tree.move[node]) if node else -1))
        policies.append(policy)
        values.append(_value_to_move(tree, node, children, study))
        for child in children:
            if tree.visits[child] >= min_study:
                stack.append((child, game.apply(state, int(tree.move[child]))))
    if not planes:
        raise ValueError(f"no position studied {min_study} times or more")
    return Examples(
        np.stack(planes), np.stack(policies), np.array(values, dtype=np.float32)
    )


def _value_to_move(tree, node: int, children: range, study: float) -> float:
    """Return the value of ``node`` for the player to move there, -1 to +1."""
    proven = Proven(int(tree.proven[node]))  # the view of who moved into it
    if proven == Proven.WIN:
        return -1.0
    if proven == Proven.LOSS:
        return 1.0
    if proven == Proven.DRAW:
        return 0.0
    # The children's sums are from the view of the player who moved into
    # them: the player to move here (win 1, draw 0.5, loss 0).
    mean = float(tree.value_sum[children.start : children.stop].sum()) / study
    return 2.0 * mean - 1.0


def distill(
    net: PolicyValueNet,
    optimiser: torch.optim.Optimizer,
    examples: Examples,
    *,
    epochs: int,
    batch: int,
    seed: int = 0,
    on_step: Callable[[int, int, float], None] | None = None,
) -> float:
    """Train ``net`` on ``examples`` for ``epochs`` passes of shuffled
    batches, each batch in a random orientation of the board; return the
    mean loss of the last epoch. ``on_step(step, steps, loss)`` reports
    progress."""
    rng = np.random.default_rng(seed)
    size = net.size
    images = square_maps(size)
    count = len(examples)
    per_epoch = max(1, count // batch)
    steps = epochs * per_epoch
    net.train()
    last_epoch: list[float] = []
    for step in range(steps):
        if step % per_epoch == 0:
            order = rng.permutation(count)
            last_epoch = []
        pick = order[(step % per_epoch) * batch :][:batch]
        image = images[int(rng.integers(len(images)))]
        source = examples.planes[pick]
        flat = source.reshape(len(pick), source.shape[1], size * size)
        planes = np.empty_like(flat)
        planes[:, :, image] = flat
        policies = np.empty_like(examples.policies[pick])
        policies[:, image] = examples.policies[pick]
        loss = training_loss(
            net,
            torch.from_numpy(planes.reshape(source.shape)),
            torch.from_numpy(policies),
            torch.from_numpy(examples.values[pick]),
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        last_epoch.append(float(loss.detach()))
        if on_step is not None:
            on_step(step + 1, steps, last_epoch[-1])
    net.eval()
    return float(np.mean(last_epoch))

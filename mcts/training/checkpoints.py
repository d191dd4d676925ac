"""A training run's checkpoint: where it lives beside the model it trains,
what it holds (the network, the optimiser, the best network, the replay
buffer and the run's :class:`Progress`), writing it atomically and reading
it back to resume."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

from .examples import Examples
from .torchnet import PolicyValueNet, export, load_into

#: The checkpoint's file in the output folder's hidden training folder.
CHECKPOINT = "checkpoint.pt"


@dataclass
class Progress:
    """The state of a training run (what a checkpoint holds besides the
    networks and the buffer)."""

    games: int = 0
    seconds: float = 0.0
    examples: int = 0
    losses: list[float] = field(default_factory=list)
    gates: list[dict] = field(default_factory=list)
    warm_start: dict | None = None
    started_from: dict | None = None


def checkpoint_of(out: Path) -> Path:
    """Return the checkpoint of the run that trains the model at ``out``."""
    return out.with_name(f".{out.name}.training") / CHECKPOINT


def resume(path: Path, net, optimiser, learning_rate: float, l2: float):
    """Return (progress, best weights or None, buffer) from the checkpoint
    at ``path``, loading the network and optimiser; a fresh start if none."""
    if not path.exists():
        return Progress(), None, None
    saved = torch.load(path, weights_only=False)
    net.load_state_dict(saved["net"])
    optimiser.load_state_dict(saved["optimiser"])
    # The optimiser's state keeps the rates of the run that saved it; the
    # command that resumes says which rates to train on from here (a lower
    # learning rate late in a run is how it is lowered).
    for group in optimiser.param_groups:
        group["lr"] = learning_rate
        group["weight_decay"] = l2
    best = PolicyValueNet(net.size)
    best.load_state_dict(saved["best"])
    buffer = Examples(*saved["buffer"]) if saved["buffer"] is not None else None
    return Progress(**saved["progress"]), export(best, saved["best_trained"]), buffer


def training_network(path: Path, size: int) -> tuple[PolicyValueNet, Progress]:
    """Return the network the checkpoint at ``path`` is training (for a
    ``size`` x ``size`` board) and its run's progress; ValueError if the
    checkpoint's network is for another board."""
    saved = torch.load(path, weights_only=False)
    net = PolicyValueNet(size)
    try:
        net.load_state_dict(saved["net"])
    except RuntimeError as error:  # the checkpoint's network has other shapes
        raise ValueError("trains a network for another board") from error
    return net, Progress(**saved["progress"])


def save_checkpoint(path: Path, net, optimiser, best, buffer, progress) -> None:
    """Write the checkpoint atomically (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    best_net = PolicyValueNet(net.size)
    load_into(best_net, best)
    saved = {
        "net": net.state_dict(),
        "optimiser": optimiser.state_dict(),
        "best": best_net.state_dict(),
        "best_trained": best.trained,
        "buffer": None
        if buffer is None
        else (buffer.planes, buffer.policies, buffer.values),
        "progress": asdict(progress),
    }
    temp = path.with_name(path.name + ".tmp")
    torch.save(saved, temp)
    os.replace(temp, path)

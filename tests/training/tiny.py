"""The settings of the training tests' runs."""

from __future__ import annotations

from mcts.training.trainer import TrainConfig


def tiny_config(**changes) -> TrainConfig:
    """Return the config of a training run of a few seconds, with ``changes``."""
    options = dict(
        games=2,
        simulations=20,
        batch=16,
        gate_every=2,
        gate_games=2,
        gate_simulations=10,
        eval_games=2,
        eval_playouts=20,
    )
    return TrainConfig(**{**options, **changes})

"""The AlphaZero training loop for a Gomoku policy-value network.

Each round plays one self-play game with the current network
(:mod:`mcts.training.examples`), adds its positions in all eight
orientations to a replay buffer of the latest ``buffer`` examples, and takes
``steps`` gradient steps on random batches of it: cross-entropy of the
policy against the search's visit distribution, squared error of the value
against the game's result, L2 on the weights (Adam's weight decay).

Every ``gate_every`` games the network plays ``gate_games`` games against
the best network so far (colours alternating, the first ``GATE_OPENING``
moves sampled so the games differ); it becomes the best when it scores at
least ``GATE_SCORE``, and the best is written into the output tree model
(``network.npz``, listed in its manifest with how it was trained). The
first gate compares against the untrained network.

A checkpoint (network, optimiser, best network, buffer, counters, the
gating history) is saved atomically at every gate and on Ctrl-C; running
the same command again resumes from it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch.nn import functional

from ..games.base import Game
from ..models.model import Model
from ..models.store import save
from ..search.net_search import NetSearcher
from ..search.network import NetworkWeights
from ..search.tree import Tree
from .examples import Examples, augment, play_game
from .torchnet import PolicyValueNet, export, load_into

#: The score a gated network needs against the best to replace it.
GATE_SCORE = 0.55
#: Moves sampled in proportion to visits at the start of each gating game.
GATE_OPENING = 4
#: The checkpoint's file in the output folder's hidden training folder.
CHECKPOINT = "checkpoint.pt"


@dataclass(frozen=True)
class TrainConfig:
    """How to train (the defaults are those of AlphaZero-style Gomoku
    programs on small boards)."""

    games: int
    simulations: int = 400
    sample_plies: int = 8
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    buffer: int = 10_000
    batch: int = 512
    steps: int = 5
    learning_rate: float = 2e-3
    l2: float = 1e-4
    gate_every: int = 50
    gate_games: int = 20
    gate_simulations: int = 400
    seed: int = 0


@dataclass
class Progress:
    """The state of a training run (what a checkpoint holds besides the
    networks and the buffer)."""

    games: int = 0
    seconds: float = 0.0
    examples: int = 0
    losses: list[float] = field(default_factory=list)
    gates: list[dict] = field(default_factory=list)


def train(
    game: Game,
    out: Path,
    config: TrainConfig,
    *,
    command: str | None = None,
    on_game: Callable[[Progress, float], None] | None = None,
) -> Progress:
    """Train until ``config.games`` self-play games are played, resuming
    from ``out``'s checkpoint if there is one; return the progress.
    ``on_game(progress, loss)`` is called after each game (a progress bar)."""
    size = game.options["size"]
    torch.manual_seed(config.seed)
    net = PolicyValueNet(size)
    optimiser = torch.optim.Adam(
        net.parameters(), lr=config.learning_rate, weight_decay=config.l2
    )
    checkpoint_path = out.with_name(f".{out.name}.training") / CHECKPOINT
    progress, best, buffer = _resume(checkpoint_path, net, optimiser, config)
    if best is None:
        best = export(net)
    started = time.perf_counter() - progress.seconds

    def checkpoint() -> None:
        progress.seconds = round(time.perf_counter() - started, 1)
        _save_checkpoint(checkpoint_path, net, optimiser, best, buffer, progress)

    try:
        while progress.games < config.games:
            seed = config.seed * 1_000_003 + progress.games
            record = play_game(
                game,
                export(net),
                simulations=config.simulations,
                sample_plies=config.sample_plies,
                noise=(config.noise_alpha, config.noise_fraction),
                seed=seed,
            )
            buffer = _keep_latest(
                Examples.join([*buffer, augment(record.examples, size)]),
                config.buffer,
            )
            progress.examples += len(record.examples)
            loss = _learn(net, optimiser, buffer, config, seed)
            progress.games += 1
            if loss is not None:
                progress.losses.append(round(loss, 4))
            if (
                progress.games % config.gate_every == 0
                or progress.games == config.games
            ):
                best = _gate(game, net, best, progress, config, out, command)
                checkpoint()
            if on_game is not None:
                on_game(progress, loss if loss is not None else float("nan"))
    except KeyboardInterrupt:
        checkpoint()
        raise
    return progress


def _learn(net, optimiser, buffer, config: TrainConfig, seed: int) -> float | None:
    """Take ``config.steps`` steps on random batches; return the last loss
    (None while the buffer holds less than a batch)."""
    if not buffer or len(buffer[0]) < config.batch:
        return None
    examples = buffer[0]
    rng = np.random.default_rng(seed)
    net.train()
    loss = None
    for _ in range(config.steps):
        pick = rng.choice(len(examples), config.batch, replace=False)
        planes = torch.from_numpy(examples.planes[pick])
        policies = torch.from_numpy(examples.policies[pick])
        values = torch.from_numpy(examples.values[pick])
        logits, predicted = net(planes)
        policy_loss = -(policies * functional.log_softmax(logits, 1)).sum(1).mean()
        value_loss = functional.mse_loss(predicted, values)
        total = policy_loss + value_loss
        optimiser.zero_grad()
        total.backward()
        optimiser.step()
        loss = float(total.detach())
    net.eval()
    return loss


def _keep_latest(examples: Examples, limit: int) -> list[Examples]:
    """Return the buffer: the latest ``limit`` examples (as a one-item list,
    empty when there are none)."""
    if len(examples) > limit:
        examples = Examples(
            examples.planes[-limit:],
            examples.policies[-limit:],
            examples.values[-limit:],
        )
    return [examples]


def _gate(
    game: Game,
    net: PolicyValueNet,
    best: NetworkWeights,
    progress: Progress,
    config: TrainConfig,
    out: Path,
    command: str | None,
) -> NetworkWeights:
    """Play the network against the best; return the new best (written
    into the model at ``out`` when it changes, and the first time)."""
    candidate = export(net)
    score = match(
        game,
        candidate,
        best,
        games=config.gate_games,
        simulations=config.gate_simulations,
        seed=config.seed + progress.games,
    )
    accepted = score >= GATE_SCORE
    progress.gates.append(
        {"games": progress.games, "score": round(score, 3), "accepted": accepted}
    )
    if accepted:
        best = candidate
    if accepted or not (out / "manifest.json").exists():
        trained = {
            "command": command,
            "config": asdict(config),
            "selfplay_games": progress.games,
            "seconds": round(progress.seconds, 1),
            "gates": progress.gates,
        }
        best = NetworkWeights(best.size, best.parameters, trained)
        write_model(game, out, best)
    return best


def match(
    game: Game,
    a: NetworkWeights,
    b: NetworkWeights,
    *,
    games: int,
    simulations: int,
    seed: int,
) -> float:
    """Return ``a``'s score against ``b`` over ``games`` games (colours
    alternating, a draw half), each move a search of ``simulations``."""
    rng = np.random.default_rng(seed)
    points = 0.0
    for number in range(games):
        players = (
            {"black": a, "white": b} if number % 2 == 0 else {"black": b, "white": a}
        )
        searchers = {
            side: NetSearcher(game, network=w, seed=int(rng.integers(2**31)))
            for side, w in players.items()
        }
        state = game.initial_state()
        while not game.is_terminal(state):
            plies = game.options["size"] ** 2 - len(game.legal_moves(state))
            result = searchers[game.to_move(state)].search(
                simulations=simulations,
                temperature=1.0 if plies < GATE_OPENING else 0.0,
            )
            for searcher in searchers.values():
                searcher.advance(result.code)  # both keep their trees
            state = game.apply(state, result.code)
        outcome = game.outcome(state)
        assert outcome is not None  # the game is over
        winner = outcome.winner
        a_side = "black" if number % 2 == 0 else "white"
        points += 0.5 if winner is None else float(winner == a_side)
    return points / games


def write_model(game: Game, out: Path, weights: NetworkWeights) -> None:
    """Write the tree model at ``out``: the root alone and the network."""
    built = {"by": "train-net", **weights.trained}
    model = Model(game, Tree(2), game.initial_state(), network=weights)
    save(model, out, built=built)


def _resume(path: Path, net, optimiser, config: TrainConfig):
    """Return (progress, best weights or None, buffer) from the checkpoint
    at ``path``, loading the network and optimiser; a fresh start if none."""
    if not path.exists():
        return Progress(), None, []
    saved = torch.load(path, weights_only=False)
    net.load_state_dict(saved["net"])
    optimiser.load_state_dict(saved["optimiser"])
    best = PolicyValueNet(net.size)
    best.load_state_dict(saved["best"])
    buffer = [Examples(*saved["buffer"])] if saved["buffer"] is not None else []
    return Progress(**saved["progress"]), export(best, saved["best_trained"]), buffer


def _save_checkpoint(path: Path, net, optimiser, best, buffer, progress) -> None:
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
        if not buffer
        else (buffer[0].planes, buffer[0].policies, buffer[0].values),
        "progress": asdict(progress),
    }
    temp = path.with_name(path.name + ".tmp")
    torch.save(saved, temp)
    os.replace(temp, path)

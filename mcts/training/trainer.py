"""The AlphaZero training loop for a Gomoku policy-value network.

Each round plays one self-play game with the current network
(:mod:`mcts.training.examples`), or with ``workers`` > 1 that many at once
in worker processes (:mod:`mcts.training.matches`). Each game's positions,
in all eight orientations, join a replay buffer of the latest ``buffer``
examples, and the network takes ``steps`` gradient steps on random batches
of it: cross-entropy of the policy against the search's visit distribution,
squared error of the value against the game's result, L2 on the weights
(Adam's weight decay).

Every ``gate_every`` games the network plays ``gate_games`` games against
the best network so far (from short random openings, colours swapped, as
the arena plays); it becomes the best when it scores at least
``gate_score`` (``GATE_SCORE``; 0 makes every gate pass, as AlphaZero kept
no gate: on a board where black wins every gate game, 10×10 four in a row,
a gate can never pass), and the best is written into the output tree model
(``network.npz``, listed in its manifest with how it was trained). The
first gate compares against the untrained network. With ``eval_games``,
each gate also plays the best network against plain MCTS of
``eval_playouts`` random playouts a move: the strength over training time
that the manifest records and ``python -m mcts.lab net-chart`` draws.

A fresh run can start from a tree model instead of an untrained network
(``warm_start``): the network first learns the searches that built the tree
(:mod:`mcts.training.distill`), and that network is the first best. Or it
can go on from a trained network (``start_from``, a model that carries
one), which is then the first best: a new run on a network that shipped.
With ``search_value`` above 0 the value targets mix the game's result with
the search's value of each position (:mod:`mcts.training.examples`).

A checkpoint (network, optimiser, best network, buffer, counters, the
gating history) is saved atomically at every gate and on Ctrl-C; running
the same command again resumes from it (:mod:`mcts.training.checkpoints`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from ..games.base import Game
from ..models.model import Model
from ..models.packed import packed_path, unpack
from ..models.store import load, save
from ..search.gomoku.network import NetworkWeights
from ..search.tree import Tree
from .checkpoints import (
    Progress,
    checkpoint_of,
    resume,
    save_checkpoint,
    training_network,
)
from .distill import MIN_STUDY, Distilled, distill, tree_examples
from .examples import Examples, augment
from .matches import SelfPlayTask, Side, match, play_selfplay, run_all, worker_pool
from .torchnet import PolicyValueNet, export, load_into, training_loss

#: The score a gated network needs against the best to replace it.
GATE_SCORE = 0.55


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
    gate_score: float = GATE_SCORE
    eval_games: int = 0
    eval_playouts: int = 1000
    seed: int = 0
    workers: int = 1
    warm_start: str | None = None
    warm_start_epochs: int = 3
    warm_start_min_study: int = MIN_STUDY
    start_from: str | None = None
    search_value: float = 0.0

    def __post_init__(self) -> None:
        if self.warm_start is not None and self.start_from is not None:
            raise ValueError("a run warm-starts from a tree or starts from a network")
        if not 0.0 <= self.gate_score <= 1.0:
            raise ValueError(f"gate_score must be 0..1, got {self.gate_score}")
        if not 0.0 <= self.search_value <= 1.0:
            raise ValueError(f"search_value must be 0..1, got {self.search_value}")


def train(
    game: Game,
    out: Path,
    config: TrainConfig,
    *,
    command: str | None = None,
    on_game: Callable[[Progress, float], None] | None = None,
    on_warm_step: Callable[[int, int, float], None] | None = None,
) -> Progress:
    """Train until ``config.games`` self-play games are played, resuming
    from ``out``'s checkpoint if there is one; return the progress.
    A fresh run with ``config.warm_start`` first learns from that tree
    model's searches (:mod:`mcts.training.distill`), which then is the best
    network the first gate compares with. ``on_game(progress, loss)`` is
    called after each game, ``on_warm_step(step, steps, loss)`` after each
    step of the warm start (progress bars)."""
    size = game.options["size"]
    torch.manual_seed(config.seed)
    net = PolicyValueNet(size)
    optimiser = torch.optim.Adam(
        net.parameters(), lr=config.learning_rate, weight_decay=config.l2
    )
    checkpoint_path = checkpoint_of(out)
    progress, best, buffer = resume(
        checkpoint_path, net, optimiser, config.learning_rate, config.l2
    )
    started = time.perf_counter() - progress.seconds

    def checkpoint() -> None:
        progress.seconds = round(time.perf_counter() - started, 1)
        save_checkpoint(checkpoint_path, net, optimiser, best, buffer, progress)

    if best is None:
        if config.start_from is not None:
            progress.started_from = _start_from(game, net, config.start_from)
        elif config.warm_start is not None:
            warm = _warm_start(game, net, optimiser, config, on_warm_step)
            progress.warm_start = warm.to_json()
        best = export(net)
        if progress.warm_start is not None:
            checkpoint()  # a resumed run does not learn the tree again
            if config.games == 0:  # the warm start alone: its network is the model
                _write_best(game, out, best, progress, config, command)

    try:
        with worker_pool(config.workers) as pool:
            while progress.games < config.games:
                tasks = _selfplay_tasks(game, net, config, progress)
                records = run_all(pool, play_selfplay, tasks)
                for record in records:
                    new = augment(record.examples, size)
                    buffer = new if buffer is None else Examples.join([buffer, new])
                    buffer = buffer.latest(config.buffer)
                    progress.examples += len(record.examples)
                    seed = config.seed * 1_000_003 + progress.games
                    loss = _learn(net, optimiser, buffer, config, seed)
                    progress.games += 1
                    progress.seconds = round(time.perf_counter() - started, 1)
                    if loss is not None:
                        progress.losses.append(round(loss, 4))
                    if (
                        progress.games % config.gate_every == 0
                        or progress.games == config.games
                    ):
                        best = _gate(
                            game, net, best, progress, config, out, command, pool
                        )
                        checkpoint()
                    if on_game is not None:
                        on_game(progress, loss if loss is not None else float("nan"))
    except KeyboardInterrupt:
        checkpoint()
        raise
    return progress


def export_training(game: Game, out: Path, to: Path) -> int:
    """Write the network that the run training ``out`` is training (not its
    best: a network no gate has passed yet, to measure it) into the model at
    ``to``; return the run's games behind it."""
    path = checkpoint_of(out)
    if not path.exists():
        raise ValueError(f"no training checkpoint for {out.name} ({path.name})")
    try:
        net, progress = training_network(path, game.options["size"])
    except ValueError as error:
        raise ValueError(f"{out.name} {error}") from None
    trained = {
        "exported_from": _folder_name(str(out)),
        "gated": False,
        "run_games": progress.games,
        "started_from": progress.started_from,
    }
    write_model(game, to, export(net, trained))
    return progress.games


def _warm_start(
    game: Game,
    net: PolicyValueNet,
    optimiser,
    config: TrainConfig,
    on_step: Callable[[int, int, float], None] | None,
) -> Distilled:
    """Train ``net`` on the searches of the tree model ``config.warm_start``."""
    assert config.warm_start is not None
    archive = packed_path(Path(config.warm_start))
    if archive.exists():  # a shipped full model is unpacked on first use
        unpack(archive)
    model = load(config.warm_start, game=game)
    examples = tree_examples(model, config.warm_start_min_study)
    loss = distill(
        net,
        optimiser,
        examples,
        epochs=config.warm_start_epochs,
        batch=config.batch,
        seed=config.seed,
        on_step=on_step,
    )
    return Distilled(
        tree=config.warm_start,
        tree_command=model.manifest.get("built", {}).get("command"),
        positions=len(examples),
        min_study=config.warm_start_min_study,
        epochs=config.warm_start_epochs,
        loss=loss,
    )


def _start_from(game: Game, net: PolicyValueNet, folder: str) -> dict:
    """Put the network of the model at ``folder`` into ``net``; return what
    the new model records of it (its name and its self-play games)."""
    model = load(folder, game=game)
    if model.network is None:
        raise ValueError(f"the model {_folder_name(folder)} carries no network")
    load_into(net, model.network)
    trained = model.network.trained
    return {
        "model": _folder_name(folder),
        "selfplay_games": int(trained.get("selfplay_games", 0) or 0),
    }


def _selfplay_tasks(
    game: Game, net: PolicyValueNet, config: TrainConfig, progress: Progress
) -> list[SelfPlayTask]:
    """Return the next self-play games of the current network: one a worker,
    none past the next gate or the last game."""
    next_gate = (progress.games // config.gate_every + 1) * config.gate_every
    count = min(config.workers, min(config.games, next_gate) - progress.games)
    weights = export(net)
    return [
        SelfPlayTask(
            game.name,
            dict(game.options),
            weights,
            config.simulations,
            config.sample_plies,
            (config.noise_alpha, config.noise_fraction),
            seed=config.seed * 1_000_003 + progress.games + number,
            search_value=config.search_value,
        )
        for number in range(count)
    ]


def _learn(
    net, optimiser, buffer: Examples | None, config: TrainConfig, seed: int
) -> float | None:
    """Take ``config.steps`` steps on random batches; return the last loss
    (None while the buffer holds less than a batch)."""
    if buffer is None or len(buffer) < config.batch:
        return None
    examples = buffer
    rng = np.random.default_rng(seed)
    net.train()
    loss = None
    for _ in range(config.steps):
        pick = rng.choice(len(examples), config.batch, replace=False)
        planes = torch.from_numpy(examples.planes[pick])
        policies = torch.from_numpy(examples.policies[pick])
        values = torch.from_numpy(examples.values[pick])
        total = training_loss(net, planes, policies, values)
        optimiser.zero_grad()
        total.backward()
        optimiser.step()
        loss = float(total.detach())
    net.eval()
    return loss


def _gate(
    game: Game,
    net: PolicyValueNet,
    best: NetworkWeights,
    progress: Progress,
    config: TrainConfig,
    out: Path,
    command: str | None,
    pool: Executor | None,
) -> NetworkWeights:
    """Play the network against the best; return the new best (written
    into the model at ``out`` when it changes, and the first time)."""
    candidate = export(net)
    sims = config.gate_simulations
    score = match(
        game,
        Side(candidate, sims),
        Side(best, sims),
        games=config.gate_games,
        seed=config.seed + progress.games,
        pool=pool,
    )
    accepted = score >= config.gate_score
    if accepted:
        best = candidate
    gate = {
        "games": progress.games,
        "seconds": round(progress.seconds, 1),
        "score": round(score, 3),
        "accepted": accepted,
        "learning_rate": config.learning_rate,
    }
    if config.eval_games:
        # The strength over training time: the best network against plain MCTS.
        pure = Side(spec=f"mcts:sims={config.eval_playouts}")
        gate["pure_mcts"] = round(
            match(
                game,
                Side(best, sims),
                pure,
                games=config.eval_games,
                seed=config.seed + progress.games + 1,
                pool=pool,
            ),
            3,
        )
    progress.gates.append(gate)
    if accepted or not (out / "manifest.json").exists():
        best = _write_best(game, out, best, progress, config, command)
    return best


def _write_best(
    game: Game,
    out: Path,
    best: NetworkWeights,
    progress: Progress,
    config: TrainConfig,
    command: str | None,
) -> NetworkWeights:
    """Write ``best`` into the model at ``out`` with how it was trained;
    return it with that record."""
    trained = {
        "command": command,
        "config": {
            **asdict(config),
            "warm_start": _folder_name(config.warm_start),
            "start_from": _folder_name(config.start_from),
        },
        "started_from": progress.started_from,
        # The games behind the network the model carries; the run's own may
        # be more (gates it did not pass).
        "selfplay_games": _best_games(progress)
        + (progress.started_from or {}).get("selfplay_games", 0),
        "run_games": progress.games,
        "warm_start": progress.warm_start
        and {**progress.warm_start, "tree": _folder_name(config.warm_start)},
        "seconds": round(progress.seconds, 1),
        "gates": progress.gates,
    }
    best = NetworkWeights(best.size, best.parameters, trained)
    write_model(game, out, best)
    return best


def _best_games(progress: Progress) -> int:
    """Return the run's games behind the best network: those of the last
    gate it passed (0: the network it started with)."""
    return max((g["games"] for g in progress.gates if g["accepted"]), default=0)


def _folder_name(path: str | None) -> str | None:
    """Return the name of a model folder the run started from: what the
    model records of it (a shipped model names no folder of the machine
    that trained it)."""
    return None if path is None else Path(path).name


def write_model(game: Game, out: Path, weights: NetworkWeights) -> None:
    """Write the tree model at ``out``: the root alone and the network."""
    built = {"by": "train-net", **weights.trained}
    model = Model(game, Tree(2), game.initial_state(), network=weights)
    save(model, out, built=built)

"""The training loop: self-play examples and their symmetries, a tiny run
that writes a playable model, and resuming from its checkpoint (also after
a stop by SIGTERM)."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest
import torch

from mcts.cli.training import terminate_as_interrupt
from mcts.games import find_game
from mcts.models import store
from mcts.search import network
from mcts.training.examples import Examples, augment, play_game
from mcts.training.trainer import CHECKPOINT, train

from .tiny import tiny_config

GAME = find_game("gomoku", size=5, row=4)


def test_a_self_play_game_gives_one_example_a_position():
    record = play_game(
        GAME,
        network.random_weights(5),
        simulations=30,
        sample_plies=4,
        noise=(0.3, 0.25),
        seed=1,
    )
    examples = record.examples
    assert len(examples) == len(record.moves)
    assert np.allclose(examples.policies.sum(1), 1.0)
    # The value target is the result for the player to move: alternating.
    if record.winner is not None:
        assert set(np.unique(examples.values)) == {-1.0, 1.0}
        assert examples.values[-1] == 1.0  # the winner made the last move
        assert np.all(examples.values[:-1] == -examples.values[1:])
    # The first position's planes: empty board, black to move.
    assert examples.planes[0][:3].sum() == 0 and examples.planes[0][3].min() == 1


def test_augmenting_gives_each_orientation_of_position_and_policy():
    state = GAME.play_all(["a1", "b3"])
    b3 = GAME.parse_move(GAME.play_all(["a1"]), "b3")
    planes = network.encode(state.array, b3)
    policy = np.zeros(25, dtype=np.float32)
    policy[GAME.parse_move(state, "e2")] = 1.0
    examples = Examples(planes[None], policy[None], np.array([0.5], dtype=np.float32))
    out = augment(examples, 5)
    assert len(out) == 8
    for k, image in enumerate(GAME.symmetries()):
        turned = GAME.map_state(state, image)
        last = int(GAME.move_map(image)[b3])
        assert np.array_equal(out.planes[k], network.encode(turned.array, last))
        expected = int(GAME.move_map(image)[GAME.parse_move(state, "e2")])
        assert out.policies[k][expected] == 1.0
    assert np.all(out.values == 0.5)


def test_a_tiny_run_writes_a_model_and_resumes(tmp_path):
    out = tmp_path / "net"
    config = tiny_config()
    progress = train(GAME, out, config, command="test")
    assert progress.games == 2 and progress.losses and len(progress.gates) == 1
    model = store.load(out)
    assert model.network is not None and model.network.size == 5
    trained = model.manifest["network"]["built"]
    assert trained["selfplay_games"] == 2 and trained["command"] == "test"
    gate = trained["gates"][0]
    assert gate["games"] == 2 and 0 <= gate["pure_mcts"] <= 1 and gate["seconds"] > 0
    more = tiny_config(games=3, gate_every=3, learning_rate=5e-4)
    resumed = train(GAME, out, more, command="test")
    assert resumed.games == 3 and len(resumed.gates) == 2
    assert resumed.examples > progress.examples
    # The resuming command's learning rate is the one the run goes on with.
    rates = [g["learning_rate"] for g in resumed.gates]
    assert rates == [config.learning_rate, 5e-4] and config.learning_rate != 5e-4
    saved = torch.load(tmp_path / ".net.training" / CHECKPOINT, weights_only=False)
    assert saved["optimiser"]["param_groups"][0]["lr"] == 5e-4


def test_the_chart_draws_the_strength_the_gates_recorded(tmp_path, capsys):
    from mcts.cli import main as cli

    out = tmp_path / "net"
    config = tiny_config(games=1, gate_every=1)
    train(GAME, out, config)
    image = tmp_path / "chart.png"
    assert cli.main(["net-chart", str(out), "--out", str(image)]) == 0
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "1 points" in capsys.readouterr().out


def test_two_workers_play_the_games_a_gate_and_resume(tmp_path):
    out = tmp_path / "net"
    progress = train(GAME, out, tiny_config(games=3, gate_every=2, workers=2))
    # Games 1-2 together, the gate, then game 3 alone (the last one), a gate.
    assert progress.games == 3 and [g["games"] for g in progress.gates] == [2, 3]
    assert all(0 <= g["pure_mcts"] <= 1 for g in progress.gates)
    assert store.load(out).network is not None


def test_a_run_stopped_by_sigterm_saves_its_checkpoint_and_resumes(tmp_path):
    out = tmp_path / "net"
    before = signal.getsignal(signal.SIGTERM)

    def stop_after_the_first(progress, loss) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # as `kill` stops a job

    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt():
        train(GAME, out, tiny_config(games=3), on_game=stop_after_the_first)
    assert signal.getsignal(signal.SIGTERM) == before
    played: list[int] = []
    resumed = train(
        GAME, out, tiny_config(games=2), on_game=lambda p, _: played.append(p.games)
    )
    assert played == [2] and resumed.games == 2  # the first game was kept

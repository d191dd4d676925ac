"""The training loop: self-play examples and their symmetries, a tiny run
that writes a playable model, and resuming from its checkpoint (also after
a stop by SIGTERM)."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest
import torch

from mcts.games import find_game
from mcts.lab.commands.training import terminate_as_interrupt
from mcts.models import store
from mcts.models.model import Model
from mcts.search.gomoku import network
from mcts.search.tree import Tree
from mcts.training.checkpoints import CHECKPOINT
from mcts.training.examples import Examples, augment, play_game
from mcts.training.trainer import train

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


def test_the_search_value_weight_mixes_the_searches_values_into_the_targets():
    options = dict(simulations=30, sample_plies=4, noise=(0.3, 0.25), seed=1)
    weights = network.random_weights(5)
    results = play_game(GAME, weights, **options).examples.values
    searched = play_game(GAME, weights, search_value=1.0, **options).examples.values
    mixed = play_game(GAME, weights, search_value=0.25, **options).examples.values
    # The same seed plays the same game: only the targets differ.
    assert len(results) == len(searched) == len(mixed)
    assert np.allclose(mixed, 0.75 * results + 0.25 * searched, atol=1e-6)
    assert np.all(np.abs(searched) <= 1) and not np.array_equal(searched, results)
    with pytest.raises(ValueError, match="search_value"):
        play_game(GAME, weights, search_value=1.5, **options)


def test_a_run_goes_on_from_a_trained_network_and_counts_its_games(tmp_path):
    first = tmp_path / "first"
    train(GAME, first, tiny_config(games=1, gate_every=1, eval_games=0))
    trained = store.load(first).network
    before = trained.trained["selfplay_games"]  # 1, or 0 if its gate failed
    second = tmp_path / "second"
    config = tiny_config(
        games=1, gate_every=1, eval_games=0, start_from=str(first), search_value=0.5
    )
    train(GAME, second, config, command="test")
    record = store.load(second).manifest["network"]["built"]
    # The games behind it count: those before, and the one now if it passed
    # its gate; no path is recorded.
    assert record["started_from"] == {"model": "first", "selfplay_games": before}
    accepted = record["gates"][0]["accepted"]
    assert record["selfplay_games"] == before + accepted and record["run_games"] == 1
    assert record["config"]["start_from"] == "first"
    assert record["config"]["search_value"] == 0.5
    # The first gate compared the new network with the one it started from:
    # the best is that one unless the new one won the gate.
    saved = torch.load(tmp_path / ".second.training" / CHECKPOINT, weights_only=False)
    for name, array in trained.parameters.items():
        best = saved["best"][name].numpy()
        expected = saved["net"][name].numpy() if accepted else array
        assert np.array_equal(best, expected)
    with pytest.raises(ValueError, match="warm-starts from a tree or starts"):
        tiny_config(warm_start="full", start_from=str(first))
    plain = tmp_path / "plain"
    store.save(Model(GAME, Tree(2), GAME.initial_state()), plain)
    with pytest.raises(ValueError, match="no network"):
        train(GAME, tmp_path / "third", tiny_config(start_from=str(plain)))


def test_a_gate_score_of_zero_makes_every_gate_pass(tmp_path):
    # AlphaZero kept no gate: the trained network replaces the best at each
    # gate, whatever it scores (a board where black wins every gate game).
    out = tmp_path / "net"
    progress = train(GAME, out, tiny_config(games=2, gate_every=1, gate_score=0.0))
    assert [g["accepted"] for g in progress.gates] == [True, True]
    trained = store.load(out).network
    assert trained.trained["selfplay_games"] == 2
    assert trained.trained["config"]["gate_score"] == 0.0
    saved = torch.load(tmp_path / ".net.training" / CHECKPOINT, weights_only=False)
    for name, array in trained.parameters.items():
        assert np.array_equal(saved["net"][name].numpy(), array)
    with pytest.raises(ValueError, match="gate_score"):
        tiny_config(gate_score=1.5)


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
    gate = trained["gates"][0]
    # The games behind the network it carries: none if it is the untrained one.
    assert trained["selfplay_games"] == (2 if gate["accepted"] else 0)
    assert trained["run_games"] == 2 and trained["command"] == "test"
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
    from mcts.lab import main as cli

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


def test_the_command_refuses_a_tree_and_a_network_to_start_from(tmp_path, capsys):
    from mcts.lab.main import main

    arguments = ["train-net", "gomoku", "--size", "5", "--row", "4", "--games", "1"]
    arguments += ["--model", "net", "--model-dir", str(tmp_path)]
    arguments += ["--warm-start", "full", "--start-from", "net-5x4"]
    assert main(arguments) == 2
    assert "warm-starts from a tree or starts from a network" in capsys.readouterr().err
    assert not (tmp_path / "gomoku" / "net").exists()


def test_the_training_network_is_exported_to_be_measured(tmp_path, capsys):
    from mcts.lab.main import main

    models = tmp_path / "models"
    out = models / "gomoku" / "net"
    train(GAME, out, tiny_config(games=1, gate_every=1, eval_games=0))
    arguments = ["net-export", "gomoku", "--size", "5", "--row", "4"]
    arguments += ["--model-dir", str(models), "--model", "net", "--out", "net-now"]
    assert main(arguments) == 0
    assert "the training network of net after 1 games" in capsys.readouterr().out
    exported = store.load(models / "gomoku" / "net-now").network
    saved = torch.load(out.parent / ".net.training" / CHECKPOINT, weights_only=False)
    for name, array in exported.parameters.items():
        assert np.array_equal(array, saved["net"][name].numpy())
    assert exported.trained["gated"] is False and exported.trained["run_games"] == 1
    assert exported.trained["exported_from"] == "net"
    # A run with no checkpoint, and one for another board, are refused.
    assert main([*arguments[:-4], "--model", "none", "--out", "x"]) == 2
    assert "no training checkpoint for none" in capsys.readouterr().err
    other = ["net-export", "gomoku", "--size", "6", "--row", "4"]
    other += ["--model-dir", str(models), "--model", "net", "--out", "x"]
    assert main(other) == 2
    assert "another board" in capsys.readouterr().err

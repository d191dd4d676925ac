"""The warm start: examples from a tree model's searches, a network trained
on them, and a training run that starts from a tree model."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from mcts.games import find_game
from mcts.lab.main import main
from mcts.models import store
from mcts.models.model import Model
from mcts.search.gomoku import network
from mcts.search.tree import Proven, Tree
from mcts.training.checkpoints import CHECKPOINT
from mcts.training.distill import distill, tree_examples
from mcts.training.torchnet import PolicyValueNet, export
from mcts.training.trainer import train

from .tiny import tiny_config

GAME = find_game("gomoku", size=5, row=4)


def _studied_model() -> Model:
    """A tree whose root's searches gave c3 300 visits (black won 80% of
    them) and b2 100; below c3, white's searches gave d4 250 visits and the
    MCTS-Solver proved c3 a win for black; below b2 nothing was studied
    enough to be an example."""
    root = GAME.initial_state()
    c3, b2 = GAME.parse_move(root, "c3"), GAME.parse_move(root, "b2")
    tree = Tree()
    first = tree.add_children(0, np.array([c3, b2]))
    tree.visits[first : first + 2] = [300, 100]
    tree.value_sum[first : first + 2] = [240.0, 40.0]
    after_c3 = GAME.apply(root, c3)
    d4, a1 = GAME.parse_move(after_c3, "d4"), GAME.parse_move(after_c3, "a1")
    below = tree.add_children(first, np.array([d4, a1]))
    tree.visits[below : below + 2] = [250, 50]
    tree.proven[first] = Proven.WIN
    below_b2 = tree.add_children(first + 1, np.array([d4]))
    tree.visits[below_b2] = 99
    return Model(GAME, tree, root)


def test_each_studied_position_gives_its_visits_and_value_for_the_mover():
    examples = tree_examples(_studied_model(), min_study=200)
    assert len(examples) == 2  # the root and c3; b2's children hold 99 visits
    root = GAME.initial_state()
    c3 = GAME.parse_move(root, "c3")
    assert np.array_equal(examples.planes[0], network.encode(root.array))
    assert examples.policies[0][c3] == pytest.approx(0.75)
    assert examples.policies[0][GAME.parse_move(root, "b2")] == pytest.approx(0.25)
    # Black to move at the root: (240 + 40) / 400 = 0.7, i.e. +0.4 in -1..1.
    assert examples.values[0] == pytest.approx(0.4)
    after_c3 = GAME.apply(root, c3)
    assert np.array_equal(examples.planes[1], network.encode(after_c3.array, c3))
    assert examples.policies[1][GAME.parse_move(after_c3, "d4")] == pytest.approx(
        250 / 300
    )
    # c3 is proven won for black, who moved there: white to move has lost.
    assert examples.values[1] == -1.0
    with pytest.raises(ValueError, match="studied 1000 times"):
        tree_examples(_studied_model(), min_study=1000)


def test_distilling_teaches_the_network_the_searches_move_and_value():
    examples = tree_examples(_studied_model(), min_study=200)
    torch.manual_seed(0)
    net = PolicyValueNet(5)
    optimiser = torch.optim.Adam(net.parameters(), lr=5e-3)
    steps = []
    loss = distill(
        net,
        optimiser,
        examples,
        epochs=300,
        batch=16,
        on_step=lambda step, total, loss: steps.append(step),
    )
    assert steps == list(range(1, 301))
    logits, values = export(net).evaluate(examples.planes)
    root = GAME.initial_state()
    # Every orientation was trained, and c3 is the centre: still the choice.
    assert int(np.argmax(logits[0])) == GAME.parse_move(root, "c3")
    assert values[0] == pytest.approx(0.4, abs=0.15)
    assert values[1] == pytest.approx(-1.0, abs=0.15)
    assert loss < 1.5


def test_a_run_with_a_warm_start_learns_the_tree_first_and_resumes_without_it(
    tmp_path,
):
    tree_folder = tmp_path / "studied"
    store.save(_studied_model(), tree_folder, built={"command": "made by a test"})
    out = tmp_path / "net"
    config = tiny_config(eval_games=0, warm_start=str(tree_folder), warm_start_epochs=2)
    warm_steps = []
    progress = train(
        GAME, out, config, on_warm_step=lambda *step: warm_steps.append(step)
    )
    assert len(warm_steps) == 2
    expected = {
        "tree": str(tree_folder),
        "tree_command": "made by a test",
        "positions": 2,
        "min_study": 200,
        "epochs": 2,
    }
    assert {k: progress.warm_start[k] for k in expected} == expected
    trained = store.load(out).manifest["network"]["built"]
    # The model names the tree, not the folder it was in.
    assert trained["warm_start"] == {**progress.warm_start, "tree": "studied"}
    assert trained["config"]["warm_start"] == "studied"
    resumed = train(
        GAME,
        out,
        tiny_config(eval_games=0, warm_start=str(tree_folder), games=3, gate_every=3),
        on_warm_step=lambda *step: warm_steps.append(step),
    )
    assert resumed.games == 3 and len(warm_steps) == 2  # not learnt again
    saved = torch.load(tmp_path / ".net.training" / CHECKPOINT, weights_only=False)
    assert saved["progress"]["warm_start"] == progress.warm_start


def test_the_command_warm_starts_from_a_named_tree_and_shows_its_progress(
    tmp_path, capsys
):
    models = tmp_path / "models"
    store.save(_studied_model(), models / "gomoku" / "studied", built={})
    code = main(
        [
            "train-net",
            "gomoku",
            "--size",
            "5",
            "--row",
            "4",
            "--model",
            "net",
            "--model-dir",
            str(models),
            "--games",
            "2",
            "--sims",
            "10",
            "--batch",
            "16",
            "--gate-every",
            "2",
            "--gate-games",
            "2",
            "--gate-sims",
            "10",
            "--gate-score",
            "0",
            "--warm-start",
            "studied",
            "--warm-start-epochs",
            "3",
        ]
    )
    assert code == 0
    out, err = capsys.readouterr()
    assert "after 2 games:" in out
    assert "warm start" in err and "3/3" in err and "train-net" in err
    trained = store.load(models / "gomoku" / "net").manifest["network"]["built"]
    assert trained["warm_start"]["tree"] == "studied"
    assert trained["warm_start"]["epochs"] == 3
    assert trained["config"]["gate_score"] == 0 and trained["gates"][0]["accepted"]


def test_a_run_of_no_games_writes_the_warm_started_network(tmp_path):
    tree_folder = tmp_path / "studied"
    store.save(_studied_model(), tree_folder, built={})
    out = tmp_path / "net"
    config = tiny_config(games=0, warm_start=str(tree_folder), warm_start_epochs=50)
    progress = train(GAME, out, config, command="warm start only")
    assert progress.games == 0 and progress.gates == []
    model = store.load(out)
    trained = model.manifest["network"]["built"]
    assert trained["selfplay_games"] == 0 and trained["warm_start"]["epochs"] == 50
    assert trained["command"] == "warm start only"
    root = GAME.initial_state()
    logits, _ = model.network.evaluate(network.encode(root.array)[None])
    assert int(np.argmax(logits[0])) == GAME.parse_move(root, "c3")

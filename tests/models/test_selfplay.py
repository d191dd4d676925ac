"""Self-play builder: a small run end to end, resume, workers, CLI."""

from __future__ import annotations

import json

import pytest

from mcts.cli import main as cli
from mcts.games import find_game
from mcts.models import selfplay, store
from mcts.models.model import Model, warm_tree
from mcts.models.selfplay import SelfPlayConfig, build, play_game
from mcts.search.tree import Tree


def _config(**changes) -> SelfPlayConfig:
    options = dict(simulations=12, noise_plies=4, checkpoint_every=2, seed=5)
    options.update(changes)
    return SelfPlayConfig(**options)


def test_play_game_grows_the_tree_and_finishes():
    game = find_game("gomoku", size=7, row=4)
    tree = Tree()
    moves, status = play_game(game, tree, game.initial_state(), _config(), 1)
    assert status != 0 and len(moves) >= 7
    assert int(tree.visits[0]) == 12  # the root was searched once, 12 simulations
    assert tree.size > len(moves)


def test_selfplay_builds_and_resumes_a_loadable_model(tmp_path):
    game = find_game("gomoku", size=7, row=4)
    path = tmp_path / "small"
    checkpoints = []
    build(
        game,
        path,
        3,
        _config(),
        progress=False,
        on_checkpoint=lambda done, nodes: checkpoints.append(done),
    )
    assert checkpoints == [2, 3]
    first = store.load(path)
    assert first.manifest["built"]["selfplay_games"] == 3
    build(game, path, 5, _config(), progress=False)
    model = store.load(path)
    built = model.manifest["built"]
    assert built["by"] == "selfplay" and built["selfplay_games"] == 5
    assert built["config"]["simulations"] == 12
    assert int(model.tree.visits[0]) == 5 * 12
    assert model.nodes > first.nodes


def test_a_played_move_keeps_the_statistics_its_parent_gave_it():
    # Searching the position after a move adds to what lies below it, not to
    # the move itself: the root's children hold no more visits than the root.
    game = find_game("gomoku", size=7, row=4)
    tree = Tree()
    for seed in range(3):
        play_game(game, tree, game.initial_state(), _config(), seed)
    children = tree.children(0)
    assert sum(int(tree.visits[c]) for c in children) <= int(tree.visits[0]) == 36


def test_study_plies_get_the_budget_and_later_plies_finish_cheaply(monkeypatch):
    budgets = []

    class RecordingSearcher(selfplay.Searcher):
        def search(self, **budget):
            budgets.append(budget["simulations"])
            return super().search(**budget)

    monkeypatch.setattr(selfplay, "Searcher", RecordingSearcher)
    game = find_game("gomoku", size=7, row=4)
    config = _config(simulations=300, study_plies=2)
    moves, _ = play_game(game, Tree(), game.initial_state(), config, 1)
    finish = selfplay.FINISH_SIMULATIONS
    assert budgets == [300, 300] + [finish] * (len(moves) - 2)


def test_games_differ_thanks_to_the_noise():
    game = find_game("gomoku", size=7, row=4)
    tree = Tree()
    first, _ = play_game(game, tree, game.initial_state(), _config(), 1)
    second, _ = play_game(game, Tree(), game.initial_state(), _config(), 2)
    assert first != second


def test_parallel_workers_merge_their_games(tmp_path):
    game = find_game("gomoku", size=7, row=4)
    path = tmp_path / "par"
    model = build(game, path, 4, _config(workers=2), progress=False)
    assert int(model.tree.visits[0]) == 4 * 12
    assert store.load(path).manifest["built"]["selfplay_games"] == 4


def test_cli_selfplay_info_and_merge(tmp_path, capsys):
    assert (
        cli.main(
            [
                "selfplay",
                "gomoku",
                "--size",
                "7",
                "--row",
                "4",
                "--games",
                "2",
                "--model",
                "cli",
                "--model-dir",
                str(tmp_path),
                "--sims",
                "8",
                "--temperature",
                "0.5",
                "--quiet",
            ]
        )
        == 0
    )
    path = tmp_path / "gomoku" / "cli"
    single = json.loads(capsys.readouterr().out)
    assert single["nodes"] > 1
    assert store.load(path).manifest["built"]["config"]["temperature"] == 0.5
    assert (
        cli.main(
            ["model", "merge", str(path), str(path), "--out", str(tmp_path / "double")]
        )
        == 0
    )
    capsys.readouterr()
    assert cli.main(["model", "info", str(tmp_path / "double"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["root_visits"] == 2 * single["root_visits"]
    assert summary["built"]["by"] == "merge"
    light = tmp_path / "light"
    half_mb = single["bytes"] / 2e6
    assert (
        cli.main(
            ["model", "prune", str(path), "--out", str(light), "--max-mb", str(half_mb)]
        )
        == 0
    )
    assert "nodes (min visits" in capsys.readouterr().out
    pruned = store.load(light)
    assert sum(p.stat().st_size for p in light.iterdir()) <= half_mb * 1e6
    assert 1 < pruned.nodes < single["nodes"]
    assert pruned.manifest["built"]["pruned"]["from_nodes"] == single["nodes"]
    # The manifest counts too: a limit that holds this pruning's data but not
    # its manifest takes a lighter one.
    data = sum(p.stat().st_size for p in light.glob("*.jsonl"))
    limit = (data + (light / "manifest.json").stat().st_size // 2) / 1e6
    lighter = tmp_path / "lighter"
    command = ["model", "prune", str(path), "--out", str(lighter)]
    assert cli.main([*command, "--max-mb", str(limit)]) == 0
    assert sum(p.stat().st_size for p in lighter.iterdir()) <= limit * 1e6


def test_games_study_one_orientation_and_players_find_it_in_every_other():
    # Reversi's four first moves are one move turned: every game plays the
    # lowest-coded (d3), so all study lands below one node, and a player who
    # opened f5 is given that study, turned to its board.
    game = find_game("reversi")
    tree = Tree()
    first_moves = {
        play_game(game, tree, game.initial_state(), _config(noise_plies=2), seed)[0][0]
        for seed in range(4)
    }
    start = game.initial_state()
    assert first_moves == {min(game.legal_moves(start))}
    model = Model(game, tree, start)
    study = {
        game.format_move(start, int(tree.move[child])): model.index.study(child)
        for child in tree.children(0)
    }
    assert study["d3"] > 3 * max(study[m] for m in ("c4", "f5", "e6"))
    warm = warm_tree(model, game, game.play_all(["f5"]))
    assert sum(int(warm.visits[c]) for c in warm.children(0)) == study["d3"]
    # Its root counts them too (self-play never adds to a studied position's
    # own visits), with their value seen from the other side.
    assert int(warm.visits[0]) == study["d3"] > int(tree.visits[tree.children(0)[0]])
    mover = sum(float(warm.value_sum[c]) for c in warm.children(0)) / study["d3"]
    assert float(warm.value_sum[0]) / study["d3"] == pytest.approx(1 - mover)


def test_prune_below_the_root_and_its_moves_is_a_clear_error(tmp_path, capsys):
    game = find_game("gomoku", size=7, row=4)
    path = tmp_path / "tiny"
    build(game, path, 1, _config(), progress=False)
    status = cli.main(
        [
            "model",
            "prune",
            str(path),
            "--out",
            str(tmp_path / "x"),
            "--max-mb",
            "0.00005",  # 50 bytes: a node and a state line take about 45
        ]
    )
    assert status == 2
    assert "--max-mb 5e-05 is too small" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()

"""The bench subcommand (registered by mcts.lab.commands.bench)."""

import re

import pytest

from mcts.lab.commands.bench import add_commands
from tests.cli.subcommands import run_subcommand


def run(argv, capsys):
    return run_subcommand(add_commands, argv, capsys)


def test_bench_prints_compile_time_and_the_median_last(capsys):
    code, out = run(["bench", "reversi", "--seconds", "0.1"], capsys)
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("first call (compile or cache load):")
    assert sum(line.startswith("run ") for line in lines) == 3
    assert re.search(r"median simulations/s: \d+$", lines[-1])


def test_bench_with_a_model_scores_rollouts_with_its_evaluation(capsys):
    # Gomoku's light model carries a learned evaluation and no patterns.
    argv = ["bench", "gomoku", "--seconds", "0.1", "--runs", "1", "--model", "light"]
    code, out = run([*argv, "--evaluator", "heavy"], capsys)
    assert code == 0
    assert "heavy rollouts, scored by light's evaluation" in out.splitlines()[-1]
    # Reversi's light model carries a pattern evaluation, which scores the leaves.
    argv = ["bench", "reversi", "--seconds", "0.1", "--runs", "1", "--model", "light"]
    code, out = run([*argv, "--evaluator", "heavy"], capsys)
    assert code == 0
    assert "scored by light's pattern evaluation" in out.splitlines()[-1]
    with pytest.raises(ValueError, match="add --evaluator heavy"):
        run(argv, capsys)


def test_bench_measures_the_network_search(capsys):
    argv = ["bench", "gomoku", "--size", "6", "--row", "4", "--seconds", "0.05"]
    network = ["--evaluator", "network", "--batch", "4"]
    code, out = run([*argv, "--runs", "1", *network], capsys)
    assert code == 0
    assert re.search(r"network search, batch 4: median simulations/s: \d+$", out)
    # The compiler's time is its own line, not the first run's: that run
    # searched its whole budget.
    assert out.startswith("first call (compile or cache load): ")
    run_line = next(line for line in out.splitlines() if line.startswith("run 1"))
    assert not run_line.startswith("run 1: 0 simulations")


def test_bench_starts_from_the_moves_given(capsys):
    argv = ["bench", "gomoku", "--seconds", "0.05", "--runs", "1"]
    moves = ["--moves", "h8 i9 h9 h10 j8 g7"]
    code, out = run([*argv, "--evaluator", "heavy", *moves], capsys)
    assert code == 0
    assert "heavy rollouts, after h8 i9 h9 h10 j8 g7, c=" in out.splitlines()[-1]
    with pytest.raises(ValueError, match="ply 2"):
        run([*argv, "--moves", "h8 h8"], capsys)


def test_bench_times_the_gomoku_alphabeta_by_nodes_and_depth(capsys):
    argv = ["bench", "gomoku", "--seconds", "0.05", "--runs", "2"]
    code, out = run([*argv, "--evaluator", "alphabeta", "--moves", "h8 i9"], capsys)
    assert code == 0
    lines = out.splitlines()
    runs = [line for line in lines if line.startswith("run ")]
    assert len(runs) == 2
    assert all(re.search(r"nodes in .* depth [1-9]\d*, value", r) for r in runs)
    assert re.search(r"alpha-beta, after h8 i9: median nodes/s: \d+$", lines[-1])
    with pytest.raises(ValueError, match="Gomoku only"):
        run(["bench", "reversi", "--evaluator", "alphabeta"], capsys)


def test_the_gomoku_alphabeta_bench_to_a_depth_takes_the_same_nodes_each_run(capsys):
    argv = ["bench", "gomoku", "--evaluator", "alphabeta", "--runs", "2"]
    code, out = run([*argv, "--depth", "4", "--moves", "h8 i9 h9"], capsys)
    assert code == 0
    runs = re.findall(r"^run \d: (\d+) nodes .* depth (\d+),", out, re.MULTILINE)
    assert len(runs) == 2
    assert runs[0] == runs[1]
    assert runs[0][1] == "4" and int(runs[0][0]) > 0
    with pytest.raises(ValueError, match="depth must be at least 1"):
        run([*argv, "--depth", "0"], capsys)


def test_the_gomoku_heavy_bench_times_the_tree_search_alone(capsys, monkeypatch):
    planned = []
    monkeypatch.setattr(
        "mcts.search.searcher.Searcher._plan_move",
        lambda *args: planned.append(1),
    )
    argv = ["bench", "gomoku", "--seconds", "0.05", "--runs", "1"]
    code, _ = run([*argv, "--evaluator", "heavy"], capsys)
    assert code == 0 and planned == []

"""The rules commands (``python -m mcts``: perft, show, replay; ``python -m
mcts.lab``: random, bench-playouts), run in-process and once as a real process."""

import json
import subprocess
import sys

import pytest

from mcts.cli.main import main
from mcts.lab.main import main as lab_main

LAB = {"random", "bench-playouts"}


def run_cli(capsys, *argv):
    code = (lab_main if argv[0] in LAB else main)(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_prints_the_count_alone_on_the_last_line(capsys):
    code, out, _ = run_cli(capsys, "perft", "reversi", "4")
    assert code == 0
    assert out.strip().splitlines()[-1] == "244"


def test_perft_knows_the_othello_alias_and_gomoku_options(capsys):
    assert run_cli(capsys, "perft", "othello", "2")[1].split()[-1] == "12"
    code, out, _ = run_cli(capsys, "perft", "gomoku", "2", "--size", "5", "--row", "4")
    assert (code, out.split()[-1]) == (0, str(25 * 24))


def test_perft_of_loa_depth_two(capsys):
    assert run_cli(capsys, "perft", "loa", "2")[1].split()[-1] == "1244"


def test_show_prints_board_side_and_legal_moves(capsys):
    code, out, _ = run_cli(capsys, "show", "reversi", "f5")
    assert code == 0
    assert "white" in out.lower()
    legal_line = next(line for line in out.splitlines() if line.startswith("legal:"))
    assert sorted(legal_line.split()[1:]) == ["d6", "f4", "f6"]


def test_show_exits_nonzero_on_an_illegal_move(capsys):
    code, out, err = run_cli(capsys, "show", "reversi", "f5", "a1")
    assert code != 0
    assert "ply 2" in err and "'a1'" in err and "d6" in err


def test_unknown_game_is_an_error_not_a_trace(capsys):
    code, _, err = run_cli(capsys, "show", "chess")
    assert code == 2
    assert "unknown game 'chess'" in err


def test_bad_gomoku_options_are_reported(capsys):
    code, _, err = run_cli(capsys, "show", "gomoku", "--size", "30")
    assert code == 2
    assert "size" in err


def test_random_prints_one_finished_game_per_line(capsys):
    code, out, _ = run_cli(capsys, "random", "gomoku", "--size", "7", "--games", "3")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 3
    for game in lines:
        assert game["result"] in ("black", "white", "draw")
        assert 0 < len(game["moves"]) <= 49


def test_random_is_reproducible_with_a_seed(capsys):
    first = run_cli(capsys, "random", "reversi", "--games", "2", "--seed", "7")[1]
    second = run_cli(capsys, "random", "reversi", "--games", "2", "--seed", "7")[1]
    assert first == second


def test_replay_reports_legal_lists_result_and_errors(capsys, monkeypatch):
    import io

    lines = [
        json.dumps({"moves": ["f5", "d6"]}),
        json.dumps({"moves": ["f5", "f5"]}),
        "not json",
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run_cli(capsys, "replay", "reversi")
    ok, illegal, broken = (json.loads(line) for line in out.splitlines())
    assert code == 0
    assert sorted(ok["legal"][0]) == ["c4", "d3", "e6", "f5"]
    assert len(ok["legal"]) == 2 and ok["result"] is None and ok["error"] is None
    assert illegal["error"]["ply"] == 2 and "f5" in illegal["error"]["message"]
    assert broken["error"]["ply"] == 0


def test_replay_sees_the_end_of_a_won_loa_game(capsys, monkeypatch):
    import io

    moves = ["d1-b3", "h5-g4", "b1-b4", "g4xg1", "b4-e7", "a3xc1", "b3-e6", "h3xf1"]
    moves.append("e1-e5")
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"moves": moves})))
    verdict = json.loads(run_cli(capsys, "replay", "loa")[1])
    assert verdict["result"] == "black" and verdict["error"] is None


def test_bench_playouts_prints_a_rate_on_its_last_line(capsys):
    code, out, _ = run_cli(
        capsys, "bench-playouts", "reversi", "--seconds", "0.05", "--runs", "1"
    )
    assert code == 0
    assert int(out.strip().splitlines()[-1]) > 0


@pytest.mark.parametrize("argv", [["perft", "reversi", "3"]])
def test_module_entry_point_runs(argv):
    done = subprocess.run(
        [sys.executable, "-m", "mcts", *argv], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "56"

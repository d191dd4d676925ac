"""The Gomoku conversion benchmark, against the tiny fake engine of
:mod:`tests.play.fake_engines` that "proves" wins the way Rapfi reports
them (``MESSAGE ... Eval +M9``)."""

import json

import pytest

from mcts.games import find_game
from mcts.lab.conversion import Judge, find_positions, judge_move, proof_of
from mcts.lab.main import main
from tests.play.fake_engines import prover_spec


@pytest.mark.parametrize(
    ("chatter", "plies"),
    [
        (["MESSAGE Speed 818K | Depth 21-13 | Eval +M17 | Node 114K"], 17),
        (["MESSAGE Eval -M4 | Time 3ms"], -4),
        (["MESSAGE Eval M6"], 6),
        (["MESSAGE Eval +M17", "MESSAGE Eval -118"], None),  # the last one counts
        (["MESSAGE Bestline H8 I9", "DEBUG x"], None),
        ([], None),
    ],
)
def test_the_proof_is_read_from_the_last_evaluation(chatter, plies):
    assert proof_of(chatter) == plies


def test_positions_are_the_engines_proven_wins_two_a_game(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    judge = Judge(prover_spec(tmp_path, "prover"))
    found = list(find_positions(game, judge, games=2, seed=0))
    # +M9 with 6 and 8 stones (4 are too few), then the game is left.
    assert [len(moves) for moves in found] == [6, 8, 6, 8]
    assert found[0][:2] != found[2][:2]  # each game its own random opening


def test_a_move_keeps_the_win_when_the_engine_proves_itself_lost(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    moves = [40, 41, 31, 32, 49, 50]  # six stones, black to move
    kept = judge_move(
        game, moves, "mcts:sims=20", 1.0, Judge(prover_spec(tmp_path, "prover")), seed=0
    )
    assert kept.kept and kept.proof_after == -8
    unsure = judge_move(
        game, moves, "mcts:sims=20", 1.0, Judge(prover_spec(tmp_path, "unsure")), seed=0
    )
    assert not unsure.kept and unsure.proof_after is None


def test_a_move_that_makes_five_keeps_the_win_without_asking(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    # Black has four in a row on the bottom line with both ends open.
    moves = [0 + 1, 9 + 1, 0 + 2, 9 + 2, 0 + 3, 9 + 3, 0 + 4, 18 + 8]
    judge = Judge("engine:piskvork:cmd=/no/such/engine")  # never started
    verdict = judge_move(game, moves, "mcts-heavy:sims=50", 1.0, judge, seed=0)
    assert verdict.kept and verdict.move in ("a1", "f1")


def test_the_command_makes_the_positions_then_prints_the_rate(tmp_path, capsys):
    positions = tmp_path / "positions.jsonl"
    argv = [
        "conversion",
        "--engine",
        prover_spec(tmp_path, "prover"),
        "--positions",
        str(positions),
        "--games",
        "1",
        "--size",
        "9",
        "--player",
        "mcts:sims=20",
    ]
    assert main(argv) == 0
    assert [len(json.loads(line)) for line in positions.read_text().splitlines()] == [
        6,
        8,
    ]
    out = capsys.readouterr().out
    assert "2 positions from 1 engine games" in out
    assert out.rstrip().splitlines()[-1].startswith("kept 2/2 = 100.0% ± 0.0")
    assert main(argv) == 0  # the file exists now: reused, not made again
    assert "engine games" not in capsys.readouterr().out


def test_the_command_can_play_out_every_move_the_engine_cannot_judge(tmp_path, capsys):
    positions = tmp_path / "positions.jsonl"
    positions.write_text(json.dumps([40, 41, 31, 32, 49, 50]) + "\n")
    argv = ["conversion", "--engine", prover_spec(tmp_path, "unsure")]
    argv += ["--positions", str(positions), "--size", "9", "--player", "mcts:sims=20"]
    assert main(argv) == 0
    assert "played out" not in capsys.readouterr().out
    assert main([*argv, "--play-out-all"]) == 0
    line = capsys.readouterr().out.splitlines()[-2]
    assert "(engine after it: None; played out: " in line, line


def test_the_command_wants_a_piskvork_engine(tmp_path, capsys):
    assert main(["conversion", "--engine", "mcts:sims=5"]) == 2
    assert "engine:piskvork" in capsys.readouterr().err


def _one_won_position(tmp_path):
    """Write two positions, one won for the side to move, and return the file.

    White to move can block only one end of black's open three: black wins
    by fours whatever white does, but white, to move, has no win. Black to
    move after another stone wins at once."""
    game = find_game("gomoku")
    start = game.initial_state()
    codes = [game.parse_move(start, name) for name in ("h8", "a1", "i8", "a3", "j8")]
    positions = tmp_path / "positions.jsonl"
    positions.write_text(f"{json.dumps(codes)}\n{json.dumps(codes + [14])}\n")
    return str(positions)


def test_the_threats_command_counts_the_positions_the_threat_search_wins(
    tmp_path, capsys
):
    positions = _one_won_position(tmp_path)
    assert main(["threats", "--positions", positions, "--nodes", "1000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("won 1/2 with 1,000 VCF nodes each; seconds median ")
    assert out.rstrip().endswith(" nodes/s")


def test_the_threats_command_counts_the_positions_the_alphabeta_proves_won(
    tmp_path, capsys
):
    positions = _one_won_position(tmp_path)
    assert main(["threats", "--positions", positions, "--alphabeta", "0.1"]) == 0
    assert capsys.readouterr().out.startswith(
        "the alpha-beta proved 1/2 won in 0.1 s each; median depth "
    )


def test_a_win_our_search_proved_is_played_out_when_the_engine_sees_none(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    # Black's open three on the bottom line (b1 c1 d1): black to move makes
    # an open four, a win the search proves. The engine proves nothing and
    # blocks nothing (it takes the first free cell); black then makes five.
    moves = [1, 9 + 1, 2, 9 + 3, 3, 18 + 8]
    judge = Judge(prover_spec(tmp_path, "unsure"))
    verdict = judge_move(game, moves, "mcts-heavy:sims=200", 1.0, judge, seed=0)
    assert verdict.played_out and verdict.kept
    assert verdict.proof_after is None
    # Without a proof of ours nothing is played out, unless asked.
    random = judge_move(game, moves, "mcts:sims=20", 1.0, judge, seed=0)
    assert not random.played_out and not random.kept
    asked = judge_move(
        game, moves, "mcts:sims=20", 1.0, judge, seed=0, play_out_all=True
    )
    assert asked.played_out

"""The think, arena and warm subcommands (registered by mcts.cli.search)."""

import argparse
import json
import re

import pytest

from mcts.cli.main import main
from mcts.cli.search import add_commands, format_result
from mcts.games import find_game
from mcts.play.warmup import shown_progress
from mcts.search.config import SearchConfig, game_settings
from mcts.search.searcher import Searcher
from tests.cli.subcommands import run_subcommand
from tests.search.test_strict_proofs import FALSE_PROOF


def run(argv, capsys):
    return run_subcommand(add_commands, argv, capsys)


def test_think_prints_the_board_and_root_moves_by_visits(capsys):
    code, out = run(["think", "reversi", "f5", "--sims", "400", "--seed", "1"], capsys)
    assert code == 0
    assert "White (O) to move" in out or "white" in out.lower()
    rows = re.findall(r"^\s+([a-h][1-8])\s+(\d+)\s+([\d.]+)", out, re.MULTILINE)
    assert {move for move, _, _ in rows} == {"f4", "d6", "f6"}
    visits = [int(v) for _, v, _ in rows]
    assert visits == sorted(visits, reverse=True)
    assert re.search(r"^best: [a-h][1-8]", out, re.MULTILINE)
    assert "simulations: 400" in out


def test_a_model_for_other_options_is_said_to_add_nothing(capsys):
    """CLI QA: a 15x15 model on a 9x9 board was taken without a word, and
    added nothing (its tree, evaluation and shapes judge 15x15 alone)."""
    argv = ["think", "gomoku", "--size", "9", "--sims", "50", "--seed", "1"]
    code = main([*argv, "--player", "mcts-heavy:model=light"])
    err = capsys.readouterr().err
    assert code == 0
    assert err.strip() == (
        "note: model light was built for Gomoku(size=15, row=5, rule='freestyle'):"
        " it adds nothing to Gomoku(size=9, row=5, rule='freestyle')"
    )
    assert main([*argv[:2], "--sims", "50", "--player", "mcts-heavy:model=light"]) == 0
    assert capsys.readouterr().err == ""  # the model's own board


def test_think_marks_proven_moves(capsys):
    moves = ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7"]
    code, out = run(
        ["think", "gomoku", *moves, "--sims", "5000", "--seed", "1"], capsys
    )
    assert code == 0
    assert re.search(r"^\s+(g8|l8)\s+\d+\s+[\d.]+\s+proven win", out, re.MULTILINE)
    assert "(proven win)" in out


def test_think_says_a_win_found_against_the_replies_searched_is_not_proven():
    # The search that trusts its kept replies (no recheck) stops on the root
    # proof that pruned replies refute; think's table does not call it proven.
    game = find_game("gomoku")
    settings = game_settings(game, "heavy")._replace(recheck=False)
    state = game.play_all(FALSE_PROOF.split())
    searcher = Searcher(game, state, config=SearchConfig(game=settings), seed=1)
    out = format_result(searcher.search(simulations=3000))
    assert "(win found against the replies searched)" in out
    assert "proven win" not in out


def test_think_reports_an_illegal_move(capsys):
    assert main(["think", "reversi", "a1", "--sims", "10"]) == 2
    err = capsys.readouterr().err
    assert "ply 1" in err and "'a1' is not legal" in err


def test_arena_ends_with_the_summary_line(capsys):
    argv = [
        "arena",
        "gomoku",
        "--size",
        "7",
        "--row",
        "4",
        "--a",
        "mcts:sims=50",
        "--b",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    ]
    code, out = run(argv, capsys)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(
        r"A wins \d+, B wins \d+, draws \d+, A score [\d.]+% ± [\d.]+%, "
        r"[12] distinct games",
        last,
    )


def test_arena_variety_counts_positions_after_the_plies_asked(capsys):
    argv = ["arena", "gomoku", "--size", "7", "--row", "4", "--a", "random"]
    argv += ["--b", "random", "--games", "2", "--opening-plies", "0"]
    code, out = run(argv + ["--variety", "2,1"], capsys)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert re.fullmatch(r"distinct positions after ply 1: [12], 2: [12]", last)


def test_arena_record_keeps_each_game_as_a_json_line(capsys, tmp_path):
    record = tmp_path / "games.jsonl"
    argv = ["arena", "gomoku", "--size", "7", "--row", "4", "--a", "random"]
    argv += ["--b", "random", "--games", "3", "--seed", "2", "--quiet"]
    code, out = run(argv + ["--record", str(record)], capsys)
    assert code == 0
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [game["index"] for game in games] == [0, 1, 2]
    assert [game["a_black"] for game in games] == [True, False, True]
    wins = re.search(r"A wins (\d+), B wins (\d+), draws (\d+)", out)
    assert wins is not None
    assert sum(game["a_score"] == 1.0 for game in games) == int(wins.group(1))
    for game in games:
        assert game["winner"] in ("black", "white", None)
        assert len(game["moves"]) > game["opening_plies"]
    assert not (tmp_path / "games.jsonl.tmp").exists()


@pytest.mark.parametrize("plies", ["0,2", "two", ","])
def test_arena_rejects_bad_variety_plies(plies):
    parser = argparse.ArgumentParser(prog="mcts")
    add_commands(parser.add_subparsers(dest="command", required=True))
    argv = ["arena", "gomoku", "--a", "random", "--b", "random", "--variety", plies]
    with pytest.raises(SystemExit):
        parser.parse_args(argv)


def test_arena_rejects_a_bad_player_spec(capsys):
    parser = argparse.ArgumentParser(prog="mcts")
    add_commands(parser.add_subparsers(dest="command", required=True))
    with pytest.raises(SystemExit):
        parser.parse_args(["arena", "reversi", "--a", "deepblue", "--b", "random"])


def test_warm_compiles_the_rules_then_each_game_keeping_its_progress(capsys, tmp_path):
    status = tmp_path / "status.json"
    code, out = run(["warm", "--jobs", "1", "--status", str(status)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("getting the AI ready: gomoku, reversi, loa")
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "gomoku",
        "reversi",
        "loa",
    ]
    assert all(re.fullmatch(r"  \w+: ready in \d+\.\d s", line) for line in lines[1:])
    saved = json.loads(status.read_text())
    assert saved["rules"] and saved["finished"]
    assert {
        name: (g["state"], g["progress"]) for name, g in saved["games"].items()
    } == {name: ("ready", 1.0) for name in ("gomoku", "reversi", "loa")}


def test_warm_runs_games_in_processes_of_their_own(capsys, tmp_path):
    status = tmp_path / "status.json"
    code, out = run(
        ["warm", "--jobs", "2", "--status", str(status), "loa", "reversi"], capsys
    )
    assert code == 0
    assert sorted(line.split(":")[0].strip() for line in out.splitlines()[1:]) == [
        "loa",
        "reversi",
    ]
    assert set(json.loads(status.read_text())["games"]) == {"loa", "reversi"}


def test_warm_refuses_an_unknown_game(capsys):
    code, _ = run(["warm", "chess"], capsys)
    assert code == 2


def test_the_warm_ups_bar_keeps_moving_when_the_code_has_more_kernels():
    # A count measured before kernels were added parked the bar at 99% for
    # the last half minute of a fresh clone's first start.
    expected = 400
    shown = [shown_progress(n, expected) for n in range(0, 2 * expected)]
    assert shown[int(0.5 * expected)] == 0.5  # exact while the count holds
    assert all(a <= b for a, b in zip(shown, shown[1:], strict=False))
    assert max(shown) <= 0.99
    late = shown[expected : int(1.3 * expected) : 20]  # past the count
    assert all(a < b for a, b in zip(late, late[1:], strict=False)), late

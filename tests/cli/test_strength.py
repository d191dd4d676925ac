"""The ``strength`` command: its suite selection, its table line and its resume."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from mcts.games import find_game
from mcts.lab.commands import strength
from mcts.lab.commands.strength import (
    LADDER,
    NETWORKS,
    RAPFI_ODDS,
    SUITE,
    Bout,
    read_results,
    run_suite,
    selected,
)
from mcts.lab.main import main
from mcts.play.arena import run_match
from mcts.play.players import LEVELS, find_player

TINY = (Bout("reversi", "random reversi", "random"),)


def _args(results: Path, **overrides) -> argparse.Namespace:
    values = {
        "engines": None,
        "player": "random",
        "loa_baseline": "random",
        "games": 2,
        "seconds": 0.01,
        "workers": 1,
        "seed": 3,
        "only": "",
        "results": results,
    }
    values.update(overrides)
    return argparse.Namespace(**values)


def test_the_suite_is_the_acceptance_table():
    labels = [bout.label for bout in SUITE]
    assert labels == [
        "NTest depth 1",
        "NTest depth 4",
        "NTest depth 8",
        "NTest depth 12",
        "Rapfi 200 ms",
        "Rapfi 1000 ms",
        "LOA baseline",
    ]
    spec = SUITE[2].spec(Path("/E"), "x")
    assert spec == "engine:nboard:cmd=./ntest x,cwd=/E/ntest,depth=8"
    assert SUITE[-1].spec(None, "mcts-heavy:c=2") == "mcts-heavy:c=2"


def test_the_rapfi_odds_suite_plays_rapfi_at_turns_up_to_the_acceptance_one():
    assert [bout.label for bout in RAPFI_ODDS] == [
        "Rapfi 25 ms",
        "Rapfi 50 ms",
        "Rapfi 100 ms",
        "Rapfi 200 ms",
    ]
    assert {bout.game for bout in RAPFI_ODDS} == {"gomoku"}
    assert RAPFI_ODDS[1].spec(Path("/E"), "x") == (
        "engine:piskvork:cmd=/E/rapfi/pbrain-rapfi,ms=50"
    )
    # Its 200 ms match is the acceptance table's: a results file serves both.
    assert RAPFI_ODDS[-1] == SUITE[4]
    with pytest.raises(ValueError, match="needs --engines"):
        RAPFI_ODDS[0].spec(None, "x")


def test_the_ladder_plays_each_level_against_the_one_below_in_each_game():
    assert len(LADDER) == 3 * (len(LEVELS) - 1)
    first = LADDER[0]
    assert (first.game, first.label) == ("reversi", "level 2 vs 1")
    # The budgets are spelled out: a results file of another ladder never matches.
    assert first.player == "mcts-heavy:model=light,level=2,sims=100"
    assert first.spec(None, "x") == "mcts-heavy:model=light,level=1,sims=10"
    game = find_game("reversi")
    for bout in LADDER:
        for spec in (bout.player, bout.spec(None, "x")):
            player = find_player(spec, game)
            level = LEVELS[int(spec.split("level=")[1].split(",")[0])]
            assert player.level == level


def test_the_networks_suite_plays_each_shipped_network_on_its_board():
    assert [bout.label for bout in NETWORKS] == [
        "net-8x5 vs heavy",
        "net-8x5 vs 5000",
        "net-10x4 vs heavy",
        "net-10x4 vs 5000",
        "net-15x5 vs heavy",
        "net-15x5 vs 5000",
    ]
    heavy, playouts = NETWORKS[:2]
    assert heavy.options == playouts.options == (("size", 8), ("row", 5))
    assert NETWORKS[2].options == (("size", 10), ("row", 4))
    assert (heavy.player, heavy.spec(None, "x"), heavy.seconds) == (
        "mcts-net:model=net-8x5",
        "mcts-heavy:model=light",
        0.5,
    )
    game = find_game("gomoku", size=8, row=5)
    ours = find_player(playouts.player, game)  # the shipped model loads
    theirs = find_player(playouts.spec(None, "x"), game)
    assert (ours.level.simulations, ours.level.seconds) == (400, None)
    assert (theirs.level.simulations, theirs.level.seconds) == (5000, None)


def test_a_bout_plays_on_its_board_at_its_time(tmp_path, monkeypatch):
    played = {}

    def match(game, a, b, **kwargs):
        played.update(options=game.options, seconds=kwargs["seconds"])
        return run_match(game, a, b, **kwargs)

    monkeypatch.setattr(strength, "run_match", match)
    bout = Bout("gomoku", "small", "random", "random", (("size", 6), ("row", 4)), 0.02)
    (row,) = run_suite(_args(tmp_path / "r.jsonl", seconds=9.0), (bout,))
    assert played == {
        "options": {"size": 6, "row": 4, "rule": "freestyle"},
        "seconds": 0.02,
    }
    assert row["seconds"] == 0.02


def test_a_bout_may_name_its_own_player(tmp_path):
    bout = Bout("reversi", "sims", "mcts:sims=5", player="mcts:sims=50")
    (row,) = run_suite(_args(tmp_path / "r.jsonl", player="ignored"), (bout,))
    assert row["player"] == "mcts:sims=50"


def test_the_same_match_in_another_game_is_not_taken_from_the_results(tmp_path):
    results = tmp_path / "r.jsonl"
    bouts = tuple(
        Bout(game, "same label", "random", player="random")
        for game in ("reversi", "loa")
    )
    run_suite(_args(results), bouts[:1])
    rows = run_suite(_args(results), bouts)
    assert [row["game"] for row in rows] == ["reversi", "loa"]
    assert len(read_results(results)) == 2  # the LOA match was played


def test_an_engine_match_needs_the_engines_folder():
    with pytest.raises(ValueError, match="--engines"):
        SUITE[0].spec(None, "x")


def test_only_selects_by_game_or_label_and_refuses_unknown_names():
    assert [b.label for b in selected(SUITE, "gomoku")] == [
        "Rapfi 200 ms",
        "Rapfi 1000 ms",
    ]
    assert [b.label for b in selected(SUITE, "ntest depth 8, loa")] == [
        "NTest depth 8",
        "LOA baseline",
    ]
    assert selected(SUITE, "") == list(SUITE)
    with pytest.raises(ValueError, match="chess"):
        selected(SUITE, "chess")


def test_a_match_is_played_recorded_and_not_played_again(tmp_path, capsys, monkeypatch):
    results = tmp_path / "results.jsonl"
    rows = run_suite(_args(results), TINY)
    assert len(rows) == 1
    row = rows[0]
    assert row["games"] == 2
    assert row["wins"] + row["losses"] + row["draws"] == 2
    assert read_results(results) == rows
    line = capsys.readouterr().out
    assert "random reversi" in line and "s/move ours" in line

    def no_match(*args, **kwargs):
        raise AssertionError("a finished match was played again")

    monkeypatch.setattr(strength, "run_match", no_match)
    assert run_suite(_args(results), TINY) == rows
    assert "(from " in capsys.readouterr().out
    # Other settings are another match.
    with pytest.raises(AssertionError, match="played again"):
        run_suite(_args(results, seed=4), TINY)


def test_a_damaged_results_file_is_reported_with_its_line(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text('{"label": "x"}\n{oops\n')
    with pytest.raises(ValueError, match="line 2"):
        read_results(results)


def test_the_command_refuses_an_engine_match_without_engines(tmp_path, capsys):
    code = main(
        ["strength", "--only", "NTest depth 1", "--results", str(tmp_path / "r")]
    )
    assert code == 2
    assert "--engines" in capsys.readouterr().err

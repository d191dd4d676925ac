"""Matches: colours, the openings they play, the tally and its confidence
interval (the openings themselves: test_openings.py)."""

import numpy as np
import pytest

from mcts.games import find_game
from mcts.play import openings
from mcts.play.arena import (
    GameRecord,
    distinct_positions,
    play_game,
    run_match,
    tally,
)
from mcts.play.players import find_player


def _record(index, score, moves=()):
    return GameRecord(index, index % 2 == 0, None, score, tuple(moves), 0)


def test_tally_counts_wins_draws_and_a_95_percent_interval():
    result = tally([_record(i, s) for i, s in enumerate([1.0, 1.0, 0.0, 0.5])])
    assert (result.a_wins, result.b_wins, result.draws, result.games) == (2, 1, 1, 4)
    assert result.score == pytest.approx(0.625)
    expected_ci = 1.96 * np.std([1, 1, 0, 0.5], ddof=1) / 2
    assert result.ci95 == pytest.approx(expected_ci)
    assert result.summary() == (
        "A wins 2, B wins 1, draws 1, A score 62.5% ± 46.9%, 1 distinct games"
    )


@pytest.mark.parametrize(("games", "half_width"), [(2, 0.377), (100, 0.026)])
def test_a_match_whose_games_all_scored_the_same_is_not_certain(games, half_width):
    """CLI QA: two wins printed "A score 100.0% ± 0.0%". With no spread to
    measure, the interval is Agresti and Coull's (two wins and two losses
    added)."""
    result = tally([_record(i, 1.0) for i in range(games)])
    assert result.ci95 == pytest.approx(half_width, abs=0.001)
    assert tally([_record(i, 0.0) for i in range(games)]).ci95 == pytest.approx(
        result.ci95
    )


def test_tally_counts_the_distinct_games():
    lines = [("f5", "d6"), ("f5", "f6"), ("f5", "d6"), ("d3",)]
    result = tally([_record(i, 1.0, m) for i, m in enumerate(lines)])
    assert result.distinct == 3


def test_only_standard_gomoku_opens_balanced_and_only_by_default(monkeypatch):
    drawn = []
    monkeypatch.setattr(
        openings, "balanced_opening", lambda game, rng: drawn.append(1) or [112]
    )
    gomoku = find_game("gomoku")
    result = run_match(gomoku, "random", "random", games=2, seed=1)
    assert drawn == [1] and result.records[0].moves[0] == "h8"
    run_match(gomoku, "random", "random", games=2, seed=1, opening_plies=2)
    run_match(find_game("gomoku", size=9), "random", "random", games=2, seed=1)
    assert drawn == [1]


def test_play_game_plays_to_the_end_from_the_opening():
    game = find_game("reversi")
    black = find_player("random:seed=1", game)
    white = find_player("random:seed=2", game)
    opening = [game.parse_move(game.initial_state(), "f5")]
    winner, moves, reason = play_game(game, black, white, opening)
    assert moves[0] == "f5"
    state = game.play_all(moves)
    assert game.is_terminal(state)
    assert winner == (game.outcome(state).winner)
    assert reason == game.outcome(state).reason


def test_a_match_alternates_colours_over_shared_openings():
    game = find_game("gomoku", size=7, row=4)
    result = run_match(game, "random", "random", games=4, seed=3, opening_plies=2)
    records = result.records
    assert [r.a_black for r in records] == [True, False, True, False]
    assert records[0].moves[:2] == records[1].moves[:2]
    assert records[2].moves[:2] == records[3].moves[:2]
    assert result.games == 4


def test_mcts_beats_random_in_parallel_workers():
    game = find_game("reversi")
    seen = []
    result = run_match(
        game,
        "mcts",
        "random",
        games=4,
        simulations=300,
        workers=2,
        seed=1,
        on_game=seen.append,
    )
    assert result.a_wins >= 3
    assert len(seen) == 4


def test_a_match_with_a_bad_spec_fails_before_playing():
    with pytest.raises(ValueError, match="unknown player"):
        run_match(find_game("reversi"), "mcts", "stockfish", games=2)


def test_distinct_positions_counts_symmetric_positions_once():
    game = find_game("reversi")
    # f5 and d3 are mirror images of one another; c4 then c3 / c5 differ.
    lines = [("f5",), ("d3",), ("c4", "c3"), ("c4", "e3"), ("f5", "f6")]
    records = [_record(i, 1.0, m) for i, m in enumerate(lines)]
    assert distinct_positions(game, records, (1, 2)) == {1: 1, 2: 2}


def test_the_match_reports_each_players_time_per_move():
    game = find_game("reversi")
    result = run_match(game, "random", "mcts", games=2, seconds=0.02)
    a_seconds, b_seconds = result.seconds_per_move()
    assert all(r.a_moves > 0 and r.b_moves > 0 for r in result.records)
    # The searcher thinks about its 0.02 s a move; the random player at once.
    assert b_seconds > 0.01 and a_seconds < b_seconds

"""Fitting the Gomoku alpha-beta's shape weights to its own games: the games
and the file that keeps them, the quiet positions, and a fit that lowers its loss."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.lab.main import main
from mcts.models import store
from mcts.models.model import Model
from mcts.search.config import SearchConfig
from mcts.search.gomoku.config import GomokuSearch
from mcts.search.gomoku.weights import HAND_WEIGHTS, LEARNT_SHAPES, from_bytes
from mcts.search.searcher import Searcher
from mcts.training import gomoku_shapes as sf


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    games_file = tmp_path_factory.mktemp("fit") / "games.npz"
    found = sf.play_games(4, 0.002, HAND_WEIGHTS, seed=5, games_file=games_file)
    return found, games_file


def test_self_play_keeps_every_position_with_the_result_of_its_game(positions):
    found, _ = positions
    assert sorted(set(found.game.tolist())) == [0, 1, 2, 3]
    game = find_game("gomoku")
    for index in range(4):
        mine = found.game == index
        # Each game's positions follow one another, black and white in turn,
        # from a balanced opening of three stones.
        stones = found.stones[mine]
        assert (np.count_nonzero(stones, axis=1) == np.arange(3, 3 + len(stones))).all()
        assert (np.diff(found.side[mine]) != 0).all()
        assert len(set(found.result[mine].tolist())) == 1
    assert set(found.result.tolist()) <= {0.0, 0.5, 1.0}
    assert found.stones.shape[1] == game.options["size"] ** 2


def test_a_run_with_the_same_settings_reuses_the_games_file(positions):
    found, games_file = positions
    again = sf.play_games(4, 0.002, HAND_WEIGHTS, seed=5, games_file=games_file)
    assert np.array_equal(again.stones, found.stones)  # nothing played again
    with pytest.raises(ValueError, match="other settings"):
        sf.play_games(4, 0.003, HAND_WEIGHTS, seed=5, games_file=games_file)


def test_quiet_positions_leave_out_fives_and_winning_fours_and_see_the_mover(
    positions,
):
    found, _ = positions
    quiet = sf.quiet_positions(found, 15, 5)
    assert 0 < len(quiet.me) < len(found)
    # The last position of a game won by a five had a four to complete.
    assert len(quiet.me) <= len(found) - 4
    # The result is the mover's: black's where black moves, else white's.
    for i in range(len(quiet.me)):
        black = found.result[found.game == quiet.game[i]][0]
        assert quiet.result[i] == (black if quiet.me[i] == 0 else 1.0 - black)


def test_the_fit_lowers_the_loss_it_fits(positions):
    found, _ = positions
    quiet = sf.quiet_positions(found, 15, 5)
    weights, record = sf.fit(quiet, HAND_WEIGHTS, log=lambda _line: None)
    assert record["loss"] <= record["loss_before"]
    assert record["positions"] == len(quiet.me)
    assert record["scale"] in sf.SCALES
    assert (weights >= 0).all()
    assert (weights[list(LEARNT_SHAPES)] >= sf.MIN_SHAPE_WEIGHT).all()
    assert sf.loss(
        quiet.take(quiet.game % sf.HOLD_OUT != 0), weights, record["scale"]
    ) == (pytest.approx(record["loss"], abs=1e-5))


def test_fit_shapes_puts_the_weights_into_a_gomoku_model_with_its_command(
    tmp_path, capsys
):
    game = find_game("gomoku")
    folder = tmp_path / "light"
    config = SearchConfig(game=GomokuSearch(alphabeta=0.0))
    store.save(
        Model(game, Searcher(game, config=config).tree, game.initial_state()), folder
    )
    code = main(
        [
            "fit-shapes",
            "gomoku",
            "--model",
            str(folder),
            "--games",
            "10",
            "--seconds",
            "0.001",
            "--games-file",
            str(tmp_path / "c.npz"),
            "--quiet",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "10 games" in out and "held out" in out
    loaded = store.load(folder, check="fast")
    assert loaded.shape_weights is not None
    assert loaded.shape_weights.fitted["command"].startswith(
        "python -m mcts.lab fit-shapes gomoku --model"
    )
    assert loaded.shape_weights.fitted["started_from"] == "hand"
    assert (tmp_path / "c.npz").exists()  # kept, to fit again without playing
    assert from_bytes((folder / "shapes.npz").read_bytes()) == loaded.shape_weights

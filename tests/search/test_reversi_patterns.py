"""The Reversi pattern evaluation: indices against a slow reference, exact
symmetry, the weights file, the training's pieces, and the search using it."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from mcts.games import find_game
from mcts.games.symmetry import EIGHT_BY_EIGHT, map_bitboards
from mcts.lab.main import main
from mcts.models.store import load_shared, model_path
from mcts.search.reversi import patterns as rp
from mcts.search.reversi.config import PATTERN_C
from mcts.search.searcher import GAME_C, Searcher
from mcts.training import reversi_patterns as training


def _random_positions(count: int, seed: int) -> list[tuple[int, int]]:
    """Return (own, opp) bitboards with random discs (any pattern of them)."""
    rng = np.random.default_rng(seed)
    positions = []
    for _ in range(count):
        cells = rng.integers(0, 3, 64)
        own = sum(1 << sq for sq in range(64) if cells[sq] == 1)
        opp = sum(1 << sq for sq in range(64) if cells[sq] == 2)
        positions.append((own, opp))
    return positions


def _reference_indices(own: int, opp: int) -> list[int]:
    """The pattern indices computed the slow way: each instance's squares
    read as base-3 digits, the first square the lowest."""
    out = []
    for inst in range(rp.INSTANCES):
        index = 0
        for k in range(rp.INSTANCE_LENGTH[inst]):
            sq = int(rp.INSTANCE_SQUARES[inst, k])
            digit = 1 if own >> sq & 1 else 2 if opp >> sq & 1 else 0
            index += digit * 3**k
        out.append(int(rp.INSTANCE_OFFSET[inst]) + index)
    return out


def test_the_pattern_set_has_every_image_of_each_pattern_and_shares_tables():
    # edge+2x, 3x3, 2x5, diagonals 7..4 and rows 2..4 have 8 images; the
    # long diagonal 4 (it is its own image under two symmetries).
    assert rp.INSTANCES == 10 * 8 + 4
    assert (
        rp.STAGE_WEIGHTS == 2 * 3**10 + 3**9 + 4 * 3**8 + 3**7 + 3**6 + 3**5 + 3**4 + 1
    )


def test_pattern_indices_match_a_slow_reference_on_random_positions():
    out = np.empty(rp.INSTANCES, dtype=np.int64)
    for own, opp in _random_positions(50, seed=1):
        rp.pattern_indices(np.uint64(own), np.uint64(opp), out)
        assert out.tolist() == _reference_indices(own, opp)


def test_the_score_is_the_same_for_the_eight_images_of_a_position():
    rng = np.random.default_rng(2)
    weights = rng.normal(size=(rp.STAGES, rp.STAGE_WEIGHTS)).astype(np.float32)
    for own, opp in _random_positions(20, seed=3):
        state = np.array([own, opp, 0], dtype=np.uint64)
        scores = []
        for image in EIGHT_BY_EIGHT:
            mapped = map_bitboards(state, image)
            scores.append(rp.pattern_score(mapped[0], mapped[1], weights))
        assert max(scores) - min(scores) < 1e-3 * max(1.0, abs(scores[0]))


def test_the_weights_file_round_trips_within_the_quantum():
    rng = np.random.default_rng(4)
    weights = (rng.normal(size=(rp.STAGES, rp.STAGE_WEIGHTS)) * 5).astype(np.float32)
    data = rp.PatternWeights(weights, scale=7.0).to_bytes()
    assert rp.PatternWeights(weights, scale=7.0).to_bytes() == data  # deterministic
    back = rp.from_bytes(data)
    assert back.scale == 7.0
    assert np.abs(back.weights - weights).max() <= rp.QUANTUM / 2 + 1e-6


def test_a_weights_file_of_the_wrong_shape_is_refused():
    small = rp.PatternWeights(np.zeros((2, 5), dtype=np.float32)).to_bytes()
    with pytest.raises(ValueError, match="shape"):
        rp.from_bytes(small)
    with pytest.raises(ValueError, match="not a weights file"):
        rp.from_bytes(b"not a zip")


def _zero_weights():
    return np.zeros((rp.STAGES, rp.STAGE_WEIGHTS), dtype=np.float32)


@pytest.mark.parametrize("policy", ["rollouts", "patterns"])
def test_self_play_positions_are_legal_and_cover_the_whole_game(policy):
    size = 3000
    own = np.empty(size, dtype=np.uint64)
    opp = np.empty(size, dtype=np.uint64)
    game_of = np.empty(size, dtype=np.int64)
    table = rp.no_patterns() if policy == "rollouts" else _zero_weights()
    count = training.play_games(
        40, 5, 0, training.Positions(own, opp, game_of), table, 2.0, 1.0
    )
    assert 40 * 40 < count <= 40 * 60
    assert not np.any(own[:count] & opp[:count])
    discs = [
        bin(int(a | b)).count("1")
        for a, b in zip(own[:count], opp[:count], strict=True)
    ]
    assert min(discs) == 4 and max(discs) >= 60


def test_the_policy_at_temperature_0_plays_the_move_of_the_best_1_ply_value():
    # Near the end, with zero weights a move that ends the game is worth its
    # exact margin and any other 0: find positions where those differ.
    own = np.empty(12000, dtype=np.uint64)
    opp = np.empty(12000, dtype=np.uint64)
    game_of = np.empty(12000, dtype=np.int64)
    count = training.play_games(
        200, 9, 0, training.Positions(own, opp, game_of), rp.no_patterns(), 0.0, 1.0
    )
    weights = _zero_weights()
    checked = 0
    for mine, theirs in zip(own[:count], opp[:count], strict=True):
        if bin(int(mine | theirs)).count("1") < 60:
            continue
        values = {}
        for square in range(64):
            bit = np.uint64(1) << np.uint64(square)
            if not training.mobility(mine, theirs) & bit:
                continue
            state = np.array([mine, theirs, 0], dtype=np.uint64)  # mine as black
            training.reversi.apply_move(state, square)
            values[square] = -training._child_value(state[1], state[0], weights)
        if len(set(values.values())) < 2:
            continue
        move = training._policy_move(mine, theirs, weights, 0.0)
        assert values[move] == max(values.values())
        checked += 1
    assert checked >= 3


def test_a_bootstrap_label_takes_the_best_move_and_counts_a_finished_game():
    # White to move can take h8 and end the game 63-1 (plain count); every
    # other square is full, so that is the label whatever the weights.
    game = find_game("reversi")
    state = game.parse_state("o" * 62 + "x." + " w").array
    labels = np.empty(1)
    weights = np.zeros((rp.STAGES, rp.STAGE_WEIGHTS), dtype=np.float32)
    training.bootstrap_labels(state[1:2], state[0:1], weights, labels)
    assert labels[0] == 64.0


def test_the_stage_fit_recovers_planted_weights():
    rng = np.random.default_rng(6)
    planted = np.zeros(rp.STAGE_WEIGHTS)
    positions = _random_positions(400, seed=7)
    own = np.array([p[0] for p in positions], dtype=np.uint64)
    opp = np.array([p[1] for p in positions], dtype=np.uint64)
    index = np.empty((len(positions), rp.INSTANCES), dtype=np.int64)
    training._indices(own, opp, index)
    planted[np.unique(index)] = rng.normal(size=len(np.unique(index)))
    planted[rp.BIAS] = 3.0
    labels = np.empty(len(positions))
    training._predict(index, planted, labels)
    fitted = training.fit_stage(index, labels, np.zeros(rp.STAGE_WEIGHTS), ridge=1e-3)
    predicted = np.empty(len(positions))
    training._predict(index, fitted, predicted)
    assert np.sqrt(np.mean((predicted - labels) ** 2)) < 0.05 * labels.std()


# ---- the shipped weights in the search ---------------------------------------------
@pytest.fixture(scope="module")
def shipped():
    return load_shared(model_path("reversi", "light"), check="fast").patterns


def test_the_light_model_carries_pattern_weights_that_say_who_is_winning(shipped):
    # Self-play positions at 14 empties, solved exactly: where one side wins
    # by 16 discs or more, the evaluation names the winner.
    own = np.empty(20_000, dtype=np.uint64)
    opp = np.empty(20_000, dtype=np.uint64)
    game_of = np.empty(20_000, dtype=np.int64)
    count = training.play_games(
        400, 11, 0, training.Positions(own, opp, game_of), rp.no_patterns(), 2.0, 1.0
    )
    empties = training._empties(own[:count], opp[:count])
    pick = np.flatnonzero(empties == 14)[:150]
    margins = np.empty(len(pick))
    training.solve_labels(own[pick], opp[pick], margins)
    clear = np.abs(margins) >= 16
    scores = np.array([rp.pattern_score(own[i], opp[i], shipped.weights) for i in pick])
    assert clear.sum() >= 50
    assert np.mean(np.sign(scores[clear]) == np.sign(margins[clear])) >= 0.9


def test_the_search_with_patterns_takes_a_free_corner(shipped):
    game = find_game("reversi")
    # Black to move: a1 takes the corner and the top edge's four white discs.
    rows = [".oooox..", "........", "...o....", "...ox...", "...xo...", "........"]
    state = game.parse_state("".join(rows) + "." * 16 + " b")
    searcher = Searcher(game, state, seed=1)
    searcher.patterns = shipped
    assert (searcher.cutoff_plies, searcher.c) == (0, PATTERN_C)
    assert Searcher(game, state, seed=1).c == GAME_C["reversi"] != PATTERN_C
    result = searcher.search(simulations=2000)
    assert result.move == "a1"
    assert result.value > 0.7


class _StopAfter:
    """A progress bar that interrupts the training after a few stages."""

    def __init__(self, total, desc, stages):
        self.desc, self.stages, self.seen = desc, stages, 0

    def update(self, n=1):
        self.seen += n
        if self.desc == "fitting stages" and self.seen >= self.stages:
            raise KeyboardInterrupt

    def close(self):
        pass


def test_an_interrupted_training_resumes_from_its_checkpoint(tmp_path):
    checkpoint = tmp_path / "run.npz"
    whole = training.train(positions=2000, seed=3)
    with pytest.raises(KeyboardInterrupt):
        training.train(
            positions=2000,
            seed=3,
            checkpoint=checkpoint,
            bar=lambda total, desc: _StopAfter(total, desc, 4),
        )
    assert checkpoint.exists()
    with pytest.raises(ValueError, match="other settings"):
        training.train(positions=2000, seed=4, checkpoint=checkpoint)
    resumed = training.train(positions=2000, seed=3, checkpoint=checkpoint)
    assert not checkpoint.exists()
    assert np.array_equal(resumed.weights, whole.weights)
    assert [r["holdout_rmse"] for r in resumed.fitted["stages"]] == [
        r["holdout_rmse"] for r in whole.fitted["stages"]
    ]


def test_train_patterns_plays_each_round_with_the_weights_of_the_round_before(
    tmp_path, capsys
):
    model = tmp_path / "model"
    shutil.copytree(model_path("reversi", "light"), model)
    argv = ["train-patterns", "reversi", "--model", str(model), "--positions"]
    argv += ["2000", "--rounds", "2", "--solve-empties", "8", "--quiet"]
    assert main([*argv, "--checkpoint", str(tmp_path / "run.npz")]) == 0
    assert "round 2 of 2" in capsys.readouterr().out
    fitted = load_shared(model).patterns.fitted
    assert fitted["rounds"] == ["rollouts", "patterns, 2.0 discs, 100% of the games"]
    assert fitted["command"].endswith(
        "--quiet --checkpoint " + str(tmp_path / "run.npz")
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]  # no checkpoints

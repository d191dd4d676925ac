"""The MIA-style LOA evaluation: features on hand-computed positions, symmetry."""

import numpy as np
import pytest

from mcts.games import find_game
from mcts.search.loa.evaluation import (
    FEATURE_COUNT,
    FEATURE_NAMES,
    WEIGHTS,
    centralisation,
    centre_of_mass,
    concentration,
    euler_number,
    evaluation,
    evaluations_per_second,
    features,
    groups,
    mobility,
    walls,
)

GAME = find_game("loa")


def board(*squares: str) -> np.uint64:
    """Return the bitboard of chess-style ``squares`` ('a1' is bit 0)."""
    bits = 0
    for name in squares:
        bits |= 1 << ((int(name[1]) - 1) * 8 + "abcdefgh".index(name[0]))
    return np.uint64(bits)


@pytest.mark.parametrize(
    ("squares", "expected"),
    [
        (("d4",), 1.0),
        (("a1",), 1.0),  # a corner piece: windows off the board count too
        (("h8",), 1.0),
        (("d4", "e5"), 1.0),  # diagonal neighbours are one 8-connected group
        (("a8", "b7"), 1.0),
        (("d4", "f4"), 2.0),
        (("a1", "h8", "h1", "a8"), 4.0),
        (("d4", "d5", "e4", "e5"), 1.0),
        # a ring of eight around an empty e5: one group, one hole
        (("d4", "e4", "f4", "d5", "f5", "d6", "e6", "f6"), 0.0),
    ],
)
def test_euler_number_counts_groups_minus_holes(squares, expected):
    assert euler_number(board(*squares)) == expected


def test_euler_number_is_groups_minus_holes_on_random_pieces():
    rng = np.random.default_rng(3)
    for _ in range(300):
        # three pieces cannot enclose a square: the Euler number is the groups
        three = np.uint64(0)
        for sq in rng.choice(64, 3, replace=False):
            three |= np.uint64(1) << np.uint64(sq)
        assert euler_number(three) == groups(three)
    for state in random_positions(30, 4):
        for pieces in state.array[:2]:
            assert euler_number(pieces) <= groups(pieces)


def test_centre_of_mass_and_concentration_by_hand():
    assert centre_of_mass(board("a1", "h8")) == (3.5, 3.5)
    assert centre_of_mass(board("a1", "c1")) == (0.0, 1.0)
    # a1 and h1: centre (0, 3.5), 3.5 away each; two pieces could be 1 apart
    assert concentration(board("a1", "h1")) == pytest.approx((7.0 - 1.0) / 2)
    # a 3x3 block is as close as nine pieces can be
    block = board("c3", "d3", "e3", "c4", "d4", "e4", "c5", "d5", "e5")
    assert concentration(block) == 0.0
    assert concentration(board("d4")) == 0.0


def test_centralisation_ranks_centre_over_edge_over_corner():
    assert centralisation(board("d4")) > centralisation(board("b2"))
    assert centralisation(board("b2")) > centralisation(board("a4"))
    assert centralisation(board("a4")) > centralisation(board("a1"))
    assert centralisation(board("d4", "a1")) == pytest.approx(
        (centralisation(board("d4")) + centralisation(board("a1"))) / 2
    )


def test_mobility_weighs_captures_double_and_edge_moves_half():
    # black d4 alone with white d6: along the file 2 pieces -> d4-d6 captures
    # (2); d4-d2 (1); rank: 1 piece -> c4, e4 (1 each); diagonals: c3, e5,
    # c5, e3 (1 each).
    assert mobility(board("d4"), board("d6")) == 2.0 + 1.0 + 2 + 4
    # a1 alone with white h8: a2, b1 (edge, 0.5 each); diagonal 2 -> c3 (1)
    assert mobility(board("a1"), board("h8")) == 0.5 + 0.5 + 1.0


def test_walls_count_edge_pieces_hemmed_in():
    assert walls(board("b1", "b2", "c2", "d2", "d1"), board("c1")) == 1
    assert walls(board("b2", "c2"), board("c1")) == 0  # d2 is open
    assert walls(board("b2"), board("a1")) == 1  # a corner's only inward square


def random_positions(count, seed):
    """Yield positions from random games (a few plies to a few dozen)."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state = GAME.initial_state()
        for _ in range(int(rng.integers(4, 40))):
            if GAME.is_terminal(state):
                break
            legal = GAME.legal_moves(state)
            state = GAME.apply(state, legal[int(rng.integers(len(legal)))])
        yield state


def test_evaluation_is_the_weighted_sum_of_the_features():
    out = np.empty(FEATURE_COUNT)
    for state in random_positions(20, 1):
        black, white, side = state.array[0], state.array[1], int(state.array[2])
        features(black, white, side, out)
        assert evaluation(black, white, side, WEIGHTS) == pytest.approx(
            float(out @ WEIGHTS)
        )
    assert len(FEATURE_NAMES) == FEATURE_COUNT == WEIGHTS.shape[0]


def test_start_position_is_even_but_for_the_tempo():
    state = GAME.initial_state().array
    out = np.empty(FEATURE_COUNT)
    features(state[0], state[1], 0, out)
    expected = np.zeros(FEATURE_COUNT)
    expected[FEATURE_NAMES.index("tempo")] = 1.0
    assert out == pytest.approx(expected)


def test_board_symmetries_keep_the_score_and_colour_swaps_negate_it():
    for state in random_positions(30, 2):
        black, white, side = state.array[0], state.array[1], int(state.array[2])
        score = evaluation(black, white, side, WEIGHTS)
        for image in GAME.symmetries():
            mapped = GAME.map_state(state, image).array
            assert evaluation(mapped[0], mapped[1], side, WEIGHTS) == pytest.approx(
                score
            )
            # the same board seen with the colours and the turn swapped
            assert evaluation(mapped[1], mapped[0], 1 - side, WEIGHTS) == pytest.approx(
                -score
            )


def test_a_connected_side_against_a_scattered_one_scores_far_ahead():
    black = board("d4", "e4", "d5", "e5", "c4", "f5")
    white = board("a2", "h2", "a7", "h7", "c8", "f1")
    assert evaluation(black, white, 1, WEIGHTS) > 3.0
    assert evaluation(white, black, 0, WEIGHTS) < -3.0


def test_the_speed_report_counts_evaluations():
    assert evaluations_per_second(positions=20, seed=1) > 1000

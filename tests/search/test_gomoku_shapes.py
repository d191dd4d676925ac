"""Line shapes: named right, ranked in order, symmetric, any row length."""

import numpy as np
import pytest

from mcts.games.gomoku import Gomoku
from mcts.search.gomoku.shapes import (
    FIVE,
    FOUR,
    FOUR_FORK,
    NONE,
    OPEN_FOUR,
    OPEN_THREE,
    SHAPE_WEIGHTS,
    THREE,
    THREE_FORK,
    TWO,
    board_cells,
    quiet_leaf,
    shape_at,
    shape_move_score,
    shape_value,
    side_scores,
)
from mcts.search.searcher import Searcher

from .configs import config

GAME = Gomoku()
ROW_DIRECTION = 0  # along a row (column step 1)


def cells_of(game, black, white=""):
    """Return the int64 cells with the named stones."""
    state = game.initial_state()
    cells = board_cells(state.array)
    for names, colour in ((black, 1), (white, 2)):
        for name in names.split():
            cells[game.parse_move(state, name)] = colour
    return cells


def shape(game, black, white, move):
    cells = cells_of(game, black, white)
    code = game.parse_move(game.initial_state(), move)
    return shape_at(cells, game.size, game.row, 1, code, ROW_DIRECTION)


@pytest.mark.parametrize(
    ("black", "white", "move", "expected"),
    [
        ("h8 i8 j8 k8", "", "g8", FIVE),
        ("h8 i8 j8 k8 m8", "", "l8", FIVE),  # six in a row wins: freestyle
        ("h8 i8 j8", "", "g8", OPEN_FOUR),
        ("h8 i8 j8", "f8", "g8", FOUR),
        ("h8 j8 k8", "", "i8", OPEN_FOUR),
        ("h8 i8", "", "g8", OPEN_THREE),
        ("h8 i8", "f8", "g8", THREE),
        ("h8 j8", "", "g8", OPEN_THREE),  # a split three
        ("h8", "", "g8", TWO),
        ("", "", "h8", NONE),
        ("h8 i8 j8", "f8 l8", "g8", FOUR),
    ],
)
def test_shapes_along_a_line_are_named(black, white, move, expected):
    assert shape(GAME, black, white, move) == expected


def test_row_length_four_shifts_every_shape_by_one():
    game = Gomoku(size=10, row=4)
    assert shape(game, "e5 f5", "", "d5") == OPEN_FOUR
    assert shape(game, "e5 f5 g5", "", "d5") == FIVE
    assert shape(game, "e5", "", "d5") == OPEN_THREE


def test_an_open_four_outscores_a_closed_four_and_a_fork_its_parts():
    cells = cells_of(GAME, "h8 i8 j8 c3", "a1 f8 o15")
    size, row = GAME.size, GAME.row
    state = GAME.initial_state()
    open_four = cells_of(GAME, "h8 i8 j8 c3", "a1 o15 o14")
    g8 = GAME.parse_move(state, "g8")
    assert shape_move_score(open_four, size, row, 1, g8) > shape_move_score(
        cells, size, row, 1, g8
    )
    # g8 on a row three and a column three (open): a double open three
    fork = cells_of(GAME, "h8 i8 g9 g10", "a1 o15 o14 a15")
    single = cells_of(GAME, "h8 i8 a9 a11", "a1 o15 o14 a15")
    assert shape_move_score(fork, size, row, 1, g8) > 2 * shape_move_score(
        single, size, row, 1, g8
    )


def test_blocking_counts_a_little_less_than_building():
    cells = cells_of(GAME, "h8 i8 j8", "a1 o1 a15")
    g8 = GAME.parse_move(GAME.initial_state(), "g8")
    build = shape_move_score(cells, GAME.size, GAME.row, 1, g8)
    block = shape_move_score(cells, GAME.size, GAME.row, 2, g8)
    assert 0 < block < build


def test_mirrored_positions_score_alike():
    state = GAME.play_all(["h8", "i9", "j8", "h9", "g7"])
    for image in GAME.symmetries():
        mapped = GAME.map_state(state, image)
        assert shape_value(mapped.array) == pytest.approx(shape_value(state.array))
        cells, mapped_cells = board_cells(state.array), board_cells(mapped.array)
        for cell in np.flatnonzero(cells == 0)[:40]:
            assert shape_move_score(
                mapped_cells, GAME.size, GAME.row, 2, image[cell]
            ) == pytest.approx(shape_move_score(cells, GAME.size, GAME.row, 2, cell))


def _worth_by_definition(cells, size, row, colour, cell):
    """A stone's worth as the module defines it: SHAPE_WEIGHTS of its four
    lines' shape_at codes, plus the fork bonus."""
    shapes = [shape_at(cells, size, row, colour, cell, d) for d in range(4)]
    fours = sum(FOUR <= code <= OPEN_FOUR for code in shapes)
    threes = shapes.count(OPEN_THREE)
    worth = sum(SHAPE_WEIGHTS[code] for code in shapes)
    if fours >= 2 or (fours >= 1 and threes >= 1):
        worth += FOUR_FORK
    elif threes >= 2:
        worth += THREE_FORK
    return worth


@pytest.mark.parametrize(("size", "row"), [(15, 5), (9, 5), (10, 4), (7, 3), (8, 6)])
def test_side_scores_read_both_colours_as_shape_at_defines_them(size, row):
    # side_scores reads both colours in one pass and skips shape_at's full
    # reading below a three: the same worths, on random boards.
    rng = np.random.default_rng(size * 10 + row)
    for _ in range(12):
        cells = rng.choice([0, 0, 0, 1, 2], size=size * size).astype(np.int64)
        for cell in np.flatnonzero(cells == 0):
            black, white = side_scores(cells, size, row, cell)
            assert black == _worth_by_definition(cells, size, row, 1, cell)
            assert white == _worth_by_definition(cells, size, row, 2, cell)


def test_shape_value_favours_the_side_with_the_better_threats():
    # Black to move with an open three: black is close to winning.
    ahead = GAME.play_all(["h8", "a1", "i8", "o15", "j8", "a15"])
    assert shape_value(ahead.array) > 0.9
    # The same stones, white to move: white must defend.
    behind = GAME.play_all(["h8", "a1", "i8", "o15", "j8"])
    assert shape_value(behind.array) < 0.5


@pytest.mark.parametrize("shapes", [1, 2])
def test_a_search_with_shapes_blocks_an_open_three(shapes):
    # White to move: black's open three h8 i8 j8 must be stopped at an end
    # (threats=False: only the shapes decide).
    state = GAME.play_all(["h8", "a1", "i8", "o15", "j8"])
    settings = config(GAME, threats=False, shapes=shapes)
    searcher = Searcher(GAME, state, config=settings, seed=1)
    assert searcher.search(simulations=400).move in ("g8", "k8")


def test_quiet_leaf_scores_for_black_by_the_shapes():
    ahead = GAME.play_all(["h8", "a1", "i8", "o15", "j8", "a15"])
    assert quiet_leaf(ahead.array.copy()) > 0.9
    behind = GAME.play_all(["a1", "h8", "a15", "i8", "o15", "j8", "o1"])
    assert quiet_leaf(behind.array.copy()) < 0.1


def test_quiet_leaf_plays_out_a_won_position_first():
    # Black has an open four whoever defends: a win, not an evaluation.
    state = GAME.play_all(["h8", "a1", "i8", "a15", "j8", "o15", "k8", "o1"])
    assert quiet_leaf(state.array.copy()) == 1.0

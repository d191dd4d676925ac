"""The Gomoku pattern board: its stored line shapes are the shapes a stone
makes, and placing and lifting stones keeps it as a fresh reading."""

import numpy as np
import pytest

from mcts.games import gomoku
from mcts.search.gomoku import patterns
from mcts.search.gomoku.shapes import shape_at
from mcts.search.gomoku.weights import HAND_WEIGHTS


def fresh(size, row, stones):
    board = patterns.new_board(size, row)
    patterns.set_position(board, stones)
    return board


def seen_shape(stones, size, row, colour, x, d):
    """Return shape_at of a ``colour`` stone on ``x`` along ``d`` with the
    line seen through the search's window: ``row`` - 1 cells either side,
    the rest (and the board's edge) blocked."""
    reach = row - 1
    span = 2 * reach + 1
    line = np.zeros(span * span, dtype=np.int64)
    r0, c0 = divmod(x, size)
    dr, dc = gomoku.DIRECTIONS[d]
    for k in range(span):
        r, c = r0 + (k - reach) * dr, c0 + (k - reach) * dc
        if not (0 <= r < size and 0 <= c < size):
            line[k] = 2
        elif stones[r * size + c] != 0:
            line[k] = 1 if stones[r * size + c] == colour else 2
    line[reach] = 0
    return shape_at(line, span, row, 1, reach, 0)


@pytest.mark.parametrize(("size", "row"), [(15, 5), (10, 4), (9, 5), (7, 3)])
def test_stored_shapes_are_the_shapes_a_stone_makes(size, row):
    # Every empty cell's stored shape, both colours, all four lines, is the
    # shape a stone there makes within the window, on random boards; and
    # nearly always the shape on the whole line (the window sees 9 cells
    # when the row is five, as the Gomocup engines' patterns do).
    rng = np.random.default_rng(size * 10 + row)
    same = total = 0
    for _ in range(20):
        stones = np.zeros(size * size, dtype=np.int64)
        filled = rng.choice(
            size * size, size=rng.integers(0, size * size // 2), replace=False
        )
        stones[filled] = rng.integers(1, 3, size=filled.size)
        board = fresh(size, row, stones)
        shapes = board[3]
        for x in np.flatnonzero(stones == 0):
            for colour in (1, 2):
                for d in range(4):
                    stored = shapes[colour - 1, x, d]
                    assert stored == seen_shape(stones, size, row, colour, int(x), d)
                    same += stored == shape_at(stones, size, row, colour, int(x), d)
                    total += 1
    assert same >= 0.95 * total


def test_placing_and_lifting_stones_keeps_the_board_as_a_fresh_reading():
    rng = np.random.default_rng(5)
    size, row = 15, 5
    board = patterns.new_board(size, row)
    stones = np.zeros(size * size, dtype=np.int64)
    patterns.set_position(board, stones)
    placed = []
    for step in range(120):
        if placed and (rng.random() < 0.3 or len(placed) > 60):
            cell, colour = placed.pop(rng.integers(len(placed)))
            patterns.lift(board, cell, colour)
            stones[cell] = 0
        else:
            cell = int(rng.choice(np.flatnonzero(stones == 0)))
            colour = int(rng.integers(1, 3))
            patterns.place(board, cell, colour)
            stones[cell] = colour
            placed.append((cell, colour))
        if step % 10 == 0:
            reference = fresh(size, row, stones)
            for index in (0, 4, 5, 9, 10):  # cells, worth, level, hash, codes
                np.testing.assert_array_equal(board[index], reference[index])
            empty = stones == 0  # an occupied cell's shapes are not read
            np.testing.assert_array_equal(board[3][:, empty], reference[3][:, empty])
            np.testing.assert_allclose(board[6], reference[6])  # sums


def test_a_cells_worth_and_level_are_its_shapes_summed_by_the_boards_weights():
    # The board looks a cell's worth up in tables made from its weights
    # (set_weights): the same as cell_worth's sum of the cell's four shapes,
    # for weights other than the hand-set ones too, and kept so stone by stone.
    rng = np.random.default_rng(11)
    size, row = 15, 5
    weights = HAND_WEIGHTS.array() * rng.uniform(0.5, 2.0, size=11)
    board = patterns.new_board(size, row)
    patterns.set_weights(board, weights)
    stones = np.zeros(size * size, dtype=np.int64)
    filled = rng.choice(size * size, size=70, replace=False)
    stones[filled] = rng.integers(1, 3, size=filled.size)
    patterns.set_position(board, stones)
    for cell in rng.choice(np.flatnonzero(stones == 0), size=10, replace=False):
        patterns.place(board, int(cell), 1)
        patterns.lift(board, int(cell), 1)
    shapes, worth, level = board[3], board[4], board[5]
    for x in np.flatnonzero(stones == 0):
        for q in (0, 1):
            value, lvl = patterns.cell_worth(shapes, weights, q, int(x), False)
            assert worth[q, x] == pytest.approx(value)
            assert level[q, x] == lvl
    assert board[6][0] == pytest.approx(worth[0].sum())

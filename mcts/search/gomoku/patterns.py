"""Gomoku line patterns kept up to date stone by stone, in numba: the board
the alpha-beta search (:mod:`mcts.search.gomoku.alphabeta`) plays on.

For every empty cell, each colour and each of the four line directions, the
board keeps the shape a stone there would make along that line
(:func:`mcts.search.gomoku.shapes.shape_at`, read once per line pattern into
a table by :func:`pattern_table`: the ``row`` - 1 cells either side of the
cell, each empty, the colour's own or blocked; nine cells for five in a row,
as the Gomocup engines' patterns, so a shape whose completion lies further
off is missed). Every cell keeps the pattern codes of its four lines for
both colours, empty or not: placing or lifting a stone changes one digit in
the codes of the cells on its four lines within ``row`` - 1 of it, and an
empty cell's worth is re-summed only when one of its shapes changed (2.5
times the nodes a second of re-reading those cells' lines whole; README,
Performance).

From those shapes each cell gets a worth per colour (the shapes' weights and
forks, as :func:`~mcts.search.gomoku.shapes.side_scores`, by the board's
shape weights, :mod:`mcts.search.gomoku.weights`; capped at
:data:`VALUE_CAP`; looked up in a table of every four shapes' worth that
:func:`set_weights` makes from the weights) and a threat level:
:data:`LEVEL_FIVE` a row, :data:`LEVEL_WIN_FOUR` an open four or two fours,
:data:`LEVEL_FOUR_THREE` a four and an open three, :data:`LEVEL_FOUR`,
:data:`LEVEL_DOUBLE_THREE`, :data:`LEVEL_THREE` (an open three);
:func:`read_threats` sums up what the side to move faces.

Each colour reads its shapes by its own pattern table, so that the board
knows the game's rule. In freestyle both tables are :func:`shape_at`'s.
Where only an exact row wins (the standard rule for both colours, renju
for black) the table is :func:`~mcts.search.gomoku.shapes.exact_shape_at`'s
and sees ``row`` cells either side, one more: the cells just beyond a row's
ends. Under renju a cell that gives black a double three, a double four or
an overline and no five is :data:`LEVEL_FORBIDDEN` to black, worth
nothing. The shapes do not read the rules' recursive case (a three whose
straight four needs a forbidden point is no three), so a few such points
are marked forbidden that are not; none that is forbidden is missed
(tests/search/test_gomoku_rule_alphabeta.py).

The board is a tuple of arrays (:func:`new_board`), so that numba kernels
can take it whole; a search appends its own arrays to it. The module is
one data structure: its tables (patterns, neighbours, worth by shapes), the
stone-by-stone update that keeps them and the threat reading the search
asks of it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ...games import gomoku
from .shapes import (
    DOUBLE_FOUR,
    FIVE,
    FOUR,
    OPEN_FOUR,
    OPEN_THREE,
    OVERLINE,
    exact_shape_at,
    shape_at,
)
from .weights import FOUR_FORK_AT, HAND_WEIGHTS, THREE_FORK_AT

#: Threat levels of a cell for a colour.
LEVEL_THREE = 1
LEVEL_DOUBLE_THREE = 2
LEVEL_FOUR = 3
LEVEL_FOUR_THREE = 4
LEVEL_WIN_FOUR = 5
LEVEL_FIVE = 6
#: A point forbidden to black under renju (a double three, a double four or
#: an overline that makes no five), read from its four shapes.
LEVEL_FORBIDDEN = -1
#: Shape codes a pattern table holds (:mod:`.shapes`, NONE to DOUBLE_FOUR).
CODES = DOUBLE_FOUR + 1
#: A cell's worth to a colour is capped here (an open four to make is a win
#: the threat levels see; in sums and bests it would swamp the rest).
VALUE_CAP = 300.0

#: The numba types of the board tuple's arrays (:func:`new_board`), in
#: order; a search's arrays follow them. A recursive kernel declares its
#: signature with them: numba caches only a recursion whose types are given
#: (numba issue 6061).
BOARD_TYPES = (
    types.int64[::1],  # 0 cells
    types.int64[:, :, ::1],  # 1 neighbour table
    types.int8[:, ::1],  # 2 pattern table of each colour
    types.int8[:, :, ::1],  # 3 shapes
    types.float64[:, ::1],  # 4 worth
    types.int8[:, ::1],  # 5 level
    types.float64[::1],  # 6 sums
    types.int64[::1],  # 7 digits of a line code, and renju or not
    types.uint64[:, ::1],  # 8 keys
    types.uint64[::1],  # 9 hash
    types.int64[:, :, ::1],  # 10 line codes
    types.float64[::1],  # 11 shape weights
    types.float64[:, ::1],  # 12 each colour's worth by the four shapes
    types.int8[:, ::1],  # 13 each colour's threat level by the four shapes
)
#: Where the board tuple keeps its shape weights (:mod:`.gomoku_weights`).
WEIGHTS = 11
#: Where it keeps a cell's worth and threat level for each combination of
#: its four line shapes (:func:`combined_index`), made from the weights by
#: :func:`set_weights`: a cell's worth is then one look-up, not a sum.
WORTH_TABLE = 12
LEVEL_TABLE = 13


@njit(cache=True)
def pattern_table(row, reach, exact):
    """Return the shape code of a stone on a cell for each pattern of the
    ``reach`` cells either side of it along a line: 2 bits a cell...
    precisely, digit ``k`` (bits 2k) is the cell at offset ``k - reach``
    for k < reach and ``k - reach + 1`` after: 0 empty, 1 the colour's own
    stone, 2 the other's or off the board. With ``exact`` only exactly
    ``row`` in a row wins (:func:`~.shapes.exact_shape_at`); that needs a
    ``reach`` of ``row`` (the cells beyond a row's ends), freestyle ``row``
    - 1."""
    span = 2 * reach + 1
    count = 4 ** (2 * reach)
    table = np.zeros(count, dtype=np.int8)
    cells = np.zeros(span * span, dtype=np.int64)
    for code in range(count):
        rest = code
        valid = True
        for k in range(2 * reach):
            digit = rest & 3
            rest >>= 2
            if digit == 3:
                valid = False
                break
            cells[k if k < reach else k + 1] = digit
        if valid:
            cells[reach] = 0
            if exact:
                table[code] = exact_shape_at(cells, span, row, 1, reach, 0)
            else:
                table[code] = shape_at(cells, span, row, 1, reach, 0)
    return table


@njit(cache=True)
def neighbour_table(size, reach):
    """Return, for each cell and direction, the cells at the table's offsets
    (see :func:`pattern_table`), -1 off the board."""
    out = np.full((size * size, 4, 2 * reach), -1, dtype=np.int64)
    for cell in range(size * size):
        r0 = cell // size
        c0 = cell % size
        for d in range(4):
            dr = gomoku.DIRECTIONS[d, 0]
            dc = gomoku.DIRECTIONS[d, 1]
            for k in range(2 * reach):
                off = k - reach if k < reach else k - reach + 1
                r = r0 + off * dr
                c = c0 + off * dc
                if 0 <= r < size and 0 <= c < size:
                    out[cell, d, k] = r * size + c
    return out


@njit(cache=True, nogil=True, inline="always")
def _line_codes(cells, nbr, x, d, digits):
    """Return the pattern codes of the line through ``x`` along ``d`` for a
    black and for a white stone on ``x``."""
    black = 0
    white = 0
    for k in range(digits - 1, -1, -1):
        y = nbr[x, d, k]
        if y < 0:
            vb = 2
            vw = 2
        else:
            v = cells[y]
            if v == 0:
                vb = 0
                vw = 0
            elif v == 1:
                vb = 1
                vw = 2
            else:
                vb = 2
                vw = 1
        black = (black << 2) | vb
        white = (white << 2) | vw
    return black, white


@njit(cache=True, nogil=True, inline="always")
def cell_worth(shapes, weights, q, x, forbid):
    """Return a ``q`` (0 black, 1 white) stone's worth and threat level on
    the empty ``x`` from its four stored line shapes and the ``weights``
    (:meth:`~.gomoku_weights.ShapeWeights.array`). With ``forbid`` (black
    under renju) a double three, a double four or an overline that makes no
    five is LEVEL_FORBIDDEN, worth nothing; else an overline is no shape,
    and two fours on one line are as an open four."""
    score = 0.0
    fours = 0
    threes = 0
    five = False
    open_four = False
    overline = False
    for d in range(4):
        s = shapes[q, x, d]
        if s == OVERLINE:
            overline = True
            continue
        if s == DOUBLE_FOUR:
            score += weights[OPEN_FOUR]
            open_four = True
            fours += 2
            continue
        score += weights[s]
        if s == FIVE:
            five = True
        elif s == OPEN_FOUR:
            open_four = True
            fours += 1
        elif s == FOUR:
            fours += 1
        elif s == OPEN_THREE:
            threes += 1
    if five:
        return VALUE_CAP, LEVEL_FIVE
    if forbid and (overline or fours >= 2 or threes >= 2):
        return 0.0, LEVEL_FORBIDDEN
    four_fork = weights[FOUR_FORK_AT]
    if open_four or fours >= 2:
        return min(VALUE_CAP, score + four_fork), LEVEL_WIN_FOUR
    if fours == 1 and threes >= 1:
        return min(VALUE_CAP, score + four_fork), LEVEL_FOUR_THREE
    if fours == 1:
        return min(VALUE_CAP, score), LEVEL_FOUR
    if threes >= 2:
        return min(VALUE_CAP, score + weights[THREE_FORK_AT]), LEVEL_DOUBLE_THREE
    if threes == 1:
        return min(VALUE_CAP, score), LEVEL_THREE
    return min(VALUE_CAP, score), 0


@njit(cache=True, nogil=True, inline="always")
def combined_index(shapes, q, x):
    """Return the index of the ``q`` colour's four line shapes on ``x`` in
    the board's worth and level tables."""
    return shapes[q, x, 0] + CODES * (
        shapes[q, x, 1] + CODES * (shapes[q, x, 2] + CODES * shapes[q, x, 3])
    )


@njit(cache=True, nogil=True)
def _fill_tables(weights, worth_table, level_table, renju):
    """Fill each colour's worth and level tables by :func:`cell_worth` for
    every combination of four shapes (black's points forbidden if
    ``renju``)."""
    shapes = np.zeros((1, 1, 4), dtype=np.int8)
    for q in range(2):
        for i in range(worth_table.shape[1]):
            rest = i
            for d in range(4):
                shapes[0, 0, d] = rest % CODES
                rest //= CODES
            worth_table[q, i], level_table[q, i] = cell_worth(
                shapes, weights, 0, 0, renju and q == 0
            )


def set_weights(board: tuple, values: np.ndarray) -> None:
    """Give ``board`` the shape weights ``values``
    (:meth:`~.gomoku_weights.ShapeWeights.array`) and their tables; the
    cells' worth follows at the next :func:`set_position`."""
    board[WEIGHTS][:] = values
    renju = bool(board[7][1])
    _fill_tables(board[WEIGHTS], board[WORTH_TABLE], board[LEVEL_TABLE], renju)


@njit(cache=True, nogil=True, inline="always")
def _set_worth(shapes, worth_table, level_table, worth, level, sums, x):
    """Set the empty ``x``'s worth and threat level for both colours from
    its stored shapes."""
    for q in range(2):
        at = combined_index(shapes, q, x)
        value = worth_table[q, at]
        sums[q] += value - worth[q, x]
        worth[q, x] = value
        level[q, x] = level_table[q, at]


# _mark is inlined into place and lift: a kernel of its own called with the
# board's tuple, numba counted references to each of the tuple's arrays on
# every call, and a stone placed and lifted so took 7.4 us against 2.0 us
# with the arrays passed one by one (0.44 us with the worth looked up in a
# table).
@njit(cache=True, nogil=True, inline="always")
def _mark(board, m, colour, sign):
    """Add (``sign`` 1) or take away (-1) a ``colour`` stone on ``m`` in
    the line codes of the cells around it, and re-read the shapes of the
    empty ones among them: a cell's worth is re-summed only when one of its
    shapes changed."""
    cells, nbr, table, shapes, codes = (
        board[0],
        board[1],
        board[2],
        board[3],
        board[10],
    )
    worth_table, level_table = board[WORTH_TABLE], board[LEVEL_TABLE]
    worth, level, sums, digits = board[4], board[5], board[6], board[7][0]
    last = digits - 1
    black = sign * (1 if colour == 1 else 2)
    white = sign * (2 if colour == 1 else 1)
    for d in range(4):
        for k in range(digits):
            y = nbr[m, d, k]
            if y < 0:
                continue
            # ``m`` is digit ``last - k`` of ``y``'s line (the table's
            # offsets are symmetric).
            shift = 2 * (last - k)
            codes[0, y, d] += black << shift
            codes[1, y, d] += white << shift
            if cells[y] != 0:
                continue
            shape_black = table[0, codes[0, y, d]]
            shape_white = table[1, codes[1, y, d]]
            if shape_black != shapes[0, y, d] or shape_white != shapes[1, y, d]:
                shapes[0, y, d] = shape_black
                shapes[1, y, d] = shape_white
                _set_worth(shapes, worth_table, level_table, worth, level, sums, y)


@njit(cache=True, nogil=True)
def place(board, m, colour):
    """Put a ``colour`` (1 or 2) stone on the empty ``m``."""
    cells, worth, level, sums, keys, hashed = (
        board[0],
        board[4],
        board[5],
        board[6],
        board[8],
        board[9],
    )
    cells[m] = colour
    hashed[0] ^= keys[colour - 1, m]
    for q in range(2):
        sums[q] -= worth[q, m]
        worth[q, m] = 0.0
        level[q, m] = 0
    _mark(board, m, colour, 1)


@njit(cache=True, nogil=True)
def lift(board, m, colour):
    """Take the ``colour`` stone off ``m``."""
    cells, table, shapes, keys, hashed, codes = (
        board[0],
        board[2],
        board[3],
        board[8],
        board[9],
        board[10],
    )
    cells[m] = 0
    hashed[0] ^= keys[colour - 1, m]
    _mark(board, m, colour, -1)
    for d in range(4):
        shapes[0, m, d] = table[0, codes[0, m, d]]
        shapes[1, m, d] = table[1, codes[1, m, d]]
    _set_worth(
        shapes,
        board[WORTH_TABLE],
        board[LEVEL_TABLE],
        board[4],
        board[5],
        board[6],
        m,
    )


@njit(cache=True, nogil=True)
def set_position(board, stones):
    """Set the board to ``stones`` (0 empty, 1 black, 2 white per cell)."""
    cells, nbr, table, shapes = board[0], board[1], board[2], board[3]
    worth, level, sums, digits = board[4], board[5], board[6], board[7]
    keys, hashed, codes = board[8], board[9], board[10]
    n = cells.shape[0]
    hashed[0] = 0
    sums[0] = 0.0
    sums[1] = 0.0
    for x in range(n):
        cells[x] = stones[x]
        worth[0, x] = 0.0
        worth[1, x] = 0.0
        level[0, x] = 0
        level[1, x] = 0
        if stones[x] != 0:
            hashed[0] ^= keys[stones[x] - 1, x]
    for x in range(n):
        for d in range(4):
            black, white = _line_codes(cells, nbr, x, d, digits[0])
            codes[0, x, d] = black
            codes[1, x, d] = white
            shapes[0, x, d] = table[0, black]
            shapes[1, x, d] = table[1, white]
        if cells[x] == 0:
            _set_worth(
                shapes, board[WORTH_TABLE], board[LEVEL_TABLE], worth, level, sums, x
            )


@njit(cache=True, nogil=True)
def read_threats(board, me):
    """Return what the side ``me`` (0 black, 1 white) to move faces: whether
    it makes a five, the opponent's fives to block (count and one cell),
    whether it makes an open four, whether the opponent could, and each
    side's best cell worth."""
    cells, worth, level = board[0], board[4], board[5]
    op = 1 - me
    own_five = False
    own_win_four = False
    own_four_three = False
    their_four = False
    their_fives = 0
    their_five_at = -1
    their_win_four = False
    best_me = 0.0
    best_op = 0.0
    for x in range(cells.shape[0]):
        if cells[x] != 0:
            continue
        mine = level[me, x]
        theirs = level[op, x]
        if mine == LEVEL_FIVE:
            own_five = True
        elif mine == LEVEL_WIN_FOUR:
            own_win_four = True
        elif mine == LEVEL_FOUR_THREE:
            own_four_three = True
        if theirs == LEVEL_FIVE:
            their_fives += 1
            their_five_at = x
        elif theirs >= LEVEL_FOUR_THREE:
            their_win_four = True
        if theirs >= LEVEL_FOUR:
            their_four = True
        best_me = max(best_me, worth[me, x])
        best_op = max(best_op, worth[op, x])
    # A four-three wins unless the block of its four can make a four.
    return (
        own_five,
        their_fives,
        their_five_at,
        own_win_four or (own_four_three and not their_four),
        their_win_four,
        best_me,
        best_op,
    )


#: The longest row the pattern board reads exactly (the standard rule and
#: renju): its exact tables have 4 ** (2 * row) entries, a million for five.
MAX_EXACT_ROW = 5
# Each colour's pattern tables by (row, rule), made once a process.
_TABLES: dict[tuple[int, int], np.ndarray] = {}


def _reach(row: int, rule: int) -> int:
    """Return how many cells either side of a point the board reads under
    ``rule``: ``row`` where a row must be exact (to see the cells beyond
    its ends), else ``row`` - 1."""
    return row - 1 if rule == gomoku.FREESTYLE else row


def _pattern_tables(row: int, rule: int) -> np.ndarray:
    """Return black's and white's pattern tables for ``rule``: freestyle
    for both in freestyle, exact for both under the standard rule, exact for
    black and freestyle for white under renju."""
    if (row, rule) in _TABLES:
        return _TABLES[row, rule]
    if rule == gomoku.FREESTYLE:
        exact = (False, False)
    elif rule == gomoku.STANDARD:
        exact = (True, True)
    else:
        exact = (True, False)
    if any(exact) and row > MAX_EXACT_ROW:
        raise ValueError(
            f"the pattern board reads exact rows of at most {MAX_EXACT_ROW}, not {row}"
        )
    reach = _reach(row, rule)
    made = {each: pattern_table(row, reach, each) for each in set(exact)}
    _TABLES[row, rule] = np.stack([made[each] for each in exact])
    return _TABLES[row, rule]


def new_board(size: int, row: int, rule: int = gomoku.FREESTYLE) -> tuple:
    """Return the arrays of an empty ``size`` x ``size`` board for rows of
    ``row`` under ``rule`` (:data:`~mcts.games.gomoku.RULES`' codes): cells,
    the neighbour table, each colour's pattern table, shapes, worth,
    level, the two colours' sums of worth, the digits of a line pattern
    (and 1 under renju), the Zobrist keys, the position's hash, every
    cell's line codes, the shape weights
    (:data:`~.gomoku_weights.HAND_WEIGHTS` until a search is given others,
    :func:`set_weights`) and their worth and level tables."""
    tables = _pattern_tables(row, rule)
    reach = _reach(row, rule)
    n = size * size
    rng = np.random.default_rng(20261127)
    hand = HAND_WEIGHTS.array()
    renju = 1 if rule == gomoku.RENJU else 0
    board = (
        np.zeros(n, dtype=np.int64),  # 0 cells
        neighbour_table(size, reach),  # 1
        tables,  # 2
        np.zeros((2, n, 4), dtype=np.int8),  # 3 shapes
        np.zeros((2, n), dtype=np.float64),  # 4 worth
        np.zeros((2, n), dtype=np.int8),  # 5 level
        np.zeros(2, dtype=np.float64),  # 6 sums
        np.array([2 * reach, renju], dtype=np.int64),  # 7 digits, renju
        rng.integers(1, 2**63, size=(2, n), dtype=np.uint64),  # 8 keys
        np.zeros(1, dtype=np.uint64),  # 9 hash
        np.zeros((2, n, 4), dtype=np.int64),  # 10 line codes
        np.empty_like(hand),  # 11 shape weights (set below)
        np.zeros((2, CODES**4)),  # 12 worth tables
        np.zeros((2, CODES**4), dtype=np.int8),  # 13 level tables
    )
    set_weights(board, hand)
    return board

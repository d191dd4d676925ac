"""Gomoku alpha-beta over incremental line patterns, in numba (the design of
the strong Gomocup engines such as Rapfi: a principal-variation search with a
transposition table, the threats' forced replies, and a VCF quiescence).

The board keeps, for every empty cell, each colour and each of the four line
directions, the shape a stone there would make along that line
(:func:`mcts.search.gomoku_shapes.shape_at`, read once per line pattern into
a table: the ``row`` - 1 cells either side of the cell, each empty, the
colour's own or blocked). Placing or lifting a stone re-reads only the cells
on its four lines within ``row`` - 1 of it, so a node costs a few hundred
table reads instead of a scan of the board's windows.

From those shapes each cell gets a worth per colour (the shapes' weights and
forks, as :func:`~mcts.search.gomoku_shapes.side_scores`, capped at
:data:`VALUE_CAP`) and a threat level: :data:`LEVEL_FIVE` a row,
:data:`LEVEL_WIN_FOUR` an open four or two fours, :data:`LEVEL_FOUR_THREE`
a four and an open three, :data:`LEVEL_FOUR`, :data:`LEVEL_DOUBLE_THREE`,
:data:`LEVEL_THREE` (an open three). The shapes are read through a window of
``row`` - 1 cells either side (nine cells for five in a row, as the Gomocup
engines' patterns), so a shape whose completion lies further off is missed.
A node reads the threats of the side to move before searching:

- a five to make wins; two of the opponent's to block lose; one is the only
  move (no depth is spent on it);
- an open four or two fours to make win two moves later, and so does a
  four-three when the opponent has no four to make;
- when the opponent could make one of those (he has an open three), the
  moves are the cells where either side makes a four or better: the blocks
  and the counter-fours;
- otherwise the :data:`WIDTH` best cells by worth to the mover plus
  :data:`BLOCK_WEIGHT` times their worth to the opponent (the transposition
  table's move and two killer moves first), late quiet ones searched
  shallower first; a move that makes an open three is searched a ply
  deeper (:data:`THREAT_EXTENSIONS` times in a line), since the opponent's
  replies are then the few blocks.

At depth 0 a quiescence search plays the mover's fours (a VCF, with the
forced blocks) from a stand-pat value: the mover's best cell minus
BLOCK_WEIGHT times the opponent's, plus :data:`SUM_WEIGHT` times the
difference of all their cells' worth.

The search is recursive, which numba cannot cache: it compiles in each
process that uses it (about 10 s).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..games import gomoku
from .gomoku_shapes import (
    BLOCK_WEIGHT,
    FIVE,
    FOUR,
    FOUR_FORK,
    OPEN_FOUR,
    OPEN_THREE,
    SHAPE_WEIGHTS,
    THREE_FORK,
    shape_at,
)

#: A won position's score (less the plies to the win).
WIN = 1_000_000.0
#: Scores at least this far from 0 are wins or losses.
WIN_BOUND = WIN - 1000.0
#: The deepest ply a line may reach (forced replies do not spend depth).
MAX_PLY = 96
#: Threat levels of a cell for a colour.
LEVEL_THREE = 1
LEVEL_DOUBLE_THREE = 2
LEVEL_FOUR = 3
LEVEL_FOUR_THREE = 4
LEVEL_WIN_FOUR = 5
LEVEL_FIVE = 6
#: A cell's worth to a colour is capped here (an open four to make is a win
#: the threat levels see; in sums and bests it would swamp the rest).
VALUE_CAP = 300.0
#: The weight of the sum of every cell's worth in the stand-pat value.
SUM_WEIGHT = 0.1
#: Moves a quiet node searches (the best by ordering score), and the root.
WIDTH = 12
ROOT_WIDTH = 30
#: Late quiet moves (from this index, at this depth or more) are searched
#: LMR_PLIES shallower first and again in full if they beat alpha.
LMR_FROM = 4
LMR_DEPTH = 3
LMR_PLIES = 1
#: Open threes a line may make without spending depth (see _negamax).
THREAT_EXTENSIONS = 4
#: Fours the quiescence search may play in a line (its VCF depth).
QUIESCENCE_FOURS = 10
#: log2 of the transposition table's entries.
TABLE_BITS = 20
#: Deepest iteration of the iterative deepening.
MAX_DEPTH = 40
#: The share of the think time the search plans to spend (the rest is kept
#: for the nodes' rate changing within an iteration).
TIME_SHARE = 0.9

# ``stats`` entries.
_NODES = 0
_BUDGET = 1
_ABORTED = 2
_BEST = 3
_ROOT_DONE = 4
# Transposition-table bound kinds.
_EXACT = 0
_LOWER = 1
_UPPER = 2


@njit(cache=True)
def pattern_table(row):
    """Return the shape code of a stone on a cell for each pattern of the
    ``row`` - 1 cells either side of it along a line: 2 bits a cell, nearest
    last on each side... precisely, digit ``k`` (bits 2k) is the cell at
    offset ``k - (row - 1)`` for k < row - 1 and ``k - row + 2`` after: 0
    empty, 1 the colour's own stone, 2 the other's or off the board."""
    reach = row - 1
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
            table[code] = shape_at(cells, span, row, 1, reach, 0)
    return table


@njit(cache=True)
def neighbour_table(size, row):
    """Return, for each cell and direction, the cells at the table's offsets
    (see :func:`pattern_table`), -1 off the board."""
    reach = row - 1
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
def _cell_worth(shapes, q, x):
    """Return a ``q`` (0 black, 1 white) stone's worth and threat level on
    the empty ``x`` from its four stored line shapes."""
    score = 0.0
    fours = 0
    threes = 0
    five = False
    open_four = False
    for d in range(4):
        s = shapes[q, x, d]
        score += SHAPE_WEIGHTS[s]
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
    if open_four or fours >= 2:
        return min(VALUE_CAP, score + FOUR_FORK), LEVEL_WIN_FOUR
    if fours == 1 and threes >= 1:
        return min(VALUE_CAP, score + FOUR_FORK), LEVEL_FOUR_THREE
    if fours == 1:
        return min(VALUE_CAP, score), LEVEL_FOUR
    if threes >= 2:
        return min(VALUE_CAP, score + THREE_FORK), LEVEL_DOUBLE_THREE
    if threes == 1:
        return min(VALUE_CAP, score), LEVEL_THREE
    return min(VALUE_CAP, score), 0


@njit(cache=True, nogil=True)
def _refresh(board, x, d):
    """Re-read the line of ``x`` along ``d`` and ``x``'s worth for both
    colours."""
    cells, nbr, table, shapes = board[0], board[1], board[2], board[3]
    worth, level, sums, digits = board[4], board[5], board[6], board[7]
    black, white = _line_codes(cells, nbr, x, d, digits[0])
    shapes[0, x, d] = table[black]
    shapes[1, x, d] = table[white]
    for q in range(2):
        value, lvl = _cell_worth(shapes, q, x)
        sums[q] += value - worth[q, x]
        worth[q, x] = value
        level[q, x] = lvl


@njit(cache=True, nogil=True)
def _place(board, m, colour):
    """Put a ``colour`` (1 or 2) stone on ``m``."""
    cells, nbr = board[0], board[1]
    worth, level, sums, digits, keys, hashed = (
        board[4],
        board[5],
        board[6],
        board[7],
        board[8],
        board[9],
    )
    cells[m] = colour
    hashed[0] ^= keys[colour - 1, m]
    for q in range(2):
        sums[q] -= worth[q, m]
        worth[q, m] = 0.0
        level[q, m] = 0
    for d in range(4):
        for k in range(digits[0]):
            y = nbr[m, d, k]
            if y >= 0 and cells[y] == 0:
                _refresh(board, y, d)


@njit(cache=True, nogil=True)
def _lift(board, m, colour):
    """Take the ``colour`` stone off ``m``."""
    cells, nbr = board[0], board[1]
    digits, keys, hashed = board[7], board[8], board[9]
    cells[m] = 0
    hashed[0] ^= keys[colour - 1, m]
    for d in range(4):
        for k in range(digits[0]):
            y = nbr[m, d, k]
            if y >= 0 and cells[y] == 0:
                _refresh(board, y, d)
        _refresh(board, m, d)


@njit(cache=True, nogil=True)
def set_position(board, stones):
    """Set the board to ``stones`` (0 empty, 1 black, 2 white per cell)."""
    cells, worth, level, sums, keys, hashed = (
        board[0],
        board[4],
        board[5],
        board[6],
        board[8],
        board[9],
    )
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
        if cells[x] == 0:
            for d in range(4):
                _refresh(board, x, d)


@njit(cache=True, nogil=True)
def _scan(board, me):
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


@njit(cache=True, nogil=True, inline="always")
def _to_table(value, ply):
    """Return ``value`` found at ``ply`` as the table keeps it: a win or a
    loss counted in plies from the node, not from the root."""
    if value >= WIN_BOUND:
        return value + ply
    if value <= -WIN_BOUND:
        return value - ply
    return value


@njit(cache=True, nogil=True, inline="always")
def _from_table(value, ply):
    """Return a table's ``value`` for a node at ``ply``."""
    if value >= WIN_BOUND:
        return value - ply
    if value <= -WIN_BOUND:
        return value + ply
    return value


@njit(cache=True, nogil=True, inline="always")
def _stand_pat(board, me, best_me, best_op):
    sums = board[6]
    return best_me - BLOCK_WEIGHT * best_op + SUM_WEIGHT * (sums[me] - sums[1 - me])


@njit(nogil=True)
def _quiescence(board, colour, alpha, beta, ply, fours):
    """Return the value of the position for ``colour`` to move with its
    fours (a VCF) and the forced blocks played from a stand-pat value."""
    cells, level, stats = board[0], board[5], board[15]
    stats[_NODES] += 1
    if stats[_NODES] >= stats[_BUDGET]:
        stats[_ABORTED] = 1
        return 0.0
    me = colour - 1
    own_five, their_fives, their_five_at, own_win_four, _, best_me, best_op = _scan(
        board, me
    )
    if own_five:
        return WIN - ply
    if their_fives >= 2:
        return -(WIN - ply - 1)
    if ply >= MAX_PLY - 2:
        return _stand_pat(board, me, best_me, best_op)
    if their_fives == 1:
        _place(board, their_five_at, colour)
        value = -_quiescence(board, 3 - colour, -beta, -alpha, ply + 1, fours)
        _lift(board, their_five_at, colour)
        return value
    if own_win_four:
        return WIN - ply - 2
    best = _stand_pat(board, me, best_me, best_op)
    if best >= beta or fours >= QUIESCENCE_FOURS:
        return best
    # The same fours in another order reach the same position: the table
    # keeps what the quiescence found there (at depth 0).
    hashed = board[9]
    tt_keys, tt_values, tt_depths, tt_kinds = board[16], board[18], board[19], board[20]
    key = hashed[0] ^ np.uint64(colour)
    slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
    if tt_keys[slot] == key:
        stored = tt_values[slot]
        kind = tt_kinds[slot]
        if (
            kind == _EXACT
            or (kind == _LOWER and stored >= beta)
            or (kind == _UPPER and stored <= alpha)
        ):
            return stored
    alpha0 = alpha
    alpha = max(alpha, best)
    for x in range(cells.shape[0]):
        if cells[x] != 0 or not LEVEL_FOUR <= level[me, x] <= LEVEL_FOUR_THREE:
            continue
        _place(board, x, colour)
        value = -_quiescence(board, 3 - colour, -beta, -alpha, ply + 1, fours + 1)
        _lift(board, x, colour)
        if stats[_ABORTED]:
            return 0.0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if value >= beta:
                    break
    if tt_keys[slot] != key or tt_depths[slot] <= 0:
        tt_keys[slot] = key
        tt_values[slot] = _to_table(best, ply)
        tt_depths[slot] = 0
        tt_kinds[slot] = (
            _UPPER if best <= alpha0 else (_LOWER if best >= beta else _EXACT)
        )
    return best


@njit(cache=True, nogil=True)
def _moves(board, me, ply, defend, width, first):
    """Fill ``board``'s move list of ``ply`` and return how many: with
    ``defend`` every cell where either side makes a four or better, else
    the ``width`` best cells by ordering score; ``first`` (the table's
    move) and the ply's killers lead."""
    cells, worth, level = board[0], board[4], board[5]
    killers, moves, scores = board[11], board[12], board[13]
    op = 1 - me
    n = 0
    for x in range(cells.shape[0]):
        if cells[x] != 0:
            continue
        if defend:
            if level[me, x] < LEVEL_FOUR and level[op, x] < LEVEL_FOUR:
                continue
        elif worth[me, x] + worth[op, x] <= 0.0:
            continue
        score = worth[me, x] + BLOCK_WEIGHT * worth[op, x]
        if x == first:
            score += 1e9
        elif x == killers[ply, 0]:
            score += 1e7
        elif x == killers[ply, 1]:
            score += 1e6
        moves[ply, n] = x
        scores[ply, n] = score
        n += 1
    keep = n if defend else min(n, width)
    for i in range(keep):
        top = i
        for j in range(i + 1, n):
            if scores[ply, j] > scores[ply, top]:
                top = j
        if top != i:
            moves[ply, i], moves[ply, top] = moves[ply, top], moves[ply, i]
            scores[ply, i], scores[ply, top] = scores[ply, top], scores[ply, i]
    return keep


@njit(nogil=True)
def _negamax(board, colour, depth, alpha, beta, ply, extensions):
    """Return the value of the position for ``colour`` to move, searched
    ``depth`` plies (see the module's docstring)."""
    cells, level = board[0], board[5]
    hashed = board[9]
    killers, moves, stats = board[11], board[12], board[15]
    tt_keys, tt_moves, tt_values, tt_depths, tt_kinds = (
        board[16],
        board[17],
        board[18],
        board[19],
        board[20],
    )
    if depth <= 0:
        return _quiescence(board, colour, alpha, beta, ply, 0)
    stats[_NODES] += 1
    if stats[_NODES] >= stats[_BUDGET]:
        stats[_ABORTED] = 1
        return 0.0
    me = colour - 1
    (
        own_five,
        their_fives,
        their_five_at,
        own_win_four,
        their_win_four,
        best_me,
        best_op,
    ) = _scan(board, me)
    if own_five:
        if ply == 0:
            for x in range(cells.shape[0]):
                if cells[x] == 0 and level[me, x] == LEVEL_FIVE:
                    stats[_BEST] = x
                    break
        return WIN - ply
    if ply >= MAX_PLY - 2:
        return _stand_pat(board, me, best_me, best_op)
    if their_fives == 1:
        if ply == 0:
            stats[_BEST] = their_five_at
        _place(board, their_five_at, colour)
        value = -_negamax(board, 3 - colour, depth, -beta, -alpha, ply + 1, extensions)
        _lift(board, their_five_at, colour)
        return value
    if their_fives >= 2 and ply > 0:
        return -(WIN - ply - 1)
    if own_win_four and ply > 0:
        return WIN - ply - 2
    key = hashed[0] ^ np.uint64(colour)
    slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
    first = -1
    if tt_keys[slot] == key:
        first = tt_moves[slot]
        if ply > 0 and tt_depths[slot] >= depth:
            stored = _from_table(tt_values[slot], ply)
            kind = tt_kinds[slot]
            if kind == _EXACT:
                return stored
            if kind == _LOWER and stored >= beta:
                return stored
            if kind == _UPPER and stored <= alpha:
                return stored
    defend = their_win_four or their_fives >= 2
    width = ROOT_WIDTH if ply == 0 else WIDTH
    count = _moves(board, me, ply, defend, width, first)
    if count == 0:
        return 0.0
    alpha0 = alpha
    best = -2.0 * WIN
    best_move = moves[ply, 0]
    for i in range(count):
        x = moves[ply, i]
        threat = LEVEL_THREE <= level[me, x] <= LEVEL_DOUBLE_THREE
        quiet = (
            not threat and level[me, x] < LEVEL_FOUR and level[1 - me, x] < LEVEL_FOUR
        )
        # A move that makes an open three leaves the opponent few replies
        # (the defend set): its line is searched a ply deeper, a few times.
        extend = 1 if threat and extensions > 0 else 0
        child = depth - 1 + extend
        left = extensions - extend
        _place(board, x, colour)
        if i == 0:
            value = -_negamax(board, 3 - colour, child, -beta, -alpha, ply + 1, left)
        else:
            reduce = (
                LMR_PLIES
                if (quiet and not defend and i >= LMR_FROM and depth >= LMR_DEPTH)
                else 0
            )
            value = -_negamax(
                board, 3 - colour, child - reduce, -alpha - 1.0, -alpha, ply + 1, left
            )
            if value > alpha and reduce > 0:
                value = -_negamax(
                    board, 3 - colour, child, -alpha - 1.0, -alpha, ply + 1, left
                )
            if alpha < value < beta:
                value = -_negamax(
                    board, 3 - colour, child, -beta, -alpha, ply + 1, left
                )
        _lift(board, x, colour)
        if stats[_ABORTED]:
            return 0.0
        if ply == 0:
            stats[_ROOT_DONE] += 1
        if value > best:
            best = value
            best_move = x
            if ply == 0:
                stats[_BEST] = x
            if value > alpha:
                alpha = value
                if value >= beta:
                    if quiet and killers[ply, 0] != x:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = x
                    break
    tt_keys[slot] = key
    tt_moves[slot] = best_move
    tt_values[slot] = _to_table(best, ply)
    tt_depths[slot] = depth
    if best <= alpha0:
        tt_kinds[slot] = _UPPER
    elif best >= beta:
        tt_kinds[slot] = _LOWER
    else:
        tt_kinds[slot] = _EXACT
    return best


@njit(nogil=True)
def search_depth(board, colour, depth, budget):
    """Search the board's position for ``colour`` to move ``depth`` plies
    within ``budget`` nodes in all; return (value, best move, aborted)."""
    stats = board[15]
    stats[_BUDGET] = budget
    stats[_ABORTED] = 0
    stats[_BEST] = -1
    stats[_ROOT_DONE] = 0
    value = _negamax(board, colour, depth, -2.0 * WIN, 2.0 * WIN, 0, THREAT_EXTENSIONS)
    return value, stats[_BEST], stats[_ABORTED] == 1, stats[_ROOT_DONE]


_TABLES: dict[int, np.ndarray] = {}


def new_board(size: int, row: int) -> tuple:
    """Return the arrays of an empty ``size`` x ``size`` board for rows of
    ``row`` (the tuple the kernels read)."""
    if row not in _TABLES:
        _TABLES[row] = pattern_table(row)
    n = size * size
    rng = np.random.default_rng(20261127)
    table_size = 1 << TABLE_BITS
    return (
        np.zeros(n, dtype=np.int64),  # 0 cells
        neighbour_table(size, row),  # 1
        _TABLES[row],  # 2
        np.zeros((2, n, 4), dtype=np.int8),  # 3 shapes
        np.zeros((2, n), dtype=np.float64),  # 4 worth
        np.zeros((2, n), dtype=np.int8),  # 5 level
        np.zeros(2, dtype=np.float64),  # 6 sums
        np.array([2 * (row - 1)], dtype=np.int64),  # 7 digits
        rng.integers(1, 2**63, size=(2, n), dtype=np.uint64),  # 8 keys
        np.zeros(1, dtype=np.uint64),  # 9 hash
        np.zeros(1, dtype=np.int64),  # 10 (unused)
        np.full((MAX_PLY, 2), -1, dtype=np.int64),  # 11 killers
        np.zeros((MAX_PLY, n), dtype=np.int64),  # 12 moves
        np.zeros((MAX_PLY, n), dtype=np.float64),  # 13 scores
        np.zeros(1, dtype=np.int64),  # 14 (unused)
        np.zeros(5, dtype=np.int64),  # 15 stats
        np.zeros(table_size, dtype=np.uint64),  # 16 tt keys
        np.zeros(table_size, dtype=np.int64),  # 17 tt moves
        np.zeros(table_size, dtype=np.float64),  # 18 tt values
        np.zeros(table_size, dtype=np.int64),  # 19 tt depths
        np.zeros(table_size, dtype=np.int8),  # 20 tt kinds
    )


def think(
    board: tuple, state: np.ndarray, seconds: float
) -> tuple[int, float, int, int]:
    """Search the Gomoku ``state`` by iterative deepening for about
    ``seconds``; return (move, value for the mover, depth completed, nodes)."""
    size = int(state[gomoku.SIZE])
    stones = np.asarray(
        state[gomoku.HEADER : gomoku.HEADER + size * size], dtype=np.int64
    )
    set_position(board, stones)
    colour = int(state[gomoku.SIDE]) + 1
    stats = board[15]
    stats[_NODES] = 0
    start = time.perf_counter()
    best, value, done = -1, 0.0, 0
    rate = 200_000.0
    for depth in range(1, MAX_DEPTH + 1):
        elapsed = time.perf_counter() - start
        budget = int(
            stats[_NODES] + max(2_000.0, rate * (TIME_SHARE * seconds - elapsed))
        )
        v, move, aborted, root_done = search_depth(board, colour, depth, budget)
        elapsed = time.perf_counter() - start
        if elapsed > 0.01:
            rate = stats[_NODES] / elapsed
        if aborted:
            # The moves searched in full before the stop were searched
            # deeper than the last iteration's; the first is its best.
            if root_done > 0 and move >= 0:
                best = int(move)
            break
        best, value, done = int(move), float(v), depth
        if abs(value) >= WIN_BOUND or elapsed >= TIME_SHARE * seconds:
            break
    if best < 0:
        empties = np.flatnonzero(stones == 0)
        centre = (size // 2) * size + size // 2
        best = centre if stones[centre] == 0 else int(empties[0])
    return best, value, done, int(stats[_NODES])

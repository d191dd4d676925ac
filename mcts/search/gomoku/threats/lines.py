"""The board's lines as the Gomoku threat search reads them: windows, win
cells, fours and threes, in numba.

Any row length ``row`` (the game's option). A *window* is ``row`` cells in
a line on the board. A *win cell* of a colour is an empty cell that
completes a window holding only that colour's stones, so playing it makes
``row`` or more in a line. Where an overline does not win (the standard
rule, and black under renju: :func:`exact_five`), an *exact* win cell also
has no stone of that colour just beyond either end of the window, so the
line it makes is exactly ``row`` long. A *four* is a move after which its
player has a win cell; a *three* one after which a window holds ``row`` - 2
of its stones and none of the other's.

The threat searches count the attacker's win cells exactly (a false one
would make a false win) and the defender's freestyle (a false one only
makes the attacker block it: a win missed, never a false one).

Cells are an int64 array of 0 (empty), 1 (black) and 2 (white), one entry
a point (:func:`cells_of` reads them from a state vector). Lists of cells
are written into caller-given arrays; ``mark`` (one entry a cell) with a
fresh ``stamp`` drops repeats without clearing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....games import gomoku, renju
from ...rollouts import window_start

#: A random key per colour (1 black, 2 white) and intersection of the
#: largest board: a position's key (in the threat searches' tables of
#: positions found lost) is the exclusive or of its added stones'.
STONE_KEYS = np.random.default_rng(20261127).integers(
    1, 2**63, size=(3, gomoku.MAX_SIZE * gomoku.MAX_SIZE), dtype=np.int64
)


@njit(cache=True, nogil=True)
def cells_of(state):
    """Return (cells as int64 0/1/2, size, row) of a state vector."""
    size = np.int64(state[gomoku.SIZE])
    cells = np.empty(size * size, dtype=np.int64)
    for i in range(size * size):
        cells[i] = np.int64(state[gomoku.HEADER + i])
    return cells, size, np.int64(state[gomoku.ROW])


@njit(cache=True, nogil=True)
def board_of(state):
    """Return (size, row, rule) of a state vector: what the threat searches
    read of the board besides its cells."""
    return (
        np.int64(state[gomoku.SIZE]),
        np.int64(state[gomoku.ROW]),
        np.int64(state[gomoku.RULE]),
    )


@njit(cache=True, nogil=True, inline="always")
def exact_five(rule, colour):
    """Return whether only an exact row wins for ``colour`` (1 black, 2
    white) under ``rule``: the standard rule, and black under renju."""
    return rule == gomoku.STANDARD or (rule == gomoku.RENJU and colour == 1)


@njit(cache=True, nogil=True)
def flanked(cells, size, line, colour):
    """Return whether a stone of ``colour`` lies just beyond either end of the
    window ``line``, (first cell, direction, row): then filling the window
    makes an overline, not an exact row."""
    first, d, row = line
    dr = gomoku.DIRECTIONS[d, 0]
    dc = gomoku.DIRECTIONS[d, 1]
    r = first // size
    c = first % size
    for k in (-1, row):
        rk = r + k * dr
        ck = c + k * dc
        if 0 <= rk < size and 0 <= ck < size and cells[rk * size + ck] == colour:
            return True
    return False


@njit(cache=True, nogil=True)
def mirror_of(cells, board):
    """Return a state vector of ``board`` (size, row, rule) holding
    ``cells``, for :func:`forbidden_in`: a mirror that :func:`put` keeps in
    step, so that black's forbidden points are read without copying the
    board for each. Under a rule with no forbidden point, an array of none
    (the searches that make one are many, most of them small)."""
    size, row, rule = board
    if rule != gomoku.RENJU:
        return np.empty(0, dtype=np.uint64)
    mirror = np.zeros(gomoku.HEADER + size * size, dtype=np.uint64)
    mirror[gomoku.SIZE] = size
    mirror[gomoku.ROW] = row
    mirror[gomoku.RULE] = rule
    for i in range(cells.shape[0]):
        mirror[gomoku.HEADER + i] = cells[i]
    return mirror


@njit(cache=True, nogil=True, inline="always")
def put(cells, mirror, cell, value):
    """Set ``cell`` to ``value`` (0 empty, 1 black, 2 white) on ``cells`` and
    on its ``mirror`` (:func:`mirror_of`; empty when no rule needs one)."""
    cells[cell] = value
    if mirror.shape[0] > 0:
        mirror[gomoku.HEADER + cell] = value


@njit(cache=True, nogil=True, inline="always")
def forbidden_in(mirror, cell):
    """Return whether the empty ``cell`` is a forbidden point for black on
    the board ``mirror`` holds (:func:`mirror_of`)."""
    return renju.forbidden(mirror, cell) != renju.NOT_FORBIDDEN


@njit(cache=True, nogil=True)
def window(size, row, cell, d, back):
    """Return (first cell, step) of the window of ``row`` cells along
    direction ``d`` holding ``cell`` ``back`` cells from its start; first is
    -1 if the window leaves the board (:func:`~..rollouts.window_start`)."""
    first = window_start(size, row, cell, d, back)
    if first < 0:
        return -1, 0
    return first, gomoku.DIRECTIONS[d, 0] * size + gomoku.DIRECTIONS[d, 1]


@njit(cache=True, nogil=True)
def add_unique(out, n, cell):
    """Append ``cell`` to ``out[:n]`` unless present; return the new count."""
    for i in range(n):
        if out[i] == cell:
            return n
    out[n] = cell
    return n + 1


@njit(cache=True, nogil=True, inline="always")
def window_win_cell(cells, first, step, row, colour):
    """Return the win cell of ``colour`` in the window at ``first`` along
    ``step`` (its one empty cell, the others holding ``colour``'s stones),
    or -1 if the window has none. Inlined: the VCF reads it at every node."""
    empty = -1
    for k in range(row):
        cell = first + k * step
        value = cells[cell]
        if value == 0 and empty < 0:
            empty = cell
        elif value != colour:
            return -1
    return empty


@njit(cache=True, nogil=True)
def win_cells_through(cells, board, colour, cell, out, exact):
    """Write into ``out`` the distinct win cells of ``colour`` on windows
    through ``cell``, on a board of (``size``, ``row``); only exact ones
    when ``exact``. Return how many (at most 2 are collected: more tell
    nothing more)."""
    size, row = board
    n = 0
    for d in range(4):
        for back in range(row):
            start, step = window(size, row, cell, d, back)
            if start < 0:
                continue
            empty = window_win_cell(cells, start, step, row, colour)
            if empty >= 0 and not (
                exact and flanked(cells, size, (start, d, row), colour)
            ):
                n = add_unique(out, n, empty)
                if n >= 2:
                    return n
    return n


@njit(cache=True, nogil=True)
def win_cells(cells, board, colour, out, exact):
    """Write into ``out`` the distinct win cells of ``colour`` anywhere on the
    board of (``size``, ``row``), only exact ones when ``exact``; return how
    many (at most 2 are collected)."""
    size, row = board
    n = 0
    for start in range(size * size):
        for d in range(4):
            first, step = window(size, row, start, d, 0)
            if first < 0:
                continue
            empty = window_win_cell(cells, first, step, row, colour)
            if empty >= 0 and not (
                exact and flanked(cells, size, (first, d, row), colour)
            ):
                n = add_unique(out, n, empty)
                if n >= 2:
                    return n
    return n


@njit(cache=True, nogil=True)
def four_moves(cells, size, row, colour, out, start_at, mark, stamp):
    """Append to ``out`` from ``start_at`` the empty cells where ``colour``
    makes a four (an empty cell of a window holding ``row`` - 2 of its stones
    and none of the other colour's); ``mark`` (one entry a cell) with the
    unique ``stamp`` drops repeats. Return the new end of ``out``."""
    n = start_at
    for start in range(size * size):
        for d in range(4):
            first, step = window(size, row, start, d, 0)
            if first >= 0:
                n = window_cells(
                    cells, (first, step, row), colour, row - 2, out, n, mark, stamp
                )
    return n


# The three window helpers below are inlined into their callers: called, they
# cost the threat search about a tenth of its nodes a second.
@njit(cache=True, nogil=True, inline="always")
def window_cells(cells, line, colour, stones, out, n, mark, stamp):
    """Append to ``out`` (from ``n``) the empty cells of the window ``line``,
    (first cell, step, row), if it holds ``stones`` stones of ``colour`` and
    no other (``row`` - 2: each cell is a four move; ``row`` - 3: a three),
    skipping cells whose ``mark`` is ``stamp`` and marking the others;
    return the new count."""
    first, step, row = line
    own, empties = own_and_empty(cells, first, step, row, colour)
    if own != stones or empties != row - stones:
        return n
    return empty_cells(cells, first, step, row, out, n, mark, stamp)


@njit(cache=True, nogil=True, inline="always")
def empty_cells(cells, first, step, row, out, n, mark, stamp):
    """Append to ``out`` (from ``n``) the empty cells of the window at
    ``first`` along ``step`` whose ``mark`` is not ``stamp``, marking them;
    return the new count."""
    for k in range(row):
        cell = first + k * step
        if cells[cell] == 0 and mark[cell] != stamp:
            mark[cell] = stamp
            out[n] = cell
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def own_and_empty(cells, first, step, row, colour):
    """Return (stones of ``colour``, empty cells) of the window at ``first``
    along ``step``; the empty count is ``row`` + 1 if the window holds a
    stone of the other colour."""
    own = 0
    empties = 0
    for k in range(row):
        value = cells[first + k * step]
        if value == colour:
            own += 1
        elif value == 0:
            empties += 1
        else:
            return own, row + 1
    return own, empties


@njit(cache=True, nogil=True)
def _makes_four(cells, size, row, colour, cell):
    """Return whether ``colour`` makes a four on the empty ``cell`` (a
    window through it holds ``row`` - 2 of its stones and two empty cells,
    as :func:`four_moves` reads it)."""
    for d in range(4):
        for back in range(row):
            first, step = window(size, row, cell, d, back)
            if first >= 0:
                own, empties = own_and_empty(cells, first, step, row, colour)
                if own == row - 2 and empties == 2:
                    return True
    return False


@njit(cache=True, nogil=True)
def next_fours(cells, board, colour, out, span, moves, mark, stamp):
    """Append to ``out`` from ``start_at`` the cells where ``colour`` makes a
    four after its four at ``attack`` and the block at ``reply`` (``moves``),
    given the ones before them, ``out[before:start_at]`` (``span``), on a
    board of (``size``, ``row``); return the new end. The same
    cells as :func:`four_moves`, without reading the whole board: a four
    move before stays one unless it is taken or a window through ``reply``
    made it (else ``attack`` made a second win cell, which ends the line
    before this is asked), and the new ones lie on windows through
    ``attack``."""
    size, row = board
    before, start_at = span
    attack, reply = moves
    n = start_at
    reply_r = reply // size
    reply_c = reply % size
    for i in range(before, start_at):
        cell = out[i]
        if cells[cell] != 0 or mark[cell] == stamp:
            continue
        dr = abs(cell // size - reply_r)
        dc = abs(cell % size - reply_c)
        lined = dr == 0 or dc == 0 or dr == dc
        if (
            lined
            and max(dr, dc) < row
            and not _makes_four(cells, size, row, colour, cell)
        ):
            continue
        mark[cell] = stamp
        out[n] = cell
        n += 1
    for d in range(4):
        for back in range(row):
            first, step = window(size, row, attack, d, back)
            if first >= 0:
                n = window_cells(
                    cells, (first, step, row), colour, row - 2, out, n, mark, stamp
                )
    return n


@njit(cache=True, nogil=True)
def threat_moves(cells, size, row, colour, out, mark, stamp):
    """Write into ``out`` the empty cells where ``colour`` makes a three (a
    window then holds ``row`` - 2 of its stones and none of the other's);
    return how many."""
    if row <= 3:  # a three needs a stone already there
        return 0
    n = 0
    for start in range(size * size):
        for d in range(4):
            first, step = window(size, row, start, d, 0)
            if first >= 0:
                n = window_cells(
                    cells, (first, step, row), colour, row - 3, out, n, mark, stamp
                )
    return n


@njit(cache=True, nogil=True)
def line_neighbours(cells, board, line, length, out, n, mark, stamp):
    """Append to ``out`` (from ``n``) the empty cells on a window through a
    cell of ``line[:length]``, on a board of (``size``, ``row``); return the
    new count."""
    size, row = board
    for i in range(length):
        for d in range(4):
            for back in range(row):
                start, step = window(size, row, line[i], d, back)
                if start >= 0:
                    n = empty_cells(cells, start, step, row, out, n, mark, stamp)
    return n

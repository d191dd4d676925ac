"""Gomoku line shapes in numba: what a stone makes along each line.

For a colour, an empty cell and one of the four line directions,
:func:`shape_at` names the shape a stone there makes along that line, for
any row length ``row`` (a "four" is one stone short of a row):

- FIVE: a row (``row`` or more: freestyle);
- OPEN_FOUR: two or more cells complete a row next move (cannot be stopped);
- FOUR: one cell completes a row next move (a closed four);
- OPEN_THREE: some next stone on the line makes an open four;
- THREE: some next stone on the line makes a four;
- TWO: a window of the line then holds ``row`` - 3 of the colour's stones and
  none of the other's;
- NONE otherwise.

Where only an exact row wins (the standard rule, and black under renju),
:func:`exact_shape_at` reads the same shapes with exact rows, and two more
that only it makes: OVERLINE (more than ``row`` in a row: no win) and
DOUBLE_FOUR (two cells complete a row, but not at the two ends of one
straight four: two fours on one line).

:func:`shape_move_score` ranks a move by the shapes it makes for the mover
and the ones it takes from the opponent (the same shapes, a little
discounted), with the forks that win (two fours, a four and an open three,
two open threes) worth more than their parts. The search uses it to choose
the few moves a tree node keeps (:func:`mcts.search.gomoku.focus.focus_moves` with
``shapes``) and, with ``shapes`` 2, :func:`quiet_leaf` as the leaf value:
the wins and forced blocks played out, then the quiet position scored by
:func:`shape_value`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...games import gomoku
from ...games.base import BLACK, ONGOING
from ..rollouts import gomoku_rollout, terminal_reward

NONE = 0
TWO = 1
THREE = 2
OPEN_THREE = 3
FOUR = 4
OPEN_FOUR = 5
FIVE = 6
#: Shapes only :func:`exact_shape_at` makes (they have no weights of their
#: own: the pattern board, :mod:`.patterns`, reads them).
OVERLINE = 7
DOUBLE_FOUR = 8
#: The worth of each shape a move makes, by shape code.
SHAPE_WEIGHTS = np.array([0.0, 2.0, 10.0, 40.0, 50.0, 1000.0, 100000.0])
#: Taking a shape from the opponent counts this fraction of making it.
BLOCK_WEIGHT = 0.9
#: Extra worth of a move making two fours or a four and an open three (a
#: win unless the opponent is quicker), and of one making two open threes.
FOUR_FORK = 800.0
THREE_FORK = 300.0
#: Shape-score units per factor e of the odds in :func:`shape_value`.
VALUE_SCALE = 60.0


@njit(cache=True, nogil=True, inline="always")
def _window_start(size, row, r0, c0, dr, dc, back):
    """Return the (row, column) where the window of ``row`` cells along
    (dr, dc) that holds (r0, c0) ``back`` cells from its start begins, or
    (-1, -1) when that window leaves the board."""
    rs = r0 - back * dr
    cs = c0 - back * dc
    re = rs + (row - 1) * dr
    ce = cs + (row - 1) * dc
    if min(rs, cs, re, ce) < 0 or max(rs, cs, re, ce) >= size:
        return -1, -1
    return rs, cs


@njit(cache=True, nogil=True)
def _wins_along(cells, size, row, colour, cell, dr, dc, cap):
    """Return how many distinct empty cells (at most ``cap``) complete a
    ``colour`` window of ``row`` cells along (dr, dc) through ``cell``, and
    whether such a window is already full (a row)."""
    r0 = cell // size
    c0 = cell % size
    found0 = -1
    count = 0
    for back in range(row):
        rs, cs = _window_start(size, row, r0, c0, dr, dc, back)
        if rs < 0:
            continue
        own = 0
        empty = -1
        ok = True
        for k in range(row):
            at = (rs + k * dr) * size + cs + k * dc
            value = cells[at]
            if value == colour:
                own += 1
            elif value == 0 and empty < 0:
                empty = at
            else:
                ok = False
                break
        if not ok:
            continue
        if own == row:
            return count, True
        if own == row - 1 and empty != found0:
            if count == 0:
                found0 = empty
            count += 1
            if count >= cap:
                return count, False
    return count, False


@njit(cache=True, nogil=True)
def shape_at(cells, size, row, colour, cell, d):
    """Return the shape code a ``colour`` stone on the empty ``cell`` makes
    along direction ``d`` (a row of gomoku.DIRECTIONS); ``cells`` (0 empty,
    1 black, 2 white) is left as it was."""
    dr = gomoku.DIRECTIONS[d, 0]
    dc = gomoku.DIRECTIONS[d, 1]
    cells[cell] = colour
    most = max(0, _most_of_each(cells, size, row, cell, dr, dc)[colour - 1])
    shape = NONE
    if most == row:
        shape = FIVE
    elif most == row - 1:
        wins, _ = _wins_along(cells, size, row, colour, cell, dr, dc, 2)
        shape = OPEN_FOUR if wins >= 2 else FOUR
    elif most == row - 2:
        r0 = cell // size
        c0 = cell % size
        for off in range(1 - row, row):
            r = r0 + off * dr
            c = c0 + off * dc
            if off == 0 or r < 0 or c < 0 or r >= size or c >= size:
                continue
            other = r * size + c
            if cells[other] != 0:
                continue
            cells[other] = colour
            wins, _ = _wins_along(cells, size, row, colour, other, dr, dc, 2)
            cells[other] = 0
            if wins >= 2:
                shape = OPEN_THREE
                break
            if wins == 1:
                shape = THREE
    elif most == row - 3 and most > 0:
        shape = TWO
    cells[cell] = 0
    return shape


@njit(cache=True, nogil=True)
def _run_through(cells, size, colour, cell, dr, dc):
    """Return how many ``colour`` stones lie in a row along (dr, dc) through
    the ``colour`` stone on ``cell``."""
    r0 = cell // size
    c0 = cell % size
    run = 1
    for sign in (-1, 1):
        r = r0 + sign * dr
        c = c0 + sign * dc
        while 0 <= r < size and 0 <= c < size and cells[r * size + c] == colour:
            run += 1
            r += sign * dr
            c += sign * dc
    return run


@njit(cache=True, nogil=True, inline="always")
def _along(size, cell, dr, dc, off):
    """Return the cell ``off`` steps from ``cell`` along (dr, dc), or -1
    off the board."""
    r = cell // size + off * dr
    c = cell % size + off * dc
    if r < 0 or c < 0 or r >= size or c >= size:
        return -1
    return r * size + c


@njit(cache=True, nogil=True)
def _exact_wins(cells, size, row, colour, cell, dr, dc):
    """Return how many empty cells along (dr, dc), within ``row`` - 1 of
    ``cell``, make exactly ``row`` ``colour`` stones in a row through
    ``cell`` (at most two are counted), and whether two such cells are the
    two ends of one straight four."""
    count = 0
    first = 0
    for off in range(1 - row, row):
        at = _along(size, cell, dr, dc, off)
        if off == 0 or at < 0 or cells[at] != 0:
            continue
        cells[at] = colour
        run = _run_through(cells, size, colour, cell, dr, dc)
        cells[at] = 0
        if run == row:
            count += 1
            if count == 1:
                first = off
            else:
                return count, off - first == row
    return count, False


@njit(cache=True, nogil=True)
def exact_shape_at(cells, size, row, colour, cell, d):
    """Return the shape code a ``colour`` stone on the empty ``cell`` makes
    along direction ``d`` where only exactly ``row`` in a row wins: FIVE,
    OVERLINE, OPEN_FOUR (a straight four), DOUBLE_FOUR, FOUR, OPEN_THREE
    (some next stone on the line makes a straight four with this one: the
    renju rules' three, but for a forbidden point of that straight four),
    THREE, TWO or NONE, as :func:`shape_at` reads them with rows exact.
    ``cells`` is left as it was."""
    dr = gomoku.DIRECTIONS[d, 0]
    dc = gomoku.DIRECTIONS[d, 1]
    cells[cell] = colour
    run = _run_through(cells, size, colour, cell, dr, dc)
    shape = NONE
    if run == row:
        shape = FIVE
    elif run > row:
        shape = OVERLINE
    else:
        wins, straight = _exact_wins(cells, size, row, colour, cell, dr, dc)
        if wins >= 2:
            shape = OPEN_FOUR if straight else DOUBLE_FOUR
        elif wins == 1:
            shape = FOUR
        else:
            most = max(0, _most_of_each(cells, size, row, cell, dr, dc)[colour - 1])
            if most >= row - 2:
                for off in range(1 - row, row):
                    other = _along(size, cell, dr, dc, off)
                    if off == 0 or other < 0 or cells[other] != 0:
                        continue
                    cells[other] = colour
                    wins, straight = _exact_wins(cells, size, row, colour, cell, dr, dc)
                    cells[other] = 0
                    if straight:
                        shape = OPEN_THREE
                        break
                    if wins >= 1:
                        shape = THREE
            elif most == row - 3 and most > 0:
                shape = TWO
    cells[cell] = 0
    return shape


@njit(cache=True, nogil=True)
def _most_of_each(cells, size, row, cell, dr, dc):
    """Return the most black stones in a window along (dr, dc) through
    ``cell`` that holds no white one, and the most white stones in one that
    holds no black one, in one pass over those windows (-1 where there is
    no such window)."""
    r0 = cell // size
    c0 = cell % size
    most_black = -1
    most_white = -1
    for back in range(row):
        rs, cs = _window_start(size, row, r0, c0, dr, dc, back)
        if rs < 0:
            continue
        black = 0
        white = 0
        for k in range(row):
            value = cells[(rs + k * dr) * size + cs + k * dc]
            if value == 1:
                black += 1
            elif value == 2:
                white += 1
        if white == 0:
            most_black = max(most_black, black)
        if black == 0:
            most_white = max(most_white, white)
    return most_black, most_white


@njit(cache=True, nogil=True)
def _shape_given_most(cells, size, row, colour, cell, d, most):
    """Return :func:`shape_at` knowing ``most``, the most ``colour`` stones
    in a window through ``cell`` free of the other colour's once the stone
    is placed: a two or less needs no more reading."""
    if most >= row - 2:
        return shape_at(cells, size, row, colour, cell, d)
    if most == row - 3 and most > 0:
        return TWO
    return NONE


@njit(cache=True, nogil=True, inline="always")
def _tally(shape, score, fours, threes):
    """Return (score, fours, open threes) with one line's ``shape`` added."""
    score += SHAPE_WEIGHTS[shape]
    if FOUR <= shape <= OPEN_FOUR:
        fours += 1
    elif shape == OPEN_THREE:
        threes += 1
    return score, fours, threes


@njit(cache=True, nogil=True, inline="always")
def _with_forks(score, fours, threes):
    """Return a stone's worth over its four lines, forks included."""
    if fours >= 2 or (fours >= 1 and threes >= 1):
        return score + FOUR_FORK
    if threes >= 2:
        return score + THREE_FORK
    return score


@njit(cache=True, nogil=True)
def side_scores(cells, size, row, cell):
    """Return the worth of the shapes a black and a white stone on the empty
    ``cell`` would make over the four lines, forks included: the sum of
    SHAPE_WEIGHTS of their :func:`shape_at` codes, plus FOUR_FORK or
    THREE_FORK. Both colours are read in one pass, and a line's shape is
    worked out in full only where it may be a three or more (the leaves'
    :func:`shape_value` spends most of its time here)."""
    black, black_fours, black_threes = 0.0, 0, 0
    white, white_fours, white_threes = 0.0, 0, 0
    for d in range(4):
        most_black, most_white = _most_of_each(
            cells, size, row, cell, gomoku.DIRECTIONS[d, 0], gomoku.DIRECTIONS[d, 1]
        )
        # The stone placed on the empty cell adds one to a free window.
        most_black = most_black + 1 if most_black >= 0 else 0
        most_white = most_white + 1 if most_white >= 0 else 0
        black, black_fours, black_threes = _tally(
            _shape_given_most(cells, size, row, 1, cell, d, most_black),
            black,
            black_fours,
            black_threes,
        )
        white, white_fours, white_threes = _tally(
            _shape_given_most(cells, size, row, 2, cell, d, most_white),
            white,
            white_fours,
            white_threes,
        )
    return (
        _with_forks(black, black_fours, black_threes),
        _with_forks(white, white_fours, white_threes),
    )


@njit(cache=True, nogil=True)
def shape_move_score(cells, size, row, mover, cell):
    """Return how much a ``mover`` stone on the empty ``cell`` makes for the
    mover plus BLOCK_WEIGHT times what it takes from the opponent."""
    black, white = side_scores(cells, size, row, cell)
    if mover == 1:
        return black + BLOCK_WEIGHT * white
    return white + BLOCK_WEIGHT * black


@njit(cache=True, nogil=True)
def board_cells(state):
    """Return the intersections of a Gomoku state vector as int64 (0 empty,
    1 black, 2 white)."""
    size = np.int64(state[gomoku.SIZE])
    cells = np.empty(size * size, dtype=np.int64)
    for i in range(size * size):
        cells[i] = np.int64(state[gomoku.HEADER + i])
    return cells


@njit(cache=True, nogil=True)
def shape_value(state):
    """Return the chance that the side to move wins the quiet ``state``, from
    the best move each side has, over the empty cells within distance 2 of
    a stone: a logistic of the mover's best :func:`side_scores` (he plays
    first) minus the opponent's best."""
    size = np.int64(state[gomoku.SIZE])
    row = np.int64(state[gomoku.ROW])
    black_moves = np.int64(state[gomoku.SIDE]) == BLACK
    cells = board_cells(state)
    near = _near_stones(cells, size)
    best_black = 0.0
    best_white = 0.0
    for cell in range(size * size):
        if cells[cell] != 0 or not near[cell]:
            continue
        black, white = side_scores(cells, size, row, cell)
        best_black = max(best_black, black)
        best_white = max(best_white, white)
    if black_moves:
        margin = best_black - BLOCK_WEIGHT * best_white
    else:
        margin = best_white - BLOCK_WEIGHT * best_black
    return 1.0 / (1.0 + math.exp(-margin / VALUE_SCALE))


@njit(cache=True, nogil=True)
def _near_stones(cells, size):
    """Return the mask of the cells within distance 2 of a stone."""
    near = np.zeros(size * size, dtype=np.bool_)
    for cell in range(size * size):
        if cells[cell] == 0:
            continue
        r0 = cell // size
        c0 = cell % size
        for r in range(max(0, r0 - 2), min(size, r0 + 3)):
            for c in range(max(0, c0 - 2), min(size, c0 + 3)):
                near[r * size + c] = True
    return near


@njit(cache=True, nogil=True)
def quiet_leaf(state):
    """Return black's expected score of ``state``: the heavy rollout plays
    the wins and forced blocks until the position is quiet (``state`` ends
    there), which :func:`shape_value` then scores."""
    code = gomoku_rollout(state, np.int64(0))
    if code != ONGOING:
        return terminal_reward(code)
    mover_wins = shape_value(state)
    if np.int64(state[gomoku.SIDE]) == BLACK:
        return mover_wins
    return 1.0 - mover_wins

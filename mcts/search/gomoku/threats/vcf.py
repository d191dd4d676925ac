"""Gomoku's VCF (victory by continuous fours) and the moves that must block
one, in numba.

:func:`vcf` looks for a win by continuous fours for the attacker, who
moves: every attacker move makes a four, and the defender's reply is
forced to its single win cell (a move with two or more win cells wins:
the defender cannot block both). It is sound under each rule:

- the defender's win cells are tracked at every node: when the defender
  has one (his forced block made a four), the attacker's only move is to
  block it, and that block must itself be a four; with two the line fails;
- a defender's forced block can never make a five: after an attacker's
  four the defender has no win cell (it had none, or the four blocked it);
- the attacker's win cells are exact where an overline does not win
  (:func:`~.lines.exact_five`), the defender's are counted freestyle (a
  false one only forces a block);
- under renju, black as the attacker never plays a forbidden point, and
  white's four wins at once when black's forced block is one (black has no
  five to play instead: he has no win cell).

Depth (attacker moves) and nodes are budgeted; the search returns the
winning line (attacker, defender, attacker, ... ending on the attacker's
double threat or five). The same fours played in another order lead to the
same position, so a small table of the positions already found lost (keyed
by their stones, with the depth that was left) cuts those orders off: an
exact cut, since a position lost with as many moves left is lost again.

:func:`defence_moves` gives the moves that must block: the side to move
passes in thought, and if the opponent then has a VCF, only the moves near
that line (on a window through one of its cells) or the mover's own fours
can break it; each is kept only if the opponent's VCF is gone after it. A
move outside that set cannot change any window the line reads, so the same
line still wins: the set is complete.

The kernel proves a new leaf lost for the player who moved into it when
the player to move there has a VCF found within :data:`LEAF_VCF_NODES`
(:func:`has_vcf`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....games import gomoku
from .lines import (
    STONE_KEYS,
    add_unique,
    board_of,
    cells_of,
    exact_five,
    flanked,
    forbidden_in,
    four_moves,
    line_neighbours,
    mirror_of,
    next_fours,
    put,
    win_cells,
    win_cells_through,
    window,
)

#: Attacker moves a VCF may take (plies are about twice this).
VCF_MAX_DEPTH = 20
#: Nodes of the VCF check at a new leaf of the tree (0 turns it off):
#: small, since it runs at nearly every simulation.
LEAF_VCF_NODES = 24
#: Most entries of a VCF's table of positions already found lost (a power
#: of two; a smaller budget gets a smaller table).
VCF_TABLE_SIZE = 4096


@njit(cache=True, nogil=True)
def _root_scan(cells, board, attacker, wins, blocks, out, mark):
    """Read every window near the stones once, on a board of (``size``,
    ``row``, ``rule``): write the attacker's win cells (exact ones where the
    rule asks) into ``wins``, the defender's into ``blocks`` (at most 2
    each) and the attacker's four moves into ``out`` (``mark`` entries set
    to 1 drop repeats). Return (attacker wins, defender wins, four moves)."""
    size, row, rule = board
    exact = exact_five(rule, attacker)
    defender = 3 - attacker
    low_r = size
    high_r = -1
    low_c = size
    high_c = -1
    for cell in range(size * size):
        if cells[cell] != 0:
            low_r = min(low_r, cell // size)
            high_r = max(high_r, cell // size)
            low_c = min(low_c, cell % size)
            high_c = max(high_c, cell % size)
    n_wins = 0
    n_blocks = 0
    n = 0
    # A window that holds a stone starts within row - 1 of the stones' box.
    for r in range(max(0, low_r - row + 1), min(size, high_r + row)):
        for c in range(max(0, low_c - row + 1), min(size, high_c + row)):
            for d in range(4):
                first, step = window(size, row, r * size + c, d, 0)
                if first < 0:
                    continue
                own = 0
                other = 0
                for k in range(row):
                    value = cells[first + k * step]
                    if value == attacker:
                        own += 1
                    elif value == defender:
                        other += 1
                overline = (
                    exact
                    and other == 0
                    and own == row - 1
                    and flanked(cells, size, (first, d, row), attacker)
                )
                if overline:
                    continue  # it does not win under this rule
                if other == 0 and own >= row - 2:
                    for k in range(row):
                        cell = first + k * step
                        if cells[cell] != 0:
                            continue
                        if own == row - 1:
                            if n_wins < 2:
                                n_wins = add_unique(wins, n_wins, cell)
                        elif mark[cell] != 1:
                            mark[cell] = 1
                            out[n] = cell
                            n += 1
                elif own == 0 and other == row - 1 and n_blocks < 2:
                    for k in range(row):
                        cell = first + k * step
                        if cells[cell] == 0:
                            n_blocks = add_unique(blocks, n_blocks, cell)
    return n_wins, n_blocks, n


@njit(cache=True, nogil=True)
def vcf(cells, board, attacker, max_depth, budget, line):
    """Search a win by continuous fours for ``attacker`` (1 black, 2 white),
    who is to move on ``cells`` (restored on return), on a board of
    (``size``, ``row``, ``rule``).

    Returns ``(length, nodes)``: ``line[:length]`` is the winning line
    (attacker, defender, ..., attacker), 0 if none was found within
    ``max_depth`` attacker moves and ``budget`` nodes; ``nodes`` is the
    number of attacker moves tried. A line of length 1 is a five now or a
    double threat now.
    """
    size, row, rule = board
    defender = 3 - attacker
    exact = exact_five(rule, attacker)
    # Under renju: black may not play a forbidden point, as the attacker or
    # as the defender (then white's four wins when the block is one).
    black_attacks = rule == gomoku.RENJU and attacker == 1
    black_defends = rule == gomoku.RENJU and defender == 1
    mirror = mirror_of(cells, board)
    n = size * size
    found = np.empty(2, dtype=np.int64)
    candidates = np.empty(max_depth * n + 1, dtype=np.int64)
    mark = np.zeros(n, dtype=np.int64)
    # The root's win cells and fours from one read of the board; deeper,
    # only the defender's last reply can have made him win cells (the
    # attacker's four left him none), and the attacker has none.
    wins, blocks, fours = _root_scan(
        cells, board, attacker, line, found, candidates, mark
    )
    if wins > 0:
        return 1, 0
    first = np.zeros(max_depth + 1, dtype=np.int64)
    end = np.zeros(max_depth + 1, dtype=np.int64)
    index = np.zeros(max_depth + 1, dtype=np.int64)
    attacks = np.empty(max_depth + 1, dtype=np.int64)
    replies = np.empty(max_depth + 1, dtype=np.int64)
    # Lines that play the same fours in another order meet again: a table
    # of the positions found lost (the key of the stones added, and the
    # attacker moves that were left) cuts them off.
    keys = np.zeros(max_depth + 1, dtype=np.int64)
    # Whether a node's list holds all the attacker's fours (not a lone block).
    complete = np.zeros(max_depth + 1, dtype=np.bool_)
    slots = min(VCF_TABLE_SIZE, 1 << max(4, int(np.log2(max(budget, 1))) + 2))
    lost_keys = np.zeros(slots, dtype=np.int64)
    lost_left = np.zeros(slots, dtype=np.int64)
    stamp = np.int64(1)
    nodes = 0
    depth = 0
    while True:
        # Set up the node at ``depth`` (``blocks`` cells in ``found``).
        first[depth] = 0 if depth == 0 else end[depth - 1]
        index[depth] = first[depth]
        complete[depth] = blocks == 0
        if depth == 0 and blocks == 0:
            end[0] = fours
        elif blocks >= 2:
            end[depth] = first[depth]  # two fives to stop: the line fails
        elif blocks == 1:
            candidates[first[depth]] = found[0]  # the only move: block
            end[depth] = first[depth] + 1
        elif complete[depth - 1]:
            stamp += 1
            end[depth] = next_fours(
                cells,
                (size, row),
                attacker,
                candidates,
                (first[depth - 1], first[depth]),
                (attacks[depth - 1], replies[depth - 1]),
                mark,
                stamp,
            )
        else:
            stamp += 1
            end[depth] = four_moves(
                cells, size, row, attacker, candidates, first[depth], mark, stamp
            )
        # A double threat ends the line: look for one before going deeper.
        for i in range(first[depth], end[depth]):
            move = candidates[i]
            cells[move] = attacker
            threats = win_cells_through(
                cells, (size, row), attacker, move, found, exact
            )
            cells[move] = 0
            if threats >= 2:
                candidates[i] = candidates[first[depth]]
                candidates[first[depth]] = move
                break
        # Try the node's moves; descend on a forced reply, climb when done.
        while True:
            if index[depth] >= end[depth] or nodes >= budget:
                if depth == 0 or nodes >= budget:
                    for i in range(depth):  # restore the board (not the mirror)
                        cells[attacks[i]] = 0
                        cells[replies[i]] = 0
                    return 0, nodes
                slot = keys[depth] & (slots - 1)
                lost_keys[slot] = keys[depth]
                lost_left[slot] = max_depth - depth
                depth -= 1
                put(cells, mirror, attacks[depth], 0)
                put(cells, mirror, replies[depth], 0)
                index[depth] += 1
                continue
            move = candidates[index[depth]]
            nodes += 1
            if black_attacks and forbidden_in(mirror, move):
                index[depth] += 1
                continue
            put(cells, mirror, move, attacker)
            threats = win_cells_through(
                cells, (size, row), attacker, move, found, exact
            )
            if threats == 1 and black_defends and forbidden_in(mirror, found[0]):
                threats = 2  # black cannot block: white's five comes
            if threats >= 2:
                attacks[depth] = move
                for i in range(depth):
                    line[2 * i] = attacks[i]
                    line[2 * i + 1] = replies[i]
                line[2 * depth] = move
                put(cells, mirror, move, 0)
                for i in range(depth):
                    cells[attacks[i]] = 0
                    cells[replies[i]] = 0
                return 2 * depth + 1, nodes
            if threats == 0 or depth + 1 >= max_depth:
                put(cells, mirror, move, 0)
                index[depth] += 1
                continue
            reply = found[0]
            key = keys[depth] ^ STONE_KEYS[attacker, move] ^ STONE_KEYS[defender, reply]
            slot = key & (slots - 1)
            if lost_keys[slot] == key and lost_left[slot] >= max_depth - depth - 1:
                put(cells, mirror, move, 0)  # met before, and lost
                index[depth] += 1
                continue
            put(cells, mirror, reply, defender)
            attacks[depth] = move
            replies[depth] = reply
            keys[depth + 1] = key
            blocks = win_cells_through(
                cells, (size, row), defender, reply, found, False
            )
            depth += 1
            break


@njit(cache=True, nogil=True, inline="always")
def shortest_vcf(cells, board, attacker, max_depth, budget, line):
    """Return :func:`vcf` deepened one attacker move at a time, so the line
    found is a shortest one; ``budget`` bounds the nodes of all the passes."""
    used = 0
    for depth in range(1, max_depth + 1):
        length, nodes = vcf(cells, board, attacker, depth, budget - used, line)
        used += nodes
        if length > 0 or used >= budget:
            return length, used
    return 0, used


@njit(cache=True, nogil=True, inline="always")
def state_vcf(state, attacker, max_depth, budget, line):
    """Return :func:`shortest_vcf` for ``attacker`` (0 the side to move, 1
    the other side, as if the side to move passed) on the state vector
    ``state``."""
    cells, _, _ = cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    if attacker == 1:
        colour = 3 - colour
    return shortest_vcf(cells, board_of(state), colour, max_depth, budget, line)


@njit(cache=True, nogil=True, inline="always")
def has_vcf(state, budget):
    """Return whether the side to move in the ongoing ``state`` wins by a VCF
    found within ``budget`` nodes."""
    cells, _, _ = cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = vcf(
        cells, board_of(state), colour, np.int64(VCF_MAX_DEPTH), budget, line
    )
    return length > 0


@njit(cache=True, nogil=True, inline="always")
def defence_moves(state, budget, out):
    """Write into ``out`` the moves of the side to move that defeat the
    opponent's VCF; return their count, or -1 if the opponent has no VCF
    (within ``budget`` nodes) after a pass.

    A five of the mover's is the answer when he has one. Else the
    candidates are the empty cells on a window through a cell of the
    opponent's line, and the mover's fours (less black's forbidden points
    under renju); each is kept when the opponent's VCF search after it
    (same budget) finds none.

    Under renju the set may miss a defence, rarely: a stone five or more
    points from the line that changes whether one of black's points in it
    is forbidden (through a three's straight-four point).
    """
    cells, size, row = cells_of(state)
    board = board_of(state)
    rule = board[2]
    n = size * size
    mover = np.int64(state[gomoku.SIDE]) + 1
    opponent = 3 - mover
    wins = win_cells(cells, (size, row), mover, out, exact_five(rule, mover))
    if wins > 0:  # a five now defeats everything
        return wins
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = shortest_vcf(
        cells, board, opponent, np.int64(VCF_MAX_DEPTH), budget, line
    )
    if length == 0:
        return -1
    mark = np.zeros(n, dtype=np.int64)
    candidates = np.empty(n, dtype=np.int64)
    count = four_moves(
        cells, size, row, mover, candidates, np.int64(0), mark, np.int64(1)
    )
    count = line_neighbours(
        cells, (size, row), line, length, candidates, count, mark, 1
    )
    kept = 0
    reply = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    mirror = mirror_of(cells, board)
    for i in range(count):
        cell = candidates[i]
        if rule == gomoku.RENJU and mover == 1 and forbidden_in(mirror, cell):
            continue
        put(cells, mirror, cell, mover)
        refuted, _ = vcf(cells, board, opponent, np.int64(VCF_MAX_DEPTH), budget, reply)
        put(cells, mirror, cell, 0)
        if refuted == 0:
            out[kept] = cell
            kept += 1
    return kept

"""Gomoku threat-space search in numba: VCF (victory by continuous fours).

Freestyle rules and any row length ``row`` (the game's option): a *win
cell* of a colour is an empty cell that completes a window of ``row``
cells holding only that colour's stones, so playing it makes ``row`` or
more in a line. A *four* is a move after which its player has a win cell.

:func:`vcf` looks for a win by continuous fours for the attacker, who
moves: every attacker move makes a four, and the defender's reply is
forced to its single win cell (a move with two or more win cells wins:
the defender cannot block both). It is sound under freestyle rules:

- the defender's win cells are tracked at every node: when the defender
  has one (his forced block made a four), the attacker's only move is to
  block it, and that block must itself be a four; with two the line fails;
- a defender's forced block can never make a five: after an attacker's
  four the defender has no win cell (it had none, or the four blocked it).

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

:func:`vct` widens the attack to threes: an attacker move after which he
has a VCF if the defender passes, answered by every defender move that
could break that VCF (the same set as above, the defender's fours
included), each of which must leave the attacker a VCT one three shorter.
A defender's four refutes a three unless the attacker's forced block
wins on its own: some wins are missed, no false one is reported.

The searcher plays a VCF (else a VCT of two threes, else, when the
move's time allows, a deeper one: :func:`deep_vct`) at the root at once,
restricts the root to the moves that must block an opponent's VCF, or
drops the root moves after which the opponent has a VCT of two threes
(deeper ones too with :data:`DEEP_DEFENCE`, off: :func:`deep_threat_losers`)
(:func:`plan_root`); the kernel proves a new leaf lost for the player who
moved into it when the player to move there has a VCF found within a small
budget (:func:`has_vcf`).

The module is over 700 lines because the threat search is one piece (win
cells, fours, VCF, the blocking moves, VCT, the root's plan share their
helpers). The VCT keeps its own stack rather than recursing: a recursive
kernel loaded from numba's cache aborted the process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import gomoku
from .focus import focus_moves, gomoku_move_score
from .gomoku_shapes import shape_move_score
from .tree import Proven, Tree

#: Attacker moves a VCF may take (plies are about twice this).
VCF_MAX_DEPTH = 20
#: Nodes (attacker fours tried) of a VCF search at the root.
ROOT_VCF_NODES = 20_000
#: Nodes of each VCF search that checks whether a root move defends.
DEFENCE_VCF_NODES = 4_000
#: Threes a VCT may play before its last VCF, at the root.
VCT_DEPTH = 2
#: VCF nodes of a VCT search at the root, for the mover and for the opponent.
ROOT_VCT_NODES = 20_000
#: VCF nodes of each VCT search that checks whether a root move defends.
DEFENCE_VCT_NODES = 3_000
#: Root moves checked against the opponent's VCT (the best by focus score).
DEFENCE_VCT_MOVES = 15
#: Deepest VCT (threes before the last VCF) tried at the root when a move's
#: time allows (:func:`deep_vct`).
DEEP_VCT_MAX_DEPTH = 6
#: VCF nodes a second of a move's time buys for the deeper VCTs at the root.
#: On the 217 won positions of ``python -m mcts threats``, 100,000 nodes
#: take a median 0.11 s and at most about 0.55 s; 200,000 won more of them
#: (90 against 66) but kept the win no more often (README, Performance).
DEEP_VCT_NODES_PER_SECOND = 100_000
#: Whether half of those nodes look for the opponent's deeper VCT instead, to
#: drop the root moves that leave him one (:func:`deep_threat_losers`). Off:
#: against the same player without it, it scored 47.0% over 100 games at
#: 0.5 s a move (README, Performance).
DEEP_DEFENCE = False
#: Nodes of the VCF check at a new leaf of the tree (0 turns it off):
#: small, since it runs at nearly every simulation.
LEAF_VCF_NODES = 24
#: Most entries of a VCF's table of positions already found lost (a power
#: of two; a smaller budget gets a smaller table).
VCF_TABLE_SIZE = 4096
#: A random key per colour (1 black, 2 white) and intersection of the
#: largest board: a position's key is the exclusive or of its stones'.
_KEYS = np.random.default_rng(20261127).integers(
    1, 2**63, size=(3, gomoku.MAX_SIZE * gomoku.MAX_SIZE), dtype=np.int64
)


@njit(cache=True, nogil=True)
def _cells_of(state):
    """Return (cells as int64 0/1/2, size, row) of a state vector."""
    size = np.int64(state[gomoku.SIZE])
    cells = np.empty(size * size, dtype=np.int64)
    for i in range(size * size):
        cells[i] = np.int64(state[gomoku.HEADER + i])
    return cells, size, np.int64(state[gomoku.ROW])


@njit(cache=True, nogil=True)
def _window(size, row, cell, d, back):
    """Return (first cell, step) of the window of ``row`` cells along
    direction ``d`` holding ``cell`` ``back`` cells from its start; first is
    -1 if the window leaves the board."""
    dr = gomoku.DIRECTIONS[d, 0]
    dc = gomoku.DIRECTIONS[d, 1]
    rs = cell // size - back * dr
    cs = cell % size - back * dc
    re = rs + (row - 1) * dr
    ce = cs + (row - 1) * dc
    if min(rs, cs, re, ce) < 0 or max(rs, cs, re, ce) >= size:
        return -1, 0
    return rs * size + cs, dr * size + dc


@njit(cache=True, nogil=True)
def _add_unique(out, n, cell):
    """Append ``cell`` to ``out[:n]`` unless present; return the new count."""
    for i in range(n):
        if out[i] == cell:
            return n
    out[n] = cell
    return n + 1


@njit(cache=True, nogil=True)
def win_cells_through(cells, size, row, colour, cell, out):
    """Write into ``out`` the distinct win cells of ``colour`` on windows
    through ``cell``; return how many (at most 2 are collected: more tell
    nothing more)."""
    n = 0
    for d in range(4):
        for back in range(row):
            start, step = _window(size, row, cell, d, back)
            if start < 0:
                continue
            own = 0
            empty = -1
            ok = True
            for k in range(row):
                value = cells[start + k * step]
                if value == colour:
                    own += 1
                elif value == 0 and empty < 0:
                    empty = start + k * step
                else:
                    ok = False
                    break
            if ok and own == row - 1 and empty >= 0:
                n = _add_unique(out, n, empty)
                if n >= 2:
                    return n
    return n


@njit(cache=True, nogil=True)
def win_cells(cells, size, row, colour, out):
    """Write into ``out`` the distinct win cells of ``colour`` anywhere on the
    board; return how many (at most 2 are collected)."""
    n = 0
    for start in range(size * size):
        for d in range(4):
            first, step = _window(size, row, start, d, 0)
            if first < 0:
                continue
            own = 0
            empty = -1
            ok = True
            for k in range(row):
                value = cells[first + k * step]
                if value == colour:
                    own += 1
                elif value == 0 and empty < 0:
                    empty = first + k * step
                else:
                    ok = False
                    break
            if ok and own == row - 1 and empty >= 0:
                n = _add_unique(out, n, empty)
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
            first, step = _window(size, row, start, d, 0)
            if first >= 0:
                n = _window_cells(
                    cells, first, step, row, colour, row - 2, out, n, mark, stamp
                )
    return n


# The three window helpers below are inlined into their callers: called, they
# cost the threat search about a tenth of its nodes a second.
@njit(cache=True, nogil=True, inline="always")
def _window_cells(cells, first, step, row, colour, stones, out, n, mark, stamp):
    """Append to ``out`` (from ``n``) the empty cells of the window at
    ``first`` along ``step`` if it holds ``stones`` stones of ``colour`` and
    no other (``row`` - 2: each cell is a four move; ``row`` - 3: a three),
    skipping cells whose ``mark`` is ``stamp`` and marking the others;
    return the new count."""
    own, empties = _own_and_empty(cells, first, step, row, colour)
    if own != stones or empties != row - stones:
        return n
    return _empty_cells(cells, first, step, row, out, n, mark, stamp)


@njit(cache=True, nogil=True, inline="always")
def _empty_cells(cells, first, step, row, out, n, mark, stamp):
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
def _own_and_empty(cells, first, step, row, colour):
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
            first, step = _window(size, row, cell, d, back)
            if first >= 0:
                own, empties = _own_and_empty(cells, first, step, row, colour)
                if own == row - 2 and empties == 2:
                    return True
    return False


@njit(cache=True, nogil=True)
def next_fours(
    cells, size, row, colour, out, before, start_at, attack, reply, mark, stamp
):
    """Append to ``out`` from ``start_at`` the cells where ``colour`` makes a
    four after its four at ``attack`` and the block at ``reply``, given the
    ones before them, ``out[before:start_at]``; return the new end. The same
    cells as :func:`four_moves`, without reading the whole board: a four
    move before stays one unless it is taken or a window through ``reply``
    made it (else ``attack`` made a second win cell, which ends the line
    before this is asked), and the new ones lie on windows through
    ``attack``."""
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
            first, step = _window(size, row, attack, d, back)
            if first >= 0:
                n = _window_cells(
                    cells, first, step, row, colour, row - 2, out, n, mark, stamp
                )
    return n


@njit(cache=True, nogil=True)
def _root_scan(cells, size, row, attacker, wins, blocks, out, mark):
    """Read every window near the stones once: write the attacker's win
    cells into ``wins``, the defender's into ``blocks`` (at most 2 each) and
    the attacker's four moves into ``out`` (``mark`` entries set to 1 drop
    repeats). Return (attacker wins, defender wins, four moves)."""
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
                first, step = _window(size, row, r * size + c, d, 0)
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
                if other == 0 and own >= row - 2:
                    for k in range(row):
                        cell = first + k * step
                        if cells[cell] != 0:
                            continue
                        if own == row - 1:
                            if n_wins < 2:
                                n_wins = _add_unique(wins, n_wins, cell)
                        elif mark[cell] != 1:
                            mark[cell] = 1
                            out[n] = cell
                            n += 1
                elif own == 0 and other == row - 1 and n_blocks < 2:
                    for k in range(row):
                        cell = first + k * step
                        if cells[cell] == 0:
                            n_blocks = _add_unique(blocks, n_blocks, cell)
    return n_wins, n_blocks, n


@njit(cache=True, nogil=True)
def vcf(cells, size, row, attacker, max_depth, budget, line):
    """Search a win by continuous fours for ``attacker`` (1 black, 2 white),
    who is to move on ``cells`` (restored on return).

    Returns ``(length, nodes)``: ``line[:length]`` is the winning line
    (attacker, defender, ..., attacker), 0 if none was found within
    ``max_depth`` attacker moves and ``budget`` nodes; ``nodes`` is the
    number of attacker moves tried. A line of length 1 is a five now or a
    double threat now.
    """
    defender = 3 - attacker
    n = size * size
    found = np.empty(2, dtype=np.int64)
    candidates = np.empty(max_depth * n + 1, dtype=np.int64)
    mark = np.zeros(n, dtype=np.int64)
    # The root's win cells and fours from one read of the board; deeper,
    # only the defender's last reply can have made him win cells (the
    # attacker's four left him none), and the attacker has none.
    wins, blocks, fours = _root_scan(
        cells, size, row, attacker, line, found, candidates, mark
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
    stamp = 1
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
                size,
                row,
                attacker,
                candidates,
                first[depth - 1],
                first[depth],
                attacks[depth - 1],
                replies[depth - 1],
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
            threats = win_cells_through(cells, size, row, attacker, move, found)
            cells[move] = 0
            if threats >= 2:
                candidates[i] = candidates[first[depth]]
                candidates[first[depth]] = move
                break
        # Try the node's moves; descend on a forced reply, climb when done.
        while True:
            if index[depth] >= end[depth] or nodes >= budget:
                if depth == 0 or nodes >= budget:
                    for i in range(depth):  # restore the board
                        cells[attacks[i]] = 0
                        cells[replies[i]] = 0
                    return 0, nodes
                slot = keys[depth] & (slots - 1)
                lost_keys[slot] = keys[depth]
                lost_left[slot] = max_depth - depth
                depth -= 1
                cells[attacks[depth]] = 0
                cells[replies[depth]] = 0
                index[depth] += 1
                continue
            move = candidates[index[depth]]
            nodes += 1
            cells[move] = attacker
            threats = win_cells_through(cells, size, row, attacker, move, found)
            if threats >= 2:
                attacks[depth] = move
                for i in range(depth):
                    line[2 * i] = attacks[i]
                    line[2 * i + 1] = replies[i]
                line[2 * depth] = move
                cells[move] = 0
                for i in range(depth):
                    cells[attacks[i]] = 0
                    cells[replies[i]] = 0
                return 2 * depth + 1, nodes
            if threats == 0 or depth + 1 >= max_depth:
                cells[move] = 0
                index[depth] += 1
                continue
            reply = found[0]
            key = keys[depth] ^ _KEYS[attacker, move] ^ _KEYS[defender, reply]
            slot = key & (slots - 1)
            if lost_keys[slot] == key and lost_left[slot] >= max_depth - depth - 1:
                cells[move] = 0  # met before, and lost
                index[depth] += 1
                continue
            cells[reply] = defender
            attacks[depth] = move
            replies[depth] = reply
            keys[depth + 1] = key
            blocks = win_cells_through(cells, size, row, defender, reply, found)
            depth += 1
            break


@njit(cache=True, nogil=True)
def shortest_vcf(cells, size, row, attacker, max_depth, budget, line):
    """Return :func:`vcf` deepened one attacker move at a time, so the line
    found is a shortest one; ``budget`` bounds the nodes of all the passes."""
    used = 0
    for depth in range(1, max_depth + 1):
        length, nodes = vcf(cells, size, row, attacker, depth, budget - used, line)
        used += nodes
        if length > 0 or used >= budget:
            return length, used
    return 0, used


@njit(cache=True, nogil=True)
def state_vcf(state, attacker, max_depth, budget, line):
    """Return :func:`shortest_vcf` for ``attacker`` (0 the side to move, 1
    the other side, as if the side to move passed) on the state vector
    ``state``."""
    cells, size, row = _cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    if attacker == 1:
        colour = 3 - colour
    return shortest_vcf(cells, size, row, colour, max_depth, budget, line)


@njit(cache=True, nogil=True)
def has_vcf(state, budget):
    """Return whether the side to move in the ongoing ``state`` wins by a VCF
    found within ``budget`` nodes."""
    cells, size, row = _cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = vcf(cells, size, row, colour, VCF_MAX_DEPTH, budget, line)
    return length > 0


@njit(cache=True, nogil=True)
def defence_moves(state, budget, out):
    """Write into ``out`` the moves of the side to move that defeat the
    opponent's VCF; return their count, or -1 if the opponent has no VCF
    (within ``budget`` nodes) after a pass.

    A five of the mover's is the answer when he has one. Else the
    candidates are the empty cells on a window through a cell of the
    opponent's line, and the mover's fours; each is kept when the
    opponent's VCF search after it (same budget) finds none.
    """
    cells, size, row = _cells_of(state)
    n = size * size
    mover = np.int64(state[gomoku.SIDE]) + 1
    opponent = 3 - mover
    wins = win_cells(cells, size, row, mover, out)
    if wins > 0:  # a five now defeats everything
        return wins
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = shortest_vcf(cells, size, row, opponent, VCF_MAX_DEPTH, budget, line)
    if length == 0:
        return -1
    mark = np.zeros(n, dtype=np.int64)
    candidates = np.empty(n, dtype=np.int64)
    count = four_moves(cells, size, row, mover, candidates, 0, mark, 1)
    for i in range(length):
        for d in range(4):
            for back in range(row):
                start, step = _window(size, row, line[i], d, back)
                if start < 0:
                    continue
                for k in range(row):
                    cell = start + k * step
                    if cells[cell] == 0 and mark[cell] != 1:
                        mark[cell] = 1
                        candidates[count] = cell
                        count += 1
    kept = 0
    reply = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    for i in range(count):
        cell = candidates[i]
        cells[cell] = mover
        refuted, _ = vcf(cells, size, row, opponent, VCF_MAX_DEPTH, budget, reply)
        cells[cell] = 0
        if refuted == 0:
            out[kept] = cell
            kept += 1
    return kept


@njit(cache=True, nogil=True)
def _threat_moves(cells, size, row, colour, out, mark, stamp):
    """Write into ``out`` the empty cells where ``colour`` makes a three (a
    window then holds ``row`` - 2 of its stones and none of the other's);
    return how many."""
    if row <= 3:  # a three needs a stone already there
        return 0
    n = 0
    for start in range(size * size):
        for d in range(4):
            first, step = _window(size, row, start, d, 0)
            if first >= 0:
                n = _window_cells(
                    cells, first, step, row, colour, row - 3, out, n, mark, stamp
                )
    return n


@njit(cache=True, nogil=True)
def _line_neighbours(cells, size, row, line, length, out, n, mark, stamp):
    """Append to ``out`` (from ``n``) the empty cells on a window through a
    cell of ``line[:length]``; return the new count."""
    for i in range(length):
        for d in range(4):
            for back in range(row):
                start, step = _window(size, row, line[i], d, back)
                if start >= 0:
                    n = _empty_cells(cells, start, step, row, out, n, mark, stamp)
    return n


@njit(cache=True, nogil=True)
def _vct_zero(cells, size, row, attacker, budget):
    """Return the first move of a VCF for ``attacker`` (to move), or -1;
    ``budget[0]`` (VCF nodes) is spent."""
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, used = vcf(cells, size, row, attacker, VCF_MAX_DEPTH, budget[0], line)
    budget[0] -= used
    return line[0] if length > 0 else -1


@njit(cache=True, nogil=True)
def _threats(cells, size, row, attacker, moves, mark, stamp):
    """Write into ``moves`` the attacker's candidate threes (only the block
    when the defender has one win cell), the best shapes first; return how
    many (0 with two)."""
    found = np.empty(2, dtype=np.int64)
    blocks = win_cells(cells, size, row, 3 - attacker, found)
    if blocks >= 2:
        return 0
    if blocks == 1:
        moves[0] = found[0]
        return 1
    count = _threat_moves(cells, size, row, attacker, moves, mark, stamp)
    scores = np.empty(count)
    for i in range(count):
        scores[i] = -shape_move_score(cells, size, row, attacker, moves[i])
    moves[:count] = moves[:count][np.argsort(scores, kind="mergesort")]
    return count


@njit(cache=True, nogil=True)
def _defences(cells, size, row, attacker, budget, out, mark, stamp):
    """With the attacker's three on the board, return how many defender
    moves are written into ``out`` that could stop the attacker's VCF after
    a defender pass (cells on a window through the VCF line, and the
    defender's fours), or -1 when there is no such VCF (not a threat)."""
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, used = vcf(cells, size, row, attacker, VCF_MAX_DEPTH, budget[0], line)
    budget[0] -= used
    if length == 0:
        return -1
    total = four_moves(cells, size, row, 3 - attacker, out, 0, mark, stamp)
    return _line_neighbours(cells, size, row, line, length, out, total, mark, stamp)


@njit(cache=True, nogil=True)
def vct(cells, size, row, attacker, depth, budget):
    """Search a win by continuous threats for ``attacker``, who is to move
    on ``cells`` (restored on return): a VCF, or a move making a three after
    which the attacker has a VCF if the defender passes, such that every
    defence leaves a VCT of ``depth`` - 1 threes. Return the first move, or
    -1 if none was found; ``budget[0]`` (VCF nodes) is spent as it goes.

    Sound: a defender move outside the windows of the attacker's VCF line
    and that makes no four for the defender leaves that line winning (see
    :func:`defence_moves`); the others are all searched. A four of the
    defender's refutes the threat unless the attacker's forced block wins
    on its own (this loses some wins, never makes a false one).

    Depth first with an explicit stack, one level per three (numba cannot
    cache a recursive function): level ``L`` tries its threes in turn, and
    for the current one its defences in turn, each answered by a VCF or by
    level ``L`` + 1.
    """
    first = _vct_zero(cells, size, row, attacker, budget)
    if first >= 0 or depth <= 0 or budget[0] <= 0:
        return first
    n = size * size
    moves = np.empty((depth, n), dtype=np.int64)
    defences = np.empty((depth, n), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    total = np.zeros(depth, dtype=np.int64)
    threat = np.zeros(depth, dtype=np.int64)  # the three being tried
    answer = np.zeros(depth, dtype=np.int64)  # the defence being answered
    mark = np.zeros(n, dtype=np.int64)
    stamp = 1
    level = 0
    count[0] = _threats(cells, size, row, attacker, moves[0], mark, stamp)
    threat[0] = -1
    while True:
        # Level ``level``: its next three.
        threat[level] += 1
        if threat[level] >= count[level] or budget[0] <= 0:
            # No three of this level wins: the defence above it holds.
            if level == 0:
                return -1
            level -= 1
            cells[defences[level, answer[level]]] = 0
            cells[moves[level, threat[level]]] = 0
            continue
        cells[moves[level, threat[level]]] = attacker
        stamp += 1
        total[level] = _defences(
            cells, size, row, attacker, budget, defences[level], mark, stamp
        )
        answer[level] = -1
        # Its defences, each answered by a VCF or by the next level.
        while True:
            if total[level] < 0:  # not a threat
                cells[moves[level, threat[level]]] = 0
                break
            answer[level] += 1
            if answer[level] >= total[level]:  # every defence loses
                cells[moves[level, threat[level]]] = 0
                if level == 0:
                    return moves[0, threat[0]]
                level -= 1
                cells[defences[level, answer[level]]] = 0
                continue
            cells[defences[level, answer[level]]] = 3 - attacker
            if _vct_zero(cells, size, row, attacker, budget) >= 0:
                cells[defences[level, answer[level]]] = 0
                continue
            if level + 1 < depth and budget[0] > 0:
                level += 1
                stamp += 1
                count[level] = _threats(
                    cells, size, row, attacker, moves[level], mark, stamp
                )
                threat[level] = -1
                break
            # This defence holds: the three fails.
            cells[defences[level, answer[level]]] = 0
            cells[moves[level, threat[level]]] = 0
            break


@njit(cache=True, nogil=True)
def state_vct(state, attacker, depth, budget):
    """Return :func:`vct`'s first move (or -1) for ``attacker`` (0 the side
    to move, 1 the other side, as if the side to move passed) on the state
    vector ``state``, spending at most ``budget`` VCF nodes."""
    cells, size, row = _cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    if attacker == 1:
        colour = 3 - colour
    left = np.array([budget], dtype=np.int64)
    return vct(cells, size, row, colour, depth, left)


@njit(cache=True, nogil=True)
def vct_losers(state, moves, count, budget, lost):
    """Set ``lost[i]`` for each of ``moves[:count]`` after which the
    opponent wins by a VCT (:data:`VCT_DEPTH`, ``budget`` VCF nodes each)."""
    cells, size, row = _cells_of(state)
    mover = np.int64(state[gomoku.SIDE]) + 1
    left = np.zeros(1, dtype=np.int64)
    for i in range(count):
        cells[moves[i]] = mover
        left[0] = budget
        lost[i] = vct(cells, size, row, 3 - mover, VCT_DEPTH, left) >= 0
        cells[moves[i]] = 0


@njit(cache=True, nogil=True)
def _deepening(cells, size, row, colour, depth, left):
    """Return (the first move of a VCT for ``colour``, to move on ``cells``,
    or -1; its threes): :func:`vct` at ``depth`` threes, then one more while
    ``left[0]`` VCF nodes last, up to :data:`DEEP_VCT_MAX_DEPTH` (deepening
    first finds the short wins a deep search would spend its budget
    missing)."""
    while depth <= DEEP_VCT_MAX_DEPTH and left[0] > 0:
        move = vct(cells, size, row, colour, depth, left)
        if move >= 0:
            return move, depth
        depth += 1
    return -1, depth


@njit(cache=True, nogil=True)
def deep_vct(state, depth, budget):
    """Return (the first move of a VCT for the side to move on the state
    vector ``state``, or -1; the VCF nodes left of ``budget``), searching
    ``depth`` threes and deeper (:func:`_deepening`)."""
    cells, size, row = _cells_of(state)
    mover = np.int64(state[gomoku.SIDE]) + 1
    left = np.array([budget], dtype=np.int64)
    move, _ = _deepening(cells, size, row, mover, depth, left)
    return move, left[0]


@njit(cache=True, nogil=True)
def deep_threat_losers(state, depth, budget, moves, count, lost):
    """The opponent's deeper threat: if, were the side to move to pass, the
    opponent had a VCT of ``depth`` threes or more (:func:`_deepening`,
    within half of ``budget`` VCF nodes), set ``lost[i]`` for each of
    ``moves[:count]`` after which he still has one of as many threes (the
    other half shared among them: a check that runs out keeps its move) and
    return those threes; else return -1."""
    cells, size, row = _cells_of(state)
    mover = np.int64(state[gomoku.SIDE]) + 1
    left = np.array([budget // 2], dtype=np.int64)
    threat, threes = _deepening(cells, size, row, 3 - mover, depth, left)
    if threat < 0:
        return -1
    each = (budget - budget // 2 + left[0]) // max(count, 1)
    for i in range(count):
        cells[moves[i]] = mover
        left[0] = each
        lost[i] = vct(cells, size, row, 3 - mover, threes, left) >= 0
        cells[moves[i]] = 0
    return threes


# ---- the root rule (Python) -------------------------------------------------------
def plan_root(
    tree: Tree,
    state: np.ndarray,
    width: int,
    *,
    budget: int = ROOT_VCF_NODES,
    defence_budget: int = DEFENCE_VCF_NODES,
    vct_depth: int = VCT_DEPTH,
    vct_budget: int = ROOT_VCT_NODES,
    defence_vct_budget: int = DEFENCE_VCT_NODES,
    deep_budget: int = 0,
    deep_defence: bool = DEEP_DEFENCE,
) -> Tree:
    """Return the tree to search the ongoing Gomoku ``state`` with.

    If the side to move has a VCF: a fresh tree whose root's only child is
    its first move, proven won (the search then stops at once). Else, if the
    opponent has one after a pass: ``tree`` with its root's other children
    proven lost, or, when the root holds none of the moves that must block
    (:func:`defence_moves`), a fresh tree whose root holds those (the
    ``3 * width`` best by the focus score when ``width`` is above 0).

    Else the same with threes (``vct_depth`` above 0): a VCT of the mover's
    is played at once; against the opponent's, the DEFENCE_VCT_MOVES best
    moves by focus score are each checked, those after which the opponent
    still has a VCT are proven lost and the root keeps the others. Else
    ``tree`` unchanged. ``deep_budget`` VCF nodes (a move's time buys them)
    look for the mover's VCT deeper than ``vct_depth`` (:func:`deep_vct`),
    and with ``deep_defence`` half of them, the rest for the opponent's: the
    DEFENCE_VCT_MOVES best moves that leave him one are proven lost the same
    way (:func:`deep_threat_losers`).
    """
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = state_vcf(state, 0, VCF_MAX_DEPTH, budget, line)
    if length > 0:
        return _rooted(np.array(line[:1]), proven=Proven.WIN)
    size = int(state[gomoku.SIZE])
    blocks = np.empty(size * size, dtype=np.int64)
    count = defence_moves(state, defence_budget, blocks)
    if count == 0:  # no defence: search as usual
        return tree
    if count > 0:
        moves = blocks[:count]
        if width > 0 and count > 3 * width:
            scores = np.array([gomoku_move_score(state, move) for move in moves])
            moves = moves[np.argsort(-scores, kind="stable")[: 3 * width]]
        return _restricted(tree, moves, set(blocks[:count].tolist()), None)
    if not vct_depth:
        return tree
    first = state_vct(state, 0, vct_depth, vct_budget)
    # The mover's deeper VCT spends the budget, or half of it when the rest
    # looks for the opponent's.
    attack = deep_budget // 2 if deep_defence else deep_budget
    left = deep_budget
    if first < 0:  # at once with no budget, but compiled by any first search
        first, unspent = deep_vct(state, vct_depth + 1, attack)
        left = deep_budget - attack + unspent
    if first >= 0:
        return _rooted(np.array([first]), proven=Proven.WIN)
    short_threat = state_vct(state, 1, vct_depth, vct_budget) >= 0
    if not short_threat and (not deep_defence or left <= 0):
        return tree  # no threat, or none looked for deeper
    candidates = np.empty(size * size, dtype=np.int64)
    legal = 0
    for cell in range(size * size):
        if state[gomoku.HEADER + cell] == 0:
            candidates[legal] = cell
            legal += 1
    count = focus_moves(gomoku.GAME_ID, state, candidates, legal, DEFENCE_VCT_MOVES)
    lost = np.zeros(count, dtype=np.bool_)
    if short_threat:
        vct_losers(state, candidates, count, defence_vct_budget, lost)
    elif deep_threat_losers(state, vct_depth + 1, left, candidates, count, lost) < 0:
        return tree  # no deeper threat either
    moves = candidates[:count][~lost]
    if len(moves) == 0:
        return tree
    losers = set(candidates[:count][lost].tolist())
    return _restricted(tree, moves, set(moves.tolist()), losers)


def _restricted(
    tree: Tree, moves: np.ndarray, good: set[int], losers: set[int] | None
) -> Tree:
    """Return ``tree`` with its root children proven lost (those in
    ``losers``, or when None all those not in ``good``) if one of its
    children is in ``good``; else a fresh tree whose root holds ``moves``."""
    children = tree.children(0)
    if any(int(tree.move[child]) in good for child in children):
        for child in children:
            move = int(tree.move[child])
            if (move in losers) if losers is not None else (move not in good):
                tree.proven[child] = Proven.LOSS
        return tree
    return _rooted(moves, proven=Proven.UNKNOWN)


def _rooted(moves: np.ndarray, *, proven: Proven) -> Tree:
    """Return a fresh tree whose root's children are ``moves``, each marked
    ``proven`` (a proven win also proves the root, and counts one visit so
    the result shows it)."""
    tree = Tree()
    count = len(moves)
    tree.reserve(1 + count)
    tree.first_child[0] = 1
    tree.n_children[0] = count
    for k, move in enumerate(moves):
        child = 1 + k
        tree.parent[child] = 0
        tree.move[child] = int(move)
        tree.first_child[child] = -1
        tree.n_children[child] = 0
        tree.visits[child] = 0
        tree.value_sum[child] = 0.0
        tree.proven[child] = proven
    tree.size = 1 + count
    if proven == Proven.WIN:
        tree.proven[0] = Proven.LOSS  # for the player who moved into the root
        tree.visits[0] = tree.visits[1] = 1
        tree.value_sum[1] = 1.0
    return tree

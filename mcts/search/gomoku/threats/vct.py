"""Gomoku's VCT (victory by continuous threats: threes, then a VCF), in
numba.

:func:`vct` widens the attack to threes: an attacker move after which he
has a VCF if the defender passes, answered by every defender move that
could break that VCF (the cells on a window through its line, and the
defender's fours, as :func:`~.vcf.defence_moves` reads them), each of which
must leave the attacker a VCT one three shorter. A defender's four refutes
a three unless the attacker's forced block wins on its own: some wins are
missed, no false one is reported. A table of the positions found lost
(:func:`lost_table`) cuts off the same threes met in another order.

:func:`deep_vct` deepens it one three at a time while a budget lasts;
:func:`vct_losers` finds the moves after which the opponent has one. The
VCT keeps its own stack rather than recursing: a recursive kernel loaded
from numba's cache aborted the process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....games import gomoku
from ..shapes import shape_move_score
from .lines import (
    STONE_KEYS,
    board_of,
    cells_of,
    forbidden_in,
    four_moves,
    line_neighbours,
    mirror_of,
    put,
    threat_moves,
    win_cells,
)
from .vcf import VCF_MAX_DEPTH, has_vcf, vcf

#: Threes a VCT may play before its last VCF, at the root.
VCT_DEPTH = 2
#: VCF nodes of the VCT check (one three, then fours) at a new leaf of the
#: heavy search's tree (:func:`wins_by_threats`). Off (0): it costs more
#: than half the simulations a second and kept no more of Rapfi's proven
#: wins in ``python -m mcts.lab conversion`` (200 nodes: 172/217, 1,000:
#: 170/217, against 170/217 twice without; docs/experiments).
LEAF_VCT_NODES = 0
#: Deepest VCT (threes before the last VCF) tried at the root when a move's
#: time allows (:func:`deep_vct`).
DEEP_VCT_MAX_DEPTH = 6
#: Most entries of a VCT's table of positions already found lost (a power
#: of two; a smaller budget gets a smaller table).
VCT_TABLE_SIZE = 1 << 16


@njit(cache=True, nogil=True)
def lost_table(budget):
    """Return an empty table of positions found lost (their keys, and the
    threes that were left: -1 for an empty slot), sized for a search of
    ``budget`` VCF nodes."""
    slots = min(VCT_TABLE_SIZE, 1 << max(4, int(np.log2(max(budget, 1)))))
    return np.zeros(slots, dtype=np.int64), np.full(slots, -1, dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _vct_zero(cells, board, attacker, budget):
    """Return the first move of a VCF for ``attacker`` (to move), or -1;
    ``budget[0]`` (VCF nodes) is spent."""
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, used = vcf(cells, board, attacker, np.int64(VCF_MAX_DEPTH), budget[0], line)
    budget[0] -= used
    return line[0] if length > 0 else -1


@njit(cache=True, nogil=True, inline="always")
def _threats(cells, board, attacker, moves, mark, stamp):
    """Write into ``moves`` the attacker's candidate threes (only the block
    when the defender has one win cell), the best shapes first; return how
    many (0 with two)."""
    size, row, _ = board
    found = np.empty(2, dtype=np.int64)
    blocks = win_cells(cells, (size, row), 3 - attacker, found, False)
    if blocks >= 2:
        return 0
    if blocks == 1:
        moves[0] = found[0]
        return 1
    count = threat_moves(cells, size, row, attacker, moves, mark, stamp)
    scores = np.empty(count)
    for i in range(count):
        scores[i] = -shape_move_score(cells, size, row, attacker, moves[i])
    moves[:count] = moves[:count][np.argsort(scores, kind="mergesort")]
    return count


@njit(cache=True, nogil=True, inline="always")
def _defences(cells, board, attacker, budget, out, mark, stamp):
    """With the attacker's three on the board, return how many defender
    moves are written into ``out`` that could stop the attacker's VCF after
    a defender pass (cells on a window through the VCF line, and the
    defender's fours), or -1 when there is no such VCF (not a threat)."""
    size, row, _ = board
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, used = vcf(cells, board, attacker, np.int64(VCF_MAX_DEPTH), budget[0], line)
    budget[0] -= used
    if length == 0:
        return -1
    total = four_moves(cells, size, row, 3 - attacker, out, np.int64(0), mark, stamp)
    return line_neighbours(cells, (size, row), line, length, out, total, mark, stamp)


@njit(cache=True, nogil=True, inline="always")
def vct(cells, board, attacker, depth, budget):
    """:func:`search_vct` with a table of its own."""
    lost_keys, lost_left = lost_table(budget[0])
    return search_vct(cells, board, attacker, depth, budget, lost_keys, lost_left)


@njit(cache=True, nogil=True)
def search_vct(cells, board, attacker, depth, budget, lost_keys, lost_left):
    """Search a win by continuous threats for ``attacker``, who is to move
    on ``cells`` (restored on return), on a board of (``size``, ``row``,
    ``rule``): a VCF, or a move making a three after
    which the attacker has a VCF if the defender passes, such that every
    defence leaves a VCT of ``depth`` - 1 threes. Return the first move, or
    -1 if none was found; ``budget[0]`` (VCF nodes) is spent as it goes.

    Sound: a defender move outside the windows of the attacker's VCF line
    and that makes no four for the defender leaves that line winning (see
    :func:`~.vcf.defence_moves`); the others are all searched. A four of the
    defender's refutes the threat unless the attacker's forced block wins
    on its own (this loses some wins, never makes a false one). Under renju
    black plays no forbidden point, as the attacker or as a defence; the
    defences may then miss one, rarely, as :func:`~.vcf.defence_moves`
    says.

    Depth first with an explicit stack, one level per three (numba cannot
    cache a recursive function): level ``L`` tries its threes in turn, and
    for the current one its defences in turn, each answered by a VCF or by
    level ``L`` + 1.

    The same threes and defences played in another order meet the same
    position: ``lost_keys`` and ``lost_left`` (:func:`lost_table`) remember
    the positions, keyed by the stones added to ``cells``, where every three
    failed with as many threes left, and such a position is not searched
    again with no more left (an exact cut; a search cut short by the budget
    remembers nothing). The table may be shared by searches of the same
    ``cells``.
    """
    first = _vct_zero(cells, board, attacker, budget)
    if first >= 0 or depth <= 0 or budget[0] <= 0:
        return first
    size, _, rule = board
    black_attacks = rule == gomoku.RENJU and attacker == 1
    black_defends = rule == gomoku.RENJU and attacker == 2
    mirror = mirror_of(cells, board)
    n = size * size
    moves = np.empty((depth, n), dtype=np.int64)
    defences = np.empty((depth, n), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    total = np.zeros(depth, dtype=np.int64)
    threat = np.zeros(depth, dtype=np.int64)  # the three being tried
    answer = np.zeros(depth, dtype=np.int64)  # the defence being answered
    mark = np.zeros(n, dtype=np.int64)
    keys = np.zeros(depth, dtype=np.int64)  # of the stones added above a level
    slots = lost_keys.shape[0] - 1
    defender = 3 - attacker
    stamp = np.int64(1)
    level = 0
    count[0] = _threats(cells, board, attacker, moves[0], mark, stamp)
    threat[0] = -1
    while True:
        # Level ``level``: its next three.
        threat[level] += 1
        if threat[level] >= count[level] or budget[0] <= 0:
            # No three of this level wins: the defence above it holds.
            if level == 0:
                return -1
            if budget[0] > 0:  # a complete search: remember it
                lost_keys[keys[level] & slots] = keys[level]
                lost_left[keys[level] & slots] = depth - level
            level -= 1
            put(cells, mirror, defences[level, answer[level]], 0)
            put(cells, mirror, moves[level, threat[level]], 0)
            continue
        if black_attacks and forbidden_in(mirror, moves[level, threat[level]]):
            continue
        put(cells, mirror, moves[level, threat[level]], attacker)
        stamp += 1
        total[level] = _defences(
            cells, board, attacker, budget, defences[level], mark, stamp
        )
        answer[level] = -1
        # Its defences, each answered by a VCF or by the next level.
        while True:
            if total[level] < 0:  # not a threat
                put(cells, mirror, moves[level, threat[level]], 0)
                break
            answer[level] += 1
            if answer[level] >= total[level]:  # every defence loses
                put(cells, mirror, moves[level, threat[level]], 0)
                if level == 0:
                    return moves[0, threat[0]]
                level -= 1
                put(cells, mirror, defences[level, answer[level]], 0)
                continue
            defence = defences[level, answer[level]]
            if black_defends and forbidden_in(mirror, defence):
                continue  # not a move black may play
            key = (
                keys[level]
                ^ STONE_KEYS[attacker, moves[level, threat[level]]]
                ^ STONE_KEYS[defender, defence]
            )
            known_lost = (
                lost_keys[key & slots] == key
                and lost_left[key & slots] >= depth - level - 1
            )
            put(cells, mirror, defence, defender)
            if not known_lost and _vct_zero(cells, board, attacker, budget) >= 0:
                put(cells, mirror, defence, 0)
                continue
            if not known_lost and level + 1 < depth and budget[0] > 0:
                level += 1
                keys[level] = key
                stamp += 1
                count[level] = _threats(
                    cells, board, attacker, moves[level], mark, stamp
                )
                threat[level] = -1
                break
            # This defence holds: the three fails.
            put(cells, mirror, defences[level, answer[level]], 0)
            put(cells, mirror, moves[level, threat[level]], 0)
            break


@njit(cache=True, nogil=True, inline="always")
def state_vct(state, attacker, depth, budget):
    """Return :func:`vct`'s first move (or -1) for ``attacker`` (0 the side
    to move, 1 the other side, as if the side to move passed) on the state
    vector ``state``, spending at most ``budget`` VCF nodes."""
    cells, _, _ = cells_of(state)
    colour = np.int64(state[gomoku.SIDE]) + 1
    if attacker == 1:
        colour = 3 - colour
    left = np.array([budget], dtype=np.int64)
    return vct(cells, board_of(state), colour, depth, left)


@njit(cache=True, nogil=True, inline="always")
def vct_losers(state, moves, count, budget, lost):
    """Set ``lost[i]`` for each of ``moves[:count]`` after which the
    opponent wins by a VCT (:data:`VCT_DEPTH`, ``budget`` VCF nodes each)."""
    cells, _, _ = cells_of(state)
    board = board_of(state)
    mover = np.int64(state[gomoku.SIDE]) + 1
    left = np.zeros(1, dtype=np.int64)
    for i in range(count):
        cells[moves[i]] = mover
        left[0] = budget
        lost[i] = vct(cells, board, 3 - mover, np.int64(VCT_DEPTH), left) >= 0
        cells[moves[i]] = 0


@njit(cache=True, nogil=True, inline="always")
def _deepening(cells, board, colour, depth, left):
    """Return (the first move of a VCT for ``colour``, to move on ``cells``,
    or -1; its threes): :func:`vct` at ``depth`` threes, then one more while
    ``left[0]`` VCF nodes last, up to :data:`DEEP_VCT_MAX_DEPTH` (deepening
    first finds the short wins a deep search would spend its budget
    missing)."""
    lost_keys, lost_left = lost_table(left[0])
    while depth <= DEEP_VCT_MAX_DEPTH and left[0] > 0:
        move = search_vct(cells, board, colour, depth, left, lost_keys, lost_left)
        if move >= 0:
            return move, depth
        depth += 1
    return -1, depth


@njit(cache=True, nogil=True, inline="always")
def deep_vct(state, depth, budget):
    """Return (the first move of a VCT for the side to move on the state
    vector ``state``, or -1; the VCF nodes left of ``budget``), searching
    ``depth`` threes and deeper (:func:`_deepening`)."""
    cells, _, _ = cells_of(state)
    mover = np.int64(state[gomoku.SIDE]) + 1
    left = np.array([budget], dtype=np.int64)
    move, _ = _deepening(cells, board_of(state), mover, depth, left)
    return move, left[0]


@njit(cache=True, nogil=True)
def wins_by_threats(state, vcf_nodes, vct_nodes):
    """Return whether the side to move in ``state`` wins by a VCF (within
    ``vcf_nodes``) or, with ``vct_nodes`` above 0, by a VCT of one three:
    the check that proves a new leaf of a tree search."""
    if has_vcf(state, vcf_nodes):
        return True
    return vct_nodes > 0 and state_vct(state, np.int64(0), np.int64(1), vct_nodes) >= 0

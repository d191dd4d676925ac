"""Exact Reversi endgames: negamax alpha-beta over the two bitboards, in numba.

:func:`solve` returns the exact final disc margin for the side to move with
perfect play by both sides, a move that reaches it, and the nodes searched;
near the end, :func:`solve_moves` gives each move's margin and
:func:`perfect_line` the line of perfect play.

Scoring
-------
By default the margin is the project's: the plain disc count of the rules
module (:mod:`mcts.games.reversi`), empty squares left at the end awarded to
no one. ``wof=True`` scores as World Othello Federation rules and published
endgame suites do: the empties left at the end go to the winner (none to
either side in a draw). The two agree whenever the game ends on a full board;
they may prefer different lines when a side can end the game early.

>>> from mcts.games import Reversi
>>> game = Reversi()
>>> board = "x" * 62 + "o." + " b"  # h8 is empty; g8 is white
>>> result = solve(game.parse_state(board))
>>> result.margin, game.format_move(game.parse_state(board), result.move)
(64, 'h8')

How it searches
---------------
- At :data:`SMALL_EMPTIES` empties or fewer: no move list and no table; the
  empty squares are tried directly, those in a quadrant with an odd number of
  empties first (parity), and the last empty square is scored without playing
  it out.
- Above: the moves are tried fastest-first (fewest replies for the opponent,
  corners counting twice), the table's move first; the first move gets the full
  window and the rest a null window (principal variation search). A child
  that the table already shows to be good enough settles the position before
  any move is searched (enhanced transposition cut-off).
- A transposition table (numpy arrays indexed by a hash of the two
  bitboards) keeps bounds and the best move of the positions above
  :data:`SMALL_EMPTIES` empties. It is fresh for every call, so the search is
  deterministic.

The flips are computed here by walking out from the new disc (a few steps
per direction at the end of a game), which is faster than the rules module's
line fills for a single square; the tests check both agree.

The explicit-stack search, the small-empties levels and the flip routine
they share are one solver, tuned together. numba cannot cache a recursive
kernel, nor kernels made by a factory function (closures miss its cache at
every start, checked), so the levels for 1-6 empties are spelled out one
function each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ...games import reversi
from ...games.base import Game, State
from ...games.bitboard import bit_square, lowest_bit, popcount

#: Positions with at most this many empties (up to 5) are solved by the
#: explicit last-empties levels, without move lists, ordering or table
#: (measured on FFO #40: 5 searches fewer nodes than a limit of 6 or 7).
SMALL_EMPTIES = 6
#: Default size of the transposition table: 2**20 entries, 18 MB.
DEFAULT_TABLE_BITS = 20
#: Table size for the solves at the search's leaves: few empties, so a small,
#: quickly cleared table is enough.
LEAF_TABLE_BITS = 12
#: Move code when the game is over (the side to move has nothing, not even a pass).
NO_MOVE = -1

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_INNER_FILES = np.uint64(0x7E7E7E7E7E7E7E7E)
_CORNERS = np.uint64(0x8100000000000081)
# The four 4x4 quadrants, for the parity ordering.
_QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000],
    dtype=np.uint64,
)
_HASH_OWN = np.uint64(0x9E3779B97F4A7C15)
_HASH_OPP = np.uint64(0xC2B2AE3D27D4EB4F)
# Bounds outside every margin (-64..64): "nothing known".
_BELOW = -65
_ABOVE = 65
# Margins fit in an int8; the table keeps them there.
_BUFFER_MOVES = 34  # at most 33 legal moves in any reachable position (+1 spare)


@dataclass(frozen=True)
class EndgameResult:
    """The exact value of a Reversi position.

    ``margin`` is the final disc count of the side to move minus the
    opponent's under perfect play (its scoring: ``wof``); ``move`` a move code
    that reaches it (:data:`mcts.games.reversi.PASS` for a forced pass,
    :data:`NO_MOVE` when the game is over); ``nodes`` the positions searched.
    """

    margin: int
    move: int
    nodes: int
    wof: bool = False


# ---- flips -----------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _step(x, amount, mask):
    if amount > 0:
        return (x << np.uint64(amount)) & mask
    return (x >> np.uint64(-amount)) & mask


@njit(cache=True, nogil=True)
def _line(bit, own, opp, amount, mask):
    """Return the opposing discs closed off from ``bit`` in one direction."""
    run = _ZERO
    x = _step(bit, amount, mask)
    while x & opp:
        run |= x
        x = _step(x, amount, mask)
    if x & own:
        return run
    return _ZERO


@njit(cache=True, nogil=True)
def flips(bit, own, opp):
    """Return the discs of ``opp`` that a disc of ``own`` on the single-bit
    ``bit`` flips; 0 if the move is not legal. Agrees with
    :func:`mcts.games.reversi.flips`."""
    return (
        _line(bit, own, opp, 1, _NOT_FILE_A)
        | _line(bit, own, opp, -1, _NOT_FILE_H)
        | _line(bit, own, opp, 8, _ALL)
        | _line(bit, own, opp, -8, _ALL)
        | _line(bit, own, opp, 9, _NOT_FILE_A)
        | _line(bit, own, opp, 7, _NOT_FILE_H)
        | _line(bit, own, opp, -7, _NOT_FILE_A)
        | _line(bit, own, opp, -9, _NOT_FILE_H)
    )


@njit(cache=True, nogil=True)
def _both_ways(own, run, amount):
    """Return the squares just past a line own-run...-run in both directions
    along ``amount`` (1, 7, 8 or 9), filling two steps at a time; ``run`` are
    the opposing discs a line may cross (without the edge files, except for
    vertical lines, so that no line wraps)."""
    step = np.uint64(amount)
    double = np.uint64(2 * amount)
    up = run & (own << step)
    down = run & (own >> step)
    up |= run & (up << step)
    down |= run & (down >> step)
    pairs_up = run & (run << step)
    pairs_down = pairs_up >> step
    up |= pairs_up & (up << double)
    down |= pairs_down & (down >> double)
    up |= pairs_up & (up << double)
    down |= pairs_down & (down >> double)
    return (up << step) | (down >> step)


@njit(cache=True, nogil=True)
def mobility(own, opp):
    """Return the squares where ``own`` may play against ``opp``. Agrees with
    :func:`mcts.games.reversi.mobility`; about twice as fast."""
    inner = opp & _INNER_FILES
    return (
        _both_ways(own, inner, 1)
        | _both_ways(own, opp, 8)
        | _both_ways(own, inner, 7)
        | _both_ways(own, inner, 9)
    ) & ~(own | opp)


@njit(cache=True, nogil=True)
def _neighbours(bit):
    """Return the up to eight squares next to the single-bit ``bit``."""
    side = ((bit << _ONE) & _NOT_FILE_A) | ((bit >> _ONE) & _NOT_FILE_H)
    row = bit | side
    return side | (row << np.uint64(8)) | (row >> np.uint64(8))


# ---- scoring ---------------------------------------------------------------------
@njit(cache=True, nogil=True)
def final_margin(own, opp, wof):
    """Return the margin of a finished game for ``own``: its discs minus the
    opponent's, plus the empty squares to the winner when ``wof``."""
    diff = popcount(own) - popcount(opp)
    if wof:
        empties = 64 - popcount(own | opp)
        if diff > 0:
            diff += empties
        elif diff < 0:
            diff -= empties
    return diff


@njit(cache=True, nogil=True)
def _last_empty(own, opp, bit, wof):
    """Return the exact margin for ``own`` to move with ``bit`` the one empty square."""
    flipped = flips(bit, own, opp)
    if flipped:
        return final_margin(own | bit | flipped, opp & ~flipped, wof)
    flipped = flips(bit, opp, own)
    if flipped:
        return final_margin(own & ~flipped, opp | bit | flipped, wof)
    return final_margin(own, opp, wof)


# ---- the last few empties ----------------------------------------------------
# One pair of functions per number of empties, each calling the one below:
# numba cannot cache a recursive function safely (numba issue #6061: a cached
# recursive kernel may crash when loaded), and near the end these small
# explicit levels are much faster than the general search's stack. ``_moves_k``
# tries the moves of the side to move, odd quadrants first, and returns
# _BELOW if it has none; ``_solve_k`` handles the passes.
@njit(cache=True, nogil=True)
def _parity(empty):
    """Return the empty squares that lie in a quadrant with an odd number of them."""
    odd = _ZERO
    for quadrant in _QUADRANTS:
        if popcount(empty & quadrant) & 1:
            odd |= empty & quadrant
    return odd


@njit(cache=True, nogil=True)
def _moves_2(own, opp, alpha, beta, wof, stats):
    empty = ~(own | opp)
    odd = _parity(empty)
    best = _BELOW
    for squares in (odd, empty & ~odd):
        while squares:
            bit = lowest_bit(squares)
            squares ^= bit
            if not (_neighbours(bit) & opp):
                continue
            flipped = flips(bit, own, opp)
            if not flipped:
                continue
            value = -_last_empty(opp & ~flipped, own | bit | flipped, empty ^ bit, wof)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        return best
    return best


@njit(cache=True, nogil=True)
def _solve_2(own, opp, alpha, beta, wof, stats):
    """Return the margin for ``own`` to move with 2 empties, fail-soft."""
    stats[0] += 1
    best = _moves_2(own, opp, alpha, beta, wof, stats)
    if best != _BELOW:
        return best
    best = _moves_2(opp, own, -beta, -alpha, wof, stats)
    if best != _BELOW:
        return -best
    return final_margin(own, opp, wof)


@njit(cache=True, nogil=True)
def _moves_3(own, opp, alpha, beta, wof, stats):
    empty = ~(own | opp)
    odd = _parity(empty)
    best = _BELOW
    for squares in (odd, empty & ~odd):
        while squares:
            bit = lowest_bit(squares)
            squares ^= bit
            if not (_neighbours(bit) & opp):
                continue
            flipped = flips(bit, own, opp)
            if not flipped:
                continue
            value = -_solve_2(
                opp & ~flipped, own | bit | flipped, -beta, -alpha, wof, stats
            )
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        return best
    return best


@njit(cache=True, nogil=True)
def _solve_3(own, opp, alpha, beta, wof, stats):
    """Return the margin for ``own`` to move with 3 empties, fail-soft."""
    stats[0] += 1
    best = _moves_3(own, opp, alpha, beta, wof, stats)
    if best != _BELOW:
        return best
    best = _moves_3(opp, own, -beta, -alpha, wof, stats)
    if best != _BELOW:
        return -best
    return final_margin(own, opp, wof)


@njit(cache=True, nogil=True)
def _moves_4(own, opp, alpha, beta, wof, stats):
    empty = ~(own | opp)
    odd = _parity(empty)
    best = _BELOW
    for squares in (odd, empty & ~odd):
        while squares:
            bit = lowest_bit(squares)
            squares ^= bit
            if not (_neighbours(bit) & opp):
                continue
            flipped = flips(bit, own, opp)
            if not flipped:
                continue
            value = -_solve_3(
                opp & ~flipped, own | bit | flipped, -beta, -alpha, wof, stats
            )
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        return best
    return best


@njit(cache=True, nogil=True)
def _solve_4(own, opp, alpha, beta, wof, stats):
    """Return the margin for ``own`` to move with 4 empties, fail-soft."""
    stats[0] += 1
    best = _moves_4(own, opp, alpha, beta, wof, stats)
    if best != _BELOW:
        return best
    best = _moves_4(opp, own, -beta, -alpha, wof, stats)
    if best != _BELOW:
        return -best
    return final_margin(own, opp, wof)


@njit(cache=True, nogil=True)
def _moves_5(own, opp, alpha, beta, wof, stats):
    empty = ~(own | opp)
    odd = _parity(empty)
    best = _BELOW
    for squares in (odd, empty & ~odd):
        while squares:
            bit = lowest_bit(squares)
            squares ^= bit
            if not (_neighbours(bit) & opp):
                continue
            flipped = flips(bit, own, opp)
            if not flipped:
                continue
            value = -_solve_4(
                opp & ~flipped, own | bit | flipped, -beta, -alpha, wof, stats
            )
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        return best
    return best


@njit(cache=True, nogil=True)
def _solve_5(own, opp, alpha, beta, wof, stats):
    """Return the margin for ``own`` to move with 5 empties, fail-soft."""
    stats[0] += 1
    best = _moves_5(own, opp, alpha, beta, wof, stats)
    if best != _BELOW:
        return best
    best = _moves_5(opp, own, -beta, -alpha, wof, stats)
    if best != _BELOW:
        return -best
    return final_margin(own, opp, wof)


@njit(cache=True, nogil=True)
def _moves_6(own, opp, alpha, beta, wof, stats):
    empty = ~(own | opp)
    odd = _parity(empty)
    best = _BELOW
    for squares in (odd, empty & ~odd):
        while squares:
            bit = lowest_bit(squares)
            squares ^= bit
            if not (_neighbours(bit) & opp):
                continue
            flipped = flips(bit, own, opp)
            if not flipped:
                continue
            value = -_solve_5(
                opp & ~flipped, own | bit | flipped, -beta, -alpha, wof, stats
            )
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        return best
    return best


@njit(cache=True, nogil=True)
def _solve_6(own, opp, alpha, beta, wof, stats):
    """Return the margin for ``own`` to move with 6 empties, fail-soft."""
    stats[0] += 1
    best = _moves_6(own, opp, alpha, beta, wof, stats)
    if best != _BELOW:
        return best
    best = _moves_6(opp, own, -beta, -alpha, wof, stats)
    if best != _BELOW:
        return -best
    return final_margin(own, opp, wof)


# ---- the search ------------------------------------------------------------------
# numba cannot cache recursive functions safely (numba issue #6061: a cached
# recursive function may crash when loaded), so the search keeps its own stack:
# one row per ply in two arrays, the fields below.
_OWN, _OPP, _BEST_BIT, _CHILD_OWN, _CHILD_OPP, _CUR_BIT = range(6)
(
    _ALPHA,
    _BETA,
    _BEST,
    _ALPHA_IN,
    _SLOT,
    _KIND,
    _PASSED,
    _NEXT,
    _COUNT,
    _NULL,
    _TRIED,
) = range(11)
_DEEP, _PASSING = 1, 2
# Plies of the stack: one per empty square plus one per pass, and a spare.
_STACK = 130


@njit(cache=True, nogil=True)
def _slot(own, opp, shift):
    return np.int64(((own * _HASH_OWN) ^ (opp * _HASH_OPP)) >> shift)


@njit(cache=True, nogil=True, inline="always")
def _push(ply, own, opp, alpha, beta, passed, frames, ints):
    """Write the position, the window and whether the side before passed of
    the frame at ``ply``, which :func:`_enter` then opens."""
    frames[ply, _OWN] = own
    frames[ply, _OPP] = opp
    ints[ply, _ALPHA] = alpha
    ints[ply, _BETA] = beta
    ints[ply, _PASSED] = passed


@njit(cache=True, nogil=True)
def _enter(ply, wof, frames, ints, table, moves, stats):
    """Open the frame of the position :func:`_push` wrote at ``ply``; return
    (done, value): done when the value is known at once (one or no empty
    square, a table hit)."""
    own = frames[ply, _OWN]
    opp = frames[ply, _OPP]
    alpha = ints[ply, _ALPHA]
    beta = ints[ply, _BETA]
    empty = ~(own | opp)
    count = popcount(empty)
    stats[0] += 1
    if count == 0:
        return True, final_margin(own, opp, wof)
    if count == 1:
        return True, _last_empty(own, opp, empty, wof)
    if count <= SMALL_EMPTIES:
        stats[0] -= 1  # counted by the level itself
        if count == 2:
            return True, _solve_2(own, opp, alpha, beta, wof, stats)
        if count == 3:
            return True, _solve_3(own, opp, alpha, beta, wof, stats)
        if count == 4:
            return True, _solve_4(own, opp, alpha, beta, wof, stats)
        if count == 5:
            return True, _solve_5(own, opp, alpha, beta, wof, stats)
        return True, _solve_6(own, opp, alpha, beta, wof, stats)
    frames[ply, _BEST_BIT] = _ZERO
    ints[ply, _BEST] = _BELOW
    ints[ply, _NULL] = 0
    ints[ply, _TRIED] = 0
    keys_own, keys_opp, bounds, shift = table
    slot = _slot(own, opp, shift[0])
    hint = _ZERO
    if keys_own[slot] == own and keys_opp[slot] == opp:
        lower = np.int64(bounds[slot, 0])
        upper = np.int64(bounds[slot, 1])
        if lower >= beta:
            return True, lower
        if upper <= alpha:
            return True, upper
        if lower == upper:
            return True, lower
        alpha = max(alpha, lower)
        beta = min(beta, upper)
        hint = _ONE << np.uint64(bounds[slot, 2])
    ints[ply, _ALPHA] = alpha
    ints[ply, _BETA] = beta
    ints[ply, _ALPHA_IN] = alpha
    ints[ply, _SLOT] = slot
    ints[ply, _KIND] = _DEEP
    move_bits, move_flips, move_keys = moves
    legal = mobility(own, opp)
    n = 0
    while legal:
        bit = lowest_bit(legal)
        legal ^= bit
        flipped = flips(bit, own, opp)
        child_own = opp & ~flipped
        child_opp = own | bit | flipped
        # enhanced transposition cut-off: a child already known to be bad
        # enough for the opponent settles this position at once
        child = _slot(child_own, child_opp, shift[0])
        if (
            keys_own[child] == child_own
            and keys_opp[child] == child_opp
            and -np.int64(bounds[child, 1]) >= beta
        ):
            return True, -np.int64(bounds[child, 1])
        replies = mobility(child_own, child_opp)
        key = popcount(replies) + popcount(replies & _CORNERS)
        if bit == hint:
            key = -1
        move_bits[ply, n] = bit
        move_flips[ply, n] = flipped
        move_keys[ply, n] = key
        n += 1
    ints[ply, _NEXT] = 0
    ints[ply, _COUNT] = n
    return False, 0


@njit(cache=True, nogil=True)
def _next_move(ply, frames, ints, moves):
    """Return (bit, flips) of the frame's next move to try; bit 0 when none is left."""
    i = ints[ply, _NEXT]
    n = ints[ply, _COUNT]
    if i == n:
        return _ZERO, _ZERO
    move_bits, move_flips, move_keys = moves
    # selection sort, one step per move tried: a cut-off saves the rest
    pick = i
    for j in range(i + 1, n):
        if move_keys[ply, j] < move_keys[ply, pick]:
            pick = j
    bit = move_bits[ply, pick]
    flipped = move_flips[ply, pick]
    if pick != i:
        move_bits[ply, pick] = move_bits[ply, i]
        move_flips[ply, pick] = move_flips[ply, i]
        move_keys[ply, pick] = move_keys[ply, i]
    ints[ply, _NEXT] = i + 1
    return bit, flipped


@njit(cache=True, nogil=True)
def _leave(ply, frames, ints, table):
    """Close the frame at ``ply``: keep a deep one's bounds and best move in
    the table; return its value."""
    best = ints[ply, _BEST]
    if ints[ply, _KIND] == _DEEP:
        keys_own, keys_opp, bounds, _ = table
        slot = ints[ply, _SLOT]
        keys_own[slot] = frames[ply, _OWN]
        keys_opp[slot] = frames[ply, _OPP]
        bounds[slot, 0] = best if best > ints[ply, _ALPHA_IN] else _BELOW
        bounds[slot, 1] = best if best < ints[ply, _BETA] else _ABOVE
        bounds[slot, 2] = bit_square(frames[ply, _BEST_BIT])
    return best


@njit(cache=True, nogil=True)
def _search(own, opp, wof, table, stats):
    """Return (exact margin for ``own`` to move, its best move as a bit; 0 for
    a pass or the end) by principal variation search over an explicit stack."""
    frames = np.zeros((_STACK, 6), dtype=np.uint64)
    ints = np.zeros((_STACK, 11), dtype=np.int64)
    moves = (
        np.zeros((_STACK, _BUFFER_MOVES), dtype=np.uint64),
        np.zeros((_STACK, _BUFFER_MOVES), dtype=np.uint64),
        np.zeros((_STACK, _BUFFER_MOVES), dtype=np.int64),
    )
    ply = np.int64(0)
    # np.int64(...), not literals: numba compiles a kernel anew for each
    # distinct constant argument (see mcts.play.warmup).
    _push(
        np.int64(0),
        own,
        opp,
        np.int64(_BELOW),
        np.int64(_ABOVE),
        np.int64(0),
        frames,
        ints,
    )
    done, value = _enter(np.int64(0), wof, frames, ints, table, moves, stats)
    if done:
        return value, _ZERO
    while True:
        if done:  # the child of frame `ply` is worth `value` to its mover
            done = False
            score = -value
            if ints[ply, _KIND] == _PASSING:
                value = score
                done = True
                ply -= 1
                if ply < 0:
                    return value, _ZERO
                continue
            alpha = ints[ply, _ALPHA]
            beta = ints[ply, _BETA]
            if ints[ply, _NULL] and alpha < score < beta:
                # the null window failed high: search the move again, full window
                ints[ply, _NULL] = 0
                _push(
                    ply + 1,
                    frames[ply, _CHILD_OWN],
                    frames[ply, _CHILD_OPP],
                    -beta,
                    -alpha,
                    np.int64(0),
                    frames,
                    ints,
                )
                done, value = _enter(ply + 1, wof, frames, ints, table, moves, stats)
                if not done:
                    ply += 1
                continue
            if score > ints[ply, _BEST]:
                ints[ply, _BEST] = score
                frames[ply, _BEST_BIT] = frames[ply, _CUR_BIT]
                if score > alpha:
                    ints[ply, _ALPHA] = score
                    if score >= beta:  # cut-off
                        value = _leave(ply, frames, ints, table)
                        best_bit = frames[ply, _BEST_BIT]
                        done = True
                        ply -= 1
                        if ply < 0:
                            return value, best_bit
                        continue
        bit, flipped = _next_move(ply, frames, ints, moves)
        own = frames[ply, _OWN]
        opp = frames[ply, _OPP]
        alpha = ints[ply, _ALPHA]
        beta = ints[ply, _BETA]
        if bit == _ZERO:
            if ints[ply, _TRIED]:  # every move searched
                value = _leave(ply, frames, ints, table)
                best_bit = frames[ply, _BEST_BIT]
                done = True
                ply -= 1
                if ply < 0:
                    return value, best_bit
                continue
            if ints[ply, _PASSED]:  # neither side can move: the game is over
                value = final_margin(own, opp, wof)
                done = True
                ply -= 1
                if ply < 0:
                    return value, _ZERO
                continue
            ints[ply, _KIND] = _PASSING
            _push(ply + 1, opp, own, -beta, -alpha, np.int64(1), frames, ints)
            done, value = _enter(ply + 1, wof, frames, ints, table, moves, stats)
            if not done:
                ply += 1
            continue
        child_own = opp & ~flipped
        child_opp = own | bit | flipped
        frames[ply, _CHILD_OWN] = child_own
        frames[ply, _CHILD_OPP] = child_opp
        frames[ply, _CUR_BIT] = bit
        first = ints[ply, _TRIED] == 0
        ints[ply, _TRIED] += 1
        ints[ply, _NULL] = 0 if first else 1
        _push(
            ply + 1,
            child_own,
            child_opp,
            -beta if first else -alpha - 1,
            -alpha,
            np.int64(0),
            frames,
            ints,
        )
        done, value = _enter(ply + 1, wof, frames, ints, table, moves, stats)
        if not done:
            ply += 1


@njit(cache=True, nogil=True)
def solve_bitboards(own, opp, wof, table_bits):
    """Return (margin, move code, nodes) for ``own`` to move against ``opp``.

    The move is reversi.PASS for a forced pass and NO_MOVE when the game is over.
    """
    stats = np.zeros(1, dtype=np.int64)
    size = 1 << table_bits
    table = (
        np.zeros(size, dtype=np.uint64),
        np.zeros(size, dtype=np.uint64),
        np.zeros((size, 3), dtype=np.int8),
        np.full(1, 64 - table_bits, dtype=np.uint64),
    )
    if mobility(own, opp) == _ZERO:
        if mobility(opp, own) == _ZERO:
            return final_margin(own, opp, wof), NO_MOVE, np.int64(1)
        margin, _ = _search(opp, own, wof, table, stats)
        return -margin, reversi.PASS, stats[0]
    margin, best = _search(own, opp, wof, table, stats)
    if best == _ZERO:
        # solved without a frame (few empties): find a move that reaches it
        legal = mobility(own, opp)
        while legal:
            best = lowest_bit(legal)
            legal ^= best
            flipped = flips(best, own, opp)
            value, _ = _search(opp & ~flipped, own | best | flipped, wof, table, stats)
            if -value == margin:
                break
    return margin, bit_square(best), stats[0]


@njit(cache=True, nogil=True)
def leaf_margin(state, max_empties):
    """Return (solved, margin for the side to move) of the Reversi state vector
    ``state``: solved (exactly, the project's scoring) when it has at most
    ``max_empties`` empty squares, else (False, 0) at once."""
    black = state[reversi.BLACK_DISCS]
    white = state[reversi.WHITE_DISCS]
    if 64 - popcount(black | white) > max_empties:
        return False, 0
    own, opp = (black, white) if state[reversi.SIDE] == _ZERO else (white, black)
    margin, _, _ = solve_bitboards(own, opp, np.bool_(False), np.int64(LEAF_TABLE_BITS))
    return True, margin


#: A search with a time budget solves its Reversi root exactly (plays the
#: solver's move, proves the root; mcts.search.searcher) when the solve's
#: expected time fits in ROOT_SOLVE_SHARE of the move's seconds. A solve
#: took about 14 ms at 14 empties and about 2.6 times longer for each empty
#: more (2.5 s at 20: random positions, README), so 0.5 s a move solves from
#: 16 empties, 1 s from 17, 2 s from 18; the solve cannot be stopped, hence
#: the margin.
ROOT_SOLVE_SECONDS_AT_14 = 0.014
ROOT_SOLVE_GROWTH = 2.6
ROOT_SOLVE_SHARE = 1 / 3
MAX_ROOT_SOLVE_EMPTIES = 20


def root_solve_empties(seconds: float) -> int:
    """Return the most empty squares at which a Reversi root is solved
    exactly within a move of ``seconds`` (0: never)."""
    budget = seconds * ROOT_SOLVE_SHARE
    if budget < ROOT_SOLVE_SECONDS_AT_14:
        return 0
    extra = math.log(budget / ROOT_SOLVE_SECONDS_AT_14) / math.log(ROOT_SOLVE_GROWTH)
    return min(MAX_ROOT_SOLVE_EMPTIES, 14 + int(extra))


def solve(
    state: State, *, wof: bool = False, table_bits: int = DEFAULT_TABLE_BITS
) -> EndgameResult:
    """Return the exact :class:`EndgameResult` of the Reversi ``state`` for the
    side to move (the project's plain disc count unless ``wof``)."""
    array = state.array
    black, white = array[reversi.BLACK_DISCS], array[reversi.WHITE_DISCS]
    own, opp = (black, white) if int(array[reversi.SIDE]) == 0 else (white, black)
    margin, move, nodes = solve_bitboards(own, opp, wof, table_bits)
    return EndgameResult(int(margin), int(move), int(nodes), wof)


def solve_moves(game: Game, state: State) -> dict[int, int]:
    """Return each legal move of the Reversi ``state`` (a position near the
    end) with its exact final margin for the side to move."""
    return {
        move: -solve(game.apply(state, move), table_bits=LEAF_TABLE_BITS).margin
        for move in game.legal_moves(state)
    }


def perfect_line(game: Game, state: State, first: int, plies: int = 10) -> list[str]:
    """Return the moves of a Reversi position near the end, in notation:
    ``first`` (a move code), then perfect play by both sides, up to ``plies``
    moves or the end of the game."""
    line: list[str] = []
    move = first
    while len(line) < plies and not game.is_terminal(state):
        if line:
            move = solve(state, table_bits=LEAF_TABLE_BITS).move
        line.append(game.format_move(state, move))
        state = game.apply(state, move)
    return line

"""Gomoku alpha-beta in numba, the design of the strong Gomocup engines such
as Rapfi: a principal-variation search by iterative deepening, with a
transposition table, killer moves, late-move reductions, the threats' forced
replies and a VCF quiescence, on the board of line patterns that
:mod:`mcts.search.gomoku.patterns` keeps up to date stone by stone.

A node reads the threats of the side to move before searching
(:func:`~mcts.search.gomoku.patterns.read_threats`):

- a five to make wins; two of the opponent's to block lose; one is the only
  move (no depth is spent on it);
- an open four or two fours to make win two moves later, and so does a
  four-three when the opponent has no four to make;
- when the opponent could make one of those (he has an open three), the
  moves are the cells where either side makes a four or better: the blocks
  and the counter-fours;
- otherwise the :data:`WIDTH` best cells by worth to the mover plus
  BLOCK_WEIGHT times their worth to the opponent (the transposition table's
  move and two killer moves first), late quiet ones searched shallower
  first (:data:`REDUCTIONS`: more plies the deeper the node and the later
  the move, as the strong chess and Gomoku engines reduce); a move that
  makes an open three is searched a ply deeper (:data:`THREAT_EXTENSIONS`
  times in a line), since the opponent's replies are then the few blocks.

The board reads the game's rule (:mod:`.patterns`): under the standard
rule and renju only exact rows win where the rule says so, and under renju
a point forbidden to black is never among his moves, so white's five whose
only block is forbidden wins. The root's moves are checked by the rules
themselves (:func:`mcts.games.renju.forbidden`), since the board marks a
few points forbidden that are not, never the other way.

A null-window node with nothing of the opponent's to meet is pruned three
ways: one or two plies from the leaves it returns its quiet value when that
beats beta by :data:`FUTILITY_MARGIN` a ply (reverse futility pruning; it
scored 63.8% against the search without it: docs/experiments); from
:data:`NULL_DEPTH` plies, when its quiet value reaches beta, it passes, and
if the opponent, moving twice, cannot bring it under beta in a search
:data:`NULL_PLIES` shallower, it is cut (null-move pruning); and up to three
plies from the leaves only its first :data:`LATE_MOVES` quiet moves are
searched (late-move pruning). Those three and the reductions scored 57.0%
against the search without them (docs/experiments).

At depth 0 a quiescence search plays the mover's fours (a VCF, with the
forced blocks; each four after the first near the one before, within two
cells or four along a line, as a VCF's fours build on each other) from a
stand-pat value: the mover's best cell minus
``block`` times the opponent's, plus ``spread`` times the difference of
all their cells' worth. The cells' worth and those two come from the
search's shape weights (:mod:`mcts.search.gomoku.weights`: a tree model's
fitted ones, :func:`use_weights`, else the hand-set ones).

The search is recursive; its kernels declare their argument types
(:data:`SEARCH_TYPE`) so that numba caches them like the others. The
module is one algorithm: the search's arrays, its two recursive kernels
with their move lists and table, and the iterative deepening that drives
them for a time (:func:`think`, which :func:`stop` ends early).
:mod:`.planner` runs it for the MCTS.
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit, types
from numba.core.dispatcher import Dispatcher

from ...games import gomoku, renju
from .patterns import (
    BOARD_TYPES,
    LEVEL_DOUBLE_THREE,
    LEVEL_FIVE,
    LEVEL_FORBIDDEN,
    LEVEL_FOUR,
    LEVEL_FOUR_THREE,
    LEVEL_THREE,
    WEIGHTS,
    lift,
    new_board,
    place,
    read_threats,
    set_position,
    set_weights,
)
from .shapes import BLOCK_WEIGHT
from .weights import BLOCK_AT, HAND_WEIGHTS, SPREAD_AT, ShapeWeights

#: The longest row it searches: its pattern table has 4 ** (2 * (row - 1))
#: entries, a million for six in a row.
MAX_ROW = 6
#: A won position's score (less the plies to the win).
WIN = 1_000_000.0
#: Scores at least this far from 0 are wins or losses.
WIN_BOUND = WIN - 1000.0
#: The deepest ply a line may reach (forced replies do not spend depth).
MAX_PLY = 96
# WIDTH and THREAT_EXTENSIONS are the values that scored best against
# Rapfi of those tried (docs/experiments, "the alpha-beta player").

#: Moves a quiet node searches (the best by ordering score), and the root.
WIDTH = 12
ROOT_WIDTH = 30
#: Late quiet moves (at this depth or more) are searched shallower first,
#: by REDUCTIONS[depth, index] plies (half the product of the logs of the
#: depth and of the move's place, rounded; a ply less in PV nodes), and
#: again in full if they beat alpha. Rapfi's whole product scored 43.5%
#: against the search with half of it (docs/experiments).
LMR_DEPTH = 3
#: Null-move pruning (see the module's docstring): from this depth, the
#: reply to the pass searched NULL_PLIES shallower than a move's.
NULL_DEPTH = 3
NULL_PLIES = 2
#: Late-move pruning: in a null-window node ``depth`` plies from the
#: leaves, quiet moves after the first LATE_MOVES[depth] are not searched.
LATE_MOVES = np.array([0, 5, 8, 12], dtype=np.int64)
#: Reverse futility pruning (see _negamax): at most this many plies from
#: the leaves, by this margin a ply.
FUTILITY_DEPTH = 2
FUTILITY_MARGIN = 60.0
#: Open threes a line may make without spending depth (see _negamax).
THREAT_EXTENSIONS = 4
#: Fours the quiescence search may play in a line (its VCF depth).
QUIESCENCE_FOURS = 10
#: log2 of the transposition table's entries.
TABLE_BITS = 20
#: Deepest iteration of the iterative deepening.
MAX_DEPTH = 40
#: The late-move reductions by depth and move index (see LMR_DEPTH).
REDUCTIONS = np.array(
    [
        [int(0.5 + np.log(max(d, 1)) * np.log(i + 1) / 2.0) for i in range(ROOT_WIDTH)]
        for d in range(MAX_DEPTH + 1)
    ],
    dtype=np.int64,
)
#: The share of the think time the search plans to spend (the rest is kept
#: for the nodes' rate changing within an iteration).
TIME_SHARE = 0.9

#: The numba type of a search (:func:`new_search`): the board's arrays,
#: then killers, each ply's moves and their ordering scores, the statistics,
#: the transposition table's keys, moves, values, depths and kinds, and the
#: root's legal cells.
SEARCH_TYPE = types.Tuple(
    BOARD_TYPES
    + (
        types.int64[:, ::1],
        types.int64[:, ::1],
        types.float64[:, ::1],
        types.int64[::1],
        types.uint64[::1],
        types.int64[::1],
        types.float64[::1],
        types.int64[::1],
        types.int8[::1],
        types.int8[::1],
    )
)

# Where the search's arrays sit in its tuple, after the board's
# (:func:`new_search`).
KILLERS = len(BOARD_TYPES)
MOVES = KILLERS + 1
SCORES = KILLERS + 2
STATS = KILLERS + 3
TABLE_KEYS = KILLERS + 4
TABLE_MOVES = KILLERS + 5
TABLE_VALUES = KILLERS + 6
TABLE_DEPTHS = KILLERS + 7
TABLE_KINDS = KILLERS + 8
ROOT_MOVES = KILLERS + 9

# ``stats`` entries.
_NODES = 0
_BUDGET = 1
_ABORTED = 2
_BEST = 3
_ROOT_DONE = 4
_STOPPED = 5
# Transposition-table bound kinds.
_EXACT = 0
_LOWER = 1
_UPPER = 2


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
    """Return the quiet value for ``me`` to move (see the module's docstring)."""
    sums, weights = board[6], board[WEIGHTS]
    return (
        best_me
        - weights[BLOCK_AT] * best_op
        + weights[SPREAD_AT] * (sums[me] - sums[1 - me])
    )


@njit(cache=True, nogil=True, inline="always")
def _near(x, y, size):
    """Return whether cells ``x`` and ``y`` are within two of each other,
    or on one line within four: where a VCF's next four lies."""
    dr = abs(x // size - y // size)
    dc = abs(x % size - y % size)
    if dr <= 2 and dc <= 2:
        return True
    return (dr == 0 or dc == 0 or dr == dc) and max(dr, dc) <= 4


# The recursive kernels declare their types, so that numba caches them
# (compiled on the first search, :func:`_compile_recursion`);
# their calls pass np.int64(...) rather than a literal: numba types a literal
# argument as a constant, and a cached recursion called so fails to load
# ("Symbol not found" from LLVM) in the next process.
_QUIESCENCE_TYPE = types.float64(
    SEARCH_TYPE,
    types.int64,
    types.float64,
    types.float64,
    types.int64,
    types.int64,
    types.int64,
)


def _quiescence(board, colour, alpha, beta, ply, fours, last):
    """Return the value of the position for ``colour`` to move with its
    fours (a VCF) and the forced blocks played from a stand-pat value."""
    cells, level, stats = board[0], board[5], board[STATS]
    stats[_NODES] += 1
    if stats[_NODES] >= stats[_BUDGET]:
        stats[_ABORTED] = 1
        return 0.0
    me = colour - 1
    own_five, their_fives, their_five_at, own_win_four, _, best_me, best_op = (
        read_threats(board, me)
    )
    if own_five:
        return WIN - ply
    if their_fives >= 2:
        return -(WIN - ply - 1)
    if ply >= MAX_PLY - 2:
        return _stand_pat(board, me, best_me, best_op)
    if their_fives == 1:
        if level[me, their_five_at] == LEVEL_FORBIDDEN:
            return -(WIN - ply - 1)
        place(board, their_five_at, colour)
        value = -_quiescence(board, 3 - colour, -beta, -alpha, ply + 1, fours, last)
        lift(board, their_five_at, colour)
        return value
    if own_win_four:
        return WIN - ply - 2
    best = _stand_pat(board, me, best_me, best_op)
    if best >= beta or fours >= QUIESCENCE_FOURS:
        return best
    # The same fours in another order reach the same position: the table
    # keeps what the quiescence found there (at depth 0).
    hashed = board[9]
    tt_keys, tt_moves, tt_values, tt_depths, tt_kinds = (
        board[TABLE_KEYS],
        board[TABLE_MOVES],
        board[TABLE_VALUES],
        board[TABLE_DEPTHS],
        board[TABLE_KINDS],
    )
    key = hashed[0] ^ np.uint64(colour)
    slot = np.int64(key & np.uint64(tt_keys.shape[0] - 1))
    if tt_keys[slot] == key:
        stored = _from_table(tt_values[slot], ply)
        kind = tt_kinds[slot]
        if (
            kind == _EXACT
            or (kind == _LOWER and stored >= beta)
            or (kind == _UPPER and stored <= alpha)
        ):
            return stored
    alpha0 = alpha
    alpha = max(alpha, best)
    # The board's side, needed only to place a four near the one before.
    size = np.int64(np.sqrt(cells.shape[0]) + 0.5) if last >= 0 else np.int64(0)
    for x in range(cells.shape[0]):
        if cells[x] != 0 or not LEVEL_FOUR <= level[me, x] <= LEVEL_FOUR_THREE:
            continue
        if last >= 0 and not _near(x, last, size):
            continue
        place(board, x, colour)
        value = -_quiescence(board, 3 - colour, -beta, -alpha, ply + 1, fours + 1, x)
        lift(board, x, colour)
        if stats[_ABORTED]:
            return 0.0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if value >= beta:
                    break
    if tt_keys[slot] != key or tt_depths[slot] <= 0:
        # No move: the slot's move was another position's, and a node that
        # probes this one would search that cell first.
        tt_keys[slot] = key
        tt_moves[slot] = -1
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
    move) and the ply's killers lead. Points forbidden to the mover are
    left out, and at the root the cells the rules forbid."""
    cells, worth, level = board[0], board[4], board[5]
    killers, moves, scores = board[KILLERS], board[MOVES], board[SCORES]
    root_moves = board[ROOT_MOVES]
    op = 1 - me
    keep = cells.shape[0] if defend else width
    n = 0
    for x in range(cells.shape[0]):
        if cells[x] != 0 or level[me, x] == LEVEL_FORBIDDEN:
            continue
        if ply == 0 and root_moves[x] == 0:
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
        # Insert it into the list, best first, kept to ``keep`` moves.
        if n < keep:
            at = n
            n += 1
        elif score > scores[ply, keep - 1]:
            at = keep - 1
        else:
            continue
        while at > 0 and scores[ply, at - 1] < score:
            moves[ply, at] = moves[ply, at - 1]
            scores[ply, at] = scores[ply, at - 1]
            at -= 1
        moves[ply, at] = x
        scores[ply, at] = score
    return n


_NEGAMAX_TYPE = types.float64(
    SEARCH_TYPE,
    types.int64,
    types.int64,
    types.float64,
    types.float64,
    types.int64,
    types.int64,
    types.int64,
)


def _negamax(board, colour, depth, alpha, beta, ply, extensions, may_pass):
    """Return the value of the position for ``colour`` to move, searched
    ``depth`` plies (see the module's docstring)."""
    cells, level = board[0], board[5]
    hashed = board[9]
    killers, moves, stats = board[KILLERS], board[MOVES], board[STATS]
    tt_keys, tt_moves, tt_values, tt_depths, tt_kinds = (
        board[TABLE_KEYS],
        board[TABLE_MOVES],
        board[TABLE_VALUES],
        board[TABLE_DEPTHS],
        board[TABLE_KINDS],
    )
    if depth <= 0:
        return _quiescence(board, colour, alpha, beta, ply, 0, np.int64(-1))
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
    ) = read_threats(board, me)
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
        # Black's only block may be a point forbidden to him (renju): then
        # white's four wins.
        if level[me, their_five_at] == LEVEL_FORBIDDEN:
            return -(WIN - ply - 1)
        if ply == 0:
            stats[_BEST] = their_five_at
        place(board, their_five_at, colour)
        value = -_negamax(
            board, 3 - colour, depth, -beta, -alpha, ply + 1, extensions, may_pass
        )
        lift(board, their_five_at, colour)
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
    # Reverse futility pruning: a null-window node near the leaves whose
    # quiet value beats beta by a margin a ply is cut unsearched.
    if (
        not defend
        and ply > 0
        and depth <= FUTILITY_DEPTH
        and beta - alpha <= 1.0
        and abs(beta) < WIN_BOUND
    ):
        quiet_value = _stand_pat(board, me, best_me, best_op)
        if quiet_value - FUTILITY_MARGIN * depth >= beta:
            return quiet_value
    # Null-move pruning: a null-window node with nothing to meet whose
    # quiet value reaches beta passes; if the opponent, moving twice, still
    # cannot bring it under beta in a shallower search, the node is cut.
    if (
        may_pass
        and not defend
        and ply > 0
        and depth >= NULL_DEPTH
        and beta - alpha <= 1.0
        and abs(beta) < WIN_BOUND
        and _stand_pat(board, me, best_me, best_op) >= beta
    ):
        value = -_negamax(
            board,
            3 - colour,
            depth - 1 - NULL_PLIES,
            -beta,
            -beta + 1.0,
            ply + 1,
            extensions,
            np.int64(0),
        )
        if stats[_ABORTED]:
            return 0.0
        if value >= beta:
            return beta if value >= WIN_BOUND else value
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
        # Late-move pruning (see LATE_MOVES).
        if (
            quiet
            and not defend
            and ply > 0
            and beta - alpha <= 1.0
            and depth < LATE_MOVES.shape[0]
            and i >= LATE_MOVES[depth]
        ):
            continue
        # A move that makes an open three leaves the opponent few replies
        # (the defend set): its line is searched a ply deeper, a few times.
        extend = 1 if threat and extensions > 0 else 0
        child = depth - 1 + extend
        left = extensions - extend
        place(board, x, colour)
        if i == 0:
            value = -_negamax(
                board, 3 - colour, child, -beta, -alpha, ply + 1, left, np.int64(1)
            )
        else:
            reduce = 0
            if quiet and not defend and depth >= LMR_DEPTH:
                reduce = REDUCTIONS[min(depth, MAX_DEPTH), i]
                if beta - alpha > 1.0 and reduce > 0:
                    reduce -= 1
                reduce = min(reduce, child - 1)
            value = -_negamax(
                board,
                3 - colour,
                child - reduce,
                -alpha - 1.0,
                -alpha,
                ply + 1,
                left,
                np.int64(1),
            )
            if value > alpha and reduce > 0:
                value = -_negamax(
                    board,
                    3 - colour,
                    child,
                    -alpha - 1.0,
                    -alpha,
                    ply + 1,
                    left,
                    np.int64(1),
                )
            if alpha < value < beta:
                value = -_negamax(
                    board, 3 - colour, child, -beta, -alpha, ply + 1, left, np.int64(1)
                )
        lift(board, x, colour)
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


_RECURSION_LOCK = threading.Lock()


def _compile_recursion() -> None:
    """Compile (or load from numba's cache) the two recursive kernels before
    the first search, not at import: numba compiles a kernel whose types are
    declared as soon as it is decorated, and importing the package should
    compile nothing (6 s on a fresh checkout)."""
    global _quiescence, _negamax
    with _RECURSION_LOCK:
        if isinstance(_negamax, Dispatcher):
            return
        _quiescence = njit(_QUIESCENCE_TYPE, cache=True, nogil=True)(_quiescence)
        _negamax = njit(_NEGAMAX_TYPE, cache=True, nogil=True)(_negamax)


@njit(cache=True, nogil=True)
def search_depth(board, colour, depth, budget):
    """Search the board's position for ``colour`` to move ``depth`` plies
    within ``budget`` nodes in all; return (value, best move, aborted)."""
    stats = board[STATS]
    stats[_BUDGET] = 0 if stats[_STOPPED] else budget  # see stop()
    stats[_ABORTED] = 0
    stats[_BEST] = -1
    stats[_ROOT_DONE] = 0
    value = _negamax(
        board, colour, depth, -2.0 * WIN, 2.0 * WIN, 0, THREAT_EXTENSIONS, 0
    )
    return value, stats[_BEST], stats[_ABORTED] == 1, stats[_ROOT_DONE]


def new_search(size: int, row: int, rule: int = gomoku.FREESTYLE) -> tuple:
    """Return a board (:func:`~mcts.search.gomoku.patterns.new_board`) for
    ``rule`` with the search's arrays after it: killers, each ply's moves
    and their ordering scores, the statistics, the transposition table and
    the root's legal cells."""
    n = size * size
    table_size = 1 << TABLE_BITS
    return new_board(size, row, rule) + (
        np.full((MAX_PLY, 2), -1, dtype=np.int64),  # KILLERS
        np.zeros((MAX_PLY, n), dtype=np.int64),  # MOVES
        np.zeros((MAX_PLY, n), dtype=np.float64),  # SCORES
        np.zeros(6, dtype=np.int64),  # STATS
        np.zeros(table_size, dtype=np.uint64),  # TABLE_KEYS
        np.zeros(table_size, dtype=np.int64),  # TABLE_MOVES
        np.zeros(table_size, dtype=np.float64),  # TABLE_VALUES
        np.zeros(table_size, dtype=np.int64),  # TABLE_DEPTHS
        np.zeros(table_size, dtype=np.int8),  # TABLE_KINDS
        np.ones(n, dtype=np.int8),  # ROOT_MOVES
    )


def _set_state(board: tuple, state: np.ndarray) -> tuple[np.ndarray, int]:
    """Set ``board`` to the Gomoku ``state`` and its root's legal cells
    (under renju, black's forbidden points are not); return its stones and
    the colour to move (1 black, 2 white)."""
    size = int(state[gomoku.SIZE])
    stones = np.asarray(
        state[gomoku.HEADER : gomoku.HEADER + size * size], dtype=np.int64
    )
    set_position(board, stones)
    colour = int(state[gomoku.SIDE]) + 1
    root_moves = board[ROOT_MOVES]
    root_moves[:] = stones == 0
    if colour == 1 and int(state[gomoku.RULE]) == gomoku.RENJU:
        scratch = np.array(state, dtype=np.uint64)
        for x in np.flatnonzero(root_moves):
            if renju.forbidden(scratch, np.int64(x)) != renju.NOT_FORBIDDEN:
                root_moves[x] = 0
    return stones, colour


def value_at_depth(
    board: tuple,
    state: np.ndarray,
    depth: int,
    weights: ShapeWeights = HAND_WEIGHTS,
) -> float:
    """Return the value of the Gomoku ``state`` for the side to move by a
    ``depth``-ply search by ``weights`` from an empty table: the same for
    the same state, whatever ``board`` searched before."""
    _compile_recursion()
    use_weights(board, weights)
    _, colour = _set_state(board, state)
    forget(board)
    clear_stop(board)
    value, _move, _aborted, _done = search_depth(board, colour, depth, 2**62)
    return float(value)


def think(
    board: tuple, state: np.ndarray, seconds: float, max_depth: int = MAX_DEPTH
) -> tuple[int, float, int, int]:
    """Search the Gomoku ``state`` by iterative deepening for about
    ``seconds``, ``max_depth`` plies at most; return (move, value for the
    mover, depth completed, nodes)."""
    _compile_recursion()
    _, colour = _set_state(board, state)
    stats = board[STATS]
    stats[_NODES] = 0
    start = time.perf_counter()
    best, value, done = -1, 0.0, 0
    rate = 200_000.0
    for depth in range(1, max_depth + 1):
        elapsed = time.perf_counter() - start
        budget = int(
            stats[_NODES] + max(2_000.0, rate * (TIME_SHARE * seconds - elapsed))
        )
        v, move, aborted, root_done = search_depth(board, colour, depth, budget)
        aborted = aborted or stats[_STOPPED] == 1
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
        size = int(state[gomoku.SIZE])
        legal = board[ROOT_MOVES]
        centre = (size // 2) * size + size // 2
        best = centre if legal[centre] else int(np.flatnonzero(legal)[0])
    return best, value, done, int(stats[_NODES])


def use_weights(board: tuple, weights: ShapeWeights) -> None:
    """Make the search evaluate by ``weights`` from its next :func:`think`
    on; it forgets its table when they differ from the ones it had."""
    values = weights.array()
    if not np.array_equal(board[WEIGHTS], values):
        set_weights(board, values)
        forget(board)


def forget(board: tuple) -> None:
    """Empty the search's transposition table and killer moves."""
    board[KILLERS][:] = -1
    board[TABLE_KEYS][:] = 0


def stop(board: tuple) -> None:
    """Ask a :func:`think` running on ``board`` (in another thread) to
    return its best move so far at once; each think after it too, until
    :func:`clear_stop` (a think does not clear it, so that a stop asked
    while it starts holds)."""
    stats = board[STATS]
    stats[_STOPPED] = 1
    stats[_BUDGET] = 0


def clear_stop(board: tuple) -> None:
    """Let ``board``'s next :func:`think` run its time again."""
    board[STATS][_STOPPED] = 0

"""Which of a search tree's proofs hold for every reply, in numba.

Gomoku's tree keeps only the focus's few best replies at a node
(:mod:`mcts.search.gomoku.focus`), and the MCTS-Solver proves a node lost for its
player to move once those kept replies all lose. Such a proof is practical:
it steers the search well (docs/experiments: strict proofs cost it
games), but a reply outside the kept few may refute it, and in
``python -m mcts.lab conversion`` 24 of 110 moves the search proved won were
not won when played out.

So before a search result calls a move proven, :func:`strict_proofs`
checks the proofs under the root against every reply: a node proven lost
for its player to move holds only where each of its children's proofs
holds and the replies focus dropped cannot save him either (none might,
:func:`~mcts.search.gomoku.focus.replies_covered`, or his opponent wins after
each, by fours or by one three and then fours); a node proven won for its
player to move holds if one winning child's proof does; a proof made at a
leaf holds if the leaf's own rules still make it (five in a row, a full
board, or a VCF for the player to move). The proofs that fail stay in the
tree to steer the search; only the result stops calling them proven.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games import kernels
from ..games.base import BLACK, BLACK_WINS, DRAW, MAX_MOVES, ONGOING
from .gomoku.focus import focus_moves, replies_covered
from .gomoku.threats.vcf import LEAF_VCF_NODES
from .gomoku.threats.vct import wins_by_threats
from .kernel import MAX_DEPTH
from .tree import Proven, Tree


def holding_proofs(
    game_id: int,
    root: np.ndarray,
    tree: Tree,
    *,
    given: list[int] | None = None,
    vct_nodes: int = 0,
) -> np.ndarray | None:
    """Return a mask over ``tree``'s nodes (searched from the state vector
    ``root``) of the proofs a result may call proven (:func:`strict_proofs`,
    with ``given`` and the leaf checks' budgets as there), or None when all
    of them may: only Gomoku's focus drops replies, and only a proof at the
    root or a root child is ever shown."""
    if game_id != kernels.GOMOKU_ID:
        return None
    proven = tree.proven
    if proven[0] == Proven.UNKNOWN and not proven[tree.children(0)].any():
        return None
    return strict_proofs(
        game_id,
        root,
        tree.arrays,
        tree.size,
        np.array(given or [], dtype=np.int64),
        LEAF_VCF_NODES,
        vct_nodes,
    )


#: VCF nodes of the VCT (one three, then fours) that shows a reply focus
#: dropped loses too.
LEFT_OUT_VCT_NODES = 200


@njit(cache=True, nogil=True)
def strict_proofs(game_id, root, tree, size, given, vcf_nodes, vct_nodes):
    """Return, over the first ``size`` nodes of ``tree`` (searched from the
    state vector ``root``), an int8 array holding 1 where a proof that the
    root's own proof or a root child's depends on holds for every reply,
    and 0 elsewhere (unproven nodes, and proofs no result reads).

    The proofs of the nodes listed in ``given`` are taken as they are (the
    root's threat search makes exact ones). ``vcf_nodes`` and ``vct_nodes``
    are the threat checks' budgets at a leaf, as the search used them.

    Children always sit after their parent (the tree grows by appending and
    is renumbered breadth first), so one pass forward marks the proofs
    needed and one pass back judges them."""
    first_child, n_children, proven = tree.first_child, tree.n_children, tree.proven
    needed = np.zeros(size, dtype=np.bool_)
    needed[0] = proven[0] != Proven.UNKNOWN
    first = first_child[0]
    if first >= 0:
        for child in range(first, first + n_children[0]):
            needed[child] = proven[child] != Proven.UNKNOWN
    for node in range(size):
        first = first_child[node]
        if needed[node] and first >= 0:
            for child in range(first, first + n_children[node]):
                if proven[child] != Proven.UNKNOWN:
                    needed[child] = True
    holds = np.zeros(size, dtype=np.int8)
    for node in given:
        holds[node] = needed[node]
    path = np.empty(MAX_DEPTH + 1, dtype=np.int64)
    for node in range(size - 1, -1, -1):
        if not needed[node] or holds[node]:
            continue
        first = first_child[node]
        if first < 0:
            state = _replayed(game_id, root, tree, node, path)
            holds[node] = _leaf_proof_holds(
                game_id, state, proven[node], vcf_nodes, vct_nodes
            )
        elif proven[node] == Proven.LOSS:
            # The player to move here wins if one winning reply's proof holds.
            for child in range(first, first + n_children[node]):
                if proven[child] == Proven.WIN and holds[child]:
                    holds[node] = 1
                    break
        else:
            # Won (or drawn) for the mover into it: every kept reply must fail
            # and the kept replies must be all that might not.
            every = True
            for child in range(first, first + n_children[node]):
                if proven[child] == Proven.WIN or not holds[child]:
                    every = False
                    break
            if every:
                state = _replayed(game_id, root, tree, node, path)
                if _left_out_replies_lose(game_id, state, tree, node, vcf_nodes):
                    holds[node] = 1
    return holds


@njit(cache=True, nogil=True, inline="always")
def _left_out_replies_lose(game_id, state, tree, node, vcf_nodes):
    """Return whether the replies at ``node`` (the position ``state``) that
    its children leave out cannot save the player to move: focus dropped
    none that might (:func:`~mcts.search.gomoku.focus.replies_covered`), or after
    each one dropped his opponent wins by a VCF or a VCT of one three
    (:func:`~mcts.search.gomoku.threats.vct.wins_by_threats`, which reports
    no false win)."""
    count = tree.n_children[node]
    if replies_covered(game_id, state, count):
        return True
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    legal = kernels.legal_moves(game_id, state, moves)
    near = focus_moves(game_id, state, moves, legal, np.int64(MAX_MOVES), np.int64(0))
    first = tree.first_child[node]
    for i in range(near):
        kept = False
        for child in range(first, first + count):
            if tree.move[child] == moves[i]:
                kept = True
                break
        if kept:
            continue
        after = state.copy()
        kernels.apply_move(game_id, after, moves[i])
        if kernels.status(game_id, after) != ONGOING:
            return False
        if not wins_by_threats(after, vcf_nodes, np.int64(LEFT_OUT_VCT_NODES)):
            return False
    return True


@njit(cache=True, nogil=True)
def _replayed(game_id, root, tree, node, path):
    """Return the state at ``node``: the root state with the moves of the
    path down to it applied."""
    depth = 0
    while node > 0:
        path[depth] = node
        depth += 1
        node = tree.parent[node]
    state = root.copy()
    for k in range(depth - 1, -1, -1):
        kernels.apply_move(game_id, state, np.int64(tree.move[path[k]]))
    return state


@njit(cache=True, nogil=True, inline="always")
def _leaf_proof_holds(game_id, state, proof, vcf_nodes, vct_nodes):
    """Return whether a leaf's proof (for the player who moved into it) is
    what the game's end or a threat check at ``state`` says."""
    code = kernels.status(game_id, state)
    if code != ONGOING:
        if code == DRAW:
            return proof == Proven.DRAW
        to_move = kernels.side_to_move(game_id, state)
        mover_won = (code == BLACK_WINS) != (to_move == BLACK)
        return proof == (Proven.WIN if mover_won else Proven.LOSS)
    if proof != Proven.LOSS or game_id != kernels.GOMOKU_ID:
        return False
    return wins_by_threats(state, vcf_nodes, vct_nodes)

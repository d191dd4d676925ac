"""The Gomoku root's plan: what the threat search decides before the tree
search starts.

The searcher plays a VCF (else a VCT of two threes, else, when the move's
time allows, a deeper one: :func:`~.vct.deep_vct`) at the root at once,
restricts the root to the moves that must block an opponent's VCF, or
drops the root moves after which the opponent has a VCT of two threes;
see :func:`plan_root`. The searches run in one kernel,
:func:`root_threats`: numba compiles each kernel with the whole threat
search under it, so one entry point instead of five saves that compile four
times over on a first start.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....games import gomoku
from ...tree import Proven, Tree
from ..focus import focus_moves, gomoku_move_score
from .vcf import VCF_MAX_DEPTH, defence_moves, state_vcf
from .vct import VCT_DEPTH, deep_vct, state_vct, vct_losers

#: Nodes (attacker fours tried) of a VCF search at the root.
ROOT_VCF_NODES = 20_000
#: Nodes of each VCF search that checks whether a root move defends.
DEFENCE_VCF_NODES = 4_000
#: VCF nodes of a VCT search at the root, for the mover and for the opponent.
ROOT_VCT_NODES = 20_000
#: VCF nodes of each VCT search that checks whether a root move defends.
DEFENCE_VCT_NODES = 3_000
#: Root moves checked against the opponent's VCT (the best by focus score).
DEFENCE_VCT_MOVES = 15
#: VCF nodes a second of a move's time buys for the deeper VCTs at the root.
#: On the 217 won positions of ``python -m mcts.lab threats``, 100,000 nodes
#: take a median 0.11 s and at most about 0.55 s; 200,000 won more of them
#: (90 against 66) but kept the win no more often (docs/experiments).
DEEP_VCT_NODES_PER_SECOND = 100_000


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
) -> Tree:
    """Return the tree to search the ongoing Gomoku ``state`` with.

    If the side to move has a VCF: a fresh tree whose root's only child is
    its first move, proven won (the search then stops at once). Else, if the
    opponent has one after a pass: ``tree`` with its root's other children
    proven lost, or, when the root holds none of the moves that must block
    (:func:`~.vcf.defence_moves`), a fresh tree whose root holds those (the
    ``3 * width`` best by the focus score when ``width`` is above 0).

    Else the same with threes (``vct_depth`` above 0): a VCT of the mover's
    is played at once; against the opponent's, the DEFENCE_VCT_MOVES best
    moves by focus score are each checked, those after which the opponent
    still has a VCT are proven lost and the root keeps the others. Else
    ``tree`` unchanged. ``deep_budget`` VCF nodes (a move's time buys them)
    look for the mover's VCT deeper than ``vct_depth`` (:func:`~.vct.deep_vct`).
    """
    # A writable copy: the kernels then share the compiled code the search's
    # own calls use (a read-only array is another signature to numba).
    state = np.array(state)
    size = int(state[gomoku.SIZE])
    moves = np.empty(size * size, dtype=np.int64)
    lost = np.zeros(size * size, dtype=np.bool_)
    budgets = (budget, defence_budget, vct_depth, vct_budget, defence_vct_budget)
    kind, count = root_threats(
        state, tuple(map(np.int64, (*budgets, deep_budget, width))), moves, lost
    )
    if kind == PLAY:
        return _rooted(np.array(moves[:1]), proven=Proven.WIN)
    if kind == BLOCK:
        kept = count if width <= 0 else min(count, 3 * width)
        return _restricted(tree, moves[:kept], set(moves[:count].tolist()), None)
    if kind == DROP:
        kept = moves[:count][~lost[:count]]
        if len(kept) == 0:
            return tree
        losers = set(moves[:count][lost[:count]].tolist())
        return _restricted(tree, kept, set(kept.tolist()), losers)
    return tree


#: What :func:`root_threats` found: nothing to act on, a move to play at once,
#: the moves that must block, or the focus moves of which some lose.
NOTHING, PLAY, BLOCK, DROP = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def root_threats(state, budgets, moves, lost):
    """Return (what the threat searches found, a count), for
    :func:`plan_root`: (PLAY, 1) with the mover's winning first move in
    ``moves[0]``; (BLOCK, n) with the moves that block the opponent's VCF
    in ``moves[:n]`` (when there are more than three times ``width``, the
    best by focus score first); (DROP, n) with the best ``n`` moves by focus
    score in ``moves[:n]`` and ``lost[:n]`` set for those after which the
    opponent still has a VCT; or (NOTHING, 0). ``budgets`` holds
    :func:`plan_root`'s budgets in its order, then its ``width``."""
    (
        budget,
        defence_budget,
        vct_depth,
        vct_budget,
        defence_vct_budget,
        deep_budget,
        width,
    ) = budgets
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = state_vcf(state, np.int64(0), np.int64(VCF_MAX_DEPTH), budget, line)
    if length > 0:
        moves[0] = line[0]
        return PLAY, np.int64(1)
    count = defence_moves(state, defence_budget, moves)
    if count >= 0:  # 0: no defence, search as usual
        if width > 0 and count > 3 * width:
            _best_first(state, moves, count)
        return (BLOCK if count > 0 else NOTHING), count
    if vct_depth == 0:
        return NOTHING, np.int64(0)
    first = state_vct(state, np.int64(0), vct_depth, vct_budget)
    if first < 0 and deep_budget > 0:
        first, _ = deep_vct(state, vct_depth + 1, deep_budget)
    if first >= 0:
        moves[0] = first
        return PLAY, np.int64(1)
    if state_vct(state, np.int64(1), vct_depth, vct_budget) < 0:
        return NOTHING, np.int64(0)  # the opponent has no threat
    legal = gomoku.legal_moves(state, moves)
    width, game_id = np.int64(DEFENCE_VCT_MOVES), np.int64(gomoku.GAME_ID)
    count = focus_moves(game_id, state, moves, legal, width, np.int64(0))
    vct_losers(state, moves, count, defence_vct_budget, lost)
    return DROP, count


@njit(cache=True, nogil=True)
def _best_first(state, moves, count):
    """Order ``moves[:count]`` by focus score, the best first (ties keep
    their order)."""
    scores = np.empty(count)
    for i in range(count):
        scores[i] = -gomoku_move_score(state, moves[i])
    order = np.argsort(scores, kind="mergesort")
    moves[:count] = moves[:count][order]


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

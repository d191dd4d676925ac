"""The MCTS loop in numba: select, expand, evaluate and back up, with the MCTS-Solver.

One job, kept whole: the simulation loop and the selection, expansion and
backup steps it inlines, which numba compiles and caches as one unit.

:func:`run_simulations` works over a tree's arrays
(:class:`~mcts.search.tree.TreeArrays`).
It knows three parts only by integer ids, so numba can cache it (no functions
passed as arguments):

- the **selection rule** (:data:`RULES`): UCT (UCB1 on the children, unvisited
  children first in their shuffled order) or PUCT (AlphaZero-style, with an
  optional per-node prior array, uniform when empty) for later use with a
  policy network;
- the **evaluator** (:mod:`mcts.search.rollouts`): random or heavy rollouts, the
  heavy ones cut short by a tree model's learned evaluation when the
  searcher has one (:mod:`mcts.search.learned`);
- the **game** (:mod:`mcts.games.kernels`), by game id; Lines of Action's
  ``learned`` array is its search parameters, and its selection adds a
  progressive bias (:mod:`mcts.search.loa.search`).

States are not stored in the tree: each simulation replays the moves from a
copy of the root state while it descends.

MCTS-Solver (Winands, Björnsson and Saito 2008): a terminal leaf is proven at
its first visit; a node is a proven loss for its mover as soon as one child is
a proven win for the player to move there, and once every child is proven it
is a proven win for its mover if all children are losses, else a draw if the
best is a draw. Proven-loss children are never selected; a simulation that
reaches a proven node backs up its exact value without a rollout. The search
stops early once the root is proven.

Lines of Action repetition is judged only by the Python layer (it needs the
move history); inside the search the kernels ignore it, so the search may
misjudge a line that repeats, just as a rollout would. The move played sees
it: :meth:`~mcts.search.searcher.Searcher.result` counts a root move that draws
by repetition, or lets the opponent do so, as a draw
(:meth:`~mcts.games.base.Game.repetition_draws`).

The driver that calls it in chunks is :class:`mcts.search.searcher.Searcher`.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ..games import kernels
from ..games.base import BLACK, BLACK_WINS, DRAW, MAX_MOVES, ONGOING
from .gomoku.focus import focus_moves, replies_covered
from .gomoku.shapes import quiet_leaf
from .gomoku.threats.vct import wins_by_threats
from .loa.search import select as loa_select
from .reversi.endgame import leaf_margin
from .rollouts import HEAVY, evaluate, terminal_reward
from .tree import DRAWN, SCORE, TAKE, Proven, proof_choice, proof_step

UCT = 0
PUCT = 1
#: Selection rules by name and their kernel ids.
RULES = {"uct": UCT, "puct": PUCT}


class SearchParams(NamedTuple):
    """A search's settings as :func:`run_simulations` reads them (scalars, so
    that numba compiles one specialization for every search)."""

    c: float  # exploration constant
    rule: int  # a RULES id
    evaluator: int  # mcts.search.rollouts' evaluator id
    cutoff: int  # rollout plies before the evaluation scores a leaf
    expand_visits: int  # visits a leaf needs before it is expanded
    endgame_empties: int  # Reversi: new leaves solved exactly (0: never)
    focus_width: int  # Gomoku: moves focus keeps at a node (0: focus off)
    root_width: int  # Gomoku: the same at the root
    threat_nodes: int  # Gomoku: VCF nodes that may prove a new leaf (0: none)
    vct_nodes: int  # Gomoku: VCF nodes of a leaf's VCT of one three (0: none)
    shapes: int  # Gomoku: 1 ranks focus moves by shapes, 2 also scores leaves
    strict: bool  # prove a node lost only when focus kept every saving reply
    alpha: float  # weight of the minimax values in selection (0: off)


class Knowledge(NamedTuple):
    """The arrays a search reads besides the tree: a learned evaluation's
    weights (or Lines of Action's search parameters), Reversi's pattern
    weights, the per-node prior of PUCT and the minimax values (each empty
    when unused)."""

    learned: np.ndarray  # float64
    patterns: np.ndarray  # float32
    prior: np.ndarray  # float32
    minimax: np.ndarray  # float32, one row per node, NaN where unknown


class Chunk(NamedTuple):
    """One call's budget: simulations, the node limit, and whether the
    driver may grow the arrays when a leaf needs more room."""

    n_sims: int
    limit: int
    may_grow: bool


#: Deepest path a simulation follows before it evaluates where it stands.
MAX_DEPTH = 4096

# Why a call of run_simulations returned.
BUDGET_DONE = 0
NEED_ROOM = 1
STOPPED = 2
ROOT_PROVEN = 3


# ---- the numba loop -------------------------------------------------------------
@njit(cache=True, nogil=True)
def proven_reward(proven_value):
    """Return the mover's score of a proven node: 1, 0 or 0.5."""
    if proven_value == Proven.WIN:
        return 1.0
    if proven_value == Proven.LOSS:
        return 0.0
    return 0.5


@njit(cache=True, nogil=True)
def _select(node, tree, prior, c, rule, minimax, alpha):
    """Return ``(child, floored)``: the child of ``node`` to descend into (-1 if
    every child is lost) and whether a proven-draw sibling was passed over.

    With ``alpha`` above 0, a child's mean is blended with its backed-up
    minimax value (:func:`_back_up_minimax`): ``(1 - alpha) * mean + alpha *
    minimax``.

    Proofs decide first, as every selection rule's do
    (:func:`~mcts.search.tree.proof_step`): never a proven loss, a proven win
    at once, a proven draw only when no unknown sibling is left, and then the
    caller backs up at least a draw (``floored``).
    """
    proven, visits, value_sum = tree.proven, tree.visits, tree.value_sum
    first = tree.first_child[node]
    count = tree.n_children[node]
    best = -1
    best_score = -np.inf
    draw = -1
    log_n = math.log(max(visits[node], 1))
    sqrt_n = math.sqrt(max(visits[node], 1))
    uniform = 1.0 / count
    for child in range(first, first + count):
        step = proof_step(proven[child])
        if step == TAKE:
            return child, False
        if step == DRAWN:
            draw = child
        if step != SCORE:
            continue
        n = visits[child]
        if rule == UCT:
            if n == 0:
                return child, draw >= 0 or _has_draw(first, count, proven)
            score = _blend(child, value_sum[child] / n, minimax, alpha)
            score += c * math.sqrt(log_n / n)
        else:  # PUCT: Q + c * P * sqrt(N) / (1 + n), unvisited valued at 0.5
            q = 0.5 if n == 0 else _blend(child, value_sum[child] / n, minimax, alpha)
            p = prior[child] if prior.shape[0] > 0 else uniform
            score = q + c * p * sqrt_n / (1 + n)
        if score > best_score:
            best_score = score
            best = child
    return proof_choice(best, draw)


@njit(cache=True, nogil=True)
def _blend(child, mean, minimax, alpha):
    """Return ``mean`` blended with ``child``'s minimax value if it has one."""
    if alpha > 0.0:
        value = minimax[child]
        if value == value:  # not NaN: known
            return (1.0 - alpha) * mean + alpha * value
    return mean


@njit(cache=True, nogil=True)
def _backed_value(child, tree, minimax):
    """Return ``child``'s value for the player who moved into it, for a
    minimax backup: exact if proven, else its minimax value, else its mean;
    -1 if it has none (never visited)."""
    state = tree.proven[child]
    if state != Proven.UNKNOWN:
        return proven_reward(state)
    value = minimax[child]
    if value == value:
        return value
    if tree.visits[child] > 0:
        return tree.value_sum[child] / tree.visits[child]
    return -1.0


@njit(cache=True, nogil=True)
def _back_up_minimax(path, movers, depth, leaf_value, tree, minimax):
    """Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant
    2014): the leaf ``path[depth]``, if unexpanded, keeps ``leaf_value`` (its
    evaluation for the player who moved into it); every node above it on the
    path takes the best of its children's values for the player to move
    there, seen from its own mover, up to the first whose value stays."""
    leaf = path[depth]
    if tree.first_child[leaf] < 0 and tree.proven[leaf] == Proven.UNKNOWN:
        minimax[leaf] = leaf_value
    first_child, n_children = tree.first_child, tree.n_children
    for i in range(depth - 1, -1, -1):
        node = path[i]
        first = first_child[node]
        best = -1.0
        for child in range(first, first + n_children[node]):
            best = max(best, _backed_value(child, tree, minimax))
        if best < 0.0:
            return
        value = np.float32(best if movers[i + 1] == movers[i] else 1.0 - best)
        if minimax[node] == value:
            return  # unchanged: so are the values above it
        minimax[node] = value


@njit(cache=True, nogil=True, inline="always")
def _leaf(evaluator, game_id, state, learned, cutoff, patterns, shapes):
    """Return black's expected score of the leaf ``state`` (overwritten): by
    the evaluator, or for Gomoku with ``shapes`` 2 and heavy rollouts once
    it is quiet, by the line shapes
    (:func:`mcts.search.gomoku.shapes.quiet_leaf`)."""
    if shapes >= 2 and evaluator == HEAVY and game_id == kernels.GOMOKU_ID:
        return quiet_leaf(state)
    return evaluate(evaluator, game_id, state, learned, cutoff, patterns)


@njit(cache=True, nogil=True)
def _has_draw(first, count, proven):
    """Return True if a child in ``first .. first + count`` is a proven draw."""
    # a plain loop: numba compiles no any() over a generator
    for child in range(first, first + count):  # noqa: SIM110
        if proven[child] == Proven.DRAW:
            return True
    return False


@njit(cache=True, nogil=True)
def _expand(node, size, moves, count, tree):
    """Allocate ``count`` children of ``node`` at ``size`` in random order;
    return the new tree size."""
    for i in range(count - 1, 0, -1):  # Fisher-Yates: children come out shuffled
        j = np.random.randint(0, i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return add_children(node, size, moves, count, tree)


@njit(cache=True, nogil=True)
def add_children(node, size, moves, count, tree):
    """Allocate ``count`` children of ``node`` at ``size``, one per move of
    ``moves`` in its order; return the new tree size."""
    for k in range(count):
        child = size + k
        tree.parent[child] = node
        tree.move[child] = moves[k]
        tree.first_child[child] = -1
        tree.n_children[child] = 0
        tree.visits[child] = 0
        tree.value_sum[child] = 0.0
        tree.proven[child] = Proven.UNKNOWN
    tree.first_child[node] = size
    tree.n_children[node] = count
    return size + count


@njit(cache=True, nogil=True, inline="always")
def prove_upward(path, depth, tree, game_id, root, strict):
    """Propagate a new proof at ``path[depth]`` toward the root (MCTS-Solver).

    With ``strict``, a node whose children all lose is proven lost for the
    player to move there only if focus kept every reply that might save
    him (:func:`mcts.search.gomoku.focus.replies_covered`, checked on the position
    replayed from the state vector ``root``)."""
    first_child, n_children, proven = tree.first_child, tree.n_children, tree.proven
    for i in range(depth - 1, -1, -1):
        node = path[i]
        child = path[i + 1]
        if proven[child] == Proven.UNKNOWN or proven[node] != Proven.UNKNOWN:
            return
        if proven[child] == Proven.WIN:
            # The player to move here has a winning move: the mover into here lost.
            proven[node] = Proven.LOSS
            continue
        first = first_child[node]
        any_draw = False
        for other in range(first, first + n_children[node]):
            value = proven[other]
            if value == Proven.UNKNOWN:
                return
            if value == Proven.WIN:
                proven[node] = Proven.LOSS
                break
            if value == Proven.DRAW:
                any_draw = True
        if proven[node] != Proven.UNKNOWN:
            continue
        if strict and not _covered(path, i, tree, game_id, root):
            return
        proven[node] = Proven.DRAW if any_draw else Proven.WIN


@njit(cache=True, nogil=True, inline="always")
def _covered(path, i, tree, game_id, root):
    """Return whether the children of ``path[i]`` hold every reply that
    might not lose (:func:`mcts.search.gomoku.focus.replies_covered`)."""
    state = root.copy()
    for k in range(1, i + 1):
        kernels.apply_move(game_id, state, np.int64(tree.move[path[k]]))
    return replies_covered(game_id, state, tree.n_children[path[i]])


@njit(cache=True, nogil=True)
def run_simulations(game_id, root, tree, meta, stop, chunk, params, knowledge):
    """Run up to ``chunk.n_sims`` simulations from the state vector ``root``
    in ``tree`` (a :class:`~mcts.search.tree.TreeArrays`), with the settings
    of ``params`` (:class:`SearchParams`) and the arrays of ``knowledge``
    (:class:`Knowledge`); ``stop[0]`` set to nonzero by another thread ends
    the call at the next simulation.

    ``learned`` holds the weights of a learned evaluation for the heavy
    rollouts (empty for none; see :mod:`mcts.search.learned`), which score
    their position after ``cutoff`` plies; ``patterns`` (Reversi) the
    pattern evaluation's weights that replace it (no rows: none; see
    :func:`mcts.search.rollouts.reversi_pattern_leaf`).

    A new Reversi leaf with at most ``endgame_empties`` empty squares (0:
    never) is solved exactly (:mod:`mcts.search.reversi.endgame`) and proven instead
    of played out. A Gomoku leaf about to be expanded where the player to
    move wins by a VCF found within ``threat_nodes`` nodes (0: never looked
    for), or by a VCT of one three within ``vct_nodes`` (0: not looked for),
    is proven lost for the player who moved there instead
    (:func:`mcts.search.gomoku.threats.vct.wins_by_threats`). Focus (0: off) keeps the
    ``root_width`` best Gomoku moves at the root and the ``focus_width``
    best at the nodes below (:func:`mcts.search.gomoku.focus.focus_moves`).
    ``shapes`` 1 ranks the Gomoku moves focus keeps by their line shapes
    (:mod:`mcts.search.gomoku.shapes`), 2 also scores quiet leaves by them.

    ``strict`` proves a node lost for its player to move only when focus
    kept every reply that might save him (see :func:`prove_upward`).

    ``minimax`` (float32, one row per node, NaN where unknown) holds the
    implicit minimax values that selection blends in with weight ``alpha``
    (0: off, and ``minimax`` may be empty); see :func:`_back_up_minimax`.

    ``meta[0]`` is the tree size (updated in place); nodes are allocated only
    below ``limit``. When a leaf needs more room and ``may_grow`` is true the
    loop returns :data:`NEED_ROOM` so the driver can double the arrays;
    otherwise the leaf is evaluated without being expanded.

    Returns ``(simulations done, reason)`` with reason one of BUDGET_DONE,
    NEED_ROOM, STOPPED, ROOT_PROVEN.
    """
    n_sims, limit, may_grow = chunk.n_sims, chunk.limit, chunk.may_grow
    c, rule, evaluator, cutoff = params.c, params.rule, params.evaluator, params.cutoff
    expand_visits, endgame_empties = params.expand_visits, params.endgame_empties
    focus_width, root_width = params.focus_width, params.root_width
    threat_nodes, vct_nodes = params.threat_nodes, params.vct_nodes
    shapes, strict = params.shapes, params.strict
    alpha = params.alpha
    learned, patterns = knowledge.learned, knowledge.patterns
    prior, minimax = knowledge.prior, knowledge.minimax
    work = np.empty_like(root)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    path = np.empty(MAX_DEPTH, dtype=np.int64)
    movers = np.empty(MAX_DEPTH, dtype=np.int64)
    floored = np.zeros(MAX_DEPTH, dtype=np.bool_)
    first_child, visits, value_sum, proven = (
        tree.first_child,
        tree.visits,
        tree.value_sum,
        tree.proven,
    )
    size = meta[0]
    root_mover = 1 - kernels.side_to_move(game_id, root)
    done = 0
    while done < n_sims:
        if stop[0] != 0:
            return done, STOPPED
        if proven[0] != Proven.UNKNOWN:
            return done, ROOT_PROVEN
        work[:] = root
        # np.int64(0), not 0: a literal would give the kernels called with
        # them a compiled copy of their own (see mcts.play.warmup).
        node = np.int64(0)
        depth = np.int64(0)
        path[0] = 0
        movers[0] = root_mover
        newly_proven = False
        at_leaf = False  # evaluate where the descent stopped
        reward = 0.5  # for black
        while True:
            if proven[node] != Proven.UNKNOWN:
                mover_reward = proven_reward(proven[node])
                reward = mover_reward if movers[depth] == BLACK else 1.0 - mover_reward
                break
            if first_child[node] < 0:
                # A node's status is checked on its first visit and again as it
                # earns its children: a model's node may carry visits its own
                # search never gave it (an opening book's game that ended there).
                fresh = visits[node] == 0
                if node != 0 and (fresh or visits[node] >= expand_visits):
                    code = kernels.status(game_id, work)
                    if code != ONGOING:
                        reward = terminal_reward(code)
                        if code == DRAW:
                            proven[node] = Proven.DRAW
                        elif (code == BLACK_WINS) == (movers[depth] == BLACK):
                            proven[node] = Proven.WIN
                        else:
                            proven[node] = Proven.LOSS
                        newly_proven = True
                        break
                if (
                    fresh
                    and node != 0
                    and endgame_empties > 0
                    and game_id == kernels.REVERSI_ID
                ):
                    solved, margin = leaf_margin(work, endgame_empties)
                    if solved:
                        if kernels.side_to_move(game_id, work) != movers[depth]:
                            margin = -margin  # for the player who moved here
                        if margin > 0:
                            proven[node] = Proven.WIN
                        elif margin < 0:
                            proven[node] = Proven.LOSS
                        else:
                            proven[node] = Proven.DRAW
                        mover_reward = proven_reward(proven[node])
                        reward = (
                            mover_reward
                            if movers[depth] == BLACK
                            else 1.0 - mover_reward
                        )
                        newly_proven = True
                        break
                if node != 0 and visits[node] < expand_visits:
                    at_leaf = True
                    break
                if (
                    node != 0
                    and threat_nodes > 0
                    and game_id == kernels.GOMOKU_ID
                    and wins_by_threats(work, threat_nodes, vct_nodes)
                ):  # checked once a leaf earns its children: a third of the leaves
                    proven[node] = Proven.LOSS
                    reward = 0.0 if movers[depth] == BLACK else 1.0
                    newly_proven = True
                    break
                count = kernels.legal_moves(game_id, work, moves)
                if focus_width > 0:
                    width = root_width if node == 0 else focus_width
                    count = focus_moves(game_id, work, moves, count, width, shapes)
                if size + count > limit:
                    if may_grow:
                        meta[0] = size
                        return done, NEED_ROOM
                    at_leaf = True
                    break
                size = _expand(node, size, moves, count, tree)
            if depth >= MAX_DEPTH - 1:
                at_leaf = True
                break
            if game_id == kernels.LOA_ID and learned.shape[0] > 0:
                # LOA's parameters (mcts.search.loa.search): progressive bias
                child, floored[depth] = loa_select(node, tree, work, c, learned)
            else:
                child, floored[depth] = _select(
                    node, tree, prior, c, rule, minimax, alpha
                )
            if child < 0:  # every child lost: cannot happen once proofs propagate
                reward = 0.5
                break
            mover = kernels.side_to_move(game_id, work)
            kernels.apply_move(game_id, work, np.int64(tree.move[child]))
            depth += 1
            path[depth] = child
            movers[depth] = mover
            node = child
        if at_leaf:
            reward = _leaf(evaluator, game_id, work, learned, cutoff, patterns, shapes)
        if alpha > 0.0:
            leaf_value = reward if movers[depth] == BLACK else 1.0 - reward
            _back_up_minimax(path, movers, depth, leaf_value, tree, minimax)
        for i in range(depth, -1, -1):
            if i < depth and floored[i]:
                # The player to move at path[i] could have taken a proven draw.
                if movers[i + 1] == BLACK:
                    reward = max(reward, 0.5)
                else:
                    reward = min(reward, 0.5)
            n = path[i]
            visits[n] += 1
            value_sum[n] += reward if movers[i] == BLACK else 1.0 - reward
        if newly_proven:
            prove_upward(path, depth, tree, game_id, root, strict)
        meta[0] = size
        done += 1
    return done, BUDGET_DONE

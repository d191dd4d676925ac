"""PUCT search guided by a policy-value network (the AlphaZero method), for Gomoku.

:class:`NetSearcher` is a :class:`~mcts.search.searcher.Searcher` whose
simulations are run here, in Python, instead of by the numba kernel: each one
descends the tree by PUCT (AlphaZero's rule: the child's mean plus ``c`` times
its prior times sqrt(parent visits) / (1 + child visits)), asks the network
for the priors and the value of the position it reaches, expands it with
every legal move, and backs the value up. It keeps everything else of the
Searcher: the tree arrays (so results, principal variations, tree reuse and
the page's analysis read it as any other), the MCTS-Solver (a finished game
is proven at its first visit; proofs climb as the kernel climbs them) and,
for Gomoku, the threat search at the root (a VCF or VCT is played at once,
and against the opponent's only the moves that block are searched) and at
the leaves (a leaf whose player to move wins by a small VCF is proven lost
for the player who moved there, without asking the network).

The network sees the last move (:mod:`mcts.search.network`); the root's is
:attr:`NetSearcher.last_move`, kept up to date by :meth:`advance` and set by
the player for a position it is given.

Self-play adds Dirichlet noise to the root's priors (``noise``), as AlphaZero
does, so that its games explore.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..games.base import ONGOING, Game, State
from .gomoku_threats import LEAF_VCF_NODES, has_vcf
from .network import NetworkWeights, encode
from .searcher import DEFAULT_MAX_NODES, Searcher
from .tree import Proven, Tree

#: The exploration constant of PUCT on rewards in 0..1 (AlphaZero-style
#: Gomoku programs use 5 on values in -1..1, which is 2.5 here).
NET_C = 2.5
#: Leaves evaluated in one call of the network: numpy's overhead a call is
#: shared, and the virtual losses that spread a batch's descents cost little
#: strength at a few hundred simulations.
NET_BATCH = 8


class NetSearcher(Searcher):
    """A Searcher whose simulations are PUCT with ``network``'s priors and
    values. ``noise`` = (alpha, fraction) mixes Dirichlet(alpha) noise into
    the root's priors at that fraction (self-play); ``threats`` keeps the
    Gomoku root's threat search (on by default); ``batch`` is the most new
    leaves the network evaluates at once (1: one simulation at a time)."""

    def __init__(
        self,
        game: Game,
        state: State | None = None,
        *,
        network: NetworkWeights,
        c: float = NET_C,
        noise: tuple[float, float] | None = None,
        threats: bool = True,
        batch: int = NET_BATCH,
        seed: int | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
    ) -> None:
        if game.name != "gomoku":
            raise ValueError(f"the network player plays gomoku, not {game.name}")
        if network.size != game.options["size"]:
            raise ValueError(
                f"a network for {network.size}x{network.size} cannot play on "
                f"{game.options['size']}x{game.options['size']}"
            )
        super().__init__(
            game,
            state,
            evaluator="random",
            c=c,
            rule="puct",
            focus=False,
            threats=threats,
            shapes=0,
            seed=seed,
            max_nodes=max_nodes,
        )
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        self.network = network
        self.noise = noise
        #: Leaves the network evaluates at once.
        self.batch = int(batch)
        #: The move that led to the root (-1: none or unknown).
        self.last_move = -1
        # The children's priors of each expanded node, for the tree they
        # were computed in (a new tree, from tree reuse or the root's threat
        # search, renumbers the nodes).
        self._priors: dict[int, np.ndarray] = {}
        self._priors_tree: Tree | None = None

    # ---- position and tree reuse --------------------------------------------------
    def set_state(self, state: State, last_move: int = -1) -> None:
        """Make ``state`` the root (reached by ``last_move``, -1 if unknown);
        keep the tree only if it is the same position."""
        if state != self._state:
            self.last_move = last_move
        super().set_state(state)

    def advance(self, move: int) -> None:
        """Play ``move`` at the root and keep the subtree below it."""
        super().advance(move)
        self.last_move = move

    # ---- searching --------------------------------------------------------------
    def _compile(self) -> None:
        """Nothing to compile: the simulations run in Python (the threat
        search's kernels compile on their first call)."""

    def _run(self, start, seconds, simulations, on_progress, progress_every) -> int:
        """Run simulations until the budget ends; return how many ran."""
        deadline = math.inf if seconds is None else start + seconds
        remaining = math.inf if simulations is None else int(simulations)
        next_report = start + progress_every
        if self._priors_tree is not self.tree:
            self._priors, self._priors_tree = {}, self.tree
        widest = self.game.options["size"] ** 2
        if self.noise is not None and self._expanded_root():
            self._add_noise()
        done = 0
        while remaining > 0 and self._stop[0] == 0:
            if self.tree.proven[0] != Proven.UNKNOWN:
                break
            if time.perf_counter() >= deadline:
                break
            if self.tree.size + self.batch * widest > self.max_nodes:
                break
            ran = self._simulate_batch(int(min(self.batch, remaining)))
            done += ran
            remaining -= ran
            if on_progress is not None and time.perf_counter() >= next_report:
                on_progress(
                    self.result(simulations=done, elapsed=time.perf_counter() - start)
                )
                next_report = time.perf_counter() + progress_every
        return done

    def _expanded_root(self) -> bool:
        """Expand the root if it is not (so noise has priors to mix into);
        return whether it has children."""
        if self.tree.first_child[0] < 0:
            logits, _ = self._evaluate(self._state, self.last_move)
            self._expand(0, self._state, logits)
        else:
            self._priors_of(0, self._state, self.last_move)
        return self.tree.first_child[0] >= 0

    def _add_noise(self) -> None:
        assert self.noise is not None
        alpha, fraction = self.noise
        priors = self._priors[0]
        noise = self._rng.dirichlet([alpha] * len(priors))
        self._priors[0] = ((1 - fraction) * priors + fraction * noise).astype(
            np.float32
        )

    def _simulate_batch(self, count: int) -> int:
        """Run up to ``count`` simulations whose new leaves the network
        evaluates in one call; return how many ran.

        Each descent counts its visit on the way down (a virtual loss: the
        visit is there, its reward not yet), so the next descent of the batch
        prefers other lines; a descent that reaches a leaf already waiting
        for the network ends the batch. A finished game or a proven node is
        backed up at once.
        """
        tree, game = self.tree, self.game
        waiting: list[tuple[list[int], State, int]] = []
        ran = 0
        while ran < count:
            state, node, last = self._state, 0, self.last_move
            path = [0]
            while tree.first_child[node] >= 0 and tree.proven[node] == Proven.UNKNOWN:
                child = self._select(node, state, last)
                last = int(tree.move[child])
                state = game.apply(state, last)
                node = child
                path.append(node)
            if any(node == leaf[0][-1] for leaf in waiting):
                break
            tree.visits[path] += 1
            ran += 1
            if tree.proven[node] != Proven.UNKNOWN:
                self._back_up(path, _PROVEN_REWARD[Proven(tree.proven[node])])
            elif game.status(state) != ONGOING:
                self._back_up(path, self._prove_terminal(node, state))
            elif self.threats and has_vcf(state.array, LEAF_VCF_NODES):
                # The player to move wins by continuous fours: the move
                # into the leaf loses, as the numba kernel proves its leaves.
                tree.proven[node] = Proven.LOSS
                self._back_up(path, 0.0)
            else:
                waiting.append((path, state, last))
            if tree.proven[0] != Proven.UNKNOWN:
                break
        if waiting:
            planes = np.stack([encode(st.array, last) for _, st, last in waiting])
            logits, values = self.network.evaluate(planes)
            for (path, state, _), row, value in zip(
                waiting, logits, values, strict=True
            ):
                self._expand(path[-1], state, row)
                # The network's value is for the player to move at the leaf;
                # the leaf's reward is for the player who moved into it.
                self._back_up(path, (1.0 - float(value)) / 2.0)
        return ran

    def _select(self, node: int, state: State, last: int) -> int:
        """Return the child of ``node`` PUCT picks (never a proven loss for the
        player to move while another child is open)."""
        tree = self.tree
        first, count = int(tree.first_child[node]), int(tree.n_children[node])
        priors = self._priors_of(node, state, last)
        visits = tree.visits[first : first + count].astype(np.float64)
        sums = tree.value_sum[first : first + count].astype(np.float64)
        proven = tree.proven[first : first + count]
        parent_visits = max(1, int(tree.visits[node]))
        # An unvisited child starts at the parent's value for the player to
        # move there (first-play urgency), not at a loss or a win.
        parent_mean = 1.0 - float(tree.value_sum[node]) / parent_visits
        means = np.where(visits > 0, sums / np.maximum(visits, 1), parent_mean)
        scores = means + self.c * priors * math.sqrt(parent_visits) / (1 + visits)
        scores[proven == _LOSS] = -np.inf
        scores[proven == _WIN] = np.inf
        return first + int(np.argmax(scores))

    def _priors_of(self, node: int, state: State, last: int) -> np.ndarray:
        """Return the priors of ``node``'s children, asking the network again
        where they were lost (a reused or threat-planned tree)."""
        priors = self._priors.get(node)
        if priors is None:
            tree = self.tree
            moves = tree.move[tree.children(node)]
            logits, _ = self._evaluate(state, last)
            priors = _masked_softmax(logits, moves)
            self._priors[node] = priors
        return priors

    def _evaluate(self, state: State, last: int) -> tuple[np.ndarray, float]:
        logits, values = self.network.evaluate(encode(state.array, last)[None])
        return logits[0], float(values[0])

    def _expand(self, node: int, state: State, logits: np.ndarray) -> None:
        """Give ``node`` a child for every legal move, with the priors of
        the network's ``logits``."""
        moves = np.array(self.game.legal_moves(state), dtype=np.int64)
        self.tree.add_children(node, moves)
        self._priors[node] = _masked_softmax(logits, moves)

    def _prove_terminal(self, node: int, state: State) -> float:
        """Prove the finished game at ``node``; return its reward for the
        player who moved into it."""
        outcome = self.game.outcome(state)
        assert outcome is not None  # the game is over
        mover = "white" if self.game.to_move(state) == "black" else "black"
        if outcome.winner is None:
            proof = Proven.DRAW
        else:
            proof = Proven.WIN if outcome.winner == mover else Proven.LOSS
        self.tree.proven[node] = proof
        return _PROVEN_REWARD[proof]

    def _back_up(self, path: list[int], reward: float) -> None:
        """Add ``reward`` (for the mover into the last node of ``path``) up the
        path, alternating views (the visits were counted on the way down),
        and carry proofs up (MCTS-Solver)."""
        tree = self.tree
        for node in reversed(path):
            tree.value_sum[node] += reward
            reward = 1.0 - reward
        for node in reversed(path[:-1]):
            proof = _proof_of(tree, node)
            if proof == Proven.UNKNOWN:
                break
            tree.proven[node] = proof


def _proof_of(tree: Tree, node: int) -> Proven:
    """Return what ``node``'s children prove for the player who moved into
    it: a loss if the player to move there has a won child; a win if every
    child is lost for them; a draw if all are proven and the best is a draw."""
    proven = tree.proven[tree.children(node)]
    if np.any(proven == Proven.WIN):
        return Proven.LOSS
    if np.any(proven == Proven.UNKNOWN) or len(proven) == 0:
        return Proven.UNKNOWN
    if np.all(proven == Proven.LOSS):
        return Proven.WIN
    return Proven.DRAW


def _masked_softmax(logits: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Return the softmax of ``logits`` over ``moves`` only (float32)."""
    chosen = logits[moves].astype(np.float64)
    weights = np.exp(chosen - chosen.max())
    return (weights / weights.sum()).astype(np.float32)


_LOSS, _WIN = int(Proven.LOSS), int(Proven.WIN)
_PROVEN_REWARD = {Proven.WIN: 1.0, Proven.LOSS: 0.0, Proven.DRAW: 0.5}

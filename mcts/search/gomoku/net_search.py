"""PUCT search guided by a policy-value network (the AlphaZero method), for Gomoku.

:class:`NetSearcher` is a :class:`~mcts.search.searcher.Searcher` whose
simulations are PUCT descents (AlphaZero's rule: the child's mean plus ``c``
times its prior times sqrt(parent visits) / (1 + child visits)) run in
batches by :mod:`mcts.search.gomoku.net_kernel`: the network evaluates a batch's new
leaves in one call, for their priors and values, and each is expanded with
every legal move and its value backed up. It keeps everything else of the
Searcher: the tree arrays (so results, principal variations, tree reuse and
the page's analysis read it as any other), the MCTS-Solver (a finished game
is proven at its first visit; proofs climb as the kernel climbs them) and,
for Gomoku, the threat search at the root (a VCF or VCT is played at once,
and against the opponent's only the moves that block are searched) and at
the leaves (a leaf whose player to move wins by a small VCF is proven lost
for the player who moved there, without asking the network).

The network sees the last move (:mod:`mcts.search.gomoku.network`); the root's is
:attr:`NetSearcher.last_move`, kept up to date by :meth:`advance` and set by
the player for a position it is given.

Self-play adds Dirichlet noise to the root's priors (``noise``), as AlphaZero
does, so that its games explore.
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np

from ...games import gomoku
from ...games.base import Game, State
from ..config import SearchConfig
from ..kernel import MAX_DEPTH
from ..searcher import DEFAULT_MAX_NODES, MIN_TIMED_SIMULATIONS, Searcher
from ..tree import NodeValues, Proven, Tree
from . import net_kernel
from .config import GomokuSearch
from .network import PLANES, NetworkWeights, encode
from .threats.vcf import LEAF_VCF_NODES

#: The exploration constant of PUCT on rewards in 0..1 (AlphaZero-style
#: Gomoku programs use 5 on values in -1..1, which is 2.5 here).
NET_C = 2.5
#: Leaves evaluated in one call of the network: numpy's overhead a call is
#: shared, and the virtual losses that spread a batch's descents cost little
#: strength at a few hundred simulations.
NET_BATCH = 8
#: VCF nodes a new leaf's VCT check (one three, then fours) may spend; 0
#: looks for VCFs alone. A leaf costs the network about 250 us, a VCT check
#: about 100 us; on 8x8 at 0.5 s a move against the heavy player it scored
#: 51.0% against 48.0% without (100 games each, docs/experiments).
NET_LEAF_VCT_NODES = 200


class NetSearch(NamedTuple):
    """The network search's settings."""

    #: The exploration constant of PUCT.
    c: float = NET_C
    #: Keep the Gomoku root's threat search and the leaves' VCF proofs.
    threats: bool = True
    #: The most new leaves the network evaluates at once (1: one at a time).
    batch: int = NET_BATCH
    #: VCF nodes of the VCT looked for at each new leaf (0: none).
    vct_nodes: int = NET_LEAF_VCT_NODES
    #: (alpha, fraction): Dirichlet(alpha) noise mixed into the root's
    #: priors at that fraction (self-play); None: none.
    noise: tuple[float, float] | None = None


#: The network search's settings unless told otherwise.
DEFAULT_NET_SEARCH = NetSearch()


class NetSearcher(Searcher):
    """A Searcher whose simulations are PUCT with ``network``'s priors and
    values, configured by ``settings`` (:class:`NetSearch`)."""

    def __init__(
        self,
        game: Game,
        state: State | None = None,
        *,
        network: NetworkWeights,
        settings: NetSearch = DEFAULT_NET_SEARCH,
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
        if settings.batch < 1:
            raise ValueError(f"batch must be at least 1, got {settings.batch}")
        gomoku_settings = GomokuSearch(
            focus_width=0,
            root_width=0,
            threats=settings.threats,
            vct_nodes=settings.vct_nodes,
            shapes=0,
            recheck=False,  # no focus: every reply is in the tree, so proofs hold
            alphabeta=0.0,
        )
        super().__init__(
            game,
            state,
            config=SearchConfig(
                evaluator="random", c=settings.c, rule="puct", game=gomoku_settings
            ),
            seed=seed,
            max_nodes=max_nodes,
        )
        self.network = network
        self.noise = settings.noise
        #: Leaves the network evaluates at once.
        self.batch = int(settings.batch)
        #: The move that led to the root (-1: none or unknown).
        self.last_move = -1
        # The prior of every node of the tree (NaN where the tree was
        # renumbered, by tree reuse or by the root's threat search).
        self._priors = NodeValues()
        self._batch_buffers: net_kernel.Batch | None = None
        self._compiled = False

    # ---- position and tree reuse --------------------------------------------------
    def set_state(self, state: State, last_move: int | None = None) -> None:
        """Make ``state`` the root (reached by ``last_move``, -1 if unknown;
        None: the one stone it has beyond the root's, if that is all that
        differs); keep the tree only if it is the same position."""
        if state != self._state:
            if last_move is None:
                last_move = last_stone(self._state, state)
            self.last_move = last_move
        super().set_state(state)

    def advance(self, move: int) -> None:
        """Play ``move`` at the root and keep the subtree below it."""
        super().advance(move)
        self.last_move = move

    # ---- searching --------------------------------------------------------------
    def _compile(self) -> None:
        """Compile the batch kernels (or load them from numba's cache) on a
        copy of the tree, so that the first search spends its clock searching."""
        if self._compiled:
            return
        tree, priors = self.tree, self._priors
        self.tree, self._priors = Tree(), NodeValues()
        try:
            self._simulate_batch(1)
        finally:
            self.tree, self._priors = tree, priors
        self._compiled = True

    def _run(self, start, seconds, simulations, on_progress, progress_every) -> int:
        """Run simulations until the budget ends; return how many ran."""
        deadline = math.inf if seconds is None else start + seconds
        remaining = math.inf if simulations is None else int(simulations)
        next_report = start + progress_every
        widest = self.game.options["size"] ** 2
        if self.noise is not None and self._expanded_root():
            self._add_noise()
        done = 0
        while remaining > 0 and self._stop[0] == 0:
            if self.tree.proven[0] != Proven.UNKNOWN:
                break
            if time.perf_counter() >= deadline and done >= MIN_TIMED_SIMULATIONS:
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
        """Expand the root if it is not, and give its children priors if
        they have none (so noise has priors to mix into); return whether it
        has children."""
        tree = self.tree
        if tree.first_child[0] < 0 or np.isnan(
            self._priors.of(tree)[tree.first_child[0]]
        ):
            logits, _ = self.network.evaluate(
                encode(self._state.array, self.last_move)[None]
            )
            if tree.first_child[0] < 0:
                tree.add_children(0, np.array(self.game.legal_moves(self._state)))
            net_kernel.set_priors(0, tree.arrays, self._priors.of(tree), logits[0])
        return tree.first_child[0] >= 0

    def _add_noise(self) -> None:
        assert self.noise is not None
        alpha, fraction = self.noise
        children = self.tree.children(0)
        root = slice(children.start, children.stop)
        priors = self._priors.of(self.tree)
        noise = self._rng.dirichlet([alpha] * len(children))
        priors[root] = (1 - fraction) * priors[root] + fraction * noise

    def _simulate_batch(self, count: int) -> int:
        """Run up to ``count`` simulations whose new leaves the network
        evaluates in one call (:mod:`mcts.search.gomoku.net_kernel`); return how
        many ran."""
        tree = self.tree
        tree.reserve(tree.size + count * self.game.options["size"] ** 2)
        priors = self._priors.of(tree)
        threat_nodes = LEAF_VCF_NODES if self.threats else 0
        vct_nodes = self.vct_nodes if self.threats else 0
        buffers = self._buffers(count)
        ran, waiting = net_kernel.descend(
            self._state.array,
            self.last_move,
            tree.arrays,
            priors,
            net_kernel.NetParams(float(self.c), threat_nodes, vct_nodes),
            count,
            buffers,
        )
        if waiting:
            logits, values = self.network.evaluate(buffers.planes[:waiting])
            tree.size = net_kernel.finish(
                tree.arrays,
                priors,
                tree.size,
                waiting,
                buffers,
                logits.astype(np.float32, copy=False),
                values.astype(np.float32, copy=False),
            )
        return ran

    def _buffers(self, count: int) -> net_kernel.Batch:
        """Return the batch's arrays for ``count`` leaves: paths, depths,
        leaf states and input planes (kept between batches)."""
        if self._batch_buffers is None or len(self._batch_buffers.depths) < count:
            size = self.game.options["size"]
            self._batch_buffers = net_kernel.Batch(
                np.empty((count, MAX_DEPTH), dtype=np.int64),
                np.empty(count, dtype=np.int64),
                np.empty(
                    (count, len(self._state.array)), dtype=self._state.array.dtype
                ),
                np.empty((count, PLANES, size, size), dtype=np.float32),
            )
        return self._batch_buffers


def last_stone(before: State, after: State) -> int:
    """Return the move code of the one stone ``after`` has beyond ``before``
    (the opponent's last move), or -1 if the positions differ otherwise."""
    old = before.array[gomoku.HEADER :]
    new = after.array[gomoku.HEADER :]
    if len(old) != len(new):
        return -1
    changed = np.flatnonzero(old != new)
    if len(changed) == 1 and old[changed[0]] == gomoku.EMPTY:
        return int(changed[0])
    return -1

"""The Python driver of the MCTS: :class:`Searcher` holds a tree between searches.

It runs the numba loop (:func:`mcts.search.kernel.run_simulations`) in chunks of
a few milliseconds and checks the clock and the stop flag between chunks; the
kernel also polls the stop flag every simulation and releases the GIL, so
:meth:`Searcher.stop` from another thread takes effect at once.

Besides the chunked run it holds what a search does around the loop: tree
reuse and the widening of a reused Gomoku root, the exact root solve of a
Reversi endgame, the Gomoku root's threat plan and the move the alpha-beta
plans (:mod:`.gomoku.planner`), and which proofs a result may call proven,
with the strict search on after a root proof that does not hold
(:mod:`.proof_check`). What a result shows of the tree is
:func:`~.result.read_result`'s.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from ..games import gomoku, kernels
from ..games.base import MAX_MOVES, ONGOING, Game, State
from ..games.reversi import BLACK_DISCS, WHITE_DISCS
from .config import SearchConfig, game_settings
from .gomoku.config import GomokuSearch
from .gomoku.focus import beginner_moves, focus_moves
from .gomoku.planner import AlphaBetaPlanner
from .gomoku.threats.root import plan_root
from .gomoku.threats.vcf import LEAF_VCF_NODES
from .gomoku.weights import HAND_WEIGHTS, ShapeWeights
from .kernel import (
    NEED_ROOM,
    ROOT_PROVEN,
    RULES,
    STOPPED,
    Chunk,
    Knowledge,
    SearchParams,
    run_simulations,
)
from .learned import Evaluation
from .loa.config import LoaSearch
from .proof_check import holding_proofs
from .result import SearchResult, best_child, read_result
from .reversi.config import PATTERN_C, ReversiSearch
from .reversi.endgame import (
    EndgameResult,
    perfect_line,
    root_solve_empties,
    solve_moves,
)
from .reversi.endgame import solve as solve_endgame
from .reversi.patterns import PatternWeights, no_patterns
from .rollouts import LEARNED_CUTOFF_PLIES, evaluator_id
from .tree import NodeValues, Proven, Tree

#: Exploration constant of UCT for rewards in [0, 1] when a game has no tuned
#: value (sqrt(2) is the textbook value; informative rollouts favour lower).
DEFAULT_C = 1.0
#: Tuned by 100-game matches at 0.1 s/move, heavy rollouts, against c = 1.0:
#: c = 0.6 scored 68% in Reversi and 63% in Gomoku but 42.5% in LOA.
#: Re-checked for Gomoku after the focus width, against c = 0.6 (100 games
#: from the start): c = 0.4 scored 50.5%, c = 0.9 37.5%.
GAME_C = {"reversi": 0.6, "gomoku": 0.6, "loa": 1.0}
#: The exploration constant while a learned evaluation scores the rollouts,
#: where it differs from GAME_C: Gomoku's evaluation scores a leaf at once
#: and without noise, and its values lie close together (docs/models.md,
#: "Tuning the search for the evaluation").
LEARNED_GAME_C = {"gomoku": 0.4}
#: Rollout plies before Reversi's pattern evaluation scores a leaf: none,
#: the evaluation judges the leaf itself.
PATTERN_CUTOFF_PLIES = 0
#: Simulations a solved root still runs, for the move list the page shows.
SOLVED_ROOT_SIMULATIONS = 256
#: A Reversi root with at most this many empty squares has each of its moves
#: solved exactly once searched: its result, its final margin and the line
#: that reaches it (a strong player's walk: in a solved endgame one or two
#: moves read "proven win", the others a few visits and no value). Each
#: solve has one empty fewer, at 11 a millisecond or two.
SOLVED_MOVES_EMPTIES = 12
#: Simulations a search for a time runs even when the root's threat search
#: used the time up: with none, the move would be the first legal one,
#: unsearched (a 1 s move whose deeper VCT overran it played b12, at the
#: board's edge, and lost a won game).
MIN_TIMED_SIMULATIONS = 64
#: Hard cap on tree nodes: about 23 bytes each, so 8M nodes is about 190 MB.
DEFAULT_MAX_NODES = 8_000_000

#: The minimax values of a search without minimax backups (never written:
#: the kernel reads it only when the weight is above 0).
_NO_MINIMAX = np.empty(0, dtype=np.float32)

# Chunk sizing: each kernel call should take a few milliseconds so the clock
# and the stop flag are checked often but the call overhead stays negligible.
_CHUNK_MIN_SECONDS = 0.002
_CHUNK_MAX_SECONDS = 0.008


class Searcher:
    """An MCTS searcher for one game, holding its tree between searches.

    ``config`` (:class:`~mcts.search.config.SearchConfig`) says how it
    searches: the evaluator, the exploration constant, the selection rule
    and the game's knowledge settings; ``max_nodes`` caps the tree's memory
    (past it the tree stops growing and leaves are just evaluated); ``seed``
    fixes every random choice (a search budgeted by simulations is then
    deterministic). A tree model's knowledge is given after construction:
    :attr:`evaluation` (its learned evaluation, which cuts the heavy
    rollouts short), :attr:`patterns` (Reversi's pattern evaluation, which
    scores the leaves) and :attr:`shape_weights` (the Gomoku alpha-beta's).
    """

    def __init__(
        self,
        game: Game,
        state: State | None = None,
        *,
        config: SearchConfig | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
        seed: int | None = None,
    ) -> None:
        config = SearchConfig() if config is None else config
        config.check()
        default = game_settings(game, config.evaluator)
        if config.game is None:
            config = replace(config, game=default)
        elif type(config.game) is not type(default):
            raise ValueError(
                f"{type(config.game).__name__} configures another game's search, "
                f"not {game.name}'s ({type(default).__name__})"
            )
        if max_nodes < MAX_MOVES + 1:
            raise ValueError(
                f"max_nodes must be at least {MAX_MOVES + 1}, got {max_nodes}"
            )
        self.game = game
        #: The configuration, the game's record filled in.
        self.config = config
        self.evaluator = config.evaluator
        self._evaluator_id = evaluator_id(config.evaluator)
        self._c = None if config.c is None else float(config.c)
        self.rule = config.rule
        self.max_nodes = int(max_nodes)
        self._expand_visits = config.expand_visits
        settings = config.game
        #: New leaves with at most this many empties are solved exactly (0: never).
        self.endgame_empties = 0
        #: The weight of the minimax values in selection while Reversi's
        #: pattern evaluation scores the leaves.
        self._pattern_minimax = 0.0
        #: Gomoku: the most moves focus keeps at a node and at the root
        #: (0: focus off), threat search, the leaves' VCT, the deeper
        #: root VCTs, line shapes, re-checked root proofs, the alpha-beta.
        self.focus_width = self.root_width = 0
        self.threats, self.vct_nodes, self.deep_vct = False, 0, 0
        self.shapes, self.recheck, self.alphabeta = 0, False, 0.0
        # Lines of Action's heavy search takes its parameters where the other
        # games take a learned evaluation.
        self._loa_params = np.empty(0, dtype=np.float64)
        if isinstance(settings, ReversiSearch):
            settings.check()
            self.endgame_empties = int(settings.endgame_empties)
            self._pattern_minimax = float(settings.minimax)
        elif isinstance(settings, GomokuSearch):
            settings.check(int(game.options.get("row", 5)))
            self.focus_width = int(settings.focus_width)
            self.root_width = int(settings.root_width)
            self.threats = bool(settings.threats)
            self.vct_nodes = int(settings.vct_nodes)
            self.deep_vct = int(settings.deep_vct)
            self.shapes = int(settings.shapes)
            self.recheck = bool(settings.recheck)
            self.alphabeta = float(settings.alphabeta)
        elif isinstance(settings, LoaSearch) and config.evaluator == "heavy":
            self._loa_params = settings.array()
        #: Whether a node is proven lost for its player to move only when
        #: focus kept every reply that might save him: on only while a
        #: false root proof is searched on (:meth:`_search_on_strictly`).
        self.strict = False
        self._planner = (
            AlphaBetaPlanner(
                game.options["size"],
                game.options["row"],
                gomoku.RULES[game.options["rule"]],
            )
            if self.alphabeta
            else None
        )
        self._rng = np.random.default_rng(seed)
        self._stop = np.zeros(1, dtype=np.int8)
        self._lock = threading.Lock()
        #: The move this search plays whatever the tree says, for _choose: an
        #: exact root solve's (_solve_root) or the alpha-beta's (_plan_move).
        self._solved_move: int | None = None
        #: Each root move's exact final margin for its mover (a Reversi root
        #: near the end, _solve_root_moves), or None.
        self._margins: dict[int, int] | None = None
        #: The tree of the last search and those of its root children that
        #: the root's threat search proved (exact proofs, see _holding_proofs).
        self._threat_proofs: tuple[Tree | None, list[int]] = (None, [])
        self._prior = np.empty(0, dtype=np.float32)
        self._state = game.initial_state() if state is None else state
        self.tree = Tree()
        # The minimax values of self.tree's nodes (NaN: unknown).
        self._minimax_values = NodeValues()
        self.evaluation = None
        self.patterns = None
        #: The shape weights the Gomoku alpha-beta evaluates by (a tree
        #: model's fitted ones; None: the hand-set ones).
        self.shape_weights: ShapeWeights | None = None

    @property
    def cutoff_plies(self) -> int:
        """Return the plies a heavy rollout plays before the evaluation
        scores it: :data:`PATTERN_CUTOFF_PLIES` with patterns, else the
        game's LEARNED_CUTOFF_PLIES."""
        if self._patterns is not None:
            return PATTERN_CUTOFF_PLIES
        return LEARNED_CUTOFF_PLIES.get(self.game.name, 0)

    @property
    def patterns(self) -> PatternWeights | None:
        """Return the pattern evaluation that scores the leaves, or None."""
        return self._patterns

    @patterns.setter
    def patterns(self, patterns: PatternWeights | None) -> None:
        """Score Reversi leaves by ``patterns`` from the next search on (None:
        the learned evaluation or rollouts, as before)."""
        if patterns is not None and self.game.name != "reversi":
            raise ValueError(f"pattern weights cannot serve {self.game.name}")
        self._patterns = patterns
        self._pattern_array = (
            no_patterns()
            if patterns is None
            else (patterns.weights / np.float32(patterns.scale)).astype(np.float32)
        )

    @property
    def evaluation(self) -> Evaluation | None:
        """Return the learned evaluation the heavy rollouts use, or None."""
        return self._evaluation

    @evaluation.setter
    def evaluation(self, evaluation: Evaluation | None) -> None:
        """Use ``evaluation`` (of this searcher's game) from the next search
        on; None plays rollouts to the end."""
        if evaluation is not None and evaluation.game != self.game.name:
            raise ValueError(
                f"an evaluation for {evaluation.game} cannot serve {self.game.name}"
            )
        self._evaluation = evaluation
        self._learned = (
            np.empty(0, dtype=np.float64) if evaluation is None else evaluation.array()
        )
        if self.game.name == "loa":  # LOA's kernels read its parameters there
            self._learned = self._loa_params

    @property
    def c(self) -> float:
        """Return the exploration constant: the one given, else the game's
        (:data:`~mcts.search.reversi.config.PATTERN_C` while a pattern
        evaluation scores the leaves,
        :data:`LEARNED_GAME_C` while an evaluation is used, where the game
        has one there, else :data:`GAME_C`)."""
        if self._c is not None:
            return self._c
        if self._patterns is not None:
            return PATTERN_C
        if self._evaluation is not None and self.game.name in LEARNED_GAME_C:
            return LEARNED_GAME_C[self.game.name]
        return GAME_C.get(self.game.name, DEFAULT_C)

    # ---- position and tree reuse --------------------------------------------------
    @property
    def state(self) -> State:
        """Return the root position."""
        return self._state

    @property
    def expand_visits(self) -> int:
        """Return the visits a leaf needs before it is expanded."""
        if self._expand_visits is not None:
            return max(1, int(self._expand_visits))
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        root = np.array(self._state.array)  # writable: the search's signature
        count = kernels.legal_moves(self.game.game_id, root, moves)
        if self.focus_width > 0:
            count = focus_moves(
                self.game.game_id, root, moves, count, self.focus_width, 0
            )
        return 1 + count // 32

    def set_state(self, state: State) -> None:
        """Make ``state`` the root; keep the tree only if it is the same position."""
        if state == self._state:
            return
        self._state = state
        self.tree = Tree()

    def advance(self, move: int) -> None:
        """Play the legal ``move`` at the root and keep the subtree below it.

        The subtree is copied into fresh, compact arrays (breadth-first ids),
        so memory held by the discarded siblings is freed and the tree stays
        dense for saving. Raises IllegalMoveError if ``move`` is not legal.
        """
        state = self.game.apply(self._state, move)
        child = self.tree.child_with_move(0, move)
        self.tree = self.tree.subtree(child) if child >= 0 else Tree()
        self._state = state

    # ---- searching --------------------------------------------------------------
    def stop(self) -> None:
        """Ask a running :meth:`search` (in another thread) to return at once."""
        self._stop[0] = 1
        if self._planner is not None:
            self._planner.stop()

    def search(
        self,
        *,
        seconds: float | None = None,
        simulations: int | None = None,
        temperature: float = 0.0,
        random_moves: float = 0.0,
        on_progress: Callable[[SearchResult], None] | None = None,
        progress_every: float = 0.25,
    ) -> SearchResult:
        """Search from the root and return the result.

        The budget is ``seconds`` of wall clock and/or ``simulations``
        (whichever ends first); at least one is required. The search also ends
        when the root is proven or :meth:`stop` is called (a stop asked before
        the search starts is cleared by it). ``temperature`` 0 picks the best
        move; above 0 the move is sampled by visits ** (1/T) among the moves
        not proven lost. ``random_moves`` is the chance that the move is a
        random legal one instead (the weak levels' blunders; the statistics
        still show the search). ``on_progress``, if given, receives a SearchResult of
        the tree so far about every ``progress_every`` seconds (for a live view).
        """
        if seconds is None and simulations is None:
            raise ValueError("give a budget: seconds and/or simulations")
        if seconds is not None and not seconds >= 0:
            raise ValueError(f"seconds must be >= 0, got {seconds!r}")
        if simulations is not None and simulations < 0:
            raise ValueError(f"simulations must be >= 0, got {simulations!r}")
        if not 0 <= random_moves <= 1:
            raise ValueError(f"random_moves must be 0..1, got {random_moves!r}")
        if self.game.status(self._state) != ONGOING:
            raise ValueError("the game is over: there is nothing to search")
        with self._lock:
            self._compile()
            self._stop[0] = 0
            self._solved_move = None
            self._margins = None
            start = time.perf_counter()
            self._widen_root()
            # The alpha-beta chooses the move of a search for a time.
            plan_seconds = seconds if self.alphabeta and seconds else None
            allowed = None  # the moves the alpha-beta may choose: all
            if self.threats:
                # The alpha-beta's own search looks for the deeper threats.
                deep_budget = (
                    0 if plan_seconds else int((seconds or 0.0) * self.deep_vct)
                )
                before = self._root_proofs()
                searched = self.tree
                self.tree = plan_root(
                    self.tree,
                    self._state.array,
                    self.focus_width,
                    deep_budget=deep_budget,
                )
                proven = [c for m, c in self._root_proofs().items() if m not in before]
                self._threat_proofs = (self.tree, proven)
                if self.tree is not searched or proven:
                    allowed = self._unlost_root_moves()
            solved = self._solve_root(seconds)
            # A move that wins at once is played at every level, over a weak
            # level's random move too: a player expects the computer to
            # finish a won game, and the search may not visit the move in
            # time (Lines of Action's progressive bias left a connecting move
            # unvisited by 17,000 simulations, which then played a win in
            # three). Reversi's root solve, when it runs, finds it too.
            won = None if solved is not None else self.game.winning_move(self._state)
            if solved is None and won is None:
                if plan_seconds and allowed != set():
                    self._plan_move(
                        start, plan_seconds, allowed, on_progress, progress_every
                    )
                done = self._run(
                    start, seconds, simulations, on_progress, progress_every
                )
                done += self._search_on_strictly(
                    start, seconds, simulations, done, on_progress, progress_every
                )
                self._overrule_plan_by_proofs()
            else:
                # The exact answer is known: a short search for the move list.
                count = min(
                    simulations or SOLVED_ROOT_SIMULATIONS, SOLVED_ROOT_SIMULATIONS
                )
                done = self._run(start, None, count, on_progress, progress_every)
                if solved is not None:
                    self._prove_root(solved.move, _margin_proof(solved.margin))
                elif won is not None:
                    self._prove_root(won, Proven.WIN)
            self._margins = self._solve_root_moves()
            elapsed = time.perf_counter() - start
            return self.result(
                simulations=done,
                elapsed=elapsed,
                temperature=temperature,
                random_moves=random_moves,
            )

    def _widen_root(self) -> None:
        """Give a root expanded by an earlier search or a tree model (whose
        nodes keep ``focus_width`` moves) the ``root_width`` moves focus
        keeps at a root; the kernel expands a new root that wide itself.
        Only Gomoku's focus prunes. The moves are listed even for a new root,
        so that the first search compiles what later ones call."""
        if self.game.name != "gomoku" or self.root_width <= self.focus_width:
            return
        moves = np.empty(MAX_MOVES, dtype=np.int64)
        root = np.array(self._state.array)  # writable: the search's signature
        count = kernels.legal_moves(self.game.game_id, root, moves)
        count = focus_moves(
            self.game.game_id, root, moves, count, self.root_width, self.shapes
        )
        if self.tree.first_child[0] >= 0 and self.tree.n_children[0] < count:
            self.tree = self.tree.widened_root(moves[:count])

    def _unlost_root_moves(self) -> set[int]:
        """Return the moves of the root's children not proven lost: after
        the root's threat search restricted the root, the only moves that
        it did not prove lost (a move it left out loses to a VCF or was not
        checked; a proven win leaves none)."""
        tree = self.tree
        if tree.proven[0] == Proven.LOSS:  # the mover has a proven win
            return set()
        return {
            int(tree.move[child])
            for child in tree.children(0)
            if tree.proven[child] != Proven.LOSS
        }

    def _plan_move(
        self,
        start: float,
        seconds: float,
        allowed: set[int] | None,
        on_progress: Callable[[SearchResult], None] | None,
        progress_every: float,
    ) -> None:
        """Make the alpha-beta's choice the move this search plays, found
        in its share of ``seconds`` (from ``start``), unless ``allowed``
        (None: any move) leaves it out; the tree search grows the tree in
        the rest of the time. ``on_progress`` hears from the search
        meanwhile, as it does from the tree search."""
        left = seconds - (time.perf_counter() - start)
        think_for = min(self.alphabeta * seconds, left)
        if self._planner is None or think_for <= 0 or self._stop[0]:
            return

        def tick() -> None:
            if on_progress is not None:
                on_progress(self.result(elapsed=time.perf_counter() - start))

        move = self._planner.plan(
            self._state.array,
            think_for,
            tick,
            progress_every,
            stopped=lambda: bool(self._stop[0]),
            weights=self.shape_weights or HAND_WEIGHTS,
        )
        if move >= 0 and (allowed is None or move in allowed):
            self._solved_move = move

    def _overrule_plan_by_proofs(self) -> None:
        """Play the tree's choice instead of the alpha-beta's move when the
        tree search proved what the alpha-beta missed: a move that wins
        (the alpha-beta's does not), or that the alpha-beta's move loses
        while another does not; or when every move loses and the alpha-beta's
        is none the tree weighed: it had nothing to choose from either and
        answered its first move (a1, where renju forbade black's one block)."""
        planned = self._solved_move
        tree = self.tree
        children = list(tree.children(0))
        if planned is None or not children:
            return
        proven = {int(tree.move[child]): tree.proven[child] for child in children}
        best = tree.proven[best_child(tree, 0)]
        lost = tree.proven[0] == Proven.WIN  # the opponent's proven win
        if (
            (best == Proven.WIN and proven.get(planned) != Proven.WIN)
            or (proven.get(planned) == Proven.LOSS and best != Proven.LOSS)
            or (lost and planned not in proven)
        ):
            self._solved_move = None

    def _solve_root(self, seconds: float | None) -> EndgameResult | None:
        """Return the exact result of a Reversi root that a move of ``seconds``
        can afford to solve (:func:`root_solve_empties`), else None (other
        games, simulation budgets, leaf solving turned off, one legal move)."""
        if self.game.name != "reversi" or seconds is None or not self.endgame_empties:
            return None
        if _empties(self._state) > root_solve_empties(seconds):
            return None
        if len(self.game.legal_moves(self._state)) < 2:
            return None
        return solve_endgame(self._state)

    def _solve_root_moves(self) -> dict[int, int] | None:
        """Return each legal move of a Reversi root of at most
        :data:`SOLVED_MOVES_EMPTIES` empty squares with its exact final
        margin for the mover, its node (and the root) marked proven so;
        else None (other games, leaf solving turned off)."""
        if self.game.name != "reversi" or not self.endgame_empties:
            return None
        if _empties(self._state) > SOLVED_MOVES_EMPTIES:
            return None
        margins = solve_moves(self.game, self._state)
        tree = self.tree
        for child in tree.children(0):
            tree.proven[child] = _margin_proof(margins[int(tree.move[child])])
        if tree.first_child[0] >= 0:
            tree.proven[0] = _margin_proof(max(margins.values())).flipped
        return margins

    def _prove_root(self, move: int, side: Proven) -> None:
        """Mark ``move``'s child ``side`` (the mover's result) and the root
        its opposite, and make ``move`` the move this search plays."""
        child = self.tree.child_with_move(0, move)
        if child >= 0:
            self.tree.proven[child] = side
            self.tree.proven[0] = side.flipped
        self._solved_move = move

    def _simulate(self, root, meta, count, expand_visits, limit) -> tuple[int, int]:
        """Run up to ``count`` simulations in the kernel; return (run, reason)."""
        return run_simulations(
            self.game.game_id,
            root,
            self.tree.arrays,
            meta,
            self._stop,
            Chunk(int(count), int(limit), bool(limit < self.max_nodes)),
            SearchParams(
                float(self.c),
                RULES[self.rule],
                self._evaluator_id,
                int(self.cutoff_plies),
                int(expand_visits),
                int(self.endgame_empties),
                self.focus_width,
                self.root_width,
                LEAF_VCF_NODES if self.threats else 0,
                self.vct_nodes if self.threats else 0,
                self.shapes,
                bool(self.strict),
                float(self.minimax),
            ),
            Knowledge(
                self._learned, self._pattern_array, self._prior, self._minimax_array()
            ),
        )

    @property
    def minimax(self) -> float:
        """Return the weight of the implicit minimax values in selection:
        Reversi's (:class:`~mcts.search.reversi.config.ReversiSearch`) while
        a pattern evaluation scores the leaves, else 0 (off)."""
        return self._pattern_minimax if self._patterns is not None else 0.0

    def _minimax_array(self) -> np.ndarray:
        """Return the minimax values of the current tree, one per node of
        its capacity (see :class:`~mcts.search.tree.NodeValues`); empty while
        minimax backups are off."""
        if not self.minimax:
            return _NO_MINIMAX
        return self._minimax_values.of(self.tree)

    def _compile(self) -> None:
        """Compile the kernel (or load it from numba's cache) with a zero budget,
        so that the first search of a process spends its clock searching."""
        meta = np.array([self.tree.size], dtype=np.int64)
        limit = min(self.tree.capacity, self.max_nodes)
        self._simulate(self._state.array.copy(), meta, 0, self.expand_visits, limit)
        kernels.seed(0)

    def _run(self, start, seconds, simulations, on_progress, progress_every) -> int:
        """Run kernel chunks until the budget ends; return the simulations run."""
        next_report = start + progress_every
        kernels.seed(int(self._rng.integers(2**31 - 1)))
        deadline = math.inf if seconds is None else start + seconds
        remaining = math.inf if simulations is None else int(simulations)
        root = self._state.array.copy()
        meta = np.zeros(1, dtype=np.int64)
        expand_visits = self.expand_visits
        chunk = 16
        done = 0
        while remaining > 0 and self._stop[0] == 0:
            now = time.perf_counter()
            if now >= deadline:
                if done >= MIN_TIMED_SIMULATIONS:
                    break
                chunk = MIN_TIMED_SIMULATIONS - done
            tree = self.tree
            if tree.capacity < MAX_MOVES + tree.size and tree.capacity < self.max_nodes:
                tree.reserve(min(self.max_nodes, 2 * tree.capacity))
            limit = min(tree.capacity, self.max_nodes)
            meta[0] = tree.size
            n = int(min(chunk, remaining))
            ran, reason = self._simulate(root, meta, n, expand_visits, limit)
            tree.size = int(meta[0])
            done += ran
            remaining -= ran
            if reason == NEED_ROOM:
                tree.reserve(min(self.max_nodes, 2 * tree.capacity))
            elif reason in (STOPPED, ROOT_PROVEN):
                break
            chunk = _next_chunk(chunk, ran, time.perf_counter() - now, deadline)
            if on_progress is not None and time.perf_counter() >= next_report:
                elapsed = time.perf_counter() - start
                on_progress(self.result(simulations=done, elapsed=elapsed))
                next_report = time.perf_counter() + progress_every
        return done

    def _search_on_strictly(
        self, start, seconds, simulations, done, on_progress, progress_every
    ) -> int:
        """When the search stopped on a root proof that does not hold for
        every reply (Gomoku: focus dropped a reply that may refute it; see
        :mod:`~mcts.search.proof_check`), clear the proofs that do not hold
        and search on with strict proofs for the rest of the budget; return
        the simulations run (0 when there was nothing to repair).

        The practical proofs steer the search well, but a false one at the
        root ends it on a move that may lose: in the four positions of
        ``python -m mcts.lab conversion`` where the default played such a move,
        strict proofs played one that won.
        """
        if not self.recheck or self.strict or self.tree.proven[0] == Proven.UNKNOWN:
            return 0
        holds = self._holding_proofs()
        if holds is None or holds[0]:
            return 0
        if simulations is not None and simulations <= done:
            return 0
        size = len(holds)
        proven = self.tree.proven[:size]
        proven[holds == 0] = Proven.UNKNOWN
        self.strict = True
        try:
            return self._run(
                start,
                seconds,
                None if simulations is None else simulations - done,
                on_progress,
                progress_every,
            )
        finally:
            self.strict = False

    # ---- reading the tree ---------------------------------------------------------
    def _root_proofs(self) -> dict[int, int]:
        """Return {move code: child id} of the root's proven children."""
        tree = self.tree
        return {
            int(tree.move[child]): child
            for child in tree.children(0)
            if tree.proven[child] != Proven.UNKNOWN
        }

    def _holding_proofs(self) -> np.ndarray | None:
        """Return the mask of the proofs a result may call proven
        (:func:`~mcts.search.proof_check.holding_proofs`), or None for all."""
        searched, given = self._threat_proofs
        return holding_proofs(
            self.game.game_id,
            self._state.array,
            self.tree,
            given=given if searched is self.tree else None,
            vct_nodes=self.vct_nodes if self.threats else 0,
        )

    def result(
        self,
        *,
        simulations: int = 0,
        elapsed: float = 0.0,
        temperature: float = 0.0,
        random_moves: float = 0.0,
    ) -> SearchResult:
        """Return the SearchResult of the tree as it stands (no new search)."""
        legal = self.game.legal_moves(self._state)
        # A move the search is sure of (a win in one, a solved endgame, the
        # alpha-beta's plan) is not traded for a random or sampled one.
        sure = self._solved_move is not None
        if random_moves and not sure and self._rng.random() < random_moves:
            pool = legal
            if self.game.name == "gomoku":
                pool = beginner_moves(self._state.array, legal)
            code = pool[int(self._rng.integers(len(pool)))]
            by_chance = True
        else:
            code = self._choose(temperature, legal)
            by_chance = not sure and temperature > 0
        margins = self._margins
        if margins is not None and not by_chance:
            # The best margin, as the move list shows it (the tree's most
            # visited win was one by 6 where h1 won by 14); of equals, the
            # tree's choice.
            code = max(legal, key=lambda move: (margins[move], move == code))
        result = read_result(
            self.tree,
            self.game,
            self._state,
            code,
            legal,
            self._holding_proofs(),
            simulations=simulations,
            elapsed=elapsed,
            by_chance=by_chance,
        )
        if margins is None:
            return result
        return replace(
            result,
            moves=tuple(replace(m, margin=margins[m.code]) for m in result.moves),
            # Perfect play: the tree's line stops where its visits do.
            pv=tuple(perfect_line(self.game, self._state, code)),
        )

    def _choose(self, temperature: float, legal: list[int]) -> int:
        """Return the move code to play: best child, or sampled when temperature > 0."""
        if self._solved_move is not None:
            return self._solved_move
        tree = self.tree
        children = list(tree.children(0))
        if not children:
            return legal[int(self._rng.integers(len(legal)))]
        if temperature <= 0:
            repeats = self.game.repetition_draws(self._state)
            return int(tree.move[best_child(tree, 0, *repeats)])
        candidates = [
            ch for ch in children if tree.proven[ch] != Proven.LOSS
        ] or children
        weights = np.array([float(tree.visits[ch]) for ch in candidates])
        if weights.sum() == 0:
            weights[:] = 1.0
        weights = weights ** (1.0 / temperature)
        weights /= weights.sum()
        pick = int(self._rng.choice(len(candidates), p=weights))
        return int(tree.move[candidates[pick]])


def _empties(state: State) -> int:
    """Return the empty squares of the Reversi ``state``."""
    array = state.array
    return 64 - bin(int(array[BLACK_DISCS]) | int(array[WHITE_DISCS])).count("1")


def _margin_proof(margin: int) -> Proven:
    """Return the mover's result of an exact final margin."""
    return Proven.WIN if margin > 0 else Proven.LOSS if margin < 0 else Proven.DRAW


def _next_chunk(chunk: int, ran: int, seconds: float, deadline: float) -> int:
    """Return the next chunk size so that a kernel call takes a few milliseconds
    and does not run far past the deadline."""
    if ran > 0 and seconds > 0:
        per_sim = seconds / ran
        chunk = int(min(max(chunk, 1) * 2, _CHUNK_MAX_SECONDS / per_sim + 1))
        if seconds < _CHUNK_MIN_SECONDS:
            chunk = max(chunk, int(_CHUNK_MIN_SECONDS / per_sim))
        left = deadline - time.perf_counter()
        if left < math.inf:
            chunk = min(chunk, int(left / per_sim) + 1)
    return max(1, chunk)

"""The Python driver of the MCTS: :class:`Searcher` holds a tree between searches.

It runs the numba loop (:func:`mcts.search.kernel.run_simulations`) in chunks of
a few milliseconds and checks the clock and the stop flag between chunks; the
kernel also polls the stop flag every simulation and releases the GIL, so
:meth:`Searcher.stop` from another thread takes effect at once.

The module is over 400 lines: :class:`Searcher` is one class (its tuning
knobs, tree reuse and the widening of a reused Gomoku root, the chunked
run, the exact root solve of a Reversi endgame, the Gomoku move the
alpha-beta plans (:mod:`.gomoku_planner`) and the reading of its result,
with which proofs it may call proven, and the strict search on after a
root proof that does not hold: :mod:`.proof_check`). What a result
shows of the tree is :func:`~.result.read_result`'s.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

import numpy as np

from ..games import kernels
from ..games.base import MAX_MOVES, ONGOING, Game, State
from ..games.reversi import BLACK_DISCS, WHITE_DISCS
from .gomoku.alphabeta import MAX_ROW as ALPHABETA_MAX_ROW
from .gomoku.focus import GOMOKU_FOCUS_WIDTH, GOMOKU_ROOT_WIDTH, focus_moves
from .gomoku.planner import AlphaBetaPlanner
from .gomoku.threats.root import DEEP_DEFENCE, DEEP_VCT_NODES_PER_SECOND, plan_root
from .gomoku.threats.vcf import LEAF_VCF_NODES
from .gomoku.threats.vct import LEAF_VCT_NODES
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
from .loa.search import DEFAULT_LOA_EVAL
from .loa.search import params as loa_params
from .proof_check import holding_proofs
from .result import SearchResult, best_child, read_result
from .reversi.endgame import EndgameResult, root_solve_empties
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
#: The exploration constant while Reversi's pattern evaluation scores the
#: leaves: against 0.6 (GAME_C), 200 games at 0.1 s a move with the light
#: model, c = 0.35 scored 57.0% +- 6.6 and c = 0.2 54.0% +- 6.7 (README,
#: Performance).
PATTERN_C = 0.35
#: The weight of the implicit minimax values (the best evaluation backed up
#: the tree, see :func:`mcts.search.kernel._back_up_minimax`) in selection
#: while Reversi's pattern evaluation scores the leaves. With the light
#: model at 1 s a move, 0.3 scored 62.5% +- 14.4 against 0 (40 games) and
#: 50.6% against NTest depth 8 where 0 scored 36.2% (80 games each); at 0.1 s
#: it is even (51.0% +- 6.7, 200 games) and 0.6 lost (36%; README,
#: Performance). It costs about a fifth of the simulations.
PATTERN_MINIMAX = 0.3
#: Rollout plies before the pattern evaluation scores a leaf (Reversi), by
#: default: the evaluation judges the leaf itself.
PATTERN_CUTOFF_PLIES = 0
#: Empty squares at which a new leaf is solved exactly (see ``endgame_empties``):
#: a 10-empty solve takes about 0.4 ms (at most about 1 ms) on one core, the
#: price of some 40 heavy rollouts, for an exact result that is never
#: recomputed; at 12 empties it is 2 ms, at 14 14 ms (random positions,
#: measured with ``mcts.search.reversi.endgame.solve_bitboards``).
ENDGAME_EMPTIES = {"reversi": 10}
#: The most empties a leaf solve may take on: beyond it one solve could hold a
#: chunk of the search (and the stop flag) for a long time.
MAX_LEAF_EMPTIES = 14
#: Simulations a solved root still runs, for the move list the page shows.
SOLVED_ROOT_SIMULATIONS = 256
#: Simulations a search for a time runs even when the root's threat search
#: used the time up: with none, the move would be the first legal one,
#: unsearched (a 1 s move whose deeper VCT overran it played b12, at the
#: board's edge, and lost a won game).
MIN_TIMED_SIMULATIONS = 64


#: Gomoku line shapes used by default with heavy rollouts (``shapes``): 2
#: (focus and leaves) scored 70.0% +- 10.4 against none, 1 (focus only)
#: 43.8% +- 12.2 (40 games each at 0.1 s a move from the start, with the
#: light model and threat search; docs/experiments).
GOMOKU_SHAPES = 2
#: With ``shapes`` 2 and a tree model's learned evaluation, Gomoku's quiet
#: leaves can be scored by that evaluation with its log-odds times this
#: (:func:`mcts.search.gomoku.shapes.quiet_leaf`); 0, the default, scores
#: them by the shapes. 3 scored 57.5% +- 9.3 against the shapes in 100
#: games at 0.5 s a move, but won fewer games against Rapfi, so it is off
#: (docs/experiments).
GOMOKU_SHARPNESS = 0.0
#: Whether the MCTS-Solver proves a Gomoku node lost for its player to move
#: only when focus kept every reply that might save him (``strict``); off,
#: the proof covers the kept moves only (:func:`mcts.search.gomoku.focus.focus_moves`).
STRICT_PROOFS = False
#: Whether a Gomoku search that stopped on a root proof that does not hold
#: for every reply clears the proofs that do not and searches on with
#: strict ones for the rest of its budget (``recheck``; see
#: :meth:`Searcher._search_on_strictly`).
RECHECK_PROOFS = True
#: The share of a Gomoku move's think time that the alpha-beta search
#: (:mod:`mcts.search.gomoku.alphabeta`) spends choosing the move before the
#: tree search grows the tree in the rest (``alphabeta``), by default with
#: heavy rollouts. The alpha-beta alone scored 73.8% +- 13.6 against the
#: tree search alone at 1 s a move (docs/experiments).
GOMOKU_ALPHABETA_SHARE = 0.8
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

    Tuning knobs are keyword-only: ``evaluator`` (``"heavy"`` or ``"random"``),
    ``c`` (exploration constant; by default the game's tuned value in
    :data:`GAME_C`, :data:`PATTERN_C` with a pattern evaluation, or
    :data:`LEARNED_GAME_C` while an evaluation is used), ``rule`` (``"uct"``
    or ``"puct"``), ``expand_visits`` (visits a leaf needs before it is
    expanded; by default 1 plus the root's tree-move count over 32, which
    keeps wide trees small),
    ``focus`` (prune moves the game's knowledge rules out of the tree, see
    :func:`mcts.search.gomoku.focus.focus_moves`; on by default with heavy rollouts),
    ``focus_width`` (the most moves focus keeps at a node, where the game
    ranks them: Gomoku), ``root_width`` (the same at the root, by default
    :data:`~mcts.search.gomoku.focus.GOMOKU_ROOT_WIDTH`; a root that an earlier
    search or a tree model expanded narrower is widened),
    ``max_nodes`` (memory cap: past it the tree stops growing and leaves are
    just evaluated), ``evaluation`` (a tree model's learned evaluation,
    which cuts the heavy rollouts short; see :attr:`evaluation`),
    ``cutoff_plies`` (how short: plies a rollout plays before the
    evaluation scores it; by default the game's
    :data:`~mcts.search.rollouts.LEARNED_CUTOFF_PLIES`),
    ``patterns`` (Reversi: the pattern evaluation of a tree model, which
    scores leaves after ``cutoff_plies`` rollout plies, by default
    :data:`PATTERN_CUTOFF_PLIES`, in place of the learned evaluation; see
    :attr:`patterns`),
    ``endgame_empties`` (Reversi: a new leaf with at most this many empty
    squares is solved exactly and proven instead of played out; 0 turns it
    off; by default :data:`ENDGAME_EMPTIES`),
    ``threats`` (Gomoku threat search, :mod:`mcts.search.gomoku.threats`: a
    VCF at the root is played at once, a VCF of the opponent's restricts
    the root to the moves that must block, and new leaves are proven by a
    small VCF search; on by default with heavy rollouts), ``vct_nodes``
    (Gomoku with ``threats``: the VCF nodes of a VCT of one three that also
    proves new leaves; 0, :data:`LEAF_VCT_NODES`, looks for none), ``shapes``
    (Gomoku, :mod:`mcts.search.gomoku.shapes`: 1 ranks the moves focus
    keeps by the line shapes they make and block instead of by window
    counts; 2, the default with heavy rollouts (:data:`GOMOKU_SHAPES`), also
    scores quiet leaves: by the model's learned evaluation with its log-odds
    times ``sharpness`` when there is one and ``sharpness`` is above 0
    (:data:`GOMOKU_SHARPNESS`, 0 by default), else by those shapes; 0
    neither), ``strict`` (Gomoku: the MCTS-Solver proves a node lost for
    its player to move only when focus kept every reply that might save
    him; :data:`STRICT_PROOFS`, off by default), ``recheck`` (Gomoku: a
    search that stopped on a root proof that does not hold for every reply
    searches on with strict proofs; :data:`RECHECK_PROOFS`, on by default),
    ``alphabeta`` (Gomoku with rows of at most six, a search for a time:
    the share of the time an alpha-beta search spends choosing the move,
    before the tree search grows the tree in the rest; the move is the
    alpha-beta's unless the root's threat search proved it lost;
    :data:`GOMOKU_ALPHABETA_SHARE` by default with heavy rollouts, 0 off),
    ``loa_eval`` (Lines of Action
    with heavy rollouts: the named evaluation and search settings of
    :data:`mcts.search.loa.search.LOA_EVALS`; ``"2026-11"`` is the earlier
    search, kept as the benchmark baseline) and
    ``seed`` (fixes every random choice: a search budgeted by simulations is
    then deterministic).
    """

    def __init__(
        self,
        game: Game,
        state: State | None = None,
        *,
        evaluator: str = "heavy",
        c: float | None = None,
        rule: str = "uct",
        expand_visits: int | None = None,
        focus: bool | None = None,
        focus_width: int = GOMOKU_FOCUS_WIDTH,
        root_width: int | None = None,
        max_nodes: int = DEFAULT_MAX_NODES,
        evaluation: Evaluation | None = None,
        cutoff_plies: int | None = None,
        patterns: PatternWeights | None = None,
        endgame_empties: int | None = None,
        threats: bool | None = None,
        deep_vct: int = DEEP_VCT_NODES_PER_SECOND,
        deep_defence: bool = DEEP_DEFENCE,
        vct_nodes: int = LEAF_VCT_NODES,
        shapes: int | None = None,
        sharpness: float = GOMOKU_SHARPNESS,
        strict: bool = STRICT_PROOFS,
        recheck: bool = RECHECK_PROOFS,
        alphabeta: float | None = None,
        loa_eval: str = DEFAULT_LOA_EVAL,
        minimax: float | None = None,
        seed: int | None = None,
    ) -> None:
        if rule not in RULES:
            raise ValueError(
                f"unknown selection rule {rule!r}; expected one of {', '.join(RULES)}"
            )
        if c is not None and not c >= 0:
            raise ValueError(f"the exploration constant c must be >= 0, got {c!r}")
        if max_nodes < MAX_MOVES + 1:
            raise ValueError(
                f"max_nodes must be at least {MAX_MOVES + 1}, got {max_nodes}"
            )
        self.game = game
        self.evaluator = evaluator
        self._evaluator_id = evaluator_id(evaluator)
        self._c = None if c is None else float(c)
        self.rule = rule
        self.max_nodes = int(max_nodes)
        self._expand_visits = expand_visits
        if focus_width < 1:
            raise ValueError(f"focus_width must be at least 1, got {focus_width}")
        focus = (evaluator == "heavy") if focus is None else bool(focus)
        #: The most moves focus keeps at a node; 0 when focus is off.
        self.focus_width = int(focus_width) if focus else 0
        if root_width is None:
            root_width = max(focus_width, GOMOKU_ROOT_WIDTH)
        if root_width < focus_width:
            raise ValueError(
                f"root_width must be at least focus_width ({focus_width}), "
                f"got {root_width}"
            )
        #: The most moves focus keeps at the root; 0 when focus is off.
        self.root_width = int(root_width) if focus else 0
        if endgame_empties is None:
            endgame_empties = ENDGAME_EMPTIES.get(game.name, 0)
        if not 0 <= endgame_empties <= MAX_LEAF_EMPTIES:
            raise ValueError(
                f"endgame_empties must be 0..{MAX_LEAF_EMPTIES}, got {endgame_empties}"
            )
        #: New leaves with at most this many empties are solved exactly (0: never).
        self.endgame_empties = int(endgame_empties)
        threats = (evaluator == "heavy") if threats is None else bool(threats)
        #: Whether Gomoku threat search plays and blocks VCFs (see ``threats``).
        self.threats = threats and game.name == "gomoku"
        if deep_vct < 0:
            raise ValueError(f"deep_vct must be >= 0, got {deep_vct!r}")
        #: VCF nodes a second of a move buys for deeper VCTs at the root.
        self.deep_vct = int(deep_vct)
        #: Whether half of the deeper VCTs' nodes look for the opponent's, to
        #: drop the root moves that leave him one (off by default).
        self.deep_defence = bool(deep_defence)
        if vct_nodes < 0:
            raise ValueError(f"vct must be >= 0, got {vct_nodes!r}")
        #: VCF nodes of the leaves' VCT check (0: VCF only; see ``vct_nodes``).
        self.vct_nodes = int(vct_nodes)
        if shapes is None:
            heavy_gomoku = evaluator == "heavy" and game.name == "gomoku"
            shapes = GOMOKU_SHAPES if heavy_gomoku else 0
        if shapes not in (0, 1, 2):
            raise ValueError(f"shapes must be 0, 1 or 2, got {shapes!r}")
        #: Gomoku line shapes: 1 ranks focus moves, 2 also scores leaves.
        self.shapes = int(shapes)
        if not sharpness >= 0:
            raise ValueError(f"sharpness must be >= 0, got {sharpness!r}")
        #: How much a Gomoku quiet leaf stretches the learned evaluation's
        #: log-odds (0: the shapes score the leaf; see ``sharpness``).
        self.sharpness = float(sharpness)
        #: Whether a node is proven lost for its player to move only when
        #: focus kept every reply that might save him (see ``strict``).
        self.strict = bool(strict)
        #: Whether a false root proof is searched on strictly (``recheck``).
        self.recheck = bool(recheck)
        plays_alphabeta = (
            game.name == "gomoku" and game.options["row"] <= ALPHABETA_MAX_ROW
        )
        if alphabeta is None:
            heavy = evaluator == "heavy"
            alphabeta = GOMOKU_ALPHABETA_SHARE if heavy and plays_alphabeta else 0.0
        if not 0 <= alphabeta <= 1:
            raise ValueError(f"alphabeta must be 0..1, got {alphabeta!r}")
        if alphabeta and not plays_alphabeta:
            raise ValueError(
                f"the alpha-beta search plays Gomoku with rows of at most "
                f"{ALPHABETA_MAX_ROW}, not {game.name} {game.options}"
            )
        #: The share of a timed Gomoku move the alpha-beta search spends
        #: choosing it (0: the tree search chooses; see ``alphabeta``).
        self.alphabeta = float(alphabeta)
        self._planner = (
            AlphaBetaPlanner(game.options["size"], game.options["row"])
            if alphabeta
            else None
        )
        self._rng = np.random.default_rng(seed)
        self._stop = np.zeros(1, dtype=np.int8)
        self._lock = threading.Lock()
        #: The move this search plays whatever the tree says, for _choose: an
        #: exact root solve's (_solve_root) or the alpha-beta's (_plan_move).
        self._solved_move: int | None = None
        #: The tree of the last search and those of its root children that
        #: the root's threat search proved (exact proofs, see _holding_proofs).
        self._threat_proofs: tuple[Tree | None, list[int]] = (None, [])
        self._prior = np.empty(0, dtype=np.float32)
        self._state = game.initial_state() if state is None else state
        self.tree = Tree()
        if cutoff_plies is not None and cutoff_plies < 0:
            raise ValueError(f"cutoff_plies must be >= 0, got {cutoff_plies}")
        self._cutoff_plies = cutoff_plies
        # Lines of Action's heavy search takes its parameters where the other
        # games take a learned evaluation (it has none).
        self._loa_params = loa_params(loa_eval)
        self.loa_eval = loa_eval
        if minimax is not None and not 0 <= minimax <= 1:
            raise ValueError(f"minimax must be 0..1, got {minimax!r}")
        self._minimax = minimax
        # The minimax values of self.tree's nodes (NaN: unknown).
        self._minimax_values = NodeValues()
        self.evaluation = evaluation
        self.patterns = patterns
        #: The shape weights the Gomoku alpha-beta evaluates by (a tree
        #: model's fitted ones; None: the hand-set ones).
        self.shape_weights: ShapeWeights | None = None

    @property
    def cutoff_plies(self) -> int:
        """Return the plies a heavy rollout plays before the evaluation
        scores it: the one given, else :data:`PATTERN_CUTOFF_PLIES` with
        patterns, else the game's LEARNED_CUTOFF_PLIES."""
        if self._cutoff_plies is not None:
            return int(self._cutoff_plies)
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
        if evaluation is None and self.game.name == "loa" and self.evaluator == "heavy":
            self._learned = self._loa_params

    @property
    def c(self) -> float:
        """Return the exploration constant: the one given, else the game's
        (:data:`PATTERN_C` while a pattern evaluation scores the leaves,
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
        root = self._state.array
        count = kernels.legal_moves(self.game.game_id, root, moves)
        if self.focus_width > 0:
            count = focus_moves(self.game.game_id, root, moves, count, self.focus_width)
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
                    deep_defence=self.deep_defence,
                )
                proven = [c for m, c in self._root_proofs().items() if m not in before]
                self._threat_proofs = (self.tree, proven)
                if self.tree is not searched or proven:
                    allowed = self._unlost_root_moves()
            solved = self._solve_root(seconds)
            if solved is None:
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
                self._prove_root(solved)
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
        root = self._state.array
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
        while another does not."""
        planned = self._solved_move
        tree = self.tree
        children = list(tree.children(0))
        if planned is None or not children:
            return
        proven = {int(tree.move[child]): tree.proven[child] for child in children}
        best = tree.proven[best_child(tree, 0)]
        if (best == Proven.WIN and proven.get(planned) != Proven.WIN) or (
            proven.get(planned) == Proven.LOSS and best != Proven.LOSS
        ):
            self._solved_move = None

    def _solve_root(self, seconds: float | None) -> EndgameResult | None:
        """Return the exact result of a Reversi root that a move of ``seconds``
        can afford to solve (:func:`root_solve_empties`), else None (other
        games, simulation budgets, leaf solving turned off, one legal move)."""
        if self.game.name != "reversi" or seconds is None or not self.endgame_empties:
            return None
        array = self._state.array
        empties = 64 - bin(int(array[BLACK_DISCS]) | int(array[WHITE_DISCS])).count("1")
        if empties > root_solve_empties(seconds):
            return None
        if len(self.game.legal_moves(self._state)) < 2:
            return None
        return solve_endgame(self._state)

    def _prove_root(self, solved: EndgameResult) -> None:
        """Mark the solved move's child and the root proven by ``solved`` and
        make it the move this search plays."""
        side = (
            Proven.WIN
            if solved.margin > 0
            else Proven.LOSS
            if solved.margin < 0
            else Proven.DRAW
        )
        child = self.tree.child_with_move(0, solved.move)
        if child >= 0:
            self.tree.proven[child] = side
            self.tree.proven[0] = side.flipped
        self._solved_move = solved.move

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
                float(self.sharpness),
                bool(self.strict),
                float(self.minimax),
            ),
            Knowledge(
                self._learned, self._pattern_array, self._prior, self._minimax_array()
            ),
        )

    @property
    def minimax(self) -> float:
        """Return the weight of the implicit minimax values in selection: the
        one given, else :data:`PATTERN_MINIMAX` while a pattern evaluation
        scores the leaves, else 0 (off)."""
        if self._minimax is not None:
            return self._minimax
        return PATTERN_MINIMAX if self._patterns is not None else 0.0

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
        if random_moves and self._rng.random() < random_moves:
            code = legal[int(self._rng.integers(len(legal)))]
        else:
            code = self._choose(temperature, legal)
        return read_result(
            self.tree,
            self.game,
            self._state,
            code,
            legal,
            self._holding_proofs(),
            simulations=simulations,
            elapsed=elapsed,
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
            return int(tree.move[best_child(tree, 0)])
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

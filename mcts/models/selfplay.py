"""Grow a tree model by self-play.

Each move of each game is an MCTS search that starts from a copy of the shared
tree's statistics for the position (warm start) and folds its grown tree back
into the shared tree (:func:`mcts.models.model.graft`), so every game studies the
openings all earlier games studied. A search changes only what lies below the
position it searched: not the position's own statistics, which are its
parent's view of that move, nor its ancestors'. A played move searched again
would otherwise outgrow its siblings for having been played (in the sampled
opening plies, not for being best), and late-game searches run millions of
nearly free simulations through proven nodes, which would swamp the
openings' statistics. So a node's children may hold more visits than it.
Games differ because the opening plies are sampled in proportion to visits
(temperature 1: the exploration noise of UCT self-play) and every game has
its own seed.

Checkpoints are saved atomically every K games; a run pointed at an existing
self-play model resumes it (``games`` is the total the model should reach);
Ctrl-C saves a checkpoint before it stops. With ``workers`` > 1, rounds of
games are played in parallel processes, each from a snapshot of the shared
tree, and their trees are merged as base + the sum of each worker's gains.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..games import find_game
from ..games.base import ONGOING, Game, State
from ..search.config import SearchConfig
from ..search.gomoku.weights import ShapeWeights
from ..search.learned import fit
from ..search.reversi.patterns import PatternWeights
from ..search.searcher import Searcher
from ..search.tree import Tree, TreeArrays
from .model import Model, ModelError, empty_model, graft, prune
from .store import code_version, load, save

#: Plies longer than this end a self-play game as unfinished (a safety net).
MAX_PLIES = 600
#: Simulations per move after the studied plies: enough to finish the game
#: with sensible moves, too few to cost time (see SelfPlayConfig.study_plies).
FINISH_SIMULATIONS = 100


@dataclass(frozen=True)
class SelfPlayConfig:
    """How to build: budget per move (``simulations`` and/or ``seconds``), the
    plies sampled with ``temperature`` (the noise), the search knobs, the
    ``seed`` from which every game's seed derives, and ``min_visits``: the
    pruning applied to every move's search before it joins the shared tree,
    so the tree in memory is the one saved and stays bounded.

    ``study_plies``: when set, only the first that many plies of each game get
    the full budget and later ones :data:`FINISH_SIMULATIONS`. A model helps
    where it holds many more visits than a player's own search, which after
    a few hundred games is the opening only, so the build's time goes there.
    """

    simulations: int | None = 200
    seconds: float | None = None
    noise_plies: int = 12
    temperature: float = 1.0
    evaluator: str = "heavy"
    c: float | None = None  # None: the game's tuned value, as in play
    seed: int = 0
    min_visits: int = 1
    checkpoint_every: int = 10
    workers: int = 1
    study_plies: int | None = None


def play_game(
    game: Game,
    tree: Tree,
    root,
    config: SelfPlayConfig,
    game_seed: int,
    patterns: PatternWeights | None = None,
    shape_weights: ShapeWeights | None = None,
) -> tuple[list[int], int]:
    """Play one self-play game from ``root`` growing ``tree`` in place; return
    the move codes and the final status (ONGOING if cut at MAX_PLIES).
    ``patterns``: the Reversi pattern evaluation the searches score leaves
    with, ``shape_weights`` the Gomoku alpha-beta's, as a player with the
    model does."""
    rng = np.random.default_rng(game_seed)
    state = root
    node = 0
    moves: list[int] = []
    while game.status(state) == ONGOING and len(moves) < MAX_PLIES:
        searcher = Searcher(
            game,
            state,
            config=SearchConfig(evaluator=config.evaluator, c=config.c),
            seed=int(rng.integers(2**31 - 1)),
        )
        searcher.patterns = patterns
        searcher.shape_weights = shape_weights
        if node >= 0:
            searcher.tree = tree.subtree(node)
        temperature = config.temperature if len(moves) < config.noise_plies else 0.0
        if config.study_plies is None or len(moves) < config.study_plies:
            simulations, seconds = config.simulations, config.seconds
        else:
            simulations, seconds = FINISH_SIMULATIONS, None
        result = searcher.search(
            temperature=temperature, simulations=simulations, seconds=seconds
        )
        if node >= 0:
            grown = prune(searcher.tree, config.min_visits)
            if node > 0:
                # The position keeps the statistics its parent's searches gave
                # it: the move that was played must not look better to the
                # parent for having been searched again.
                grown.visits[0] = tree.visits[node]
                grown.value_sum[0] = tree.value_sum[node]
            graft(tree, node, grown)
            code = _one_orientation(
                game, state, result.code, tree, node, config.min_visits
            )
            node = tree.child_with_move(node, code)
        else:
            code = result.code
        moves.append(code)
        state = game.apply(state, code)
    return moves, game.status(state)


def _one_orientation(
    game: Game, state: State, code: int, tree: Tree, node: int, min_visits: int
) -> int:
    """Return the move to play instead of ``code``: of the moves that a
    symmetry of the position makes equivalent to it, the lowest-coded child
    of ``node`` with ``min_visits`` visits (else the most visited twin), so
    that its study survives pruning.

    So every game studies a line in the same orientation (Reversi's four
    first moves, say, are one move turned): the games' study pools on one
    node instead of splitting over up to eight, and a player finds the other
    orientations by symmetric lookup (:func:`mcts.models.model.warm_tree`).
    """
    key = state.key()
    twins = {code} | {
        int(game.move_map(image)[code])
        for image in game.symmetries()[1:]
        if game.map_state(state, image).key() == key
    }
    if len(twins) == 1:
        return code
    children = {m: tree.child_with_move(node, m) for m in twins}
    visits = {m: int(tree.visits[c]) if c >= 0 else -1 for m, c in children.items()}
    busy = [m for m in twins if visits[m] >= max(1, min_visits)]
    return min(busy) if busy else min(twins, key=lambda m: (-visits[m], m))


def _tree_arrays(tree: Tree) -> TreeArrays:
    return TreeArrays(*(np.array(a) for a in tree.arrays.head(tree.size)))


def _tree_from_arrays(arrays: TreeArrays) -> Tree:
    size = len(arrays.parent)
    tree = Tree(max(2, size))
    for target, values in zip(tree.arrays, arrays, strict=True):
        target[:size] = values
    tree.size = size
    return tree


def _worker(
    game_spec: dict,
    root_text: str,
    arrays: TreeArrays,
    config: SelfPlayConfig,
    seeds: list[int],
    patterns: PatternWeights | None,
    shape_weights: ShapeWeights | None,
) -> TreeArrays:
    """Play games with ``seeds`` from a snapshot tree; return the grown tree's
    arrays (run in a worker process)."""
    game = find_game(game_spec["game"], **game_spec["options"])
    tree = _tree_from_arrays(arrays)
    root = game.parse_state(root_text)
    for seed in seeds:
        play_game(game, tree, root, config, seed, patterns, shape_weights)
    return _tree_arrays(tree)


def _game_seed(config: SelfPlayConfig, index: int) -> int:
    return (config.seed * 1_000_003 + index) % (2**63)


def build(
    game: Game,
    path: str | os.PathLike,
    games: int,
    config: SelfPlayConfig,
    *,
    progress: bool = True,
    command: str | None = None,
    on_checkpoint: Callable[[int, int], None] | None = None,
    patterns: PatternWeights | None = None,
) -> Model:
    """Grow the model at ``path`` until it holds ``games`` self-play games;
    return it. An existing self-play model there is resumed (ModelError if it
    is another game or was not built by self-play).

    ``patterns`` (Reversi): the pattern evaluation the model carries from now
    on; by default the one a resumed model carries. The self-play searches
    score their leaves with it, so the tree's values are those of the
    players' own search; so their Gomoku alpha-beta evaluates by the shape
    weights a resumed model carries."""
    path = Path(path)
    model, done, elapsed_before = _start(game, path)
    patterns = patterns if patterns is not None else model.patterns
    # a loaded tree's arrays are exactly full: copy into growable ones
    tree = model.tree.subtree(0) if model.tree.size > 1 else Tree(1 << 16)
    model = Model(
        game,
        tree,
        model.root_state,
        model.manifest,
        patterns=patterns,
        shape_weights=model.shape_weights,
    )
    bar = _progress_bar(progress, games, done)
    started = time.perf_counter()

    def checkpoint() -> None:
        built = {
            "by": "selfplay",
            "selfplay_games": done,
            "config": asdict(config),
            "seconds_spent": round(elapsed_before + time.perf_counter() - started, 1),
            "code_version": code_version(),
            "command": command,
        }
        model.tree = tree
        model.evaluation = fit(game, tree, model.root_state)
        save(model, path, min_visits=config.min_visits, built=built)
        model.manifest = {"built": built, "created": model.manifest.get("created")}
        if on_checkpoint is not None:
            on_checkpoint(done, tree.size)

    try:
        while done < games:
            if config.workers > 1:
                count = min(games - done, max(config.checkpoint_every, config.workers))
                tree = _parallel_round(
                    game,
                    model.root_state,
                    tree,
                    config,
                    done,
                    count,
                    patterns,
                    model.shape_weights,
                )
            else:
                count = 1
                play_game(
                    game,
                    tree,
                    model.root_state,
                    config,
                    _game_seed(config, done),
                    patterns,
                    model.shape_weights,
                )
            done += count
            if bar is not None:
                bar.update(count)
                bar.set_postfix(nodes=tree.size, refresh=False)
            if (
                done % config.checkpoint_every == 0
                or done >= games
                or config.workers > 1
            ):
                checkpoint()
    except KeyboardInterrupt:
        checkpoint()  # Ctrl-C: keep what the finished games taught
        raise
    finally:
        if bar is not None:
            bar.close()
    model.tree = tree
    return model


def _start(game: Game, path: Path) -> tuple[Model, int, float]:
    """Return the model to grow, its game count and the seconds spent on it."""
    if not (path / "manifest.json").exists():
        return empty_model(game), 0, 0.0
    model = load(path, game=game)
    built = model.manifest.get("built") or {}
    if built.get("by") != "selfplay":
        raise ModelError(f"{path}: not a self-play model, so it cannot be resumed")
    return (
        model,
        int(built.get("selfplay_games", 0)),
        float(built.get("seconds_spent", 0)),
    )


def _progress_bar(enabled: bool, games: int, done: int):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(
        total=games, initial=done, unit="game", desc="self-play", dynamic_ncols=True
    )


def _parallel_round(
    game: Game,
    root,
    tree: Tree,
    config: SelfPlayConfig,
    done: int,
    count: int,
    patterns: PatternWeights | None,
    shape_weights: ShapeWeights | None,
) -> Tree:
    """Play ``count`` games in ``config.workers`` processes from a snapshot of
    ``tree``; return the merged tree (base + each worker's gains)."""
    seeds = [_game_seed(config, done + i) for i in range(count)]
    shares = [seeds[i :: config.workers] for i in range(config.workers)]
    shares = [share for share in shares if share]
    snapshot = _tree_arrays(tree)
    spec = game.describe()
    root_text = game.state_string(root)
    with ProcessPoolExecutor(max_workers=len(shares)) as pool:
        futures = [
            pool.submit(
                _worker,
                spec,
                root_text,
                snapshot,
                config,
                share,
                patterns,
                shape_weights,
            )
            for share in shares
        ]
        grown = [_tree_from_arrays(f.result()) for f in futures]
    merged = tree.subtree(0)
    for other in grown:
        graft(merged, 0, other, weight=1.0)
        graft(merged, 0, tree, weight=-1.0)  # each worker's copy of the base
    return merged

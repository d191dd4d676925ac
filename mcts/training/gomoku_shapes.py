"""Fitting the Gomoku alpha-beta's shape weights
(:mod:`mcts.search.gomoku.weights`) to the results of its own games, the
way chess engines tune their evaluations ("Texel tuning").

1. **Games** (:func:`play_games`): the alpha-beta plays itself from
   balanced openings (:func:`mcts.play.openings.balanced_opening`, as the
   arena opens its Gomoku matches) at a short think time a move, by the
   weights being improved; every position before a move is kept with the
   game's result.
2. **Quiet positions** (:func:`quiet_positions`): those where neither side
   has a five or a winning four to make, whose value the stand-pat alone
   gives; each keeps the line shapes of its empty cells, the side to move and
   the result for that side (1 win, 0 loss, 1/2 draw).
3. **Fit** (:func:`fit`): the weights minimise the mean squared difference
   between the result and ``1 / (1 + exp(-v / K))`` of the stand-pat value
   ``v``, by coordinate descent (each weight up or down a step, the step
   halved when none helps; a shape keeps at least :data:`MIN_SHAPE_WEIGHT`),
   ``K`` first chosen to fit the starting weights best. A fifth of the
   games is held out to measure the fit.

``python -m mcts.lab fit-shapes`` runs the three steps and writes the weights
file or puts it into a Gomoku tree model.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import njit

from ..games import find_game, gomoku
from ..play.openings import balanced_opening
from ..search.gomoku.alphabeta import forget, new_search, think, use_weights
from ..search.gomoku.patterns import cell_worth, new_board, read_threats, set_position
from ..search.gomoku.weights import (
    BLOCK_AT,
    FOUR_FORK_AT,
    LEARNT_SHAPES,
    SPREAD_AT,
    THREE_FORK_AT,
    ShapeWeights,
    from_array,
)

#: The weights the fit moves (indices of :meth:`ShapeWeights.array`).
LEARNT = (*LEARNT_SHAPES, FOUR_FORK_AT, THREE_FORK_AT, BLOCK_AT, SPREAD_AT)
#: The scales ``K`` of the logistic tried (60 to 1920, a factor 2 ** 0.25
#: apart); the one that fits the starting weights best is kept.
SCALES = tuple(round(60.0 * 2 ** (k / 4), 1) for k in range(21))
#: The least weight of a learnt shape: a cell where a stone makes only a
#: two must keep some worth, or the search no longer considers it.
MIN_SHAPE_WEIGHT = 1.0
#: Rounds of coordinate descent at most, and the first step of each weight
#: (this share of its starting value).
ROUNDS = 40
FIRST_STEP = 0.25
#: Games per task a worker plays (the games file is saved after each).
GAMES_PER_TASK = 10
#: Every HOLD_OUT-th game is held out of the fit.
HOLD_OUT = 5


@dataclass
class Positions:
    """Positions of self-play games: the stones (0 empty, 1 black, 2 white)
    of each, the side to move (0 black, 1 white), black's result (1, 0 or
    1/2) and the game's index."""

    stones: np.ndarray
    side: np.ndarray
    result: np.ndarray
    game: np.ndarray

    @staticmethod
    def empty(cells: int) -> Positions:
        """Return no positions of a board of ``cells`` cells."""
        return Positions(
            np.zeros((0, cells), dtype=np.int8),
            np.zeros(0, dtype=np.int8),
            np.zeros(0, dtype=np.float64),
            np.zeros(0, dtype=np.int64),
        )

    def __add__(self, other: Positions) -> Positions:
        return Positions(
            np.concatenate([self.stones, other.stones]),
            np.concatenate([self.side, other.side]),
            np.concatenate([self.result, other.result]),
            np.concatenate([self.game, other.game]),
        )

    def __len__(self) -> int:
        return len(self.side)


def _play_task(
    options: dict, games: list[int], seconds: float, seed: int, weights: np.ndarray
) -> Positions:
    """Play the self-play games ``games`` (their indices seed the openings);
    return their positions."""
    game = find_game("gomoku", **options)
    cells = options["size"] ** 2
    search = new_search(options["size"], options["row"])
    use_weights(search, from_array(weights))
    out = Positions.empty(cells)
    for index in games:
        rng = np.random.default_rng([seed, index])
        state = game.initial_state()
        for move in balanced_opening(game, rng):
            state = game.apply(state, move)
        forget(search)
        stones, side = [], []
        while not game.is_terminal(state):
            board = state.array[gomoku.HEADER : gomoku.HEADER + cells]
            stones.append(board.astype(np.int8))
            side.append(int(state.array[gomoku.SIDE]))
            move, _value, _depth, _nodes = think(search, state.array, seconds)
            state = game.apply(state, move)
        outcome = game.outcome(state)
        winner = outcome.winner if outcome is not None else None
        black = 1.0 if winner == "black" else 0.0 if winner == "white" else 0.5
        out = out + Positions(
            np.array(stones, dtype=np.int8).reshape(-1, cells),
            np.array(side, dtype=np.int8),
            np.full(len(side), black),
            np.full(len(side), index, dtype=np.int64),
        )
    return out


def play_games(
    games: int,
    seconds: float,
    weights: ShapeWeights,
    *,
    options: dict | None = None,
    seed: int = 0,
    workers: int = 1,
    games_file: Path | None = None,
    bar: Callable | None = None,
) -> Positions:
    """Return the positions of ``games`` alpha-beta self-play games at
    ``seconds`` a move by ``weights`` on the Gomoku board of ``options``
    (standard 15x15 five in a row by default), played by ``workers``
    processes. With ``games_file`` (a file path) the positions are saved
    there after every :data:`GAMES_PER_TASK` games and kept: a run with the
    same settings plays only the games missing from it (none once all are
    there); ``bar`` is a tqdm-like progress bar class."""
    options = dict(find_game("gomoku", **(options or {})).options)
    settings = json.dumps(
        {
            "games": games,
            "seconds": seconds,
            "seed": seed,
            "options": options,
            "weights": weights.array().tolist(),
        },
        sort_keys=True,
    )
    done = _resume(games_file, settings, options["size"] ** 2)
    played = set(done.game.tolist())
    left = [g for g in range(games) if g not in played]
    progress = bar(total=games, initial=games - len(left), unit="game") if bar else None
    tasks = [left[i : i + GAMES_PER_TASK] for i in range(0, len(left), GAMES_PER_TASK)]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max(1, workers), mp_context=context) as pool:
        futures = [
            pool.submit(_play_task, options, task, seconds, seed, weights.array())
            for task in tasks
        ]
        for future in as_completed(futures):
            found = future.result()
            done = done + found
            if games_file is not None:
                _save(games_file, settings, done)
            if progress is not None:
                progress.update(len(set(found.game.tolist())))
    if progress is not None:
        progress.close()
    return done


@dataclass
class QuietPositions:
    """The quiet positions of :func:`quiet_positions`: each empty cell's line
    shapes for both colours, which cells are empty, the side to move, its
    result and the game's index."""

    shapes: np.ndarray
    empty: np.ndarray
    me: np.ndarray
    result: np.ndarray
    game: np.ndarray

    def take(self, mask: np.ndarray) -> QuietPositions:
        """Return the positions of ``mask``."""
        return QuietPositions(
            self.shapes[mask],
            self.empty[mask],
            self.me[mask],
            self.result[mask],
            self.game[mask],
        )


def quiet_positions(positions: Positions, size: int, row: int) -> QuietPositions:
    """Return the positions where neither side has a five or a winning four
    to make, with their shapes and the result for the side to move."""
    board = new_board(size, row)
    keep = []
    shapes = []
    for i in range(len(positions)):
        set_position(board, positions.stones[i].astype(np.int64))
        threats = read_threats(board, int(positions.side[i]))
        own_five, their_fives, _, own_win, their_win, _, _ = threats
        if own_five or their_fives or own_win or their_win:
            continue
        keep.append(i)
        shapes.append(board[3].copy())
    index = np.array(keep, dtype=np.int64)
    movers = positions.side[index].astype(np.int64)
    black = positions.result[index]
    return QuietPositions(
        np.array(shapes, dtype=np.int8).reshape(len(index), 2, size * size, 4),
        positions.stones[index] == 0,
        movers,
        np.where(movers == 0, black, 1.0 - black),
        positions.game[index],
    )


@njit(cache=True)
def stand_pat_values(shapes, empty, me, weights):
    """Return the stand-pat value of each position for its side to move by
    ``weights`` (as the alpha-beta's quiescence scores it)."""
    out = np.zeros(shapes.shape[0])
    for p in range(shapes.shape[0]):
        best = np.zeros(2)
        sums = np.zeros(2)
        for x in range(shapes.shape[2]):
            if not empty[p, x]:
                continue
            for q in range(2):
                value, _level = cell_worth(shapes[p], weights, q, x, False)
                sums[q] += value
                best[q] = max(best[q], value)
        mine, theirs = me[p], 1 - me[p]
        out[p] = (
            best[mine]
            - weights[BLOCK_AT] * best[theirs]
            + weights[SPREAD_AT] * (sums[mine] - sums[theirs])
        )
    return out


def loss(data: QuietPositions, weights: np.ndarray, scale: float) -> float:
    """Return the mean squared difference of the results and the win chances
    ``1 / (1 + exp(-v / scale))`` of the stand-pat values ``v``."""
    values = stand_pat_values(data.shapes, data.empty, data.me, weights)
    chance = 1.0 / (1.0 + np.exp(-values / scale))
    return float(np.mean((data.result - chance) ** 2))


def fit(
    data: QuietPositions, start: ShapeWeights, log: Callable[[str], None] = print
) -> tuple[np.ndarray, dict]:
    """Return the weights array fitted to ``data`` from ``start`` and a
    record of the fit (the scale, the losses before and after on the games
    fitted and held out)."""
    held = data.game % HOLD_OUT == 0
    train, test = data.take(~held), data.take(held)
    weights = start.array()
    scale = min(SCALES, key=lambda k: loss(train, weights, k))
    before = (loss(train, weights, scale), loss(test, weights, scale))
    log(f"scale {scale:g}: loss {before[0]:.5f}, held out {before[1]:.5f}")
    current = before[0]
    steps = {i: max(abs(weights[i]) * FIRST_STEP, 0.01) for i in LEARNT}
    for round_ in range(ROUNDS):
        improved = False
        for i in LEARNT:
            for sign in (1.0, -1.0):
                trial = weights.copy()
                least = MIN_SHAPE_WEIGHT if i in LEARNT_SHAPES else 0.0
                trial[i] = max(least, round(trial[i] + sign * steps[i], 6))
                value = loss(train, trial, scale)
                if value < current - 1e-7:
                    weights, current, improved = trial, value, True
                    break
        log(f"round {round_ + 1}: loss {current:.5f}")
        if not improved:
            steps = {i: step / 2 for i, step in steps.items()}
    after = (current, loss(test, weights, scale))
    record = {
        "positions": int(len(data.me)),
        "held_out_positions": int(held.sum()),
        "scale": scale,
        "loss_before": round(before[0], 5),
        "held_out_loss_before": round(before[1], 5),
        "loss": round(after[0], 5),
        "held_out_loss": round(after[1], 5),
        "start": start.array().round(4).tolist(),
    }
    return weights, record


def fit_shapes(
    games: int,
    seconds: float,
    start: ShapeWeights,
    *,
    seed: int = 0,
    workers: int = 1,
    games_file: Path | None = None,
    bar: Callable | None = None,
    log: Callable[[str], None] = print,
) -> ShapeWeights:
    """Play, pick the quiet positions, fit (see the module's docstring) on
    the standard 15x15 board; return the fitted weights with their record."""
    began = time.perf_counter()
    positions = play_games(
        games,
        seconds,
        start,
        seed=seed,
        workers=workers,
        games_file=games_file,
        bar=bar,
    )
    data = quiet_positions(positions, 15, 5)
    log(f"{len(positions)} positions, {len(data.me)} quiet")
    weights, record = fit(data, start, log)
    record.update(
        games=games,
        seconds_a_move=seconds,
        seed=seed,
        seconds=round(time.perf_counter() - began, 1),
    )
    return from_array(weights, record)


def _resume(games_file: Path | None, settings: str, cells: int) -> Positions:
    """Return the positions saved in ``games_file`` (none if it is missing);
    ValueError if it was made with other settings."""
    if games_file is None or not games_file.exists():
        return Positions.empty(cells)
    saved = dict(np.load(games_file, allow_pickle=False))
    if str(saved["settings"]) != settings:
        raise ValueError(
            f"{games_file} was made with other settings ({saved['settings']}); "
            "remove it or match them"
        )
    return Positions(saved["stones"], saved["side"], saved["result"], saved["game"])


def _save(path: Path, settings: str, positions: Positions) -> None:
    """Write the positions and their settings to ``path`` atomically."""
    temp = path.with_name(path.name + ".tmp.npz")
    np.savez(
        temp,
        settings=np.array(settings),
        stones=positions.stones,
        side=positions.side,
        result=positions.result,
        game=positions.game,
    )
    os.replace(temp, path)

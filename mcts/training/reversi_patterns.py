"""Training the Reversi pattern evaluation (:mod:`mcts.search.reversi.patterns`).

1. **Positions** from fast, diverse self-play (:func:`play_games`): a few
   uniformly random opening plies (0 to :data:`RANDOM_PLIES`), then the heavy
   rollout policy of the search (:func:`mcts.search.rollouts.reversi_rollout`,
   corners first, X- and C-squares avoided, random among the rest). It costs
   microseconds a game, so hundreds of thousands of positions take seconds,
   and its randomness spreads them over many shapes; the games' own results
   are never used, only their positions, so weak play does not bias the labels.
2. **Labels**, the final disc margin for the side to move: exact (the endgame
   solver, :mod:`mcts.search.reversi.endgame`) at ``solve_empties`` empties or fewer;
   earlier, Logistello-style, by bootstrapping backwards stage by stage: a
   position's label is the best 1-ply value, ``max over moves of -score(child)``,
   where the children are scored by the stages already trained (a child in the
   stage being trained uses its current fit, repeated :data:`BOOTSTRAP_ROUNDS`
   times).
3. **Fit**, stage by stage from the end: regularised least squares solved by
   conjugate gradients (numba matrix-vector products over the sparse pattern
   indices); the penalty pulls each weight toward the same weight of the stage
   fitted before (one stage later in the game), so a pattern a stage rarely
   saw keeps its neighbour's value instead of 0. A tenth of the games is
   held out to measure each stage's fit (RMSE in discs).

With a ``policy`` (the command's ``--play-with``, or each round after the
first of ``--rounds``), step 1's games are played by those weights
(:func:`_policy_move`) instead of the rollout policy: positions like those
a search meets, which made the weights far stronger (docs/experiments).

It is one pipeline: the self-play, the labels, the fit and its checkpoints
are numba kernels and drivers over the same position arrays and constants.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from ..games import reversi
from ..games.bitboard import bit_square, lowest_bit, popcount
from ..search.reversi.endgame import final_margin, flips, mobility, solve_bitboards
from ..search.reversi.patterns import (
    BIAS,
    INSTANCES,
    STAGE_EMPTIES,
    STAGE_WEIGHTS,
    STAGES,
    PatternWeights,
    no_patterns,
    pattern_indices,
    pattern_score,
)
from ..search.rollouts import reversi_rollout

#: Most uniformly random plies at the start of a self-play game.
RANDOM_PLIES = 12
#: Positions at this many empties or fewer are labelled by the exact solver.
SOLVE_EMPTIES = 12
#: Fits of a bootstrapped stage (each relabels it with the last fit).
BOOTSTRAP_ROUNDS = 3
#: The ridge penalty (per weight, in squared discs) toward the later stage.
RIDGE = 3.0
#: Conjugate-gradient steps per fit.
CG_STEPS = 60
#: How far the self-play of a ``policy`` strays from its best move: a move
#: 1 disc worse is e**(-1/T) times as likely.
POLICY_TEMPERATURE = 2.0
#: Games whose number is divisible by this are held out.
HOLDOUT_EVERY = 10
#: Transposition table of the labelling solves (2**16 entries).
_SOLVE_TABLE_BITS = 16
_ZERO = np.uint64(0)


class Positions(NamedTuple):
    """Room for self-play positions, one row each."""

    own: np.ndarray  # uint64: the mover's discs
    opp: np.ndarray  # uint64: the opponent's
    game_of: np.ndarray  # int64: the game it came from


@njit(cache=True, nogil=True)
def play_games(games, seed, first_game, out, policy, temperature, share):
    """Play ``games`` self-play games (numbered from ``first_game``) and write
    every position where the side to move has a move into ``out``
    (:class:`Positions`: its discs ``own``/``opp`` from the mover's view and
    its game number ``game_of``), while room lasts; return the number written.

    After the random opening plies the moves are the rollout policy's, or
    with ``policy`` weights (rows: stages), in a ``share`` of the games,
    drawn by :func:`_policy_move` at ``temperature`` discs."""
    own, opp, game_of = out.own, out.opp, out.game_of
    np.random.seed(seed)
    state = np.empty(3, dtype=np.uint64)
    moves = np.empty(64, dtype=np.int64)
    count = 0
    for g in range(games):
        state[0] = np.uint64((1 << 28) | (1 << 35))
        state[1] = np.uint64((1 << 27) | (1 << 36))
        state[2] = _ZERO
        random_plies = np.random.randint(0, RANDOM_PLIES + 1)
        by_policy = policy.shape[0] > 0 and np.random.random() < share
        ply = 0
        while True:
            side = np.int64(state[2])
            mine, theirs = state[side], state[1 - side]
            if mobility(mine, theirs) == _ZERO:
                if mobility(theirs, mine) == _ZERO:
                    break
                reversi.apply_move(state, reversi.PASS)
                continue
            if count < own.shape[0]:
                own[count] = mine
                opp[count] = theirs
                game_of[count] = first_game + g
                count += 1
            if ply < random_plies:
                n = reversi.legal_moves(state, moves)
                reversi.apply_move(state, moves[np.random.randint(0, n)])
            elif by_policy:
                reversi.apply_move(
                    state, _policy_move(mine, theirs, policy, temperature)
                )
            else:
                reversi_rollout(state, 1)
            ply += 1
    return count


@njit(cache=True, nogil=True)
def _policy_move(mine, theirs, weights, temperature):
    """Return a move (its square) for ``mine`` to move, drawn with chances
    proportional to ``exp(value / temperature)`` of each move's 1-ply value
    by ``weights`` (the best always at temperature 0)."""
    squares = np.empty(64, dtype=np.int64)
    values = np.empty(64)
    count = _move_values(mine, theirs, weights, squares, values)
    best = values[:count].max()
    if temperature <= 0.0:
        for i in range(count):
            if values[i] == best:
                return squares[i]
    total = 0.0
    for i in range(count):
        values[i] = math.exp((values[i] - best) / temperature)
        total += values[i]
    pick = np.random.random() * total
    for i in range(count):
        pick -= values[i]
        if pick <= 0.0:
            return squares[i]
    return squares[count - 1]


@njit(cache=True, nogil=True)
def solve_labels(own, opp, labels):
    """Write the exact final margin of each position into ``labels``."""
    for i in range(own.shape[0]):
        margin, _, _ = solve_bitboards(own[i], opp[i], False, _SOLVE_TABLE_BITS)
        labels[i] = margin


@njit(cache=True, nogil=True)
def _child_value(own, opp, weights):
    """Return the value for the side to move of a child position: exact when
    the game is over, the pattern score otherwise (after a forced pass)."""
    if mobility(own, opp) == _ZERO:
        if mobility(opp, own) == _ZERO:
            return np.float64(final_margin(own, opp, False))
        return -pattern_score(opp, own, weights)
    return pattern_score(own, opp, weights)


@njit(cache=True, nogil=True)
def _move_values(mine, theirs, weights, squares, values):
    """Write each legal move of ``mine`` (to move) into ``squares`` and its
    1-ply value by ``weights`` into ``values``; return how many there are."""
    legal = mobility(mine, theirs)
    count = 0
    while legal:
        bit = lowest_bit(legal)
        legal ^= bit
        flipped = flips(bit, mine, theirs)
        squares[count] = bit_square(bit)
        values[count] = -_child_value(theirs & ~flipped, mine | bit | flipped, weights)
        count += 1
    return count


@njit(cache=True, nogil=True)
def bootstrap_labels(own, opp, weights, labels):
    """Write into ``labels`` each position's best 1-ply value by ``weights``."""
    squares = np.empty(64, dtype=np.int64)
    values = np.empty(64)
    for i in range(own.shape[0]):
        count = _move_values(own[i], opp[i], weights, squares, values)
        labels[i] = values[:count].max()


@njit(cache=True, nogil=True)
def _indices(own, opp, out):
    """Write the pattern indices of every position into the rows of ``out``."""
    row = np.empty(INSTANCES, dtype=np.int64)
    for i in range(own.shape[0]):
        pattern_indices(own[i], opp[i], row)
        for j in range(INSTANCES):
            out[i, j] = row[j]


@njit(cache=True, nogil=True)
def _predict(index, w, out):
    """out = X w: each position's bias plus the weights its instances index."""
    for i in range(index.shape[0]):
        total = w[BIAS]
        for j in range(index.shape[1]):
            total += w[index[i, j]]
        out[i] = total


@njit(cache=True, nogil=True)
def _spread(index, u, out):
    """out = X^T u."""
    out[:] = 0.0
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            out[index[i, j]] += u[i]
        out[BIAS] += u[i]


def fit_stage(
    index: np.ndarray, labels: np.ndarray, prior: np.ndarray, ridge: float = RIDGE
) -> np.ndarray:
    """Return the weights minimising ``|X w - labels|^2 + ridge |w - prior|^2``
    (X the positions' pattern indicators, ``index`` their indices), by
    conjugate gradients on the normal equations."""
    predicted = np.empty(len(labels))
    _predict(index, prior, predicted)
    return prior + _conjugate_gradients(index, labels - predicted, ridge, CG_STEPS)


@njit(cache=True, nogil=True)
def _dot(a, b):
    """Return the dot product of two float vectors (numba's np.dot needs scipy)."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


@njit(cache=True, nogil=True)
def _conjugate_gradients(index, target, ridge, steps):
    """Return d minimising ``|X d - target|^2 + ridge |d|^2`` after ``steps``
    conjugate-gradient steps from 0 (in numba: numpy's threaded vector
    operations crawled on the shared machine)."""
    n = STAGE_WEIGHTS
    residual = np.empty(n)
    _spread(index, target, residual)
    delta = np.zeros(n)
    direction = residual.copy()
    product = np.empty(n)
    predicted = np.empty(index.shape[0])
    norm = _dot(residual, residual)
    for _ in range(steps):
        if norm < 1e-12:
            break
        _predict(index, direction, predicted)
        _spread(index, predicted, product)
        product += ridge * direction
        step = norm / _dot(direction, product)
        delta += step * direction
        residual -= step * product
        new_norm = _dot(residual, residual)
        direction = residual + (new_norm / norm) * direction
        norm = new_norm
    return delta


def _parallel(function, arrays, out, workers: int, chunk: int, progress) -> None:
    """Run ``function(*chunks, out_chunk)`` over chunks of ``arrays`` on
    ``workers`` threads (numba releases the GIL), calling ``progress(n)``."""
    starts = range(0, len(out), chunk)

    def job(start):
        end = min(start + chunk, len(out))
        function(*(a[start:end] for a in arrays), out[start:end])
        return end - start

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in pool.map(job, starts):
            progress(done)


def train(
    *,
    positions: int,
    seed: int = 0,
    solve_empties: int = SOLVE_EMPTIES,
    workers: int = 1,
    bar: Callable[..., object] | None = None,
    checkpoint: Path | None = None,
    policy: PatternWeights | None = None,
    temperature: float = POLICY_TEMPERATURE,
    policy_share: float = 1.0,
) -> PatternWeights:
    """Generate about ``positions`` positions, label and fit them; return the
    weights with what the training measured (``fitted``). ``bar(total=,
    desc=)`` makes a progress bar (tqdm-like: ``update``, ``close``).

    With ``policy``, a ``policy_share`` of the self-play games is played by
    that evaluation (:func:`_policy_move` at ``temperature`` discs) instead
    of the rollout policy, so the positions look like those a search meets.

    With ``checkpoint`` (a file path), the labelled positions and each stage
    fitted are saved there as they are done, and a run with the same
    settings resumes from it; the file is removed at the end.
    """
    started = time.perf_counter()

    def progress(total, desc):
        return bar(total=total, desc=desc) if bar is not None else _NoBar()

    settings = np.array(
        [
            positions,
            seed,
            solve_empties,
            policy is not None,
            temperature * 1000,
            policy_share * 1000,
        ],
        dtype=np.int64,
    )
    saved = _resume(checkpoint, settings)
    if saved is None:
        table = no_patterns() if policy is None else policy.weights
        own, opp, game_of, games = _self_play(
            positions, seed, progress, table, temperature, policy_share
        )
        exact = _empties(own, opp) <= solve_empties
        labels = _exact_labels(own, opp, exact, workers, progress, solve_empties)
        weights = np.zeros((STAGES, STAGE_WEIGHTS))
        report: list[dict] = []
        solve_seconds = time.perf_counter() - started
    else:
        own, opp, game_of, labels, weights = (
            saved[key] for key in ("own", "opp", "game_of", "labels", "weights")
        )
        games = int(saved["games"])
        solve_seconds = float(saved["solve_seconds"])
        report = json.loads(str(saved["report"]))
        exact = _empties(own, opp) <= solve_empties
    stages = np.clip((_empties(own, opp) - 1) // STAGE_EMPTIES, 0, STAGES - 1)
    held = game_of % HOLDOUT_EVERY == 0
    meter = progress(STAGES, "fitting stages")
    meter.update(len(report))
    for stage in range(len(report), STAGES):
        mine = np.flatnonzero(stages == stage)
        weights[stage], row = _fit_one_stage(
            stage, weights, own[mine], opp[mine], labels[mine], exact[mine], held[mine]
        )
        report.append(row)
        if checkpoint is not None:
            _save(
                checkpoint,
                settings=settings,
                own=own,
                opp=opp,
                game_of=game_of,
                labels=labels,
                weights=weights,
                games=np.int64(games),
                solve_seconds=np.float64(solve_seconds),
                report=np.str_(json.dumps(report)),
            )
        meter.update(1)
    meter.close()
    if checkpoint is not None:
        checkpoint.unlink(missing_ok=True)
    fitted = {
        "positions": int(positions),
        "games": int(games),
        "seed": int(seed),
        "solve_empties": int(solve_empties),
        "ridge": RIDGE,
        "bootstrap_rounds": BOOTSTRAP_ROUNDS,
        "played_by": "rollouts"
        if policy is None
        else f"patterns, {temperature} discs, {policy_share:.0%} of the games",
        "seconds_solving": round(solve_seconds, 1),
        "seconds": round(time.perf_counter() - started, 1),
        "stages": report,
    }
    return PatternWeights(weights.astype(np.float32), fitted=fitted)


def _empties(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """Return the empty squares of each position."""
    return 64 - np.array([popcount(x) for x in own | opp], dtype=np.int64)


def _self_play(positions: int, seed: int, progress, policy, temperature, share):
    """Return (own, opp, game number, games played) of ``positions`` positions."""
    own = np.empty(positions, dtype=np.uint64)
    opp = np.empty(positions, dtype=np.uint64)
    game_of = np.empty(positions, dtype=np.int64)
    count = games = 0
    meter = progress(positions, "self-play positions")
    while count < positions:
        got = play_games(
            100,
            seed * 1_000_003 + games,
            games,
            Positions(own[count:], opp[count:], game_of[count:]),
            policy,
            temperature,
            share,
        )
        count += got
        games += 100
        meter.update(got)
    meter.close()
    return own, opp, game_of, games


def _exact_labels(own, opp, exact, workers, progress, solve_empties) -> np.ndarray:
    """Return labels holding the exact margin of the ``exact`` positions."""
    labels = np.zeros(len(own))
    solved = np.flatnonzero(exact)
    # Solve the hardest first so the threads finish together.
    empties = _empties(own[solved], opp[solved])
    solved = solved[np.argsort(-empties, kind="stable")]
    solved_labels = np.empty(len(solved))
    meter = progress(len(solved), f"exact labels (<= {solve_empties} empties)")
    _parallel(
        solve_labels,
        (own[solved], opp[solved]),
        solved_labels,
        workers,
        256,
        meter.update,
    )
    meter.close()
    labels[solved] = solved_labels
    return labels


def _fit_one_stage(stage, weights, own, opp, labels, exact, held):
    """Return (the weights of ``stage``, its report row), given the positions
    of the stage and the weights of the stages before it."""
    prior = weights[stage - 1] if stage > 0 else np.zeros(STAGE_WEIGHTS)
    index = np.empty((len(own), INSTANCES), dtype=np.int64)
    _indices(own, opp, index)
    rounds = 1 if exact.all() else BOOTSTRAP_ROUNDS
    weights[stage] = prior
    stage_labels = labels
    for _ in range(rounds):
        table = weights.astype(np.float32)
        stage_labels = labels.copy()
        guess = ~exact
        found = np.empty(int(guess.sum()))
        bootstrap_labels(own[guess], opp[guess], table, found)
        stage_labels[guess] = found
        weights[stage] = fit_stage(index[~held], stage_labels[~held], prior)
    predicted = np.empty(len(own))
    _predict(index, weights[stage], predicted)
    error = predicted - stage_labels
    row = {
        "stage": stage,
        "empties": [stage * STAGE_EMPTIES + 1, (stage + 1) * STAGE_EMPTIES],
        "positions": int(len(own)),
        "exact": int(exact.sum()),
        "train_rmse": _rmse(error[~held]),
        "holdout_rmse": _rmse(error[held]),
        "label_sd": round(float(np.std(stage_labels)), 2),
    }
    return weights[stage], row


def _resume(checkpoint: Path | None, settings: np.ndarray):
    """Return the saved arrays of ``checkpoint`` if it exists, else None;
    ValueError if it was made with other settings."""
    if checkpoint is None or not checkpoint.exists():
        return None
    saved = dict(np.load(checkpoint, allow_pickle=False))
    if not np.array_equal(saved["settings"], settings):
        raise ValueError(
            f"{checkpoint} was made with other settings (positions, seed, "
            f"solve empties = {saved['settings'].tolist()}); remove it or match them"
        )
    return saved


def _save(path: Path, **arrays) -> None:
    """Write ``arrays`` to ``path`` atomically."""
    temp = path.with_name(path.name + ".tmp.npz")
    np.savez(temp, **arrays)
    os.replace(temp, path)


def _rmse(error: np.ndarray) -> float:
    """Return the root mean square of ``error``, rounded to 0.01 (0 if empty)."""
    return round(float(np.sqrt(np.mean(error**2))), 2) if len(error) else 0.0


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

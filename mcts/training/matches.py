"""The training's games, played in this process or in worker processes:
self-play games of the current network and the matches of its gates.

Each game is a picklable task (the game by name and options, networks by
their weights) run by a top-level function, so that ``train-net --workers N``
plays N games at once in spawned processes; this module needs no deep-learning
library, so the workers do not load one. The same task gives the same game
wherever it runs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ..games import find_game
from ..games.base import Game
from ..play.arena import play_game
from ..play.base import Player
from ..play.openings import OPENING_PLIES, random_opening
from ..play.players import Level, MctsPlayer, find_player
from ..search.gomoku.net_search import NetSearcher
from ..search.gomoku.network import NetworkWeights
from .examples import GameRecord
from .examples import play_game as selfplay_game

Task = TypeVar("Task")
Result = TypeVar("Result")


@contextmanager
def worker_pool(workers: int) -> Iterator[Executor | None]:
    """Yield a pool of ``workers`` spawned processes, or None for one worker
    (every game in this process). Spawned, not forked: numba's runtime and
    the training library's threads are not fork-safe."""
    if workers <= 1:
        yield None
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield pool


def run_all(
    pool: Executor | None, work: Callable[[Task], Result], tasks: Iterable[Task]
) -> list[Result]:
    """Return ``work(task)`` of each task, in order (in the pool if any)."""
    if pool is None:
        return [work(task) for task in tasks]
    return list(pool.map(work, tasks))


@dataclass(frozen=True)
class SelfPlayTask:
    """One self-play game of the network ``weights``."""

    game: str
    options: dict
    weights: NetworkWeights
    simulations: int
    sample_plies: int
    noise: tuple[float, float]
    seed: int
    search_value: float = 0.0


def play_selfplay(task: SelfPlayTask) -> GameRecord:
    """Play the task's self-play game; return its record."""
    return selfplay_game(
        find_game(task.game, **task.options),
        task.weights,
        simulations=task.simulations,
        sample_plies=task.sample_plies,
        noise=task.noise,
        seed=task.seed,
        search_value=task.search_value,
    )


@dataclass(frozen=True)
class Side:
    """One side of a match: a network at ``simulations`` a move, or a player
    ``spec`` (plain MCTS: ``mcts:sims=1000``)."""

    weights: NetworkWeights | None = None
    simulations: int = 0
    spec: str = ""

    def player(self, game: Game, seed: int) -> Player:
        """Return the side's player for one game."""
        if self.weights is None:
            return find_player(self.spec, game, seed=seed)
        return net_player(game, self.weights, self.simulations, seed)


def net_player(
    game: Game, weights: NetworkWeights, simulations: int, seed: int
) -> Player:
    """Return a player that searches ``simulations`` a move with ``weights``."""
    searcher = NetSearcher(game, network=weights, seed=seed)
    return MctsPlayer(
        game, searcher, level=Level(simulations=simulations), name="mcts-net"
    )


@dataclass(frozen=True)
class MatchGame:
    """One game of a match of A against B from ``opening``."""

    game: str
    options: dict
    a: Side
    b: Side
    a_black: bool
    opening: tuple[int, ...]
    seeds: tuple[int, int]


def play_match_game(task: MatchGame) -> float:
    """Play the task's game; return A's points (a draw half)."""
    game = find_game(task.game, **task.options)
    a, b = task.a.player(game, task.seeds[0]), task.b.player(game, task.seeds[1])
    black, white = (a, b) if task.a_black else (b, a)
    winner, _, _ = play_game(game, black, white, list(task.opening))
    a_colour = "black" if task.a_black else "white"
    return 0.5 if winner is None else float(winner == a_colour)


def match(
    game: Game,
    a: Side,
    b: Side,
    *,
    games: int,
    seed: int,
    pool: Executor | None = None,
) -> float:
    """Return A's score against B over ``games`` games: each pair of games
    from the same short random opening, colours swapped, as the arena plays
    them (in ``pool``'s processes if given)."""
    rng = np.random.default_rng(seed)
    tasks = []
    opening: list[int] = []
    for number in range(games):
        if number % 2 == 0:
            opening = random_opening(game, OPENING_PLIES[game.name], rng)
        seeds = (int(rng.integers(2**31)), int(rng.integers(2**31)))
        tasks.append(
            MatchGame(
                game.name,
                dict(game.options),
                a,
                b,
                number % 2 == 0,
                tuple(opening),
                seeds,
            )
        )
    return sum(run_all(pool, play_match_game, tasks)) / games

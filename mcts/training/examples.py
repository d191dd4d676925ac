"""Training examples from self-play games of the network player.

Each position of a game gives one example: the network's input planes, the
search's visit distribution over the board (the policy target) and the
game's result for the player to move (the value target: +1 won, -1 lost,
0 drawn), or with ``search_value`` above 0 a mix of that result and the
search's own value of the position (-1..1), weighted ``search_value``: in a
game that is mostly drawn, as small boards are between good players, the
result alone says 0 of nearly every position, the search's value says which
of them were dangerous. :func:`augment` multiplies them by the board's
eight symmetries.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.base import Game
from ..games.symmetry import square_maps
from ..search.gomoku.net_search import NetSearch, NetSearcher
from ..search.gomoku.network import NetworkWeights, encode


@dataclass(frozen=True)
class Examples:
    """A batch of examples: ``planes`` (N, 4, n, n), ``policies`` (N, n * n)
    and ``values`` (N,), float32."""

    planes: np.ndarray
    policies: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    def latest(self, limit: int) -> Examples:
        """Return the last ``limit`` examples (all if there are fewer)."""
        if len(self) <= limit:
            return self
        return Examples(
            self.planes[-limit:], self.policies[-limit:], self.values[-limit:]
        )

    @staticmethod
    def join(parts: list[Examples]) -> Examples:
        """Return the examples of ``parts`` one after the other."""
        return Examples(
            np.concatenate([p.planes for p in parts]),
            np.concatenate([p.policies for p in parts]),
            np.concatenate([p.values for p in parts]),
        )


@dataclass(frozen=True)
class GameRecord:
    """A finished self-play game: its moves, the winner (``"black"``,
    ``"white"`` or None) and its examples (not yet augmented)."""

    moves: list[int]
    winner: str | None
    examples: Examples


def play_game(
    game: Game,
    weights: NetworkWeights,
    *,
    simulations: int,
    sample_plies: int,
    noise: tuple[float, float],
    seed: int,
    search_value: float = 0.0,
) -> GameRecord:
    """Play one self-play game with ``weights``: each move a search of
    ``simulations`` with Dirichlet ``noise`` at the root, the first
    ``sample_plies`` moves sampled in proportion to visits, the rest the
    most visited; return its record, each value target the game's result
    mixed with the search's value at weight ``search_value`` (0..1)."""
    if not 0.0 <= search_value <= 1.0:
        raise ValueError(f"search_value must be 0..1, got {search_value!r}")
    rng = np.random.default_rng(seed)
    searcher = NetSearcher(
        game,
        network=weights,
        settings=NetSearch(noise=noise),
        seed=int(rng.integers(2**31)),
    )
    cells = weights.size * weights.size
    state = game.initial_state()
    planes: list[np.ndarray] = []
    policies: list[np.ndarray] = []
    movers: list[str] = []
    searched: list[float] = []
    moves: list[int] = []
    while not game.is_terminal(state):
        result = searcher.search(
            simulations=simulations,
            temperature=1.0 if len(moves) < sample_plies else 0.0,
        )
        policy = np.zeros(cells, dtype=np.float32)
        for stats in result.moves:
            policy[stats.code] = stats.visits
        if policy.sum() == 0:  # a threat found at the root: no simulation ran
            policy[result.code] = 1.0
        planes.append(encode(state.array, searcher.last_move))
        policies.append(policy / policy.sum())
        movers.append(game.to_move(state))
        searched.append(2.0 * result.value - 1.0)  # a win probability to -1..1
        moves.append(result.code)
        searcher.advance(result.code)
        state = searcher.state
    outcome = game.outcome(state)
    assert outcome is not None  # the game is over
    winner = outcome.winner
    results = np.array(
        [0.0 if winner is None else (1.0 if m == winner else -1.0) for m in movers]
    )
    values = (1.0 - search_value) * results + search_value * np.array(searched)
    return GameRecord(
        moves,
        winner,
        Examples(np.stack(planes), np.stack(policies), values.astype(np.float32)),
    )


def augment(examples: Examples, size: int) -> Examples:
    """Return the examples in each of the board's eight orientations (the
    identity first): a position turned or mirrored has the same value and
    its moves turned the same way."""
    count = len(examples)
    flat_planes = examples.planes.reshape(count, examples.planes.shape[1], -1)
    parts = []
    for image in square_maps(size):
        planes = np.empty_like(flat_planes)
        planes[:, :, image] = flat_planes
        policies = np.empty_like(examples.policies)
        policies[:, image] = examples.policies
        parts.append(
            Examples(planes.reshape(examples.planes.shape), policies, examples.values)
        )
    return Examples.join(parts)

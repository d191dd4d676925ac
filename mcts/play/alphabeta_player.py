"""The alpha-beta player (spec ``alphabeta``, Gomoku with rows of at most
:data:`~mcts.search.gomoku.alphabeta.MAX_ROW` in freestyle, and of at most
:data:`~mcts.search.gomoku.patterns.MAX_EXACT_ROW` under the standard rule
and renju): plays the move
:func:`mcts.search.gomoku.alphabeta.think` finds in its think time, by a
tree model's fitted shape weights or the hand-set ones."""

from __future__ import annotations

from ..games import gomoku
from ..games.base import Game, State
from ..search.gomoku.alphabeta import MAX_ROW, new_search, think, use_weights
from ..search.gomoku.patterns import MAX_EXACT_ROW
from ..search.gomoku.weights import HAND_WEIGHTS, ShapeWeights
from .base import Player


class AlphaBetaPlayer(Player):
    """Plays the best move of an iterative-deepening alpha-beta search."""

    #: Think time a move (the engine protocols lower it to their clock).
    seconds: float

    def __init__(
        self,
        game: Game,
        *,
        seconds: float,
        weights: ShapeWeights = HAND_WEIGHTS,
        name: str = "alphabeta",
    ) -> None:
        if game.name != "gomoku":
            raise ValueError("the alphabeta player plays Gomoku only")
        rule = game.options["rule"]
        longest = MAX_ROW if rule == "freestyle" else MAX_EXACT_ROW
        if game.options["row"] > longest:
            raise ValueError(
                f"the alphabeta player plays rows of at most {longest} in {rule}"
            )
        self.game = game
        self.name = name
        self.seconds = seconds
        size, row = game.options["size"], game.options["row"]
        self._board = new_search(size, row, gomoku.RULES[rule])
        use_weights(self._board, weights)
        # Compile the search (or load it from numba's cache) now, not in
        # the first move's time.
        think(self._board, game.initial_state().array, 0.001)

    def choose(self, state: State) -> int:
        """Search ``state`` for the think time; return the move code."""
        move, _value, _depth, _nodes = think(self._board, state.array, self.seconds)
        return move

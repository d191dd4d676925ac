"""What Reversi's search needs to know: its typed record."""

from __future__ import annotations

from typing import NamedTuple

#: Empty squares at which a new leaf is solved exactly: a 10-empty solve
#: takes about 0.4 ms (at most about 1 ms) on one core, the price of some 40
#: heavy rollouts, for an exact result that is never recomputed; at 12
#: empties it is 2 ms, at 14 14 ms (random positions, measured with
#: ``mcts.search.reversi.endgame.solve_bitboards``).
ENDGAME_EMPTIES = 10
#: The most empties a leaf solve may take on: beyond it one solve could hold
#: a chunk of the search (and the stop flag) for a long time.
MAX_LEAF_EMPTIES = 14
#: The exploration constant while the pattern evaluation scores the leaves:
#: against 0.6, 200 games at 0.1 s a move with the light model, c = 0.35
#: scored 57.0% +- 6.6 and c = 0.2 54.0% +- 6.7 (docs/experiments).
PATTERN_C = 0.35
#: The weight of the implicit minimax values (the best evaluation backed up
#: the tree, see :func:`mcts.search.kernel._back_up_minimax`) in selection
#: while the pattern evaluation scores the leaves. With the light model at
#: 1 s a move, 0.3 scored 62.5% +- 14.4 against 0 (40 games) and 50.6%
#: against NTest depth 8 where 0 scored 36.2% (80 games each); at 0.1 s it
#: is even (51.0% +- 6.7, 200 games) and 0.6 lost (36%; docs/experiments).
#: It costs about a fifth of the simulations.
PATTERN_MINIMAX = 0.3


class ReversiSearch(NamedTuple):
    """Reversi's search settings."""

    #: A new leaf with at most this many empty squares is solved exactly
    #: and proven instead of played out (0: never).
    endgame_empties: int = ENDGAME_EMPTIES
    #: The weight, 0..1, of the minimax values in selection while a model's
    #: pattern evaluation scores the leaves (without one: 0).
    minimax: float = PATTERN_MINIMAX

    def check(self) -> None:
        """Raise ValueError naming the setting that is out of range."""
        if not 0 <= self.endgame_empties <= MAX_LEAF_EMPTIES:
            raise ValueError(
                f"endgame_empties must be 0..{MAX_LEAF_EMPTIES}, "
                f"got {self.endgame_empties}"
            )
        if not 0 <= self.minimax <= 1:
            raise ValueError(f"minimax must be 0..1, got {self.minimax!r}")

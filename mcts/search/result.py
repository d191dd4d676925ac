"""What a search returns: an immutable, JSON-ready summary of the root.

The page, the CLI and the tests all read a :class:`SearchResult`; none of them
looks into the tree arrays.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveStats:
    """The search's statistics for one legal root move.

    ``value`` is the mean score for the side to move at the root (win 1,
    draw 0.5, loss 0), ``None`` while the move has no visit; ``proven`` is
    ``"win"``, ``"loss"``, ``"draw"`` (for the side to move) or ``None``.
    """

    move: str
    code: int
    visits: int
    value: float | None
    proven: str | None

    def to_json(self) -> dict:
        """Return the statistics as a JSON-ready dict."""
        return {
            "move": self.move,
            "code": self.code,
            "visits": self.visits,
            "value": None if self.value is None else round(self.value, 4),
            "proven": self.proven,
        }


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a root position.

    - ``move`` / ``code``: the chosen move in notation and as a move code.
    - ``side``: ``"black"`` or ``"white"``, the side to move at the root.
    - ``moves``: one :class:`MoveStats` per legal root move, most visits first.
    - ``value``: the root's expected score for the side to move, read as a win
      probability (a draw counts half); exact (1, 0.5, 0) once proven.
    - ``proven``: ``"win"``, ``"loss"``, ``"draw"`` for the side to move, or
      None; a proof that holds against every reply.
    - ``found``: the same as the search's tree has it, which ends the search:
      ``proven``, or a Gomoku result that a reply the search's focus left out
      might still refute (:mod:`mcts.search.proof_check`).
    - ``pv``: the principal variation, up to 10 plies, in notation.
    - ``simulations``: simulations run by this search; ``root_visits`` counts
      those kept from earlier searches too (tree reuse).
    - ``elapsed``: wall-clock seconds of the search; ``nodes``: tree size.
    """

    move: str
    code: int
    side: str
    moves: tuple[MoveStats, ...]
    value: float
    proven: str | None
    found: str | None
    pv: tuple[str, ...]
    simulations: int
    root_visits: int
    elapsed: float
    nodes: int

    def to_json(self) -> dict:
        """Return the whole result as a JSON-ready dict."""
        return {
            "move": self.move,
            "code": self.code,
            "side": self.side,
            "moves": [stats.to_json() for stats in self.moves],
            "value": round(self.value, 4),
            "proven": self.proven,
            "found": self.found,
            "pv": list(self.pv),
            "simulations": self.simulations,
            "root_visits": self.root_visits,
            "elapsed": round(self.elapsed, 4),
            "nodes": self.nodes,
        }

    def stats_for(self, move: str) -> MoveStats:
        """Return the MoveStats of the root move ``move`` (KeyError if absent)."""
        for stats in self.moves:
            if stats.move == move:
                return stats
        raise KeyError(move)

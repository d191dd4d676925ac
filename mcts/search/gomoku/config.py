"""What Gomoku's search needs to know: its typed record."""

from __future__ import annotations

from typing import NamedTuple

from .alphabeta import MAX_ROW as ALPHABETA_MAX_ROW
from .focus import GOMOKU_FOCUS_WIDTH, GOMOKU_ROOT_WIDTH
from .patterns import MAX_EXACT_ROW
from .threats.root import DEEP_VCT_NODES_PER_SECOND
from .threats.vct import LEAF_VCT_NODES

#: Line shapes with heavy rollouts: 2 (focus and leaves) scored 70.0% +-
#: 10.4 against none, 1 (focus only) 43.8% +- 12.2 (40 games each at 0.1 s
#: a move from the start, with the light model and threat search;
#: docs/experiments).
GOMOKU_SHAPES = 2
#: The share of a timed move's think time that the alpha-beta search
#: (:mod:`mcts.search.gomoku.alphabeta`) spends choosing the move before the
#: tree search grows the tree in the rest. The alpha-beta alone scored
#: 73.8% +- 13.6 against the tree search alone at 1 s a move
#: (docs/experiments).
GOMOKU_ALPHABETA_SHARE = 0.8


class GomokuSearch(NamedTuple):
    """Gomoku's search settings; :meth:`plain` has none of its knowledge."""

    #: The most moves focus keeps at a tree node, the best by the line
    #: shapes they make and block (0: focus off, every legal move).
    focus_width: int = GOMOKU_FOCUS_WIDTH
    #: The same at the root (at least ``focus_width``); a root that an
    #: earlier search or a tree model expanded narrower is widened.
    root_width: int = GOMOKU_ROOT_WIDTH
    #: Threat search: a VCF at the root is played at once, an opponent's VCF
    #: restricts the root to the moves that block it, and new leaves are
    #: proven by a small VCF search.
    threats: bool = True
    #: VCF nodes of a VCT of one three that also proves new leaves (0: none).
    vct_nodes: int = LEAF_VCT_NODES
    #: VCF nodes a second of a move spends on deeper VCTs at the root.
    deep_vct: int = DEEP_VCT_NODES_PER_SECOND
    #: 1 ranks the moves focus keeps by their line shapes, 2 also scores
    #: quiet leaves by them (0: neither).
    shapes: int = GOMOKU_SHAPES
    #: A search that stopped on a root proof that does not hold for every
    #: reply searches on with strict proofs.
    recheck: bool = True
    #: The share of a timed move the alpha-beta spends choosing it, on
    #: boards whose row is at most six (0: the tree search chooses).
    alphabeta: float = GOMOKU_ALPHABETA_SHARE

    @classmethod
    def plain(cls) -> GomokuSearch:
        """Return the settings of a search with random rollouts: no focus,
        threats, shapes or alpha-beta."""
        return cls(focus_width=0, root_width=0, threats=False, shapes=0, alphabeta=0.0)

    def for_board(self, row: int, rule: str = "freestyle") -> GomokuSearch:
        """Return these settings for a game of ``row`` in a row under
        ``rule``: the alpha-beta plays rows of at most six in freestyle and
        of at most five under the standard rule and renju, whose exact rows
        its pattern board reads with a wider window (:mod:`.patterns`). The
        threat search reads each rule (:mod:`.threats`); focus and the
        shapes only rank the kernels' legal moves and score leaves."""
        longest = ALPHABETA_MAX_ROW if rule == "freestyle" else MAX_EXACT_ROW
        if row > longest:
            return self._replace(alphabeta=0.0)
        return self

    def check(self, row: int) -> None:
        """Raise ValueError naming the setting that is out of range."""
        if self.focus_width < 0 or self.root_width < self.focus_width:
            raise ValueError(
                f"root_width ({self.root_width}) must be at least focus_width "
                f"({self.focus_width}), and both >= 0"
            )
        if self.vct_nodes < 0 or self.deep_vct < 0:
            raise ValueError("vct_nodes and deep_vct must be >= 0")
        if self.shapes not in (0, 1, 2):
            raise ValueError(f"shapes must be 0, 1 or 2, got {self.shapes!r}")
        if not 0 <= self.alphabeta <= 1:
            raise ValueError(f"alphabeta must be 0..1, got {self.alphabeta!r}")
        if self.alphabeta and row > ALPHABETA_MAX_ROW:
            raise ValueError(
                f"the alpha-beta search plays Gomoku with rows of at most "
                f"{ALPHABETA_MAX_ROW}, not {row}"
            )

"""How a search is configured: one typed record, :class:`SearchConfig`.

The generic part (evaluator, exploration constant, selection rule) is the
same for every game; what the game's knowledge needs lives in the game's own
record, in its package: :class:`~mcts.search.reversi.config.ReversiSearch`,
:class:`~mcts.search.gomoku.config.GomokuSearch` and
:class:`~mcts.search.loa.config.LoaSearch`. :func:`game_settings` is the one
place that picks a game's record.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.base import Game
from .gomoku.config import GomokuSearch
from .loa.config import LoaSearch
from .reversi.config import ReversiSearch

#: What a game's knowledge needs, one record per game.
GameSettings = ReversiSearch | GomokuSearch | LoaSearch
#: The leaf evaluators: the game's heavy rollouts (with its knowledge) or
#: uniformly random playouts (none of it).
EVALUATORS = ("heavy", "random")
#: Selection rules: UCT (UCB1), or PUCT with a prior (the network search).
RULES = ("uct", "puct")


@dataclass(frozen=True)
class SearchConfig:
    """A search's configuration.

    ``evaluator``: ``"heavy"`` (the game's heavy rollouts and knowledge) or
    ``"random"``; ``c``: the exploration constant (None: the game's tuned
    value, see :attr:`mcts.search.searcher.Searcher.c`); ``rule``:
    ``"uct"`` or ``"puct"``; ``expand_visits``: the visits a leaf needs
    before it is expanded (None: 1 plus the root's tree moves over 32);
    ``game``: the game's record (None: :func:`game_settings` for the
    evaluator).
    """

    evaluator: str = "heavy"
    c: float | None = None
    rule: str = "uct"
    expand_visits: int | None = None
    game: GameSettings | None = None

    def check(self) -> None:
        """Raise ValueError naming the setting that is out of range."""
        if self.evaluator not in EVALUATORS:
            raise ValueError(
                f"unknown evaluator {self.evaluator!r}; expected one of "
                f"{', '.join(EVALUATORS)}"
            )
        if self.rule not in RULES:
            raise ValueError(
                f"unknown selection rule {self.rule!r}; expected one of "
                f"{', '.join(RULES)}"
            )
        if self.c is not None and not self.c >= 0:
            raise ValueError(f"the exploration constant c must be >= 0, got {self.c!r}")


def game_settings(game: Game, evaluator: str) -> GameSettings:
    """Return the default record of ``game``'s knowledge for ``evaluator``:
    the heavy evaluator uses all of it, the random one none."""
    heavy = evaluator == "heavy"
    if game.name == "reversi":
        return ReversiSearch()
    if game.name == "gomoku":
        settings = GomokuSearch() if heavy else GomokuSearch.plain()
        return settings.for_board(game.options["row"], game.options["rule"])
    if game.name == "loa":
        return LoaSearch()
    raise ValueError(f"no search settings for {game.name}")

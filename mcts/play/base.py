"""What every player is: :class:`Player` (choose a move, observe the moves
played), :class:`Forfeit` (a player that cannot give a legal move loses the
game) and :class:`History` (the moves since a known position, which the
engine protocols send to an external program)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from ..games.base import Game, State
from ..search.result import SearchResult


class Forfeit(Exception):
    """A player gave no legal move (an external engine answered garbage, an
    illegal move, nothing in time, or exited): it loses the game, and the
    message says why."""


class Player(ABC):
    """Base class: chooses moves; ``last_result`` holds the latest SearchResult."""

    name = "player"
    last_result: SearchResult | None = None
    #: Think time a move in seconds, for a player that searches for a time
    #: (None: it does not, e.g. a fixed number of simulations); the engine
    #: protocols lower it to what the clock allows.
    seconds: float | None = None

    @abstractmethod
    def choose(self, state: State) -> int:
        """Return the move code to play in ``state`` (which is not over).

        Raises :class:`Forfeit` if the player has no legal move to give."""

    def observe(self, state: State, move: int) -> None:  # noqa: B027 (a hook)
        """Take note that ``move`` was played in ``state`` (by either side);
        players that keep no tree between moves have nothing to do."""

    def close(self) -> None:  # noqa: B027 (a hook)
        """Free what the player holds outside Python (an engine process)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class History:
    """A known position (``base``) and the move codes played since, kept up to
    date from :meth:`Player.observe` calls.

    When a move arrives in a position that is not the current one (the game
    was set up some other way), the history restarts from that position.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.base: State = game.initial_state()
        self.moves: list[int] = []
        self.current: State = self.base

    def observe(self, state: State, move: int) -> None:
        """Record ``move`` played in ``state``."""
        self.sync(state)
        self.moves.append(move)
        self.current = self.game.apply(state, move)

    def sync(self, state: State) -> None:
        """Restart from ``state`` unless it is the current position."""
        if state != self.current:
            self.base, self.moves, self.current = state, [], state

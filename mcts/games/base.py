"""The Game protocol shared by every game, and its small value types.

A game is rules plus notation. The rules' hot parts are numba kernels that work
on a *state vector*: a flat ``numpy.uint64`` array whose layout each game module
documents. Every game module provides the same four kernels (plain ``@njit``
functions, so that :mod:`mcts.games.kernels` can dispatch on a game id and numba
can cache the compiled code):

- ``legal_moves(state, out) -> int``: writes the move codes into ``out`` (an
  ``int64`` array of at least :data:`MAX_MOVES`) and returns their count; zero
  when the game is over. A forced pass is a single move code, the game's ``PASS``.
- ``apply_move(state, move)``: plays a legal move *in place*.
- ``status(state) -> int``: :data:`ONGOING`, :data:`BLACK_WINS`,
  :data:`WHITE_WINS` or :data:`DRAW`, from the position alone.
- ``side_to_move(state) -> int``: :data:`BLACK` (0) or :data:`WHITE` (1).

The Python layer (:class:`Game` and :class:`State`) never mutates a state that
someone else holds: :meth:`Game.apply` copies, then runs the kernel on the copy.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

BLACK = 0
WHITE = 1
COLOR_NAMES = ("black", "white")

ONGOING = 0
BLACK_WINS = 1
WHITE_WINS = 2
DRAW = 3

#: Size of the move buffer every ``legal_moves`` kernel may fill (19x19 Gomoku).
MAX_MOVES = 512


#: Bytes enough for the longest state string (Gomoku 19x19: 369).
STATE_STRING_ROOM = 384


class InvalidMoveError(ValueError):
    """A move text that is not well formed in the game's notation."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidStateError(ValueError):
    """A compact state string that cannot be parsed into a position."""


class InvalidOptionsError(ValueError):
    """Game options (board size, row length, rule variants) out of range."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is ``"black"``, ``"white"`` or ``None`` for a draw, so a draw and
    a game still in progress (no Outcome at all) never share a value.
    ``reason`` is a short phrase such as ``"five in a row"`` and ``score`` holds
    the disc count for Reversi (``{"black": 40, "white": 24}``), else ``None``.
    """

    winner: str | None
    reason: str
    score: dict[str, int] | None = None

    def to_json(self) -> dict:
        """Return the outcome as a JSON-ready dict."""
        return {"winner": self.winner, "reason": self.reason, "score": self.score}


@dataclass(frozen=True, eq=False)
class State:
    """An immutable position: the state vector plus what the vector cannot hold.

    ``history`` lists the keys (``bytes``) of earlier positions that could
    still recur; only games with a repetition rule (Lines of Action) fill it.
    Use the :class:`Game` methods to read or advance a state.
    """

    array: np.ndarray
    history: tuple[bytes, ...] = field(default=())

    def __post_init__(self) -> None:
        self.array.flags.writeable = False

    def key(self) -> bytes:
        """Return a hashable key of the position (board and side to move)."""
        return self.array.tobytes()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.key() == other.key()
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash((self.key(), self.history))


class Game(ABC):
    """Base class of the three games: the protocol the search, CLI and web use.

    A subclass sets the class attributes below and implements the notation
    methods; everything else is shared. Moves are ``int`` codes inside the
    library; text appears only at the edges (:meth:`parse_move`,
    :meth:`format_move`).
    """

    #: Registry name, e.g. ``"reversi"``.
    name: ClassVar[str]
    #: Display name, e.g. ``"Lines of Action"``.
    title: ClassVar[str]
    #: What each option accepts, JSON-ready, in the order of the options:
    #: ``{"type": "integer", "min": 5, "max": 19}`` (``max`` may name another
    #: option, as Gomoku's ``row`` does with ``"size"``) or ``{"type":
    #: "choice", "choices": [...]}`` (the first is the default).
    #: :meth:`check_options` enforces the same limits.
    option_specs: ClassVar[dict[str, dict]] = {}
    #: Where rank 1 is drawn: at the top for Othello notation (rows counted
    #: downward), at the bottom for renju and chess notation (rows upward).
    rank_one_on_top: ClassVar[bool] = False
    #: Numeric id used by :mod:`mcts.games.kernels` to dispatch.
    game_id: ClassVar[int]
    #: The move code of a pass, or -1 if the game has no passes.
    PASS: ClassVar[int] = -1

    def __init__(self, **options) -> None:
        self.options: dict = self.check_options(**options)

    # ---- to implement in each game -------------------------------------------------
    @classmethod
    def check_options(cls, **options) -> dict:
        """Return the full, validated options dict; raise InvalidOptionsError."""
        if options:
            raise InvalidOptionsError(
                f"{cls.name} takes no options, got {sorted(options)}"
            )
        return {}

    @abstractmethod
    def initial_array(self) -> np.ndarray:
        """Return a fresh state vector of the start position."""

    @abstractmethod
    def format_move(self, state: State, move: int) -> str:
        """Return the notation of ``move`` (a legal move code in ``state``)."""

    @abstractmethod
    def parse_move_text(self, state: State, text: str) -> int:
        """Return the move code that ``text`` denotes, or raise InvalidMoveError.

        Only the form is checked here; :meth:`parse_move` checks legality.
        """

    def state_string(self, state: State) -> str:
        """Return the one-line compact string of the position (its form is
        the game's ``render_state`` kernel's, which the model check shares)."""
        out = np.empty(STATE_STRING_ROOM, dtype=np.uint8)
        length = self._kernels().render_state(state.array, out)
        return out[:length].tobytes().decode()

    @abstractmethod
    def parse_state(self, text: str) -> State:
        """Return the state a compact string denotes, or raise InvalidStateError."""

    @abstractmethod
    def board_text(self, state: State) -> str:
        """Return a multi-line text picture of the board with coordinates."""

    @abstractmethod
    def _kernels(self):
        """Return the game's kernel module (with legal_moves, apply_move, ...)."""

    # ---- shared behaviour ---------------------------------------------------------
    @abstractmethod
    def symmetries(self) -> tuple[np.ndarray, ...]:
        """Return the square maps under which the rules are unchanged, the
        identity first (see :mod:`mcts.games.symmetry`)."""

    @abstractmethod
    def map_state(self, state: State, image: np.ndarray) -> State:
        """Return ``state`` with every piece moved by the square map ``image``
        (the repetition history is left behind)."""

    @abstractmethod
    def move_map(self, image: np.ndarray) -> np.ndarray:
        """Return the table that maps every move code to its image under the
        square map ``image`` (a pass to itself)."""

    def initial_state(self) -> State:
        """Return the start position."""
        return State(self.initial_array())

    def legal_moves(self, state: State) -> list[int]:
        """Return the legal move codes: ``[PASS]`` if forced, ``[]`` at the end."""
        if self._repetition_draw(state):
            return []
        out = np.empty(MAX_MOVES, dtype=np.int64)
        n = self._kernels().legal_moves(state.array, out)
        return [int(m) for m in out[:n]]

    def legal_move_texts(self, state: State) -> list[str]:
        """Return the legal moves in notation, in the kernel's order."""
        return [self.format_move(state, m) for m in self.legal_moves(state)]

    def apply(self, state: State, move: int) -> State:
        """Return the state after the legal move code ``move``; ``state`` is unchanged.

        Raises IllegalMoveError if ``move`` is not legal here.
        """
        legal = self.legal_moves(state)
        if move not in legal:
            why = self._illegal_reason(state, move)
            if why:
                raise IllegalMoveError(f"move code {move} is not legal here: {why}")
            raise IllegalMoveError(
                f"move code {move} is not legal here; legal moves: "
                + self._describe_legal(state, legal)
            )
        return self._apply_unchecked(state, move)

    def _illegal_reason(self, state: State, move: int) -> str | None:
        """Return why the move code ``move``, which is not legal in ``state``,
        is refused when the rules name a reason (renju's forbidden points),
        else None (the refusal then lists the legal moves)."""
        return None

    def _apply_unchecked(self, state: State, move: int) -> State:
        array = state.array.copy()
        self._kernels().apply_move(array, move)
        return State(array, self._next_history(state, array))

    def _next_history(self, state: State, new_array: np.ndarray) -> tuple[bytes, ...]:
        """Return the repetition history of the successor; none by default."""
        return ()

    def _repetition_draw(self, state: State) -> bool:
        """Return True if the position is drawn by repetition; never by default."""
        return False

    def repetition_draws(self, state: State) -> tuple[frozenset[int], frozenset[int]]:
        """Return the moves from ``state`` that draw by repetition at once,
        and those after which the opponent has a reply that does: what only
        the rules see, from the game's history (the search's kernels never
        do). Neither by default: only Lines of Action repeats."""
        return frozenset(), frozenset()

    def parse_move(self, state: State, text: str) -> int:
        """Return the legal move code for ``text``.

        Raises InvalidMoveError when the text is not well formed (the message
        gives the accepted form) and IllegalMoveError when the move is not legal
        here (the message lists the legal moves).
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be a string, got {text!r}")
        move = self.parse_move_text(state, text.strip())
        legal = self.legal_moves(state)
        if move not in legal:
            if not legal:
                raise IllegalMoveError(f"{text!r} is not legal: the game is over")
            why = self._illegal_reason(state, move)
            if why:
                raise IllegalMoveError(f"{text!r} is not legal here: {why}")
            raise IllegalMoveError(
                f"{text!r} is not legal here; legal moves: "
                + self._describe_legal(state, legal)
            )
        return move

    def play(self, state: State, text: str) -> State:
        """Return the state after the move written ``text``; ``state`` is unchanged."""
        return self._apply_unchecked(state, self.parse_move(state, text))

    def play_all(self, texts, state: State | None = None) -> State:
        """Return the state after playing the move texts in order from ``state``
        (the start position by default).

        A bad move raises the same error as :meth:`play`, its message starting
        with the ply number (``"ply 2: 'a1' is not legal here; ..."``).
        """
        state = self.initial_state() if state is None else state
        for ply, text in enumerate(texts, start=1):
            try:
                state = self.play(state, text)
            except ValueError as error:
                raise type(error)(f"ply {ply}: {error}") from None
        return state

    def _describe_legal(self, state: State, legal: list[int]) -> str:
        return " ".join(self.format_move(state, m) for m in legal) or "(none)"

    def to_move(self, state: State) -> str:
        """Return ``"black"`` or ``"white"``: the side to move."""
        return COLOR_NAMES[int(self._kernels().side_to_move(state.array))]

    def status(self, state: State) -> int:
        """Return ONGOING, BLACK_WINS, WHITE_WINS or DRAW."""
        if self._repetition_draw(state):
            return DRAW
        return int(self._kernels().status(state.array))

    def winning_move(self, state: State) -> int | None:
        """Return a legal move after which the side to move has won (the
        first in the kernel's order), else None."""
        won = (BLACK_WINS, WHITE_WINS)[int(self._kernels().side_to_move(state.array))]
        for move in self.legal_moves(state):
            if self.status(self._apply_unchecked(state, move)) == won:
                return move
        return None

    def is_terminal(self, state: State) -> bool:
        """Return True when the game is over."""
        return self.status(state) != ONGOING

    def outcome(self, state: State) -> Outcome | None:
        """Return how the game ended, or ``None`` while it goes on."""
        code = self.status(state)
        if code == ONGOING:
            return None
        winner = {BLACK_WINS: "black", WHITE_WINS: "white", DRAW: None}[code]
        return Outcome(winner, self.end_reason(state, code), self.score(state))

    def render(self, state: State) -> str:
        """Return the board picture and a line saying who moves or how it ended.

        >>> from mcts.games import find_game
        >>> game = find_game("gomoku", size=5, row=4)
        >>> print(game.render(game.initial_state()).splitlines()[-1])
        Black (X) to move
        """
        return self.board_text(state) + "\n" + self.status_line(state)

    def status_line(self, state: State) -> str:
        """Return "Black (X) to move" (with "(must pass)" when forced), or
        "Game over: white wins (connected group)" / "Game over: draw (board full)"."""
        outcome = self.outcome(state)
        if outcome is not None:
            verdict = f"{outcome.winner} wins" if outcome.winner else "draw"
            return f"Game over: {verdict} ({outcome.reason})"
        mover = self.to_move(state)
        line = f"{mover.capitalize()} ({'X' if mover == 'black' else 'O'}) to move"
        if self.legal_moves(state) == [self.PASS]:
            line += " (must pass)"
        return line

    def end_reason(self, state: State, code: int) -> str:
        """Return a short phrase saying why the game ended (e.g. "five in a row")."""
        return "game over"

    def score(self, state: State) -> dict[str, int] | None:
        """Return the disc count for games scored by discs, else ``None``."""
        return None

    def describe(self) -> dict:
        """Return the game's name and options as a JSON-ready dict."""
        return {"game": self.name, "options": dict(self.options)}

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"

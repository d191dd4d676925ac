"""Gomoku (freestyle, standard and renju): rules, notation and numba kernels.

Rules
-----
Gomoku on a ``size`` x ``size`` board (options ``size``, 5..19, default 15,
``row``, 3..size, default 5, and ``rule``, default ``freestyle``):

- The board starts empty. Black moves first; the players alternate, each move
  placing one stone of the mover's colour on an empty intersection.
- A line is an unbroken run of stones of one colour, horizontal, vertical or
  along either diagonal. A player whose stone makes a winning line wins at
  once. Which lines win depends on the rule:

  - ``freestyle``: ``row`` **or more** stones, for both colours (six in a
    row wins when ``row`` is 5).
  - ``standard``: exactly ``row`` stones, for both colours; an overline (more
    than ``row``) does not win, and play goes on.
  - ``renju`` (the Renju International Federation's rules; ``row`` must be
    5): white wins with five or more; black wins with exactly five, and may
    not play a *forbidden point* (it is not a legal move):

    - an **overline**: a point that makes six or more black stones in a row;
    - a **double four**: a point that makes two or more fours at once. A
      *four* is a line of five points holding four black stones and one
      empty point where one more black stone makes exactly five (no black
      stone just beyond). Two fours may share one line (``x.xxx.x``: the
      middle point); a *straight four* (four in a row with both ends five
      points) counts as one four;
    - a **double three**: a point that makes two or more threes at once. A
      *three* is a line where one more black stone, on a point that is
      itself not forbidden, makes a straight four; a line with a four is not
      also a three. Whether that point is forbidden is asked the same way,
      with the stones placed so far (threes within threes, to any depth);
    - a point that makes exactly five is never forbidden: a five wins even
      if the same stone also makes a double three, a double four or, on
      another line, an overline.

    White has no forbidden points. When black is to move and every empty
    point is forbidden, the game is drawn.
- A full board without a winning line is a draw.
- There are no passes (``PASS`` is -1) and no opening rule (no swap).

Notation
--------
Renju notation: ``a1`` is the bottom-left intersection; columns are the letters
``a``, ``b``, ... from left to right with no letter skipped (``a..o`` on 15x15,
``a..s`` on 19x19) and rows are counted upward from 1, so ``h8`` is the centre
of the 15x15 board. Parsing ignores case; formatting writes lower case.
The move code of the intersection in column ``col`` (0 = ``a``) and row ``row``
(0 = the bottom row, written ``1``) is ``row * size + col``: ``a1`` is 0,
``b1`` is 1, ``a2`` is ``size``.

State vector
------------
A flat ``numpy.uint64`` array of ``HEADER + size * size`` entries::

    [0] SIDE     side to move: 0 black, 1 white
    [1] SIZE     board side
    [2] ROW      winning row length
    [3] STONES   stones on the board
    [4] RESULT   ONGOING, BLACK_WINS, WHITE_WINS or DRAW
    [5] RULE     FREESTYLE (0), STANDARD (1) or RENJU (4): piskvork's codes
    [6 + code]   the intersection of that move code: 0 empty, 1 black, 2 white

``apply_move`` keeps RESULT up to date by looking only at the four lines
through the stone just placed, so ``status`` is a single read. The vector holds
the position and nothing else (no last move), so two move orders that reach the
same position give the same :meth:`State.key`.

State string
------------
``"<size>:<row>:[<rule>:]<cells> <b|w>"``: the rule's name for ``standard``
and ``renju`` (none for freestyle), the cells in move-code order (``a1``,
``b1``, ..., then row 2, ...) as ``x`` black, ``o`` white, ``.`` empty, then
the side to move. On 5x5 with row 4, after black ``c3`` and white ``b2``::

    5:4:......o.....x............ b

Parsing accepts a position only if it could arise in a game: black has as many
stones as white (black to move) or one more (white to move); at most one colour
has a winning line, and if one does, that colour made the last move and one of
its stones completes every such line (the board without it has none). Under
renju it does not check that black's earlier stones avoided forbidden points.

A game's rules, notation and kernels are one fact each, and the docstring
above states the rules they implement. The state vector's fields and the
lines through a stone are :mod:`.gomoku_board`'s; black's forbidden points
under renju are :mod:`.renju`'s.
"""

from __future__ import annotations

import numbers
import re
import sys

import numpy as np
from numba import njit

from .base import (
    BLACK_WINS,
    DRAW,
    ONGOING,
    WHITE_WINS,
    Game,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    State,
)
from .gomoku_board import (
    BLACK_STONE,
    DIRECTIONS,
    EMPTY,
    FREESTYLE,
    HEADER,
    RENJU,
    RESULT,
    ROW,
    RULE,
    RULES,
    SIDE,
    SIZE,
    STANDARD,
    STONES,
    WHITE_STONE,
    line_length,
    run_from,
)
from .renju import FORBIDDEN_NAMES, NOT_FORBIDDEN, black_can_move, forbidden
from .symmetry import square_maps

GAME_ID = 1
PASS = -1

MIN_SIZE = 5
MAX_SIZE = 19
MIN_ROW = 3
DEFAULT_SIZE = 15
DEFAULT_ROW = 5

CELL_CHARS = ".xo"
SIDE_CHARS = "bw"

_ROW_WORDS = {
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}


# ---- numba kernels ---------------------------------------------------------------


@njit(cache=True, nogil=True)
def side_to_move(state):
    """Return 0 (black) or 1 (white): the side to move in ``state``."""
    return np.int64(state[SIDE])


_CELL_CODES = np.array([ord(ch) for ch in CELL_CHARS], dtype=np.uint8)
_SIDE_CODES = np.array([ord(ch) for ch in SIDE_CHARS], dtype=np.uint8)
_STANDARD_CODES = np.array([ord(ch) for ch in "standard:"], dtype=np.uint8)
_RENJU_CODES = np.array([ord(ch) for ch in "renju:"], dtype=np.uint8)


@njit(cache=True, nogil=True)
def render_state(state, out):
    """Write the state string ``<size>:<row>:[<rule>:]<cells> <b|w>`` (cells
    row by row as '.', 'x' or 'o'; no rule word for freestyle) as bytes into
    ``out``; return its length."""
    n = 0
    for number in (state[SIZE], state[ROW]):
        if number >= 10:
            out[n] = ord("0") + number // 10
            n += 1
        out[n] = ord("0") + number % 10
        out[n + 1] = ord(":")
        n += 2
    rule = np.int64(state[RULE])
    if rule == STANDARD:
        for ch in _STANDARD_CODES:
            out[n] = ch
            n += 1
    elif rule == RENJU:
        for ch in _RENJU_CODES:
            out[n] = ch
            n += 1
    for cell in range(HEADER, state.shape[0]):
        out[n] = _CELL_CODES[state[cell]]
        n += 1
    out[n] = ord(" ")
    out[n + 1] = _SIDE_CODES[state[SIDE]]
    return n + 2


@njit(cache=True, nogil=True)
def status(state):
    """Return ONGOING, BLACK_WINS, WHITE_WINS or DRAW, as stored by apply_move."""
    return np.int64(state[RESULT])


@njit(cache=True, nogil=True)
def legal_moves(state, out):
    """Write the legal moves' codes into ``out`` in ascending order: the empty
    intersections, less black's forbidden points under renju; return their
    count (zero once the game is over)."""
    if np.int64(state[RESULT]) != ONGOING:
        return np.int64(0)
    if np.int64(state[RULE]) == RENJU and state[SIDE] == np.uint64(0):
        return _black_renju_moves(state.copy(), out)
    size = np.int64(state[SIZE])
    count = np.int64(0)
    for code in range(size * size):
        if state[HEADER + code] == np.uint64(EMPTY):
            out[count] = code
            count += 1
    return count


@njit(cache=True, nogil=True)
def _black_renju_moves(board, out):
    """:func:`legal_moves` for black under renju, on a copy of the state
    (``board``: the forbidden-point check places stones and takes them back,
    and states may be read-only)."""
    size = np.int64(board[SIZE])
    count = np.int64(0)
    for code in range(size * size):
        empty = board[HEADER + code] == np.uint64(EMPTY)
        if empty and forbidden(board, code) == NOT_FORBIDDEN:
            out[count] = code
            count += 1
    return count


@njit(cache=True, nogil=True)
def window_stones(state, start, step, row, colour):
    """Return (stones of ``colour``, stones of the other colour) in the
    window of ``row`` cells from the cell ``start`` by ``step`` cells."""
    own = 0
    other = 0
    for k in range(row):
        value = np.int64(state[HEADER + start + k * step])
        if value == colour:
            own += 1
        elif value != EMPTY:
            other += 1
    return own, other


@njit(cache=True, nogil=True)
def _wins(rule, row, colour, length):
    """Return True if a line of ``length`` stones of ``colour`` wins under
    ``rule``: exactly ``row`` always; longer only in freestyle, and for white
    under renju."""
    if length == row:
        return True
    if length < row:
        return False
    return rule == FREESTYLE or (rule == RENJU and colour == np.uint64(WHITE_STONE))


@njit(cache=True, nogil=True)
def _completes_row(state, code, colour):
    """Return True if the ``colour`` stone on ``code`` lies on a winning line
    under the game's rule."""
    size = np.int64(state[SIZE])
    row = np.int64(state[ROW])
    rule = np.int64(state[RULE])
    for d in range(4):
        if _wins(rule, row, colour, line_length(state, size, code, d, colour)):
            return True
    return False


@njit(cache=True, nogil=True)
def apply_move(state, move):
    """Place the side to move's stone on the legal point ``move`` in place,
    update the result and pass the turn. The game is drawn when the board is
    full, or when black is to move under renju and every empty point is
    forbidden."""
    colour = state[SIDE] + np.uint64(1)
    state[HEADER + move] = colour
    state[STONES] += np.uint64(1)
    size = np.int64(state[SIZE])
    state[SIDE] = np.uint64(1) - state[SIDE]
    black_next = state[SIDE] == np.uint64(0)
    if _completes_row(state, move, colour):
        if colour == np.uint64(BLACK_STONE):
            state[RESULT] = np.uint64(BLACK_WINS)
        else:
            state[RESULT] = np.uint64(WHITE_WINS)
    elif np.int64(state[STONES]) == size * size or (
        np.int64(state[RULE]) == RENJU and black_next and not black_can_move(state)
    ):
        state[RESULT] = np.uint64(DRAW)


@njit(cache=True, nogil=True)
def random_playout(state):
    """Play uniformly random legal moves on ``state`` in place until the game
    ends; return the final status."""
    if np.int64(state[RESULT]) != ONGOING:
        return np.int64(state[RESULT])
    size = np.int64(state[SIZE])
    fouls = np.int64(state[RULE]) == RENJU
    # One list of empty intersections, shrunk by swap-remove, so a ply costs
    # O(1) instead of a board scan.
    empties = np.empty(size * size, dtype=np.int64)
    count = np.int64(0)
    for code in range(size * size):
        if state[HEADER + code] == np.uint64(EMPTY):
            empties[count] = code
            count += 1
    while np.int64(state[RESULT]) == ONGOING:
        pick = np.random.randint(0, count)
        if fouls and state[SIDE] == np.uint64(0):
            # A forbidden point goes to the end of the list for this ply
            # (it may be allowed later); apply_move saw that one is not.
            tried = 0
            while forbidden(state, empties[pick]) != NOT_FORBIDDEN:
                tried += 1
                last = count - tried
                empties[pick], empties[last] = empties[last], empties[pick]
                pick = np.random.randint(0, last)
        move = empties[pick]
        count -= 1
        empties[pick] = empties[count]
        apply_move(state, move)
    return np.int64(state[RESULT])


@njit(cache=True, nogil=True)
def _has_row(state, colour):
    """Return True if ``colour`` has a winning line anywhere under the rule."""
    size = np.int64(state[SIZE])
    row = np.int64(state[ROW])
    rule = np.int64(state[RULE])
    for code in range(size * size):
        if state[HEADER + code] != colour:
            continue
        r = code // size
        c = code % size
        for d in range(4):
            dr = DIRECTIONS[d, 0]
            dc = DIRECTIONS[d, 1]
            # Count each line once, from its first stone.
            if run_from(state, size, r, c, -dr, -dc, colour, 1) == 0:
                length = 1 + run_from(state, size, r, c, dr, dc, colour, size)
                if _wins(rule, row, colour, length):
                    return True
    return False


@njit(cache=True, nogil=True)
def _has_last_stone(state, colour):
    """Return True if removing one ``colour`` stone leaves ``colour`` without a
    winning line, i.e. the win could have been made by a single last move."""
    size = np.int64(state[SIZE])
    for code in range(size * size):
        if state[HEADER + code] != colour:
            continue
        state[HEADER + code] = np.uint64(EMPTY)
        still_won = _has_row(state, colour)
        state[HEADER + code] = colour
        if not still_won:
            return True
    return False


# ---- the Python layer -----------------------------------------------------------


def _check_int(name: str, value, low: int, high: int) -> int:
    """Return ``value`` as an int if it is an integer in low..high, else raise."""
    accepted = f"an integer from {low} to {high}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidOptionsError(
            f"gomoku option {name!r} must be {accepted}, got {value!r}"
        )
    number = int(value)
    if not low <= number <= high:
        raise InvalidOptionsError(
            f"gomoku option {name!r} must be {accepted}, got {number}"
        )
    return number


def column_letters(size: int) -> str:
    """Return the column letters of a board of side ``size`` ("abcde" for 5)."""
    return "abcdefghijklmnopqrs"[:size]


def row_name(row: int) -> str:
    """Return how a winning line of ``row`` stones is called ("five in a row")."""
    return f"{_ROW_WORDS.get(row, row)} in a row"


_MOVE_RE = re.compile(r"([a-z])([1-9][0-9]?)")


class Gomoku(Game):
    """Gomoku on a ``size`` x ``size`` board under ``rule``: freestyle (``row``
    or more to win), standard (exactly ``row``) or renju (five; black's
    forbidden points).

    >>> game = Gomoku(size=15, row=5)
    >>> state = game.play_all(["h8", "h9"])
    >>> game.to_move(state), len(game.legal_moves(state))
    ('black', 223)
    """

    name = "gomoku"
    title = "Gomoku"
    game_id = GAME_ID
    PASS = PASS
    option_specs = {
        "size": {"type": "integer", "min": MIN_SIZE, "max": MAX_SIZE},
        "row": {"type": "integer", "min": MIN_ROW, "max": "size"},
        "rule": {"type": "choice", "choices": list(RULES)},
    }

    @classmethod
    def check_options(cls, **options) -> dict:
        """Return ``{"size": ..., "row": ..., "rule": ...}`` with defaults
        filled in; raise InvalidOptionsError for an unknown name, a
        non-integer or a value out of range, an unknown rule, or renju with a
        row other than five."""
        unknown = sorted(set(options) - {"size", "row", "rule"})
        if unknown:
            raise InvalidOptionsError(
                f"gomoku has no option {unknown[0]!r}; its options are 'size' "
                f"({MIN_SIZE}..{MAX_SIZE}), 'row' ({MIN_ROW}..size) and 'rule' "
                f"({', '.join(map(repr, RULES))})"
            )
        size = _check_int("size", options.get("size", DEFAULT_SIZE), MIN_SIZE, MAX_SIZE)
        row = _check_int("row", options.get("row", DEFAULT_ROW), MIN_ROW, size)
        rule = options.get("rule", "freestyle")
        if not isinstance(rule, str) or rule not in RULES:
            raise InvalidOptionsError(
                f"gomoku option 'rule' must be one of "
                f"{', '.join(map(repr, RULES))}, got {rule!r}"
            )
        if rule == "renju" and row != 5:
            raise InvalidOptionsError(
                f"renju is played with five in a row, not {row}: leave 'row' at 5"
            )
        return {"size": size, "row": row, "rule": rule}

    @property
    def size(self) -> int:
        """Return the board side."""
        return self.options["size"]

    @property
    def row(self) -> int:
        """Return the winning row length."""
        return self.options["row"]

    @property
    def rule(self) -> str:
        """Return the rule's name: "freestyle", "standard" or "renju"."""
        return self.options["rule"]

    def initial_array(self) -> np.ndarray:
        """Return the state vector of the empty board, black to move."""
        array = np.zeros(HEADER + self.size * self.size, dtype=np.uint64)
        array[SIZE] = self.size
        array[ROW] = self.row
        array[RULE] = RULES[self.rule]
        return array

    def forbidden_reason(self, state: State, move: int) -> str | None:
        """Return why the move code ``move`` is forbidden to black here
        ("double three", "double four", "overline"), or None: under renju,
        with black to move, on an empty point; else always None."""
        array = state.array
        if (
            array[RULE] != RENJU
            or array[SIDE] != 0
            or array[RESULT] != ONGOING
            or array[HEADER + move] != EMPTY
        ):
            return None
        return FORBIDDEN_NAMES.get(int(forbidden(array.copy(), move)))

    def forbidden_points(self, state: State) -> dict[int, str]:
        """Return black's forbidden points here with why (move code ->
        "double three", ...): empty when the rule is not renju, white is to
        move or the game is over."""
        array = state.array
        if array[RULE] != RENJU or array[SIDE] != 0 or array[RESULT] != ONGOING:
            return {}
        legal = set(self.legal_moves(state))
        board = array.copy()
        return {
            move: FORBIDDEN_NAMES[int(forbidden(board, move))]
            for move in range(self.size * self.size)
            if array[HEADER + move] == EMPTY and move not in legal
        }

    def overline_through(self, state: State, move: int) -> bool:
        """Return True if the stone on the move code ``move`` lies on a line
        longer than the row to make: an overline, which under the standard
        rule does not win (nor a black one under renju, where it is
        forbidden); False on an empty point."""
        array = state.array
        colour = array[HEADER + move]
        if colour == EMPTY:
            return False
        return any(
            line_length(array, self.size, move, d, colour) > self.row for d in range(4)
        )

    def wins_with(self, colour: str, length: int) -> bool:
        """Return True if an unbroken line of ``length`` stones of
        ``colour`` ("black" or "white") wins under the game's rule: exactly
        the row, or longer in freestyle and for white under renju."""
        stone = np.uint64(BLACK_STONE if colour == "black" else WHITE_STONE)
        # The kernel's own Python: one statement of the rule, and no compile.
        return bool(_wins.py_func(RULES[self.rule], self.row, stone, length))

    def _illegal_reason(self, state: State, move: int) -> str | None:
        """Say why a forbidden point is not legal (base class hook)."""
        why = self.forbidden_reason(state, move)
        return f"a forbidden point for black under renju ({why})" if why else None

    def _kernels(self):
        """Return this module, whose numba kernels the base class calls."""
        return sys.modules[__name__]

    def symmetries(self) -> tuple[np.ndarray, ...]:
        """Return the eight symmetries of the board: the rules have them all."""
        return square_maps(self.size)

    def map_state(self, state: State, image: np.ndarray) -> State:
        """Return ``state`` with every stone moved by the square map ``image``."""
        array = state.array.copy()
        array[HEADER + image] = state.array[HEADER:]
        return State(array)

    def move_map(self, image: np.ndarray) -> np.ndarray:
        """Return the move-code table of the square map ``image`` (a move is
        its cell)."""
        return image.copy()

    # ---- notation -------------------------------------------------------------
    def format_move(self, state: State, move: int) -> str:
        """Return the renju name of the move code ``move`` ("h8" for 112 on 15x15)."""
        size = int(state.array[SIZE])
        if not 0 <= move < size * size:
            raise InvalidMoveError(
                f"move code {move} is off the {size}x{size} board "
                f"(codes 0..{size * size - 1})"
            )
        return f"{column_letters(size)[move % size]}{move // size + 1}"

    def parse_move_text(self, state: State, text: str) -> int:
        """Return the move code of a renju coordinate such as "h8" (any case);
        raise InvalidMoveError if it is not one on this board."""
        size = int(state.array[SIZE])
        letters = column_letters(size)
        match = _MOVE_RE.fullmatch(text.lower()) if text.isascii() else None
        if match is None or match[1] not in letters or int(match[2]) > size:
            expected = (
                f"a column a..{letters[-1]} then a row 1..{size}, such as "
                f"{letters[size // 2]}{size // 2 + 1}"
            )
            if text.lower() == "pass":
                expected += " (gomoku has no passes)"
            raise InvalidMoveError(
                f"{text!r} is not a gomoku move on {size}x{size}: expected {expected}"
            )
        return (int(match[2]) - 1) * size + letters.index(match[1])

    # ---- state strings ----------------------------------------------------------
    def parse_state(self, text: str) -> State:
        """Return the position of a state string; raise InvalidStateError if it is
        malformed, does not match this game's options or could not arise in play."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a gomoku state must be a string, got {text!r}")
        board, side = self._split_state(text)
        array = self.initial_array()
        array[SIDE] = SIDE_CHARS.index(side)
        array[HEADER:] = [CELL_CHARS.index(ch) for ch in board]
        array[STONES] = np.count_nonzero(array[HEADER:])
        array[RESULT] = self._result_of(array)
        return State(array)

    def _split_state(self, text: str) -> tuple[str, str]:
        """Return (cells, side) of a state string after checking its form and
        that its size and row are this game's."""
        form = "expected '<size>:<row>:[<rule>:]<cells> <b|w>'"
        parts = text.split()
        if len(parts) != 2 or parts[0].count(":") not in (2, 3):
            raise InvalidStateError(f"{text!r} is not a gomoku state: {form}")
        size_text, row_text, *rule_word, cells = parts[0].split(":")
        rule = rule_word[0] if rule_word else "freestyle"
        side = parts[1]
        if rule not in ("standard", "renju") and rule_word:
            raise InvalidStateError(
                f"rule {rule!r} is not 'standard' or 'renju' (freestyle has no "
                f"rule word): {form}"
            )
        if rule != self.rule:
            raise InvalidStateError(
                f"state is for the {rule} rule, but this game plays {self.rule}"
            )
        if not (size_text.isascii() and size_text.isdigit()):
            raise InvalidStateError(f"board size {size_text!r} is not a number: {form}")
        if not (row_text.isascii() and row_text.isdigit()):
            raise InvalidStateError(f"row length {row_text!r} is not a number: {form}")
        if (int(size_text), int(row_text)) != (self.size, self.row):
            raise InvalidStateError(
                f"state is for size {int(size_text)} and row {int(row_text)}, "
                f"but this game has size {self.size} and row {self.row}"
            )
        if len(cells) != self.size * self.size:
            raise InvalidStateError(
                f"a {self.size}x{self.size} board has {self.size * self.size} "
                f"cells, got {len(cells)}"
            )
        bad = sorted(set(cells) - set(CELL_CHARS))
        if bad:
            raise InvalidStateError(
                f"cell character {bad[0]!r} is not one of 'x' (black), "
                f"'o' (white), '.' (empty)"
            )
        if side not in SIDE_CHARS:
            raise InvalidStateError(
                f"side to move {side!r} is not 'b' (black) or 'w' (white)"
            )
        return cells, side

    @staticmethod
    def _result_of(array: np.ndarray) -> int:
        """Return the status of a board read from a string, or raise
        InvalidStateError if no game could reach it."""
        black = int(np.count_nonzero(array[HEADER:] == BLACK_STONE))
        white = int(np.count_nonzero(array[HEADER:] == WHITE_STONE))
        side = "black" if array[SIDE] == 0 else "white"
        expected = white if side == "black" else white + 1
        if black != expected:
            raise InvalidStateError(
                f"{black} black and {white} white stones with {side} to move: "
                f"black moves first, so black must have {expected}"
            )
        winners = [
            colour
            for colour in (BLACK_STONE, WHITE_STONE)
            if _has_row(array, np.uint64(colour))
        ]
        if len(winners) == 2:
            raise InvalidStateError("both black and white have a winning row")
        if not winners:
            full = black + white == len(array) - HEADER
            stuck = (
                array[RULE] == RENJU and side == "black" and not black_can_move(array)
            )
            return DRAW if full or stuck else ONGOING
        winner = winners[0]
        name = "black" if winner == BLACK_STONE else "white"
        if (winner == BLACK_STONE) != (side == "white"):
            raise InvalidStateError(
                f"{name} has a winning row but {name} is to move: "
                f"the game ended when {name} made it"
            )
        if not _has_last_stone(array, np.uint64(winner)):
            raise InvalidStateError(
                f"{name}'s winning rows cannot all have been made by one last move"
            )
        return BLACK_WINS if winner == BLACK_STONE else WHITE_WINS

    # ---- display and outcome ----------------------------------------------------
    def board_text(self, state: State) -> str:
        """Return the board as text, row 1 at the bottom, coordinates on all
        four edges."""
        array = state.array
        size = int(array[SIZE])
        letters = "    " + " ".join(column_letters(size))
        lines = [letters]
        for r in range(size - 1, -1, -1):
            cells = array[HEADER + r * size : HEADER + (r + 1) * size]
            row = " ".join(".XO"[int(v)] for v in cells)
            lines.append(f"{r + 1:>3} {row} {r + 1}")
        lines.append(letters)
        return "\n".join(lines)

    def end_reason(self, state: State, code: int) -> str:
        """Return how long the winning line is ("five in a row"; "six in a
        row" for a freestyle overline), "board full" for a draw, and "black
        has only forbidden points" when black had only forbidden points left
        (renju)."""
        if code == DRAW:
            full = int(state.array[STONES]) == self.size * self.size
            return "board full" if full else "black has only forbidden points"
        array = state.array
        winner = "black" if code == BLACK_WINS else "white"
        stone = BLACK_STONE if winner == "black" else WHITE_STONE
        lengths = {
            line_length(array, self.size, move, d, np.uint64(stone))
            for move in range(self.size * self.size)
            if array[HEADER + move] == stone
            for d in range(4)
        }
        winning = [n for n in lengths if self.wins_with(winner, n)]
        return row_name(max(winning, default=self.row))

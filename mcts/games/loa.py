"""Lines of Action on 8x8 bitboards, with the Computer Olympiad rules.

Rules (Computer Olympiad, as on Mark Winands' LOA rules page)
-------------------------------------------------------------
1. Black starts on b1-g1 and b8-g8, white on a2-a7 and h2-h7, twelve pieces
   each. Black moves first; the players alternate.
2. A piece moves in a straight line (along a rank, a file or a diagonal:
   8 directions) exactly as many squares as there are pieces of both colours
   on the whole line through it in that direction, counted both ways and
   including the moving piece itself.
3. It may jump over its own pieces but not over enemy pieces; it may land on
   an enemy piece, capturing it (the piece is removed), but not on its own
   piece, and never off the board.
4. A side whose pieces are all connected (8-neighbourhood: orthogonally or
   diagonally adjacent) wins. A single remaining piece is connected.
5. A move that connects both sides at once is a draw. So a capture that leaves
   the opponent connected (for instance with one piece) while the mover is not
   connected makes the opponent win.
6. A side with no legal move must pass: ``pass`` is then its only legal move.
7. The same position with the same side to move occurring for the third time
   is a draw.

Three points differ between rule sets, so they are game options whose default
is the Olympiad rule: ``double_connection`` ("draw", or "mover_wins" as in the
second edition of *A Gamut of Games*), ``no_move`` ("pass", or "lose": a side
that cannot move loses) and ``repetition`` (3, or 2: the occurrence count that
draws). The first two live in the state vector's flags word, so the kernels
apply them. Repetition is not a property of one position: the kernels never
see it, and the Python layer (:class:`LinesOfAction`) judges it from the move
history that :class:`~mcts.games.base.State` carries.

Notation
--------
Chess-style squares, ``a1`` bottom-left (files a..h left to right, ranks 1..8
bottom to top): a quiet move ``b1-b3``, a capture ``b1xb3``, and ``pass``.
Parsing is case-insensitive and takes either sign (a wrong sign is not an
error); formatting writes ``x`` exactly when the destination holds an enemy
piece. Move code = ``from_square * 64 + to_square``, squares
``0..63 = row * 8 + col`` with row 0 = rank 1 and col 0 = file a;
:data:`PASS` = 4096.

State vector
------------
``numpy.uint64[4]``: ``[black, white, side, flags]``. ``black`` and ``white``
are bitboards (bit ``row * 8 + col``), ``side`` is 0 when black is to move and
1 for white, and ``flags`` holds :data:`FLAG_MOVER_WINS` (double connection
wins for the mover) and :data:`FLAG_NO_MOVE_LOSES` (a side that cannot move
loses instead of passing).

State string
------------
``"<64 chars> <b|w>"``: the squares in the order a1, b1, ..., h1, a2, ..., h8,
``x`` black, ``o`` white, ``.`` empty, then the side to move. The rule options
are not in the string; they are game options. The start position:

>>> game = LinesOfAction()
>>> game.state_string(game.initial_state())[:24]
'.xxxxxx.o......oo......o'
>>> game.legal_move_texts(game.initial_state())[:3]
['b1-h1', 'b1-b3', 'b1-d3']

Random playouts (:func:`random_playout`) stop by themselves after 1,000 plies
(:data:`PLAYOUT_PLY_CAP`) and call the game a draw. That cap exists only in
playouts, so that a random game cannot run forever (passes back and forth, say);
the rules have no such limit.

A game's rules, notation and kernels are one fact each, and the docstring
above states the rules they implement.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

import numpy as np
from numba import njit

from .base import (
    BLACK,
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
from .bitboard import bit_square, lowest_bit, popcount, render_position
from .symmetry import EIGHT_BY_EIGHT, map_bitboards

GAME_ID = 2
PASS = 4096

#: Flags word bit: a move that connects both sides wins for the mover.
FLAG_MOVER_WINS = 1
#: Flags word bit: a side that cannot move loses (instead of passing).
FLAG_NO_MOVE_LOSES = 2

#: Plies after which a random playout stops and counts as a draw.
PLAYOUT_PLY_CAP = 1000

#: Twelve pieces a side, each with at most 8 destinations.
MAX_LOA_MOVES = 96

FILES = "abcdefgh"
SIDE_LETTERS = "bw"

_STATE_BLACK, _STATE_WHITE, _STATE_SIDE, _STATE_FLAGS = 0, 1, 2, 3

# Black on b1-g1 and b8-g8; white on a2-a7 and h2-h7 (files a and h of rows 2-7).
_START_BLACK = 0x7E0000000000007E
_START_WHITE = 0x0081818181818100


# ---- precomputed tables (plain numpy at import; numba freezes them as constants) -----
# The 8 directions as (dcol, drow), in pairs along one axis so that direction
# 2 * axis and 2 * axis + 1 share the line mask LINE[sq, axis].
_DIRECTIONS = (
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
)


def _on_board(col: int, row: int) -> bool:
    return 0 <= col < 8 and 0 <= row < 8


def _build_tables():
    bit = np.array([1 << sq for sq in range(64)], dtype=np.uint64)
    line = np.zeros((64, 4), dtype=np.uint64)
    # TARGET[sq, d, n]: the square n steps from sq in direction d, or -1 off board.
    target = np.full((64, 8, 9), -1, dtype=np.int64)
    # BETWEEN[a, b]: the squares strictly between two squares on one line.
    between = np.zeros((64, 64), dtype=np.uint64)
    for sq in range(64):
        col, row = sq % 8, sq // 8
        for d, (dc, dr) in enumerate(_DIRECTIONS):
            passed = 0
            for n in range(1, 9):
                c, r = col + dc * n, row + dr * n
                if not _on_board(c, r):
                    break
                to = r * 8 + c
                target[sq, d, n] = to
                between[sq, to] = passed
                passed |= 1 << to
            line[sq, d // 2] |= passed
        for axis in range(4):
            line[sq, axis] |= 1 << sq
    return bit, line, target, between


BIT, LINE, TARGET, BETWEEN = _build_tables()

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)
_S1 = np.uint64(1)
_S8 = np.uint64(8)


# ---- bit helpers ---------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _grow(x):
    """Return ``x`` with every square 8-adjacent to it added."""
    x = x | ((x << _S1) & _NOT_FILE_A) | ((x >> _S1) & _NOT_FILE_H)
    return x | (x << _S8) | (x >> _S8)


@njit(cache=True, nogil=True)
def connected(pieces):
    """Return True if the pieces of the bitboard ``pieces`` form one 8-connected
    group (a single piece does); False for an empty board."""
    if pieces == _ZERO:
        return False
    group = lowest_bit(pieces)
    while True:
        grown = _grow(group) & pieces
        if grown == group:
            return group == pieces
        group = grown


# ---- move generation -----------------------------------------------------------------
@njit(cache=True, nogil=True)
def _generate(own, enemy, out):
    """Write the moves of the side owning ``own`` into ``out``; return their count
    (no pass: zero when the side has no move)."""
    occupied = own | enemy
    count = 0
    pieces = own
    while pieces != _ZERO:
        bit = lowest_bit(pieces)
        pieces ^= bit
        sq = bit_square(bit)
        for axis in range(4):
            distance = popcount(LINE[sq, axis] & occupied)
            for d in range(2 * axis, 2 * axis + 2):
                to = TARGET[sq, d, distance]
                if to < 0 or own & BIT[to] != _ZERO:
                    continue
                if BETWEEN[sq, to] & enemy != _ZERO:
                    continue
                out[count] = sq * 64 + to
                count += 1
    return count


@njit(cache=True, nogil=True)
def _connection_status(black, white, side, flags):
    """Return the status judged by connection alone: a win, a double-connection
    result, or ONGOING."""
    black_done = connected(black)
    white_done = connected(white)
    if black_done and white_done:
        if flags & FLAG_MOVER_WINS:
            # The side that just moved is the one not to move now.
            return _loss_for(side)
        return DRAW
    if black_done:
        return BLACK_WINS
    if white_done:
        return WHITE_WINS
    return ONGOING


@njit(cache=True, nogil=True)
def _loss_for(side):
    """Return the status code of a loss for ``side``."""
    return WHITE_WINS if side == BLACK else BLACK_WINS


@njit(cache=True, nogil=True)
def _win_for(side):
    """Return the status code of a win for ``side``."""
    return BLACK_WINS if side == BLACK else WHITE_WINS


@njit(cache=True, nogil=True)
def _has_move(own, enemy):
    """Return True if the side owning ``own`` has at least one move."""
    buffer = np.empty(MAX_LOA_MOVES, dtype=np.int64)
    return _generate(own, enemy, buffer) > 0


# ---- the kernels of the Game protocol ------------------------------------------------
@njit(cache=True, nogil=True)
def render_state(state, out):
    """Write the state string ``<64 squares> <b|w>`` as bytes into ``out``;
    return its length (see :func:`~mcts.games.bitboard.render_position`)."""
    return render_position(
        state[_STATE_BLACK], state[_STATE_WHITE], side_to_move(state), out
    )


@njit(cache=True, nogil=True)
def side_to_move(state):
    """Return 0 (black) or 1 (white): the side to move in ``state``."""
    return np.int64(state[_STATE_SIDE])


@njit(cache=True, nogil=True)
def status(state):
    """Return ONGOING, BLACK_WINS, WHITE_WINS or DRAW for ``state`` (repetition
    aside, which the Python layer judges)."""
    side = np.int64(state[_STATE_SIDE])
    flags = np.int64(state[_STATE_FLAGS])
    black = state[_STATE_BLACK]
    white = state[_STATE_WHITE]
    result = _connection_status(black, white, side, flags)
    if result != ONGOING or not flags & FLAG_NO_MOVE_LOSES:
        return result
    own, enemy = (black, white) if side == BLACK else (white, black)
    if _has_move(own, enemy):
        return ONGOING
    return _loss_for(side)


@njit(cache=True, nogil=True)
def legal_moves(state, out):
    """Write the legal move codes of ``state`` into ``out``; return their count.

    Zero when the game is over; a single PASS when the side to move has no move.
    """
    if status(state) != ONGOING:
        return 0
    side = np.int64(state[_STATE_SIDE])
    own = state[side]
    enemy = state[1 - side]
    count = _generate(own, enemy, out)
    if count == 0:
        out[0] = PASS
        count = 1
    return count


@njit(cache=True, nogil=True)
def apply_move(state, move):
    """Play the legal ``move`` on ``state`` in place (capturing any enemy piece on
    the destination) and hand the turn over."""
    side = np.int64(state[_STATE_SIDE])
    if move != PASS:
        from_bit = BIT[move >> 6]
        to_bit = BIT[move & 63]
        state[side] = (state[side] & ~from_bit) | to_bit
        state[1 - side] &= ~to_bit
    state[_STATE_SIDE] = np.uint64(1 - side)


@njit(cache=True, nogil=True)
def _status_after(state, mover, captured, flags):
    """Return the status right after ``mover`` moved in a game that was going on.

    Only the mover's pieces changed, and the opponent's too if it lost a piece, so
    only those groups can have become connected.
    """
    mover_done = connected(state[mover])
    other_done = captured and connected(state[1 - mover])
    if mover_done and other_done:
        if flags & FLAG_MOVER_WINS:
            return _win_for(mover)
        return DRAW
    if mover_done:
        return _win_for(mover)
    if other_done:
        return _loss_for(mover)
    return ONGOING


@njit(cache=True, nogil=True)
def random_playout(state):
    """Play uniformly random legal moves on ``state`` in place until the game ends;
    return the final status.

    After PLAYOUT_PLY_CAP plies without an end the playout stops and returns DRAW
    (a playout-only cap). Repetition is not judged here.
    """
    result = status(state)
    if result != ONGOING:
        return result
    buffer = np.empty(MAX_LOA_MOVES, dtype=np.int64)
    flags = np.int64(state[_STATE_FLAGS])
    for _ in range(PLAYOUT_PLY_CAP):
        side = np.int64(state[_STATE_SIDE])
        count = _generate(state[side], state[1 - side], buffer)
        if count == 0:
            if flags & FLAG_NO_MOVE_LOSES:
                return _loss_for(side)
            apply_move(state, PASS)
            continue
        move = buffer[np.random.randint(0, count)]
        captured = state[1 - side] & BIT[move & 63] != _ZERO
        apply_move(state, move)
        result = _status_after(state, side, captured, flags)
        if result != ONGOING:
            return result
    return DRAW


# ---- the Python layer ----------------------------------------------------------------
_MOVE_RE = re.compile(r"([a-h][1-8])[-x]([a-h][1-8])")
_MOVE_FORM = "<from>-<to> such as b1-b3 (x for a capture), or pass"

#: The rule options and the values each accepts, the default first (the
#: Olympiad rules); :attr:`LinesOfAction.option_specs` describes them to clients.
_OPTION_CHOICES = {
    "double_connection": ("draw", "mover_wins"),
    "no_move": ("pass", "lose"),
    "repetition": (3, 2),
}


def square_name(sq: int) -> str:
    """Return the chess-style name of square ``sq`` (0 -> 'a1', 63 -> 'h8')."""
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(name: str) -> int:
    """Return the square index (0..63) of a well-formed lower-case name like 'b3'."""
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


class LinesOfAction(Game):
    """Lines of Action: Olympiad rules by default, variants through the options
    ``double_connection``, ``no_move`` and ``repetition``."""

    name = "loa"
    title = "Lines of Action"
    game_id = GAME_ID
    PASS = PASS
    option_specs = {
        key: {"type": "choice", "choices": list(choices)}
        for key, choices in _OPTION_CHOICES.items()
    }

    @classmethod
    def check_options(cls, **options) -> dict:
        """Return the full options dict (defaults filled in); raise
        InvalidOptionsError for an unknown option or value."""
        unknown = sorted(set(options) - set(_OPTION_CHOICES))
        if unknown:
            raise InvalidOptionsError(
                f"loa has no option {', '.join(map(repr, unknown))}; "
                f"its options are {', '.join(_OPTION_CHOICES)}"
            )
        full = {}
        for key, choices in _OPTION_CHOICES.items():
            value = options.get(key, choices[0])
            # Same type as the default too: True == 1 and 2.0 == 2 must not slip in.
            if type(value) is not type(choices[0]) or value not in choices:
                raise InvalidOptionsError(
                    f"loa option {key}={value!r} is not allowed; "
                    f"expected one of {', '.join(map(repr, choices))}"
                )
            full[key] = value
        return full

    # ---- arrays ------------------------------------------------------------------
    def _flags(self) -> int:
        flags = 0
        if self.options["double_connection"] == "mover_wins":
            flags |= FLAG_MOVER_WINS
        if self.options["no_move"] == "lose":
            flags |= FLAG_NO_MOVE_LOSES
        return flags

    def _array(self, black: int, white: int, side: int) -> np.ndarray:
        return np.array([black, white, side, self._flags()], dtype=np.uint64)

    def initial_array(self) -> np.ndarray:
        """Return the start position's state vector, black to move."""
        return self._array(_START_BLACK, _START_WHITE, BLACK)

    def _kernels(self):
        return sys.modules[__name__]

    def symmetries(self) -> tuple[np.ndarray, ...]:
        """Return the eight symmetries of the board: the rules have them all
        (the start position only two)."""
        return EIGHT_BY_EIGHT

    def map_state(self, state: State, image: np.ndarray) -> State:
        """Return ``state`` with every piece moved by the square map ``image``."""
        return State(map_bitboards(state.array, image))

    def move_map(self, image: np.ndarray) -> np.ndarray:
        """Return the move-code table (``from * 64 + to``) of the square map
        ``image``, the pass fixed."""
        return np.append((image[:, None] * 64 + image[None, :]).ravel(), PASS)

    # ---- notation ----------------------------------------------------------------
    def format_move(self, state: State, move: int) -> str:
        """Return ``move`` in notation: 'b1-b3', 'b1xb3' when the destination holds
        an enemy piece, or 'pass'."""
        if move == PASS:
            return "pass"
        from_sq, to_sq = divmod(int(move), 64)
        enemy = int(state.array[1 - self._side(state)])
        sign = "x" if enemy >> to_sq & 1 else "-"
        return square_name(from_sq) + sign + square_name(to_sq)

    def parse_move_text(self, state: State, text: str) -> int:
        """Return the move code of 'b1-b3', 'b1xb3' or 'pass' (any case; either
        sign); raise InvalidMoveError for anything else."""
        lowered = text.strip().lower()
        if lowered == "pass":
            return PASS
        match = _MOVE_RE.fullmatch(lowered)
        if match is None:
            raise InvalidMoveError(
                f"{text!r} is not a Lines of Action move: expected {_MOVE_FORM}"
            )
        return parse_square(match[1]) * 64 + parse_square(match[2])

    def parse_state(self, text: str) -> State:
        """Return the State that a compact string denotes (options from this game);
        raise InvalidStateError naming what is wrong."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state must be a string, got {text!r}")
        parts = text.split()
        if len(parts) != 2:
            raise InvalidStateError(
                f"{text!r} is not a Lines of Action state: expected "
                "'<64 squares of x/o/.> <b|w>'"
            )
        board, side_letter = parts
        if len(board) != 64:
            raise InvalidStateError(
                f"the board part of {text!r} has {len(board)} squares, expected 64"
            )
        bad = sorted(set(board) - set("xo."))
        if bad:
            raise InvalidStateError(
                f"the board part of {text!r} holds {''.join(bad)!r}; "
                "expected only 'x' (black), 'o' (white) and '.' (empty)"
            )
        if side_letter not in SIDE_LETTERS:
            raise InvalidStateError(
                f"the side to move in {text!r} is {side_letter!r}, expected 'b' or 'w'"
            )
        for letter, colour in (("x", "black"), ("o", "white")):
            count = board.count(letter)
            if not 1 <= count <= 12:
                raise InvalidStateError(
                    f"{text!r} has {count} {colour} pieces, expected 1 to 12"
                )
        black = sum(1 << sq for sq, c in enumerate(board) if c == "x")
        white = sum(1 << sq for sq, c in enumerate(board) if c == "o")
        return State(self._array(black, white, SIDE_LETTERS.index(side_letter)))

    def board_text(self, state: State) -> str:
        """Return the board as text, rank 8 on top, 'X' black, 'O' white, '.' empty,
        coordinates on all edges."""
        black, white = int(state.array[0]), int(state.array[1])
        files = "  " + " ".join(FILES)
        lines = [files]
        for row in range(7, -1, -1):
            cells = []
            for col in range(8):
                sq = row * 8 + col
                cells.append(
                    "X" if black >> sq & 1 else "O" if white >> sq & 1 else "."
                )
            lines.append(f"{row + 1} {' '.join(cells)} {row + 1}")
        lines.append(files)
        return "\n".join(lines)

    # ---- repetition (judged here, from the history; the kernels never see it) ----
    def _next_history(self, state: State, new_array: np.ndarray) -> tuple[bytes, ...]:
        """Return the successor's history: the earlier keys plus this position's,
        or none after a capture (no earlier position can recur then)."""
        before = int(state.array[0]) | int(state.array[1])
        after = int(new_array[0]) | int(new_array[1])
        if after.bit_count() < before.bit_count():
            return ()
        return (*state.history, state.key())

    def _repetition_draw(self, state: State) -> bool:
        """Return True if this position has now occurred ``repetition`` times."""
        return state.history.count(state.key()) + 1 >= self.options["repetition"]

    def repetition_draws(self, state: State) -> tuple[frozenset[int], frozenset[int]]:
        # Only a position already seen ``repetition`` - 1 times (this one
        # counted) can draw by coming back, one or two plies on.
        seen = Counter((*state.history, state.key()))
        if max(seen.values()) + 1 < self.options["repetition"]:
            return frozenset(), frozenset()
        draws, lets_draw = set(), set()
        for move in self.legal_moves(state):
            after = self._apply_unchecked(state, move)
            if self._repetition_draw(after):
                draws.add(move)
            elif after.history and any(
                self._repetition_draw(self._apply_unchecked(after, reply))
                for reply in self.legal_moves(after)
            ):
                lets_draw.add(move)
        return frozenset(draws), frozenset(lets_draw)

    def end_reason(self, state: State, code: int) -> str:
        """Return why the game ended: 'connected group', 'both sides connected at
        once', 'no legal move', 'third repetition' or 'repetition'."""
        if self._repetition_draw(state):
            return (
                "third repetition" if self.options["repetition"] == 3 else "repetition"
            )
        black_done = connected(state.array[0])
        white_done = connected(state.array[1])
        if black_done and white_done:
            return "both sides connected at once"
        if black_done or white_done:
            return "connected group"
        return "no legal move"

    @staticmethod
    def _side(state: State) -> int:
        return int(state.array[_STATE_SIDE])

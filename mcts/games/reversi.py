"""Reversi (Othello): rules as numba kernels over two bitboards, plus notation.

Rules
-----
- The board is 8x8. At the start d4 and e5 hold white discs, d5 and e4 black
  discs (Othello notation, see below). Black moves first.
- A move puts a disc of the mover's colour on an empty square such that, in at
  least one of the 8 directions (orthogonal and diagonal), a contiguous line of
  one or more opposing discs runs from that square and is closed by a disc of
  the mover's colour. Every such line, in every direction, is flipped to the
  mover's colour. A move that would flip nothing is not legal.
- A side with no such move must pass: ``pass`` is then its only legal move. A
  side that has a move may not pass.
- The game ends when neither side can move (board full, one colour wiped out,
  or a blocked position); ``legal_moves`` then returns no moves.
- The side with more discs wins; equal counts are a draw. Empty squares left
  at the end are not awarded to anyone: the score is the plain disc count.

Notation
--------
Othello notation: ``a1`` is the top-left square, columns ``a``..``h`` run left to
right and rows ``1``..``8`` are counted *downward*. A pass is written ``pass``.
Parsing is case-insensitive (``F5`` is ``f5``); formatting is lower-case.

Move codes: ``row * 8 + col`` with row 0 being row ``1`` (the top) and col 0
being column ``a``; so ``a1`` is 0, ``h1`` is 7, ``a2`` is 8 and ``h8`` is 63.
:data:`PASS` is 64. Bit ``i`` of a bitboard is the square with move code ``i``.

State vector
------------
A ``numpy.uint64`` array of length 3::

    [0] black discs (bitboard)
    [1] white discs (bitboard)
    [2] side to move: 0 black, 1 white

Whether the game is over is not stored: it follows from the discs (neither side
has a move), so any position that the string format can express is valid.

State string
------------
``"<64 chars> <b|w>"``: the squares in reading order a1, b1, ..., h1, a2, ...,
h8, each ``x`` (black), ``o`` (white) or ``.`` (empty), a space, then the side
to move. The start position (rows 4 and 5 are ``...ox...`` and ``...xo...``)::

    ...........................ox......xo........................... b

Result
------
:meth:`Reversi.score` is ``{"black": n, "white": m}``; the end reason puts the
winner's count first (``"disc count 40-24"``) or reads ``"equal disc
count 32-32"``.

>>> game = Reversi()
>>> state = game.play(game.initial_state(), "F5")
>>> game.state_string(state)[24:40]  # rows 4 and 5: f5 flipped e5
'...ox......xxx..'
>>> game.to_move(state), game.legal_move_texts(state)
('white', ['f4', 'd6', 'f6'])

A game's rules, notation and kernels are one fact each, and the docstring
above states the rules they implement.
"""

from __future__ import annotations

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
    InvalidStateError,
    State,
)
from .bitboard import popcount, render_position
from .symmetry import EIGHT_BY_EIGHT, map_bitboards

GAME_ID = 0
#: Move code of a pass.
PASS = 64

BLACK_DISCS = 0
WHITE_DISCS = 1
SIDE = 2

FILES = "abcdefgh"

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
# Masks applied after a shift so that a line never wraps from one edge of the
# board to the other: a step toward column h must not land on column a, and
# a step toward column a must not land on column h.
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
_NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)


_START_BLACK = np.uint64((1 << 28) | (1 << 35))  # e4, d5
_START_WHITE = np.uint64((1 << 27) | (1 << 36))  # d4, e5


# ---- bit helpers -----------------------------------------------------------------
@njit(cache=True, nogil=True)
def _nth_bit(bits, n):
    """Return the ``n``-th lowest set bit of ``bits`` (from 0) as a bitboard."""
    for _ in range(n):
        bits &= bits - _ONE
    return bits & (~bits + _ONE)


@njit(cache=True, nogil=True)
def _shift(x, amount, mask):
    """Return ``x`` moved one step in a direction: left by ``amount`` bits if
    positive, right if negative, then cut to ``mask``."""
    if amount > 0:
        return (x << np.uint64(amount)) & mask
    return (x >> np.uint64(-amount)) & mask


# ---- move generation (dumb7fill: at most 6 opposing discs fit between two squares)
@njit(cache=True, nogil=True)
def _ray_targets(own, opp, empty, amount, mask):
    """Return the empty squares that close a line own-opp...-opp in one direction."""
    run = _shift(own, amount, mask) & opp
    for _ in range(5):
        run |= _shift(run, amount, mask) & opp
    return _shift(run, amount, mask) & empty


@njit(cache=True, nogil=True)
def mobility(own, opp):
    """Return the bitboard of squares where the side owning ``own`` may play."""
    empty = ~(own | opp)
    return (
        _ray_targets(own, opp, empty, 1, _NOT_FILE_A)
        | _ray_targets(own, opp, empty, -1, _NOT_FILE_H)
        | _ray_targets(own, opp, empty, 8, _ALL)
        | _ray_targets(own, opp, empty, -8, _ALL)
        | _ray_targets(own, opp, empty, 9, _NOT_FILE_A)
        | _ray_targets(own, opp, empty, 7, _NOT_FILE_H)
        | _ray_targets(own, opp, empty, -7, _NOT_FILE_A)
        | _ray_targets(own, opp, empty, -9, _NOT_FILE_H)
    )


@njit(cache=True, nogil=True)
def _ray_flips(move, own, opp, amount, mask):
    """Return the opposing discs that ``move`` flips in one direction (0 if none)."""
    run = _shift(move, amount, mask) & opp
    for _ in range(5):
        run |= _shift(run, amount, mask) & opp
    # Every square of the shifted run is in the run (opposing) except the one
    # just past its end, so a hit on an own disc means the line is closed.
    if _shift(run, amount, mask) & own:
        return run
    return _ZERO


@njit(cache=True, nogil=True)
def flips(move, own, opp):
    """Return the bitboard of opposing discs flipped by a disc played on ``move``
    (a single-bit bitboard); 0 when the move flips nothing."""
    return (
        _ray_flips(move, own, opp, 1, _NOT_FILE_A)
        | _ray_flips(move, own, opp, -1, _NOT_FILE_H)
        | _ray_flips(move, own, opp, 8, _ALL)
        | _ray_flips(move, own, opp, -8, _ALL)
        | _ray_flips(move, own, opp, 9, _NOT_FILE_A)
        | _ray_flips(move, own, opp, 7, _NOT_FILE_H)
        | _ray_flips(move, own, opp, -7, _NOT_FILE_A)
        | _ray_flips(move, own, opp, -9, _NOT_FILE_H)
    )


@njit(cache=True, nogil=True)
def _own_and_opp(state):
    """Return (mover's discs, opponent's discs) of ``state``."""
    if state[SIDE] == _ZERO:
        return state[BLACK_DISCS], state[WHITE_DISCS]
    return state[WHITE_DISCS], state[BLACK_DISCS]


@njit(cache=True, nogil=True)
def _store_discs(state, own, opp, owner):
    """Write two bitboards into ``state``: ``own`` belongs to ``owner`` (0 black,
    1 white) and ``opp`` to the other side."""
    if owner == 0:
        state[BLACK_DISCS] = own
        state[WHITE_DISCS] = opp
    else:
        state[BLACK_DISCS] = opp
        state[WHITE_DISCS] = own


@njit(cache=True, nogil=True)
def _final_status(black, white):
    """Return BLACK_WINS, WHITE_WINS or DRAW by disc count."""
    nb = popcount(black)
    nw = popcount(white)
    if nb > nw:
        return BLACK_WINS
    if nw > nb:
        return WHITE_WINS
    return DRAW


# ---- the kernel protocol ---------------------------------------------------------
@njit(cache=True, nogil=True)
def legal_moves(state, out):
    """Write the legal move codes into ``out`` in ascending order; return their count.

    Returns 1 with ``out[0] == PASS`` for a forced pass and 0 when the game is over.
    """
    own, opp = _own_and_opp(state)
    moves = mobility(own, opp)
    if moves == _ZERO:
        if mobility(opp, own) == _ZERO:
            return 0
        out[0] = PASS
        return 1
    count = 0
    for square in range(64):
        if (moves >> np.uint64(square)) & _ONE:
            out[count] = square
            count += 1
    return count


@njit(cache=True, nogil=True)
def apply_move(state, move):
    """Play the legal move code ``move`` (a square or PASS) on ``state`` in place."""
    side = np.int64(state[SIDE])
    own, opp = _own_and_opp(state)
    if move != PASS:
        bit = _ONE << np.uint64(move)
        flipped = flips(bit, own, opp)
        own |= bit | flipped
        opp &= ~flipped
    _store_discs(state, own, opp, side)
    state[SIDE] = np.uint64(1 - side)


@njit(cache=True, nogil=True)
def status(state):
    """Return ONGOING while a side can move, else BLACK_WINS, WHITE_WINS or DRAW."""
    black = state[BLACK_DISCS]
    white = state[WHITE_DISCS]
    if mobility(black, white) != _ZERO or mobility(white, black) != _ZERO:
        return ONGOING
    return _final_status(black, white)


@njit(cache=True, nogil=True)
def render_state(state, out):
    """Write the state string ``<64 squares> <b|w>`` as bytes into ``out``;
    return its length (see :func:`~mcts.games.bitboard.render_position`)."""
    return render_position(
        state[BLACK_DISCS], state[WHITE_DISCS], side_to_move(state), out
    )


@njit(cache=True, nogil=True)
def side_to_move(state):
    """Return 0 (black) or 1 (white): the side to move."""
    return np.int64(state[SIDE])


@njit(cache=True, nogil=True)
def random_playout(state):
    """Play uniformly random legal moves on ``state`` in place until the game ends;
    return the final status (BLACK_WINS, WHITE_WINS or DRAW).

    Draws a random set bit of the mobility bitboard directly, so no move list.
    """
    side = np.int64(state[SIDE])
    own, opp = _own_and_opp(state)
    moves = mobility(own, opp)
    while True:
        if moves == _ZERO:
            moves = mobility(opp, own)
            if moves == _ZERO:
                break
            own, opp = opp, own
            side = 1 - side
            continue
        bit = _nth_bit(moves, np.random.randint(0, popcount(moves)))
        flipped = flips(bit, own, opp)
        own, opp = opp & ~flipped, own | bit | flipped
        side = 1 - side
        moves = mobility(own, opp)
    _store_discs(state, own, opp, side)
    state[SIDE] = np.uint64(side)
    return _final_status(state[BLACK_DISCS], state[WHITE_DISCS])


# ---- the Python layer ------------------------------------------------------------
_SQUARE_RE = re.compile(r"([a-h])([1-8])", re.IGNORECASE)
_MOVE_FORM = "expected a square a1..h8 or 'pass'"
_DISC_CHARS = "xo."
_SIDE_CHARS = {"b": 0, "w": 1}


def square_name(code: int) -> str:
    """Return the Othello name of square ``code`` (0..63), e.g. 37 -> ``'f5'``."""
    row, col = divmod(code, 8)
    return f"{FILES[col]}{row + 1}"


class Reversi(Game):
    """Reversi (Othello) on 8x8, black first; see the module docstring for the rules.

    >>> game = Reversi()
    >>> game.legal_move_texts(game.initial_state())
    ['d3', 'c4', 'f5', 'e6']
    """

    name = "reversi"
    title = "Reversi"
    game_id = GAME_ID
    PASS = PASS
    #: Othello notation counts rows downward: a1 is the top-left square.
    rank_one_on_top = True

    @classmethod
    def check_options(cls, **options) -> dict:
        """Return ``{}``: Reversi has no options; raise InvalidOptionsError for any."""
        return super().check_options(**options)

    def initial_array(self) -> np.ndarray:
        """Return a fresh state vector of the start position, black to move."""
        return np.array([_START_BLACK, _START_WHITE, 0], dtype=np.uint64)

    def _kernels(self):
        """Return this module: it holds the kernels."""
        return sys.modules[__name__]

    def symmetries(self) -> tuple[np.ndarray, ...]:
        """Return the eight symmetries of the board: the rules have them all."""
        return EIGHT_BY_EIGHT

    def map_state(self, state: State, image: np.ndarray) -> State:
        """Return ``state`` with every disc moved by the square map ``image``."""
        return State(map_bitboards(state.array, image))

    def move_map(self, image: np.ndarray) -> np.ndarray:
        """Return the move-code table of the square map ``image`` (pass fixed)."""
        return np.append(image, PASS)

    # ---- notation ----------------------------------------------------------------
    def format_move(self, state: State, move: int) -> str:
        """Return the move's notation: ``'f5'`` style, or ``'pass'``."""
        if move == PASS:
            return "pass"
        if not 0 <= move < 64:
            raise InvalidMoveError(f"{move!r} is not a Reversi move code (0..64)")
        return square_name(move)

    def parse_move_text(self, state: State, text: str) -> int:
        """Return the move code of ``text`` (``'f5'``, ``'F5'``, ``'pass'``).

        Raises InvalidMoveError when the text is not a square or ``pass``.
        """
        if text.lower() == "pass":
            return PASS
        match = _SQUARE_RE.fullmatch(text)
        if match is None:
            raise InvalidMoveError(f"{text!r} is not a Reversi move: {_MOVE_FORM}")
        col = FILES.index(match.group(1).lower())
        row = int(match.group(2)) - 1
        return row * 8 + col

    def parse_state(self, text: str) -> State:
        """Return the state that ``"<64 squares> <b|w>"`` denotes.

        Raises InvalidStateError naming the fault: wrong number of fields, wrong
        number of squares, a square that is not x/o/'.', or a side not b/w.
        """
        if not isinstance(text, str):
            raise InvalidStateError(f"a Reversi state must be a string, got {text!r}")
        fields = text.split()
        if len(fields) != 2:
            raise InvalidStateError(
                f"{text!r} is not a Reversi state: expected '<64 squares> <b|w>', "
                f"got {len(fields)} field(s)"
            )
        squares, side = fields
        if len(squares) != 64:
            raise InvalidStateError(
                f"Reversi board must have 64 squares, got {len(squares)} in {squares!r}"
            )
        black = white = 0
        for i, char in enumerate(squares):
            if char not in _DISC_CHARS:
                raise InvalidStateError(
                    f"bad square {char!r} at {square_name(i)} in Reversi state: "
                    "expected 'x' (black), 'o' (white) or '.' (empty)"
                )
            if char == "x":
                black |= 1 << i
            elif char == "o":
                white |= 1 << i
        if side not in _SIDE_CHARS:
            raise InvalidStateError(
                f"bad side to move {side!r} in Reversi state: expected 'b' or 'w'"
            )
        return State(np.array([black, white, _SIDE_CHARS[side]], dtype=np.uint64))

    def board_text(self, state: State) -> str:
        """Return the board as text: rows 1..8 downward, columns a..h, 'X' black,
        'O' white, '.' empty."""
        squares = self.state_string(state).split()[0]
        header = "  " + " ".join(FILES)
        lines = [header]
        for row in range(8):
            cells = " ".join(squares[row * 8 : row * 8 + 8].upper())
            lines.append(f"{row + 1} {cells} {row + 1}")
        lines.append(header)
        return "\n".join(lines)

    # ---- results -----------------------------------------------------------------
    def score(self, state: State) -> dict[str, int]:
        """Return the disc counts ``{"black": n, "white": m}``; empties go to no one."""
        black, white = (int(v).bit_count() for v in state.array[:2])
        return {"black": black, "white": white}

    def end_reason(self, state: State, code: int) -> str:
        """Return ``"disc count 40-24"`` (winner's count first) or
        ``"equal disc count 32-32"`` for a draw."""
        score = self.score(state)
        high = max(score.values())
        low = min(score.values())
        if code == DRAW:
            return f"equal disc count {high}-{low}"
        return f"disc count {high}-{low}"

"""A plain-Python Lines of Action, written apart from the kernels, to check them.

Slow and obvious on purpose: a position is a dict from (col, row) to "b" or "w",
every rule is a walk over squares, connection is a breadth-first search. It
shares nothing with :mod:`mcts.games.loa` but the move code
(``from_square * 64 + to_square``, square = ``row * 8 + col``, row 0 = rank 1),
the PASS code 4096 and the status codes, so that the two can be compared.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

PASS = 4096
ONGOING, BLACK_WINS, WHITE_WINS, DRAW = 0, 1, 2, 3

STEPS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


@dataclass(frozen=True)
class Position:
    """A board (frozenset of (col, row, colour)), the side to move and the two
    rule switches kept in the kernels' flags word."""

    pieces: frozenset
    to_move: str = "b"
    mover_wins_double: bool = False
    no_move_loses: bool = False

    def board(self) -> dict:
        """Return the board as a dict (col, row) -> 'b' or 'w'."""
        return {(c, r): colour for c, r, colour in self.pieces}


def start(mover_wins_double: bool = False, no_move_loses: bool = False) -> Position:
    """Return the start position: black on b1-g1 and b8-g8, white on a2-a7 and h2-h7."""
    pieces = set()
    for i in range(1, 7):
        pieces |= {(i, 0, "b"), (i, 7, "b"), (0, i, "w"), (7, i, "w")}
    return Position(frozenset(pieces), "b", mover_wins_double, no_move_loses)


def from_string(text: str, **switches) -> Position:
    """Return the position of a '<64 chars> <b|w>' string."""
    board, side = text.split()
    pieces = set()
    for sq, ch in enumerate(board):
        if ch == "x":
            pieces.add((sq % 8, sq // 8, "b"))
        elif ch == "o":
            pieces.add((sq % 8, sq // 8, "w"))
    return Position(frozenset(pieces), side, **switches)


def to_string(pos: Position) -> str:
    """Return the '<64 chars> <b|w>' string of a position."""
    board = pos.board()
    chars = []
    for row in range(8):
        for col in range(8):
            chars.append({"b": "x", "w": "o"}.get(board.get((col, row)), "."))
    return "".join(chars) + " " + pos.to_move


def bitboards(pos: Position) -> tuple[int, int, int]:
    """Return (black, white, side) as the kernels store them: bit row * 8 + col
    set for each piece, side 0 for black to move and 1 for white."""
    masks = {"b": 0, "w": 0}
    for col, row, colour in pos.pieces:
        masks[colour] |= 1 << (row * 8 + col)
    return masks["b"], masks["w"], 0 if pos.to_move == "b" else 1


def other(colour: str) -> str:
    """Return the opposite colour letter."""
    return "w" if colour == "b" else "b"


def inside(col: int, row: int) -> bool:
    """Return True for a square on the 8x8 board."""
    return 0 <= col < 8 and 0 <= row < 8


def pieces_on_line(board: dict, col: int, row: int, dc: int, dr: int) -> int:
    """Return how many pieces stand on the whole line through (col, row) along
    (dc, dr), both ways, the square itself included."""
    count = 1 if (col, row) in board else 0
    for sign in (1, -1):
        c, r = col + sign * dc, row + sign * dr
        while inside(c, r):
            if (c, r) in board:
                count += 1
            c, r = c + sign * dc, r + sign * dr
    return count


def piece_moves(pos: Position) -> list[int]:
    """Return the move codes of the side to move, ignoring passes and game end."""
    board = pos.board()
    me = pos.to_move
    moves = []
    for (col, row), colour in board.items():
        if colour != me:
            continue
        for dc, dr in STEPS:
            distance = pieces_on_line(board, col, row, dc, dr)
            to_col, to_row = col + dc * distance, row + dr * distance
            if not inside(to_col, to_row) or board.get((to_col, to_row)) == me:
                continue
            path = [(col + dc * k, row + dr * k) for k in range(1, distance)]
            if any(board.get(square) == other(me) for square in path):
                continue
            moves.append((row * 8 + col) * 64 + to_row * 8 + to_col)
    return moves


def is_connected(board: dict, colour: str) -> bool:
    """Return True if the pieces of ``colour`` form one 8-connected group."""
    mine = {square for square, c in board.items() if c == colour}
    if not mine:
        return False
    first = next(iter(mine))
    seen = {first}
    queue = deque([first])
    while queue:
        col, row = queue.popleft()
        for dc, dr in STEPS:
            neighbour = (col + dc, row + dr)
            if neighbour in mine and neighbour not in seen:
                seen.add(neighbour)
                queue.append(neighbour)
    return seen == mine


def status(pos: Position) -> int:
    """Return ONGOING, BLACK_WINS, WHITE_WINS or DRAW of a position."""
    board = pos.board()
    black = is_connected(board, "b")
    white = is_connected(board, "w")
    just_moved = other(pos.to_move)
    if black and white:
        if pos.mover_wins_double:
            return BLACK_WINS if just_moved == "b" else WHITE_WINS
        return DRAW
    if black:
        return BLACK_WINS
    if white:
        return WHITE_WINS
    if pos.no_move_loses and not piece_moves(pos):
        return WHITE_WINS if pos.to_move == "b" else BLACK_WINS
    return ONGOING


def legal_moves(pos: Position) -> list[int]:
    """Return the legal move codes: [] when the game is over, [PASS] when stuck."""
    if status(pos) != ONGOING:
        return []
    return piece_moves(pos) or [PASS]


def play(pos: Position, move: int) -> Position:
    """Return the position after ``move`` (no legality check)."""
    pieces = set(pos.pieces)
    if move != PASS:
        frm, to = divmod(move, 64)
        fc, fr, tc, tr = frm % 8, frm // 8, to % 8, to // 8
        pieces.discard((fc, fr, pos.to_move))
        pieces.discard((tc, tr, other(pos.to_move)))
        pieces.add((tc, tr, pos.to_move))
    return Position(
        frozenset(pieces),
        other(pos.to_move),
        pos.mover_wins_double,
        pos.no_move_loses,
    )


def perft(pos: Position, depth: int) -> int:
    """Return the leaf count ``depth`` plies down; a finished game is a leaf."""
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, move), depth - 1) for move in moves)

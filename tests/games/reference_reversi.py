"""A plain-Python Reversi, written for clarity, to check the numba kernels against.

No bitboards and no numba: a position is a dict from (row, col) to ``"x"``,
``"o"`` or ``"."`` plus the side to move, and every rule is spelled out by
walking the board square by square. Row 0 is the top row (``1`` in Othello
notation) and column 0 is column ``a``, so a square's move code is
``row * 8 + col`` and a pass is 64, as in :mod:`mcts.games.reversi`.
"""

from __future__ import annotations

from dataclasses import dataclass

PASS = 64
SIZE = 8
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
OTHER = {"x": "o", "o": "x"}


@dataclass(frozen=True)
class Position:
    """A board ``{(row, col): 'x' | 'o' | '.'}`` and the mover, ``'x'`` or ``'o'``."""

    board: dict
    mover: str


def on_board(row: int, col: int) -> bool:
    """Return True if (row, col) is one of the 64 squares."""
    return 0 <= row < SIZE and 0 <= col < SIZE


def start() -> Position:
    """Return the start position: d4, e5 white; d5, e4 black; black to move."""
    board = {(r, c): "." for r in range(SIZE) for c in range(SIZE)}
    board[(3, 3)] = "o"  # d4
    board[(4, 4)] = "o"  # e5
    board[(4, 3)] = "x"  # d5
    board[(3, 4)] = "x"  # e4
    return Position(board, "x")


def from_string(text: str) -> Position:
    """Return the position of a ``"<64 squares> <b|w>"`` string (trusted input)."""
    squares, side = text.split()
    board = {(i // SIZE, i % SIZE): ch for i, ch in enumerate(squares)}
    return Position(board, "x" if side == "b" else "o")


def to_string(pos: Position) -> str:
    """Return the ``"<64 squares> <b|w>"`` string of ``pos``."""
    squares = "".join(pos.board[(r, c)] for r in range(SIZE) for c in range(SIZE))
    return squares + " " + ("b" if pos.mover == "x" else "w")


def captured(pos: Position, player: str, row: int, col: int) -> list:
    """Return the squares ``player`` would flip by playing on the empty (row, col)."""
    if pos.board[(row, col)] != ".":
        return []
    enemy = OTHER[player]
    result = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while on_board(r, c) and pos.board[(r, c)] == enemy:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and on_board(r, c) and pos.board[(r, c)] == player:
            result.extend(line)
    return result


def placements(pos: Position, player: str) -> list[int]:
    """Return the move codes of the squares where ``player`` may place a disc."""
    return [
        r * SIZE + c
        for r in range(SIZE)
        for c in range(SIZE)
        if captured(pos, player, r, c)
    ]


def legal_moves(pos: Position) -> list[int]:
    """Return the legal move codes ascending; [PASS] if forced; [] at the end."""
    mine = placements(pos, pos.mover)
    if mine:
        return mine
    if placements(pos, OTHER[pos.mover]):
        return [PASS]
    return []


def play(pos: Position, move: int) -> Position:
    """Return the position after the legal ``move`` (``pos`` is not changed)."""
    board = dict(pos.board)
    if move != PASS:
        row, col = divmod(move, SIZE)
        for square in captured(pos, pos.mover, row, col):
            board[square] = pos.mover
        board[(row, col)] = pos.mover
    return Position(board, OTHER[pos.mover])


def counts(pos: Position) -> tuple[int, int]:
    """Return (black discs, white discs)."""
    values = list(pos.board.values())
    return values.count("x"), values.count("o")


def result(pos: Position) -> str | None:
    """Return None while the game goes on, else "black", "white" or "draw"."""
    if legal_moves(pos):
        return None
    black, white = counts(pos)
    if black > white:
        return "black"
    if white > black:
        return "white"
    return "draw"


def perft(pos: Position, depth: int) -> int:
    """Return the leaf count ``depth`` plies down; a finished game is a leaf."""
    moves = legal_moves(pos)
    if depth == 0 or not moves:
        return 1
    return sum(perft(play(pos, m), depth - 1) for m in moves)

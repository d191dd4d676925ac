"""Plain-Python reference rules of freestyle gomoku, to check the numba kernels.

Slow on purpose and written from the rules, not from the kernels: the board is
a dict, a win is found by trying every window of ``row`` cells on the whole
board, and nothing is cached or updated incrementally.

Cells are ``(col, row)`` pairs with ``(0, 0)`` = ``a1`` (bottom-left); the move
code of a cell is ``row * size + col``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

BLACK = "x"
WHITE = "o"
EMPTY = "."

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Position:
    """A gomoku position: board side, row length, stones by cell, side to move."""

    size: int
    row: int
    stones: dict = field(default_factory=dict)
    to_move: str = BLACK

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Return the position of a well-formed state string (no validation)."""
        board, side = text.split()
        size, row, marks = board.split(":")
        position = cls(int(size), int(row), to_move=BLACK if side == "b" else WHITE)
        for cell, mark in zip(position.cells(), marks, strict=True):
            if mark != EMPTY:
                position.stones[cell] = mark
        return position

    def cells(self) -> list[tuple[int, int]]:
        """Return every cell in move-code order (a1, b1, ..., a2, ...)."""
        return [(c, r) for r in range(self.size) for c in range(self.size)]

    def code(self, cell: tuple[int, int]) -> int:
        """Return the move code of ``cell``."""
        col, row = cell
        return row * self.size + col

    def cell(self, code: int) -> tuple[int, int]:
        """Return the cell of move code ``code``."""
        return (code % self.size, code // self.size)

    def has_row(self, colour: str) -> bool:
        """Return True if some ``row`` consecutive cells in a line hold ``colour``."""
        for col, row in self.cells():
            for dc, dr in DIRECTIONS:
                window = [(col + dc * k, row + dr * k) for k in range(self.row)]
                if all(self.stones.get(cell) == colour for cell in window):
                    return True
        return False

    def winner(self) -> str | None:
        """Return "black" or "white" if that side has a winning line, else None."""
        if self.has_row(BLACK):
            return "black"
        if self.has_row(WHITE):
            return "white"
        return None

    def result(self) -> str | None:
        """Return "black", "white", "draw", or None while the game goes on."""
        winner = self.winner()
        if winner is not None:
            return winner
        if len(self.stones) == self.size * self.size:
            return "draw"
        return None

    def legal_moves(self) -> list[int]:
        """Return the codes of the empty cells in ascending order, [] if over."""
        if self.result() is not None:
            return []
        return [self.code(cell) for cell in self.cells() if cell not in self.stones]

    def play(self, code: int) -> Position:
        """Return the position after the side to move puts a stone on ``code``."""
        cell = self.cell(code)
        assert cell not in self.stones and self.result() is None
        stones = dict(self.stones)
        stones[cell] = self.to_move
        other = WHITE if self.to_move == BLACK else BLACK
        return Position(self.size, self.row, stones, other)

    def side_name(self) -> str:
        """Return "black" or "white": the side to move."""
        return "black" if self.to_move == BLACK else "white"

    def to_string(self) -> str:
        """Return the compact state string "<size>:<row>:<cells> <b|w>"."""
        cells = "".join(self.stones.get(cell, EMPTY) for cell in self.cells())
        side = "b" if self.to_move == BLACK else "w"
        return f"{self.size}:{self.row}:{cells} {side}"


def move_name(size: int, code: int) -> str:
    """Return the renju name of a move code: column letter, row number from 1."""
    return "abcdefghijklmnopqrs"[code % size] + str(code // size + 1)


def perft(position: Position, depth: int) -> int:
    """Return the number of leaves ``depth`` plies below ``position``; a finished
    game is a leaf wherever it ends."""
    if depth == 0:
        return 1
    moves = position.legal_moves()
    if not moves:
        return 1
    if depth == 1:
        return len(moves)
    return sum(perft(position.play(move), depth - 1) for move in moves)

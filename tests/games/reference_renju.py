"""Plain-Python reference rules of standard gomoku and renju, to check the
numba kernels (mcts/games/gomoku.py, renju.py).

Written from the rules, not from the kernels: a line through a point is read
as a string of 11 characters (``x`` black, ``o`` white, ``.`` empty, ``#``
off the board), and fours and threes are found by sliding a window of five
over that string. Plain rather than fast.

Renju (RIF rules, article 9): black may not play a point that makes an
overline (six or more), two fours, or two threes, unless the same stone makes
a five (exactly five). A four is five points on a line holding four black
stones and an empty point, that one black stone more turns into exactly five.
A straight four is four in a row with both ends five points. A three is
three that one black stone more, on a point that is not itself forbidden,
turns into a straight four. White has no forbidden points and wins with five
or more. Standard gomoku: exactly ``row`` wins, for both colours.
"""

from __future__ import annotations

BLACK = "x"
WHITE = "o"
EMPTY = "."
EDGE = "#"

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


#: Off-board cells around the board: a line of 11 read from any point stays
#: inside the padded list.
BORDER = 6


class Board:
    """A position: board side, row, rule, the cells, side to move.

    The cells are a flat list of the board padded with off-board cells, so a
    line through a point is a strided slice of it.
    """

    def __init__(self, size: int, row: int, rule: str, stones=None, to_move=BLACK):
        self.size, self.row, self.rule = size, row, rule
        self.width = size + 2 * BORDER
        self.cells = [EDGE] * (self.width * self.width)
        for c in range(size):
            for r in range(size):
                self.cells[self.index((c, r))] = EMPTY
        for point, mark in (stones or {}).items():
            self.cells[self.index(point)] = mark
        self.to_move = to_move
        self.steps = [dc + dr * self.width for dc, dr in DIRECTIONS]

    @classmethod
    def from_string(cls, text: str) -> Board:
        """Return the board of a state string ``size:row:[rule:]cells side``."""
        board, side = text.split()
        parts = board.split(":")
        size, row, cells = int(parts[0]), int(parts[1]), parts[-1]
        rule = parts[2] if len(parts) == 4 else "freestyle"
        stones = {}
        for code, mark in enumerate(cells):
            if mark != EMPTY:
                stones[(code % size, code // size)] = mark
        return cls(size, row, rule, stones, BLACK if side == "b" else WHITE)

    def index(self, point) -> int:
        col, row = point
        return (row + BORDER) * self.width + col + BORDER

    def at(self, point) -> str:
        return self.cells[self.index(point)]

    def put(self, point, mark) -> None:
        self.cells[self.index(point)] = mark

    @property
    def stones(self) -> dict[tuple[int, int], str]:
        return {
            (c, r): self.at((c, r))
            for r in range(self.size)
            for c in range(self.size)
            if self.at((c, r)) != EMPTY
        }

    def line(self, point, d) -> str:
        """The 11 characters of the line through ``point`` along direction
        number ``d``, the point in the middle (index 5)."""
        i, step = self.index(point), self.steps[d]
        return "".join(self.cells[i - 5 * step : i + 6 * step : step])

    def run(self, point, d, colour) -> int:
        """The length of the unbroken ``colour`` line through ``point``."""
        i, step = self.index(point), self.steps[d]
        length = 1
        for sign in (step, -step):
            j = i + sign
            while self.cells[j] == colour:
                length += 1
                j += sign
        return length

    # ---- renju ----------------------------------------------------------------
    def _five_points(self, point, d) -> list[int]:
        """Offsets (−4..4) of the empty points along ``d`` that make exactly
        five with the black stone on ``point``: each five-window holding
        ``point``, four black and one empty point, no black just outside."""
        text = self.line(point, d)
        found = set()
        for start in range(1, 6):  # windows text[start:start+5] holding index 5
            window = text[start : start + 5]
            four = window.count(BLACK) == 4 and window.count(EMPTY) == 1
            alone = text[start - 1] != BLACK and text[start + 5 : start + 6] != BLACK
            if four and alone:
                found.add(start + window.index(EMPTY) - 5)
        return sorted(found)

    def fours(self, point, d) -> int:
        """How many fours the black stone on ``point`` makes along ``d``."""
        points = self._five_points(point, d)
        if len(points) == 2 and points[1] - points[0] == 5:
            return 1  # a straight four is one four
        return len(points)

    def is_three(self, point, d) -> bool:
        """True if one more black stone along ``d``, on a point that is not
        forbidden, makes a straight four with the stone on ``point``."""
        (col, row), (dc, dr) = point, DIRECTIONS[d]
        for k in range(-4, 5):
            other = (col + k * dc, row + k * dr)
            if k == 0 or self.at(other) != EMPTY:
                continue
            self.put(other, BLACK)
            points = self._five_points(point, d)
            straight = len(points) == 2 and points[1] - points[0] == 5
            self.put(other, EMPTY)
            if straight and self.forbidden(other) is None:
                return True
        return False

    def forbidden(self, point) -> str | None:
        """Why the empty ``point`` is forbidden to black, or None."""
        lines = [self.line(point, d) for d in range(4)]
        if all(text[1:10].count(BLACK) < 2 for text in lines):
            return None  # no line holds the two more black stones a three needs
        self.put(point, BLACK)
        try:
            runs = [self.run(point, d, BLACK) for d in range(4)]
            if 5 in runs:
                return None  # a five beats a forbidden point
            if max(runs) > 5:
                return "overline"
            fours = threes = 0
            for d in range(4):
                found = self.fours(point, d)
                if found:
                    fours += found
                elif self.is_three(point, d):
                    threes += 1
            if fours >= 2:
                return "double four"
            if threes >= 2:
                return "double three"
            return None
        finally:
            self.put(point, EMPTY)

    # ---- the game --------------------------------------------------------------
    def wins(self, colour, length) -> bool:
        if length == self.row:
            return True
        if length < self.row:
            return False
        return self.rule == "freestyle" or (self.rule == "renju" and colour == WHITE)

    def empties(self) -> list[tuple[int, int]]:
        """The empty points in move-code order."""
        return [
            (c, r)
            for r in range(self.size)
            for c in range(self.size)
            if self.at((c, r)) == EMPTY
        ]

    def legal(self) -> list[tuple[int, int]]:
        """The legal points, in move-code order (none once the game is over)."""
        if self.result() is not None:
            return []
        points = self.empties()
        if self.rule == "renju" and self.to_move == BLACK:
            points = [p for p in points if self.forbidden(p) is None]
        return points

    def winner(self) -> str | None:
        for point, colour in self.stones.items():
            for d in range(4):
                if self.wins(colour, self.run(point, d, colour)):
                    return colour
        return None

    def result(self) -> str | None:
        """ "x" or "o" for a win, "draw", or None while the game goes on."""
        won = self.winner()
        if won:
            return won
        if not self.empties():
            return "draw"
        stuck = self.rule == "renju" and self.to_move == BLACK
        if stuck and all(self.forbidden(p) for p in self.empties()):
            return "draw"
        return None

    def play(self, point) -> None:
        self.put(point, self.to_move)
        self.to_move = WHITE if self.to_move == BLACK else BLACK

"""Looking back at a game: how it ended (the squares that won it) and what
the AI thinks of each position it went through.

The page draws both and decides nothing: the winning squares and the win
probabilities come from here. A position's evaluation is a short fresh search
on the AI's worker pool (:func:`.ai.evaluate`), asked ply by ply, so that a
game's analysis shares the pool fairly with the AI's moves and hints.
"""

from __future__ import annotations

from mcts import Gomoku

from .ai import evaluate
from .games import GameId, get_row, position_for_help
from .positions import board, position

#: The search time of one position of a game analysis: short, because a game
#: has up to a few hundred positions and the page asks for them one by one.
ANALYSIS_SECONDS = 0.2

#: The four line directions of a board, as (row step, column step).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def analyse_ply(game_id: GameId, *, ply: int) -> dict:
    """Return what the AI thinks of the position after the first ``ply``
    moves of the game: ``black`` (Black's win probability, 0..1), the side
    ``to_move`` (None at the end), the ``best`` move and its line ``pv``, and
    ``proven`` (the side to move's proven result, or None).

    A finished position is scored by its result without a search.
    """
    _, game, state = position_for_help(game_id, ply)
    outcome = game.outcome(state)
    if outcome is not None:
        black = {"black": 1.0, "white": 0.0, None: 0.5}[outcome.winner]
        return {
            "ply": ply,
            "to_move": None,
            "black": black,
            "best": None,
            "pv": [],
            "proven": None,
        }
    result = evaluate(game, state, seconds=ANALYSIS_SECONDS)
    side = result["side"]
    black = result["value"] if side == "black" else 1.0 - result["value"]
    return {
        "ply": ply,
        "to_move": side,
        "black": round(black, 4),
        "best": result["move"],
        "pv": result["pv"][:6],
        "proven": result["proven"],
    }


def ending(game_id: GameId) -> dict:
    """Return how the game ended: ``winner`` and ``reason`` (None while it
    is played) and the ``squares`` to highlight: Gomoku's winning row(s),
    the winner's connected group in Lines of Action (both groups, when a
    move joined both sides at once and drew), the winner's discs in
    Reversi; none for another draw, a game still on, or one that did not end on
    the board (a resignation, a loss on time, a claim)."""
    row = get_row(game_id)
    result = row.result or {}
    winner = result.get("winner")
    squares: list[str] = []
    game, state = position(row)
    # Only what won on the board: not after a resignation, a flag or a claim.
    if winner and game.is_terminal(state):
        shown = board(game, game.state_string(state))
        if isinstance(game, Gomoku):
            squares = _rows_of(shown, winner, game)
        else:
            squares = _squares_of(shown, winner)
    elif result.get("reason") == BOTH_JOINED and game.is_terminal(state):
        # Lines of Action's draw: both groups, as a win lights the winner's.
        shown = board(game, game.state_string(state))
        squares = _squares_of(shown, "black") + _squares_of(shown, "white")
    return {"winner": winner, "reason": result.get("reason"), "squares": squares}


#: Lines of Action's ending of a move that joins both sides at once.
BOTH_JOINED = "both sides connected at once"


def _squares_of(shown: dict, colour: str) -> list[str]:
    """Return the squares holding ``colour`` on the board JSON ``shown``."""
    return [
        shown["files"][c] + shown["ranks"][r]
        for r, line in enumerate(shown["cells"])
        for c, cell in enumerate(line)
        if cell == colour
    ]


def _rows_of(shown: dict, colour: str, game: Gomoku) -> list[str]:
    """Return the squares of every unbroken line of ``colour`` on the board
    JSON ``shown`` that wins under ``game``'s rule (not a standard overline).

    Read off the finished board because the rules library does not name the
    squares that won (it only says who won); it belongs there, as
    ``Game.winning_squares``, when the library is next changed."""
    cells, size = shown["cells"], shown["size"]
    found: set[tuple[int, int]] = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in _DIRECTIONS:
                before = (r - dr, c - dc)
                if _holds(cells, size, before, colour):
                    continue  # not the start of its line
                run = []
                at = (r, c)
                while _holds(cells, size, at, colour):
                    run.append(at)
                    at = (at[0] + dr, at[1] + dc)
                if game.wins_with(colour, len(run)):
                    found.update(run)
    return [shown["files"][c] + shown["ranks"][r] for r, c in sorted(found)]


def _holds(cells: list, size: int, at: tuple[int, int], colour: str) -> bool:
    r, c = at
    return 0 <= r < size and 0 <= c < size and cells[r][c] == colour

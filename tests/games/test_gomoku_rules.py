"""Gomoku's standard and renju rules (issue 66): exact rows, white's
overlines, black's forbidden points, checked against published and built
positions and against the plain reference rules (reference_renju.py) over
random games and perft counts.

Position files (tests/data/renju/*.txt) hold blocks separated by blank lines:
``# source:`` and ``# to move:`` lines, a 15×15 diagram (row 15 on top,
``x`` black, ``o`` white, ``.`` empty), then ``forbidden: h8=double-three
...`` (each point forbidden to black, with its kind when the source says) and
``allowed: g7 ...`` (points the source says black may play).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcts.games import kernels
from mcts.games.base import (
    BLACK_WINS,
    DRAW,
    ONGOING,
    WHITE_WINS,
    IllegalMoveError,
    InvalidStateError,
    Outcome,
)
from mcts.games.gomoku import Gomoku
from tests.games import reference_renju as ref
from tests.games.renju_games import play as play_random_game

DATA = Path(__file__).resolve().parents[1] / "data" / "renju"
KINDS = {
    "double-three": "double three",
    "double-four": "double four",
    "overline": "overline",
}


def read_positions(name: str) -> list[dict]:
    """Return the positions of a file: source, state string, forbidden points
    (point -> kind or None) and allowed points."""
    positions = []
    for block in (DATA / name).read_text().split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip()]
        rows = [line.split() for line in lines if line.split()[0].isdigit()]
        if not rows:
            continue
        meta = {
            key.strip(): value.strip()
            for key, value in (
                line.lstrip("# ").split(":", 1)
                for line in lines
                if line.startswith("#")
            )
        }
        cells = {int(row[0]): row[1:16] for row in rows}
        marks = "".join("".join(cells[r]) for r in range(1, 16))
        side = "b" if meta.get("to move", "black") == "black" else "w"
        position = {
            "source": meta["source"],
            "state": f"15:5:renju:{marks} {side}",
            "forbidden": {},
            "allowed": [],
        }
        for line in lines:
            if line.startswith("forbidden:"):
                for item in line.split(":", 1)[1].split():
                    point, _, kind = item.partition("=")
                    position["forbidden"][point] = KINDS.get(kind)
            elif line.startswith("allowed:"):
                position["allowed"] = line.split(":", 1)[1].split()
        positions.append(position)
    return positions


BUILT = read_positions("built.txt")
PUBLISHED = read_positions("published.txt") if (DATA / "published.txt").exists() else []
POSITIONS = BUILT + PUBLISHED
RENJU = Gomoku(rule="renju")


def test_there_are_thirty_positions_of_every_kind():
    assert len(POSITIONS) >= 30
    text = " ".join(p["source"] for p in BUILT).lower()
    for case in (
        "double three",
        "double four",
        "overline",
        "false three",
        "five beats",
    ):
        assert case in text


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p["source"][:60])
def test_forbidden_points_are_the_sources(position):
    state = RENJU.parse_state(position["state"])
    board = ref.Board.from_string(position["state"])
    for point, kind in position["forbidden"].items():
        move = RENJU.parse_move_text(state, point)
        assert RENJU.forbidden_reason(state, move) is not None, point
        if kind:
            assert RENJU.forbidden_reason(state, move) == kind, point
        assert board.forbidden((move % 15, move // 15)) == RENJU.forbidden_reason(
            state, move
        )
        assert move not in RENJU.legal_moves(state)
    for point in position["allowed"]:
        move = RENJU.parse_move_text(state, point)
        assert RENJU.forbidden_reason(state, move) is None, point
        assert board.forbidden((move % 15, move // 15)) is None, point
        if RENJU.to_move(state) == "black":
            assert move in RENJU.legal_moves(state)


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p["source"][:60])
def test_every_point_of_the_positions_agrees_with_the_reference(position):
    state = RENJU.parse_state(position["state"])
    board = ref.Board.from_string(position["state"])
    expected = [r * 15 + c for (c, r) in board.legal()]
    assert RENJU.legal_moves(state) == expected


def test_a_forbidden_click_is_refused_with_the_reason():
    state = RENJU.parse_state(BUILT[0]["state"])
    with pytest.raises(IllegalMoveError, match="forbidden point for black under renju"):
        RENJU.play(state, "j8")
    with pytest.raises(IllegalMoveError, match=r"\(double three\)"):
        RENJU.play(state, "j8")


def test_white_is_never_forbidden_and_wins_with_an_overline():
    game = RENJU
    # White's d8 e8 f8 h8 i8: g8 makes six, and wins.
    state = game.play_all(
        ["a1", "d8", "a3", "e8", "a5", "f8", "a7", "h8", "a9", "i8", "c2"]
    )
    assert game.to_move(state) == "white"
    assert game.forbidden_reason(state, game.parse_move_text(state, "g8")) is None
    after = game.play(state, "g8")
    assert game.status(after) == WHITE_WINS
    assert game.outcome(after).reason == "six in a row"


def test_under_renju_white_wins_with_five_or_more_and_black_with_five():
    assert RENJU.wins_with("white", 6) and RENJU.wins_with("black", 5)
    assert not RENJU.wins_with("black", 6) and not RENJU.wins_with("white", 4)


def test_black_wins_with_exactly_five_under_renju():
    state = RENJU.play_all(["d8", "a1", "e8", "a3", "f8", "a5", "g8", "a7", "h8"])
    assert RENJU.status(state) == BLACK_WINS


def alternate(black: str, white: str) -> list[str]:
    """Return the moves of black's and white's points in turn."""
    pairs = zip(black.split(), white.split(), strict=False)
    moves = [move for pair in pairs for move in pair]
    return moves + black.split()[len(white.split()) :]


@pytest.mark.parametrize(
    ("row", "black", "gap"), [(5, "d8 e8 f8 h8 i8", "g8"), (4, "d8 e8 g8 h8", "f8")]
)
def test_standard_wins_with_exactly_the_row_and_never_with_more(row, black, gap):
    game = Gomoku(rule="standard", row=row)
    moves = alternate(black, "a1 a3 a5 a7 a9")
    overline = game.play_all(moves + [gap])
    assert game.status(overline) == ONGOING
    code = game.parse_move_text(overline, gap)
    assert game.overline_through(overline, code)
    assert not game.overline_through(game.play_all(moves), code)  # empty there
    assert not game.overline_through(overline, game.parse_move_text(overline, "a1"))
    assert [game.wins_with("white", n) for n in (row - 1, row, row + 1)] == [
        False,
        True,
        False,
    ]
    assert Gomoku(row=row).wins_with("black", row + 1)
    freestyle = Gomoku(row=row)
    assert freestyle.status(freestyle.play_all(moves + [gap])) == BLACK_WINS
    # White's overline does not win either, exactly five (or the row) does.
    white = game.play_all(alternate("a1 a3 a5 a7 a9 a11", black) + [gap])
    assert game.status(white) == ONGOING
    exact = alternate(" ".join(["a1", "a3", "a5", "a7", "a9"][:row]), "b2 c2 d2 e2 f2")
    assert game.status(game.play_all(exact[: 2 * row])) == WHITE_WINS


def test_standard_state_strings_round_trip_and_name_the_rule():
    game = Gomoku(rule="standard")
    state = game.play_all(["h8", "h9"])
    text = game.state_string(state)
    assert text.startswith("15:5:standard:") and text.endswith(" b")
    assert game.parse_state(text) == state
    with pytest.raises(InvalidStateError, match="for the standard rule"):
        RENJU.parse_state(text)
    assert RENJU.state_string(RENJU.initial_state()).startswith("15:5:renju:")


def test_a_small_board_filled_in_order_agrees_with_the_reference_to_the_end():
    # 5x5 renju, each side playing its first legal point: black soon meets
    # forbidden points, and the game ends in a win or with no legal move.
    game = Gomoku(size=5, rule="renju")
    board = ref.Board(5, 5, "renju")
    state = game.initial_state()
    for code in range(25):
        legal = game.legal_moves(state)
        if not legal:
            break
        # Fill the board in code order while it stays legal for both.
        move = legal[0]
        state = game.apply(state, move)
        board.play((move % 5, move // 5))
        expected = {1: "x", 2: "o", 3: "draw", 0: None}[game.status(state)]
        assert expected == board.result(), code
    assert game.status(state) in (BLACK_WINS, WHITE_WINS, DRAW)


#: Built positions whose perft counts both implementations must agree on.
PERFT = [p for p in BUILT if "crossing" in p["source"] or "false three" in p["source"]]


@pytest.mark.parametrize("position", PERFT, ids=lambda p: p["source"][:60])
def test_renju_perft_agrees_with_the_reference(position):
    state = RENJU.parse_state(position["state"])
    board = ref.Board.from_string(position["state"])

    def reference_perft(board, depth):
        if depth == 0:
            return 1
        legal = board.legal()
        if not legal:
            return 1
        total = 0
        for point in legal:
            saved = board.cells[:], board.to_move
            board.play(point)
            total += reference_perft(board, depth - 1)
            board.cells, board.to_move = saved
        return total

    for depth in (1, 2):
        assert kernels.perft(
            RENJU.game_id, state.array.copy(), depth
        ) == reference_perft(board, depth)


@pytest.mark.parametrize("seed", range(40))
def test_random_renju_games_agree_with_the_reference_move_by_move(seed):
    plies, _ = play_random_game(seed)
    assert plies > 0


def test_black_left_only_forbidden_points_draws_and_says_so():
    # The end said "no legal move", as a player read it of Lines of Action,
    # and the rules dialog nothing (a rules expert's review).
    game = Gomoku(size=6, rule="renju")
    state = game.play_all(
        [
            "c5",
            "c2",
            "a5",
            "a3",
            "b1",
            "b4",
            "a6",
            "a1",
            "b5",
            "f3",
            "c3",
            "c6",
            "b2",
            "f2",
            "f1",
            "b3",
            "c4",
            "d2",
            "e2",
            "f6",
            "a2",
            "e6",
            "b6",
            "f4",
            "c1",
            "a4",
            "f5",
            "d4",
            "d5",
            "d1",
            "e4",
            "e1",
            "e3",
            "d6",
        ]
    )
    assert game.to_move(state) == "black" and game.legal_moves(state) == []
    assert "." in game.state_string(state)  # empty points left, all forbidden
    assert game.outcome(state) == Outcome(None, "black has only forbidden points")

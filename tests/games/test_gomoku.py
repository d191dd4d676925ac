"""Tests of freestyle gomoku: rules, notation, state strings, kernels, perft."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcts.games import find_game, gomoku, kernels
from mcts.games.base import (
    BLACK_WINS,
    DRAW,
    MAX_MOVES,
    ONGOING,
    WHITE_WINS,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    State,
)
from mcts.games.gomoku import HEADER, Gomoku
from tests.games import reference_gomoku as ref

# ---- helpers -----------------------------------------------------------------


def filler_cells(size: int, avoid: set[str]) -> list[str]:
    """Return the cells outside ``avoid``, first those no two of which touch along
    a line (col + 2*row a multiple of 5), so that stones there make no row."""

    def off_pattern(code: int) -> bool:
        row, col = divmod(code, size)
        return (col + 2 * row) % 5 != 0

    codes = sorted(range(size * size), key=off_pattern)
    names = [ref.move_name(size, code) for code in codes]
    return [name for name in names if name not in avoid]


def line_moves(game: Gomoku, line: list[str], winner: str = "black") -> list[str]:
    """Return a move list in which ``winner`` plays the cells of ``line`` in
    order, the last move being the last cell, and the other side answers on
    filler cells."""
    fillers = iter(filler_cells(game.size, set(line)))
    moves = []
    for i, cell in enumerate(line):
        if winner == "white":
            moves.append(next(fillers))
        moves.append(cell)
        if winner == "black" and i < len(line) - 1:
            moves.append(next(fillers))
    return moves


def play_line(game: Gomoku, line: list[str], winner: str = "black") -> State:
    """Return the state after the moves of :func:`line_moves`."""
    return game.play_all(line_moves(game, line, winner))


def stripes(size: int) -> str:
    """Return the cells of a full board whose longest line is two stones, with
    black having as many stones as white or one more."""
    marks = "".join(
        "x" if (c + 2 * r) % 4 in (0, 1) else "o"
        for r in range(size)
        for c in range(size)
    )
    if marks.count("x") < marks.count("o"):
        marks = marks.translate(str.maketrans("xo", "ox"))
    return marks


def random_states(game: Gomoku, seed: int, plies: int) -> list[State]:
    """Return the states of a game of uniformly random moves (from ``seed``),
    stopped after ``plies`` moves or at the end."""
    rng = random.Random(seed)
    states = [game.initial_state()]
    for _ in range(plies):
        legal = game.legal_moves(states[-1])
        if not legal:
            break
        states.append(game.apply(states[-1], rng.choice(legal)))
    return states


def reference_of(game: Gomoku, state) -> ref.Position:
    """Return the reference position with the same board as ``state``."""
    return ref.Position.from_string(game.state_string(state))


@st.composite
def random_games(draw, max_size: int = 19):
    """Draw (game, states) for a random game on a random board and row length,
    played to the end or cut short."""
    size = draw(st.integers(5, max_size))
    row = draw(st.integers(3, min(size, 6)))
    seed = draw(st.integers(0, 2**32 - 1))
    # Half the games run to the end, so that finished positions are common.
    plies = draw(st.one_of(st.just(size * size), st.integers(0, size * size)))
    game = Gomoku(size=size, row=row)
    return game, random_states(game, seed, plies)


# ---- options and registry ----------------------------------------------------


def test_default_options_are_15x15_five_in_a_row():
    default = {"size": 15, "row": 5, "rule": "freestyle"}
    assert Gomoku().options == default
    assert find_game("gomoku").options == default


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"size": 5}, {"size": 5, "row": 5}),
        ({"size": 19, "row": 3}, {"size": 19, "row": 3}),
        ({"size": 10, "row": 10}, {"size": 10, "row": 10}),
        ({"row": 4}, {"size": 15, "row": 4}),
        ({"size": np.int64(9)}, {"size": 9, "row": 5}),
        ({"rule": "standard", "row": 4}, {"size": 15, "row": 4, "rule": "standard"}),
        ({"rule": "renju", "size": 19}, {"size": 19, "row": 5, "rule": "renju"}),
    ],
)
def test_valid_options_are_accepted(options, expected):
    assert Gomoku.check_options(**options) == {"rule": "freestyle", **expected}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"size": 4}, ["'size'", "5 to 19", "4"]),
        ({"size": 20}, ["'size'", "5 to 19", "20"]),
        ({"row": 2}, ["'row'", "3 to 15"]),
        ({"size": 8, "row": 9}, ["'row'", "3 to 8", "9"]),
        ({"size": "15"}, ["'size'", "integer", "'15'"]),
        ({"size": 15.0}, ["'size'", "integer"]),
        ({"row": True}, ["'row'", "integer", "True"]),
        ({"colour": "x"}, ["'colour'", "'size'", "'row'", "'rule'"]),
        (
            {"rule": "swap2"},
            ["'rule'", "'freestyle'", "'standard'", "'renju'", "'swap2'"],
        ),
        ({"rule": 4}, ["'rule'", "4"]),
        ({"rule": "renju", "row": 6}, ["renju", "five", "6"]),
    ],
)
def test_bad_options_raise_naming_the_option_and_range(options, words):
    with pytest.raises(InvalidOptionsError) as error:
        Gomoku(**options)
    for word in words:
        assert word in str(error.value)


def test_option_specs_describe_the_limits_the_options_check_enforces():
    size, row = Gomoku.option_specs["size"], Gomoku.option_specs["row"]
    assert size == {"type": "integer", "min": 5, "max": 19}
    assert row == {"type": "integer", "min": 3, "max": "size"}
    Gomoku(size=size["min"], row=row["min"])
    Gomoku(size=size["max"], row=size["max"])
    for bad in (
        {"size": size["min"] - 1},
        {"size": size["max"] + 1},
        {"row": row["min"] - 1},
        {"size": 9, "row": 10},
    ):
        with pytest.raises(InvalidOptionsError):
            Gomoku(**bad)


def test_gomoku_is_titled_and_drawn_with_rank_one_at_the_bottom():
    assert Gomoku.title == "Gomoku"
    assert Gomoku.rank_one_on_top is False


def test_initial_state_is_empty_board_with_black_to_move():
    game = Gomoku(size=9, row=4)
    state = game.initial_state()
    assert game.state_string(state) == "9:4:" + "." * 81 + " b"
    assert game.to_move(state) == "black"
    assert game.legal_moves(state) == list(range(81))
    assert game.status(state) == ONGOING
    assert state.array.dtype == np.uint64 and len(state.array) == HEADER + 81


def test_module_docstring_examples_hold():
    assert doctest.testmod(gomoku).failed == 0
    game = Gomoku(size=5, row=4)
    state = game.play_all(["c3", "b2"])
    assert game.state_string(state) == "5:4:......o.....x............ b"


# ---- notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "text", "code"),
    [
        (15, "a1", 0),
        (15, "b1", 1),
        (15, "o1", 14),
        (15, "a2", 15),
        (15, "h8", 7 * 15 + 7),
        (15, "H8", 7 * 15 + 7),
        (15, "o15", 224),
        (19, "s19", 360),
        (19, "j10", 9 * 19 + 9),
        (5, "e5", 24),
        (5, "C3", 12),
    ],
)
def test_renju_coordinates_map_to_row_major_codes_from_bottom_left(size, text, code):
    game = Gomoku(size=size, row=5)
    state = game.initial_state()
    assert game.parse_move(state, text) == code
    assert game.format_move(state, code) == text.lower()


def test_every_code_formats_and_parses_back_on_every_size():
    for size in range(5, 20):
        game = Gomoku(size=size, row=3)
        state = game.initial_state()
        names = [game.format_move(state, code) for code in range(size * size)]
        assert names == [ref.move_name(size, code) for code in range(size * size)]
        assert [game.parse_move(state, name) for name in names] == list(
            range(size * size)
        )


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (15, "p1"),
        (15, "a16"),
        (15, "a0"),
        (15, "z9"),
        (15, "h08"),
        (15, ""),
        (15, "h"),
        (15, "8"),
        (15, "8h"),
        (15, "hh8"),
        (15, "h8h"),
        (15, "h 8"),
        (15, "a-1"),
        (15, "pass"),
        (15, "h8 h9"),
        (15, "\u212a8"),  # the Kelvin sign, whose lower case is "k"
        (19, "t1"),
        (19, "a20"),
        (5, "f1"),
        (5, "a6"),
    ],
)
def test_malformed_move_raises_invalid_move_naming_text_and_range(size, text):
    game = Gomoku(size=size, row=5)
    state = game.initial_state()
    with pytest.raises(InvalidMoveError) as error:
        game.parse_move(state, text)
    message = str(error.value)
    last = "abcdefghijklmnopqrs"[size - 1]
    assert repr(text.strip()) in message
    assert f"a..{last}" in message and f"1..{size}" in message


def test_pass_is_explained_as_not_part_of_gomoku():
    game = Gomoku()
    with pytest.raises(InvalidMoveError, match="no passes"):
        game.parse_move(game.initial_state(), "pass")


def test_move_that_is_not_a_string_raises_invalid_move():
    game = Gomoku()
    with pytest.raises(InvalidMoveError):
        game.parse_move(game.initial_state(), 112)


def test_format_move_rejects_codes_off_the_board():
    game = Gomoku(size=5, row=3)
    with pytest.raises(InvalidMoveError, match="off the 5x5 board"):
        game.format_move(game.initial_state(), 25)


# ---- wins, draws and the end of the game ------------------------------------------

EDGE_LINES_15 = [
    # horizontal: corners, left and right edges, top and bottom rows
    "a1 b1 c1 d1 e1",
    "k15 l15 m15 n15 o15",
    "a8 b8 c8 d8 e8",
    "k3 l3 m3 n3 o3",
    "f1 g1 h1 i1 j1",
    "d15 e15 f15 g15 h15",
    # vertical
    "a1 a2 a3 a4 a5",
    "o11 o12 o13 o14 o15",
    "o1 o2 o3 o4 o5",
    "a11 a12 a13 a14 a15",
    "h1 h2 h3 h4 h5",
    "c11 c12 c13 c14 c15",
    # diagonal (up and right)
    "a1 b2 c3 d4 e5",
    "k11 l12 m13 n14 o15",
    "f1 g2 h3 i4 j5",
    "k4 l5 m6 n7 o8",
    "a6 b7 c8 d9 e10",
    "e11 f12 g13 h14 i15",
    # anti-diagonal (down and right)
    "a15 b14 c13 d12 e11",
    "k5 l4 m3 n2 o1",
    "f15 g14 h13 i12 j11",
    "a7 b6 c5 d4 e3",
    "k12 l11 m10 n9 o8",
    "g5 h4 i3 j2 k1",
    # the middle of the board
    "f8 g8 h8 i8 j8",
    "h6 h7 h8 h9 h10",
]

EDGE_LINES_8 = [
    "a1 b1 c1 d1 e1",
    "d8 e8 f8 g8 h8",
    "h4 h5 h6 h7 h8",
    "a1 a2 a3 a4 a5",
    "a1 b2 c3 d4 e5",
    "d4 e5 f6 g7 h8",
    "a8 b7 c6 d5 e4",
    "d5 e4 f3 g2 h1",
    "b1 c2 d3 e4 f5",
    "a4 b5 c6 d7 e8",
]

EDGE_LINES_10_ROW_4 = [
    "a1 b1 c1 d1",
    "g10 h10 i10 j10",
    "j1 j2 j3 j4",
    "a7 a8 a9 a10",
    "a1 b2 c3 d4",
    "g7 h8 i9 j10",
    "a10 b9 c8 d7",
    "g4 h3 i2 j1",
    "e1 f2 g3 h4",
    "c10 d9 e8 f7",
]

WIN_CASES = (
    [(15, 5, line) for line in EDGE_LINES_15]
    + [(8, 5, line) for line in EDGE_LINES_8]
    + [(10, 4, line) for line in EDGE_LINES_10_ROW_4]
    + [(5, 5, "a1 b2 c3 d4 e5"), (5, 5, "a5 b4 c3 d2 e1"), (5, 3, "c3 d3 e3")]
    + [(19, 5, "o19 p19 q19 r19 s19"), (19, 5, "s15 s16 s17 s18 s19")]
)


def orders(line: str) -> list[list[str]]:
    """Return the line's cells in three playing orders, so that the winning stone
    is at one end, at the other end and in the middle."""
    cells = line.split()
    middle = len(cells) // 2
    return [
        cells,
        cells[::-1],
        cells[:middle] + cells[middle + 1 :] + [cells[middle]],
    ]


@pytest.mark.parametrize(("size", "row", "line"), WIN_CASES)
@pytest.mark.parametrize("winner", ["black", "white"])
def test_row_in_any_direction_at_any_edge_wins(size, row, line, winner):
    game = Gomoku(size=size, row=row)
    for order in orders(line):
        moves = line_moves(game, order, winner)
        before = game.play_all(moves[:-1])
        assert game.status(before) == ONGOING
        state = game.play(before, moves[-1])
        expected = BLACK_WINS if winner == "black" else WHITE_WINS
        assert game.status(state) == expected
        assert game.outcome(state) == Outcome(winner, gomoku.row_name(row))
        assert game.legal_moves(state) == []


@pytest.mark.parametrize(
    ("size", "row"), [(15, 5), (8, 5), (10, 4), (5, 3), (5, 5), (19, 5), (7, 6)]
)
def test_kernel_finds_every_possible_line_through_the_last_stone(size, row):
    game = Gomoku(size=size, row=row)
    for dr, dc in gomoku.DIRECTIONS:
        for r0 in range(size):
            for c0 in range(size):
                cells = [(r0 + k * dr, c0 + k * dc) for k in range(row)]
                if not all(0 <= r < size and 0 <= c < size for r, c in cells):
                    continue
                codes = [r * size + c for r, c in cells]
                for last in codes:
                    array = game.initial_array()
                    for code in codes:
                        if code != last:
                            array[HEADER + code] = gomoku.BLACK_STONE
                    gomoku.apply_move(array, last)
                    assert gomoku.status(array) == BLACK_WINS, (cells, last)
                    # With one stone of the line taken away it is no longer a win.
                    gap = codes[0] if last != codes[0] else codes[-1]
                    array = game.initial_array()
                    for code in codes:
                        if code not in (last, gap):
                            array[HEADER + code] = gomoku.BLACK_STONE
                    gomoku.apply_move(array, last)
                    assert gomoku.status(array) == ONGOING, (cells, last, gap)


@pytest.mark.parametrize(
    ("size", "row", "line", "last", "reason"),
    [
        (15, 5, "a1 b1 c1 d1 f1", "e1", "six in a row"),
        (15, 5, "h4 h5 h6 h7 h9 h10 h11", "h8", "eight in a row"),
        (15, 5, "i9 k11 l12 m13 n14", "j10", "six in a row"),
        (15, 5, "a1 b1 c1 d1 f1 g1 h1 i1", "e1", "nine in a row"),
        (8, 5, "a8 b7 c6 d5 f3 g2 h1", "e4", "eight in a row"),
        (10, 4, "a5 b5 c5 e5", "d5", "five in a row"),
        (19, 6, "a1 b1 c1 d1 e1 g1 h1 i1 j1 k1", "f1", "11 in a row"),
    ],
)
def test_overlines_win_and_the_reason_says_how_long(size, row, line, last, reason):
    game = Gomoku(size=size, row=row)
    moves = line_moves(game, line.split() + [last])
    before = game.play_all(moves[:-1])
    assert game.status(before) == ONGOING
    after = game.play(before, last)
    assert game.status(after) == BLACK_WINS
    assert game.outcome(after).reason == reason


@pytest.mark.parametrize(
    ("size", "row", "line"),
    [
        (15, 5, "a1 b1 c1 d1"),
        (15, 5, "h8 i9 j10 k11"),
        (15, 5, "a1 b1 c1 d1 f1"),
        (8, 5, "e1 e2 e3 e4 e6 e7 e8"),
        (10, 4, "a1 b1 c1"),
        (10, 4, "a1 b1 d1 e1 g1 h1 j1"),
    ],
)
def test_shorter_or_broken_lines_do_not_win(size, row, line):
    game = Gomoku(size=size, row=row)
    state = play_line(game, line.split())
    assert game.status(state) == ONGOING
    assert game.outcome(state) is None


def test_a_stone_next_to_the_other_colours_four_does_not_win():
    game = Gomoku(size=15, row=5)
    fours = game.play_all(["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2"])
    black_on_white_line = game.play(fours, "e2")
    assert game.status(black_on_white_line) == ONGOING
    assert game.status(game.play(black_on_white_line, "e1")) == ONGOING
    assert game.status(game.play(fours, "e1")) == BLACK_WINS


@pytest.mark.parametrize(("size", "row"), [(5, 5), (5, 3), (6, 5), (6, 4), (7, 3)])
def test_full_board_without_a_row_is_a_draw(size, row):
    game = Gomoku(size=size, row=row)
    marks = stripes(size)
    blacks = [ref.move_name(size, i) for i, m in enumerate(marks) if m == "x"]
    whites = [ref.move_name(size, i) for i, m in enumerate(marks) if m == "o"]
    moves = [""] * (len(blacks) + len(whites))
    moves[::2], moves[1::2] = blacks, whites
    state = game.play_all(moves)
    assert game.status(state) == DRAW
    assert game.outcome(state) == Outcome(None, "board full")
    assert game.legal_moves(state) == []
    assert game.state_string(state) == f"{size}:{row}:{marks} {'bw'[size % 2]}"
    assert game.parse_state(game.state_string(state)) == state


def test_row_made_by_the_last_empty_cell_wins_rather_than_draws():
    game = Gomoku(size=5, row=4)
    state = game.parse_state("5:4:xoooxxox.ooxxxooxxooxxoox b")
    assert game.legal_moves(state) == [8]
    final = game.play(state, "d2")
    assert game.status(final) == BLACK_WINS
    assert reference_of(game, final).result() == "black"


def test_terminal_state_has_no_legal_moves_in_the_kernel_either():
    game = Gomoku(size=15, row=5)
    state = play_line(game, ["a1", "b1", "c1", "d1", "e1"])
    out = np.full(MAX_MOVES, -7, dtype=np.int64)
    assert gomoku.legal_moves(state.array, out) == 0
    assert game.legal_moves(state) == []
    assert gomoku.random_playout(state.array.copy()) == BLACK_WINS


def test_occupied_intersection_is_illegal_and_changes_nothing():
    game = Gomoku()
    state = game.play_all(["h8", "h9"])
    before = state.array.copy()
    for text in ("h8", "H9"):
        with pytest.raises(IllegalMoveError, match="not legal here"):
            game.play(state, text)
    with pytest.raises(IllegalMoveError):
        game.apply(state, 7 * 15 + 7)
    assert np.array_equal(state.array, before)
    assert game.state_string(state) == game.state_string(game.play_all(["h8", "h9"]))


def test_any_move_after_the_game_ended_is_illegal_and_changes_nothing():
    game = Gomoku(size=8, row=5)
    state = play_line(game, ["a1", "b1", "c1", "d1", "e1"])
    before = state.array.copy()
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.play(state, "h8")
    with pytest.raises(IllegalMoveError):
        game.apply(state, 63)
    assert np.array_equal(state.array, before)
    assert game.status(state) == BLACK_WINS


def test_apply_leaves_the_given_state_alone():
    game = Gomoku(size=6, row=4)
    state = game.initial_state()
    child = game.play(state, "c3")
    assert game.state_string(state) == "6:4:" + "." * 36 + " b"
    assert game.state_string(child) == "6:4:" + "." * 14 + "x" + "." * 21 + " w"


# ---- state strings --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["expected '<size>:<row>:[<rule>:]<cells> <b|w>'"]),
        ("5:3:renju:" + "." * 25 + " b", ["for the renju rule", "plays freestyle"]),
        ("5:3:swap:" + "." * 25 + " b", ["rule 'swap'"]),
        ("5:3:" + "." * 25, ["expected"]),
        ("5:3:" + "." * 25 + " b extra", ["expected"]),
        ("5:3" + "." * 25 + " b", ["expected"]),
        ("x:3:" + "." * 25 + " b", ["board size 'x'"]),
        ("5:-3:" + "." * 25 + " b", ["row length '-3'"]),
        ("6:3:" + "." * 36 + " b", ["size 6 and row 3", "size 5 and row 3"]),
        ("5:4:" + "." * 25 + " b", ["size 5 and row 4", "size 5 and row 3"]),
        ("5:3:" + "." * 24 + " b", ["25 cells, got 24"]),
        ("5:3:" + "." * 26 + " b", ["25 cells, got 26"]),
        ("5:3:" + "." * 24 + "X b", ["'X'"]),
        ("5:3:" + "." * 24 + "b b", ["'b'"]),
        ("5:3:" + "." * 25 + " x", ["side to move 'x'"]),
        ("5:3:" + "." * 25 + " w", ["0 black and 0 white", "white to move"]),
        ("5:3:x" + "." * 24 + " b", ["1 black and 0 white", "black to move"]),
        ("5:3:o" + "." * 24 + " w", ["0 black and 1 white"]),
        ("5:3:xx.x.o" + "." * 19 + " w", ["3 black and 1 white", "white to move"]),
        # a winning row for each colour
        ("5:3:xxx..ooo.." + "." * 15 + " b", ["both black and white"]),
        # black has a row yet black is to move: white moved after the game ended
        ("5:3:xxx..oo.o." + "." * 15 + " b", ["black has a winning row"]),
        # white has a row yet white is to move
        ("5:3:xx.x.ooo..x" + "." * 14 + " w", ["white has a winning row"]),
        # two separate rows of black: no single last stone made both
        ("5:3:xxx.." + "o.o.o" + "xxx.." + "o.o.." + "x...o w", ["one last move"]),
    ],
)
def test_bad_state_strings_raise_invalid_state_saying_why(text, words):
    game = Gomoku(size=5, row=3)
    with pytest.raises(InvalidStateError) as error:
        game.parse_state(text)
    for word in words:
        assert word in str(error.value)


def test_non_string_state_raises_invalid_state():
    with pytest.raises(InvalidStateError):
        Gomoku().parse_state(None)


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("5:3:xx...oo..." + "." * 15 + " b", ONGOING),
        ("5:3:xxx..oo..." + "." * 15 + " w", BLACK_WINS),
        # two black rows crossing at c1: one last stone made both
        ("5:3:xxx.o" + "o.x.." + "..x.o" + "o...." + "..... w", BLACK_WINS),
        # an overline of five with row 3: the middle stone joined two pairs
        ("5:3:xxxxx" + "oo.oo" + "....." * 3 + " w", BLACK_WINS),
        ("5:3:xx.x.ooo.." + "." * 15 + " b", WHITE_WINS),
        ("5:3:" + stripes(5) + " w", DRAW),
    ],
)
def test_parse_state_recomputes_the_result(text, status):
    game = Gomoku(size=5, row=3)
    state = game.parse_state(text)
    assert game.status(state) == status
    assert game.state_string(state) == text
    assert (
        reference_of(game, state).result()
        == {
            ONGOING: None,
            BLACK_WINS: "black",
            WHITE_WINS: "white",
            DRAW: "draw",
        }[status]
    )


def test_parsed_state_equals_the_played_one():
    game = Gomoku()
    played = game.play_all(["h8", "h9", "i8", "a1", "j8"])
    text = game.state_string(played)
    assert game.parse_state(text) == played
    assert game.parse_state("  " + text + "\n") == played


def test_render_draws_board_with_coordinates_and_side_to_move():
    game = Gomoku(size=5, row=4)
    state = game.play_all(["c3", "b2", "a1"])
    assert game.render(state) == "\n".join(
        [
            "    a b c d e",
            "  5 . . . . . 5",
            "  4 . . . . . 4",
            "  3 . . X . . 3",
            "  2 . O . . . 2",
            "  1 X . . . . 1",
            "    a b c d e",
            "White (O) to move",
        ]
    )


def test_render_says_who_won_and_how():
    game = Gomoku(size=10, row=4)
    state = play_line(game, ["a1", "b1", "c1", "d1"])
    assert (
        game.render(state).splitlines()[-1] == "Game over: black wins (four in a row)"
    )
    game = Gomoku(size=5, row=5)
    draw = game.parse_state("5:5:" + stripes(5) + " w")
    assert game.render(draw).splitlines()[-1] == "Game over: draw (board full)"


# ---- random playouts ----------------------------------------------------------------


@pytest.mark.parametrize(("size", "row"), [(5, 3), (6, 5), (9, 4), (15, 5), (19, 5)])
def test_random_playout_ends_in_a_reachable_final_position(size, row):
    game = Gomoku(size=size, row=row)
    kernels.seed(size * 100 + row)
    for _ in range(20):
        array = game.initial_array()
        code = gomoku.random_playout(array)
        final = game.parse_state(game.state_string(State(array.copy())))
        assert code in (BLACK_WINS, WHITE_WINS, DRAW)
        assert game.status(final) == code == gomoku.status(array)
        assert gomoku.legal_moves(array, np.empty(MAX_MOVES, np.int64)) == 0
        expected = {BLACK_WINS: "black", WHITE_WINS: "white", DRAW: "draw"}[code]
        assert reference_of(game, final).result() == expected


def test_random_playout_reaches_every_result_on_a_small_board():
    game = Gomoku(size=6, row=5)
    kernels.seed(7)
    tally = kernels.playouts_for(game.game_id, game.initial_array(), 3000)
    assert tally.sum() == 3000
    assert all(count > 100 for count in tally), tally


def test_random_playout_continues_from_a_given_position():
    game = Gomoku(size=5, row=4)
    state = game.parse_state("5:4:xoooxxox.ooxxxooxxooxxoox b")
    array = state.array.copy()
    assert gomoku.random_playout(array) == BLACK_WINS
    assert game.state_string(State(array)) == "5:4:xoooxxoxxooxxxooxxooxxoox w"


def test_random_playout_of_a_finished_game_changes_nothing():
    game = Gomoku(size=5, row=5)
    array = game.parse_state("5:5:" + stripes(5) + " w").array.copy()
    before = array.copy()
    assert gomoku.random_playout(array) == DRAW
    assert np.array_equal(array, before)


# ---- perft ------------------------------------------------------------------------

# Leaves below a position; a finished game is a leaf where it ends. On an empty
# board of n cells no win is possible before ply 2*row - 1, so depth d gives
# n*(n-1)*...*(n-d+1) until then. The other numbers come from the reference
# implementation (tests/games/reference_gomoku.py).
PERFT = [
    (5, 4, "", [25, 600, 13800, 303600]),
    (5, 3, "", [25, 600, 13800, 303600, 6375600]),
    (15, 5, "", [225, 50400]),
    (19, 5, "", [361, 129960]),
    # black c3 + b2 make d4 an immediate win (a1 blocks the other end)
    (5, 3, "c3 a1 b2 e5", [21, 401, 7601]),
    (5, 3, "c3 a1", [23, 506, 10626, 203742]),
    # black's c3 c4 c5 are won by c2 or c6
    (6, 4, "c3 a1 c4 f6 c5 a6", [30, 814, 22738]),
    (10, 4, "e5 e6 f5 f6", [96, 9120, 857280]),
    (15, 5, "h8 h9 i8 i9 j8 j9", [219, 47742]),
    # black's open four g8-j8: white moves, then f8 or k8 wins unless taken:
    # depth 3 = 2*(216*216 + 1) + 216*(215*216 + 2)
    (15, 5, "h8 h9 i8 i9 j8 j9 g8", [218, 47306, 10124786]),
]


def start(size: int, row: int, moves: str):
    """Return (game, state) after ``moves`` on a fresh board."""
    game = Gomoku(size=size, row=row)
    return game, game.play_all(moves.split())


@pytest.mark.parametrize(("size", "row", "moves", "counts"), PERFT)
def test_kernel_perft_matches_known_counts(size, row, moves, counts):
    game, state = start(size, row, moves)
    for depth, count in enumerate(counts, start=1):
        assert kernels.perft(game.game_id, state.array.copy(), depth) == count


@pytest.mark.parametrize(("size", "row", "moves", "counts"), PERFT)
def test_reference_perft_matches_known_counts(size, row, moves, counts):
    game, state = start(size, row, moves)
    position = reference_of(game, state)
    for depth, count in enumerate(counts, start=1):
        if count > 25000:
            break  # the plain-Python walk is too slow beyond this
        assert ref.perft(position, depth) == count


def test_kernel_perft_counts_first_possible_wins_on_5x5_row_3():
    # After c3 a1, black's third stone can make three: 12 windows of three hold
    # c3 and one of them (a1 b2 c3) holds white's a1, so 11 windows * 2 orders
    # of black's two new stones * 21 white replies between them = 462 of the
    # 23*22*21 = 10,626 lines of depth 3 end in black's win; the rest have 20
    # children.
    game, state = start(5, 3, "c3 a1")
    counts = [kernels.perft(game.game_id, state.array.copy(), d) for d in (3, 4)]
    assert counts == [10626, (10626 - 462) * 20 + 462]


# ---- properties over random games -----------------------------------------------


@settings(max_examples=60, deadline=None)
@given(random_games())
def test_state_string_round_trips_exactly(game_and_states):
    game, states = game_and_states
    for state in states:
        text = game.state_string(state)
        parsed = game.parse_state(text)
        assert parsed == state
        assert game.state_string(parsed) == text


@settings(max_examples=40, deadline=None)
@given(random_games(max_size=12))
def test_every_legal_move_applies_and_adds_one_stone(game_and_states):
    game, states = game_and_states
    state = states[-1]
    stones = int(state.array[gomoku.STONES])
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        assert int(child.array[gomoku.STONES]) == stones + 1
        assert game.to_move(child) != game.to_move(state)


@settings(max_examples=60, deadline=None)
@given(random_games(max_size=8))
def test_terminal_states_have_no_legal_moves_and_an_outcome(game_and_states):
    game, states = game_and_states
    for state in states:
        terminal = game.is_terminal(state)
        assert (game.legal_moves(state) == []) == terminal
        assert (game.outcome(state) is not None) == terminal


@settings(max_examples=50, deadline=None)
@given(random_games(max_size=10))
def test_kernels_agree_with_the_reference_rules(game_and_states):
    game, states = game_and_states
    position = ref.Position(game.size, game.row)
    for i, state in enumerate(states):
        assert game.state_string(state) == position.to_string()
        assert game.legal_moves(state) == position.legal_moves()
        assert game.to_move(state) == position.side_name()
        result = position.result()
        expected = {None: ONGOING, "black": BLACK_WINS, "white": WHITE_WINS}
        assert game.status(state) == expected.get(result, DRAW)
        if i + 1 < len(states):
            played = states[i + 1].array[HEADER:] != state.array[HEADER:]
            position = position.play(int(np.flatnonzero(played)[0]))

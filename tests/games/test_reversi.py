"""Tests of mcts.games.reversi: rules, notation and kernels, checked against a
plain-Python reference (reference_reversi.py)."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from mcts.games import reversi
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
)
from tests.games import reference_reversi as ref

GAME = reversi.Reversi()
PASS = reversi.PASS
PERFT_DATA = json.loads(
    (Path(__file__).parents[1] / "data" / "reversi_perft.json").read_text()
)
START_STRING = "." * 27 + "ox" + "." * 6 + "xo" + "." * 27 + " b"
RESULT_NAMES = {BLACK_WINS: "black", WHITE_WINS: "white", DRAW: "draw"}
PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


# ---- helpers ---------------------------------------------------------------------
def code(name: str) -> int:
    """Return the move code of an Othello square name, computed independently."""
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def board_string(black=(), white=(), side="b") -> str:
    """Return a state string with discs on the named squares."""
    squares = ["."] * 64
    for name in black:
        squares[code(name)] = "x"
    for name in white:
        squares[code(name)] = "o"
    return "".join(squares) + " " + side


def position(black=(), white=(), side="b"):
    """Return the State with discs on the named squares."""
    return GAME.parse_state(board_string(black, white, side))


def discs(state, char: str) -> set[str]:
    """Return the names of the squares holding ``char`` ('x' or 'o')."""
    squares = GAME.state_string(state).split()[0]
    return {reversi.square_name(i) for i, c in enumerate(squares) if c == char}


def string_of(array: np.ndarray) -> str:
    """Return the state string of a raw kernel array, decoded here independently."""
    black, white, side = (int(v) for v in array)
    squares = "".join(
        "x" if black >> i & 1 else "o" if white >> i & 1 else "." for i in range(64)
    )
    return squares + " " + "bw"[side]


def kernel_perft(array: np.ndarray, depth: int) -> int:
    """Return the leaf count ``depth`` plies down, using the module's kernels only.

    A pass is a move and a finished game is a leaf; the last ply is counted in
    bulk (each legal move there makes one leaf).
    """
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = reversi.legal_moves(array, moves)
    if depth == 0 or count == 0:
        return 1
    if depth == 1:
        return count
    total = 0
    for move in moves[:count]:
        child = array.copy()
        reversi.apply_move(child, move)
        total += kernel_perft(child, depth - 1)
    return total


@njit
def seed_kernels(value):
    """Seed numba's random generator, which the kernels use (not numpy's)."""
    np.random.seed(value)


def exact_final_distribution(pos: ref.Position) -> dict[str, Fraction]:
    """Return {final state string: probability} under uniformly random play."""
    moves = ref.legal_moves(pos)
    if not moves:
        return {ref.to_string(pos): Fraction(1)}
    result: dict[str, Fraction] = {}
    for move in moves:
        for final, p in exact_final_distribution(ref.play(pos, move)).items():
            result[final] = result.get(final, Fraction(0)) + p / len(moves)
    return result


def walk(picks, start=None):
    """Return the states of a whole game from ``start`` to its end, choosing
    legal[pick % n] at each ply and cycling through ``picks`` (0 if empty)."""
    state = GAME.initial_state() if start is None else start
    states = [state]
    # Every ply fills a square or is a pass, and two passes in a row end the
    # game, so this loop ends within 2 * 64 plies.
    for ply in itertools.count():
        legal = GAME.legal_moves(state)
        if not legal:
            return states
        pick = picks[ply % len(picks)] if picks else 0
        state = GAME.apply(state, legal[pick % len(legal)])
        states.append(state)


def assert_agrees_with_reference(text: str) -> None:
    """Check legal moves, status and every successor against the reference."""
    state = GAME.parse_state(text)
    pos = ref.from_string(text)
    legal = GAME.legal_moves(state)
    assert legal == ref.legal_moves(pos)
    expected = ref.result(pos)
    status = GAME.status(state)
    assert (status == ONGOING) == (expected is None)
    if expected is not None:
        assert RESULT_NAMES[status] == expected
    for move in legal:
        array = state.array.copy()
        reversi.apply_move(array, move)
        assert string_of(array) == ref.to_string(ref.play(pos, move))


random_games = st.lists(st.integers(min_value=0, max_value=63), max_size=64)
random_boards = st.builds(
    lambda squares, side: "".join(squares) + " " + side,
    st.lists(st.sampled_from("xo."), min_size=64, max_size=64),
    st.sampled_from("bw"),
)


# ---- perft -----------------------------------------------------------------------
PERFT_CASES = [
    pytest.param(entry["state"], int(depth), leaves, id=f"{entry['name']}-depth{depth}")
    for entry in PERFT_DATA["positions"]
    for depth, leaves in entry["leaves"].items()
]


@pytest.mark.parametrize(("state", "depth", "leaves"), PERFT_CASES)
def test_kernel_perft_matches_the_data_file(state, depth, leaves):
    array = GAME.parse_state(state).array.copy()
    assert kernel_perft(array, depth) == leaves


def test_data_file_start_position_is_the_game_start():
    start = next(p for p in PERFT_DATA["positions"] if p["name"] == "start")
    assert GAME.parse_state(start["state"]) == GAME.initial_state()


@pytest.mark.parametrize(
    ("state", "depth", "leaves"),
    # The reference is slow: keep to trees of a few thousand leaves.
    [case for case in PERFT_CASES if case.values[2] <= 2000],
)
def test_reference_perft_matches_the_data_file(state, depth, leaves):
    assert ref.perft(ref.from_string(state), depth) == leaves


# ---- start position and notation -------------------------------------------------
def test_start_position_string_and_black_to_move():
    state = GAME.initial_state()
    assert GAME.state_string(state) == START_STRING
    assert GAME.to_move(state) == "black"
    assert GAME.status(state) == ONGOING
    assert GAME.outcome(state) is None


def test_start_legal_moves_are_d3_c4_f5_e6_in_code_order():
    state = GAME.initial_state()
    assert GAME.legal_moves(state) == [19, 26, 37, 44]
    assert GAME.legal_move_texts(state) == ["d3", "c4", "f5", "e6"]


def test_game_attributes_and_kernel_module():
    assert GAME.name == "reversi"
    assert GAME.game_id == reversi.GAME_ID == 0
    assert GAME.PASS == PASS == 64
    assert GAME._kernels() is reversi


def test_any_option_is_rejected():
    with pytest.raises(InvalidOptionsError, match="size"):
        reversi.Reversi(size=10)
    assert GAME.options == {}


def test_reversi_has_no_option_specs_and_draws_rank_one_on_top():
    assert reversi.Reversi.option_specs == {}
    assert reversi.Reversi.title == "Reversi"
    assert reversi.Reversi.rank_one_on_top is True


@pytest.mark.parametrize(
    ("text", "move"),
    [("a1", 0), ("h1", 7), ("a2", 8), ("f5", 37), ("F5", 37), ("h8", 63)],
)
def test_squares_parse_case_insensitively_with_rows_counted_downward(text, move):
    assert GAME.parse_move_text(GAME.initial_state(), text) == move


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass"])
def test_pass_parses_in_any_case(text):
    assert GAME.parse_move_text(GAME.initial_state(), text) == PASS


def test_format_move_is_lower_case_and_round_trips_every_code():
    state = GAME.initial_state()
    for move in range(65):
        text = GAME.format_move(state, move)
        assert text == text.lower()
        assert GAME.parse_move_text(state, text) == move
    assert GAME.format_move(state, 37) == "f5"
    assert GAME.format_move(state, PASS) == "pass"


def test_format_move_rejects_codes_out_of_range():
    with pytest.raises(InvalidMoveError, match="65"):
        GAME.format_move(GAME.initial_state(), 65)


@pytest.mark.parametrize("text", ["z9", "", "a0", "a9", "i1", "e 4", "f55", "passs"])
def test_malformed_move_text_raises_invalid_move_error_naming_it(text):
    state = GAME.initial_state()
    with pytest.raises(InvalidMoveError) as info:
        GAME.parse_move(state, text)
    message = str(info.value)
    assert repr(text) in message
    assert "a1..h8" in message and "'pass'" in message


def test_non_string_move_raises_invalid_move_error():
    with pytest.raises(InvalidMoveError):
        GAME.parse_move(GAME.initial_state(), 37)


def test_illegal_move_lists_legal_moves_and_leaves_state_unchanged():
    state = GAME.initial_state()
    before = state.array.copy()
    with pytest.raises(IllegalMoveError) as info:
        GAME.play(state, "a1")
    assert "'a1'" in str(info.value)
    assert "d3 c4 f5 e6" in str(info.value)
    with pytest.raises(IllegalMoveError, match="d3 c4 f5 e6"):
        GAME.apply(state, code("e4"))
    assert np.array_equal(state.array, before)
    assert GAME.state_string(state) == START_STRING


def test_pass_is_illegal_while_a_square_can_be_played():
    with pytest.raises(IllegalMoveError, match="d3 c4 f5 e6"):
        GAME.play(GAME.initial_state(), "pass")


def test_play_does_not_change_the_state_it_was_given():
    state = GAME.initial_state()
    after = GAME.play(state, "f5")
    assert GAME.state_string(state) == START_STRING
    assert discs(after, "x") == {"d5", "e5", "f5", "e4"}
    assert discs(after, "o") == {"d4"}
    assert GAME.to_move(after) == "white"


def test_opening_transcript_matches_the_reference():
    moves = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"]
    state = GAME.play_all(moves)
    pos = ref.start()
    for text in moves:
        pos = ref.play(pos, code(text))
    assert GAME.state_string(state) == ref.to_string(pos)


# ---- flips -----------------------------------------------------------------------
def test_move_flips_lines_in_all_eight_directions():
    # d4 with one white line in each direction, each closed by a black disc;
    # h1 is on no line through d4 and stays white.
    closers = ["d2", "d7", "f4", "a4", "f2", "b2", "h8", "b6"]
    lines = ["d3", "d5", "d6", "e4", "c4", "b4", "e3", "c3", "e5", "f6", "g7", "c5"]
    state = position(black=closers, white=[*lines, "h1"])
    after = GAME.play(state, "d4")
    assert discs(after, "x") == {"d4", *closers, *lines}
    assert discs(after, "o") == {"h1"}


def test_move_flips_only_the_lines_closed_by_an_own_disc():
    # c3: east and south lines are closed by black; the south-east line ends
    # on an empty square and the west and north lines run into the edge.
    state = position(
        black=["e3", "c6", "h8"],
        white=["d3", "c4", "c5", "d4", "e5", "b3", "a3", "c2", "c1"],
    )
    after = GAME.play(state, "c3")
    assert discs(after, "x") == {"c3", "e3", "c6", "h8", "d3", "c4", "c5"}
    assert discs(after, "o") == {"d4", "e5", "b3", "a3", "c2", "c1"}


def test_move_flips_a_line_of_six():
    state = position(black=["a1"], white=["b1", "c1", "d1", "e1", "f1", "g1"])
    after = GAME.play(state, "h1")
    assert discs(after, "x") == {"a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"}
    assert GAME.outcome(after) == Outcome(
        "black", "disc count 8-0", {"black": 8, "white": 0}
    )


# Each case: a square that would be legal only if a line wrapped from one edge
# of the board to the other, with the discs that would make the wrapped line.
WRAP_CASES = [
    ("g3", ["a4"], ["h3"]),  # east from g3 would wrap onto a4
    ("b4", ["h3"], ["a4"]),  # west
    ("g2", ["a5"], ["h3"]),  # south-east
    ("b1", ["h2"], ["a2"]),  # south-west
    ("g8", ["a7"], ["h7"]),  # north-east
    ("b8", ["h5"], ["a7"]),  # north-west
]


@pytest.mark.parametrize(
    ("square", "black", "white"), WRAP_CASES, ids=[case[0] for case in WRAP_CASES]
)
def test_no_line_wraps_around_the_board_edge(square, black, white):
    # d5-e5 gives black one genuine move (f5) so the list is not a pass.
    text = board_string(black + ["d5"], white + ["e5"])
    legal = GAME.legal_move_texts(GAME.parse_state(text))
    assert square not in legal
    assert "f5" in legal
    assert GAME.legal_moves(GAME.parse_state(text)) == ref.legal_moves(
        ref.from_string(text)
    )


def test_a_legal_move_does_not_flip_across_the_edge():
    # g3 is legal through g4 (closed by g5); east of g3, h3 would wrap to a4.
    state = position(black=["a4", "g5"], white=["h3", "g4"])
    after = GAME.play(state, "g3")
    assert discs(after, "x") == {"a4", "g5", "g4", "g3"}
    assert discs(after, "o") == {"h3"}


# ---- passes and the end of the game ----------------------------------------------
def test_forced_pass_is_the_only_legal_move_and_then_the_other_side_moves():
    # Black's b1 is flanked by white a1 and the empty c1: white can play c1,
    # black has nothing.
    state = position(black=["b1"], white=["a1"], side="b")
    assert GAME.legal_moves(state) == [PASS]
    assert GAME.legal_move_texts(state) == ["pass"]
    assert GAME.status(state) == ONGOING
    assert "(must pass)" in GAME.render(state)
    with pytest.raises(IllegalMoveError, match="pass"):
        GAME.play(state, "c1")
    after = GAME.play(state, "pass")
    assert GAME.to_move(after) == "white"
    assert GAME.state_string(after).split()[0] == GAME.state_string(state).split()[0]
    assert GAME.legal_move_texts(after) == ["c1"]
    final = GAME.play(after, "c1")
    assert GAME.legal_moves(final) == []
    assert GAME.outcome(final) == Outcome(
        "white", "disc count 3-0", {"black": 0, "white": 3}
    )


def test_full_board_ends_the_game_and_more_discs_wins():
    state = GAME.parse_state("x" * 40 + "o" * 24 + " w")
    assert GAME.legal_moves(state) == []
    assert GAME.status(state) == BLACK_WINS
    assert GAME.is_terminal(state)
    assert GAME.score(state) == {"black": 40, "white": 24}
    assert GAME.outcome(state) == Outcome(
        "black", "disc count 40-24", {"black": 40, "white": 24}
    )
    assert GAME.outcome(state).to_json()["winner"] == "black"


def test_winner_count_comes_first_in_the_end_reason():
    state = GAME.parse_state("o" * 40 + "x" * 24 + " b")
    assert GAME.status(state) == WHITE_WINS
    assert GAME.outcome(state) == Outcome(
        "white", "disc count 40-24", {"black": 24, "white": 40}
    )


def test_equal_disc_count_on_a_full_board_is_a_draw():
    state = GAME.parse_state("xo" * 32 + " b")
    assert GAME.legal_moves(state) == []
    assert GAME.status(state) == DRAW
    assert GAME.outcome(state) == Outcome(
        None, "equal disc count 32-32", {"black": 32, "white": 32}
    )
    assert GAME.render(state).endswith("Game over: draw (equal disc count 32-32)")


def test_game_ends_when_one_colour_is_gone_and_empties_go_to_no_one():
    state = position(black=["d4", "e4", "d5", "e5", "c3"], side="w")
    assert GAME.legal_moves(state) == []
    assert GAME.score(state) == {"black": 5, "white": 0}
    assert GAME.outcome(state) == Outcome(
        "black", "disc count 5-0", {"black": 5, "white": 0}
    )


def test_blocked_position_with_empties_ends_the_game():
    # Neither side can flank anything, though 61 squares are empty.
    state = position(black=["a1", "b1"], white=["h8"], side="b")
    assert GAME.legal_moves(state) == []
    assert GAME.status(state) == BLACK_WINS
    assert GAME.outcome(state).reason == "disc count 2-1"


def test_moves_into_a_finished_game_are_illegal():
    state = GAME.parse_state("xo" * 32 + " b")
    with pytest.raises(IllegalMoveError, match="game is over"):
        GAME.play(state, "pass")


# ---- state strings and rendering -------------------------------------------------
@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("." * 63 + " b", "64 squares, got 63"),
        ("." * 65 + " b", "64 squares, got 65"),
        ("." * 63 + "X b", "bad square 'X' at h8"),
        ("z" + "." * 63 + " b", "bad square 'z' at a1"),
        ("." * 64 + " x", "bad side to move 'x'"),
        ("." * 64, "got 1 field"),
        ("." * 64 + " b extra", "got 3 field"),
        ("", "got 0 field"),
    ],
)
def test_malformed_state_string_raises_invalid_state_error_naming_the_fault(
    text, fault
):
    with pytest.raises(InvalidStateError, match=fault):
        GAME.parse_state(text)


def test_non_string_state_raises_invalid_state_error():
    with pytest.raises(InvalidStateError):
        GAME.parse_state(None)


def test_render_draws_coordinates_discs_and_side_to_move():
    picture = GAME.render(GAME.initial_state()).splitlines()
    assert picture[0] == "  a b c d e f g h"
    assert picture[1] == "1 . . . . . . . . 1"
    assert picture[4] == "4 . . . O X . . . 4"
    assert picture[5] == "5 . . . X O . . . 5"
    assert picture[9] == "  a b c d e f g h"
    assert picture[10] == "Black (X) to move"
    assert GAME.render(GAME.play(GAME.initial_state(), "f5")).endswith(
        "White (O) to move"
    )


def test_render_of_a_finished_game_gives_the_result():
    state = GAME.parse_state("x" * 40 + "o" * 24 + " w")
    last_line = GAME.render(state).splitlines()[-1]
    assert last_line == "Game over: black wins (disc count 40-24)"


# ---- random playouts -------------------------------------------------------------
def test_random_playout_ends_the_game_and_returns_its_status():
    seed_kernels(2024)
    for _ in range(200):
        array = GAME.initial_array()
        result = reversi.random_playout(array)
        assert result in (BLACK_WINS, WHITE_WINS, DRAW)
        assert reversi.status(array) == result
        assert reversi.legal_moves(array, np.empty(MAX_MOVES, np.int64)) == 0
        assert ref.result(ref.from_string(string_of(array))) == RESULT_NAMES[result]


def test_random_playout_is_reproducible_with_a_seed():
    finals = []
    for _ in range(2):
        seed_kernels(7)
        array = GAME.initial_array()
        reversi.random_playout(array)
        finals.append(array.tolist())
    assert finals[0] == finals[1]


def test_random_playout_on_a_finished_game_changes_nothing():
    array = GAME.parse_state("xo" * 32 + " w").array.copy()
    before = array.copy()
    assert reversi.random_playout(array) == DRAW
    assert np.array_equal(array, before)


def test_random_playout_chooses_moves_uniformly():
    # A late position with 8 reachable final boards (all three results, and
    # 16 forced passes in its tree); compare their frequencies with exact odds.
    start = "x.xxox.xxxxxxxxxxoxoxxxxxoxxoxxxxoxoxoxxxoxoxxox.xxxoooo.oxxxxx. w"
    exact = exact_final_distribution(ref.from_string(start))
    assert len(exact) == 8
    root = GAME.parse_state(start).array.copy()
    trials = 20000
    seen: dict[str, int] = {}
    seed_kernels(11)
    for _ in range(trials):
        array = root.copy()
        reversi.random_playout(array)
        key = string_of(array)
        seen[key] = seen.get(key, 0) + 1
    assert set(seen) <= set(exact)
    for final, p in exact.items():
        mean = trials * float(p)
        spread = math.sqrt(mean * (1 - float(p)))
        assert abs(seen.get(final, 0) - mean) < 5 * spread, final


# ---- properties over random games and random boards ------------------------------
@PROPERTY_SETTINGS
@given(random_games)
def test_state_string_round_trips_exactly_along_random_games(picks):
    for state in walk(picks):
        text = GAME.state_string(state)
        again = GAME.parse_state(text)
        assert again == state
        assert GAME.state_string(again) == text


@PROPERTY_SETTINGS
@given(random_boards)
def test_state_string_round_trips_exactly_on_random_boards(text):
    assert GAME.state_string(GAME.parse_state(text)) == text


@PROPERTY_SETTINGS
@given(random_games)
def test_every_legal_move_applies_and_adds_one_disc_plus_flips(picks):
    for state in walk(picks):
        before = GAME.score(state)
        for move in GAME.legal_moves(state):
            after = GAME.apply(state, move)
            score = GAME.score(after)
            assert GAME.to_move(after) != GAME.to_move(state)
            if move == PASS:
                assert score == before
            else:
                assert score["black"] + score["white"] == sum(before.values()) + 1


@PROPERTY_SETTINGS
@given(
    st.one_of(
        random_games.map(lambda picks: walk(picks)[-1]),
        random_boards.map(GAME.parse_state),
    )
)
def test_a_state_is_terminal_exactly_when_it_has_no_legal_moves(state):
    legal = GAME.legal_moves(state)
    assert GAME.is_terminal(state) == (legal == [])
    assert (GAME.outcome(state) is None) == bool(legal)


@PROPERTY_SETTINGS
@given(random_games)
def test_kernels_agree_with_the_reference_along_random_games(picks):
    for state in walk(picks):
        assert_agrees_with_reference(GAME.state_string(state))


@PROPERTY_SETTINGS
@given(random_boards)
def test_kernels_agree_with_the_reference_on_random_boards(text):
    assert_agrees_with_reference(text)

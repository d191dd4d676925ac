"""Tests of Lines of Action: notation, rules, published games, perft, kernels."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcts.games import kernels, loa
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
    State,
)
from mcts.games.loa import PASS, LinesOfAction
from tests.games import reference_loa as ref

DATA = Path(__file__).resolve().parent.parent / "data"
GAMES_DIR = DATA / "loa-games"
PERFT = json.loads((DATA / "loa_perft.json").read_text())["positions"]

START = ".xxxxxx." + "o......o" * 6 + ".xxxxxx." + " b"


def position(black: str, white: str, to_move: str = "b") -> str:
    """Return the state string with black and white on the named squares."""
    cells = ["."] * 64
    for names, letter in ((black, "x"), (white, "o")):
        for name in names.split():
            cells[loa.parse_square(name)] = letter
    return "".join(cells) + " " + to_move


def kernel_moves(array: np.ndarray) -> list[int]:
    """Return the kernel's legal moves of a state vector (no repetition layer)."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    count = loa.legal_moves(array, out)
    return [int(m) for m in out[:count]]


def vector(state) -> tuple[int, int, int]:
    """Return (black, white, side) of a state vector as plain ints."""
    return tuple(int(word) for word in state.array[:3])


def switches(game: LinesOfAction) -> dict:
    """Return the reference's rule switches matching the game's options."""
    return {
        "mover_wins_double": game.options["double_connection"] == "mover_wins",
        "no_move_loses": game.options["no_move"] == "lose",
    }


# ---- start position, notation, state strings -----------------------------------------
def test_start_position_string_and_36_moves():
    game = LinesOfAction()
    state = game.initial_state()
    assert game.state_string(state) == START
    assert len(game.legal_moves(state)) == 36
    assert game.to_move(state) == "black"
    assert game.outcome(state) is None


def test_render_draws_board_with_coordinates_and_side_to_move():
    game = LinesOfAction()
    lines = game.render(game.initial_state()).splitlines()
    assert lines[0] == "  a b c d e f g h"
    assert lines[1] == "8 . X X X X X X . 8"
    assert lines[2] == "7 O . . . . . . O 7"
    assert lines[8] == "1 . X X X X X X . 1"
    assert lines[9] == "  a b c d e f g h"
    assert lines[10] == "Black (X) to move"


def test_move_codes_use_row_times_8_plus_col_from_a1():
    game = LinesOfAction()
    state = game.initial_state()
    assert game.parse_move_text(state, "b1-b3") == 1 * 64 + 17
    assert game.parse_move_text(state, "pass") == PASS == 4096


@pytest.mark.parametrize("text", ["b1-b3", "B1-B3", "b1xb3", "B1XB3", " b1-b3 "])
def test_parse_move_accepts_either_sign_and_any_case(text):
    game = LinesOfAction()
    state = game.initial_state()
    assert game.parse_move(state, text) == game.parse_move(state, "b1-b3")


def test_format_move_writes_x_exactly_on_captures():
    game = LinesOfAction()
    state = game.initial_state()
    texts = game.legal_move_texts(state)
    assert "c1xa3" in texts and "f8xh6" in texts
    assert "b1-b3" in texts
    assert sum("x" in t for t in texts) == 4
    assert game.format_move(state, game.parse_move(state, "c1-a3")) == "c1xa3"


@pytest.mark.parametrize(
    "text", ["", "b1", "b1-b9", "i1-a1", "b1b3", "b1--b3", "b1-b3x", "passs", "0-0"]
)
def test_malformed_move_raises_invalid_move_error_naming_text_and_form(text):
    game = LinesOfAction()
    with pytest.raises(InvalidMoveError) as error:
        game.parse_move(game.initial_state(), text)
    assert repr(text.strip()) in str(error.value)
    assert "<from>-<to> such as b1-b3 (x for a capture), or pass" in str(error.value)


def test_illegal_move_lists_legal_moves_and_changes_nothing():
    game = LinesOfAction()
    state = game.initial_state()
    before = state.array.copy()
    with pytest.raises(IllegalMoveError) as error:
        game.play(state, "b1-b4")
    assert "b1-b3" in str(error.value) and "c1xa3" in str(error.value)
    assert np.array_equal(state.array, before)
    with pytest.raises(IllegalMoveError):
        game.play(state, "pass")


def test_state_string_round_trips_start():
    game = LinesOfAction()
    state = game.parse_state(START)
    assert game.state_string(state) == START
    assert state == game.initial_state()


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("", "expected '<64 squares"),
        (START[:-2], "expected '<64 squares"),
        (START + " x", "expected '<64 squares"),
        (START[1:], "has 63 squares"),
        (START.replace(".", "-", 1), "holds '-'"),
        (START[:-1] + "x", "expected 'b' or 'w'"),
        ("." * 64 + " b", "0 black pieces"),
        (position("a1", ""), "0 white pieces"),
        ("x" * 13 + "." * 50 + "o b", "13 black pieces"),
    ],
)
def test_parse_state_rejects_bad_strings_saying_why(text, complaint):
    with pytest.raises(InvalidStateError) as error:
        LinesOfAction().parse_state(text)
    assert complaint in str(error.value)


def test_options_default_to_olympiad_rules():
    assert LinesOfAction().options == {
        "double_connection": "draw",
        "no_move": "pass",
        "repetition": 3,
    }
    assert LinesOfAction(repetition=2, no_move="lose").options["repetition"] == 2


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        ({"double_connection": "win"}, "double_connection='win'"),
        ({"no_move": "skip"}, "no_move='skip'"),
        ({"repetition": 4}, "repetition=4"),
        ({"repetition": "3"}, "repetition='3'"),
        ({"repetition": True}, "repetition=True"),
        ({"repetition": 2.0}, "repetition=2.0"),
        ({"board": 8}, "no option 'board'"),
    ],
)
def test_bad_options_raise_invalid_options_error(options, complaint):
    with pytest.raises(InvalidOptionsError) as error:
        LinesOfAction(**options)
    assert complaint in str(error.value)


def test_option_specs_list_the_values_the_options_check_accepts_default_first():
    specs = LinesOfAction.option_specs
    assert specs == {
        "double_connection": {"type": "choice", "choices": ["draw", "mover_wins"]},
        "no_move": {"type": "choice", "choices": ["pass", "lose"]},
        "repetition": {"type": "choice", "choices": [3, 2]},
    }
    defaults = {key: spec["choices"][0] for key, spec in specs.items()}
    assert LinesOfAction().options == defaults
    for key, spec in specs.items():
        for choice in spec["choices"]:
            assert LinesOfAction(**{key: choice}).options[key] == choice


def test_loa_is_titled_and_drawn_with_rank_one_at_the_bottom():
    assert LinesOfAction.title == "Lines of Action"
    assert LinesOfAction.rank_one_on_top is False


# ---- movement ------------------------------------------------------------------------
def legal_texts(text: str, **options) -> list[str]:
    """Return the legal moves, in notation, of the position a state string names."""
    game = LinesOfAction(**options)
    return game.legal_move_texts(game.parse_state(text))


def test_distance_counts_pieces_on_the_whole_line_both_ways():
    # File d holds d1 (behind the mover), d4 and d8: the d4 piece moves 3.
    texts = legal_texts(position("d4 d1 a8", "d8 h1"))
    assert "d4-d7" in texts
    assert "d4-d5" not in texts and "d4-d6" not in texts


def test_piece_may_jump_over_own_pieces():
    assert "b1-h1" in legal_texts(START)
    assert "a1-d4" in legal_texts(position("a1 b2 c3 h4", "h5 h7"))


def test_piece_may_not_jump_over_enemy_pieces():
    texts = legal_texts(position("a1 c3", "b2 h5"))
    assert "a1-d4" not in texts


def test_piece_may_not_land_on_own_piece():
    texts = legal_texts(position("a1 d1 h1", "a8 c8"))
    assert "a1-d1" not in texts
    assert "d1-g1" in texts


def test_capture_removes_the_enemy_piece():
    game = LinesOfAction()
    state = game.parse_state(position("a1 e5", "c1 h8"))
    after = game.play(state, "a1xc1")
    assert game.state_string(after) == position("c1 e5", "h8", "w")


def test_pieces_never_move_off_the_board():
    # Worked out by hand: every line that would leave the board (or wrap round
    # to the other edge of a bitboard) is missing.
    texts = legal_texts(position("a1 a3", "h8 h6"))
    assert sorted(texts) == ["a1-b1", "a1-c3", "a3-a5", "a3-b2", "a3-b3", "a3-b4"]


# ---- end of game ---------------------------------------------------------------------
DOUBLE = position("c2 c3 d6", "h8 h7 d4")


def test_connecting_move_wins_for_the_mover():
    game = LinesOfAction()
    state = game.play(game.parse_state(position("c2 c3 d6", "h8 a8 d4")), "d6xd4")
    outcome = game.outcome(state)
    assert outcome.winner == "black" and outcome.reason == "connected group"
    assert game.legal_moves(state) == []


def test_move_connecting_both_sides_is_a_draw():
    game = LinesOfAction()
    state = game.play(game.parse_state(DOUBLE), "d6xd4")
    assert game.status(state) == DRAW
    assert game.outcome(state).winner is None
    assert game.outcome(state).reason == "both sides connected at once"
    assert game.legal_moves(state) == []


def test_move_connecting_both_sides_wins_for_mover_under_variant():
    game = LinesOfAction(double_connection="mover_wins")
    state = game.play(game.parse_state(DOUBLE), "d6xd4")
    assert game.status(state) == BLACK_WINS
    assert game.outcome(state).reason == "both sides connected at once"


def test_capture_leaving_opponent_one_piece_makes_opponent_win():
    game = LinesOfAction()
    state = game.play(game.parse_state(position("a8 c2 c3 d6", "h8 d4")), "d6xd4")
    assert game.status(state) == WHITE_WINS
    assert game.outcome(state).winner == "white"
    assert game.outcome(state).reason == "connected group"


# White's a1 and h8 are walled in by black pieces: every line leaves the board
# or crosses a black neighbour.
STUCK = position("b1 a2 b2 g8 h7 g7", "a1 h8", "w")


def test_side_without_moves_must_pass():
    game = LinesOfAction()
    state = game.parse_state(STUCK)
    assert game.legal_moves(state) == [PASS]
    assert game.legal_move_texts(state) == ["pass"]
    after = game.play(state, "PASS")
    assert game.to_move(after) == "black"
    assert game.state_string(after) == STUCK[:-1] + "b"
    assert game.outcome(after) is None


def test_side_without_moves_loses_under_variant():
    game = LinesOfAction(no_move="lose")
    state = game.parse_state(STUCK)
    assert game.legal_moves(state) == []
    assert game.status(state) == BLACK_WINS
    assert game.outcome(state).reason == "no legal move"


SHUFFLE = ["b1-b3", "a2-c2", "b3-b1", "c2-a2"]


def test_third_occurrence_of_a_position_is_a_draw():
    game = LinesOfAction()
    state = game.play_all(SHUFFLE * 2)
    assert game.state_string(state) == START
    assert game.legal_moves(state) == []
    assert game.outcome(state).winner is None
    assert game.outcome(state).reason == "third repetition"
    # Repetition lives in the Python layer; the kernels see a game going on.
    assert loa.status(state.array) == ONGOING
    one_ply_earlier = game.play_all((SHUFFLE * 2)[:-1])
    assert game.outcome(one_ply_earlier) is None
    assert game.outcome(game.play_all(SHUFFLE)) is None


def test_second_occurrence_draws_when_repetition_is_two():
    game = LinesOfAction(repetition=2)
    state = game.play_all(SHUFFLE)
    assert game.legal_moves(state) == []
    assert game.status(state) == DRAW
    assert game.outcome(state).reason == "repetition"
    assert game.outcome(game.play_all(SHUFFLE[:-1])) is None


def test_the_rules_name_the_moves_that_let_a_position_repeat_a_third_time():
    """The search's kernels never see repetition: the rules tell its choice
    which moves draw at once, and which let the opponent draw."""
    game = LinesOfAction()

    def codes(state, texts):
        return frozenset(game.parse_move(state, text) for text in texts)

    start_twice = game.play_all(SHUFFLE)
    assert game.repetition_draws(game.initial_state()) == (frozenset(), frozenset())
    assert game.repetition_draws(start_twice) == (frozenset(), frozenset())
    # Black's b3-b1 lets white bring the start back a third time.
    before = game.play_all(SHUFFLE + SHUFFLE[:2])
    assert game.repetition_draws(before) == (frozenset(), codes(before, ["b3-b1"]))
    last = game.play_all(SHUFFLE + SHUFFLE[:3])
    assert game.repetition_draws(last) == (codes(last, ["c2-a2"]), frozenset())
    # Under the second-occurrence rule the first cycle's last moves do it.
    twice = LinesOfAction(repetition=2)
    state = twice.play_all(SHUFFLE[:3])
    assert twice.repetition_draws(state)[0] == frozenset(
        {twice.parse_move(state, "c2-a2")}
    )


def test_capture_clears_the_repetition_history():
    game = LinesOfAction()
    quiet = game.play_all(["b1-b3", "a2-c2"])
    assert len(quiet.history) == 2
    assert game.play(quiet, "c1xa3").history == ()


# ---- published games -----------------------------------------------------------------
def record_moves(path: Path) -> list[str]:
    """Return the move texts of a record ('1. c8-c6 h4-f2' lines)."""
    return [word for word in path.read_text().split() if not word.endswith(".")]


RECORDS = sorted(GAMES_DIR.glob("*.txt"))


def test_all_sixteen_records_are_present():
    assert len(RECORDS) == 16


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_published_game_replays_legally_to_its_result(path):
    game = LinesOfAction()
    state = game.initial_state()
    moves = record_moves(path)
    for text in moves:
        assert game.outcome(state) is None, f"game over before {text}"
        move = game.parse_move(state, text)
        assert game.format_move(state, move) == text
        state = game.play(state, text)
    outcome = game.outcome(state)
    if "incomplete" in path.stem:
        assert outcome is None
        return
    last_mover = "black" if len(moves) % 2 else "white"
    assert outcome.winner == last_mover
    assert outcome.reason == "connected group"


def test_shortest_game_is_a_black_win_in_nine_plies():
    game = LinesOfAction()
    moves = record_moves(GAMES_DIR / "shortest_game.txt")
    assert len(moves) == 9
    assert game.outcome(game.play_all(moves)).winner == "black"


# ---- perft ---------------------------------------------------------------------------
PERFT_CASES = [
    (entry["name"], int(depth), count)
    for entry in PERFT
    for depth, count in entry["perft"].items()
]


def perft_entry(name: str) -> dict:
    return next(entry for entry in PERFT if entry["name"] == name)


def test_perft_from_start_begins_36_1244():
    counts = perft_entry("start")["perft"]
    assert counts["1"] == 36 and counts["2"] == 1244


@pytest.mark.parametrize(("name", "depth", "expected"), PERFT_CASES)
def test_kernel_perft_matches_stored_counts(name, depth, expected):
    entry = perft_entry(name)
    game = LinesOfAction(**entry["options"])
    root = game.parse_state(entry["state"]).array.copy()
    assert kernels.perft(loa.GAME_ID, root, depth) == expected


@pytest.mark.parametrize(
    ("name", "depth", "expected"), [c for c in PERFT_CASES if c[1] <= 3]
)
def test_reference_perft_matches_stored_counts(name, depth, expected):
    entry = perft_entry(name)
    switches_ = switches(LinesOfAction(**entry["options"]))
    assert ref.perft(ref.from_string(entry["state"], **switches_), depth) == expected


# ---- kernels -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"double_connection": "mover_wins"}, {"no_move": "lose"}],
    ids=["olympiad", "mover_wins", "no_move_lose"],
)
def test_random_playout_ends_in_the_final_position_it_reports(options):
    game = LinesOfAction(**options)
    kernels.seed(12345)
    results = set()
    for _ in range(100):
        work = game.initial_array()
        result = loa.random_playout(work)
        assert result in (BLACK_WINS, WHITE_WINS, DRAW)
        assert loa.status(work) == result
        final = ref.from_string(game.state_string(State(work)), **switches(game))
        assert ref.status(final) == result
        results.add(result)
    assert {BLACK_WINS, WHITE_WINS} <= results
    if options.get("double_connection") == "mover_wins":
        assert DRAW not in results


def test_random_playout_of_a_finished_game_returns_its_status_unchanged():
    game = LinesOfAction()
    finished = game.play(game.parse_state(DOUBLE), "d6xd4").array.copy()
    before = finished.copy()
    assert loa.random_playout(finished) == DRAW
    assert np.array_equal(finished, before)


def test_random_playout_passes_or_loses_when_stuck():
    stuck_lose = LinesOfAction(no_move="lose").parse_state(STUCK).array.copy()
    assert loa.random_playout(stuck_lose) == BLACK_WINS
    kernels.seed(7)
    stuck_pass = LinesOfAction().parse_state(STUCK).array.copy()
    assert loa.random_playout(stuck_pass) in (BLACK_WINS, WHITE_WINS, DRAW)


def test_side_to_move_kernel_follows_the_turn():
    game = LinesOfAction()
    state = game.initial_state()
    assert loa.side_to_move(state.array) == 0
    assert loa.side_to_move(game.play(state, "b1-b3").array) == 1


# ---- properties over random games and random boards ----------------------------------
OPTION_SETS = st.fixed_dictionaries(
    {
        "double_connection": st.sampled_from(["draw", "mover_wins"]),
        "no_move": st.sampled_from(["pass", "lose"]),
    }
)


def assert_same_moves_and_status(state, reference) -> None:
    """Check the kernels' legal moves and status against the reference's."""
    assert sorted(kernel_moves(state.array)) == sorted(ref.legal_moves(reference))
    assert loa.status(state.array) == ref.status(reference)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=OPTION_SETS)
def test_random_games_agree_with_reference_and_round_trip(seed, options):
    # The game and the reference advance side by side, each by its own rules.
    game = LinesOfAction(**options)
    rng = random.Random(seed)
    state = game.initial_state()
    reference = ref.start(**switches(game))
    for _ in range(150):
        text = game.state_string(state)
        assert text == ref.to_string(reference)
        parsed = game.parse_state(text)
        assert game.state_string(parsed) == text
        assert np.array_equal(parsed.array, state.array)
        assert_same_moves_and_status(state, reference)
        legal = game.legal_moves(state)
        if game.is_terminal(state):
            assert legal == []
            break
        for move in legal:
            child = game.apply(state, move)
            assert vector(child) == ref.bitboards(ref.play(reference, move))
        move = rng.choice(legal)
        state = game.apply(state, move)
        reference = ref.play(reference, move)


@st.composite
def random_boards(draw):
    """Draw a state string with 1..12 pieces a side on random squares."""
    squares = draw(st.permutations(range(64)))
    n_black = draw(st.integers(1, 12))
    n_white = draw(st.integers(1, 12))
    cells = ["."] * 64
    for sq in squares[:n_black]:
        cells[sq] = "x"
    for sq in squares[n_black : n_black + n_white]:
        cells[sq] = "o"
    return "".join(cells) + " " + draw(st.sampled_from("bw"))


REASONS = {"connected group", "both sides connected at once", "no legal move"}


@settings(max_examples=300, deadline=None)
@given(text=random_boards(), options=OPTION_SETS)
def test_random_boards_agree_with_reference(text, options):
    game = LinesOfAction(**options)
    state = game.parse_state(text)
    reference = ref.from_string(text, **switches(game))
    assert game.state_string(state) == text
    assert_same_moves_and_status(state, reference)
    if game.is_terminal(state):
        assert game.legal_moves(state) == []
        assert game.outcome(state).reason in REASONS
    else:
        assert game.legal_moves(state)
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        expected = ref.play(reference, move)
        assert vector(child) == ref.bitboards(expected)
        assert loa.status(child.array) == ref.status(expected)

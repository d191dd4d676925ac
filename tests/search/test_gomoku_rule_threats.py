"""The threat search under the standard and renju rules: an overline is not
a five where it does not win, black plays no forbidden point, and white
wins where black's only block is one. Every line found is checked by
:func:`forced_win` with the rules' own kernels."""

import random

import numpy as np
import pytest

from mcts.games import gomoku
from mcts.games.gomoku import Gomoku
from mcts.search.gomoku.threats.vcf import VCF_MAX_DEPTH, defence_moves, state_vcf
from mcts.search.gomoku.threats.vct import state_vct
from mcts.search.searcher import Searcher

from .gomoku_helpers import position
from .test_gomoku_threats import THREE_PLIES, forced_win, vcf_line

FREESTYLE = Gomoku()
STANDARD = Gomoku(rule="standard")
RENJU = Gomoku(rule="renju")
#: Black to move: l8 joins h8-k8 and m8 into six, g8 is white's.
OVERLINE = ("h8 i8 j8 k8 m8", "g8 a1 a3 a5 a7")
#: White to move: l12 makes a four whose only five point is h8, and h8 is
#: a double three for black (f8 g8 and h6 h7); m13 and g7 close the ends.
FORBIDDEN_BLOCK = ("f8 g8 h6 h7 m13 g7", "i9 j10 k11 a1 o1")


def test_an_overline_is_a_five_only_under_freestyle():
    assert vcf_line(FREESTYLE, position(FREESTYLE, *OVERLINE)) == ["l8"]
    for game in (STANDARD, RENJU):
        assert vcf_line(game, position(game, *OVERLINE)) == []


def test_an_overline_wins_for_white_under_renju():
    black, white = OVERLINE
    state = position(RENJU, white + " b2", black)  # the same stones, white's
    assert vcf_line(RENJU, state) == ["l8"]
    assert forced_win(RENJU, state, ["l8"])


def test_black_wins_by_a_four_three_not_a_double_four_under_renju():
    # Freestyle's line ends on h8, two fours: forbidden to black in renju.
    assert vcf_line(FREESTYLE, THREE_PLIES) == ["i8", "i9", "h8"]
    text = FREESTYLE.state_string(THREE_PLIES)
    renju = RENJU.parse_state(text.replace("15:5:", "15:5:renju:", 1))
    line = vcf_line(RENJU, renju)
    assert line[-1:] != ["h8"]
    assert not line or forced_win(RENJU, renju, line)


def test_white_wins_where_black_must_block_on_a_forbidden_point():
    assert vcf_line(FREESTYLE, position(FREESTYLE, *FORBIDDEN_BLOCK)) == []
    state = position(RENJU, *FORBIDDEN_BLOCK)
    assert vcf_line(RENJU, state) == ["l12"]
    assert forced_win(RENJU, state, ["l12"])


def test_black_defends_only_on_points_it_may_play():
    # Black to move against white's l12: no block exists (h8 is forbidden
    # after it), but l12 itself and the points near the line may defend.
    black, white = FORBIDDEN_BLOCK
    state = position(RENJU, black, white + " o15")
    out = np.empty(225, dtype=np.int64)
    count = defence_moves(state.array.copy(), 4_000, out)
    assert count > 0
    legal = np.empty(225, dtype=np.int64)
    allowed = set(legal[: gomoku.legal_moves(state.array.copy(), legal)].tolist())
    assert set(out[:count].tolist()) <= allowed
    assert RENJU.parse_move(state, "l12") in out[:count]


def _crowded(game, plies, rng):
    """Return a state after ``plies`` random legal moves within three points
    of the centre (crowded, so fours abound), or None if the game ended."""
    state = game.initial_state()
    centre = game.size // 2
    for _ in range(plies):
        moves = [
            move
            for move in game.legal_moves(state)
            if max(abs(move // game.size - centre), abs(move % game.size - centre)) <= 3
        ]
        if not moves:
            return None
        state = game.apply(state, rng.choice(moves))
        if game.is_terminal(state):
            return None
    return state


@pytest.mark.parametrize("game", [STANDARD, RENJU], ids=["standard", "renju"])
def test_every_line_found_in_crowded_random_positions_wins(game):
    rng = random.Random(1)
    long_lines = 0
    for _ in range(300):
        state = _crowded(game, rng.randrange(8, 20), rng)
        if state is None:
            continue
        line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
        length, _ = state_vcf(state.array.copy(), 0, VCF_MAX_DEPTH, 20_000, line)
        if length:
            names = [game.format_move(state, int(move)) for move in line[:length]]
            assert forced_win(game, state, names), (game.state_string(state), names)
            long_lines += length >= 3
        vct = state_vct(state.array.copy(), 0, 1, 2_000)
        assert vct < 0 or vct in game.legal_moves(state)
    assert long_lines >= 5


def test_the_searcher_under_renju_plays_white_s_win_by_a_forbidden_block():
    result = Searcher(RENJU, position(RENJU, *FORBIDDEN_BLOCK), seed=1).search(
        simulations=200
    )
    assert (result.move, result.proven) == ("l12", "win")


def test_the_searcher_under_standard_does_not_take_an_overline_for_a_five():
    state = position(STANDARD, *OVERLINE)
    result = Searcher(STANDARD, state, seed=1).search(simulations=200)
    assert result.move != "l8" and result.proven != "win"

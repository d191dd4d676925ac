"""The alpha-beta's pattern board and search under the standard and renju
rules: exact rows, black's forbidden points, and white's win where black's
only block is one. The rules' own kernels (:mod:`mcts.games.renju`) and the
exact shapes read on the whole board are the references."""

import numpy as np
import pytest

from mcts.games import gomoku, renju
from mcts.games.gomoku import Gomoku
from mcts.play.alphabeta_player import AlphaBetaPlayer
from mcts.search.gomoku import alphabeta as ab
from mcts.search.gomoku import patterns
from mcts.search.gomoku.config import GomokuSearch
from mcts.search.gomoku.shapes import exact_shape_at, shape_at

from .gomoku_helpers import position
from .test_gomoku_rule_threats import FORBIDDEN_BLOCK, OVERLINE

FREESTYLE = Gomoku()
STANDARD = Gomoku(rule="standard")
RENJU = Gomoku(rule="renju")
#: Black to move: h8 makes two fours (e8-h8 and h5-h8, d8 and h4 closed),
#: a win in freestyle and a double four, forbidden, in renju.
DOUBLE_FOUR = ("e8 f8 g8 h5 h6 h7", "d8 h4 a1 o1 a15 o15")


def _random_position(game, plies, rng):
    """Return the stones and state after ``plies`` random legal moves near
    the centre, or None if the game ended first."""
    state = game.initial_state()
    for _ in range(plies):
        moves = [
            m
            for m in game.legal_moves(state)
            if max(abs(m // 15 - 7), abs(m % 15 - 7)) <= 4
        ]
        if game.is_terminal(state) or not moves:
            return None
        state = game.apply(state, moves[rng.integers(len(moves))])
    if game.is_terminal(state):
        return None
    stones = np.asarray(state.array[gomoku.HEADER : gomoku.HEADER + 225], np.int64)
    return stones, state


def _set_positions(game, board, games, plies, rng):
    """Yield the stones and state of up to ``games`` random positions of
    ``plies`` (low, high) plies, each set on ``board`` first."""
    for _ in range(games):
        found = _random_position(game, int(rng.integers(*plies)), rng)
        if found is not None:
            patterns.set_position(board, found[0])
            yield found


@pytest.mark.parametrize("game", [STANDARD, RENJU], ids=["standard", "renju"])
def test_the_board_stores_each_rules_shapes(game):
    # Exact rows for both colours under the standard rule and for black
    # under renju: every stored shape is the exact shape read on the whole
    # board. White under renju keeps freestyle's (nearly always the whole
    # board's, as in freestyle: the window sees five cells either side).
    rng = np.random.default_rng(66)
    board = patterns.new_board(15, 5, gomoku.RULES[game.rule])
    exact_colours = (1, 2) if game is STANDARD else (1,)
    same = total = 0
    for stones, _state in _set_positions(game, board, 12, (8, 50), rng):
        for x in np.flatnonzero(stones == 0):
            for colour in (1, 2):
                for d in range(4):
                    stored = board[3][colour - 1, x, d]
                    if colour in exact_colours:
                        assert stored == exact_shape_at(
                            stones.copy(), 15, 5, colour, int(x), d
                        )
                    else:
                        seen = shape_at(stones.copy(), 15, 5, colour, int(x), d)
                        same += stored == seen
                        total += 1
    assert total == 0 or same >= 0.95 * total


def _level(game, stones_text, name, colour):
    state = position(game, *stones_text)
    board = patterns.new_board(15, 5, gomoku.RULES[game.rule])
    stones = np.asarray(state.array[gomoku.HEADER : gomoku.HEADER + 225], np.int64)
    patterns.set_position(board, stones)
    return board[5][colour - 1, game.parse_move_text(state, name)]


def test_an_overline_is_a_five_only_where_it_wins():
    assert _level(FREESTYLE, OVERLINE, "l8", 1) == patterns.LEVEL_FIVE
    assert _level(STANDARD, OVERLINE, "l8", 1) < patterns.LEVEL_FOUR
    assert _level(RENJU, OVERLINE, "l8", 1) == patterns.LEVEL_FORBIDDEN
    black, white = OVERLINE
    assert _level(RENJU, (white + " b2", black), "l8", 2) == patterns.LEVEL_FIVE


def test_two_fours_win_except_for_black_under_renju():
    assert _level(FREESTYLE, DOUBLE_FOUR, "h8", 1) == patterns.LEVEL_WIN_FOUR
    assert _level(STANDARD, DOUBLE_FOUR, "h8", 1) == patterns.LEVEL_WIN_FOUR
    assert _level(RENJU, DOUBLE_FOUR, "h8", 1) == patterns.LEVEL_FORBIDDEN


def test_the_boards_forbidden_points_cover_the_rules():
    # Every point the rules forbid to black, the board marks forbidden; the
    # board's extra ones are threes whose straight four needs a forbidden
    # point (the rules' recursive case, which the shapes do not read).
    rng = np.random.default_rng(7)
    board = patterns.new_board(15, 5, gomoku.RENJU)
    marked = agreed = ruled = 0
    for stones, state in _set_positions(RENJU, board, 120, (20, 70), rng):
        scratch = state.array.copy()
        for x in np.flatnonzero(stones == 0):
            forbidden = renju.forbidden(scratch, np.int64(x)) != renju.NOT_FORBIDDEN
            on_board = board[5][0, x] == patterns.LEVEL_FORBIDDEN
            assert on_board or not forbidden
            ruled += forbidden
            marked += on_board
            agreed += on_board and forbidden
    assert ruled >= 30
    assert agreed >= 0.85 * marked


def _think(game, stones_text, depth=4):
    state = position(game, *stones_text)
    rule = gomoku.RULES[game.rule]
    search = ab.new_search(15, 5, rule)
    move, value, _depth, _nodes = ab.think(search, state.array, 1e6, max_depth=depth)
    return game.format_move(state, move), value


def test_black_plays_two_fours_except_under_renju():
    assert _think(FREESTYLE, DOUBLE_FOUR) == ("h8", pytest.approx(ab.WIN - 2))
    # Under renju h8 is forbidden; black has other threats to play.
    move, _value = _think(RENJU, DOUBLE_FOUR)
    assert move != "h8"


def test_an_overline_wins_nothing_under_the_standard_rule():
    assert _think(FREESTYLE, OVERLINE, depth=1) == ("l8", ab.WIN)
    _move, value = _think(STANDARD, OVERLINE, depth=1)
    assert value < ab.WIN_BOUND


def test_white_wins_where_black_must_block_on_a_forbidden_point():
    move, value = _think(RENJU, FORBIDDEN_BLOCK)
    assert move == "l12"
    assert value >= ab.WIN_BOUND
    _move, value = _think(FREESTYLE, FORBIDDEN_BLOCK)
    assert value < ab.WIN_BOUND


def test_black_never_plays_a_forbidden_point():
    # Crowded renju positions with black to move and forbidden points on the
    # board: the search's move is legal by the rules' own kernel.
    rng = np.random.default_rng(11)
    search = ab.new_search(15, 5, gomoku.RENJU)
    tried = 0
    while tried < 15:
        found = _random_position(RENJU, 2 * int(rng.integers(12, 30)), rng)
        if found is None:
            continue
        stones, state = found
        scratch = state.array.copy()
        empties = np.flatnonzero(stones == 0)
        if not any(renju.forbidden(scratch, np.int64(x)) for x in empties):
            continue
        tried += 1
        move, _value, _depth, _nodes = ab.think(search, state.array, 1e6, max_depth=3)
        assert stones[move] == 0
        assert renju.forbidden(scratch, np.int64(move)) == renju.NOT_FORBIDDEN


def test_the_alphabeta_plays_every_rule_with_rows_of_five():
    settings = GomokuSearch()
    for rule in ("freestyle", "standard", "renju"):
        assert settings.for_board(5, rule).alphabeta == settings.alphabeta
    assert settings.for_board(6, "freestyle").alphabeta == settings.alphabeta
    assert settings.for_board(6, "standard").alphabeta == 0.0


def test_the_alphabeta_player_plays_each_rule_legally():
    for game in (STANDARD, RENJU):
        player = AlphaBetaPlayer(game, seconds=0.05)
        state = position(game, *DOUBLE_FOUR)
        move = player.choose(state)
        assert move in game.legal_moves(state)
    with pytest.raises(ValueError, match="rows of at most 5"):
        AlphaBetaPlayer(Gomoku(row=6, rule="standard"), seconds=0.05)

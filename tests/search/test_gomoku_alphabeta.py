"""Gomoku alpha-beta: it wins the VCF positions the threat tests use, blocks
what must be blocked, and plays behind the spec and the piskvork engine."""

import io

import numba
import numpy as np
import pytest

from mcts.games import find_game, gomoku
from mcts.games.base import ONGOING
from mcts.games.gomoku import Gomoku
from mcts.play import piskvork
from mcts.play.players import find_player
from mcts.search.gomoku import alphabeta as ab

from .gomoku_helpers import VCF_LINES, position

GAME = Gomoku()


@pytest.mark.parametrize("text", [text for text, _ in VCF_LINES])
def test_it_finds_and_plays_out_a_vcf(text):
    state = GAME.parse_state(text)
    attacker = int(state.array[gomoku.SIDE])
    board = ab.new_search(15, 5)
    _, value, _, _ = ab.think(board, state.array, 0.3)
    assert value >= ab.WIN_BOUND
    for _ in range(12):  # both sides played by the search: the attack wins
        move, _, _, _ = ab.think(board, state.array, 0.1)
        state = GAME.apply(state, move)
        if GAME.status(state) != ONGOING:
            break
    assert GAME.status(state) == (
        gomoku.BLACK_WINS if attacker == 0 else gomoku.WHITE_WINS
    )


def test_it_blocks_a_four_and_an_open_three():
    board = ab.new_search(15, 5)
    four = position(GAME, "h8 i8 j8 k8", "h9 i9 a1")  # black four, white to move
    move, _, _, _ = ab.think(board, four.array, 0.2)
    assert GAME.format_move(four, move) in ("g8", "l8")
    three = position(GAME, "h8 i8 j8 c3", "h9 a1 a15")  # open three, white to move
    move, _, _, _ = ab.think(board, three.array, 0.3)
    assert GAME.format_move(three, move) in ("g8", "k8", "f8", "l8")


def test_it_completes_its_own_five_before_blocking():
    board = ab.new_search(15, 5)
    state = position(GAME, "h8 i8 j8 k8", "h9 i9 j9 k9")  # black to move
    move, value, _, _ = ab.think(board, state.array, 0.1)
    assert GAME.format_move(state, move) in ("g8", "l8")
    assert value >= ab.WIN_BOUND


def test_the_alphabeta_spec_plays_gomoku_and_only_gomoku():
    player = find_player("alphabeta:seconds=0.05", GAME)
    state = GAME.play_all(["h8", "i9"])
    assert player.choose(state) in GAME.legal_moves(state)
    with pytest.raises(ValueError, match="Gomoku only"):
        find_player("alphabeta", find_game("reversi"))
    with pytest.raises(ValueError, match="rows of at most 6"):
        find_player("alphabeta", find_game("gomoku", size=15, row=7))


def test_the_alphabeta_spec_takes_only_a_think_time_and_a_model():
    with pytest.raises(ValueError, match="the alphabeta player takes model, seconds"):
        find_player("alphabeta:sims=100", GAME)


def test_the_alphabeta_spec_evaluates_by_its_models_shape_weights(tmp_path):
    from mcts.models import store
    from mcts.models.model import Model
    from mcts.search.gomoku.patterns import WEIGHTS
    from mcts.search.gomoku.weights import HAND_WEIGHTS, ShapeWeights
    from mcts.search.tree import Tree

    fitted = ShapeWeights((0.0, 1.0, 60.0, 160.0, 299.0, 1e3, 1e5), 800, 300, 0, 0.3)
    folder = tmp_path / "fitted"
    root = GAME.initial_state()
    store.save(Model(GAME, Tree(), root, shape_weights=fitted), folder)
    played = {
        "alphabeta": HAND_WEIGHTS,
        f"alphabeta:model={folder}": fitted,
    }
    for spec, weights in played.items():
        player = find_player(spec, GAME, seconds=0.01)
        assert np.array_equal(player._board[WEIGHTS], weights.array()), spec
    # The page's player lends them to its alpha-beta too.
    page = find_player(f"mcts-heavy:model={folder}", GAME, seconds=0.01)
    assert page.searcher.shape_weights == fitted


def test_the_piskvork_engine_plays_the_alphabeta_player_on_its_clock():
    made = []

    def make(game, seconds):
        made.append(find_player("alphabeta", game, seconds=seconds))
        return made[-1]

    script = "START 15\nINFO timeout_turn 300\nBEGIN\nTURN 8,6\nEND\n"
    out = io.StringIO()
    assert piskvork.serve(make, io.StringIO(script), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "OK" and len(lines) == 3
    assert made[0].seconds == pytest.approx(0.25)  # the turn less its margin
    state = GAME.apply(GAME.initial_state(), piskvork.from_xy(GAME, lines[1]))
    state = GAME.apply(state, piskvork.from_xy(GAME, "8,6"))
    assert piskvork.from_xy(GAME, lines[2]) in GAME.legal_moves(state)


def test_a_search_has_the_types_its_cached_kernels_declare():
    assert numba.typeof(ab.new_search(7, 5)) == ab.SEARCH_TYPE


def test_a_search_that_forgot_plays_as_a_new_one():
    # A quiescence entry once kept the move of the slot's former position,
    # which a later node probing it searched first: the result depended on
    # what the board had searched before.
    earlier = GAME.play_all(["h8", "i9", "h9", "h10", "j8", "g7"])
    state = GAME.play_all(["h8", "i9", "h9", "h10", "j8", "g7", "i8", "g8", "k8", "l8"])
    new = ab.think(ab.new_search(15, 5), state.array, 1e6, max_depth=7)
    board = ab.new_search(15, 5)
    ab.think(board, earlier.array, 1e6, max_depth=7)
    ab.forget(board)
    assert ab.think(board, state.array, 1e6, max_depth=7) == new

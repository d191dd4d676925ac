"""VCF search: known wins, sound refusals, the moves that must block.

Every line the search reports is checked by :func:`forced_win`, which tries
every defender reply at every step with the rules' own kernels.
"""

import numpy as np
import pytest

from mcts.games import gomoku
from mcts.games.base import ONGOING
from mcts.games.gomoku import Gomoku
from mcts.play.openings import OPENING_PLIES, opening_moves
from mcts.search.config import SearchConfig
from mcts.search.gomoku.threats.lines import (
    cells_of,
    four_moves,
    next_fours,
    win_cells_through,
)
from mcts.search.gomoku.threats.root import plan_root
from mcts.search.gomoku.threats.vcf import (
    LEAF_VCF_NODES,
    VCF_MAX_DEPTH,
    defence_moves,
    has_vcf,
    state_vcf,
    vcf,
)
from mcts.search.gomoku.threats.vct import (
    deep_vct,
    lost_table,
    search_vct,
    state_vct,
    wins_by_threats,
)
from mcts.search.searcher import Searcher
from mcts.search.tree import Tree

from .configs import config
from .gomoku_helpers import VCF_LINES, position

BUDGET = 20_000


def vcf_line(game, state, attacker=0):
    """Return the VCF line (move names) of ``attacker`` (0 the side to move,
    1 the other) found in ``state``, empty if none."""
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, _ = state_vcf(state.array, attacker, VCF_MAX_DEPTH, BUDGET, line)
    return [game.format_move(state, int(move)) for move in line[:length]]


def _after(array, move):
    out = array.copy()
    gomoku.apply_move(out, move)
    return out


def _legal(array):
    """Return the legal moves of the side to move (less black's forbidden
    points under renju)."""
    out = np.empty(gomoku.MAX_SIZE * gomoku.MAX_SIZE, dtype=np.int64)
    return [int(move) for move in out[: gomoku.legal_moves(array.copy(), out)]]


def _wins_now(array):
    """Return whether the side to move can complete a row at once."""
    return any(gomoku.status(_after(array, m)) != ONGOING for m in _legal(array))


def forced_win(game, state, names):
    """Return whether the line ``names`` wins for the side to move against
    every defence under the game's rule: each defender reply other than the
    line's loses to a winning row at once, and the last attacker move leaves
    no defence at all."""
    array = state.array
    winner = gomoku.BLACK_WINS if int(array[gomoku.SIDE]) == 0 else gomoku.WHITE_WINS
    moves = [game.parse_move_text(state, name) for name in names]
    for i in range(0, len(moves), 2):
        if moves[i] not in _legal(array):
            return False
        array = _after(array, moves[i])
        if gomoku.status(array) != ONGOING:
            return gomoku.status(array) == winner
        forced = moves[i + 1] if i + 1 < len(moves) else -1
        replies = _legal(array)
        if not replies or (forced >= 0 and forced not in replies):
            return False  # a draw (black has only forbidden points), or no block
        for reply in replies:
            if reply == forced:
                continue
            after = _after(array, reply)
            if gomoku.status(after) != ONGOING or not _wins_now(after):
                return False
        if forced < 0:
            return True
        array = _after(array, forced)
        if gomoku.status(array) != ONGOING:
            return False
    return False


GAME = Gomoku()
NO_THREATS = config(GAME, threats=False)
#: Black i8 makes a closed four down column i (white must take i9), then
#: h8 makes two fours: row 8 (f8) and column h (h7).
THREE_PLIES = position(GAME, "g8 j8 i7 i6 i5 h9 h10 h11", "k8 i4 h12 a1 o15 a15 o1 c13")


def test_a_five_on_the_board_is_a_line_of_one():
    state = position(GAME, "h8 i8 j8 k8", "a1 a3 a5 a7")
    line = vcf_line(GAME, state)
    assert line in (["g8"], ["l8"])
    assert forced_win(GAME, state, line)


def test_an_open_four_in_one_move_wins_at_once():
    state = position(GAME, "h8 i8 j8", "a1 a3 a5")
    line = vcf_line(GAME, state)
    assert line in (["g8"], ["k8"])
    assert forced_win(GAME, state, line)


def test_a_four_then_a_double_four_wins_in_three_plies():
    line = vcf_line(GAME, THREE_PLIES)
    assert line == ["i8", "i9", "h8"]
    assert forced_win(GAME, THREE_PLIES, line)


@pytest.mark.parametrize(("text", "plies"), VCF_LINES)
def test_longer_fours_lines_are_found_and_really_win(text, plies):
    state = GAME.parse_state(text)
    line = vcf_line(GAME, state)
    assert len(line) == plies
    assert forced_win(GAME, state, line)


@pytest.mark.parametrize(
    ("size", "row", "text", "plies"),
    [
        (
            9,
            5,
            "9:5:...........x..o.....xox.....ox..ox......x......o.o....."
            "...x.xo......oxo.......... b",
            5,
        ),
        (7, 4, "7:4:..........o.o...xxo.....................x........ b", 5),
    ],
)
def test_lines_on_other_boards_and_row_lengths_really_win(size, row, text, plies):
    game = Gomoku(size=size, row=row)
    state = game.parse_state(text)
    line = vcf_line(game, state)
    assert len(line) == plies
    assert forced_win(game, state, line)


def test_the_same_shapes_win_on_a_nine_by_nine_board():
    game = Gomoku(size=9, row=5)
    # THREE_PLIES moved to the 9x9 board: column i -> e, row 8 -> 4.
    state = position(game, "c4 f4 e3 e2 e1 d5 d6 d7", "g4 e9 d8 a9 i9 i1 a1 a5")
    line = vcf_line(game, state)
    assert line == ["e4", "e5", "d4"]
    assert forced_win(game, state, line)


def test_a_block_that_makes_a_four_for_the_defender_stops_the_line():
    # j8 forces white to k8, which makes white's own four k8-k11 (k12 is
    # black): black must then block k7, which is no four. Read naively,
    # j8 k8 j9 (an open four in column j) would look like a win.
    state = position(GAME, "g8 h8 i8 k12 j10 j11", "f8 k9 k10 k11 a1 o15")
    assert vcf_line(GAME, state) == []
    # Without that counter-four (k12 empty, white's column is then open at
    # both ends: it is worse) there is no win either.
    state = position(GAME, "g8 h8 i8 j10 j11 a1", "f8 k9 k10 k11 a15 o15")
    assert vcf_line(GAME, state) == []


def test_a_defender_four_on_the_board_must_be_blocked_first():
    # THREE_PLIES with a white four a3-a6 (win cell a7): black's line would
    # come too late; blocking a7 makes no four, so there is no VCF.
    state = position(
        GAME, "g8 j8 i7 i6 i5 h9 h10 h11 o8", "k8 i4 h12 a3 a4 a5 a6 c13 a2"
    )
    assert vcf_line(GAME, state) == []
    assert not has_vcf(state.array, BUDGET)


def test_quiet_positions_have_no_vcf():
    assert vcf_line(GAME, position(GAME, "h8 i9", "h9 g8")) == []
    assert vcf_line(GAME, GAME.initial_state()) == []
    assert not has_vcf(GAME.initial_state().array, BUDGET)


def test_a_vcf_search_meets_each_position_once():
    # Black has many fours here and no VCF: played in every order, they
    # took 4,000 attacker moves; the table of lost positions cuts the
    # orders that meet again.
    moves = "i8 g7 i6 h8 i9 i7 j7 j6 k5 k7 i5 h5 h9 g9 f10 g10 g8 h7 f7 e6 l9 k9"
    state = GAME.play_all([*moves.split(), "l10", "e7"])
    cells = state.array[gomoku.HEADER :].astype(np.int64)
    line = np.empty(2 * VCF_MAX_DEPTH + 1, dtype=np.int64)
    length, nodes = vcf(cells, (15, 5, 0), 1, VCF_MAX_DEPTH, BUDGET, line)
    assert length == 0
    assert 0 < nodes < 1_000
    assert (cells == state.array[gomoku.HEADER :]).all()  # the board is restored


def test_the_fours_after_a_four_and_its_block_are_those_a_board_scan_finds():
    # next_fours builds a VCF node's fours from its parent's; on random
    # boards, after every four that makes one win cell and its block, they
    # are the cells four_moves finds reading the whole board.
    rng = np.random.default_rng(1)
    size, row, black = 15, 5, 1
    mark = np.zeros(size * size, dtype=np.int64)
    stamp = 1
    checked = 0
    for _ in range(300):
        cells = np.zeros(size * size, dtype=np.int64)
        count = int(rng.integers(6, 40))
        taken = rng.choice(np.arange(3 * size, 12 * size), count, replace=False)
        cells[taken] = rng.integers(1, 3, count)
        out = np.empty(4 * size * size, dtype=np.int64)
        found = np.empty(2, dtype=np.int64)
        stamp += 1
        fours = four_moves(cells, size, row, black, out, 0, mark, stamp)
        for attack in out[:fours].copy():
            cells[attack] = black
            if win_cells_through(cells, (size, row), black, attack, found, False) == 1:
                cells[found[0]] = 3 - black
                stamp += 1
                end = next_fours(
                    cells,
                    (size, row),
                    black,
                    out,
                    (0, fours),
                    (attack, found[0]),
                    mark,
                    stamp,
                )
                stamp += 1
                scan = four_moves(cells, size, row, black, out, end, mark, stamp)
                assert set(out[fours:end]) == set(out[end:scan])
                checked += 1
                cells[found[0]] = 0
            cells[attack] = 0
    assert checked > 300


def test_the_other_side_is_searched_as_if_the_mover_passed():
    state = position(
        GAME, "g8 j8 i7 i6 i5 h9 h10 h11 n2", "k8 i4 h12 a1 o15 a15 o1 c13"
    )
    assert vcf_line(GAME, state, attacker=0) == []
    assert vcf_line(GAME, state, attacker=1) == ["i8", "i9", "h8"]


def test_defence_moves_are_exactly_the_moves_that_stop_the_line():
    # White to move against black's open three h8 i8 j8: only the ends stop
    # the open four (f8 or l8 leave black a four that still opens).
    state = position(GAME, "h8 i8 j8 n2", "a1 o1 a15")
    out = np.empty(225, dtype=np.int64)
    count = defence_moves(state.array, BUDGET, out)
    kept = {GAME.format_move(state, int(m)) for m in out[:count]}
    assert kept == {"g8", "k8"}
    for name in kept:  # each really stops black's fours
        assert vcf_line(GAME, GAME.play(state, name)) == []
    for name in ("f8", "l8", "h9", "c3"):  # the others do not
        after = GAME.play(state, name)
        assert forced_win(GAME, after, vcf_line(GAME, after))


def test_a_double_threat_leaves_no_defence():
    # THREE_PLIES' threat, white to move: columns h and i both win.
    state = position(
        GAME, "g8 j8 i7 i6 i5 h9 h10 h11 n2", "k8 i4 h12 a1 o15 a15 o1 c13"
    )
    out = np.empty(225, dtype=np.int64)
    assert defence_moves(state.array, BUDGET, out) == 0


def test_no_threat_means_no_defence_list():
    state = position(GAME, "h8", "")
    out = np.empty(225, dtype=np.int64)
    assert defence_moves(state.array, BUDGET, out) == -1


# ---- the root rule in the searcher ----------------------------------------------
def test_the_searcher_plays_a_vcf_at_once_and_reports_it_proven():
    result = Searcher(GAME, THREE_PLIES, seed=1).search(simulations=1000)
    assert result.move == "i8"
    assert result.proven == "win"
    assert result.simulations == 0  # proven before the first simulation


def test_the_searcher_only_considers_the_moves_that_must_block():
    state = position(GAME, "h8 i8 j8 n2", "a1 o1 a15")
    searcher = Searcher(GAME, state, seed=1)
    result = searcher.search(simulations=300)
    assert result.move in ("g8", "k8")
    assert {s.move for s in result.moves if s.visits} <= {"g8", "k8"}


def test_threats_off_searches_every_focused_move():
    state = position(GAME, "h8 i8 j8 n2", "a1 o1 a15")
    searcher = Searcher(GAME, state, config=NO_THREATS, seed=1)
    result = searcher.search(simulations=300)
    assert {s.move for s in result.moves if s.visits} - {"g8", "k8"}
    assert not Searcher(GAME, state, config=SearchConfig(evaluator="random")).threats


def test_a_reused_tree_keeps_its_blocks_and_loses_the_rest():
    state = position(GAME, "h8 i8 j8 n2", "a1 o1 a15")
    searcher = Searcher(GAME, state, config=NO_THREATS, seed=1)
    searcher.search(simulations=300)
    searcher.threats = True
    result = searcher.search(simulations=300)
    assert result.move in ("g8", "k8")
    others = [s for s in result.moves if s.visits and s.move not in ("g8", "k8")]
    assert others
    assert all(s.proven == "loss" for s in others)


def test_new_leaves_are_proven_by_a_vcf_inside_the_tree():
    # White to move cannot stop both of black's columns: every white move
    # leaves black a VCF, which the leaf check proves at the first visit.
    state = position(
        GAME, "g8 j8 i7 i6 i5 h9 h10 h11 n2", "k8 i4 h12 a1 o15 a15 o1 c13"
    )
    result = Searcher(GAME, state, seed=1).search(simulations=2000)
    assert result.proven == "loss"
    assert result.simulations < 100


@pytest.mark.parametrize("vct_nodes", [200, 0])
def test_new_leaves_are_proven_by_a_vct_of_one_three_when_asked(vct_nodes):
    # Black has a double three ready at d5 and another at k10: whichever
    # white blocks, black wins by the other three and then fours. A leaf's
    # VCT check proves each white move lost at once; fours alone need the
    # tree to grow three plies down first.
    state = position(
        GAME, "d6 d7 e5 f5 k11 k12 l10 m10 h1", "a1 o1 a15 o15 a8 o8 h15 a3"
    )
    after = GAME.play(state, "d5")
    assert wins_by_threats(after.array, LEAF_VCF_NODES, vct_nodes) == (vct_nodes > 0)
    settings = config(GAME, vct_nodes=vct_nodes, recheck=False)
    searcher = Searcher(GAME, state, config=settings, seed=1)
    result = searcher.search(simulations=2000)
    # Found, not proven: after a2, a4 or a5, moves focus drops at the root,
    # white's own threats hide black's win from the threat search's check.
    assert (result.found, result.proven) == ("loss", None)
    assert (result.simulations < 100) == (vct_nodes > 0)
    # So the default, which rechecks the proof it stopped on, searches on.
    settings = config(GAME, vct_nodes=vct_nodes)
    rechecked = Searcher(GAME, state, config=settings, seed=1)
    result = rechecked.search(simulations=2000)
    assert result.simulations == 2000 and result.proven is None


def test_a_negative_leaf_vct_budget_is_refused():
    with pytest.raises(ValueError, match="vct"):
        Searcher(GAME, config=config(GAME, vct_nodes=-1))


# ---- VCT -----------------------------------------------------------------------
def test_a_double_three_is_a_vct_and_every_defence_loses_to_fours():
    game = Gomoku(size=9, row=5)
    # d5 makes an open three down column d and one along row 5.
    state = position(game, "d6 d7 e5 f5", "a1 i1 a9 i9")
    assert vcf_line(game, state) == []
    move = state_vct(state.array, 0, 1, BUDGET)
    assert move >= 0
    after = game.apply(state, move)
    replies = game.legal_moves(after)
    for i, reply in enumerate(replies):  # every white answer loses
        answered = game.apply(after, reply)
        line = vcf_line(game, answered)
        assert line, game.format_move(after, reply)
        if i % 10 == 0:  # and, for some, the fours are checked one by one
            assert forced_win(game, answered, line)


def test_no_vct_where_the_defender_has_time():
    assert state_vct(GAME.play_all(["h8", "h9"]).array, 0, 2, BUDGET) < 0
    assert state_vct(GAME.initial_state().array, 0, 2, BUDGET) < 0


def test_the_searcher_plays_a_vct_and_proves_it():
    state = position(GAME, "g9 g10 h8 i8", "a1 o1 a15 o15")
    result = Searcher(GAME, state, seed=1).search(simulations=500)
    assert result.proven == "win"
    after = GAME.play(state, result.move)
    assert all(
        state_vct(GAME.apply(after, reply).array, 0, 2, BUDGET) >= 0
        for reply in GAME.legal_moves(after)[::7]
    )


def test_the_root_keeps_only_moves_that_stop_the_opponents_vct():
    # White to move; black threatens the double three at g8.
    state = position(GAME, "g9 g10 h8 i8 n2", "a1 o1 a15 o15")
    assert state_vct(GAME.play(state, "c3").array, 0, 2, BUDGET) >= 0
    result = Searcher(GAME, state, seed=1).search(simulations=500)
    searched = [s.move for s in result.moves if s.visits]
    assert searched
    assert "c3" not in searched
    for name in searched:
        assert state_vct(GAME.play(state, name).array, 0, 2, BUDGET) < 0


# Black to move, ply 16 of a game against a reference engine (which saw a
# forced win here): no VCT of two threes, but one of more.
DEEP = ("g10 f10 g8 h9 i10 h10 h12 g11", "f9 e10 g9 i8 j11 j10 h11 e9")


def test_a_deeper_vct_is_found_where_two_threes_are_not_enough():
    state = position(GAME, *DEEP)
    assert state_vct(state.array, 0, 2, BUDGET) < 0
    move, left = deep_vct(state.array, 3, 200_000)
    assert GAME.format_move(state, move) == "f12" and 0 < left < 200_000
    after = GAME.apply(state, move)
    for reply in GAME.legal_moves(after):  # every white answer still loses
        assert deep_vct(GAME.apply(after, reply).array, 0, 200_000)[0] >= 0


def test_every_arena_opening_of_four_in_a_row_on_ten_by_ten_is_won_by_black():
    # Why no player can score over 50% there against the heavy player, which
    # plays a VCT at once: after any two random plies the arena may open
    # with, black to move wins by continuous threats, whatever white does.
    game = Gomoku(size=10, row=4)
    openings = 0
    for first in opening_moves(game, game.initial_state()):
        after = game.apply(game.initial_state(), first)
        for second in opening_moves(game, after):
            move, _ = deep_vct(game.apply(after, second).array, 1, 200_000)
            assert move >= 0, (first, second)
            openings += 1
    assert OPENING_PLIES["gomoku"] == 2 and openings == 600


def test_the_vct_remembers_the_positions_it_found_lost():
    # White to move after e6 of the DEEP position (with black's far stone):
    # black's VCT there starts f12. Met again in another order, a position
    # found lost is not searched again: the VCT takes some 184,000 VCF
    # nodes, where the search without its table took some 260,000.
    blacks, whites = DEEP
    state = position(GAME, blacks + " o15", whites + " e6")
    move, left = deep_vct(state.array, 0, 200_000)
    assert GAME.format_move(state, move) == "f12" and left > 0
    # A table filled by one search cuts a second search of the same stones
    # short, and gives the same answer.
    cells, size, row = cells_of(GAME.play_all(["h8", "h9", "i8", "i9"]).array)
    lost_keys, lost_left = lost_table(200_000)
    first, second = np.array([200_000]), np.array([200_000])
    assert search_vct(cells, (size, row, 0), 1, 3, first, lost_keys, lost_left) < 0
    assert search_vct(cells, (size, row, 0), 1, 3, second, lost_keys, lost_left) < 0
    assert 0 < 200_000 - second[0] < (200_000 - first[0]) // 2
    assert lost_left.max() >= 1


def test_no_deep_vct_on_a_quiet_board():
    assert deep_vct(GAME.play_all(["h8", "h9"]).array, 3, 200_000)[0] < 0


@pytest.mark.parametrize("deep_vct_rate", [200_000, 0])
def test_a_moves_time_buys_the_deeper_vct_at_the_root(deep_vct_rate):
    state = position(GAME, *DEEP)
    # The tree search alone: the alpha-beta, when on, looks for threats itself.
    settings = config(GAME, deep_vct=deep_vct_rate, alphabeta=0.0)
    searcher = Searcher(GAME, state, config=settings, seed=1)
    result = searcher.search(seconds=1.0)
    assert (result.proven == "win") == (deep_vct_rate > 0)
    if deep_vct_rate:
        assert result.move == "f12"


def test_the_root_defends_only_against_a_vct_of_two_threes():
    # White to move (a black stone far away): were white to pass, black would
    # win by a VCT of three threes; after f7 he still does, but no VCT of two
    # threes shows it, so the root's defence leaves the root as it was.
    blacks, whites = DEEP
    state = position(GAME, blacks + " o15", whites)
    assert state_vct(state.array, 1, 2, BUDGET) < 0
    f7 = GAME.parse_move(state, "f7")
    assert deep_vct(GAME.apply(state, f7).array, 0, 200_000)[0] >= 0
    plain = plan_root(Tree(), state.array, 8, deep_budget=400_000)
    assert plain.size == 1

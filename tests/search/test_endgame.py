"""The exact Reversi endgame solver, checked against a plain minimax written here.

The positions come from random games (fixed seeds) stopped a few empties
before the end; the minimax below walks the whole game tree through the
rules module's kernels, so the solver's pruning, ordering, table and own
move generator are all checked against the rules.
"""

import random

import numpy as np
import pytest

from mcts.cli.main import main
from mcts.games import Reversi, reversi
from mcts.games.base import MAX_MOVES
from mcts.search.config import SearchConfig
from mcts.search.reversi import endgame
from mcts.search.reversi.config import ReversiSearch
from mcts.search.searcher import Searcher

GAME = Reversi()
#: The search with its exact leaf and root solves off.
NO_LEAF_SOLVES = SearchConfig(game=ReversiSearch(endgame_empties=0))


def exhaustive(array, wof=False, passes=None):
    """Return the exact margin for the side to move by a full minimax;
    count the passes met in ``passes[0]``."""
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = reversi.legal_moves(array, moves)
    if count == 0:
        side = int(array[reversi.SIDE])
        own, opp = array[side], array[1 - side]
        return int(endgame.final_margin(own, opp, wof))
    best = -100
    for move in moves[:count].tolist():
        if move == reversi.PASS and passes is not None:
            passes[0] += 1
        child = array.copy()
        reversi.apply_move(child, move)
        best = max(best, -exhaustive(child, wof, passes))
    return best


def random_position(rng, empties):
    """Return a position of a random game with ``empties`` empties (or its end)."""
    state = GAME.initial_state()
    while (
        not GAME.is_terminal(state) and 64 - sum(GAME.score(state).values()) > empties
    ):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


def positions(count, seed, low=6, high=8):
    rng = random.Random(seed)
    return [random_position(rng, rng.randint(low, high)) for _ in range(count)]


# ---- move generation --------------------------------------------------------------
def test_flips_and_mobility_agree_with_the_rules_module():
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(300):
        occupied = np.uint64(rng.integers(0, 2**63, dtype=np.uint64) * 2 + 1)
        own = occupied & np.uint64(rng.integers(0, 2**63, dtype=np.uint64))
        opp = occupied & ~own
        for a, b in ((own, opp), (opp, own)):
            assert endgame.mobility(a, b) == reversi.mobility(a, b)
            for square in range(64):
                bit = np.uint64(1) << np.uint64(square)
                if not occupied & bit:
                    assert endgame.flips(bit, a, b) == reversi.flips(bit, a, b)
                    checked += 1
    assert checked > 1000
    for state in positions(20, seed=5, low=10, high=50):
        black, white = state.array[:2]
        assert endgame.mobility(black, white) == reversi.mobility(black, white)
        assert endgame.mobility(white, black) == reversi.mobility(white, black)


# ---- exact values -----------------------------------------------------------------
@pytest.mark.parametrize("wof", [False, True])
def test_margin_and_move_match_an_exhaustive_minimax(wof):
    passes = [0]
    for state in positions(16, seed=11 + wof, low=2):
        expected = exhaustive(state.array.copy(), wof, passes)
        result = endgame.solve(state, wof=wof)
        assert result.margin == expected, GAME.state_string(state)
        if result.move != endgame.NO_MOVE:
            after = GAME.apply(state, result.move)
            assert -exhaustive(after.array.copy(), wof) == expected
    assert passes[0] > 0  # some of these lines pass


def test_a_forced_pass_at_the_root_is_the_best_move():
    rng = random.Random(2)
    found = 0
    for _ in range(400):
        state = random_position(rng, rng.randint(4, 9))
        if GAME.legal_moves(state) != [reversi.PASS]:
            continue
        result = endgame.solve(state)
        assert result.move == reversi.PASS
        assert result.margin == exhaustive(state.array.copy())
        found += 1
    assert found > 0


def test_a_finished_game_scores_the_discs_and_has_no_move():
    wiped = GAME.parse_state("x" * 10 + "." * 54 + " w")  # white has no discs
    result = endgame.solve(wiped)
    assert (result.margin, result.move) == (-10, endgame.NO_MOVE)
    # the project's score leaves the 54 empties to no one; WOF gives them to black
    assert endgame.solve(wiped, wof=True).margin == -64


def test_the_project_scoring_and_wof_differ_only_by_empties_left_at_the_end():
    for state in positions(6, seed=21, low=7, high=8):
        plain = endgame.solve(state)
        wof = endgame.solve(state, wof=True)
        assert np.sign(plain.margin) == np.sign(wof.margin)
        assert abs(wof.margin) >= abs(plain.margin)


def test_the_solver_is_deterministic():
    state = positions(1, seed=4, low=12, high=12)[0]
    first, second = endgame.solve(state), endgame.solve(state)
    assert first == second
    assert first.nodes > 100


def test_solve_command_prints_the_margin_alone_on_its_last_line(capsys):
    state = positions(1, seed=8, low=8, high=8)[0]
    expected = exhaustive(state.array.copy())
    assert main(["solve", "reversi", GAME.state_string(state)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == (f"{expected:+d}" if expected else "0")
    assert any(line.startswith("nodes: ") and "nodes/s" in line for line in out)
    assert any(line.startswith("best: ") for line in out)


# ---- a published position ---------------------------------------------------------
# FFO endgame test suite #40 (http://www.radagast.se/othello/ffotest.html):
# black to move, 20 empties, exact score +38 (empties to the winner) by a2.
# The game ends on a full board, so the project's plain count gives +38 too.
FFO_40 = "o..oooox.ooooooxooxxoooxooxoooxxooooooxx...oooox....o..x........ b"


@pytest.mark.slow
def test_ffo_40_is_38_by_a2():
    state = GAME.parse_state(FFO_40)
    result = endgame.solve(state, wof=True)
    assert (result.margin, GAME.format_move(state, result.move)) == (38, "a2")


# ---- inside the search ------------------------------------------------------------
def test_the_search_proves_a_reversi_endgame_by_solving_its_leaves():
    state = positions(1, seed=8, low=10, high=10)[0]
    margin = endgame.solve(state).margin
    result = Searcher(GAME, state, seed=1).search(simulations=5_000)
    assert result.proven == {1: "win", -1: "loss", 0: "draw"}[int(np.sign(margin))]
    assert result.simulations < 5_000  # stopped once the root was proven
    after = GAME.apply(state, GAME.parse_move(state, result.move))
    # a proven win is any winning move, not necessarily the largest margin
    assert np.sign(-endgame.solve(after).margin) == np.sign(margin)
    off = Searcher(GAME, state, config=NO_LEAF_SOLVES, seed=1)
    assert off.search(simulations=200).proven is None


def test_each_move_of_a_root_near_the_end_is_solved_with_its_margin_and_line():
    """A strong player's walk: in a solved endgame of 12 empties one or two
    moves read "proven win", the others a few visits and no value, and the
    best line was one move long."""
    word = {1: "win", -1: "loss", 0: "draw"}
    checked = 0
    for state in positions(4, seed=11, low=11, high=12):
        legal = GAME.legal_moves(state)
        if len(legal) < 2 or GAME.is_terminal(state):
            continue
        exact = {m: -endgame.solve(GAME.apply(state, m)).margin for m in legal}
        result = Searcher(GAME, state, seed=1).search(simulations=20)
        assert {m.code: m.margin for m in result.moves} == exact
        assert all(m.proven == word[int(np.sign(m.margin))] for m in result.moves)
        best = max(exact.values())
        assert exact[GAME.parse_move(state, result.move)] == best  # the most
        assert result.proven == word[int(np.sign(best))]
        # The line is perfect play: each move keeps the margin, for its mover.
        margin = best
        for text in result.pv:
            assert endgame.solve(state).margin == margin, result.pv
            state = GAME.apply(state, GAME.parse_move(state, text))
            margin = -margin
        assert len(result.pv) == 10 or GAME.is_terminal(state)
        checked += 1
    assert checked >= 2
    # Further from the end, the moves have no margin.
    state = positions(1, seed=11, low=14, high=14)[0]
    result = Searcher(GAME, state, seed=1).search(simulations=20)
    assert {m.margin for m in result.moves} == {None}


def test_a_timed_search_solves_a_root_it_can_afford_and_plays_the_solvers_move():
    # 16 empties: beyond the leaf solver, within a 0.5 s move's root solve.
    for state in positions(4, seed=5, low=16, high=16):
        if len(GAME.legal_moves(state)) < 2:
            continue
        solved = endgame.solve(state)
        result = Searcher(GAME, state, seed=1).search(seconds=0.5)
        assert result.move == GAME.format_move(state, solved.move)
        expected = {1: "win", -1: "loss", 0: "draw"}[int(np.sign(solved.margin))]
        assert result.proven == expected
        assert result.simulations <= 256 and result.moves  # a move list still
        # Not on a simulation budget, nor with the endgame solver off.
        assert Searcher(GAME, state, seed=1).search(simulations=100).proven is None
        # With the endgame solver off the search runs its budget (it may still
        # prove the root by itself, without the solver).
        off = Searcher(GAME, state, config=NO_LEAF_SOLVES, seed=1)
        assert off.search(seconds=0.2).simulations > 256


def test_the_root_solve_depth_grows_with_the_think_time():
    assert endgame.root_solve_empties(0.04) == 0
    depths = [endgame.root_solve_empties(s) for s in (0.1, 0.5, 1, 2, 10)]
    assert depths == sorted(depths) and depths[0] >= 14 and depths[-1] <= 20

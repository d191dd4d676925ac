"""MCTS-Solver: proven wins, forced losses and exact endgames, in every game.

The Reversi and Lines of Action positions were found by a plain minimax over
random games (fixed seeds) and written down here as state strings; the Gomoku
ones are built from moves.
"""

import numpy as np
import pytest

from mcts.games import find_game, kernels
from mcts.games.base import BLACK_WINS, DRAW, MAX_MOVES, ONGOING, WHITE_WINS
from mcts.search.searcher import Searcher

from .configs import config

BUDGET = 60_000  # the search stops as soon as the root is proven
#: Each game's settings changed so that only the tree proves (see solve).
TREE_PROOFS_ONLY = {
    "reversi": {"endgame_empties": 0},
    "gomoku": {"threats": False, "shapes": 0},
    "loa": {},
}


def solve(game, state, *, evaluator="heavy", seed=1, simulations=BUDGET):
    # endgame_empties=0: the exact leaf solver would prove these Reversi
    # positions at its first leaf (with any winning move, not the quickest);
    # these tests check the tree's own proofs (test_endgame.py checks the
    # other); threats=False likewise for Gomoku's VCF (test_gomoku_threats.py)
    settings = config(game, evaluator, **TREE_PROOFS_ONLY[game.name])
    return Searcher(game, state, config=settings, seed=seed).search(
        simulations=simulations
    )


def immediate_wins(game, state):
    """Return the move texts that end the game at once in the mover's favour."""
    me = game.to_move(state)
    wins = set()
    for move in game.legal_moves(state):
        outcome = game.outcome(game.apply(state, move))
        if outcome is not None and outcome.winner == me:
            wins.add(game.format_move(state, move))
    return wins


# ---- win in 1 --------------------------------------------------------------------
WIN_IN_1 = [
    ("gomoku", "moves", "h8 a1 i8 a3 j8 a5 k8 a7"),
    (
        "reversi",
        "state",
        "ooooooooooooxoxxoooxooxxooxoxxxxoxoxooxxooooooxxoooxxxx.ooooooo. w",
    ),
    (
        "loa",
        "state",
        ".x.o..........o...........o..o...o.x.x...oox.xx...x..o.......... b",
    ),
]


def load(game, how, text):
    if how == "moves":
        return game.play_all(text.split())
    return game.parse_state(text)


@pytest.mark.parametrize("evaluator", ["heavy", "random"])
@pytest.mark.parametrize(("name", "how", "text"), WIN_IN_1)
def test_solver_plays_a_win_in_one_and_proves_it(name, how, text, evaluator):
    game = find_game(name)
    state = load(game, how, text)
    wins = immediate_wins(game, state)
    assert wins and len(wins) < len(game.legal_moves(state))  # a real choice
    result = solve(game, state, evaluator=evaluator)
    assert result.move in wins
    assert result.proven == "win"
    assert result.value == 1.0
    assert result.stats_for(result.move).proven == "win"
    assert result.simulations < BUDGET  # stopped early: the root was proven


# ---- win in 3 --------------------------------------------------------------------
WIN_IN_3 = [
    # An open three: g8 or k8 makes an open four, which cannot be stopped.
    ("gomoku", "moves", "h8 a1 i8 a3 j8 a5", {"g8", "k8"}),
    (
        "reversi",
        "state",
        "oxxxxxxxxoxoxoxxxxoxoxxxxxxoxoxx.xoxoxoxxxooooooo.ooooo..ooooooo b",
        None,
    ),
    (
        "loa",
        "state",
        ".....o..o...x...o..oxxx..o......o.xox......x..o..o......oxx..... b",
        None,
    ),
]


def wins_in_three(game, state):
    """Return the move texts after which every reply allows an immediate win."""
    me = game.to_move(state)
    good = set()
    for move in game.legal_moves(state):
        after = game.apply(state, move)
        outcome = game.outcome(after)
        if outcome is not None:
            if outcome.winner == me:
                good.add(game.format_move(state, move))
            continue
        if all(
            _won_or_wins_now(game, game.apply(after, reply), me)
            for reply in game.legal_moves(after)
        ):
            good.add(game.format_move(state, move))
    return good


def _won_or_wins_now(game, state, me):
    outcome = game.outcome(state)
    if outcome is not None:
        return outcome.winner == me
    return bool(immediate_wins(game, state))


@pytest.mark.parametrize(("name", "how", "text", "expected"), WIN_IN_3)
def test_solver_finds_a_win_in_three_and_proves_it(name, how, text, expected):
    game = find_game(name)
    state = load(game, how, text)
    assert not immediate_wins(game, state)
    result = solve(game, state)
    assert result.proven == "win"
    assert result.stats_for(result.move).proven == "win"
    if expected is not None:
        assert result.move in expected
    if name != "gomoku":  # Gomoku's reference check would take all 220 replies
        assert result.move in wins_in_three(game, state)


# ---- forced loss -----------------------------------------------------------------
FORCED_LOSS = [
    # Black has an open four: white cannot block both ends.
    ("gomoku", "moves", "h8 a1 i8 a3 j8 a5 k8"),
    (
        "reversi",
        "state",
        "oooxxxxxooooooooooxxxxoooooxxxxoxoxxoxxoxoxoooxoxooxxxx..ooooooo b",
    ),
    (
        "loa",
        "state",
        "xx.......x.x.......x..x.o.oxo....o.o....ooo....oxx..o...x.x..x.. b",
    ),
]


@pytest.mark.parametrize(("name", "how", "text"), FORCED_LOSS)
def test_solver_sees_a_forced_loss(name, how, text):
    game = find_game(name)
    state = load(game, how, text)
    result = solve(game, state)
    assert result.proven == "loss"
    assert result.value == 0.0
    # every root move is proven lost, so none is preferred to a non-losing one
    assert {stats.proven for stats in result.moves if stats.visits} == {"loss"}


def test_proven_loss_moves_are_avoided_when_a_saving_move_exists():
    # White must block black's four at g8 or l8 (one end is already blocked).
    game = find_game("gomoku")
    state = game.play_all(["h8", "g8", "i8", "a3", "j8", "a5", "k8"])
    result = solve(game, state, simulations=20_000)
    assert result.move == "l8"
    assert result.stats_for("l8").proven != "loss"
    assert all(s.proven == "loss" for s in result.moves if s.visits and s.move != "l8")


# ---- exact Reversi endgame -----------------------------------------------------------
def minimax(game_id, array, buffer_pool, depth=0):
    """Return the game-theoretic result for the side to move: 1 win, 0 draw, -1 loss
    (plain negamax with alpha-beta over win/draw/loss)."""
    return _negamax(game_id, array, -2, 2, buffer_pool, depth)


def _negamax(game_id, array, alpha, beta, pool, depth):
    code = kernels.status(game_id, array)
    if code != ONGOING:
        if code == DRAW:
            return 0
        mover = kernels.side_to_move(game_id, array)
        winner = 0 if code == BLACK_WINS else 1
        assert code in (BLACK_WINS, WHITE_WINS)
        return 1 if winner == mover else -1
    moves = pool[depth]
    count = kernels.legal_moves(game_id, array, moves)
    best = -2
    for i in range(count):
        child = array.copy()
        kernels.apply_move(game_id, child, moves[i])
        value = -_negamax(game_id, child, -beta, -alpha, pool, depth + 1)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return best


def reversi_endgame(seed, empties):
    """Return a position with ``empties`` empty squares from a seeded random game."""
    game = find_game("reversi")
    rng = np.random.default_rng(seed)
    while True:
        state = game.initial_state()
        while not game.is_terminal(state) and 60 - _played(state) > empties:
            legal = game.legal_moves(state)
            state = game.apply(state, legal[int(rng.integers(len(legal)))])
        if not game.is_terminal(state) and 60 - _played(state) == empties:
            return game, state


def _played(state):
    black, white = int(state.array[0]), int(state.array[1])
    return bin(black).count("1") + bin(white).count("1") - 4


@pytest.mark.parametrize("seed", [0, 1, 34])  # a win, a loss and a draw
def test_reversi_endgame_with_ten_empties_is_solved_exactly(seed):
    game, state = reversi_endgame(seed, 10)
    pool = np.empty((64, MAX_MOVES), dtype=np.int64)
    expected = minimax(game.game_id, state.array.copy(), pool)
    result = solve(game, state, simulations=400_000)
    assert result.proven == {1: "win", 0: "draw", -1: "loss"}[expected]
    # the chosen move achieves the exact value
    after = game.apply(state, result.code)
    assert -minimax(game.game_id, after.array.copy(), pool) == expected

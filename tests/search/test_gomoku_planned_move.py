"""The heavy Gomoku search for a time plays the alpha-beta's move (the
tree search grows the tree in the rest of the time), except where the
root's threat search has decided the root's moves."""

import time

import pytest

from mcts.games import find_game
from mcts.games.gomoku import Gomoku
from mcts.search.config import SearchConfig
from mcts.search.gomoku import alphabeta
from mcts.search.gomoku import planner as gomoku_planner
from mcts.search.gomoku.config import GOMOKU_ALPHABETA_SHARE, GomokuSearch
from mcts.search.searcher import Searcher
from mcts.search.tree import Proven

from .configs import config
from .gomoku_helpers import position
from .stopping import stopped_search

# Times a search's stops: run alone (make test).
pytestmark = pytest.mark.timing

GAME = Gomoku()
#: The heavy search without the alpha-beta: the tree search alone.
TREE_ONLY = config(GAME, alphabeta=0.0)
RANDOM = SearchConfig(evaluator="random")


@pytest.fixture(autouse=True)
def _compiled():
    """Compile (or load) the searches first, so that no timed search here
    spends its time compiling."""
    Searcher(GAME, position(GAME, "h8 i8 j8 k8", "g8 h9 a15")).search(seconds=0.01)
    Searcher(GAME, position(GAME, "h8", "i9")).search(seconds=0.01)


def _fake_think(move_name, calls):
    """Return a stand-in for the alpha-beta's think that plays
    ``move_name`` and records the seconds it was given."""

    def think(search, state, seconds):
        calls.append(seconds)
        return GAME.parse_move(GAME.initial_state(), move_name), 0.0, 1, 1

    return think


def test_a_search_for_a_time_plays_the_alphabetas_move_in_its_share(monkeypatch):
    calls = []
    monkeypatch.setattr(gomoku_planner, "think", _fake_think("a1", calls))
    state = position(GAME, "h8", "i9")
    result = Searcher(GAME, state, seed=1).search(seconds=0.2)
    assert result.move == "a1"  # no tree search would play a corner here
    assert len(calls) == 1
    assert 0 < calls[0] <= GOMOKU_ALPHABETA_SHARE * 0.2
    assert result.simulations > 0  # the tree grew in the rest


def test_the_tree_chooses_searches_by_simulations_and_without_the_alphabeta(
    monkeypatch,
):
    calls = []
    monkeypatch.setattr(gomoku_planner, "think", _fake_think("a1", calls))
    state = position(GAME, "h8", "i9")
    for searcher, budget in (
        (Searcher(GAME, state, seed=1), {"simulations": 200}),
        (Searcher(GAME, state, config=TREE_ONLY, seed=1), {"seconds": 0.1}),
        (Searcher(GAME, state, config=RANDOM, seed=1), {"seconds": 0.1}),
    ):
        assert searcher.search(**budget).move != "a1"
    assert calls == []


def test_a_move_the_threat_search_rules_out_is_not_played(monkeypatch):
    calls = []
    monkeypatch.setattr(gomoku_planner, "think", _fake_think("a1", calls))
    four = position(GAME, "h8 i8 j8 k8", "g8 h9 a15")  # white must block at l8
    result = Searcher(GAME, four, seed=1).search(seconds=0.2)
    assert calls and result.move == "l8"
    monkeypatch.setattr(gomoku_planner, "think", _fake_think("l8", calls))
    assert Searcher(GAME, four, seed=1).search(seconds=0.2).move == "l8"
    assert len(calls) == 2


def test_a_won_root_is_played_without_the_alphabeta(monkeypatch):
    calls = []
    monkeypatch.setattr(gomoku_planner, "think", _fake_think("a1", calls))
    four = position(GAME, "h8 i8 j8 k8", "h9 i9 j9 a15")  # black makes five
    assert Searcher(GAME, four, seed=1).search(seconds=0.2).move in ("g8", "l8")
    assert calls == []


def test_the_heavy_search_blocks_an_open_three_with_the_real_alphabeta():
    three = position(GAME, "h8 i8 j8 c3", "h9 a1 a15")  # white to move
    result = Searcher(GAME, three, seed=1).search(seconds=0.3)
    assert result.move in ("g8", "k8", "f8", "l8")


def test_a_search_stopped_during_the_alphabeta_returns_at_once():
    searcher = Searcher(GAME, position(GAME, "h8 i8", "h9"), seed=1)
    searcher.search(seconds=0.05)  # compiled or loaded before the clock
    result, took = stopped_search(searcher, after=0.5)
    assert took < 0.5
    assert result.elapsed < 5


def test_a_plan_stopped_before_it_searched_a_ply_offers_no_move():
    planner = gomoku_planner.AlphaBetaPlanner(15, 5)
    state = position(GAME, "h8 i8", "h9").array
    ticks = []
    move = planner.plan(state, 5.0, lambda: ticks.append(1), 0.05, lambda: True)
    assert move == -1 and len(ticks) < 5  # not the stand-in of the first empty
    assert planner.plan(state, 0.1, lambda: None, 0.05, lambda: False) >= 0


def test_the_search_reports_progress_and_hears_a_stop_during_the_alphabeta():
    searcher = Searcher(GAME, position(GAME, "h8 i8", "h9"), seed=1)
    reports = []

    def progress(result):
        reports.append(result.elapsed)
        if result.elapsed > 0.3:
            searcher.stop()  # as the web app's stop button does

    result = searcher.search(seconds=30, on_progress=progress, progress_every=0.05)
    assert len(reports) >= 4 and result.elapsed < 1.5
    assert result.code in GAME.legal_moves(searcher.state)


def test_the_alphabeta_option_is_checked_and_off_where_it_cannot_play():
    assert Searcher(GAME).alphabeta == GOMOKU_ALPHABETA_SHARE
    assert Searcher(GAME, config=RANDOM).alphabeta == 0
    seven = find_game("gomoku", size=15, row=7)
    assert Searcher(seven).alphabeta == 0
    assert Searcher(find_game("reversi")).alphabeta == 0
    half = SearchConfig(game=GomokuSearch(alphabeta=0.5))
    with pytest.raises(ValueError, match="rows of at most 6"):
        Searcher(seven, config=half)
    with pytest.raises(ValueError, match="0..1"):
        Searcher(GAME, config=config(GAME, alphabeta=1.5))
    assert Searcher(GAME, config=half).alphabeta == 0.5


def test_a_process_lends_one_alphabeta_search_to_each_search_running_at_once():
    with (
        gomoku_planner.borrowed_search(9, 5) as first,
        gomoku_planner.borrowed_search(9, 5) as second,
    ):
        assert second is not first
    with gomoku_planner.borrowed_search(9, 5) as again:
        assert again is first or again is second


def test_a_search_lent_to_another_owner_forgets_what_the_last_one_found():
    assert gomoku_planner.KEPT_SEARCHES == 2
    first, second, third = object(), object(), object()
    with gomoku_planner.borrowed_search(8, 5, owner=first) as search:
        search[alphabeta.TABLE_KEYS][:3] = (7, 8, 9)  # as if it had filled its table
        search[alphabeta.KILLERS][0] = (4, 5)
    with gomoku_planner.borrowed_search(8, 5, owner=first) as again:
        assert again is search and list(again[alphabeta.TABLE_KEYS][:3]) == [7, 8, 9]
    with gomoku_planner.borrowed_search(8, 5, owner=second) as own:
        assert own is not search  # each of two players keeps its own
    with gomoku_planner.borrowed_search(8, 5, owner=third) as other:
        assert other is search  # the longest unused, emptied
        assert not other[alphabeta.TABLE_KEYS].any()
        assert (other[alphabeta.KILLERS] == -1).all()


@pytest.mark.parametrize(
    ("planned_proof", "other_proof", "kept"),
    [
        (Proven.UNKNOWN, Proven.UNKNOWN, True),
        (Proven.LOSS, Proven.UNKNOWN, False),  # the tree saw it lose
        (Proven.UNKNOWN, Proven.WIN, False),  # the tree found a win
        (Proven.WIN, Proven.WIN, True),
        (Proven.LOSS, Proven.LOSS, True),  # every move loses: no better one
    ],
)
def test_the_trees_proofs_overrule_the_alphabetas_move(
    planned_proof, other_proof, kept
):
    searcher = Searcher(GAME, position(GAME, "h8", "i9"), config=TREE_ONLY, seed=1)
    searcher.search(simulations=100)
    tree = searcher.tree
    children = list(tree.children(0))
    tree.proven[children] = other_proof
    tree.proven[children[0]] = planned_proof
    planned = int(tree.move[children[0]])
    searcher._solved_move = planned
    searcher._overrule_plan_by_proofs()
    assert searcher._solved_move == (planned if kept else None)


def test_a_lost_root_plays_a_move_the_tree_weighed_not_the_alphabetas_first():
    """Renju: white's four on row 5 (e5 g5 h5 i5) is blocked only at f5, a
    double three, forbidden to black. Every move loses; the alpha-beta,
    finding no move, answered its first, a1, and the page's level 5 played
    it (a walk-through's renju player saw it as a bug). Now black plays one
    of the moves the tree weighed, near the stones."""
    renju = Gomoku(rule="renju")
    # The game h8 i7 i9 g7 f7 h6 h7 i5 f8 g5 j8 g8 g6 h5 j5 e5, black to move.
    state = position(renju, "h8 i9 f7 h7 f8 j8 g6 j5", "i7 g7 h6 i5 g5 g8 h5 e5")
    searcher = Searcher(renju, state, seed=1)
    result = searcher.search(seconds=0.5)
    assert searcher.tree.proven[0] == Proven.WIN  # white wins whatever black plays
    weighed = {int(searcher.tree.move[c]) for c in searcher.tree.children(0)}
    assert renju.parse_move(state, result.move) in weighed
    assert result.move != "a1"


def test_a_plan_ends_when_its_time_is_up_even_if_the_search_runs_on(monkeypatch):
    def endless_think(search, state, seconds):
        while not search[alphabeta.STATS][5]:  # until stopped (stats[5])
            time.sleep(0.002)
        return 7, 0.0, 1, 1

    monkeypatch.setattr(gomoku_planner, "think", endless_think)
    planner = gomoku_planner.AlphaBetaPlanner(15, 5)
    state = position(GAME, "h8 i8", "h9").array
    start = time.perf_counter()
    assert planner.plan(state, 0.1, lambda: None, 0.05, lambda: False) == 7
    assert time.perf_counter() - start < 0.3

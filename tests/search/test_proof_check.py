"""A result calls a move proven only where the proof holds for every reply
(mcts.search.proof_check): Gomoku's tree also proves wins against the few
replies its focus kept."""

import numpy as np

from mcts.games import find_game
from mcts.search.proof_check import holding_proofs
from mcts.search.searcher import Searcher
from mcts.search.tree import Proven, Tree
from tests.search.configs import config
from tests.search.test_strict_proofs import FALSE_PROOF

GOMOKU = find_game("gomoku")


def test_a_win_against_the_kept_replies_only_is_found_not_proven():
    state = GOMOKU.play_all(FALSE_PROOF.split())
    searcher = Searcher(GOMOKU, state, config=config(GOMOKU, recheck=False), seed=1)
    result = searcher.search(simulations=3_000)
    assert (result.found, result.move) == ("win", "i10")
    assert result.proven is None
    assert result.stats_for("i10").proven is None
    assert result.value < 1.0  # the search's mean, not a proof's 1
    assert result.to_json()["found"] == "win"


def test_a_win_by_fours_is_proven_by_the_tree_and_by_the_threat_search():
    # g8 or k8 makes an open four: every reply must block a four.
    state = GOMOKU.play_all(["h8", "a1", "i8", "a3", "j8", "a5"])
    no_threats = config(GOMOKU, threats=False)
    by_tree = Searcher(GOMOKU, state, config=no_threats, seed=1).search(
        simulations=60_000
    )
    assert by_tree.proven == by_tree.found == "win"
    assert by_tree.stats_for(by_tree.move).proven == "win"
    by_threats = Searcher(GOMOKU, state, seed=1).search(simulations=60_000)
    assert by_threats.proven == by_threats.found == "win"
    assert by_threats.simulations == 0  # the root's VCF proved it at once


def leaf_tree(state, moves, proofs):
    """A tree whose root (at ``state``) has one childless child per move,
    each with the given proof."""
    tree = Tree()
    codes = [GOMOKU.parse_move(state, move) for move in moves]
    first = tree.add_children(0, np.array(codes, dtype=np.int64))
    for k, proof in enumerate(proofs):
        tree.proven[first + k] = proof
    return tree, first


def test_a_leaf_proof_holds_only_where_the_leaf_rules_make_it():
    # White to move against black's open three: after a5 black wins by
    # fours (a VCF), after g8 he has none.
    state = GOMOKU.play_all(["h8", "a1", "i8", "a3", "j8"])
    tree, first = leaf_tree(state, ["a5", "g8"], [Proven.LOSS, Proven.LOSS])
    holds = holding_proofs(GOMOKU.game_id, state.array, tree)
    assert holds[first] == 1
    assert holds[first + 1] == 0


def test_a_childless_win_holds_only_when_the_threat_search_gave_it():
    # k8 wins for black, but a leaf cannot show it without a search.
    state = GOMOKU.play_all(["h8", "a1", "i8", "a3", "j8", "a5"])
    tree, first = leaf_tree(state, ["k8"], [Proven.WIN])
    tree.proven[0] = Proven.LOSS
    holds = holding_proofs(GOMOKU.game_id, state.array, tree)
    assert holds[first] == 0 and holds[0] == 0
    given = holding_proofs(GOMOKU.game_id, state.array, tree, given=[first])
    assert given[first] == 1 and given[0] == 1


def test_other_games_proofs_all_hold_and_unproven_trees_need_no_check():
    reversi = find_game("reversi")
    tree = Tree()
    tree.proven[0] = Proven.WIN
    assert holding_proofs(reversi.game_id, reversi.initial_state().array, tree) is None
    state = GOMOKU.play_all(["h8"])
    assert holding_proofs(GOMOKU.game_id, state.array, Tree()) is None

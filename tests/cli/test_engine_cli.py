"""The engine subcommand's choice of player (mcts.cli.engine)."""

from mcts.cli.engine import _rule_player


def test_under_a_rule_the_engine_plays_its_light_model_where_one_is_shipped():
    # Renju ships light-renju; standard's builds all scored below no model
    # (docs/experiments/2026-11-29-gomoku-rules.md), so none is shipped.
    assert _rule_player("renju") == "mcts-heavy:model=light-renju"
    assert _rule_player("standard") == "mcts-heavy"

"""The players' searches give the same statistics as the build that wrote
``same_play.json``: a refactoring of the search or of the player factory
must not change what the AI plays (fixed seeds, budgets in simulations)."""

import json
from pathlib import Path

import pytest

from tests.play.same_play import statistics

PINNED = json.loads((Path(__file__).parent / "same_play.json").read_text())


@pytest.mark.slow
def test_every_pinned_search_gives_the_same_visits_and_values():
    now = statistics()
    assert [(r["game"], r["moves"], r["spec"]) for r in now] == [
        (r["game"], r["moves"], r["spec"]) for r in PINNED
    ]
    for row, pinned in zip(now, PINNED, strict=True):
        where = f"{row['game']} after {row['moves']!r}, {row['spec']}"
        assert row["move"] == pinned["move"], where
        assert _rounded(row["stats"]) == _rounded(pinned["stats"]), where


def _rounded(stats: list) -> list:
    """Return the (move, visits, value) rows with values to 9 places."""
    return [[m, n, None if v is None else round(v, 9)] for m, n, v in stats]

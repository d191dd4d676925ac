"""The page's AI is the AI its spec names: the one the arena, the engine
commands and the benchmarks build with :func:`mcts.find_player`, so that
what the page plays is what the figures measure."""

from __future__ import annotations

import numpy as np
import pytest

from mcts import LEVELS, THINK_TIMES, ai_spec, find_game, find_player
from mcts.play.players import spec_level
from webgame.services import ai
from webgame.services.treemodels import ready_model

GAMES = (
    ("reversi", {}),
    ("gomoku", {}),
    ("gomoku", {"size": 9, "row": 5}),
    ("loa", {}),
)


def _same_knowledge(a, b) -> None:
    """Assert two searchers have the same configuration and knowledge."""
    assert type(a) is type(b)
    assert a.config == b.config
    assert a.c == b.c and a.minimax == b.minimax and a.cutoff_plies == b.cutoff_plies
    for name in ("evaluation", "patterns", "shape_weights"):
        assert getattr(a, name) is getattr(b, name), name
    assert np.array_equal(a._learned, b._learned)
    assert a.max_nodes == b.max_nodes


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("model", [None, "light"])
def test_the_page_ai_is_the_ai_of_its_spec_at_every_level_and_think_time(
    name, options, model, settings
):
    game = find_game(name, **options)
    page = ai.ai_player(game, model)
    loaded = ready_model(name, model) if model else None
    spec = ai_spec(game, model, loaded)
    assert spec == ("mcts-heavy" if model is None else f"mcts-heavy:model={model}")
    assert page.name == spec and page.model is loaded
    for level in LEVELS:
        measured = find_player(
            f"{spec}:level={level}" if model is None else f"{spec},level={level}",
            game,
            max_nodes=settings.AI_MAX_NODES,
            models=lambda _name: loaded,
        )
        _same_knowledge(page.searcher, measured.searcher)
        assert measured.model is page.model
        assert ai._budget({"level": level}) == measured.level == LEVELS[level]
    for seconds in THINK_TIMES:
        assert ai._budget({"think_time": seconds}) == spec_level({"seconds": seconds})


@pytest.mark.django_db
def test_the_page_ai_with_the_light_model_is_the_arenas_default_player():
    game = find_game("reversi")
    page = ai.ai_player(game, "light").searcher
    arena = find_player("mcts-heavy:model=light", game).searcher
    assert page.config == arena.config
    assert page.patterns is not None and page.patterns is arena.patterns

"""A model shipped packed, as the full models are: the selector offers it with
its packed size, choosing it shows the unpacking and loading under the
selectors, the AI plays with it, and after a reload it is ready at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from mcts import pack_model

from .helpers import (
    AI_TIMEOUT,
    game_json,
    human_move,
    new_game_dialog,
    open_board,
    select_game,
    set_ai,
    two_players,
    wait_idle,
)

SHIPPED = Path(django_settings.MODEL_DIR) / "reversi" / "light"


@pytest.fixture
def packed_model_dir(settings, tmp_path):
    """A models folder whose Reversi has light and "big" (light, packed)."""
    games = tmp_path / "reversi"
    shutil.copytree(SHIPPED, games / "light")
    shutil.copytree(SHIPPED, games / "big")
    pack_model(games / "big")
    shutil.rmtree(games / "big")
    settings.MODEL_DIR = str(tmp_path)
    return games


def test_a_packed_model_unpacks_with_a_bar_and_then_plays(page, packed_model_dir):
    open_board(page)
    option = page.locator('#model-white option[value="big"]')
    assert option.inner_text() == "Openings: big"  # its size in the tooltip
    tooltip = option.get_attribute("title")
    assert "positions studied" in tooltip and "packed" in tooltip and "MB" in tooltip
    page.select_option("#model-white", "big")
    # The bar says what happens while the server unpacks and loads it.
    page.wait_for_selector("#model-progress-row", state="visible")
    assert "big model" in page.locator("#model-progress-label").inner_text()
    page.wait_for_selector("#model-progress-row", state="hidden", timeout=AI_TIMEOUT)
    assert (packed_model_dir / "big" / "nodes.jsonl").is_file()
    set_ai(page, "white", True, "level:1")
    human_move(page)
    page.wait_for_function("() => BoardPage.state.game.ply === 2", timeout=AI_TIMEOUT)
    assert game_json(page)["players"]["white"]["model"] == "big"
    # After a reload the server still has it loaded: no bar, it is ready.
    page.reload()
    wait_idle(page)
    ready = page.evaluate(
        "() => BoardPage.state.kinds.reversi.models.find(m => m.name === 'big').status"
    )
    assert ready == "ready"
    assert page.locator("#model-progress-row").is_hidden()


@pytest.fixture
def network_model_dir(settings, tmp_path):
    """A models folder whose Gomoku has "net7", a network for 7×7 four in a row."""
    from mcts import find_game
    from mcts.models import store
    from mcts.models.model import Model
    from mcts.search.gomoku import network
    from mcts.search.tree import Tree

    game = find_game("gomoku", size=7, row=4)
    model = Model(
        game, Tree(2), game.initial_state(), network=network.random_weights(7)
    )
    store.save(model, tmp_path / "gomoku" / "net7")
    settings.MODEL_DIR = str(tmp_path)


def test_a_network_model_can_be_chosen_only_on_its_board(page, network_model_dir):
    open_board(page)
    select_game(page, "gomoku")
    option = page.locator('#model-white option[value="net7"]')
    # On the default 15×15 board it says which board it is for.
    assert option.inner_text() == "net7 (network for 7\u00d77, four in a row)"
    assert option.is_disabled() and "7\u00d77" in option.get_attribute("title")
    new_game_dialog(page)
    page.select_option("#gomoku-size", "7")
    page.select_option("#gomoku-row", "4")
    assert option.inner_text() == "net7 (network)"
    assert option.is_enabled()
    two_players(page)
    page.wait_for_function("() => BoardPage.state.game.board.size === 7")
    wait_idle(page)
    page.select_option("#model-white", "net7")
    set_ai(page, "white", True, "level:1")
    human_move(page)
    page.wait_for_function("() => BoardPage.state.game.ply === 2", timeout=AI_TIMEOUT)
    assert game_json(page)["players"]["white"]["model"] == "net7"


def test_a_light_model_loads_without_flashing_a_bar(page, monkeypatch):
    """The light model loads in milliseconds at the AI's first move: the bar,
    which would show for one poll, stays hidden."""
    from webgame.services import explorer, treemodels

    fresh = treemodels.Preparations()  # this process has no model loaded yet
    monkeypatch.setattr(treemodels, "PREPARATIONS", fresh)
    monkeypatch.setattr(explorer, "PREPARATIONS", fresh)
    open_board(page)
    page.evaluate(
        """() => { window.barShown = false;
        const row = document.getElementById('model-progress-row');
        new MutationObserver(() => { if (!row.hidden) window.barShown = true; })
            .observe(row, { attributes: true }); }"""
    )
    set_ai(page, "white", True, "level:1")
    human_move(page)
    page.wait_for_function("() => BoardPage.state.game.ply === 2", timeout=AI_TIMEOUT)
    assert fresh.is_ready("reversi", "light")
    assert page.evaluate("() => window.barShown") is False

"""The analysis says whose visits it counts (issue 65, point 8): this
search's simulations, and those the opening knowledge (the tree model)
brought."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import open_board, select_game, set_ai, wait_idle, wait_plies


def test_the_ais_analysis_separates_its_search_from_the_model(new_page):
    page = new_page(viewport=DESKTOP)
    open_board(page)
    select_game(page, "reversi")  # the light model knows the opening
    page.check("#show-analysis")
    set_ai(page, "black", True, "level:1")
    wait_plies(page, 1)
    wait_idle(page)
    stats = page.locator("#analysis-stats").inner_text()
    assert stats.startswith("This search: ") and " simulations in " in stats
    assert "from the opening knowledge" in stats

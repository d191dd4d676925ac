"""An accessibility check in both colour schemes (issue 65, point 5): axe-core
finds no serious or critical violation on the board page, the first-minute
dialog or the rules, light or dark."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import DESKTOP
from .helpers import LOADED, two_players

SERIOUS = ("serious", "critical")


def serious(page) -> list[str]:
    """Return the serious and critical violations axe-core finds on the page."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes']][:5]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation(new_page, scheme):
    page = new_page(viewport=DESKTOP, color_scheme=scheme)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    assert serious(page) == [], "the first-minute dialog"
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    assert serious(page) == [], "the board page"
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    page.wait_for_timeout(500)  # its fade-in over: colours at full strength
    assert serious(page) == [], "the rules"


def test_the_result_and_the_explorer_are_said_once(page):
    """A screen reader reads out every write to a live region, even of the
    same words: the result (a second alert beside the status) and the
    explorer's line were written again at every redraw, five times for five
    steps back through the game."""
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "gomoku")
    page.wait_for_function("() => (BoardPage.state.game || {}).game === 'gomoku'")
    assert page.get_attribute("#result", "role") is None  # the status says it
    page.click("#new-game")
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#gomoku-size", "7")
    page.select_option("#gomoku-row", "4")
    two_players(page)
    page.wait_for_function("() => BoardPage.state.game.board.size === 7")
    for count, square in enumerate(["a1", "a2", "b1", "b2", "c1", "c2", "d1"], 1):
        page.wait_for_function("() => !BoardPage.state.busy")
        page.click(f'#board [data-square="{square}"]')
        page.wait_for_function("n => BoardPage.state.game.ply === n", arg=count)
    page.wait_for_selector("#result:not([hidden])")
    page.keyboard.press("Escape")  # the end card
    page.evaluate(
        """() => {
          window.writes = [];
          for (const id of ['result', 'explorer-line', 'rematch']) {
            new MutationObserver(() => window.writes.push(id)).observe(
              document.getElementById(id),
              {childList: true, characterData: true, subtree: true});
          }
        }"""
    )
    for _ in range(3):
        page.click("#step-back")
    page.click("#step-last")
    assert page.evaluate("() => window.writes") == []
    page.click("#explore")
    page.wait_for_function(
        "() => BoardPage.state.explore && BoardPage.state.explore.data"
    )
    page.evaluate("() => { window.writes = []; }")
    page.click("#flip")
    page.click("#flip")
    assert page.evaluate("() => window.writes") == []

"""Screenshots of the page's flows, at desktop and phone size, written to
test-artifacts/screenshots/ (the README's pictures in docs/screenshots/ are
copies, looked at before they are committed): the first-minute landing, a
game against the computer in progress, the end dialog, the game analysis
chart and the opening explorer; in English with the light colours, and in
Chinese with the dark ones. Each step asserts what the picture shows."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE_CONTEXT
from .helpers import AI_TIMEOUT, LOADED, game_json, start_game, wait_idle, wait_plies

GOMOKU_WIN = ["a1", "a2", "b1", "b2", "c1", "c2", "d1"]
CHINESE_DARK = {"locale": "zh-CN", "color_scheme": "dark"}
SIZES = {
    "desktop": {"viewport": DESKTOP, "locale": "en-US"},
    "phone": {**PHONE_CONTEXT, "locale": "en-US"},
    "desktop-zh-dark": {"viewport": DESKTOP, **CHINESE_DARK},
    "phone-zh-dark": {**PHONE_CONTEXT, **CHINESE_DARK},
}


def _long_shot(page, screenshot, name: str) -> None:
    """Take the screenshot; on a phone, whose screen holds the board or the
    card below it, on a screen as tall as the page (a full-page capture would
    drop the touch emulation, and with it the phone's look)."""
    size = page.viewport_size
    if size["width"] >= DESKTOP["width"]:
        screenshot(page, name)
        return
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": height})
    page.evaluate("() => window.scrollTo(0, 0)")
    screenshot(page, name)
    page.set_viewport_size(size)


@pytest.mark.parametrize("size", SIZES)
def test_screenshots_of_the_flows(new_page, screenshot, size):
    page = new_page(**SIZES[size])
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    screenshot(page, f"landing-{size}")

    # A game against the computer, a few moves in, with a hint on show.
    page.select_option("#start-strength", "level:1")
    page.click("#play-computer")
    for ply in (2, 4, 6):
        wait_idle(page)
        square = page.locator("#board .cell.legal").first.get_attribute("data-square")
        page.click(f'#board [data-square="{square}"]')
        if page.locator("#confirm-moves").is_checked():
            page.click(f'#board [data-square="{square}"]')  # the confirming tap
        page.wait_for_function(
            "n => BoardPage.state.game.ply === n", arg=ply, timeout=AI_TIMEOUT
        )
    wait_idle(page)
    page.click("#hint")
    wait_idle(page)
    assert page.locator("#win-bar").is_visible()
    screenshot(page, f"game-{size}")

    # The end of a game: Black's row of four lit, the card under the board.
    start_game(page, "gomoku", size=7, row=4)
    if page.locator("#confirm-moves").is_checked():
        page.click("#confirm-moves")  # 7x7 cells are finger-sized anyway
    for count, move in enumerate(GOMOKU_WIN, 1):
        wait_idle(page)
        page.click(f'#board [data-square="{move}"]')
        wait_plies(page, count)
    page.wait_for_selector("#end-dialog.show")
    page.wait_for_function("() => document.querySelectorAll('.cell.winning').length")
    page.wait_for_selector("#end-dialog.show:not(.showing)")  # faded in
    screenshot(page, f"end-{size}")

    # The analysis of that game: the chart and its mistakes.
    page.click("#analyse")
    page.wait_for_function(
        "() => BoardPage.state.review && !BoardPage.state.review.running",
        timeout=AI_TIMEOUT,
    )
    page.locator("#mistakes .mistake-link").first.click()
    page.locator("#review").scroll_into_view_if_needed()
    assert page.locator("#eval-chart").is_visible()
    _long_shot(page, screenshot, f"analysis-{size}")

    # The opening explorer, one move into Reversi's opening.
    page.evaluate("() => window.scrollTo(0, 0)")
    start_game(page, "reversi")
    page.click("#explore")
    page.wait_for_selector("#explorer-moves .explorer-move")
    page.locator("#explorer-moves .explorer-move").first.click()
    page.wait_for_function("() => BoardPage.state.explore.line.length === 1")
    page.wait_for_selector("#explorer-moves .explorer-move")
    assert game_json(page)["ply"] == 0
    _long_shot(page, screenshot, f"explorer-{size}")

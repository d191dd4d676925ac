"""A server's first start (issue 63): the computer's AI compiles in the
background while the page works; a game against the computer started
meanwhile shows how far it has got where the AI would think, and the
computer plays as soon as its game is ready."""

from __future__ import annotations

import pytest

from .helpers import LOADED


@pytest.mark.parametrize("game", ["reversi", "gomoku", "loa"])
def test_the_computers_first_move_waits_for_its_ai_with_the_progress_shown(
    page,
    warming,
    game,  # noqa: F811
):
    readiness, write = warming
    write(**{game: ("compiling", 0.4)})
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#start-game", game)
    page.click("label[for=you-white]")
    page.select_option("#start-strength", "level:3")
    page.click("#play-computer")
    page.wait_for_selector("#ai-ready-row", state="visible")
    page.wait_for_function(
        "() => document.querySelector('#ai-ready-label').textContent"
        ".includes('Getting the computer ready, first start only: 40%')"
    )
    assert page.evaluate("() => BoardPage.state.game.ply") == 0
    write(**{game: ("ready", 1.0)})
    page.wait_for_function(
        "() => BoardPage.state.game && BoardPage.state.game.ply === 1",
        timeout=60_000,
    )
    assert page.locator("#ai-ready-row").is_hidden()

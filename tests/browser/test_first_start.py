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


def test_the_progress_shows_at_once_while_the_model_loads_too(
    page, warming, monkeypatch
):
    """At a first start the light model loads slowly too (the compilers hold
    the cores): the page waited for it before it showed the AI's progress,
    with nothing near the board for half a minute."""
    import time

    from webgame.services import explorer, treemodels

    fresh = treemodels.Preparations()  # this process has no model loaded yet
    monkeypatch.setattr(treemodels, "PREPARATIONS", fresh)
    monkeypatch.setattr(explorer, "PREPARATIONS", fresh)
    load = treemodels.load_shared

    def slow_load(folder):
        time.sleep(4)
        return load(folder)

    monkeypatch.setattr(treemodels, "load_shared", slow_load)
    readiness, write = warming
    write(reversi=("compiling", 0.4))
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#start-game", "reversi")
    page.click("label[for=you-white]")
    page.select_option("#start-strength", "level:3")
    page.click("#play-computer")
    page.wait_for_selector("#ai-ready-row", state="visible", timeout=2000)
    assert not fresh.is_ready("reversi", "light")  # still loading
    # It takes the win bar's line: the board moves a little (it moved 41 px).
    shift = page.evaluate(
        """() => {
          const row = document.getElementById('ai-ready-row');
          const board = document.getElementById('board');
          const top = () => board.getBoundingClientRect().top;
          const shown = top();
          row.hidden = true;
          const before = top();
          row.hidden = false;
          return shown - before;
        }"""
    )
    assert 0 < shift < 20
    write(reversi=("ready", 1.0))
    page.wait_for_function(
        "() => BoardPage.state.game && BoardPage.state.game.ply === 1",
        timeout=60_000,
    )
    assert fresh.is_ready("reversi", "light")
    assert page.locator("#ai-ready-row").is_hidden()


def test_a_watcher_sees_the_computer_getting_ready_too(new_page, warming):
    # The playing page showed the first start's progress; a watcher's page
    # only "Black (AI) to move" over an empty line, for as long.
    from webgame import services

    readiness, write = warming
    write(reversi=("compiling", 0.4))
    made = services.create_game(
        game="reversi",
        options=None,
        players={side: {"kind": "ai", "level": 1} for side in ("black", "white")},
    )
    watcher = new_page()
    watcher.goto(watcher.base_url + f"/?game={made['id']}&watch")
    watcher.wait_for_function("() => BoardPage.state.watching")
    watcher.wait_for_selector("#ai-ready-row", state="visible", timeout=5000)
    assert "first start only: 40%" in watcher.inner_text("#ai-ready-label")
    write(reversi=("ready", 1.0))
    watcher.wait_for_selector("#ai-ready-row", state="hidden", timeout=5000)


def test_the_first_minute_dialog_says_the_computer_is_getting_ready(page, warming):
    """First-start walk: "Play the computer" said nothing of the wait; the
    player learned of it only after their first move."""
    readiness, write = warming
    write(reversi=("compiling", 0.3), gomoku=("ready", 1.0))
    readiness.wait("gomoku")
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#start-game", "reversi")
    assert page.inner_text("#start-ai-note") == (
        "The computer is getting ready after the server's first start: its"
        " first move may take a minute or two."
    )
    page.select_option("#start-game", "gomoku")
    assert page.locator("#start-ai-note").is_hidden()

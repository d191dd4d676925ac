"""A forced Reversi pass needs no click (issue 65): the page says who passed
and the pass is in the move list."""

from __future__ import annotations

from .helpers import human_move, open_imported, plies, set_ai, status, wait_idle


def test_a_forced_pass_plays_itself_and_is_listed(page):
    open_imported(page, "reversi", "d3c3e6d2d1e1b2")
    page.locator('#board [data-square="c1"]').click()  # White; Black has no move
    page.wait_for_function("() => BoardPage.state.game.ply === 9")
    wait_idle(page)
    assert plies(page)[-2:] == ["c1", "pass"]
    assert page.locator("#flash").inner_text() == "Black has no move: White plays again"
    # Not in the grey of a passing remark (QA: easy to miss).
    weight = page.eval_on_selector("#flash", "f => getComputedStyle(f).fontWeight")
    assert int(weight) >= 600
    assert "text-body-secondary" not in page.get_attribute("#flash", "class")
    assert status(page) == "White to move"
    # Heard: the move that left Black without one too (only the pass was).
    page.wait_for_function(
        "() => document.getElementById('announce').textContent"
        " === 'White played c1. Black has no move: White plays again'",
        timeout=2000,
    )
    # Said once: the flash shows the pass but is not a second live region.
    assert page.locator("#flash").get_attribute("aria-live") == "off"
    # It stays while White is to move (it faded after 3.5 s, the reason gone).
    page.wait_for_timeout(4000)
    assert page.locator("#flash").inner_text() == "Black has no move: White plays again"
    assert page.locator("#pass").is_hidden()
    # Once White (here the computer) has played again, the pass is old news:
    # the message goes with it, not seconds later over the next position.
    set_ai(page, "white", True, "time:0.1")
    page.wait_for_function("() => BoardPage.state.game.ply === 10", timeout=3000)
    assert page.locator("#flash").inner_text() == ""
    # The next message under the board is said again.
    wait_idle(page)
    page.locator('#board [data-square="a1"]').click()  # not a legal move
    page.wait_for_function("() => document.getElementById('flash').textContent !== ''")
    assert page.locator("#flash").get_attribute("aria-live") == "polite"
    weight = page.eval_on_selector("#flash", "f => getComputedStyle(f).fontWeight")
    assert int(weight) < 600


def test_a_pass_stepped_onto_is_said(page):
    # Phone QA: stepping back onto a pass showed "Move 58 of 61", no mark on
    # the board and no word of the pass.
    open_imported(page, "reversi", "d3c3e6d2d1e1b2")
    page.locator('#board [data-square="c1"]').click()  # White; Black has no move
    page.wait_for_function("() => BoardPage.state.game.ply === 9")
    human_move(page)  # White again
    page.wait_for_function("() => BoardPage.state.game.ply === 10")
    wait_idle(page)
    page.click("#step-back")
    assert status(page) == "Move 9 of 10: Black passed"
    page.click("#step-back")
    assert status(page) == "Move 8 of 10"

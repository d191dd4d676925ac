"""A forced Reversi pass needs no click (issue 65): the page says who passed
and the pass is in the move list."""

from __future__ import annotations

from .helpers import (
    game_json,
    human_move,
    import_typed,
    open_board,
    open_imported,
    plies,
    set_ai,
    status,
    wait_idle,
)


def test_a_forced_pass_plays_itself_and_is_listed(page):
    open_imported(page, "reversi", "d3c3e6d2d1e1b2")
    page.locator('#board [data-square="c1"]').click()  # White; Black has no move
    page.wait_for_function("() => BoardPage.state.game.ply === 9")
    wait_idle(page)
    assert plies(page)[-2:] == ["c1", "pass"]
    # The move before the pass keeps its ring (Reversi QA: none was marked,
    # so what was just played could not be seen).
    assert "last-move" in page.get_attribute('#board [data-square="c1"]', "class")
    assert page.locator("#board .last-move").count() == 1
    assert page.locator("#flash").inner_text() == "Black has no move: White plays again"
    # Not in the grey of a passing remark (QA: easy to miss).
    weight = page.eval_on_selector("#flash", "f => getComputedStyle(f).fontWeight")
    assert int(weight) >= 600
    assert "text-body-secondary" not in page.get_attribute("#flash", "class")
    # Not pinned over the board for as long as it stays (Swap2 QA, 320x568).
    pinned = page.eval_on_selector("#flash", "f => getComputedStyle(f).position")
    assert pinned != "sticky"
    assert status(page) == "White to move"
    # Heard: the move that left Black without one too (only the pass was),
    # with the discs it turned, as any move (verification walk).
    page.wait_for_function(
        "() => /^White played c1, turning \\d+ discs?\\. Black \\d+, White \\d+\\."
        " Black has no move: White plays again$/"
        ".test(document.getElementById('announce').textContent)",
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
    # Over the page's own colour, not a pale band on it (QA, 1280x800).
    background = "s => getComputedStyle(document.querySelector(s)).backgroundColor"
    assert page.evaluate(background, "#flash") == page.evaluate(background, "body")
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
    # Moves numbered as an Othello game's discs, passes left out (Reversi
    # walk: "Move 36 of 62" in a game of 60 discs).
    numbers = page.locator("#move-list .ply-number").all_inner_texts()
    assert numbers == [str(n) for n in range(1, 9)] + ["", "9"]
    assert page.get_attribute('#move-list [data-ply="9"]', "aria-label") == (
        "Black passed after move 8"
    )
    page.select_option("#stone-numbers", "all")
    last = game_json(page)["moves"][-1]
    assert page.inner_text(f'#board [data-square="{last}"] .piece') == "9"
    page.click("#step-back")
    assert status(page) == "After move 8 of 9: Black passed"
    assert "last-move" in page.get_attribute('#board [data-square="c1"]', "class")
    page.click("#step-back")
    assert status(page) == "Move 8 of 9: White c1"


def test_the_pass_is_said_again_back_at_the_live_position(page):
    # Reversi QA: after stepping back and forward to the live position, the
    # pass's words were gone, and nothing said why White was to move again.
    open_imported(page, "reversi", "d3c3e6d2d1e1b2")
    page.locator('#board [data-square="c1"]').click()  # White; Black has no move
    page.wait_for_function("() => BoardPage.state.game.ply === 9")
    wait_idle(page)
    pass_words = "Black has no move: White plays again"
    assert page.locator("#flash").inner_text() == pass_words
    page.click("#step-back")
    assert page.locator("#flash").inner_text() == ""  # not about that position
    page.click("#step-forward")
    assert status(page) == "White to move"
    assert page.locator("#flash").inner_text() == pass_words
    assert "fw-semibold" in page.get_attribute("#flash", "class")
    # Once the position changes, the words do not come back with it.
    page.click("#step-back")
    set_ai(page, "white", True, "time:0.1")  # White plays while Black looks back
    page.wait_for_function("() => BoardPage.state.game.ply === 10", timeout=3000)
    page.click("#step-last")
    assert status(page) == "Your move (Black)"
    assert page.locator("#flash").inner_text() != pass_words


def test_a_game_opened_after_a_pass_says_so(page):
    # Verification QA: a game opened (or imported) whose last move is a pass
    # showed "White to move" and no word of why White moves again.
    open_imported(page, "reversi", "d3 c3 e6 d2 d1 e1 b2 c1 pass")
    wait_idle(page)
    assert status(page) == "White to move"
    assert page.locator("#flash").inner_text() == "Black has no move: White plays again"


def test_an_import_ending_in_a_pass_the_computer_answers_says_both(page):
    # Verification QA: the import's "The computer waits" took the place of
    # the pass's words for good: nothing said why White moves again.
    open_board(page)
    set_ai(page, "white", True, "level:1")
    record = "d3 c3 e6 d2 d1 e1 b2 c1 pass"
    import_typed(page, record, "() => BoardPage.state.game.ply === 9")
    assert page.inner_text("#flash") == (
        "Imported a game of Reversi, 8 moves. Black has no move: White plays"
        " again. The computer waits: Resume lets it play."
    )

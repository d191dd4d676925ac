"""Moves are animated once (issue 65, point 4): a stone is put down, a
Reversi disc turns over, a Lines of Action piece slides; nothing moves with
reduced motion."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import open_board, select_game, wait_plies

#: The running animations of the board's pieces, by name.
RUNNING = "() => document.getAnimations().map(a => a.animationName).filter(Boolean)"


def test_a_move_animates_its_pieces(new_page):
    page = new_page(viewport=DESKTOP)
    open_board(page)
    select_game(page, "reversi")
    page.locator('#board [data-square="f5"]').click()
    page.wait_for_function(
        "() => document.getAnimations().some(a => a.animationName === 'piece-flipped')"
    )
    names = page.evaluate(RUNNING)
    assert "piece-placed" in names and "piece-flipped" in names
    page.wait_for_timeout(500)  # done, and not replayed by a redraw
    page.click("#flip")  # a redraw
    page.click("#flip")
    assert page.evaluate(RUNNING) == []


def test_nothing_moves_with_reduced_motion(new_page):
    page = new_page(viewport=DESKTOP, reduced_motion="reduce")
    open_board(page)
    select_game(page, "gomoku")
    page.locator('#board [data-square="h8"]').click()
    wait_plies(page, 1)
    assert page.evaluate(RUNNING) == []


def test_a_lines_of_action_piece_slides_from_its_square(new_page):
    page = new_page(viewport=DESKTOP)
    open_board(page)
    select_game(page, "loa")
    page.locator('#board [data-square="b1"]').click()
    page.locator('#board [data-square="b3"]').click()
    page.wait_for_function(
        "() => document.getAnimations().some(a => a.animationName === 'piece-slid')"
    )
    offset = page.locator('#board [data-square="b3"] .piece').get_attribute("style")
    assert "--dx: 0" in offset and "--dy: 2" in offset  # from two rows below


def test_a_captured_piece_stays_until_the_capturing_piece_arrives(new_page):
    # It vanished as the slide began: the piece slid onto an empty square.
    page = new_page(viewport=DESKTOP)
    open_board(page)
    select_game(page, "loa")
    for ply, (start, end) in enumerate([("b1", "h1"), ("a2", "c2")], start=1):
        page.locator(f'#board [data-square="{start}"]').click()
        page.locator(f'#board [data-square="{end}"]').click()
        wait_plies(page, ply)
    page.locator('#board [data-square="c1"]').click()
    page.locator('#board [data-square="a3"]').click()
    # This move's slide (the one before may still be sliding onto c2).
    square = page.locator('#board [data-square="a3"]')
    square.locator(".piece.slid.black").wait_for()
    taken = square.locator(".piece.taken.white")
    assert taken.count() == 1 and taken.is_visible()
    page.wait_for_timeout(500)
    assert taken.count() == 0 or not taken.is_visible()
    page.click("#flip")  # a redraw after the move draws no captured piece
    assert page.locator("#board .piece.taken").count() == 0

"""Lines of Action's pieces are dragged as well as tapped: with a mouse or a
finger, pressed on a piece and let go on one of its destinations (a phone
player's drag did nothing and scrolled the page: phone QA)."""

from __future__ import annotations

from .conftest import DESKTOP, PHONE_CONTEXT
from .helpers import LOADED, plies, select_game, two_players, wait_idle, wait_plies


def centre(page, square: str) -> tuple[float, float]:
    box = page.locator(f'#board [data-square="{square}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def mouse_drag(page, start: str, end: str) -> None:
    page.mouse.move(*centre(page, start))
    page.mouse.down()
    page.mouse.move(*centre(page, end), steps=8)
    page.mouse.up()


def finger_drag(page, start: str, end: str) -> None:
    """Drag with a finger, as the phone's touch screen reports it."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = centre(page, start), centre(page, end)
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]},
    )
    for step in range(1, 11):
        x, y = x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def loa_at_one_screen(new_page, **context):
    """Return a page (of ``context``) showing a new Lines of Action game
    between two players at one screen."""
    page = new_page(**context)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "loa")
    wait_idle(page)
    return page


def test_a_piece_dragged_with_the_mouse_moves_and_a_wrong_drop_plays_nothing(new_page):
    page = loa_at_one_screen(new_page, viewport=DESKTOP)
    mouse_drag(page, "b1", "e4")  # not one of b1's destinations
    wait_idle(page)
    assert plies(page) == []
    assert page.locator("#board .cell.selected, #board .drag-over").count() == 0
    mouse_drag(page, "b1", "b3")
    wait_plies(page, 1)
    assert plies(page) == ["b1-b3"]


def test_the_piece_dragged_follows_the_pointer_and_is_set_down(new_page):
    # LOA walk: the piece stayed on its square while dragged; only a thin
    # frame showed where the pointer was.
    page = loa_at_one_screen(new_page, viewport=DESKTOP)
    start = page.locator('#board [data-square="b1"] .piece').bounding_box()
    page.mouse.move(*centre(page, "b1"))
    page.mouse.down()
    page.mouse.move(*centre(page, "d4"), steps=8)
    carried = page.locator('#board [data-square="b1"] .piece').bounding_box()
    assert abs(carried["x"] - start["x"] - 2 * start["width"] / 0.82) < 8
    assert carried["y"] < start["y"] - 2 * start["height"]
    # Above the other squares' pieces and the arrows.
    z = "s => getComputedStyle(document.querySelector(s)).zIndex"
    assert int(page.evaluate(z, '#board [data-square="b1"] .piece')) > 5
    page.mouse.up()  # d4 is none of b1's destinations: back on its square
    wait_idle(page)
    assert plies(page) == []
    assert page.locator('#board [data-square="b1"] .piece').bounding_box() == start


def test_a_finger_drags_a_piece_and_the_page_stays_put(new_page):
    page = loa_at_one_screen(new_page, **PHONE_CONTEXT)
    page.evaluate("() => window.scrollTo(0, 0)")
    touch = "s => getComputedStyle(document.querySelector(s)).touchAction"
    assert page.evaluate(touch, '#board [data-square="b1"]') == "none"
    finger_drag(page, "b1", "b3")
    wait_plies(page, 1)
    assert plies(page) == ["b1-b3"]
    assert page.evaluate("() => window.scrollY") == 0
    # Gomoku's points are tapped: a finger on its board still scrolls the page
    # (and pinches it), but a double tap zooms nothing (tablet walk: a
    # child's quick second tap could zoom a Reversi or Gomoku board).
    select_game(page, "gomoku")
    assert page.evaluate(touch, '#board [data-square="h8"]') == "manipulation"
    style = "() => getComputedStyle(document.querySelector('#board'))"
    assert page.evaluate(style + ".webkitUserSelect") == "none"


def test_a_tap_right_after_a_finger_drop_picks_its_piece(new_page):
    # Phone QA, two people at one phone: a tap within 0.4 s of a finger's
    # drop was taken for the drop's own click (a mouse's drag ends in one; a
    # finger's in none) and did nothing.
    page = loa_at_one_screen(new_page, **PHONE_CONTEXT)
    finger_drag(page, "b1", "b3")
    page.wait_for_function("() => BoardPage.state.game.ply === 1")
    page.wait_for_timeout(200)  # a quick hand (sooner, Chrome makes no click)
    page.tap('#board [data-square="a2"]')
    page.wait_for_function("() => BoardPage.state.selected === 'a2'", timeout=3000)


def test_a_swipe_from_an_empty_square_scrolls_and_says_nothing(new_page):
    # Slow-phone QA: a thumb starting on the board neither scrolled the page
    # nor stayed quiet: "d4: pick one of Black's pieces."
    page = loa_at_one_screen(new_page, **PHONE_CONTEXT)
    touch = "s => getComputedStyle(document.querySelector(s)).touchAction"
    assert page.evaluate(touch, '#board [data-square="d4"]') == "manipulation"
    assert page.evaluate(touch, '#board [data-square="b1"]') == "none"
    mouse_drag(page, "d4", "d6")  # a mouse's drag from an empty square
    page.wait_for_timeout(200)
    assert "pick one" not in page.inner_text("#flash")
    assert plies(page) == []

"""Sounds after a reload: a browser holds back a page's audio until the
person touches the page, so a sound that comes first (the computer's move)
is not heard; the first tap then lets the audio go, and the next move is
heard. Before, the page never asked again and stayed silent to the end."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import hear_tones, wait_idle, wait_plies


def test_the_first_tap_lets_the_sounds_be_heard(new_page):
    page = new_page(viewport=DESKTOP)
    page.context.add_init_script(hear_tones(held_back=True))
    made = page.request.post(
        page.base_url + "/api/games/",
        data={
            "game": "reversi",
            "players": {
                "black": {"kind": "ai", "level": 1},
                "white": {"kind": "human"},
            },
        },
    ).json()
    page.goto(page.base_url + f"/?game={made['id']}")
    wait_plies(page, 1)  # the computer's move, before any touch: held back
    wait_idle(page)
    assert page.evaluate("() => window.tones") == []

    square = page.locator("#board .cell.legal").first.get_attribute("data-square")
    page.click(f'#board [data-square="{square}"]')
    wait_plies(page, 3)  # the player's move and the computer's, heard
    wait_idle(page)
    assert len(page.evaluate("() => window.tones")) >= 2


def test_a_game_that_ends_without_a_move_is_heard_to_end(new_page):
    """QA: the end's notes came only with a move that ended the game; a
    resignation, an abort, a loss on time or an agreed draw ended it in
    silence, to a player who may have been looking away."""
    pages = [new_page(viewport=DESKTOP) for _ in range(2)]
    for page in pages:
        page.context.add_init_script(hear_tones())
    a, b = pages
    made = a.request.post(a.base_url + "/api/games/", data={"game": "reversi"}).json()
    a.goto(a.base_url + f"/?game={made['id']}")
    b.goto(b.base_url + f"/?game={made['id']}")
    for page in pages:
        page.wait_for_function("() => BoardPage.state.game && BoardPage.state.live")
    b.evaluate("() => { window.tones = []; }")
    a.request.post(a.base_url + f"/api/games/{made['id']}/resign/", data={})
    b.wait_for_function("() => BoardPage.state.game.status === 'finished'")
    b.wait_for_function("() => window.tones.join() === '523,784'", timeout=2000)

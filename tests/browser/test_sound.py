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

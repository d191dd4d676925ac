"""Dark mode (issue 65, point 5): the page follows prefers-color-scheme, and
a toggle switches and is remembered."""

from __future__ import annotations

import re

from .conftest import DESKTOP
from .helpers import open_board


def background(page) -> float:
    """Return the body background's luminance, 0 (black) to 1 (white)."""
    colour = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    red, green, blue = (int(x) for x in re.findall(r"\d+", colour)[:3])
    return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255


def test_the_page_follows_the_system_and_the_toggle_is_remembered(new_page):
    dark = new_page(viewport=DESKTOP, color_scheme="dark")
    open_board(dark)
    assert dark.evaluate("() => document.documentElement.dataset.bsTheme") == "dark"
    assert background(dark) < 0.15
    assert dark.locator("#theme").inner_text() == "Light"
    dark.click("#theme")
    assert background(dark) > 0.85
    dark.reload()
    dark.wait_for_function("() => typeof BoardPage !== 'undefined'")
    assert dark.evaluate("() => document.documentElement.dataset.bsTheme") == "light"
    assert dark.locator("#theme").get_attribute("aria-pressed") == "false"

    light = new_page(viewport=DESKTOP, color_scheme="light")
    open_board(light)
    assert background(light) > 0.85

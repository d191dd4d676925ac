"""No label is cut off (issue 65, point 7): at 360, 390, 768 and 1280 px no
visible button's text overflows it, and no select's chosen text is wider
than the room its arrow leaves, in the first-minute dialog and on the page,
in English and in Chinese."""

from __future__ import annotations

import pytest

from .helpers import LOADED, open_board, select_game, two_players

#: The clipped controls on show: "id: text" for each.
CLIPPED = """() => {
  const pen = document.createElement("canvas").getContext("2d");
  const out = [];
  document.querySelectorAll("select, button").forEach((e) => {
    if (e.offsetParent === null || e.closest("[hidden]")) return;
    const style = getComputedStyle(e);
    if (e.tagName === "SELECT") {
      const option = e.options[e.selectedIndex];
      if (!option) return;
      pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const room = e.clientWidth - padding;
      const text = option.text;
      if (pen.measureText(text).width > room + 1) out.push(e.id + ": " + text);
    } else if (e.scrollWidth > e.clientWidth + 1) {
      out.push(e.id + ": " + e.innerText);
    }
  });
  return out;
}"""

#: Whether Black's and White's opening and strength fields are as wide.
SAME_ROWS = """() => ["model", "strength"].every((field) => {
  const [black, white] = ["black", "white"].map((side) =>
    document.getElementById(field + "-" + side).getBoundingClientRect().width);
  return Math.abs(black - white) < 0.5;
})"""


def each_choice(page, selects) -> None:
    """Choose each option of each select in turn, none of them cut off, then
    the one chosen before."""
    for select in selects:
        values = page.locator(select).evaluate(
            "s => [...s.options].filter(o => !o.disabled).map(o => o.value)"
        )
        chosen = page.locator(select).input_value()
        for value in values:
            page.select_option(select, value)
            assert page.evaluate(CLIPPED) == [], f"{select}: {value}"
        page.select_option(select, chosen)


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("width", [360, 390, 768, 1280])
def test_no_label_is_cut_off(new_page, width, locale):
    page = new_page(viewport={"width": width, "height": 900}, locale=locale)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#start-game", "loa")  # the longest name
    assert page.evaluate(CLIPPED) == [], "the first-minute dialog"
    # Gomoku's options, the strengths and the clocks, each chosen in turn
    # ("Swap2（交换两次）" lost its bracket, "7 days a move" its end).
    page.select_option("#start-game", "gomoku")
    dialog = ("#gomoku-size", "#gomoku-row", "#gomoku-rule", "#gomoku-opening")
    each_choice(page, (*dialog, "#start-strength", "#start-clock", "#friend-clock"))
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    assert page.evaluate(CLIPPED) == [], "Reversi"
    select_game(page, "gomoku")
    assert page.evaluate(CLIPPED) == [], "Gomoku"
    # Renju's own model ("Openings: light, Renju" lost its rule at 360 px).
    page.select_option("#game-select", "gomoku")
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#gomoku-rule", "renju")
    two_players(page)
    page.wait_for_function("() => BoardPage.state.game.options.rule === 'renju'")
    each_choice(page, ("#model-black", "#strength-black"))
    # Black's and White's rows alike, whatever each chose (records walk:
    # each field was as wide as its own words).
    page.select_option("#strength-black", "level:1")
    page.select_option("#strength-white", "time:10")
    assert page.evaluate(SAME_ROWS), "Black's and White's fields"
    # The check sees a label that is too long (as "Openings: ligh" was).
    page.evaluate("() => $('#model-black option:selected').text('x'.repeat(200))")
    assert page.evaluate(CLIPPED)[0].startswith("model-black: xxx")


@pytest.mark.parametrize("size", [15, 19])
def test_every_gomoku_board_fits_a_360_px_phone(new_page, size):
    # At 19x19 the row numbers' column (19 labels of 18 px) made the board
    # 342 px tall and so as wide, 10 px past the screen: the page slid
    # sideways and the s column's label was cut off (phone QA).
    page = new_page(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    made = page.request.post(
        page.base_url + "/api/games/",
        data={"game": "gomoku", "options": {"size": size}},
    ).json()
    open_board(page, f"?game={made['id']}")
    assert page.evaluate("() => document.documentElement.scrollWidth") == 360
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= 360
    last = page.locator(".file-labels span").last.bounding_box()
    assert last["x"] + last["width"] <= 360


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_no_label_is_cut_off_in_a_larger_default_font(new_page, locale):
    # Zoom QA: with the browser's default font at 24 px the Game select
    # read "Revers" and "Gomok".
    page = new_page(viewport={"width": 1280, "height": 800}, locale=locale)
    page.add_init_script(
        "addEventListener('DOMContentLoaded', () => "
        "document.documentElement.style.fontSize = '24px')"
    )
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    assert page.evaluate(CLIPPED) == [], "Reversi"
    each_choice(page, ("#game-select",))

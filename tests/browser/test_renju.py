"""Renju on the page (issue 66): the rule is chosen beside the board's size,
black's forbidden points are marked, and a click on one is refused with the
reason, changing nothing."""

from __future__ import annotations

from .helpers import (
    game_json,
    new_game_dialog,
    open_board,
    open_imported,
    select_game,
    two_players,
    wait_idle,
    wait_plies,
)

#: Black's h8 i8 and j9 j10: j8 would make two open threes.
MOVES = ["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"]


def test_a_forbidden_point_is_marked_and_a_click_on_it_is_refused_with_the_reason(
    page, screenshot
):
    open_board(page)
    select_game(page, "gomoku")
    new_game_dialog(page)
    page.select_option("#gomoku-rule", "renju")
    # Renju is five in a row: the page offers no other row.
    assert page.input_value("#gomoku-row") == "5"
    assert page.evaluate(
        "() => [...document.querySelectorAll('#gomoku-row option')]"
        ".filter(o => !o.disabled).map(o => o.value)"
    ) == ["5"]
    # The freestyle models are not offered for renju; renju's own light model
    # is the default.
    light = page.locator('#model-black option[value="light"]')
    assert light.is_disabled() and "freestyle" in light.get_attribute("title").lower()
    assert page.input_value("#model-black") == "light-renju"
    assert page.locator('#model-black option[value="light-renju"]').inner_text() == (
        "Openings: light, Renju"
    )
    two_players(page)
    page.wait_for_function("() => BoardPage.state.game.options.rule === 'renju'")
    for count, move in enumerate(MOVES, 1):
        wait_idle(page)
        page.click(f'#board [data-square="{move}"]')
        wait_plies(page, count)
    wait_idle(page)
    assert game_json(page)["forbidden"] == {"j8": "double three"}
    assert page.locator('#board [data-square="j8"].forbidden').count() == 1
    assert page.locator("#board .cell.forbidden").count() == 1
    # A screen reader hears it too, and a mouse's tooltip says it.
    cell = page.locator('#board [data-square="j8"]')
    assert "forbidden to Black: double three" in cell.get_attribute("aria-label")
    assert cell.get_attribute("title") == "j8: forbidden to Black: double three"
    page.click('#board [data-square="j8"]')
    assert "forbidden to Black" in page.inner_text("#flash")
    assert "two threes" in page.inner_text("#flash")
    screenshot(page, "renju-forbidden")
    assert game_json(page)["ply"] == len(MOVES)
    # White has no forbidden points: after black's g8, nothing is marked.
    page.click('#board [data-square="g8"]')
    wait_plies(page, len(MOVES) + 1)
    wait_idle(page)
    assert page.locator("#board .cell.forbidden").count() == 0


def test_a_refusal_under_the_board_is_seen_on_a_small_phone(new_page, screenshot):
    # Phones QA at 320x568: the reason a forbidden point was refused fell
    # under the screen's edge, below the board's buttons: a tap did nothing.
    page = new_page(
        viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True
    )
    open_imported(page, "gomoku", '[game "gomoku"] [rule "renju"] ' + " ".join(MOVES))
    assert game_json(page)["forbidden"] == {"j8": "double three"}
    for _ in range(2):  # a phone asks to confirm a move on a small board
        page.tap('#board [data-square="j8"]')
    page.wait_for_function("() => document.getElementById('flash').textContent")
    box = page.locator("#flash").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 568, box
    # It stands out over what it covers, and once gone it covers nothing.
    assert page.evaluate(
        "() => getComputedStyle(document.getElementById('flash')).backgroundColor"
    ) not in ("rgba(0, 0, 0, 0)", "transparent")
    screenshot(page, "renju-forbidden-small-phone")
    page.wait_for_function("() => !document.getElementById('flash').textContent")
    assert page.locator("#flash").bounding_box()["y"] > 568
    assert game_json(page)["ply"] == len(MOVES)


def _standard_game(page) -> None:
    """Start a standard Gomoku game between two players at this screen."""
    open_board(page)
    select_game(page, "gomoku")
    new_game_dialog(page)
    page.select_option("#gomoku-rule", "standard")
    two_players(page)
    page.wait_for_function("() => BoardPage.state.game.options.rule === 'standard'")


def test_standard_plays_without_a_model_by_default(page, screenshot):
    # No standard build scored above no model, so none ships; the freestyle
    # ones are shown but cannot be chosen.
    _standard_game(page)
    wait_idle(page)
    for side in ("black", "white"):
        assert page.input_value(f"#model-{side}") == "none"
    light = page.locator('#model-black option[value="light"]')
    assert light.is_disabled() and "freestyle" in light.get_attribute("title").lower()
    screenshot(page, "standard-models")


def test_a_standard_overline_is_said_not_to_win(page):
    """Under the standard rule six in a row is no win: the game went on and
    said nothing (QA read it as a fault); the page says why now."""
    _standard_game(page)
    moves = ["c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8"]
    for played, square in enumerate(moves, 1):
        wait_idle(page)
        page.click(f'#board [data-square="{square}"]')
        wait_plies(page, played)
    wait_idle(page)
    assert game_json(page)["status"] == "playing"
    assert page.inner_text("#flash") == (
        "f8 makes more than 5 in a row, which does not win under the standard"
        " rule: exactly 5 does."
    )


def test_a_phone_names_the_rule_above_the_board(new_page):
    # Noticed at the eleventh stop: on a phone the size, row and rule were
    # only in the Game panel, three screens below the board, so a player
    # refused a forbidden point had never been told the game was renju.
    page = new_page(
        viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True
    )
    open_imported(page, "gomoku", '[game "gomoku"] [rule "renju"] h8')
    line = page.locator("#board-options")
    assert line.is_visible()
    # Short (Gomoku's five goes without saying); whole in the tooltip.
    assert line.inner_text() == "15×15 · Renju"
    assert line.get_attribute("title") == "15×15, five in a row · Renju"
    box, board = line.bounding_box(), page.locator("#board").bounding_box()
    assert box["y"] + box["height"] <= board["y"], (box, board)
    assert box["x"] + box["width"] <= 360, box
    # A row other than five is named.
    open_imported(page, "gomoku", '[game "gomoku"] [size "9"] [row "4"] e5')
    assert line.inner_text() == "9×9, four in a row · Freestyle"
    # A game with nothing to name (Reversi) shows no line.
    open_imported(page, "reversi", "f5")
    assert not line.is_visible()


def _on_a_chinese_phone(new_page, viewport: dict, body: dict):
    """Open a new game made of ``body`` on a Chinese phone of ``viewport``;
    return (page, the line naming its rules above the board)."""
    page = new_page(viewport=viewport, is_mobile=True, has_touch=True, locale="zh-CN")
    made = page.request.post(page.base_url + "/api/games/", data=body).json()
    open_board(page, f"?game={made['id']}")
    return page, page.locator("#board-options")


def test_a_chinese_phone_names_swap2_short_too(new_page):
    # Verification QA: the rule was short (连珠) and the opening long,
    # "Swap2（二次交换）", cut at 320 px to "Swap2（二…". Dark-mode walk: the
    # short name is the one the status and the bar say (it was 二次交换).
    page, line = _on_a_chinese_phone(
        new_page,
        {"width": 320, "height": 568},
        {"game": "gomoku", "options": {"rule": "renju"}, "opening": "swap2"},
    )
    assert line.inner_text() == "15×15 · 连珠 · Swap2"
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth")


def test_on_a_small_phone_the_rule_gives_way_to_the_result(new_page):
    # Whose move and the result keep their words and the line its height:
    # the rule shrinks to an ellipsis instead (the board stays put).
    page = new_page(
        viewport={"width": 320, "height": 568}, is_mobile=True, has_touch=True
    )
    record = '[game "gomoku"] [rule "standard"] h8 a1 h9 a2 h10 a3 h11 a4'
    open_imported(page, "gomoku", record)
    heights = [page.locator(".status-row").bounding_box()["height"]]
    open_imported(page, "gomoku", record + " h12")
    assert page.inner_text("#status") == "Black wins: five in a row"
    heights.append(page.locator(".status-row").bounding_box()["height"])
    assert heights[0] == heights[1], heights
    assert page.evaluate(
        "() => { const s = document.getElementById('status');"
        " return s.scrollWidth <= s.clientWidth && s.offsetHeight < 30; }"
    )
    assert page.locator("#board-options").is_visible()


def test_a_desktop_names_the_rule_once_beside_the_board(page):
    # The side panel is in sight there: no second copy above the board.
    page.set_viewport_size({"width": 1280, "height": 800})
    open_imported(page, "gomoku", '[game "gomoku"] [rule "renju"] h8')
    assert page.locator("#game-options").inner_text() == "15×15, five in a row · Renju"
    assert not page.locator("#board-options").is_visible()


def test_on_a_phone_lines_of_action_s_other_rules_show_whole(new_page):
    # Verification walk: "双方同时连成一片…", the other two rules cut off,
    # and no hover on a phone to read the rest.
    other = {"double_connection": "mover_wins", "no_move": "lose", "repetition": 2}
    page, line = _on_a_chinese_phone(
        new_page, {"width": 390, "height": 844}, {"game": "loa", "options": other}
    )
    assert line.inner_text() == "3 条其他规则"
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth")
    # A tap shows them, in the Rules.
    line.tap()
    page.wait_for_selector("#rules-dialog.show")
    assert page.inner_text("#rules-loa-game").startswith(
        "本局规则：双方同时连成一片时走棋方胜"
    )
    # One is said whole.
    made = page.request.post(
        page.base_url + "/api/games/",
        data={"game": "loa", "options": {"no_move": "lose"}},
    ).json()
    open_board(page, f"?game={made['id']}")
    assert line.inner_text() == "无子可动：负"


def test_looking_back_at_a_renju_position_marks_its_forbidden_points(page):
    """Teacher walk: stepping back through an imported renju game, j8 (a
    double three with black to move) had no cross and read "j8, empty"."""
    moves = MOVES + ["b15", "a9", "o15", "a11"]
    open_imported(page, "gomoku", '[game "gomoku"] [rule "renju"] ' + " ".join(moves))
    page.click('#move-list [data-ply="8"]')
    page.wait_for_selector('#board [data-square="j8"].forbidden')
    cell = page.locator('#board [data-square="j8"]')
    assert "forbidden to Black: double three" in cell.get_attribute("aria-label")
    # White to move there: nothing is forbidden.
    page.click('#move-list [data-ply="7"]')
    assert page.locator("#board .cell.forbidden").count() == 0

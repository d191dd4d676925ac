"""English and Simplified Chinese in the browser (issue 65, point 6): a
zh-CN browser sees no English word in the first-minute dialog, the page and
its panel, the end dialog or the rules (apart from move notation, the board's
coordinates and the API button); an en-US one sees English; the switch is
remembered across visits. At desktop and phone size. The tree models' names
(file names on the server) are shown as they are."""

from __future__ import annotations

import re

import pytest

from .conftest import DESKTOP, PHONE, PHONE_CONTEXT
from .helpers import (
    LOADED,
    game_json,
    new_game_dialog,
    new_renju_swap2_chosen,
    open_board,
    select_game,
    start_game,
    two_players,
    wait_idle,
    wait_plies,
)

SIZES = {"desktop": {"viewport": DESKTOP}, "phone": PHONE_CONTEXT}
GOMOKU_WIN = ["a1", "a2", "b1", "b2", "c1", "c2", "d1"]

#: The words a person sees in `selector`: its rendered text nodes, the
#: titles, labels and placeholders of its visible elements, and every choice
#: of its visible selectors; nothing inside an element marked lang="en"
#: (the switch that offers English names it in English).
VISIBLE_TEXT = """(selector) => {
  const root = document.querySelector(selector);
  const texts = [];
  const shown = (el) => el.checkVisibility() && !el.closest('[lang="en"]');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (el.closest('select, script, style')) continue;
    if (shown(el) && node.textContent.trim()) texts.push(node.textContent.trim());
  }
  for (const el of root.querySelectorAll('*')) {
    if (!shown(el)) continue;
    for (const name of ['title', 'aria-label', 'placeholder']) {
      if (el.getAttribute(name)) texts.push(el.getAttribute(name));
    }
    if (el.tagName === 'SELECT') {
      for (const choice of el.querySelectorAll('option, optgroup')) {
        texts.push(choice.label || choice.textContent);
        if (choice.title) texts.push(choice.title);
      }
    }
  }
  return texts;
}"""

#: Move notation and coordinates ("f5", "h10", "b1-b3"), the API button,
#: which names the programmers' interface, Swap2, the opening's name as
#: Chinese Gomoku players write it too, and the keys Home and End, named as
#: their keyboards print them.
ALLOWED = re.compile(r"\b[a-s](?:1[0-9]|[1-9])?\b|\bAPI\b|\bSwap2\b|\bHome\b|\bEnd\b")
WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(page, selector: str) -> list[str]:
    """Return the English words visible in ``selector``, each with its text.
    The tree models' names ("net-8x5") are names of files on the server, as
    an operator chose them: shown as they are."""
    models = page.evaluate(
        "() => Object.values(BoardPage.state.kinds)"
        ".flatMap(k => k.models.map(m => m.name))"
    )
    found = []
    for text in page.evaluate(VISIBLE_TEXT, selector):
        for name in sorted(models, key=len, reverse=True):
            text = text.replace(name, " ")
        words = WORD.findall(ALLOWED.sub(" ", text))
        found += [f"{word} (in {text!r})" for word in words]
    return found


def open_chinese(new_page, size: str):
    page = new_page(locale="zh-CN", **SIZES[size])
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_a_chinese_browser_sees_no_english(new_page, size):
    page = open_chinese(new_page, size)
    assert page.evaluate("() => document.documentElement.lang") == "zh-hans"
    page.wait_for_selector("#start-dialog.show")
    assert page.inner_text("#start-title") == "新对局"
    assert english_words(page, "#start-dialog") == []
    # A model's size in Chinese numbers ("已研究 1.4M 个局面" before).
    page.wait_for_selector(
        '#model-white option[value="light"][title]', state="attached"
    )
    size = page.get_attribute('#model-white option[value="light"]', "title")
    assert re.fullmatch(r"已研究 [\d.]+万 个局面", size), size

    # The rules of each game, from the first-minute dialog.
    page.click("#start-rules")
    for game in ("reversi", "gomoku", "loa"):
        page.click(f"#rules-tab-{game}")
        page.wait_for_selector(f"#rules-{game}.active.show")
        page.wait_for_function(
            "g => document.querySelector(`#rules-${g} .rules-diagram .cell`)", arg=game
        )
        assert english_words(page, "#rules-dialog") == [], game
    page.click("#rules-dialog .btn-close")
    page.wait_for_selector("#rules-dialog", state="hidden")

    # A game of Gomoku between two people: the page around the board.
    two_players(page, "gomoku")
    wait_idle(page)
    start_game(page, "gomoku", size=7, row=4)
    if page.locator("#confirm-moves").is_checked():
        page.click("#confirm-moves")  # 7x7 cells are finger-sized
    for count, move in enumerate(GOMOKU_WIN[:3], 1):
        wait_idle(page)
        page.click(f'#board [data-square="{move}"]')
        wait_plies(page, count)
    assert english_words(page, "header") == []
    assert english_words(page, "#app") == []

    # The end of the game, and what the page says of it.
    for count, move in enumerate(GOMOKU_WIN[3:], 4):
        wait_idle(page)
        page.click(f'#board [data-square="{move}"]')
        wait_plies(page, count)
    page.wait_for_selector("#end-dialog.show")
    assert game_json(page)["result"]["winner"] == "black"
    assert page.inner_text("#end-title") == "黑方胜"
    assert english_words(page, "#end-dialog") == []
    assert english_words(page, "#app") == []


def test_an_english_browser_gets_english_and_the_switch_is_remembered(new_page):
    page = new_page(locale="en-US", viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_selector("#start-dialog.show")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.inner_text("#start-title") == "New game"
    assert page.inner_text("#language") == "中文"

    chinese = open_chinese(new_page, "desktop")
    chinese.wait_for_selector("#start-dialog.show")
    two_players(chinese)
    wait_idle(chinese)
    game_id = game_json(chinese)["id"]
    # English, chosen on the Chinese page by the keyboard: the same game, in
    # English, the focus still on the switch (it was back at the top) ...
    length = chinese.evaluate("() => history.length")
    chinese.focus("#language")
    chinese.keyboard.press("Enter")
    chinese.wait_for_function(LANG_IS, arg="en")
    wait_idle(chinese)
    assert game_json(chinese)["id"] == game_id
    # No history entry of its own: Back goes to where it went before (phone
    # QA: a switch in New game cost two Back presses that did nothing).
    assert chinese.evaluate("() => history.length") == length
    assert chinese.inner_text("#new-game") == "New game"
    assert chinese.evaluate("() => document.activeElement.id") == "language"
    # ... and on the next visit, although the browser asks for Chinese.
    chinese.goto(chinese.base_url + "/")
    chinese.wait_for_function(LOADED)
    assert chinese.evaluate("() => document.documentElement.lang") == "en"
    assert chinese.inner_text("#language") == "中文"


#: The page, loaded again in another language, says it: asked while the page
#: is between two documents there is none (CI: "Cannot read properties of
#: null (reading 'lang')", a page error and a failed wait).
LANG_IS = "lang => (document.documentElement || {}).lang === lang"


def switch_in_the_dialog(page) -> None:
    """Switch to Chinese in the New game dialog; wait for it to be back."""
    page.click("#start-language")
    page.wait_for_function(LANG_IS, arg="zh-hans")
    page.wait_for_selector("#start-dialog.show")


def test_the_first_visit_can_switch_language_in_the_new_game_dialog(new_page):
    """On a first visit the new-game dialog covers the top bar until a game
    is chosen: a reader of the other language switches in the dialog."""
    page = new_page(locale="en-US", viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_selector("#start-dialog.show")
    # The choices made stay (QA: back to Reversi, Black and Club, and Play
    # the computer started a game the player had not chosen).
    page.select_option("#start-game", "loa")
    page.click('label[for="you-white"]')
    # The weakest, not the default, and quick to play its first move.
    weakest = page.eval_on_selector("#start-strength", "s => s.options[0].value")
    page.select_option("#start-strength", weakest)
    page.select_option("#friend-clock", "10+5")
    switch_in_the_dialog(page)
    assert page.inner_text("#start-title") == "新对局"
    assert page.inner_text("#start-language") == "English"
    assert page.input_value("#start-game") == "loa"
    assert page.is_checked("#you-white")
    assert page.input_value("#start-strength") == weakest
    assert page.input_value("#friend-clock") == "10+5"
    page.click("#play-computer")
    page.wait_for_function(
        "() => BoardPage.state.game && BoardPage.state.game.ply === 1"
    )
    game = page.evaluate("BoardPage.state.game")
    assert game["game"] == "loa" and game["players"]["black"]["kind"] == "ai"


def test_switching_language_in_new_game_keeps_the_dialog_and_its_choices(new_page):
    """Over a game, the dialog comes back in the other language as it was
    (it was gone, the game on the board)."""
    page = new_page(locale="en-US", viewport=DESKTOP)
    open_board(page)
    new_renju_swap2_chosen(page)
    switch_in_the_dialog(page)
    assert page.input_value("#start-game") == "gomoku"
    assert page.input_value("#gomoku-rule") == "renju"
    assert page.input_value("#gomoku-opening") == "swap2"
    assert page.locator("#start-swap2-note").is_visible()
    assert page.locator("#start-cancel").is_visible()  # back to the game
    page.reload()  # once: a later load opens no dialog
    page.wait_for_function("() => BoardPage.state.game !== null")
    page.wait_for_timeout(300)
    assert page.locator("#start-dialog").is_hidden()


#: The header buttons whose label text runs over more than one line.
WRAPPED_LABELS = """() => [...document.querySelectorAll('header .btn')].filter(button =>
  [...button.childNodes].some(node => {
    if (node.nodeType !== Node.TEXT_NODE || !node.textContent.trim()) return false;
    const range = document.createRange();
    range.selectNodeContents(node);
    return range.getClientRects().length > 1;
  })).map(button => button.textContent.trim())"""


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_narrow_window_keeps_each_header_label_on_one_line(new_page, locale):
    # A window as narrow as a phone, with a keyboard (so the Keys button
    # shows too): the labels once wrapped a character a line (中文, 声音).
    page = new_page(locale=locale, viewport=PHONE)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    assert page.locator("#help").is_visible()
    assert page.evaluate(WRAPPED_LABELS) == []


def test_a_chinese_screen_reader_hears_chinese_commas(new_page):
    # "d3, 空, 可下" and "已拿起 b1：可走到 b3, d3, h1": English commas.
    page = open_chinese(new_page, "desktop")
    two_players(page)
    wait_idle(page)
    label = page.get_attribute('#board [data-square="d3"]', "aria-label")
    assert label == "d3，空，可下"
    select_game(page, "loa")
    page.focus('#board [data-square="b1"]')
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => $('#announce').text() === '已拿起 b1：可走到 b3、d3、h1'"
    )


def test_each_row_new_game_offers_is_named_in_words(page):
    """Gomoku QA: the side panel read "7×7, 3 in a row" for a game that ended
    "Black wins: three in a row"; each row New game offers is in words."""
    open_board(page)
    named = page.evaluate(
        """async () => {
        const main = document.querySelector('script[src*="board/main"]').src;
        const controls = await import(main.replace("main.js", "controls.js"));
        return [3, 4, 5, 6, 7, 8].map((row) => controls.optionsText(
            {game: "gomoku", options: {size: 9, row: row}}));
    }"""
    )
    assert named == [
        "9×9, three in a row",
        "9×9, four in a row",
        "9×9, five in a row",
        "9×9, six in a row",
        "9×9, seven in a row",
        "9×9, 8 in a row",  # only an imported record's
    ]


def test_every_winning_line_is_named_in_chinese(new_page):
    # A freestyle overline ends "six in a row" ... "nine in a row", and a
    # Gomoku of row 10 or more "12 in a row": each in the page's language.
    page = open_chinese(new_page, "desktop")
    said = page.evaluate(
        """async () => {
        const main = document.querySelector('script[src*="board/main"]').src;
        const state = await import(main.replace("main.js", "state.js"));
        return ["six in a row", "nine in a row", "12 in a row"].map((reason) =>
            state.resultText({winner: "black", reason: reason}));
    }"""
    )
    assert said == ["黑方胜：六子连线", "黑方胜：九子连线", "黑方胜：12 子连线"]


def test_after_a_switch_in_new_game_back_closes_it_then_goes_to_the_game_before(
    new_page,
):
    # Phone QA: after 中文 in New game, Back closed the dialog, then two Back
    # presses did nothing before the game before came.
    page = new_page(locale="en-US", viewport=DESKTOP)
    open_board(page)
    start_game(page, "reversi")
    start_game(page, "gomoku")
    second = game_json(page)["id"]
    new_game_dialog(page)
    switch_in_the_dialog(page)
    page.go_back()
    page.wait_for_selector("#start-dialog", state="hidden")
    assert game_json(page)["id"] == second
    page.go_back()
    page.wait_for_function(
        "id => window.BoardPage && BoardPage.state.game"
        " && BoardPage.state.game.id !== id",
        arg=second,
        timeout=5000,
    )

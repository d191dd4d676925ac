"""A player on the keyboard alone: a dialog gives the focus back where it was
(to the board once it starts a game), Escape closes the new-game dialog when
a game is on the board and puts down a picked piece, and the explorer keeps
the focus in its card when it is drawn again, and the move list is one tab
stop that keeps the focus as the arrows step through it. With a screen reader: a
Reversi move is told with the discs it turned and the score, and a live
region is written only when its words change."""

from __future__ import annotations

import re

import pytest

from mcts.games import find_game

from .helpers import (
    AI_TIMEOUT,
    LOADED,
    open_board,
    open_imported,
    play_moves,
    select_game,
    set_ai,
    start_game,
    wait_idle,
    wait_plies,
)

#: The focused element: its square on the board, else its id ("body": none).
ACTIVE = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    return el.dataset.square || el.id || el.className;
}"""


def active(page) -> str:
    return page.evaluate(ACTIVE)


def shown(page, dialog: str) -> None:
    """Wait until ``dialog`` is open and has the focus (after its fade-in)."""
    page.wait_for_selector(f"#{dialog}.show")
    page.wait_for_function(
        "d => document.getElementById(d).contains(document.activeElement)", arg=dialog
    )


def closed(page, dialog: str) -> None:
    """Wait until ``dialog`` has closed: its backdrop goes just before the
    dialog's hidden event, in which the page places the focus."""
    page.wait_for_selector(f"#{dialog}", state="hidden")
    page.wait_for_function("() => !document.querySelector('.modal-backdrop')")


def test_dialogs_give_the_focus_back_where_it_was(page):
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    # A first visit's dialog stays on Escape, and so does the focus
    # (keyboard QA: it went to the dialog's box, the place lost).
    page.focus("#play-computer")
    page.keyboard.press("Escape")
    page.wait_for_timeout(400)  # the dialog's shake is over
    assert page.locator("#start-dialog.show").count() == 1
    assert active(page) == "play-computer"
    page.focus("#two-players")
    page.keyboard.press("Enter")
    page.wait_for_selector("#start-dialog", state="hidden")
    wait_idle(page)
    # The new game's board has the focus, not the top of the page.
    assert page.evaluate("() => document.activeElement.closest('#board') !== null")
    page.focus('#board [data-square="d3"]')
    open_and_escape(page, "?", "help-dialog")
    assert active(page) == "d3"
    # The new-game dialog closes on Escape when there is a game to keep.
    open_and_escape(page, "n", "start-dialog")
    assert active(page) == "d3"
    page.focus("#rules")
    open_and_escape(page, "Enter", "rules-dialog")
    assert active(page) == "rules"
    # The rules opened from the new-game dialog go back to it, at How to
    # play (keyboard walk: at its first control).
    page.keyboard.press("n")
    shown(page, "start-dialog")
    page.focus("#start-rules")
    page.keyboard.press("Enter")
    shown(page, "rules-dialog")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog", state="hidden")
    shown(page, "start-dialog")
    page.wait_for_function(
        "() => document.activeElement.id === 'start-rules'", timeout=3000
    )


def open_and_escape(page, key: str, dialog: str) -> None:
    """Open ``dialog`` by ``key``, then close it with Escape."""
    page.keyboard.press(key)
    shown(page, dialog)
    page.keyboard.press("Escape")
    closed(page, dialog)


def test_escape_puts_down_a_picked_piece(page):
    open_board(page)
    select_game(page, "loa")
    page.focus('#board [data-square="b1"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => BoardPage.state.selected === 'b1'")
    assert page.locator("#board .cell.target").count() > 0
    # Heard, not only seen: where it can go (the destinations were only in
    # other squares' labels), and that it is put down.
    page.wait_for_function(
        "() => $('#announce').text() === 'b1 picked up: it can go to b3, d3, h1'"
    )
    # A keyboard's words, not a mouse's (keyboard QA: "now click").
    assert page.inner_text("#flash") == (
        "b1: now go to an orange dot with the arrow keys, and press Enter."
    )
    # Shown, not said too: the picked piece's words say where it can go
    # (keyboard walk: heard twice, and "orange dot" means nothing unseen).
    assert page.get_attribute("#flash", "aria-live") == "off"
    page.keyboard.press("Escape")
    page.wait_for_function("() => BoardPage.state.selected === null")
    assert page.locator("#board .cell.target").count() == 0
    assert active(page) == "b1"
    page.wait_for_function("() => $('#announce').text() === 'b1 put down'")
    # A move is heard in words: "c1xa3" was spelt out letter by letter.
    page.focus('#board [data-square="c1"]')
    page.keyboard.press("Enter")
    page.focus('#board [data-square="a3"]')
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => $('#announce').text() === 'Black played c1 to a3, capturing'"
    )
    # Then the mouse, on the square the keys left the focus on: its words
    # (verification QA: it read the keys').
    page.focus('#board [data-square="h2"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => BoardPage.state.selected === 'h2'")
    page.keyboard.press("Escape")
    page.wait_for_function("() => BoardPage.state.selected === null")
    page.click('#board [data-square="h2"]')
    assert page.inner_text("#flash") == "h2: now click an orange dot to move it there."


def test_the_explorer_keeps_the_focus_in_its_card(page):
    open_board(page)
    page.click("#explore")
    page.wait_for_selector("#explorer-moves .explorer-move")
    page.focus("#explorer-moves .explorer-move")
    page.keyboard.press("Enter")  # steps in: the table is drawn anew
    page.wait_for_selector("#explorer-back", state="visible")
    page.wait_for_selector("#explorer-moves .explorer-move")
    assert page.evaluate(
        "() => document.getElementById('explorer').contains(document.activeElement)"
    )
    page.focus("#explorer-back")
    page.keyboard.press("Enter")  # back at the root, the button hides
    page.wait_for_selector("#explorer-back", state="hidden")
    assert active(page) == "explorer-line"


def test_a_reversi_move_is_heard_with_the_discs_it_turned_and_the_score(page):
    open_board(page)
    page.evaluate(
        """() => {
        window.changes = {status: 0, options: 0};
        const watch = (id, key) => new MutationObserver(() => changes[key]++)
            .observe(document.getElementById(id),
                     {childList: true, characterData: true, subtree: true});
        watch("status", "status");
        watch("game-options", "options");
    }"""
    )
    page.click('#board [data-square="f5"]')
    wait_plies(page, 1)
    wait_idle(page)
    page.wait_for_function("() => $('#announce').text() !== ''")
    assert page.inner_text("#announce") == (
        "Black played f5, turning 1 disc. Black 4, White 1"
    )
    assert page.text_content("#counts").split() == [
        "Black",
        "discs:4",
        "White",
        "discs:1",
    ]
    changes = page.evaluate("() => changes")
    # Black to move -> White to move, once; the options line never.
    assert changes == {"status": 1, "options": 0}, changes


def test_a_reversi_game_s_last_move_is_heard_with_the_discs_it_turned(page):
    # Keyboard QA: every move was heard with the discs it turned but the
    # last ("White played g4"); its score is the result's, said once.
    open_imported(page, "reversi", "d3c3b3e3f5a3c4e6f4")
    page.click('#board [data-square="g4"]')  # White takes the last disc
    page.wait_for_function("() => BoardPage.state.game.status === 'finished'")
    page.wait_for_function("() => $('#announce').text() !== ''")
    assert re.fullmatch(
        r"White played g4, turning \d+ discs?", page.inner_text("#announce")
    )


def test_the_move_list_is_one_tab_stop_that_keeps_the_focus(page):
    open_board(page)
    for square in ("f5", "f6", "e6", "f4"):
        page.click(f'#board [data-square="{square}"]')
        wait_idle(page)
    wait_plies(page, 4)
    stops = "() => $('#move-list [data-ply]').filter((_, b) => b.tabIndex === 0)"
    # One stop, on the newest move (four moves were four stops).
    assert page.evaluate(stops + ".map((_, b) => b.dataset.ply).get()") == ["4"]
    current = "() => $('#move-list [aria-current]').map((_, b) => b.dataset.ply).get()"
    assert page.evaluate(current) == ["4"]  # the move on the board, told
    page.focus('#move-list [data-ply="4"]')
    page.keyboard.press("ArrowLeft")  # the list is drawn anew, viewing move 3
    page.wait_for_function("() => BoardPage.state.viewPly === 3")
    assert page.evaluate("() => document.activeElement.dataset.ply") == "3"
    assert page.evaluate(current) == ["3"]
    # Up and down step too, as the list's name says the arrows do.
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => BoardPage.state.viewPly === 2")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => BoardPage.state.viewPly === 3")
    page.keyboard.press("Home")  # the start: the first move keeps the focus
    page.wait_for_function("() => BoardPage.state.viewPly === 0")
    assert page.evaluate("() => document.activeElement.dataset.ply") == "1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # the focused move 1, shown
    page.wait_for_function("() => BoardPage.state.viewPly === 1")
    assert page.evaluate("() => document.activeElement.dataset.ply") == "1"
    assert page.evaluate(stops + ".length") == 1


def test_home_and_end_on_the_board_move_along_it_not_through_the_game(page):
    # The ARIA grid's keys: Home and End go to the row's ends, with Ctrl to
    # the board's corners. They stepped to the game's first position, and a
    # player moving along a row found the board turned back to move 0.
    open_board(page)
    page.click('#board [data-square="f5"]')
    wait_plies(page, 1)
    wait_idle(page)
    page.keyboard.press("Tab")  # from here on the keyboard alone
    page.focus('#board [data-square="d3"]')
    page.keyboard.press("End")
    assert active(page) == "h3"
    page.keyboard.press("Home")
    assert active(page) == "a3"
    page.keyboard.press("Control+End")
    assert active(page) == "h8"
    page.keyboard.press("Control+Home")
    assert active(page) == "a1"
    assert page.evaluate("() => BoardPage.state.viewPly") is None
    page.focus("#move-list [data-ply='1']")
    page.keyboard.press("Home")  # off the board: the game's first position
    page.wait_for_function("() => BoardPage.state.viewPly === 0")


def test_after_a_click_on_the_board_the_arrows_step_through_the_game(page):
    # The grid's keys are for a keyboard player's focus: after a click (a
    # move played) the arrows moved a frame over the cells instead, and End,
    # which the page names as the way back, went to the row's end.
    open_board(page)
    page.click('#board [data-square="f5"]')
    wait_plies(page, 1)
    wait_idle(page)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => BoardPage.state.viewPly === 0")
    assert active(page) == "body"  # no frame left over the cells
    page.keyboard.press("End")
    page.wait_for_function("() => BoardPage.state.viewPly === null")
    # A keyboard player's focus keeps the grid's keys.
    page.keyboard.press("Tab")
    page.focus('#board [data-square="f5"]')
    page.keyboard.press("ArrowRight")
    assert active(page) == "g5"


def test_the_focus_stays_on_a_control_when_its_button_goes(page):
    """A keyboard player's focus fell to the page's body when the button
    pressed went off or away: the step buttons at either end of the game,
    Back to the game, a mistake of the analysis (the chart's line of the
    same move was taken for its twin), Invite a friend in Share."""
    open_board(page)
    play_moves(page, 3)

    def focused() -> str:
        return page.evaluate(
            "() => document.activeElement.id || document.activeElement.className"
        )

    page.focus("#step-back")
    for _ in range(3):
        page.keyboard.press("Enter")
    assert page.inner_text("#status") == "The starting position"
    assert focused() == "step-forward"  # the nearest one that still leads on
    page.focus("#step-last")
    page.keyboard.press("Enter")
    assert focused() == "step-back"
    page.click('#move-list [data-ply="1"]')
    page.focus("#back-to-game")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.closest('#board') !== null")
    page.click("#share")
    page.wait_for_selector("#share-dialog.show")
    page.focus("#share-create")
    page.keyboard.press("Enter")
    page.wait_for_selector("#share-links", state="visible")
    assert focused() == "invite-link"


def test_a_mistake_looked_at_keeps_the_focus(page):
    """Enter on a mistake of the analysis dropped the focus: the chart's
    line of the same move, found first, was taken for the redrawn button."""
    open_board(page)
    start_game(page, "gomoku", size=7, row=4)
    for count, square in enumerate(["a1", "a2", "b1", "b2", "c1", "c2", "d1"], 1):
        wait_idle(page)
        page.click(f'#board [data-square="{square}"]')
        wait_plies(page, count)
    page.wait_for_selector("#end-dialog.show")
    page.click("#analyse")
    page.wait_for_function("() => !BoardPage.state.review.running", timeout=AI_TIMEOUT)
    link = page.locator("#mistakes .mistake-link").first
    ply = link.get_attribute("data-ply")
    link.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => BoardPage.state.viewPly") == int(ply)
    assert (
        page.evaluate(
            "() => document.activeElement.classList.contains('mistake-link')"
            " && document.activeElement.dataset.ply"
        )
        == ply
    )


def test_h_says_why_no_hint_comes(page):
    """The h key, when no hint could be asked (a move looked at, the game
    over, a watcher's page), did nothing and said nothing; a click on the
    board says why it plays nothing, and so does h now."""
    open_board(page)
    play_moves(page, 2)
    page.click('#move-list [data-ply="1"]')
    page.keyboard.press("h")
    assert page.inner_text("#flash").startswith(
        "You are looking at an earlier position"
    )
    assert page.evaluate("() => BoardPage.state.analysis") is None


def test_a_square_says_legal_where_not_every_empty_one_is(page):
    # Gomoku's 225 empty points each said "empty, legal".
    open_board(page)
    select_game(page, "reversi")
    label = '#board [data-square="{}"]'
    assert page.get_attribute(label.format("d3"), "aria-label") == "d3, empty, legal"
    assert page.get_attribute(label.format("a1"), "aria-label") == "a1, empty"
    select_game(page, "gomoku")
    assert page.get_attribute(label.format("h8"), "aria-label") == "h8, empty"


def test_the_game_selector_chooses_with_the_arrows_and_offers_with_enter(page):
    # An arrow on the closed selector changed the game at once, and the
    # new-game dialog opened over the keyboard's next press.
    open_board(page)
    page.focus("#game-select")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#game-select") == "gomoku"
    page.wait_for_timeout(300)
    assert page.locator("#start-dialog.show").count() == 0
    page.keyboard.press("ArrowDown")  # on to the next: still only chosen
    assert page.input_value("#game-select") == "loa"
    page.keyboard.press("Enter")
    shown(page, "start-dialog")
    assert page.input_value("#start-game") == "loa"
    page.keyboard.press("Escape")  # the game on the board stays
    closed(page, "start-dialog")
    assert page.input_value("#game-select") == "reversi"
    # Chosen and left, or chosen and Escape: the game on the board is shown
    # again. A game's first letter or Page Down only chooses too.
    for key, leave in (("ArrowDown", "Tab"), ("g", "Escape"), ("PageDown", "Tab")):
        page.focus("#game-select")
        page.keyboard.press(key)
        assert page.input_value("#game-select") != "reversi", key
        page.wait_for_timeout(200)
        assert page.locator("#start-dialog.show").count() == 0, key
        page.keyboard.press(leave)
        assert page.input_value("#game-select") == "reversi", key


def test_after_stop_the_focus_is_on_the_board(page):
    # Stop goes with the search it ends, and the focus fell to New game:
    # the player's next step is a move.
    open_board(page)
    page.select_option("#strength-white", "time:5")
    page.click("#white-ai")
    page.wait_for_function("() => BoardPage.state.game.players.white.kind === 'ai'")
    page.focus('#board [data-square="d3"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => BoardPage.state.thinking")
    page.focus("#stop")
    page.keyboard.press("Enter")
    wait_idle(page)
    assert page.evaluate("() => BoardPage.state.game.ply") == 2
    assert page.evaluate("() => document.activeElement.closest('#board') !== null")


def test_the_board_keeps_its_tab_stop_while_the_focus_is_elsewhere(page):
    # Tabbed out after a move, the computer's move redrew the board and its
    # tab stop went to the first square: Tab back in landed in the corner.
    open_board(page)
    set_ai(page, "white", True, "time:0.1")
    page.focus('#board [data-square="d3"]')
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#board') === null")
    wait_plies(page, 2)
    wait_idle(page)
    page.keyboard.press("Shift+Tab")
    assert active(page) == "d3"


def test_the_focused_move_shows_its_ring_clear_of_its_fill_in_the_dark(new_page):
    # The browser's light ring lay right against the current move's pale
    # yellow: focused and not looked the same.
    page = new_page(color_scheme="dark")
    open_board(page)
    page.click('#board [data-square="f5"]')
    wait_plies(page, 1)
    wait_idle(page)
    page.focus('#move-list [data-ply="1"]')
    page.keyboard.press("End")  # from the keyboard: the ring shows
    ring = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
        const card = getComputedStyle(document.activeElement.closest('.card'));
        return [s.outlineStyle, s.outlineColor, s.boxShadow,
                getComputedStyle(document.body).color, card.backgroundColor]; }"""
    )
    style, colour, shadow, text, card = ring
    # In the text's colour, parted from the fill by a line of the card's.
    assert style == "solid" and colour == text, ring
    assert shadow.startswith(card) and "inset" in shadow, ring


def test_the_keys_of_one_character_can_be_switched_off(page):
    # WCAG 2.1.4: speech input types letters, and "u" took a move back.
    open_board(page)
    page.click('#board [data-square="f5"]')
    wait_plies(page, 1)
    wait_idle(page)
    page.keyboard.press("?")
    shown(page, "help-dialog")
    page.click("#character-keys")  # off
    page.keyboard.press("Escape")
    closed(page, "help-dialog")
    page.reload()  # and kept
    wait_idle(page)
    page.focus("#flip")
    for key in ("u", "f", "n", "?"):
        page.keyboard.press(key)
    page.wait_for_timeout(300)
    assert page.evaluate("() => BoardPage.state.game.ply") == 1
    assert page.locator(".modal.show").count() == 0
    assert not page.evaluate("() => BoardPage.state.flipped")
    page.keyboard.press("ArrowLeft")  # the arrows are no characters: they work
    page.wait_for_function("() => BoardPage.state.viewPly === 0")


def test_u_says_why_no_move_is_taken_back(page):
    """The u key, when Undo is off (the computer played the only move),
    sent the undo anyway and showed the server's refusal (a 400 in the
    console); it says the button's reason now, asking nothing."""
    open_board(page)
    set_ai(page, "black", True)
    wait_plies(page, 1)
    wait_idle(page)
    assert page.is_disabled("#undo")
    undos = []
    page.on("request", lambda r: "/undo/" in r.url and undos.append(r.url))
    page.keyboard.press("u")
    page.wait_for_function("() => document.querySelector('#flash').innerText")
    assert page.inner_text("#flash").startswith(
        "None of your moves can be taken back yet"
    )
    assert undos == []


def test_back_to_the_game_takes_down_the_word_about_the_earlier_position(page):
    # Phone QA: back at the game, "You are looking at an earlier position"
    # stayed under the board, in red, beside "Your move".
    open_board(page)
    play_moves(page, 2)
    page.click('#move-list [data-ply="1"]')
    page.keyboard.press("h")
    assert page.inner_text("#flash").startswith("You are looking at an earlier")
    page.click("#back-to-game")
    assert page.inner_text("#flash") == ""


def test_import_keeps_the_keyboards_focus(page):
    # Keyboard QA: the button greyed while the import ran, and the browser
    # took the focus from it to the page.
    open_board(page)
    page.fill("#record", "f5 d6 c3")
    page.focus("#import-record")
    page.keyboard.press("Enter")
    page.wait_for_function("() => BoardPage.state.game.ply === 3")
    wait_idle(page)
    assert page.evaluate("() => document.activeElement.id") == "import-record"


def test_a_new_game_s_board_is_entered_at_its_centre(page):
    # Keyboard QA: a 9x9 Gomoku board after Reversi was entered at h8, the
    # last Reversi move's square, near its edge: a blind player had no
    # reason to expect it. A new game starts at the centre (where Gomoku's
    # first stone goes), a game with moves at its last move.
    open_board(page)
    page.focus('#board [data-square="f5"]')
    page.keyboard.press("Enter")
    page.wait_for_function("() => BoardPage.state.game.ply === 1")
    select_game(page, "gomoku")
    page.wait_for_function("() => BoardPage.state.game.board.size === 15")
    stop = page.locator('#board .cell[tabindex="0"]')
    assert stop.get_attribute("data-square") == "h8"
    open_imported(page, "loa", "c1xa3")
    assert stop.get_attribute("data-square") == "a3"


def test_the_keyboard_s_focus_in_a_dialog_is_a_ring_in_the_text_s_colour(page):
    # Keyboard QA: Bootstrap's pale glow on a select was hard to see on
    # white, and the chosen colour button's faint grey halo on dark.
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    rings = {}
    for _ in range(8):
        page.keyboard.press("Tab")
        ring = page.evaluate(
            """() => { const e = document.activeElement;
            const shown = e.classList.contains('btn-check') ? e.nextElementSibling : e;
            const s = getComputedStyle(shown);
            return [e.id, s.outlineStyle, s.outlineWidth, s.outlineColor,
                    getComputedStyle(document.body).color]; }"""
        )
        rings[ring[0]] = ring[1:]
    for control in ("start-game", "you-black"):
        style, width, colour, text = rings[control]
        assert (style, width, colour) == ("solid", "2px", text), control


@pytest.mark.parametrize(
    ("button", "dialog"), [("#help", "help-dialog"), ("#rules", "rules-dialog")]
)
def test_a_long_dialog_scrolls_by_keyboard(page, button, dialog):
    # Keyboard QA: the Keys dialog hid its last lines under its edge, and
    # its only stop, Close, does not scroll it; PageDown did nothing.
    page.set_viewport_size({"width": 1280, "height": 500})
    open_board(page)
    page.focus(button)
    page.keyboard.press("Enter")
    shown(page, dialog)
    body = f"#{dialog} .modal-body"
    assert page.locator(body).evaluate("b => b.scrollHeight > b.clientHeight")
    for _ in range(12):
        if page.evaluate(
            f"() => document.activeElement === document.querySelector('{body}')"
        ):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("the dialog's text is not a keyboard stop")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.querySelector('{body}').scrollTop > 0")


def test_home_in_a_long_move_list_shows_and_names_the_start(page):
    # Keyboard walk: after a whole game, Home left the focused first move
    # scrolled out of the list, and it read "move 1, black f5" over the
    # starting position.
    game = find_game("reversi")
    state, moves = game.initial_state(), []
    while len(moves) < 40 and not game.is_terminal(state):
        move = game.legal_moves(state)[len(moves) % 3 % len(game.legal_moves(state))]
        moves.append(game.format_move(state, move))
        state = game.apply(state, move)
    open_imported(page, "reversi", " ".join(moves))
    last = page.locator("#move-list [data-ply]").last
    last.focus()
    assert page.evaluate("() => document.getElementById('move-list').scrollTop") > 0
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.getElementById('move-list').scrollTop === 0", timeout=2000
    )
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused == f"the starting position; next: move 1, Black {moves[0]}"
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused == f"move 1, Black {moves[0]}"

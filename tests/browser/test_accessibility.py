"""An accessibility check in both colour schemes (issue 65, point 5): axe-core
finds no serious or critical violation on the board page, the first-minute
dialog or the rules, light or dark."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP
from .helpers import (
    AI_TIMEOUT,
    LOADED,
    open_board,
    open_imported,
    serious,
    set_ai,
    start_game,
    two_players,
)
from .test_play_a_friend import click, invite_a_friend


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation(new_page, scheme):
    page = new_page(viewport=DESKTOP, color_scheme=scheme)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    assert serious(page) == [], "the first-minute dialog"
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    assert serious(page) == [], "the board page"
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    page.wait_for_timeout(500)  # its fade-in over: colours at full strength
    assert serious(page) == [], "the rules"


def black_wins_on_a_small_board(page) -> None:
    """Black wins a Gomoku game of four in a row on 7x7 between two players,
    ending with d1."""
    open_board(page)
    start_game(page, "gomoku", size=7, row=4)
    play_black_win(page)


def play_black_win(page) -> None:
    """Black wins the 7x7 Gomoku game of four in a row on show, ending with d1."""
    for count, square in enumerate(["a1", "a2", "b1", "b2", "c1", "c2", "d1"], 1):
        page.wait_for_function("() => !BoardPage.state.busy")
        page.click(f'#board [data-square="{square}"]')
        page.wait_for_function("n => BoardPage.state.game.ply === n", arg=count)


def test_the_result_and_the_explorer_are_said_once(page):
    """A screen reader reads out every write to a live region, even of the
    same words: the result (a second alert beside the status) and the
    explorer's line were written again at every redraw, five times for five
    steps back through the game."""
    black_wins_on_a_small_board(page)
    assert page.get_attribute("#result", "role") is None  # the status says it
    page.wait_for_selector("#result:not([hidden])")
    page.keyboard.press("Escape")  # the end card
    page.evaluate(
        """() => {
          window.writes = [];
          for (const id of ['result', 'explorer-line', 'rematch']) {
            new MutationObserver(() => window.writes.push(id)).observe(
              document.getElementById(id),
              {childList: true, characterData: true, subtree: true});
          }
        }"""
    )
    for _ in range(3):
        page.click("#step-back")
    page.click("#step-last")
    assert page.evaluate("() => window.writes") == []
    page.click("#explore")
    page.wait_for_function(
        "() => BoardPage.state.explore && BoardPage.state.explore.data"
    )
    page.evaluate("() => { window.writes = []; }")
    page.click("#flip")
    page.click("#flip")
    assert page.evaluate("() => window.writes") == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation_while_playing_a_friend_and_looking_back(new_page, scheme):
    """Colours the empty page does not show: a friend's game with a running
    clock and Resign (#0d6efd and Bootstrap's red read at 4.1:1 and 3.9:1
    on the warm page, the clock at 4.0:1 on the dark one), and Back to the
    game while a move is looked at, and the chat's lines, one's own and the
    friend's."""
    a, b = (new_page(viewport=DESKTOP, color_scheme=scheme) for _ in range(2))
    invite, _ = invite_a_friend(a, "5+3")
    a.locator("#share-dialog .btn-close").click()
    b.goto(invite)
    b.wait_for_function("() => BoardPage.state.seat !== null")
    for tab, square, ply in ((a, "h8", 1), (b, "h9", 2)):
        tab.wait_for_function("n => BoardPage.state.game.ply === n - 1", arg=ply)
        click(tab, square)
    a.wait_for_function("() => (BoardPage.state.game.clock || {}).running === 'black'")
    a.fill("#chat-text", "Nice move")
    a.press("#chat-text", "Enter")
    # B answers once A's line shows: the first line opens B's list of lines
    # and moves the presets down, under a click on its way.
    b.wait_for_function("() => $('#chat-lines li.theirs').length === 1")
    b.locator('#chat [data-preset="hello"]').click()
    a.wait_for_function("() => $('#chat-lines li').length === 2")
    assert a.locator("#resign").is_enabled()
    assert serious(a) == []
    a.click('#move-list [data-ply="1"]')
    assert a.locator("#back-to-game").is_visible()
    assert serious(a) == []


#: The contrast of a focused square's ring against the square's colour
#: (WCAG's 3:1 for what shows the focus).
RING_CONTRAST = """(cell) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let el = cell, bg = getComputedStyle(el).backgroundColor;
  while (rgb(bg).length === 4 && rgb(bg)[3] === 0) {
    el = el.parentElement; bg = getComputedStyle(el).backgroundColor;
  }
  const [a, b] = [lum(rgb(getComputedStyle(cell).outlineColor)), lum(rgb(bg))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("game", ["reversi", "gomoku", "loa"])
def test_the_keyboards_square_shows_on_every_board(new_page, game):
    """The focus ring of a square read at 1.1:1 on Reversi's green, and
    about 1.4:1 on Lines of Action's dark squares."""
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, game)
    page.wait_for_function("g => (BoardPage.state.game || {}).game === g", arg=game)
    page.focus("#new-game")
    page.keyboard.press("Shift+Tab")  # back into the board, by the keyboard
    cells = page.locator("#board .cell")
    for index in (0, 1):  # Lines of Action: a light and a dark square
        page.evaluate(
            "i => document.querySelectorAll('#board .cell')[i].focus()", index
        )
        cell = cells.nth(index)
        assert cell.evaluate("c => c.matches(':focus-visible')")
        assert cell.evaluate(RING_CONTRAST) >= 3


def test_a_screen_readers_headings_reach_the_board_and_who_plays(page):
    # Jumping by heading went from the page's name to "Game analysis",
    # past the board and the AI switches.
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    headings = page.evaluate(
        "() => [...document.querySelectorAll('h1, h2, h3')]"
        ".filter(h => !h.closest('.modal, .toast, [hidden]'))"
        ".map(h => h.textContent.trim())"
    )
    assert headings[:4] == ["Board games", "Board", "Who plays", "Game analysis"]


#: The WCAG contrast of a marker drawn on a square: the `part` of `square`'s
#: ::before or ::after (its background or box-shadow colours, each laid over
#: the square as it is drawn; the best of them) against the square's colour
#: (the board's, under a see-through square).
MARKER_CONTRAST = """([square, pseudo, part]) => {
    const cell = document.querySelector(`#board [data-square="${square}"]`);
    const rgba = (text) => text.split(",").map(Number);
    const colours = (text) => [...text.matchAll(/rgba?\\(([^)]*)\\)/g)]
        .map((m) => rgba(m[1]));
    let under = [0, 0, 0, 0];
    for (let el = cell; el && under[3] === 0; el = el.parentElement) {
        under = colours(getComputedStyle(el).backgroundColor)[0];
        if (under.length === 3) under.push(1);
    }
    const lum = (c) => c.slice(0, 3).map((v) => v / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = ([r, g, b, a = 1]) => {
        const over = [r, g, b].map((v, i) => a * v + (1 - a) * under[i]);
        const [hi, lo] = [lum(over), lum(under)].sort((x, y) => y - x);
        return (hi + 0.05) / (lo + 0.05);
    };
    return Math.max(0, ...colours(getComputedStyle(cell, pseudo)[part]).map(ratio));
}"""


def test_the_boards_markers_stand_out_without_colour_vision(page):
    """WCAG's 3:1 for what a player must see: Reversi's legal dots were
    1.6:1 on the felt and its red last-move ring 1.1:1 (red on green); Lines
    of Action's orange destinations 1.2:1 on a dark square."""
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "reversi")
    page.wait_for_function(
        "() => (BoardPage.state.game || {}).legal_moves?.length === 4"
    )
    contrast = lambda *args: page.evaluate(MARKER_CONTRAST, list(args))  # noqa: E731
    assert contrast("d3", "::after", "backgroundColor") >= 3
    click(page, "d3")
    page.wait_for_function("() => BoardPage.state.game.ply === 1")
    assert contrast("d3", "::before", "boxShadow") >= 3
    page.click("#new-game")
    two_players(page, "loa")
    page.wait_for_function("() => BoardPage.state.game.game === 'loa'")
    page.click('#board [data-square="b8"]')  # to h8, b6 and d6: dark squares
    page.wait_for_selector('#board [data-square="b6"].target')
    for square in ("h8", "b6", "d6", "b8"):
        pseudo = "::after" if square != "b8" else ""
        assert contrast(square, pseudo, "boxShadow") >= 3, square


def test_the_end_of_a_game_is_said_once(page):
    # The status line, the move's announcement and the end card (a live
    # region too) each said who won.
    black_wins_on_a_small_board(page)
    page.wait_for_selector("#end-dialog.show")
    page.wait_for_function("() => /wins/.test($('#status-said').text())")
    live = page.evaluate(
        "() => [...document.querySelectorAll('[role=status], [role=alert],"
        " [aria-live]:not([aria-live=off])')].filter(e => e.offsetParent !== null"
        " || e.classList.contains('visually-hidden'))"
        ".filter(e => /wins/.test(e.textContent)).map(e => e.id)"
    )
    assert live == ["status-said"], live
    page.wait_for_function("() => $('#announce').text() !== ''")
    assert page.inner_text("#announce") == "Black played d1"


def test_a_player_hears_the_end_in_their_own_words(page):
    """Keyboard walk: the end was said by colour alone ("Black wins: four in
    a row"); a player who forgot their colour heard neither "You won" nor
    "You lost", which the end card says."""
    open_imported(page, "gomoku", '[size "7"] [row "4"] a1 a2 b1 b2 c1 c2')
    set_ai(page, "white", True, "level:1")
    page.wait_for_function("() => $('#status-said').text() === 'Your move (Black)'")
    page.click('#board [data-square="d1"]')
    page.wait_for_selector("#end-dialog.show")
    page.wait_for_function("() => $('#status-said').text() !== 'Your move (Black)'")
    page.wait_for_timeout(700)  # nothing more comes
    assert page.inner_text("#status-said") == "You won. Four in a row."
    assert page.inner_text("#status") == "Black wins: four in a row"


def test_the_status_is_said_once_it_settles(page):
    """Keyboard walk: each move against the computer made the status line,
    a live region, say "White (AI) to move", "White (AI) is thinking…" and
    "Your move (Black)" within 0.3 s, over the moves' own announcements; and
    the result came before the last move."""
    hear = """() => {
      const heard = Boolean(window.said);
      window.said = [];
      if (heard) return;
      for (const id of ['status-said', 'announce']) {
        const el = document.getElementById(id);
        const write = () => [id, el.textContent, Math.round(performance.now())];
        new MutationObserver(() => window.said.push(write())).observe(
          el, {childList: true, characterData: true, subtree: true});
      }
    }"""
    open_board(page)
    assert page.get_attribute("#status", "role") is None
    set_ai(page, "white", True, "level:1")
    page.wait_for_function("() => $('#status-said').text() === 'Your move (Black)'")
    page.evaluate(hear)
    page.click('#board [data-square="f5"]')
    page.wait_for_function("() => BoardPage.state.game.ply === 2", timeout=AI_TIMEOUT)
    page.wait_for_timeout(1000)
    said = page.evaluate("() => window.said")
    # The reply first, then whose move it is; what stood less than a moment
    # between them is not said (how long the computer took to start and to
    # think decides what stood so long).
    statuses = [(text, at) for region, text, at in said if region == "status-said"]
    reply = [at for region, text, at in said if text.startswith("White played")]
    assert reply, said
    # "Your move" again, or nothing: it was said before the move.
    for text, at in statuses[-1:]:
        assert text == "Your move (Black)" and at > reply[0], said
    settled = zip(statuses, statuses[1:], strict=False)
    assert all(b[1] - a[1] >= 550 for a, b in settled), said
    # An undo says which moves went (keyboard walk: "Move taken back").
    page.click("#undo")
    page.wait_for_function("() => BoardPage.state.game.ply === 0")
    page.wait_for_function(
        "() => /^f5, [a-h][1-8] taken back$/.test($('#announce').text())"
    )
    # The last move is said before the result.
    start_game(page, "gomoku", size=7, row=4)
    page.evaluate(hear)
    play_black_win(page)
    page.wait_for_function("() => $('#status-said').text().includes('wins')")
    said = page.evaluate("() => window.said")
    assert [(region, text) for region, text, _ in said[-2:]] == [
        ("announce", "Black played d1"),
        ("status-said", "Black wins: four in a row"),
    ], said


@pytest.mark.parametrize("game", ["reversi", "gomoku", "loa"])
def test_the_board_keeps_its_colours_in_forced_colours(page, game):
    # Zoom QA: with Windows' high contrast (forced colours) the board was a
    # blank square, and both sides' small discs beside the counts and the
    # clocks the same hollow ring.
    page.emulate_media(forced_colors="active")
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, game)
    page.wait_for_function("g => (BoardPage.state.game || {}).game === g", arg=game)
    if game == "gomoku":  # a stone on the board
        click(page, "h8")
        page.wait_for_function("() => BoardPage.state.game.ply === 1")
    style = "([s, p]) => getComputedStyle(document.querySelector(s))[p]"
    piece = "#board .piece.black"
    assert "gradient" in page.evaluate(style, [piece, "backgroundImage"])
    adjust = page.evaluate(style, ["#board", "forcedColorAdjust"])
    assert adjust == "none"
    # The hint's key keeps its swatches (verification QA: only words left).
    key = '<span class="layer-key"><span class="swatch" id="swatch"></span></span>'
    page.evaluate("k => document.body.insertAdjacentHTML('beforeend', k)", key)
    assert page.evaluate(style, ["#swatch", "forcedColorAdjust"]) == "none"
    black = page.evaluate(style, [".count-chip .piece-mini.black", "backgroundColor"])
    white = page.evaluate(style, [".count-chip .piece-mini.white", "backgroundColor"])
    assert black != white


def test_the_moves_clocks_and_presence_keep_their_marks_in_forced_colours(page):
    """Zoom QA: with Windows' high contrast the move list showed neither the
    last move nor the one looked at, a clock running low and the running
    clock looked as any other, and both presence dots were hollow rings:
    their backgrounds and shadows are forced away. In forced colours each
    keeps a mark of the system's colours."""
    marks = (
        '<ol class="move-list"><li><button class="ply" id="m-plain">1</button>'
        '<button class="ply current" id="m-last">2</button>'
        '<button class="ply viewed" id="m-viewed">3</button></li></ol>'
        '<span class="seat-chip" id="c-plain">'
        '<span class="clock-time">3:00</span></span>'
        '<span class="seat-chip to-move" id="c-running">'
        '<span class="clock-time running">2:00</span></span>'
        '<span class="seat-chip" id="c-low">'
        '<span class="clock-time low">0:09</span></span>'
        '<span class="presence-dot" id="p-off"></span>'
        '<span class="presence-dot on" id="p-on"></span>'
    )
    page.emulate_media(forced_colors="active")
    open_board(page)
    page.evaluate("m => document.body.insertAdjacentHTML('beforeend', m)", marks)

    def look(selector: str) -> tuple:
        """What shows of ``selector``: its background (the page's where it
        has none), its text's colour and its outline."""
        return tuple(
            page.evaluate(
                "s => { const c = getComputedStyle(document.querySelector(s));"
                " const clear = /^rgba\\(.*, 0\\)$/.test(c.backgroundColor);"
                " const ground = getComputedStyle(document.body).backgroundColor;"
                " return [clear ? ground : c.backgroundColor, c.color,"
                " c.outlineStyle === 'none' ? 'none'"
                " : c.outlineStyle + c.outlineColor]; }",
                selector,
            )
        )

    assert look("#m-last") != look("#m-plain")
    assert look("#m-viewed") not in (look("#m-plain"), look("#m-last"))
    assert look("#c-running") != look("#c-plain")
    assert look("#c-low") not in (look("#c-plain"), look("#c-running"))
    assert look("#p-on") != look("#p-off")
    # Unforced, their words are not drawn on the page's colour behind the
    # text: white on white, black on black in the highlight (verification QA).
    for filled in ("#m-viewed", "#c-low"):
        adjust = page.evaluate(
            "s => getComputedStyle(document.querySelector(s)).forcedColorAdjust",
            filled,
        )
        assert adjust == "none", filled


def test_the_last_move_in_lines_of_action_stands_out_without_colour_vision(page):
    """Zoom QA: a Lines of Action move was marked by a thin see-through red
    frame alone (1.4:1 on a dark square), lost to red-green colour
    blindness: a dark line inside it stands out 3:1 on either square."""
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    two_players(page, "loa")
    page.wait_for_function("() => (BoardPage.state.game || {}).game === 'loa'")
    contrast = lambda *args: page.evaluate(MARKER_CONTRAST, list(args))  # noqa: E731
    for ply, (start, end) in enumerate((("b8", "b6"), ("a2", "c2")), start=1):
        page.click(f'#board [data-square="{start}"]')
        page.click(f'#board [data-square="{end}"]')
        page.wait_for_function("n => BoardPage.state.game.ply === n", arg=ply)
        for square in (start, end):  # dark squares, then light ones
            assert contrast(square, "::before", "boxShadow") >= 3, square


def test_a_renju_forbidden_point_stands_out_without_colour_vision(page):
    """Zoom QA: renju's forbidden cross was small and 2.8:1 on the wood,
    olive on yellow to red-green colour blindness."""
    open_imported(page, "gomoku", '[rule "renju"] h8 a1 i8 a3 j9 a5 j10 a7')
    page.wait_for_selector('#board [data-square="j8"].forbidden')
    contrast = page.evaluate(MARKER_CONTRAST, ["j8", "::after", "backgroundImage"])
    assert contrast >= 4.5


def test_the_new_game_dialogs_fields_have_names_of_their_own(page):
    """Keyboard walk: the computer's and the friend's clocks were both
    "Time control" to a screen reader, which could not tell them apart."""
    open_board(page)
    page.click("#new-game")
    page.wait_for_selector("#start-dialog.show")
    names = page.evaluate(
        "() => [...document.querySelectorAll('#start-dialog select')]"
        ".map(s => (s.labels[0] || {}).textContent || s.getAttribute('aria-label'))"
    )
    assert all(names) and len(names) == len(set(names)), names

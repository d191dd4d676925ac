"""How to play (issue 65, point 1): each game's rules with a diagram drawn by
the board's own renderer, from the bar and from the first-minute dialog; a
first Lines of Action game says how pieces move."""

from __future__ import annotations

from mcts.games import find_game
from webgame import services

from .conftest import DESKTOP, PHONE_CONTEXT
from .helpers import LOADED, new_renju_swap2_chosen, open_board, select_game


def _forbidden_in(diagram) -> dict[str, str]:
    """The renju forbidden points of a 9x9 diagram's position, by the rules
    library, the diagram's stones set in the middle of a 15x15 board."""
    rows = diagram.evaluate(
        "d => [...d.querySelectorAll('.cell')].map(c =>"
        " c.querySelector('.piece.black') ? 'x'"
        " : c.querySelector('.piece.white') ? 'o' : '.')"
    )
    game = find_game("gomoku", rule="renju")
    state = game.initial_state()
    stones = {"x": [], "o": []}
    for index, stone in enumerate(rows):
        if stone != ".":
            # Row 0 is rank 9; shifted by three files and three ranks.
            file, rank = index % 9, 9 - index // 9
            stones[stone].append(f"{chr(ord('a') + file + 3)}{rank + 3}")
    assert len(stones["x"]) == len(stones["o"])  # black to move
    for black, white in zip(stones["x"], stones["o"], strict=True):
        state = game.apply(state, game.parse_move(state, black))
        state = game.apply(state, game.parse_move(state, white))
    return {
        f"{chr(ord(text[0]) - 3)}{int(text[1:]) - 3}": why
        for text, why in (
            (game.format_move(state, code), why)
            for code, why in game.forbidden_points(state).items()
        )
    }


def test_the_rules_of_each_game_with_their_diagrams(new_page):
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.select_option("#start-game", "gomoku")
    page.click("#start-rules")  # a new player asks before choosing
    page.wait_for_selector("#rules-dialog.show")
    assert page.locator("#rules-gomoku.active").is_visible()
    assert "row of five" in page.locator("#rules-gomoku").inner_text()
    # Named as the header's button that opens it (it said "How to play").
    assert page.inner_text("#rules-title") == page.inner_text("#rules") == "Rules"
    # Swap2 is Gomoku's tournament opening; renju's are others.
    assert (
        "Renju tournaments open by rules of their own"
        in page.locator("#rules-gomoku").inner_text()
    )
    # Each word a forbidden point is said in is defined (rules QA: "four"
    # and "open four" were used, never said).
    renju_text = page.locator("#rules-gomoku").inner_text()
    assert "A four is a line that one more stone turns into five" in renju_text
    assert "A three is a line that one more stone" in renju_text
    gomoku = page.locator('#rules-gomoku .rules-diagram[data-diagram="gomoku"]')
    # Its caption says what it shows, read once: the picture is not named by it.
    assert gomoku.get_attribute("aria-hidden") == "true"
    assert gomoku.get_attribute("aria-label") is None
    assert gomoku.locator(".cell").count() == 81
    assert gomoku.locator(".cell.winning .piece.black").count() == 5
    # Black moved first and last: one stone more than white (it had five).
    assert gomoku.locator(".piece.black").count() == 5
    assert gomoku.locator(".piece.white").count() == 4
    assert gomoku.locator(".cell.star").count() == 5  # as on a wooden board
    # Renju's three kinds of forbidden point, each crossed as on the board:
    # the rules library finds that one point in each position, for that
    # reason.
    for diagram, forbidden in (
        ("renju", {"e5": "double three"}),
        ("renju-four", {"e4": "double four"}),
        ("renju-overline", {"e5": "overline"}),
    ):
        renju = page.locator(f'#rules-gomoku .rules-diagram[data-diagram="{diagram}"]')
        assert renju.locator(".cell.forbidden").count() == 1
        assert _forbidden_in(renju) == forbidden
    page.click("#rules-tab-reversi")
    reversi = page.locator("#rules-reversi .rules-diagram")
    assert reversi.locator(".piece.black").count() == 4  # after f5
    assert reversi.locator(".cell.legal").count() == 3
    # How each game can end in a draw, as its rules module plays it.
    text = page.locator("#rules-reversi").inner_text()
    assert "equal counts are a draw" in text
    # Where the game starts, and a1 unlike the others (rules QA).
    assert "starts with four discs in the centre" in text
    assert "(in Gomoku and Lines of Action, the bottom left)" in text
    page.click("#rules-tab-loa")
    loa = page.locator("#rules-loa .rules-diagram")
    assert loa.locator(".piece").count() == 24
    assert loa.locator(".cell.target").count() == 3
    text = page.locator("#rules-loa").inner_text()
    assert "joins both sides' pieces at once is a draw" in text
    assert "cannot move passes" in text and "third time is a draw" in text
    assert "Black's pieces start on the top and bottom rows" in text
    assert "These are the Computer Olympiad's rules" in text
    page.locator("#rules-dialog .btn-close").click()
    page.wait_for_selector("#start-dialog.show")  # back to the first choice


#: The coordinates of each marked cell of a diagram, read from the labels
#: beside its row and under its column: "f5" for each cell.
SQUARES_AT_LABELS = """(d, marked) => {
  const labels = (kind) => [...d.querySelectorAll(kind + ' span')]
    .map((e) => [e.getBoundingClientRect(), e.innerText.trim()]);
  const files = labels('.file-labels'), ranks = labels('.rank-labels');
  return [...d.querySelectorAll(marked)].map((cell) => {
    const box = cell.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const file = files.find(([b]) => b.left <= x && x < b.right);
    const rank = ranks.find(([b]) => b.top <= y && y < b.bottom);
    return (file ? file[1] : '?') + (rank ? rank[1] : '?');
  });
}"""


def test_closing_the_rules_gives_the_focus_back_to_how_to_play(new_page):
    """Opened from the first-minute dialog and closed by Esc, the rules left
    the keyboard on the dialog itself, to Tab from its top again."""
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.focus("#start-rules")
    page.keyboard.press("Enter")
    page.wait_for_function(  # shown: the keyboard is in it
        "() => document.querySelector('#rules-dialog').contains(document.activeElement)"
    )
    page.keyboard.press("Escape")
    page.wait_for_selector("#rules-dialog", state="hidden")
    page.wait_for_function("() => document.activeElement.id === 'start-rules'")
    assert page.locator("#start-dialog.show").count() == 1


def test_the_rules_from_new_game_lead_back_to_its_choices(new_page):
    """With a game on the board, How to play in New game closed both: the
    player was back in the old game, the choices made (renju, Swap2) lost."""
    page = new_page(viewport=DESKTOP)
    open_board(page)
    new_renju_swap2_chosen(page)
    page.click("#start-rules")
    page.wait_for_selector("#rules-dialog.show")
    assert page.locator("#rules-gomoku.active").is_visible()
    page.wait_for_function(  # shown: the keyboard is in it
        "() => document.querySelector('#rules-dialog').contains(document.activeElement)"
    )
    page.keyboard.press("Escape")
    page.wait_for_selector("#start-dialog.show")
    assert page.input_value("#start-game") == "gomoku"
    assert page.input_value("#gomoku-rule") == "renju"
    assert page.input_value("#gomoku-opening") == "swap2"
    page.keyboard.press("Escape")  # and from there back to the game
    page.wait_for_selector("#start-dialog", state="hidden")
    assert page.evaluate("BoardPage.state.game.game") == "reversi"


def test_the_rules_diagrams_have_coordinates_for_their_captions(new_page):
    """Each diagram has the board's files and ranks around it, in the real
    board's orientation, and the squares its caption names sit at them."""
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.click("#start-rules")
    page.wait_for_selector("#rules-dialog.show")
    for tab, diagram, size, top_left, marked, squares in (
        ("reversi", "reversi", 8, "a1", ".cell.last-move", ["f5"]),
        ("gomoku", "gomoku", 9, "a9", ".cell.winning", ["c6", "d6", "e6", "f6", "g6"]),
        ("gomoku", "renju", 9, "a9", ".cell.forbidden", ["e5"]),
        ("gomoku", "renju-four", 9, "a9", ".cell.forbidden", ["e4"]),
        ("gomoku", "renju-overline", 9, "a9", ".cell.forbidden", ["e5"]),
        ("loa", "loa", 8, "a8", ".cell.selected", ["b1"]),
        ("loa", "loa", 8, "a8", ".cell.target", ["b3", "d3", "h1"]),
    ):
        page.click(f"#rules-tab-{tab}")
        figure = page.locator(f'#rules-{tab} .rules-diagram[data-diagram="{diagram}"]')
        figure.locator(".cell").first.wait_for()
        assert figure.locator(".file-labels span").count() == size, diagram
        assert figure.locator(".rank-labels span").count() == size, diagram
        assert figure.evaluate(SQUARES_AT_LABELS, ".cell")[0] == top_left, diagram
        assert sorted(figure.evaluate(SQUARES_AT_LABELS, marked)) == squares, diagram


def test_a_first_lines_of_action_game_says_how_pieces_move(new_page):
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.click("#two-players")
    page.wait_for_function("() => BoardPage.state.game !== null")
    select_game(page, "loa")
    assert "as many squares as there are pieces" in page.locator("#flash").inner_text()
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    assert page.locator("#rules-loa.active").is_visible()  # the game on show


def test_what_a_phone_is_told_to_do_needs_no_mouse(new_page):
    # A phone read "click one to see where it can go" and "click the chart".
    page = new_page(**PHONE_CONTEXT)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.click("#two-players")
    page.wait_for_function("() => BoardPage.state.game !== null")
    select_game(page, "loa")
    told = page.locator("#flash").inner_text()
    assert "as many squares as there are pieces" in told and "click" not in told
    caption = page.locator("#chart-caption").text_content()
    assert "chart" in caption and "click" not in caption


def test_on_a_phone_the_rules_tabs_stand_in_one_row(new_page):
    # At 360 and 390 px "Lines of Action" went to a second row of its own.
    page = new_page(**dict(PHONE_CONTEXT, viewport={"width": 360, "height": 740}))
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.locator("#start-rules").tap()
    page.wait_for_selector("#rules-dialog.show")
    tops = page.evaluate(
        "() => [...document.querySelectorAll('#rules-dialog .nav-link')]"
        ".map((e) => e.getBoundingClientRect().top)"
    )
    assert len(tops) == 3 and len(set(tops)) == 1, tops


def test_a_watcher_of_a_first_lines_of_action_game_is_not_told_to_choose_a_piece(
    new_page,
):
    """Watching a game with a friend at its start, a first Lines of Action
    page read "choose one to see where it can go", and a click said it only
    watches. The word waits for a game it plays (it is said once a browser)."""
    made = services.create_game(
        game="loa", options=None, players=None, friend={"side": "black"}
    )
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + f"/?game={made['id']}&watch")
    page.wait_for_function("() => BoardPage.state.game !== null")
    page.wait_for_timeout(300)
    assert page.locator("#flash").inner_text() == ""
    assert page.evaluate("() => localStorage.getItem('webgame.loa-hint')") is None


def test_a_first_lines_of_action_game_says_what_to_do_with_a_piece_picked(page):
    """Chinese-phone QA: after "choose one to see where it can go", a piece
    picked showed its dots and nothing said to tap one. In the first game,
    until its first move, it is said; not in a later game. With a mouse it
    says click (a phone's says tap: test_board_page.py)."""
    open_board(page)
    select_game(page, "loa")
    page.click('#board [data-square="c1"]')
    assert page.inner_text("#flash") == "c1: now click an orange dot to move it there."
    page.click('#board [data-square="c3"]')
    page.wait_for_function("() => BoardPage.state.game.ply === 1")
    page.click('#board [data-square="a2"]')
    assert page.inner_text("#flash") == "a2: now click an orange dot to move it there."
    page.click('#board [data-square="c2"]')
    page.wait_for_function("() => BoardPage.state.game.ply === 2")
    page.click('#board [data-square="d1"]')
    assert page.inner_text("#flash") == ""


def test_the_rules_say_those_of_the_lines_of_action_game_on_the_board(page):
    """Verification walk: a game started with other rules than the
    Olympiad's showed them beside the board, and the Rules dialog only the
    Olympiad's, "a game imported with other rules…"."""
    other = {"double_connection": "mover_wins", "no_move": "lose", "repetition": 2}
    made = services.create_game(game="loa", options=other, players=None)
    open_board(page, f"?game={made['id']}")
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    assert page.inner_text("#rules-loa-game") == (
        "This game's rules: Joining both sides wins for the mover · A side that"
        " cannot move loses · A position seen twice draws."
    )
    page.locator("#rules-dialog .btn-close").click()
    page.wait_for_selector("#rules-dialog", state="hidden")
    olympiad = services.create_game(game="loa", options=None, players=None)
    open_board(page, f"?game={olympiad['id']}")
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    assert page.locator("#rules-loa-game").is_hidden()

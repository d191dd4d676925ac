"""What the browser tests do on the board page, the way a person would:
choose in the selectors, flip switches, click cells; and what they read back
from the DOM (cells, move list, status)."""

from __future__ import annotations

from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# The page has loaded: it shows a game or offers a new one (the page-load
# benchmark times the same moment).
from loadtest.page_load import LOADED

DATA = Path(__file__).resolve().parents[1] / "data"

#: The page has a game, and no request that changes it is in flight.
IDLE = (
    "() => typeof BoardPage !== 'undefined' && BoardPage.state.game !== null"
    " && !BoardPage.state.busy && !BoardPage.state.thinking"
)


def open_board(page, query: str = "") -> None:
    """Open the board page and wait until it shows a game; on a first visit
    choose two players in the first-minute dialog."""
    page.goto(page.base_url + "/" + query)
    page.wait_for_function(LOADED)
    if page.locator("#start-dialog.show").count():
        two_players(page)
    wait_idle(page)


def import_typed(page, record: str, until: str) -> None:
    """Import ``record`` as a player does, typed in the record box, and wait
    until the JavaScript condition ``until`` holds."""
    page.fill("#record", record)
    page.click("#import-record")
    page.wait_for_function(until)


def open_imported(page, game: str, record: str) -> None:
    """Import ``record``, a game of ``game`` between two players, and open
    its board."""
    made = page.request.post(
        page.base_url + "/api/games/import/", data={"game": game, "record": record}
    ).json()
    open_board(page, f"?game={made['id']}")


def two_players(page, game: str | None = None) -> None:
    """In the open first-minute dialog choose ``game`` (default: as offered)
    and Two players, and wait for the dialog to close."""
    page.wait_for_selector("#start-dialog.show")
    if game:
        page.select_option("#start-game", game)
    page.click("#two-players")
    page.wait_for_selector("#start-dialog", state="hidden")


def select_game(page, game: str) -> None:
    """Choose ``game`` in the side panel's selector and start a two-player
    game of it (the selector asks first, in the first-minute dialog)."""
    page.select_option("#game-select", game)
    two_players(page)
    page.wait_for_function("g => BoardPage.state.game.game === g", arg=game)
    wait_idle(page)


#: What the page says when it does not move on: the state that holds it.
STUCK = """() => {
    const s = BoardPage.state;
    return JSON.stringify({ply: s.game.ply, to_move: s.game.to_move,
        players: s.game.players, busy: s.busy, thinking: Boolean(s.thinking),
        paused: s.paused, watching: s.watching, flash: $("#flash").text(),
        status: $("#status").text(), pending: s.pending,
        confirm: $("#confirm-moves").prop("checked"), live: Boolean(s.live),
        listed: $("#move-list [data-ply]").length});
}"""


#: Generous: the first search of each game in a fresh process compiles the
#: numba kernels (tens of seconds with a cold cache, as in a fresh CI clone).
AI_TIMEOUT = 120_000


def wait_idle(page, timeout: float = AI_TIMEOUT) -> None:
    """Wait until the page shows a game and nothing is being sent or searched."""
    page.wait_for_function(IDLE, timeout=timeout)


def first_held(page, held: list, timeout: float = 10.0):
    """Return the first request a test's route handler has put in `held`,
    waiting for it: the handler runs only while Playwright is pumped, so a
    request the page has sent may not be there yet (CI once found the list
    empty). It stays in the list: handlers that hold while the list is empty
    let the next requests go."""
    waited = 0.0
    while not held:
        assert waited < timeout, "no request was held"
        page.wait_for_timeout(20)
        waited += 0.02
    return held[0]


def game_json(page) -> dict:
    """Return the snapshot the page is drawing (the API's game JSON)."""
    return page.evaluate("() => BoardPage.state.game")


def plies(page) -> list[str]:
    """Return the moves listed in #move-list."""
    return page.locator("#move-list [data-ply]").all_inner_texts()


def status(page) -> str:
    """Return the text of #status."""
    return page.locator("#status").inner_text()


def band_above_board(page) -> float:
    """The room between the status line and the board, in px."""
    return page.evaluate(
        "() => document.getElementById('board').getBoundingClientRect().top"
        " - document.getElementById('status').parentElement"
        ".parentElement.getBoundingClientRect().bottom"
    )


def pieces(page) -> dict[str, str]:
    """Return the occupied squares as drawn: square -> black / white."""
    return page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll('#board [data-square]')]
            .filter(c => c.querySelector('.piece'))
            .map(c => [c.dataset.square,
                       c.querySelector('.piece.black') ? 'black' : 'white']))"""
    )


def new_game_dialog(page) -> None:
    """Open the new-game dialog (New game), where a game's options are chosen."""
    page.click("#new-game")
    page.wait_for_selector("#start-dialog.show")


def start_game(
    page,
    game: str,
    *,
    size: int | None = None,
    row: int | None = None,
    rule: str | None = None,
):
    """Choose ``game`` (and the Gomoku size, row and rule) and start a new game."""
    if page.locator("#game-select").input_value() != game:
        select_game(page, game)
    new_game_dialog(page)
    if size:
        page.select_option("#gomoku-size", str(size))
        page.select_option("#gomoku-row", str(row))
    if rule:
        page.select_option("#gomoku-rule", rule)
    two_players(page)
    page.wait_for_function(
        "([g, s]) => { const game = BoardPage.state.game;"
        " return game && game.game === g && game.ply === 0"
        " && (!s || game.board.size === s); }",
        arg=[game, size],
    )
    wait_idle(page)


def set_ai(page, side: str, on: bool, strength: str | None = None) -> None:
    """Set ``side``'s strength (first, so the switch sends it) and its AI switch,
    then wait until the server holds that setting."""
    if strength:
        page.select_option(f"#strength-{side}", strength)
    switch = page.locator(f"#{side}-ai")
    if switch.is_checked() != on:
        switch.click()
    page.wait_for_function(
        "([side, kind]) => BoardPage.state.game.players[side].kind === kind",
        arg=[side, "ai" if on else "human"],
    )


def human_move(page) -> str:
    """Play a legal move by clicking, as the side to move, and return it: the
    first legal square (Reversi, Gomoku), or for Lines of Action the first
    movable piece and then its first destination; a forced pass by its button."""
    wait_idle(page)
    game = game_json(page)
    if game["legal_moves"] == ["pass"]:
        page.click("#pass")
        return "pass"
    if game["game"] != "loa":
        square = page.locator("#board .cell.legal").first.get_attribute("data-square")
        page.click(f'#board [data-square="{square}"]')
        return square
    start, moves = next(iter(game["legal_by_from"].items()))
    page.click(f'#board [data-square="{start}"]')
    # The chosen piece's destinations are marked, in orange, and only those.
    targets = page.locator("#board .cell.target")
    assert targets.count() == len(moves)
    destination = moves[0][3:]
    page.click(f'#board [data-square="{destination}"]')
    return moves[0]


def wait_plies(page, count: int) -> None:
    """Wait until the move list holds ``count`` moves; if it never does, fail
    saying what held the page (STUCK)."""
    try:
        page.wait_for_function(
            "n => document.querySelectorAll('#move-list [data-ply]').length === n",
            arg=count,
        )
    except PlaywrightTimeout as error:
        raise AssertionError(f"move {count}: {page.evaluate(STUCK)}") from error


def play_moves(page, count: int) -> None:
    """Play ``count`` moves by clicking (human_move), each waited for in the
    move list, then wait until the page is idle."""
    for played in range(1, count + 1):
        human_move(page)
        wait_plies(page, played)
    wait_idle(page)


def loa_record(name: str = "appendix_E_game1.txt") -> list[str]:
    """Return the moves of a published Lines of Action game (test data)."""
    moves = []
    for line in (DATA / "loa-games" / name).read_text().splitlines():
        words = line.split()
        if words and words[0].rstrip(".").isdigit():
            moves.extend(words[1:])
    return moves


def hear_tones(held_back: bool = False) -> str:
    """Return a script to put in a page before it loads: sounds on, and each
    tone the page plays kept in ``window.tones`` (its frequency) instead of
    sounding. With ``held_back`` the audio is a browser's made before any
    touch: suspended, sounding nothing until resumed, which (as in Safari,
    the strictest) works only in the handler of a tap or a key."""
    return (
        f"const heldBack = {'true' if held_back else 'false'};"
        + """
  localStorage.setItem("webgame.sound", "on");
  window.tones = [];
  let touching = false;
  for (const kind of ["pointerdown", "keydown"]) {
    window.addEventListener(kind, () => {
      touching = true;
      setTimeout(() => { touching = false; });
    }, { capture: true });
  }
  window.AudioContext = class {
    constructor() { this.state = heldBack ? "suspended" : "running"; }
    resume() {
      if (touching) this.state = "running";
      return Promise.resolve();
    }
    get currentTime() { return 0; }
    get destination() { return {}; }
    createGain() {
      const ramp = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
      return { gain: ramp, connect: (to) => to };
    }
    createOscillator() {
      const audio = this;
      const tone = { frequency: { value: 0 }, connect: (to) => to, stop() {} };
      tone.start = () => {
        if (audio.state === "running") window.tones.push(tone.frequency.value);
      };
      return tone;
    }
  };
"""
    )


#: How far up and down from its middle a tap still reaches the element.
HIT_HEIGHT = """el => {
  el.scrollIntoView({ block: 'center', behavior: 'instant' });
  const b = el.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  let up = 0, down = 0;
  while (up < 30 && el.contains(document.elementFromPoint(x, y - up - 1))) up++;
  while (down < 30 && el.contains(document.elementFromPoint(x, y + down + 1))) down++;
  return up + down + 1;
}"""


SERIOUS = ("serious", "critical")


def serious(page) -> list[str]:
    """Return the serious and critical violations axe-core finds on the page."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes']][:5]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def new_renju_swap2_chosen(page) -> None:
    """Open New game over the game on the board and choose Gomoku, renju,
    Swap2 in it (the dialog stays open)."""
    page.click("#new-game")
    page.wait_for_selector("#start-dialog.show")
    page.select_option("#start-game", "gomoku")
    page.select_option("#gomoku-rule", "renju")
    page.select_option("#gomoku-opening", "swap2")

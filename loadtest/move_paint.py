"""How much a move costs the board page on a slow phone, for one server or two
compared in one sitting.

Each round makes a Gomoku game between two players on each server (15x15,
``--plies`` random moves already played, at most 64, the same on each),
opens it in Chromium at a phone's size with a touch screen and the CPU
slowed ``--cpu`` times (Chromium's emulation; 4 is a cheap phone's), and
plays ``--moves`` moves by touches, each confirmed by a second touch as on
a phone. For each move it records the main thread's busy time (Chromium's
``TaskDuration``) from the confirming touch until the move is listed and
drawn, and that wall time. It prints the medians of each server's moves
(the first round left out, as warm-up) and, for two servers, the ratios of
the medians. It needs the tests' packages (Playwright) and Chromium's
headless shell (``make test`` installs it).

    python loadtest/move_paint.py http://127.0.0.1:8000 [URL2] [--rounds 6]
                                  [--cpu 4] [--plies 60] [--moves 6]
"""

from __future__ import annotations

import argparse
import random
import statistics

from playwright.sync_api import sync_playwright

PHONE = {"width": 390, "height": 844}
WARM_UP_ROUNDS = 1
#: The page shows the game and sends nothing.
IDLE = (
    "() => typeof BoardPage !== 'undefined' && BoardPage.state.game !== null"
    " && !BoardPage.state.busy"
)


def record(plies: int, seed: int) -> list[str]:
    """``plies`` random Gomoku moves that end nothing: no two touch (every
    other point of every other line, 64 of them)."""
    rng = random.Random(seed)
    files = "abcdefghjklmnop"
    squares = [f"{files[c]}{r + 1}" for c in range(0, 15, 2) for r in range(0, 15, 2)]
    rng.shuffle(squares)
    return squares[:plies]


def new_game(request, url: str, moves: list[str]) -> str:
    """The id of a new two-player Gomoku game on ``url`` with ``moves`` played."""
    made = request.post(url + "/api/games/", data={"game": "gomoku"}).json()
    for move in moves:
        request.post(f"{url}/api/games/{made['id']}/moves/", data={"move": move}).json()
    return made["id"]


def busy_ms(cdp) -> float:
    """The main thread's busy time so far, in ms."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration") * 1000


def play(
    browser, url: str, game: str, moves: int, cpu: float
) -> list[tuple[float, float]]:
    """(busy ms, wall ms) of each of ``moves`` moves tapped on ``game``."""
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=3
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    page.goto(f"{url}/?game={game}")
    page.wait_for_function(IDLE)
    page.wait_for_timeout(500)
    costs = []
    for _ in range(moves):
        ply = page.evaluate("() => BoardPage.state.game.ply")
        square = page.locator("#board .cell.legal").first
        box = square.bounding_box()
        point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
        taps = 2 if page.locator("#confirm-moves").is_checked() else 1
        for tap in range(taps):
            if tap == taps - 1:
                page.wait_for_timeout(300)
                busy, start = busy_ms(cdp), page.evaluate("() => performance.now()")
            # The touch itself, as Chromium gets it from a screen: Playwright's
            # tap would first check the target in the page, on its main thread.
            for kind, points in (("touchStart", [point]), ("touchEnd", [])):
                cdp.send(
                    "Input.dispatchTouchEvent", {"type": kind, "touchPoints": points}
                )
        page.wait_for_function(
            f"() => document.querySelectorAll('#move-list [data-ply]').length > {ply}"
            " && !BoardPage.state.busy",
            polling=50,
        )
        end = page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => r(performance.now())))"
        )
        costs.append((busy_ms(cdp) - busy, end - start))
        page.wait_for_timeout(500)  # the stone's animation, not a move's cost
    context.close()
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--cpu", type=float, default=4.0)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--moves", type=int, default=6)
    args = parser.parse_args()
    costs: dict[str, list[tuple[float, float]]] = {url: [] for url in args.urls}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium-headless-shell")
        request = p.request.new_context()
        for round_ in range(args.rounds):
            moves = record(args.plies, seed=round_)
            for url in args.urls:
                game = new_game(request, url, moves)
                done = play(browser, url, game, args.moves, args.cpu)
                if round_ >= WARM_UP_ROUNDS or args.rounds <= WARM_UP_ROUNDS:
                    costs[url].extend(done)
        browser.close()
    medians = {}
    for url, played in costs.items():
        busy = statistics.median(m[0] for m in played)
        wall = statistics.median(m[1] for m in played)
        medians[url] = (busy, wall)
        print(
            f"{url}: a move keeps the main thread busy {busy:.0f} ms, drawn"
            f" {wall:.0f} ms after the tap (CPU x{args.cpu:g}, median of"
            f" {len(played)} moves)"
        )
    if len(args.urls) == 2:
        (busy1, wall1), (busy2, wall2) = (medians[url] for url in args.urls)
        print(
            f"ratio {args.urls[1]} / {args.urls[0]}: busy {busy2 / busy1:.2f},"
            f" drawn {wall2 / wall1:.2f}"
        )


if __name__ == "__main__":
    main()

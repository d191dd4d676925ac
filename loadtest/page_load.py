"""How long the board page takes to load in Chromium, for one server or two
compared in one sitting.

Each round opens the page once at each URL, in turn, in a fresh browser
context (no cache, no storage: a first visit), and times it from the start
of the navigation until the page shows a game or offers one (the
first-minute dialog), and until its last script arrived. ``--latency``
adds that many milliseconds to each request (Chromium's network emulation),
as a player's link to a distant server would. It prints the median of each
URL's rounds (the first two are left out, as warm-up) and, for two URLs, the
ratio of the medians. It needs the tests' packages (Playwright) and Debian's
desktop Chromium, the browser a player opens (``apt-get install chromium``;
the tests run its headless shell).

    python loadtest/page_load.py http://127.0.0.1:8000 [URL2] [--rounds 16]
                                 [--latency MS]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time

from playwright.sync_api import sync_playwright

#: The page has loaded: it shows a game or offers a new one.
LOADED = (
    "() => typeof BoardPage !== 'undefined' && (BoardPage.state.game !== null"
    " || document.querySelector('#start-dialog.show') !== null)"
)
#: Milliseconds from the navigation's start until the last script arrived.
LAST_SCRIPT = (
    "() => Math.max(...performance.getEntriesByType('resource')"
    ".filter(e => e.name.endsWith('.js') || e.name.includes('/jsi18n'))"
    ".map(e => e.responseEnd))"
)
WARM_UP_ROUNDS = 2


def load_once(browser, url: str, latency: float) -> tuple[float, float]:
    """Seconds until the page at ``url`` has loaded, and until its last script
    arrived, in a fresh context, each request ``latency`` ms late."""
    context = browser.new_context()
    page = context.new_page()
    if latency:
        network = context.new_cdp_session(page)
        network.send("Network.enable")
        network.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": latency,
                "downloadThroughput": -1,
                "uploadThroughput": -1,
            },
        )
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(LOADED)
    loaded = time.perf_counter() - start
    scripts = page.evaluate(LAST_SCRIPT) / 1000
    context.close()
    return loaded, scripts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--rounds", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.0, metavar="MS")
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {url: [] for url in args.urls}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"))
        for _ in range(args.rounds):
            for url in args.urls:
                times[url].append(load_once(browser, url, args.latency))
        browser.close()
    medians = {}
    for url, runs in times.items():
        kept = runs[WARM_UP_ROUNDS:] or runs
        loaded = statistics.median(r[0] for r in kept)
        scripts = statistics.median(r[1] for r in kept)
        medians[url] = loaded
        print(
            f"{url}: loaded in {loaded:.3f} s, last script at {scripts:.3f} s"
            f" (median of {len(kept)})"
        )
    if len(args.urls) == 2:
        first, second = (medians[url] for url in args.urls)
        print(f"ratio {args.urls[1]} / {args.urls[0]}: {second / first:.2f}")


if __name__ == "__main__":
    main()

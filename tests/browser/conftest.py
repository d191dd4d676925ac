"""Fixtures of the browser tests: Debian's Chromium driven by Playwright.

Playwright never downloads a browser here: it launches the system Chromium by
path. A missing Chromium is a test failure, not a skip, so a machine without a
browser cannot pass the suite silently. Every page collects its console errors
and uncaught exceptions and the test fails if there are any.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.core.cache import cache

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: Chromium flags for a closed, headless machine: no sandbox (root in CI), no
#: GPU, and none of the background traffic a fresh profile would start.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
#: A phone's browser context: its screen, and touch (pointer: coarse, no hover).
PHONE_CONTEXT = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def chromium_path() -> str:
    """Return the path of the Chromium binary, or fail the test naming it."""
    found = shutil.which(CHROMIUM) or (CHROMIUM if Path(CHROMIUM).is_file() else None)
    if not found:
        pytest.fail(
            f"Chromium not found at {CHROMIUM!r}: install Debian's chromium "
            "(`apt-get install chromium`) or set CHROMIUM to its path",
            pytrace=False,
        )
    return found


@pytest.fixture(scope="module")
def browser():
    """Return a headless Chromium shared by the module's tests.

    Playwright's sync API keeps an event loop running in the test thread, and
    Django refuses ORM calls (the live server's database set-up, the tests'
    own reads) from a thread with a running loop unless
    DJANGO_ALLOW_ASYNC_UNSAFE is set. It is set only while this module's
    browser lives: a process started by a later test (``manage.py check
    --deploy``) must not inherit it.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # a failure too: requirements-test.txt lists it
        pytest.fail("playwright is not installed (pip install playwright)")
    path = chromium_path()
    env = pytest.MonkeyPatch()
    env.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=path, args=CHROMIUM_ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        env.undo()


@pytest.fixture(autouse=True)
def _no_ai_throttle(settings):
    """Turn the AI throttle off: an AI-vs-AI game asks for many moves a minute."""
    settings.AI_THROTTLE_RATE = None
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def new_page(browser, live_server):
    """Return a function that opens a fresh page (own storage) with the given
    browser context options (viewport, touch ...); fail the test on any
    console error or uncaught page error seen on any of them."""
    contexts = []
    errors: list[str] = []

    def open_page(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(60_000)
        contexts.append(context)
        tab = context.new_page()
        tab.on(
            "console",
            lambda msg: (
                errors.append(f"console.{msg.type}: {msg.text}")
                if msg.type == "error"
                else None
            ),
        )
        tab.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
        tab.base_url = live_server.url
        return tab

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, "the page logged errors:\n" + "\n".join(errors)


@pytest.fixture
def page(new_page):
    """Return a fresh page at desktop size that fails the test on any console
    error (see new_page)."""
    return new_page(viewport=DESKTOP)


@pytest.fixture
def screenshot():
    """Return a function that saves the page's screenshot as a test artifact."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(tab, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        tab.screenshot(path=str(path))
        return path

    return take

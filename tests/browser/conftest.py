"""Fixtures of the browser tests: Debian's Chromium driven by Playwright.

Playwright never downloads a browser here: it launches the system Chromium by
path. It is Chromium's headless shell (Debian's chromium-headless-shell, the
build Playwright itself runs headless tests in): the same Blink and V8 as the
chromium package, without the desktop browser around them, and it takes well
under half the CPU to open and run a page (the browser tests were CPU-bound,
Chromium's processes about 70% of it; see docs/experiments). A missing
Chromium is a test failure, not a skip, so a machine without a browser cannot
pass the suite silently. Every page collects its console errors
and uncaught exceptions and the test fails if there are any.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import channels.db
import pytest
from django.core.cache import cache
from django.test.utils import modify_settings

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
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
            f"Chromium not found at {CHROMIUM!r}: install Debian's "
            "chromium-headless-shell (`make system-packages`) or set CHROMIUM "
            "to a Chromium's path",
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


class AsgiLiveServer:
    """uvicorn serving the ASGI application (the page, the API, the live
    games' sockets and the flag watcher), as ``make run`` does, in a thread
    of the test process on its test database; the static files come from
    the sources. It stands in for pytest-django's WSGI live server, which
    has no sockets."""

    def __init__(self) -> None:
        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application

        from webgame.routing import application_for

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        app = application_for(ASGIStaticFilesHandler(get_asgi_application()))
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            lifespan="on",
            log_level="warning",
            http="webgame.serving:GuardedHttpProtocol",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                pytest.fail("the test's ASGI server did not start")
            time.sleep(0.05)
        # pytest-django's helper turns this on for each test that uses it.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": "127.0.0.1"}
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def between_tests(service, nothing):
    """Return ``service`` (the flag watcher's, its beat, the restart's time for
    the running clocks, a closing socket's tidying of connections) doing
    nothing, and answering ``nothing``, while pytest-django blocks the
    database (between two tests, as the server starts and stops) instead of
    raising: the server would log that as a failure in the next failing
    test's output."""

    def served(*args):
        try:
            return service(*args)
        except RuntimeError as error:
            if "Database access not allowed" not in str(error):
                raise
            return nothing

    return served


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The live server of the browser tests: uvicorn with the sockets
    (:class:`AsgiLiveServer`); each test that uses it has the database."""
    from webgame import services

    with pytest.MonkeyPatch.context() as patch:
        for name, nothing in (
            ("beat", None),
            ("flag_due_games", 0),
            ("make_up_for_restart", 0),
            ("unasked_ai_moves", []),
        ):
            patch.setattr(
                services, name, between_tests(getattr(services, name), nothing)
            )
        # Channels closes old connections as a socket closes, which may be
        # after its test, when pytest-django has blocked the database again.
        patch.setattr(
            channels.db,
            "close_old_connections",
            between_tests(channels.db.close_old_connections, None),
        )
        server = AsgiLiveServer()
        yield server
        server.stop()


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
    console error or uncaught page error seen on any of them, but those a
    test expects: the texts it adds to the page's ``expected_errors`` (the
    browser logs an answer such as a 404 as an error)."""
    contexts = []
    errors: list[tuple[object, str]] = []

    def open_page(**options):
        context = browser.new_context(**options)
        context.set_default_timeout(60_000)
        contexts.append(context)
        tab = context.new_page()
        tab.on(
            "console",
            lambda msg: (
                errors.append((tab, f"console.{msg.type}: {msg.text}"))
                if msg.type == "error"
                else None
            ),
        )
        tab.on("pageerror", lambda exc: errors.append((tab, f"page error: {exc}")))
        tab.base_url = live_server.url
        tab.expected_errors = []
        return tab

    yield open_page
    for context in contexts:
        context.close()
    unexpected = [
        text
        for tab, text in errors
        if not any(expected in text for expected in tab.expected_errors)
    ]
    assert not unexpected, "the page logged errors:\n" + "\n".join(unexpected)


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
        # A stone still dropping would show half drawn: let the finite
        # animations end (a running progress bar's stripes never do).
        tab.wait_for_function(
            "() => document.getAnimations().every(a => a.playState !== 'running'"
            " || a.effect.getComputedTiming().iterations === Infinity)"
        )
        tab.screenshot(path=str(path))
        return path

    return take

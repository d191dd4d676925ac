"""Live updates across web processes (issue 64): two uvicorn processes share
the Redis channel layer (``REDIS_URL``) and one database; a move sent
through process 1 shows within a second in a browser connected to process 2.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.web.servers import (
    ROOT,
    app_env,
    asgi_server,
    free_port,
    migrate,
    redis_url,  # noqa: F401 - fixture
    start,
    stop,
    wait_for_port,
)

from .conftest import DESKTOP

pytestmark = [pytest.mark.slow, pytest.mark.timing]


def post(port: int, path: str, body: dict, token: str | None = None) -> dict:
    """Return the JSON answer of a POST to the web process on ``port``."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers=headers,
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def two_webs(redis_url, tmp_path_factory):  # noqa: F811 - fixture
    """Yield the ports of two web processes on one Redis and one database."""
    tmp = tmp_path_factory.mktemp("two-webs")
    env = app_env(
        REDIS_URL=redis_url,
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        SECRET_KEY="live-scale-out-" + "k" * 40,
        STATIC_ROOT=str(tmp / "static"),
        GAME_CREATE_RATE="off",
        AI_WARM_UP="0",  # no AI plays here
    )
    migrate(env)
    # The static files as make run collects them (its rule leaves out the
    # builds of Bootstrap and jQuery the page does not load).
    venv = Path(sys.executable).resolve().parent.parent
    collected = subprocess.run(
        ["make", "--no-print-directory", f"VENV={venv}",
         f"{env['STATIC_ROOT']}/staticfiles.json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert collected.returncode == 0, collected.stderr
    procs, ports = [], []
    try:
        for n in (1, 2):
            port = free_port()
            procs.append(start(asgi_server(port), env=env, log=tmp / f"web{n}.log"))
            ports.append(port)
        for port, proc in zip(ports, procs, strict=True):
            wait_for_port(port, proc, "uvicorn")
        yield ports
    finally:
        for proc in procs:
            stop(proc)


def test_a_move_through_one_process_reaches_a_browser_on_the_other(two_webs, browser):
    one, two = two_webs
    made = post(one, "/api/games/", {"game": "gomoku", "friend": {"side": "black"}})
    game_id, token = made["id"], made["seat"]["token"]
    context = browser.new_context(viewport=DESKTOP)
    errors: list[str] = []
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(f"http://127.0.0.1:{two}/?game={game_id}&watch")
        tab.wait_for_function("() => BoardPage.state.game && BoardPage.state.live")
        post(one, f"/api/games/{game_id}/moves/", {"move": "h8"}, token)
        tab.wait_for_function(
            "() => BoardPage.state.game.ply === 1", timeout=1000
        )  # within a second, through Redis, with no poll (every 3 s)
        assert tab.evaluate("() => BoardPage.state.game.moves") == ["h8"]
    finally:
        context.close()
    assert not errors

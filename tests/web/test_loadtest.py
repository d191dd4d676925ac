"""The load test (``loadtest/locustfile.py``, ``make loadtest``) against a real
server: Locust's players and the hog, and the summary it prints.

Locust runs as its own process, as the README runs it: its gevent patches the
standard library, which must not happen in this one.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys

import pytest

from .servers import (
    ROOT,
    app_env,
    asgi_server,
    free_port,
    migrate,
    start,
    stop,
    venv_bin,
    wait_for_port,
)

# Asserts the load test's latencies: run alone (make test).
pytestmark = pytest.mark.timing

LOCUSTFILE = ROOT / "loadtest" / "locustfile.py"
GAMES = ({"game": "reversi"}, {"game": "gomoku"}, {"game": "loa"})


def call(port: int, method: str, path: str, body=None) -> dict:
    """Return the JSON answer of one request (the AI may compile its kernels:
    a long timeout)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    try:
        headers = {"Content-Type": "application/json"}
        conn.request(method, path, body=json.dumps(body), headers=headers)
        response = conn.getresponse()
        assert response.status in (200, 201), response.read()
        return json.loads(response.read())
    finally:
        conn.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Yield the URL of uvicorn serving as ``make run`` does, on a temporary
    database, trusting one proxy's X-Forwarded-For (NUM_PROXIES=1) and without
    throttles (the old load command's own server), each game's AI loaded."""
    tmp = tmp_path_factory.mktemp("load")
    env = app_env(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        SECRET_KEY="load-test-" + "k" * 40,
        STATIC_ROOT=str(tmp / "static"),
        NUM_PROXIES="1",
        AI_THROTTLE_RATE="off",
        GAME_CREATE_RATE="off",
        # Finished games would grow model/<game>/live/ in the checkout.
        LIVE_MODEL="",
    )
    migrate(env)
    port = free_port()
    proc = start(
        asgi_server(port),
        env=env,
        log=tmp / "server.log",
    )  # fmt: skip
    try:
        wait_for_port(port, proc, "uvicorn")
        # One AI reply in each game first, so that loading the AI's kernels
        # is not measured.
        for body in GAMES:
            body = {**body, "players": {"white": {"kind": "ai", "level": 1}}}
            game = call(port, "POST", "/api/games/", body)
            path = f"/api/games/{game['id']}/"
            call(port, "POST", path + "moves/", {"move": game["legal_moves"][0]})
            call(port, "POST", path + "ai-move/", {})
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)
        print((tmp / "server.log").read_text()[-3000:])


def test_players_and_the_hog_report_rate_latency_and_no_starvation(server):
    assert "gevent" not in sys.modules  # Locust stays out of this process
    # Three players thinking 0.2 s, and the hog: four games' 1 s hints from
    # one client (four Locust users of the seven).
    done = subprocess.run(
        [
            venv_bin("locust"), "-f", str(LOCUSTFILE), "--headless",
            "--only-summary", "--host", server,
            "-u", "7", "-r", "7", "-t", "8s",
            "--pause", "0.2", "--hog", "4", "--hog-think", "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    summary = out[out.index("Summary (players") :]

    def number(pattern: str) -> float:
        found = re.search(pattern, summary)
        assert found, (pattern, summary)
        return float(found.group(1))

    assert number(r"requests/s (\d+\.\d)") > 0
    assert number(r"non-AI p50 \d+ ms, p99 \d+ ms, max \d+ ms \((\d+)\)") > 10
    assert number(r"errors (\d+)") == 0
    # The hog's hints did not starve the players: none of their AI requests
    # was deferred, none waited longer than the hog's running search and 2 s.
    assert number(r"deferred (\d+)") == 0
    assert number(r"AI p50 \d+ ms, p99 \d+ ms, max (\d+) ms") < 3000
    # And the hog was served in its turn, its extra hints refused.
    assert number(r"hog: 4 games x 1 s hints: (\d+) served") >= 1
    assert number(r"hints: \d+ served, (\d+) deferred") >= 1

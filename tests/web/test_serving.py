"""``make run`` serves like production: uvicorn, DEBUG off, WhiteNoise's
hashed static files, JSON errors and never a debug page.

The test runs the README's command itself (with this virtualenv, a temporary
database, static folder and key file) and talks to it over HTTP.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str, *, method="GET", body=None, headers=None):
    """Return (status, headers, body bytes) of one request."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()  # any case
    finally:
        conn.close()


class Served(NamedTuple):
    port: int
    log: Path  # the server's standard output and error


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Yield ``make run`` serving from temporary folders."""
    tmp = tmp_path_factory.mktemp("served")
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
        STATIC_ROOT=str(tmp / "static"),
        SECRET_KEY_FILE=str(tmp / "key"),
        # No AI plays here: the warm-up's processes only took the cores from
        # the tests beside (test_readiness covers make run's warm-up).
        AI_WARM_UP="0",
    )
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"VENV={VENV}", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 90
    while True:
        try:
            get(port, "/api/games/kinds/")
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                os.killpg(proc.pid, signal.SIGKILL)
                pytest.fail(
                    "make run did not serve:\n" + (tmp / "server.log").read_text()
                )
            time.sleep(0.3)
    yield Served(port, tmp / "server.log")
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
    log.close()


def test_the_page_loads_hashed_static_files_served_by_whitenoise(served):
    status, headers, page = get(served.port, "/")
    assert status == 200
    assert "uvicorn" in headers.get("Server", "")
    main = re.search(rb'src="(/static/board/main\.[0-9a-f]{12}\.js)"', page)
    assert main, page[:2000]
    status, headers, script = get(served.port, main.group(1).decode())
    assert status == 200
    assert "max-age=315360000" in headers["Cache-Control"]  # immutable, hashed
    # The ES modules main.js imports are hashed too (a deploy never mixes).
    imports = re.findall(rb'from "\./([\w.]+\.js)"', script)
    assert imports and all(re.search(rb"\.[0-9a-f]{12}\.js$", name) for name in imports)


def test_static_files_leave_no_warning_in_the_log(served):
    """Under ASGI, Django reads WhiteNoise's file responses whole in a thread
    and warned of it on the first: a line an operator would take for a
    fault (settings.py keeps it out)."""
    _, _, page = get(served.port, "/")
    for path in re.findall(rb'(?:src|href)="(/static/[^"]+)"', page):
        status, _, _ = get(served.port, path.decode())
        assert status == 200, path
    assert "Warning" not in served.log.read_text()


def test_errors_are_json_never_a_debug_page(served):
    status, headers, body = get(served.port, "/no/such/page/")
    assert status == 404
    assert headers["Content-Type"] == "application/json"
    assert b"URLconf" not in body and len(body) < 500
    status, headers, body = get(
        served.port,
        "/api/games/",
        method="POST",
        body="[" * 1000 + "]" * 1000,
        headers={"Content-Type": "application/json"},
    )
    assert status == 400 and b"parse_error" in body and len(body) < 500
    status, headers, body = get(served.port, "/", headers={"Host": "evil.example.com"})
    assert status == 400 and b"bad_request" in body and len(body) < 500


def test_every_line_of_the_log_carries_the_time(served):
    # Operator QA: uvicorn's access lines had no time, beside the app's.
    get(served.port, "/api/games/kinds/")
    lines = [line for line in served.log.read_text().splitlines() if line.strip()]
    served_lines = [
        line for line in lines if '"GET /api/games/kinds/ HTTP/1.1"' in line
    ]
    assert served_lines
    stamped = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ \S+: ")
    assert all(stamped.match(line) for line in served_lines), served_lines[-1]
    assert stamped.match(next(line for line in lines if "Uvicorn running on" in line))

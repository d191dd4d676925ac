"""Real servers for the scale-out tests: Debian's ``redis-server`` and
PostgreSQL, each started on the loopback in a temporary folder and stopped
after, and helpers to run web processes and Celery workers against them.

A missing server binary fails the test (CI installs the packages: see
``.ci/run``); outside CI it skips, naming the package.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The newest installed PostgreSQL's binaries (Debian keeps them off the PATH).
POSTGRES_BIN = Path(
    os.environ.get("POSTGRES_BIN")
    or max(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0,
        default=Path("/usr/lib/postgresql/15/bin"),
    )
)
REDIS_SERVER = os.environ.get("REDIS_SERVER", "redis-server")


def missing(what: str) -> None:
    """Fail (in CI) or skip (elsewhere) for a server binary that is not here."""
    message = f"{what} is not installed (apt-get install {what.split()[0]})"
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


def free_port() -> int:
    """Return a TCP port free on the loopback now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, what: str, seconds=60.0):
    """Return once something listens on the loopback ``port``; fail if ``proc``
    exits or the time runs out."""
    deadline = time.monotonic() + seconds
    while True:
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=1),
        ):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what} did not start (exit {proc.poll()})", pytrace=False)
        time.sleep(0.1)


def stop(proc: subprocess.Popen, timeout: float = 15.0) -> None:
    """Stop a process started in its own session, and its children."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def asgi_server(port: int) -> list[str]:
    """Return the command of a web process (uvicorn, as ``make run`` starts
    it) on the loopback ``port``."""
    return [
        venv_bin("uvicorn"), "webgame.asgi:application",
        "--host", "127.0.0.1", "--port", str(port), "--no-proxy-headers",
        "--http", "webgame.serving:GuardedHttpProtocol",
        "--lifespan", "on",
    ]  # fmt: skip


def start(args, *, env=None, log: Path, cwd=ROOT, user: str | None = None):
    """Return a process started in its own session, logging into ``log``."""
    if user is not None:
        args = ["runuser", "-u", user, "--", *args]
    return subprocess.Popen(
        args,
        cwd=cwd,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """Yield the URL of a fresh redis-server on the loopback."""
    binary = shutil.which(REDIS_SERVER)
    if binary is None:
        missing("redis-server")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    proc = start(
        [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--dir", str(folder),
            "--save", "",
            "--appendonly", "no",
        ],
        log=folder / "redis.log",
    )  # fmt: skip
    wait_for_port(port, proc, "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    stop(proc)


@pytest.fixture(scope="module")
def postgres_url():
    """Yield the URL of a fresh PostgreSQL cluster on the loopback (initdb into
    a temporary folder; as root it runs as the ``postgres`` user, since
    PostgreSQL refuses to run as root)."""
    initdb = POSTGRES_BIN / "initdb"
    if not initdb.exists():
        missing("postgresql (initdb)")
    user = "postgres" if os.geteuid() == 0 else None
    # Not under pytest's temporary folder: its parents are private to root,
    # and the server runs as postgres.
    folder = Path(tempfile.mkdtemp(prefix="webgame-postgres-"))
    data = folder / "data"
    if user is not None:
        shutil.chown(folder, user)
    log = folder / "postgres.log"
    done = subprocess.run(
        ["runuser", "-u", user, "--"] * (user is not None)
        + [str(initdb), "-D", str(data), "-U", "webgame", "--auth=trust", "-E", "UTF8"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.fail(f"initdb failed: {done.stderr}", pytrace=False)
    port = free_port()
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    proc = start(
        [str(POSTGRES_BIN / "postgres"), "-D", str(data), *options.split()],
        log=log,
        user=user,
    )
    wait_for_port(port, proc, "postgres")
    # The server may accept connections a moment before it accepts logins.
    deadline = time.monotonic() + 30
    while True:
        ready = subprocess.run(
            [str(POSTGRES_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
            capture_output=True,
        )
        if ready.returncode == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    created = subprocess.run(
        [
            str(POSTGRES_BIN / "createdb"),
            "-h", "127.0.0.1", "-p", str(port), "-U", "webgame", "webgame",
        ],
        capture_output=True,
        text=True,
    )  # fmt: skip
    if created.returncode != 0:
        pytest.fail(f"createdb failed: {created.stderr}", pytrace=False)
    yield f"postgres://webgame@127.0.0.1:{port}/webgame"
    stop(proc)  # the postmaster shuts down on SIGTERM
    shutil.rmtree(folder, ignore_errors=True)


def app_env(**extra: str) -> dict[str, str]:
    """Return the environment of a web process or worker under test."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "AI_"))
    }
    env.update(
        DEBUG="0",
        PYTHONUNBUFFERED="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        **extra,
    )
    return env


def migrate(env: dict[str, str]) -> None:
    """Migrate the database that ``env`` names, asserting it worked."""
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert migrated.returncode == 0, migrated.stderr


def venv_bin(name: str) -> str:
    """Return the path of a console script of this virtualenv."""
    return str(Path(sys.executable).parent / name)

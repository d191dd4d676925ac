"""Production settings pass Django's deployment checks (and the schema's)."""

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from .servers import free_port

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env):
    # Not the tests' database, unless one is given.
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_make(*args):
    """Run ``make ARGS`` in the project; return the finished process."""
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_environment():
    done = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="games.example.com",
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_deploy_passes_on_plain_http_localhost_as_make_run_serves(tmp_path):
    done = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="",
        SECRET_KEY="",
        SECRET_KEY_FILE=str(tmp_path / "key"),
        ALLOWED_HOSTS="",
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_public_host_without_https_fails_the_deploy_check():
    done = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="games.example.com",
        HTTPS="0",
    )
    assert done.returncode != 0
    assert "SECURE_SSL_REDIRECT" in done.stdout + done.stderr


def test_plain_http_on_a_home_network_sends_no_header_its_browsers_ignore():
    """Served over plain HTTP at a network address (a friend's phone on the
    same network: README, Playing), the page's every load logged an error in
    the browser's console: Chrome ignores the Cross-Origin-Opener-Policy
    header of an origin that is neither HTTPS nor localhost. It is sent
    where it is honoured: on the loopback, and over HTTPS."""
    code = (
        "from django.conf import settings; "
        "print(settings.SECURE_CROSS_ORIGIN_OPENER_POLICY)"
    )
    policies = [
        run_manage("shell", "-c", code, **env).stdout.strip().splitlines()[-1]
        for env in (
            {"ALLOWED_HOSTS": "localhost,192.168.1.5", "HTTPS": "0"},
            {"ALLOWED_HOSTS": ""},
            {"ALLOWED_HOSTS": "games.example.com"},
        )
    ]
    assert policies == ["None", "same-origin", "same-origin"]


def test_debug_is_off_unless_asked_for():
    code = "from django.conf import settings; print(settings.DEBUG)"
    done = run_manage("shell", "-c", code, DEBUG="")
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr


def test_first_start_generates_a_private_secret_key_that_later_starts_reuse(tmp_path):
    key_file = tmp_path / "key"
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = run_manage(
        "shell", "-c", code, SECRET_KEY="", SECRET_KEY_FILE=str(key_file)
    )
    again = run_manage(
        "shell", "-c", code, SECRET_KEY="", SECRET_KEY_FILE=str(key_file)
    )
    assert first.returncode == 0, first.stderr
    assert len(first.stdout.strip().splitlines()[-1]) >= 50
    assert first.stdout == again.stdout
    assert key_file.read_text().strip() == first.stdout.strip().splitlines()[-1]
    assert key_file.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    "name", [".secret_key", "db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm"]
)
def test_files_the_running_app_writes_are_not_tracked(name):
    done = subprocess.run(["git", "check-ignore", name], cwd=ROOT, capture_output=True)
    assert done.returncode == 0, f"{name} would show as untracked"


def test_schema_generates_without_warnings():
    done = run_manage(
        "spectacular", "--validate", "--fail-on-warn", "--file", os.devnull
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_celery_backend_needs_a_redis_url():
    done = run_manage("check", AI_BACKEND="celery", REDIS_URL="")
    assert done.returncode != 0
    assert "REDIS_URL" in done.stderr


def test_the_image_serves_with_the_flags_make_run_uses():
    # The Dockerfile's uvicorn (compose.yaml's web processes) has every flag
    # of the Makefile's UVICORN_FLAGS: without them a slow request gets no
    # 408 and the head no cap.
    make = (ROOT / "Makefile").read_text()
    flags = re.search(r"^UVICORN_FLAGS \?= ((?:.*\\\n)*.*)$", make, re.M).group(1)
    wanted = flags.replace("\\\n", " ").split()
    cmd = re.search(
        r"^CMD (\[.*?\])\s*$", (ROOT / "Dockerfile").read_text(), re.M | re.S
    )
    served = json.loads(cmd.group(1).replace("\\\n", " "))
    assert served[:2] == ["uvicorn", "webgame.asgi:application"]
    assert " ".join(wanted) in " ".join(served), (wanted, served)


def test_collectstatic_spends_brotli_top_quality_only_on_files_of_the_page_size():
    import brotli

    from webgame.staticstorage import BROTLI_TOP_QUALITY_UP_TO, StaticFilesStorage

    compress = StaticFilesStorage().create_compressor().compress_brotli
    rng = np.random.default_rng(1)
    words = [bytes(rng.integers(97, 123, 6, dtype=np.uint8)) for _ in range(2000)]
    text = b" ".join(words[i] for i in rng.integers(0, 2000, 120_000))
    small, large = text[:100_000], text[: BROTLI_TOP_QUALITY_UP_TO + 1]
    assert compress(small) == brotli.compress(small, quality=11)
    assert compress(large) == brotli.compress(large, quality=9)
    assert brotli.decompress(compress(large)) == large


def test_make_alone_lists_every_target_with_what_it_does():
    # An operator's first `make` only made the virtualenv, and said nothing.
    listed = run_make().stdout
    phony = re.search(r"^\.PHONY:(.*)$", (ROOT / "Makefile").read_text(), re.M)
    for target in phony.group(1).split():
        if target != "help":
            assert re.search(rf"^  make {target} +\S", listed, re.M), target


@pytest.mark.parametrize(
    ("setting", "value", "expected"),
    [
        ("AI_WORKERS", "0", "a whole number of at least 1"),
        ("AI_THROTTLE_RATE", "lots", "a count of at least 1 per s, min, hour or day"),
        # Operator QA: 0/min was taken, and refused every request for good.
        ("AI_THROTTLE_RATE", "0/min", "a count of at least 1 per s, min"),
        ("GAME_CREATE_RATE", "00/h", "a count of at least 1 per s, min"),
        ("LIVE_MODEL_SAVE_EVERY", "ten", "a whole number of at least 1"),
        ("LOG_LEVEL", "LOUD", "DEBUG, INFO, WARNING, ERROR or CRITICAL"),
        ("DEBUG", "maybe", "1, true, yes or on, or 0, false, no or off"),
        # QA: AI_NICE=40 was taken; AI_WARM_JOBS=two killed the warm-up and
        # the AI compiled in the server; AI_WARM_UP=maybe read as on.
        ("AI_NICE", "40", "a whole number from 0 to 19"),
        ("AI_WARM_JOBS", "two", "a whole number of at least 1"),
        ("AI_WARM_UP", "maybe", "1, true, yes or on, or 0, false, no or off"),
        # Operator QA: REDIS_URL=notaurl started a server whose every new game
        # was a 500, MODEL_DIR=/nonexistent one that refused the page's first
        # game; the others were tracebacks that did not name the setting.
        ("REDIS_URL", "notaurl", "redis://host:port/db"),
        ("MODEL_DIR", "/nonexistent", "a folder that holds the tree models"),
        ("DATABASE_URL", "bogus://", "a database URL such as postgres://"),
        ("AI_BACKEND", "celerx", "local or celery"),
        ("SECRET_KEY_FILE", "/nonexistent/dir/key", "a file this user can create"),
        # Operator QA: LIVE_MODEL=light grew over the shipped light model,
        # LIVE_MODEL=../etc was taken, GAME_EXPIRY_DAYS=0 passed and
        # expiregames then failed naming a flag nobody gave.
        ("LIVE_MODEL", "light", "a name no shipped model has, or empty"),
        ("LIVE_MODEL", "full", "a name no shipped model has, or empty"),
        ("LIVE_MODEL", "../etc", "a folder name (letters, digits, - and _)"),
        # Operator QA: -1 asked for "at least 0", 0 for "more than 0", and
        # inf passed, to fail in expiregames naming its --days.
        ("GAME_EXPIRY_DAYS", "0", "a number more than 0 and at most 700000"),
        ("GAME_EXPIRY_DAYS", "-1", "a number more than 0 and at most 700000"),
        ("GAME_EXPIRY_DAYS", "inf", "a number more than 0 and at most 700000"),
        # Operator QA: no host at all started a server that refused every
        # request (400, "check the Host header").
        ("ALLOWED_HOSTS", ",", "host names, separated by commas"),
        # Operator QA: a URL or a space passed, to refuse every request.
        (
            "ALLOWED_HOSTS",
            "http://games.example.com/",
            "host names, separated by commas",
        ),
        ("ALLOWED_HOSTS", "localhost,my host", "host names, separated by commas"),
    ],
)
def test_a_setting_that_cannot_be_used_stops_the_start_naming_it(
    setting, value, expected
):
    # QA: AI_WORKERS=0 started a server whose every AI request was 503,
    # AI_THROTTLE_RATE=lots one whose every AI request was a 500, and
    # LIVE_MODEL_SAVE_EVERY=ten a traceback naming no setting.
    # A key of its own would leave SECRET_KEY_FILE unread.
    key = {"SECRET_KEY": ""} if setting == "SECRET_KEY_FILE" else {}
    result = run_manage("check", **{setting: value, **key})
    assert result.returncode != 0
    # One line (operator QA: under make run, 45 lines of traceback that
    # opened on a KeyError: 'collectstatic').
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(
        f"ImproperlyConfigured: {setting}={value!r}: expected {expected}"
    )


@pytest.mark.parametrize("setting", ["NUM_PROXIES", "AI_WORKERS", "GAME_EXPIRY_DAYS"])
def test_an_empty_number_setting_is_its_default(setting):
    # Operator QA: an env file that lists every variable, some empty: an
    # empty flag or host list was its default, an empty number refused.
    result = run_manage("check", **{setting: ""})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("MODEL_DIR", "a folder this user can write"),
        ("DATABASE_URL", "an SQLite file this user can write"),
    ],
)
def test_a_folder_or_database_the_server_cannot_write_stops_the_start(
    tmp_path, setting, expected
):
    """Operator QA: with model/ or the database read-only, the server
    started, then logged an error at every finished game, or answered each
    move 500. (The process sees ``tmp_path`` unwritable: the tests run as
    root, whom no mode stops.)"""
    shutil.copytree(ROOT / "model" / "loa" / "light", tmp_path / "loa" / "light")
    database = tmp_path / "db.sqlite3"
    database.touch()
    unwritable = {"MODEL_DIR": tmp_path, "DATABASE_URL": database}[setting]
    env = {"MODEL_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{database}"}
    start = (
        "import os, runpy, sys\n"
        f"denied, real = {str(unwritable)!r}, os.access\n"
        "os.access = lambda p, m, **k: str(p) != denied and real(p, m, **k)\n"
        "sys.argv = ['manage.py', 'check']\n"
        "runpy.run_path('manage.py', run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", start],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"{setting}='{unwritable}': expected {expected}" in result.stderr


def test_a_database_file_that_is_not_sqlite_stops_the_start_naming_it(tmp_path):
    """Operator QA: a damaged database file stopped ``make run`` with
    migrate's traceback ("file is not a database"), naming no setting."""
    database = tmp_path / "db.sqlite3"
    database.write_bytes(b"\x00garbage, not a database" * 100)
    result = run_manage("check", DATABASE_URL=f"sqlite:///{database}")
    assert result.returncode != 0
    assert (
        f"DATABASE_URL='{database}': expected an SQLite database (this file is"
        " not one: restore it from a backup, docs/deploy.md)"
    ) in result.stderr


def test_an_empty_database_file_is_a_new_database(tmp_path):
    database = tmp_path / "db.sqlite3"
    database.touch()
    result = run_manage("check", DATABASE_URL=f"sqlite:///{database}")
    assert result.returncode == 0, result.stderr


_LOG_A_REQUEST = (
    "import logging, django\n"
    "django.setup()\n"
    "logging.getLogger('uvicorn.access').info("
    "'%s - \"%s %s HTTP/%s\" %d', '10.0.0.1', 'GET', '/x/', '1.1', 200)\n"
    "logging.getLogger('uvicorn.error').info('serving')\n"
    "logging.getLogger('uvicorn.error').info("
    "'%s - \"WebSocket %s\" [accepted]', '10.0.0.1:5', '/ws/games/x/')\n"
    "logging.getLogger('uvicorn.error').info('connection open')\n"
)


@pytest.mark.parametrize("access_log", ["1", "0"])
def test_access_log_turns_each_request_s_line_off(access_log):
    """Operator QA: uvicorn's --no-access-log was undone by the settings'
    logging, and no setting turned the line per request off."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "webgame.settings"}
    result = subprocess.run(
        [sys.executable, "-c", _LOG_A_REQUEST],
        cwd=ROOT,
        env={**env, "ACCESS_LOG": access_log},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert ('"GET /x/ HTTP/1.1" 200' in result.stdout) == (access_log == "1")
    assert "uvicorn: serving" in result.stderr  # the server's own lines stay
    # Each socket's lines are access lines too (operator QA: two a socket
    # stayed with ACCESS_LOG=0).
    for line in ('"WebSocket /ws/games/x/" [accepted]', "connection open"):
        assert (line in result.stderr) == (access_log == "1"), line


_DEBUG_START = (
    "import webgame.asgi\n"
    "from django.test import Client\n"
    "client = Client(HTTP_HOST='localhost')\n"
    "for path in ('/static/theme.js', '/static/board/main.js'):\n"
    "    print(path, client.get(path).status_code)\n"
)


def test_a_server_started_with_debug_on_says_so_and_serves_its_scripts():
    """Operator QA: ``DEBUG=1 make run`` started without a word, and its
    page came without its scripts (404: only runserver served them)."""
    result = subprocess.run(
        [sys.executable, "-c", _DEBUG_START],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1", "AI_WARM_UP": "0"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "WARNING webgame: DEBUG is on: error pages show the code" in result.stderr
    assert result.stdout.split() == [
        "/static/theme.js",
        "200",
        "/static/board/main.js",
        "200",
    ]


def test_make_n_run_only_prints_the_commands():
    # A line naming $(MAKE) runs even under -n: `make -n run` served (QA).
    port = free_port()
    shown = run_make("-n", "run", f"PORT={port}")
    assert shown.returncode == 0, shown.stderr
    assert "uvicorn webgame.asgi:application" in shown.stdout
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0  # nothing serves there


@pytest.mark.parametrize("port", ["abc", "99999", "0"])
def test_make_run_refuses_a_port_that_is_no_port_in_one_line(port):
    # Operator QA: PORT=99999 was an OverflowError's traceback.
    done = run_make("run", f"PORT={port}")
    assert done.returncode != 0
    assert f"make run: PORT='{port}' is not a port number (1 to 65535)" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("host", ["nohost.invalid", "192.0.2.1"])
def test_make_run_refuses_a_host_that_is_not_this_machines_in_one_line(host):
    # Operator QA: it said "another server there? Stop it, or choose
    # another PORT=", of a host name that does not resolve.
    done = run_make("run", f"HOST={host}", f"PORT={free_port()}")
    assert done.returncode != 0
    assert f"make run: HOST={host!r} is not an address of this machine" in done.stderr
    assert "PORT=" not in done.stderr and "Traceback" not in done.stderr


def test_a_database_that_does_not_answer_stops_migrate_in_one_line():
    """Operator QA: ``make run`` with PostgreSQL down stopped on migrate's
    traceback, 40 lines of it, before the server's own one-line 503s."""
    nobody = socket.socket()
    nobody.bind(("127.0.0.1", 0))  # a port where nothing listens
    port = nobody.getsockname()[1]
    nobody.close()
    result = run_manage(
        "migrate", "--noinput", DATABASE_URL=f"postgres://u:p@127.0.0.1:{port}/db"
    )
    assert result.returncode != 0
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(
        "CommandError: the database (DATABASE_URL) does not answer: connection failed"
    )

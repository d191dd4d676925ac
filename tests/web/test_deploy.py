"""Production settings pass Django's deployment checks (and the schema's)."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args, **env):
    environment = {**os.environ, **env}
    environment.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
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


def test_production_refuses_to_start_without_a_secret_key():
    done = run_manage("check", DEBUG="0", SECRET_KEY="")
    assert done.returncode != 0
    assert "SECRET_KEY" in done.stderr


def test_schema_generates_without_warnings():
    done = run_manage(
        "spectacular", "--validate", "--fail-on-warn", "--file", os.devnull
    )
    assert done.returncode == 0, done.stdout + done.stderr

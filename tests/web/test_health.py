"""``GET /healthz`` for balancers and monitors (webgame/health.py): answered
by the machine's address over plain HTTP, 503 until the AI is ready or while
the database or the cache does not answer (operator QA: a health check had
to name the site's host and send X-Forwarded-Proto, or it got 400)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, override_settings
from redis.exceptions import ConnectionError as RedisConnectionError

from webgame import health, services

ROOT = Path(__file__).resolve().parents[2]

#: The site as deployed: its own host only, and HTTPS.
DEPLOYED = {"ALLOWED_HOSTS": ["play.example.com"], "SECURE_SSL_REDIRECT": True}


def _ask(method: str = "get"):
    with override_settings(**DEPLOYED):
        return getattr(Client(HTTP_HOST="10.0.0.7"), method)(health.PATH)


@pytest.mark.django_db
def test_a_ready_server_answers_ok_by_its_address_over_plain_http():
    response = _ask()
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "cache": "ok",
        "ai": "ready",
    }
    assert response["Cache-Control"] == "no-store"
    assert _ask("head").status_code == 200
    # Another method is told which it takes, as the API tells it (operator
    # QA: a POST was answered 404 "no such URL").
    refused = _ask("post")
    assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD"
    assert refused.json() == {
        "error": "method_not_allowed",
        "detail": "this URL does not take POST: it takes GET",
    }
    # Everything else by that address is refused as before.
    with override_settings(**DEPLOYED):
        assert Client(HTTP_HOST="10.0.0.7").get("/api/ai/").status_code == 400


@pytest.mark.django_db
def test_a_server_still_compiling_its_ai_is_not_ready():
    warming = {"ready": False, "games": {}}
    with mock.patch.object(services, "ai_readiness", return_value=warming):
        response = _ask()
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json()["status"] == "starting"
    assert response.json()["ai"] == "starting"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("part", "fault", "words"),
    [
        ("database", OperationalError("unable to open database file"), "database"),
        ("cache", RedisConnectionError("Connection refused"), "cache (REDIS_URL)"),
    ],
)
def test_a_database_or_cache_that_does_not_answer_fails_the_check(
    caplog, part, fault, words
):
    target = (
        mock.patch.object(health.connection, "cursor", side_effect=fault)
        if part == "database"
        else mock.patch.object(health.cache, "get", side_effect=fault)
    )
    with target, caplog.at_level(logging.WARNING, logger="webgame.health"):
        response = _ask()
    assert response.status_code == 503
    assert response.json()["status"] == "failing"
    assert response.json()[part] == "failing"
    said = [r.getMessage() for r in caplog.records if r.name == "webgame.health"]
    assert said == [f"health check: the {words} does not answer"]
    # And the 503, as every 5xx (one WARNING line: webgame/logfilters.py).
    assert any(r.name == "django.request" for r in caplog.records)


_LOG_TWO_CHECKS = (
    "import logging, django\n"
    "django.setup()\n"
    "access = logging.getLogger('uvicorn.access')\n"
    "for status in (200, 503):\n"
    "    access.info('%s - \"%s %s HTTP/%s\" %d', '10.0.0.1', 'GET', '/healthz',"
    " '1.1', status)\n"
    "access.info('%s - \"%s %s HTTP/%s\" %d', '10.0.0.1', 'GET', '/', '1.1', 200)\n"
)


def test_a_passed_check_leaves_no_access_line_and_a_failed_one_does():
    """A balancer asks every few seconds: its passed checks would be most of
    the access log."""
    result = subprocess.run(
        [sys.executable, "-c", _LOG_TWO_CHECKS],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "webgame.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert '"GET /healthz HTTP/1.1" 200' not in result.stdout
    assert '"GET /healthz HTTP/1.1" 503' in result.stdout
    assert '"GET / HTTP/1.1" 200' in result.stdout


def test_a_database_without_the_games_fails_the_check(tmp_path):
    # Operator QA: its file moved away under the server (or never migrated),
    # the database answered SELECT 1 and the check said ok, every game a 500.
    script = (
        "import json, django\n"
        "django.setup()\n"
        "from webgame import health\n"
        "print(json.dumps(health.health()))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
            "AI_WARM_UP": "0",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    status, body = json.loads(done.stdout.strip().splitlines()[-1])
    assert (status, body["database"]) == (503, "failing"), done.stderr
    assert "health check: the database does not answer" in done.stderr

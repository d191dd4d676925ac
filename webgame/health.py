"""``GET /healthz``: whether this web process can serve games, for a load
balancer, an orchestrator's readiness probe or a monitor.

- 200 ``{"status": "ok", ...}``: the database answers, so does the cache
  (Redis, with ``REDIS_URL``), and each game's AI is ready.
- 503 ``{"status": "starting", ...}`` while a first start compiles the AI (a
  move asked for meanwhile would wait): the server answers pages, but a
  balancer should send players to a ready one.
- 503 ``{"status": "failing", ...}`` when the database or the cache does not
  answer, with a WARNING line naming it.
- 405 to any method but ``GET`` and ``HEAD``, as the API answers one.

It is answered before the host check and the HTTPS redirect: a health check
comes by the machine's address over plain HTTP (Docker, Kubernetes, a load
balancer), and Django refused a bare ``127.0.0.1`` with 400 (operator QA). It
tells nothing a player's page does not see (``GET /api/ai/``), and costs one
read of a row of the games' table and one cache read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

#: The health check's path, at the root of the host (no language prefix).
PATH = "/healthz"


def _database() -> bool:
    from .models import Game  # see health(): not at the top

    try:
        with connection.cursor() as cursor:
            # The games' table, not SELECT 1: a database never migrated, or
            # its file moved away under the server, answered that while
            # every game was a 500 (operator QA).
            cursor.execute(f"SELECT 1 FROM {Game._meta.db_table} LIMIT 1")
        return True
    except Exception:  # any driver's error: the answer is "failing"
        log.warning("health check: the database does not answer")
        return False


def _cache() -> bool:
    try:
        cache.get("healthz")
        return True
    except Exception:  # Redis's ConnectionError, TimeoutError and kin
        log.warning("health check: the cache (REDIS_URL) does not answer")
        return False


def health() -> tuple[int, dict]:
    """Return the HTTP status and the JSON of this process's health (module
    docstring)."""
    # Here, not at the top: the logging settings read PATH before the app's
    # models can be imported (webgame/logfilters.py).
    from . import services

    checks = {"database": _database(), "cache": _cache()}
    ready = services.ai_readiness()["ready"]
    status = "failing" if not all(checks.values()) else "ok" if ready else "starting"
    body = {
        "status": status,
        "database": "ok" if checks["database"] else "failing",
        "cache": "ok" if checks["cache"] else "failing",
        "ai": "ready" if ready else "starting",
    }
    return (200 if status == "ok" else 503), body


class HealthMiddleware:
    """Answer ``GET`` and ``HEAD /healthz`` before any other middleware
    (first in settings.MIDDLEWARE); pass every other request on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return _not_allowed(request)
        code, body = health()
        response = JsonResponse(body, status=code)
        response["Cache-Control"] = "no-store"
        if code == 503:
            response["Retry-After"] = "5"
        return response


def _not_allowed(request: HttpRequest) -> HttpResponse:
    """405 for any other method, as the API answers one (operator QA: a POST
    was told "no such URL: /healthz")."""
    from .clients import client_of, log_refusal
    from .error_responses import error_body

    method = request.method or ""
    detail = _("this URL does not take %(method)s: it takes %(allowed)s") % {
        "method": method,
        "allowed": "GET",
    }
    log_refusal(method, PATH, client_of(request), 405, "method_not_allowed")
    response = JsonResponse(error_body("method_not_allowed", detail), status=405)
    response["Allow"] = "GET, HEAD"
    return response

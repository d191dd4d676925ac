"""Logging filters: an expected refusal is one quiet line, a real fault keeps
its traceback at ERROR.

- ``django.security.DisallowedHost`` (a request for a host the site does not
  serve: scanners send them all day) is logged by Django at ERROR with a
  traceback; here it is one WARNING line.
- ``django.request`` logs every 5xx response at ERROR. A 503 is the AI
  being busy (a refusal the client is told to retry after, Retry-After),
  not a fault: one WARNING line. Every other 5xx stays an ERROR with its
  traceback.
- uvicorn's access line of a passed health check (``GET /healthz`` answered
  200, every few seconds from a balancer) is left out; a failed one stays.
- With ``ACCESS_LOG=0``, uvicorn's lines for each socket opened and closed
  (its access lines by another logger) are left out too.
"""

from __future__ import annotations

import logging

from .health import PATH as HEALTH_PATH


def _quiet(record: logging.LogRecord, level: int = logging.WARNING) -> None:
    """Make ``record`` one line at ``level``, without a traceback."""
    record.levelno = level
    record.levelname = logging.getLevelName(level)
    record.exc_info = None
    record.exc_text = None


class ExpectedRefusal(logging.Filter):
    """One WARNING line for a refusal that is not a fault (module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        busy = getattr(record, "status_code", 0) == 503
        if record.name == "django.security.DisallowedHost" or busy:
            _quiet(record)
        return True


class PassedHealthCheck(logging.Filter):
    """Leave out the access line of a ``/healthz`` answered 200 (module
    docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        # uvicorn's access record: (client, method, path, HTTP version, status).
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            return not (args[2] == HEALTH_PATH and args[4] == 200)
        return True


#: uvicorn's lines (and its websockets library's) for each socket.
SOCKET_LINES = (
    '%s - "WebSocket %s" [accepted]',
    "connection open",
    "connection closed",
)


class SocketLines(logging.Filter):
    """Leave out uvicorn's lines for each socket (module docstring)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in SOCKET_LINES

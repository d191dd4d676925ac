"""Logging filters: an expected refusal is one quiet line, a real fault keeps
its traceback at ERROR.

- ``django.security.DisallowedHost`` (a request for a host the site does not
  serve: scanners send them all day) is logged by Django at ERROR with a
  traceback; here it is one WARNING line.
- ``django.request`` logs every 5xx response at ERROR. A 503 is the AI
  being busy (a refusal the client is told to retry after, Retry-After),
  not a fault: one WARNING line. Every other 5xx stays an ERROR with its
  traceback.
"""

from __future__ import annotations

import logging


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

"""The page's build: a hash of the files the page is made of (its scripts,
styles, template and translations), read once as the server starts.

The page names the build it was made of (``data-build`` on its body) and
every answer names the server's (``X-Page-Build``), so that a page left open
across an upgrade sees that it runs the old scripts and offers a reload
(static/board/api.js). QA: after an upgrade, the open pages ran the old
scripts against the new server, and nothing said so.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse

#: The folders whose files make the page.
SOURCES = tuple(
    settings.BASE_DIR / folder for folder in ("static", "templates", "locale")
)


def compute() -> str:
    """Return the hash of every file in :data:`SOURCES` (12 hex digits)."""
    digest = hashlib.sha256()
    for folder in SOURCES:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@functools.cache
def page_build() -> str:
    """Return this server's build of the page (computed once)."""
    return compute()


class PageBuildMiddleware:
    """Name the page's build in every answer (``X-Page-Build``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response["X-Page-Build"] = page_build()
        return response

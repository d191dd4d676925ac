"""The errors the API reports, each a 4xx with ``{"error": code, "detail": text}``.

Services raise these; :mod:`webgame.error_responses` turns them into responses.
:func:`api_style` words a library's message (Django REST framework's, the
JSON decoder's) as the API words its own.
They live apart from the services so that the exception handler does not
import the game library.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import status


class ServiceError(Exception):
    """A request the services refuse; nothing was changed.

    ``code`` is the machine-readable ``error`` of the response, ``detail`` says
    what was wrong and what is accepted, ``status_code`` is the HTTP status,
    ``headers`` any extra response headers (such as ``Retry-After``) and
    ``extra`` any further fields of the body (such as an import's
    ``reads_as``).
    """

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        headers: dict | None = None,
        extra: dict | None = None,
    ):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra or {}


class GameNotFound(ServiceError):
    """No game has this id."""

    status_code = status.HTTP_404_NOT_FOUND

    def __init__(self, game_id):
        super().__init__(
            "not_found",
            _("no game has the id %(id)s") % {"id": repr(str(game_id))},
        )


class ModelNotFound(ServiceError):
    """No tree model of this name is on disk for the game."""

    status_code = status.HTTP_404_NOT_FOUND

    def __init__(self, game: str, name: str):
        super().__init__(
            "unknown_model",
            _("no model %(name)s for %(game)s on disk")
            % {"name": repr(name), "game": game},
        )


class Forbidden(ServiceError):
    """The request is not the asker's to make (403): a seat's token missing
    or not the acting side's, a side played by the AI, the computer's help
    in a game between two seats."""

    status_code = status.HTTP_403_FORBIDDEN


class Conflict(ServiceError):
    """Another request changed the game first (or the AI is thinking on it)."""

    status_code = status.HTTP_409_CONFLICT


class Busy(ServiceError):
    """Every AI worker is taken; the client should retry after a moment."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE

    code = "busy"

    def __init__(self, detail: str, *, retry_after: int):
        super().__init__(self.code, detail, headers={"Retry-After": str(retry_after)})


class Restarting(Busy):
    """The server is stopping (a restart): a search waiting, or asked now, is
    refused; the client asks again once it is back (the page said "The
    server is busy" of a restart: verification QA)."""

    code = "restarting"


class TooFast(ServiceError):
    """A client asks faster than allowed; it may ask again after a moment."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS

    def __init__(self, detail: str, *, retry_after: int):
        super().__init__("too_fast", detail, headers={"Retry-After": str(retry_after)})


def api_style(message: str) -> str:
    """``message`` as the API words its own: no full stop at its end, and a
    first word in lower case unless it is a name ("JSON") (verification
    walk: Django REST framework's "This field is required.")."""
    message = message.rstrip(".。")
    first = message.split(" ", 1)[0]
    if first[:1].isupper() and not (len(first) > 1 and first.isupper()):
        message = message[0].lower() + message[1:]
    return message

"""One error shape for the whole API: ``{"error": "<code>", "detail": "<text>"}``.

DRF's own exceptions (parse errors, 404, 405, 415, throttling, validation),
the services' :class:`~webgame.errors.ServiceError` and Django's "body too
large" all come out in that shape; a validation failure adds ``fields`` with
DRF's per-field messages for clients that want to mark the form.
"""

from __future__ import annotations

import logging

import redis
from django import db
from django.core.exceptions import DisallowedHost, RequestDataTooBig
from django.http import Http404, HttpResponse, JsonResponse
from django.http.request import split_domain_port
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from .errors import ServiceError, api_style

log = logging.getLogger(__name__)

#: The seconds a client is asked to wait when the server's Redis or its
#: database is down.
STORE_RETRY_SECONDS = 5

#: The ``error`` code of a validation failure, by the name of the field at fault.
FIELD_CODES = {
    "game": "unknown_game",
    "options": "invalid_options",
    "players": "invalid_players",
    "kind": "invalid_players",
    "model": "unknown_model",
    "think_time": "invalid_think_time",
    "level": "invalid_level",
    "move": "invalid_move",
    "record": "invalid_record",
    "version": "invalid_version",
    "ply": "invalid_ply",
    "choice": "invalid_choice",
    "clock": "invalid_clock",
}

#: The body's field that a service's refusal of these codes is about, for
#: its ``fields`` (operator QA: a type error had it, the same field's other
#: faults not). A player's fields are left out: a service does not know
#: which side's they were.
CODE_FIELDS = {
    FIELD_CODES[field]: field
    for field in (
        "game",
        "options",
        "move",
        "record",
        "version",
        "ply",
        "choice",
        "clock",
    )
}

#: The ``error`` code of DRF's exceptions that are not validation failures.
EXCEPTION_CODES = {
    exceptions.ParseError: "parse_error",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.Throttled: "throttled",
}


def error_body(code: str, detail: str) -> dict:
    """Return the API's error body for ``code`` and ``detail``."""
    return {"error": code, "detail": detail}


def api_exception_handler(exc, context) -> Response | None:
    """Return the error response for ``exc`` in the API's one shape, or None
    (an unexpected exception: Django then answers 500 through ``handler500``)."""
    if isinstance(exc, ServiceError):
        field = CODE_FIELDS.get(exc.code)
        fields = {"fields": {field: [exc.detail]}} if field else {}
        return Response(
            {**error_body(exc.code, exc.detail), **fields, **exc.extra},
            status=exc.status_code,
            headers=exc.headers,
        )
    if isinstance(exc, RequestDataTooBig):
        return Response(
            error_body(
                "payload_too_large",
                _("the request body is larger than the 64 KiB accepted"),
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    store = store_down(exc)
    if store is not None:
        # Operator QA: Redis down (the scale-out's throttles, seats and
        # searches) was a bare 500 at every request: a 503 that says so;
        # PostgreSQL down, a 500 logged with 80 lines of traceback.
        detail = (
            _("the server cannot reach its shared store (Redis); try again")
            if store == REDIS
            else _("the server cannot reach its database; try again")
        )
        log.error("%s does not answer: %s", store, one_line(exc))
        return Response(
            error_body("unavailable", detail),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(STORE_RETRY_SECONDS)},
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = _shortened(exc.detail)
        messages = list(_flatten(fields))
        response.data = {
            **error_body(_validation_code(messages), _join(messages)),
            "fields": fields,
        }
        return response
    code = next(
        (code for cls, code in EXCEPTION_CODES.items() if isinstance(exc, cls)),
        getattr(exc, "default_code", "error"),
    )
    response.data = error_body(code, _own_words(exc, context) or str(exc.detail))
    return response


def _own_words(exc, context) -> str | None:
    """Return the API's words for a refusal Django REST framework words in its
    own style ('Method "DELETE" not allowed.'), else None (API walk)."""
    request = context.get("request")
    if isinstance(exc, exceptions.MethodNotAllowed):
        view = context.get("view")
        allowed = [
            method
            for method in getattr(view, "allowed_methods", ())
            if method not in ("HEAD", "OPTIONS")
        ]
        return _("this URL does not take %(method)s: it takes %(allowed)s") % {
            "method": request.method,
            "allowed": ", ".join(allowed),
        }
    if isinstance(exc, exceptions.NotAcceptable):
        return _(
            "this API answers in JSON only: send an Accept header that takes "
            "application/json"
        )
    if isinstance(exc, exceptions.UnsupportedMediaType):
        media_type = (request.content_type or "").split(";")[0].strip() or "none"
        return _(
            "the body's type is %(type)s: send a JSON body with Content-Type: "
            "application/json"
        ) % {"type": media_type}
    wait = getattr(exc, "wait", None)  # Throttled's seconds, whole
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        return _("too many requests from this client: try again in %(seconds)s s") % {
            "seconds": wait
        }
    return None


REDIS = "Redis (REDIS_URL)"
DATABASE = "the database (DATABASE_URL)"


def store_down(exc: Exception) -> str | None:
    """Return the store that did not answer if ``exc`` says one did not
    (its name in the log: the operator reads which, then the message on one
    line, not a traceback), else None."""
    if isinstance(
        exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError
    ):
        return REDIS
    if isinstance(exc, db.OperationalError | db.InterfaceError):
        return DATABASE
    return None


def one_line(exc: Exception) -> str:
    """``exc``'s message on one line: a driver's may take several
    (psycopg's "connection failed: …" then "\tIs the server running …")."""
    return " ".join(str(exc).split())


#: The longest message of a field said whole: a longer one quotes a value
#: sent (a name of 60,000 characters), cut in its middle.
LONGEST_MESSAGE = 300


def _shortened(detail):
    """Return DRF's error tree ``detail`` with each message over
    :data:`LONGEST_MESSAGE` characters cut in the middle (…), its code kept."""
    if isinstance(detail, dict):
        return {key: _shortened(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_shortened(value) for value in detail]
    text = str(detail)
    if len(text) <= LONGEST_MESSAGE:
        return detail
    half = LONGEST_MESSAGE // 2
    code = getattr(detail, "code", "invalid")
    return exceptions.ErrorDetail(text[:half] + "…" + text[-half:], code=code)


def _flatten(detail, path: tuple[str, ...] = ()):
    """Yield (path, message, drf_code) for every message in a DRF error tree."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            yield from _flatten(value, (*path, str(key)))
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            inner = path if not isinstance(value, dict | list) else (*path, str(index))
            yield from _flatten(value, inner)
    else:
        yield path, str(detail), getattr(detail, "code", "invalid")


def _validation_code(messages) -> str:
    """Return the API code of the first field at fault, "invalid_request" when
    the body as a whole is wrong or a required field is missing."""
    for path, _message, drf_code in messages:
        names = [name for name in path if not name.isdigit()]
        if names and drf_code != "required":
            for name in reversed(names):
                if name in FIELD_CODES:
                    return FIELD_CODES[name]
    return "invalid_request"


def _join(messages) -> str:
    """Return the messages as one line, each prefixed by its field path."""
    parts = []
    for path, message, _code in messages:
        where = ".".join(name for name in path if name != "non_field_errors")
        message = api_style(message)
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def not_found(request, exception=None) -> HttpResponse:
    """Return the 404 for URLs no route matches (Django's handler404): a page
    for a browser (it asks for HTML), the API's JSON under ``/api/`` and for
    every other client."""
    wants_page = "text/html" in request.headers.get("Accept", "")
    if wants_page and not request.path.startswith("/api/"):
        return render(request, "404.html", {"path": request.path}, status=404)
    return JsonResponse(
        error_body("not_found", _("no such URL: %(path)s") % {"path": request.path}),
        status=status.HTTP_404_NOT_FOUND,
    )


def json_server_error(request) -> JsonResponse:
    """Return the 500 body (Django's handler500); the tests prove it unused."""
    return JsonResponse(
        error_body("server_error", _("the server failed; the error was logged")),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def bad_request(request, exception=None) -> HttpResponse:
    """Return the 400 for requests Django refuses before any view
    (handler400: e.g. a Host header not in ALLOWED_HOSTS): the API's JSON,
    but a page saying why to a browser at a host not allowed (operator QA:
    the site opened at the machine's address showed a player the JSON)."""
    wants_page = "text/html" in request.headers.get("Accept", "")
    if (
        isinstance(exception, DisallowedHost)
        and wants_page
        and not request.path.startswith("/api/")
    ):
        # Not render(): the request's context would ask for its host again.
        host, _port = split_domain_port(request.META.get("HTTP_HOST", ""))
        with translation.override(translation.get_language_from_request(request)):
            page = render_to_string("400.html", {"host": host})
        return HttpResponse(page, status=status.HTTP_400_BAD_REQUEST)
    return JsonResponse(
        error_body("bad_request", _("the request was refused: check the Host header")),
        status=status.HTTP_400_BAD_REQUEST,
    )

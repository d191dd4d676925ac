"""Request bodies Django can read: one sent with Transfer-Encoding (chunked)
is refused with 411 Length Required.

Under WSGI a chunked body reaches Django with no Content-Length, and Django
reads a body by its length: it would see none. A chunked PATCH then answered
200 and changed nothing, and a chunked ai-move with a stale version played
(issue 67, finding 3). A body must come with its Content-Length, which every
browser and HTTP library sends; anything else gets a clear refusal, not a
silent empty body.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from .error_responses import error_body


class LengthRequiredMiddleware:
    """Refuse a request that declares a Transfer-Encoding (411, JSON)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.META.get("HTTP_TRANSFER_ENCODING"):
            # This runs before LocaleMiddleware: the refusal picks the
            # request's language itself (cookie, Accept-Language).
            with translation.override(translation.get_language_from_request(request)):
                detail = _(
                    "send the body with a Content-Length: a chunked (or otherwise "
                    "transfer-encoded) request body is not accepted"
                )
            return JsonResponse(error_body("length_required", detail), status=411)
        return self.get_response(request)

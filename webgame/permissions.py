"""What every API request must be to change anything: JSON.

The API has no cookies to protect, but a page on another site can still
make a browser POST to ``/api/games/{id}/undo/`` of a game whose id it
learned: a form (``application/x-www-form-urlencoded``,
``multipart/form-data`` or ``text/plain``, even with an empty body) or a
``no-cors`` fetch, and no preflight asks first. A request with
``Content-Type: application/json`` cannot be sent cross-site without the CORS
preflight this server never grants. So a request that changes something must
declare JSON (415 otherwise, before any view runs), with one exception kept
for scripts and ``curl -X POST``: no body and no Content-Type at all, from a
client that is not a browser on another site (browsers say where a request
comes from in ``Sec-Fetch-Site``). Reads stay open.
"""

from __future__ import annotations

from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.permissions import SAFE_METHODS, BasePermission

#: Sec-Fetch-Site values of a request another site's page made the browser send.
FOREIGN = ("cross-site", "same-site")


class JSONRequestsOnly(BasePermission):
    """Allow a read, or a change whose body is declared JSON (or which has no
    body at all and does not come from another site's page)."""

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS or not hasattr(view, request.method.lower()):
            return True  # a read, or a method the view refuses anyway (405)
        meta = request.META
        media_type = (meta.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
        if media_type == "application/json":
            return True
        empty = not media_type and meta.get("CONTENT_LENGTH") in (None, "", "0")
        if empty and meta.get("HTTP_SEC_FETCH_SITE", "").lower() not in FOREIGN:
            return True
        raise UnsupportedMediaType(media_type or "none")

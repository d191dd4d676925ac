"""Post-processing of the OpenAPI schema, so that it says what the server
does (a fuzzer reading it, schemathesis in the tests, finds no gap):

- request bodies refuse properties they do not name (the serializers refuse
  unknown fields) unless they are free-form maps (a game's ``options``);
- every POST and PATCH needs its JSON body (``{}`` at least): the server
  refuses bodies that are not declared JSON (see :mod:`webgame.permissions`),
  with 415, and bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with 413, which
  each such operation lists here rather than in its view;
- a seat's token is a security scheme, the ``X-Seat-Token`` header, which
  each operation that can refuse a seat (403) takes, optionally (the docs
  page's Authorize sends it); and a 429 or 503 says when to retry, in its
  ``Retry-After`` header (QA: a client made from the schema knew neither).
"""

from __future__ import annotations

#: The answer to a body too large (413) or not JSON (415): the API's error.
BODY_REFUSED = {
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    "description": "",
}


#: The header a 429 or a 503 answer carries.
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "seconds to wait before asking again (a 503 "
        "`ai_unavailable`, Celery's workers out of reach, gives none)",
    }
}


def seats_and_waits(result, generator, request, public):
    """Return the schema with the seat token's scheme on the operations that
    take it and ``Retry-After`` on their 429 and 503 answers."""
    from .services.seats import TOKEN_HEADER

    schemes = result.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes["SeatToken"] = {
        "type": "apiKey",
        "in": "header",
        "name": TOKEN_HEADER,
        "description": "the secret of a seat in a game with a friend, "
        "which only its holder is given",
    }
    for path in result.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            if "403" in responses:
                operation["security"] = [{}, {"SeatToken": []}]
            for code in ("429", "503"):
                if code in responses:
                    responses[code] = {**responses[code], "headers": RETRY_AFTER}
    return result


def strict_requests(result, generator, request, public):
    """Return the schema with closed request objects and required bodies."""
    components = result.get("components", {}).get("schemas", {})
    for name, component in components.items():
        if name.endswith("Request") and component.get("type") == "object":
            component.setdefault("properties", {})
            component["additionalProperties"] = False
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method in ("post", "patch", "put"):
                body = operation.setdefault(
                    "requestBody",
                    {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "additionalProperties": False,
                                }
                            }
                        }
                    },
                )
                body["required"] = True
                for code in ("413", "415"):
                    operation["responses"].setdefault(code, BODY_REFUSED)
    return result

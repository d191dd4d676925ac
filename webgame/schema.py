"""Post-processing of the OpenAPI schema, so that it says what the server
does (a fuzzer reading it, schemathesis in the tests, finds no gap):

- request bodies refuse properties they do not name (the serializers refuse
  unknown fields) unless they are free-form maps (a game's ``options``);
- every POST and PATCH needs its JSON body (``{}`` at least): the server
  refuses bodies that are not declared JSON (see :mod:`webgame.permissions`),
  with 415, and bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with 413, which
  each such operation lists here rather than in its view.
"""

from __future__ import annotations

#: The answer to a body too large (413) or not JSON (415): the API's error.
BODY_REFUSED = {
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    "description": "",
}


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

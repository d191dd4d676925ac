"""Small helpers shared by the API tests."""

from __future__ import annotations

from django.urls import reverse

#: Search settings that keep AI moves fast in tests: level 1 is 10 simulations.
FAST_AI = {"kind": "ai", "level": 1}
HUMAN = {"kind": "human"}


def create(client, game="reversi", *, options=None, black=HUMAN, white=HUMAN):
    """Return the response of creating a game."""
    body = {"game": game, "players": {"black": black, "white": white}}
    if options is not None:
        body["options"] = options
    return client.post(reverse("game-create"), body, format="json")


def url(name: str, game_id) -> str:
    """Return the URL of the game endpoint ``name`` for ``game_id``."""
    return reverse(name, kwargs={"pk": game_id})


def assert_error(response, status_code: int, code: str) -> dict:
    """Assert the response is the API's error shape with this status and code;
    return the body."""
    assert response.status_code == status_code, response.content
    body = response.json()
    assert body["error"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body

"""Fixtures of the API tests.

The AI throttle is off by default here (a full AI-vs-AI game makes more AI
requests a minute than any client should); the throttling test turns it on.
"""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from .helpers import url

#: The game of the ``friends`` fixture: Gomoku at 3+2.
GOMOKU_3_2 = {"game": "gomoku", "clock": {"initial": 180, "increment": 2}}


@pytest.fixture(autouse=True)
def _no_throttle_and_a_clean_cache(settings):
    settings.AI_THROTTLE_RATE = None
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def friends():
    """Return (game id, black's token, white's token) of a Gomoku game at 3+2
    between two seats, both taken."""
    return friends_at_3_2()


def friends_at_3_2() -> tuple[str, str, str]:
    """Make the game of :func:`friends`: (its id, black's, white's token)."""
    client = APIClient()
    made = client.post(
        "/api/games/", {**GOMOKU_3_2, "friend": {"side": "black"}}, format="json"
    ).json()
    joined = client.post(
        url("game-join", made["id"]), {"invite": made["invite"]}, format="json"
    ).json()
    assert made["seat"]["side"] == "black" and joined["seat"]["side"] == "white"
    return made["id"], made["seat"]["token"], joined["seat"]["token"]

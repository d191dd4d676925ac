"""Fixtures of the API tests.

The AI throttle is off by default here (a full AI-vs-AI game makes more AI
requests a minute than any client should); the throttling test turns it on.
"""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _no_throttle_and_a_clean_cache(settings):
    settings.AI_THROTTLE_RATE = None
    cache.clear()
    yield
    cache.clear()

"""Per-client throttling of the AI endpoints (they cost seconds of CPU) and of
game creation (each game is a row kept until it expires, and a QR code of its
link costs CPU)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from .clients import client_of


class AIRateThrottle(SimpleRateThrottle):
    """At most ``settings.AI_THROTTLE_RATE`` AI requests per client
    (:func:`webgame.clients.client_of`: an address, an IPv6 /64).

    The rate is read from the settings on every request rather than from
    DRF's class-level ``THROTTLE_RATES`` (bound once at import), so tests can
    change it with ``override_settings``.
    """

    scope = "ai"

    def get_rate(self) -> str | None:
        """Return the rate such as ``"240/min"``, or None for no limit."""
        return settings.AI_THROTTLE_RATE

    def get_cache_key(self, request, view) -> str:
        """Return the cache key of the client's request history (the client
        as the AI's sharing names it: an IPv6 address's /64)."""
        return self.cache_format % {"scope": self.scope, "ident": client_of(request)}


class GameCreateThrottle(AIRateThrottle):
    """At most ``settings.GAME_CREATE_RATE`` new games and seats (create,
    import, join, share, rematch) and QR codes of their links per client address."""

    scope = "create"

    def get_rate(self) -> str | None:
        """Return the rate such as ``"30/min"``, or None for no limit."""
        return settings.GAME_CREATE_RATE

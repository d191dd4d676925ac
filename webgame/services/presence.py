"""Who is at a game: the live sockets of its two seats and of its watchers,
and since when a seat with no socket has been gone.

The counts live in Django's cache, shared by the web processes when
``REDIS_URL`` is set. A seat is seen when its socket opens or closes and when
a request carries its token (an API client plays without a socket, a page
whose socket cannot connect polls): such requests keep a seat with no socket
here for :data:`POLLED_HERE` seconds. A seat not here is *gone* from the last
time it was seen; when that is not
known (the server restarted), from the moment its opponent's socket came.
Once a seat has been gone ``LIVE_GONE_SECONDS`` (``LIVE_GONE_UNTIMED_SECONDS``
in a game without a clock: :func:`gone_after`), its opponent may claim the
game (:func:`webgame.services.friends.claim`), as lichess lets a player whose
opponent left force the resignation or the draw.
"""

from __future__ import annotations

import time
import uuid

from django.conf import settings
from django.core.cache import cache

from . import live
from .sides import SIDES, other_side

#: How long a count or a sighting is kept without change (a process killed
#: without closing its sockets leaves counts that expire).
KEEP_SECONDS = 24 * 3600
#: A key this process sets with each count in: while it is there, the store
#: holds the counts this process made (see :func:`kept`).
MARK = f"live:process:{uuid.uuid4().hex}"


def count(key: str, step: int) -> int:
    """Add ``step`` to the shared counter ``key`` and return its value: the
    backend's own incr, atomic (a lock in memory, INCR in Redis); Django's
    async ``aincr`` is a read and a write, and sockets opened at once lost
    counts through it."""
    if step > 0:
        cache.set(MARK, True, KEEP_SECONDS)
    cache.add(key, 0, KEEP_SECONDS)
    try:
        return cache.incr(key, step)
    except ValueError:  # expired between the two calls
        cache.add(key, max(step, 0), KEEP_SECONDS)
        return max(step, 0)


def kept() -> bool:
    """Return whether the store still holds the counts this process made
    (Redis may come back from an outage empty: a socket it dropped then has
    no count to take back, and taking one would take another socket's)."""
    return cache.get(MARK) is not None


def _key(game_id: object, who: str) -> str:
    return f"live:{game_id}:{who}"


def seen(game_id: object, side: str) -> None:
    """Note that ``side``'s seat is here now."""
    cache.set(_key(game_id, f"{side}:seen"), time.time(), KEEP_SECONDS)


#: A seat whose requests (its token's) came this recently, with no socket,
#: is here: its page follows the game by polling (every 3 s) where a socket
#: cannot connect. It was shown gone, and its friend offered a claim the
#: server refused (verification QA).
POLLED_HERE = 10
#: How often such a seat's requests tell the sockets on the game that it is
#: still here (their pages count the seat gone once :data:`POLLED_HERE` has
#: passed since the last told).
TELL_POLLED_EVERY = 4


def requested(game_id: object, side: str) -> None:
    """Note a request of ``side``'s seat (its token): it is seen, and with no
    socket it is here by its requests (:data:`POLLED_HERE`), which the
    sockets on the game are told at most every :data:`TELL_POLLED_EVERY`
    seconds."""
    seen(game_id, side)
    if (cache.get(_key(game_id, side)) or 0) > 0:
        return
    cache.set(_key(game_id, f"{side}:polled"), time.time(), KEEP_SECONDS)
    if cache.add(_key(game_id, f"{side}:told"), True, TELL_POLLED_EVERY):
        live.publish_presence(game_id, who_is_here(game_id))


def arrive(game_id: object, seat: str | None) -> None:
    """Count a socket in, as ``seat``'s player or a watcher (None). A seat's
    arrival starts its opponent's absence if nothing earlier is known. The
    count comes last: once it is made, all is (Redis may stop answering
    midway, and the socket then takes back only what was counted)."""
    if seat is not None:
        seen(game_id, seat)
        cache.add(_key(game_id, f"{other_side(seat)}:seen"), time.time(), KEEP_SECONDS)
    count(_key(game_id, seat or "watchers"), 1)


def leave(game_id: object, seat: str | None) -> None:
    """Count a socket out (as :func:`arrive` counted it in; the count last)."""
    if seat is not None:
        seen(game_id, seat)
    count(_key(game_id, seat or "watchers"), -1)


def playing(game_id: object, step: int, paused: int) -> None:
    """Count a page that plays a game without seats in (``step`` 1) or out
    (-1), and its pause (``paused`` 1 when it pauses, -1 when it resumes or
    goes paused)."""
    if step:
        count(_key(game_id, "playing"), step)
    if paused:
        count(_key(game_id, "paused"), paused)


def who_is_here(game_id: object) -> dict:
    """Return ``{"black": bool, "white": bool, "watchers": n, "playing": n,
    "paused": n, "gone": {side: seconds}, "gone_after": seconds,
    "gone_after_untimed": seconds, "polled":
    {side: seconds}, "polled_here": seconds}``: whether each seat is here (a
    socket, or requests within :data:`POLLED_HERE`), how many watch, how many
    pages play a game without seats and how many of them are paused, how
    long each seat not here has been gone (where known) and how long before
    its opponent may claim the game, and how long ago each seat here by its
    requests alone made its last."""
    names = [
        *SIDES,
        "watchers",
        "playing",
        "paused",
        *(f"{side}:seen" for side in SIDES),
        *(f"{side}:polled" for side in SIDES),
    ]
    found = cache.get_many([_key(game_id, name) for name in names])
    value = {name: found.get(_key(game_id, name)) for name in names}
    now = time.time()
    sockets = {side: (value[side] or 0) > 0 for side in SIDES}
    asked = {side: value[f"{side}:polled"] for side in SIDES}
    polled = {
        side: round(max(0.0, now - at), 1)
        for side, at in asked.items()
        if not sockets[side] and at is not None and now - at < POLLED_HERE
    }
    here = {side: sockets[side] or side in polled for side in SIDES}
    last = {side: value[f"{side}:seen"] for side in SIDES}
    return {
        **here,
        "polled": polled,
        "polled_here": POLLED_HERE,
        "watchers": max(0, value["watchers"] or 0),
        "playing": max(0, value["playing"] or 0),
        "paused": max(0, value["paused"] or 0),
        "gone": {
            side: round(max(0.0, now - seen_at), 1)
            for side, seen_at in last.items()
            if not here[side] and seen_at is not None
        },
        # Both: the page picks by its game's clock. This reads no game: it
        # runs for each socket that comes or goes, from the cache alone.
        "gone_after": settings.LIVE_GONE_SECONDS,
        "gone_after_untimed": settings.LIVE_GONE_UNTIMED_SECONDS,
    }


def gone_after(clock: dict | None) -> int:
    """Return how long a seat is gone from a game on ``clock`` (None: none)
    before its friend may claim the game."""
    return settings.LIVE_GONE_SECONDS if clock else settings.LIVE_GONE_UNTIMED_SECONDS


def gone_for(game_id: object, side: str) -> float | None:
    """Return how many seconds ``side``'s seat has been gone, or None while
    one of its sockets is open. Unknown (the server restarted and nobody
    came since) counts from now."""
    if (cache.get(_key(game_id, side)) or 0) > 0:
        return None
    now = time.time()
    cache.add(_key(game_id, f"{side}:seen"), now, KEEP_SECONDS)
    return max(0.0, now - cache.get(_key(game_id, f"{side}:seen"), now))

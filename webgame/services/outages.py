"""Outages of the shared store (Redis, with ``REDIS_URL``) that no clock counts.

With the scale-out's Redis down every request is refused (503
``unavailable``: the throttles, seats and searches live there), so nobody
can move; yet the side to move's clock ran on, and the flag watcher ended a
game on time (operator QA: a 15 s game lost during a 20 s outage). As a
restart of the server does (:mod:`.clocks`), an outage costs nobody time:

- the flag watcher asks the store at each look (:func:`watch_store`)
  and tells :data:`OUTAGE` whether it answered;
- while an outage lasts, and until its time is given, no game is ended on
  time or for a first move not made (:func:`.games.settle_clock` asks
  :attr:`Outage.down`);
- once the store answers again, the side to move of each running Fischer
  clock is given the time from the store's last answer before the outage (or
  from when that clock started, if later) to its first answer after, and a
  first move awaited has its whole time again (:func:`.games.make_up_for_outage`).

Each web process watches for itself. A clock notes up to when it was given
an outage's time (``outage_until``), so that the processes of a cluster,
which see the same outage, give its time once.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

from .clocks import now_ms

log = logging.getLogger(__name__)


def store_answers() -> bool:
    """Return whether the shared store (the cache: Redis) answers."""
    try:
        cache.get("outage-look")
    except Exception:  # Redis's ConnectionError, TimeoutError and kin
        return False
    return True


class Outage:
    """This process's view of the shared store's outages, told by the flag
    watcher's looks (one thread) and read by any request's."""

    def __init__(self) -> None:
        #: When the store last answered (milliseconds since the epoch).
        self._answered: int | None = None
        #: When the outage began: the last answer before it; None if none.
        self._since: int | None = None

    @property
    def down(self) -> bool:
        """Whether an outage lasts, or its time is not given yet."""
        return self._since is not None

    def look(self, answered: bool, at: int) -> tuple[int, int] | None:
        """Note whether the store ``answered`` at ``at``; return the outage
        to make up, (its start, its end), at each answer after one until
        :meth:`made_up` is called, else None."""
        if not answered:
            if self._since is None:
                self._since = self._answered if self._answered is not None else at
            return None
        self._answered = at
        if self._since is None:
            return None
        return self._since, at

    def made_up(self) -> None:
        """The outage's time is given: the clocks may run out again."""
        self._since = None


#: The serving process's view.
OUTAGE = Outage()


def watch_store() -> bool:
    """Ask the shared store (Redis, with ``REDIS_URL``) whether it answers,
    for the flag watcher, and once it answers after an outage give the
    running clocks its time; return whether clocks may run
    out (no outage lasts, none is left to make up)."""
    from .games import make_up_for_outage  # games asks OUTAGE: not at the top

    if not settings.REDIS_URL:
        return True
    was_down = OUTAGE.down
    outage = OUTAGE.look(store_answers(), now_ms())
    if outage is not None:
        given = make_up_for_outage(*outage)
        OUTAGE.made_up()
        log.info(
            "Redis (REDIS_URL) answers again after %.1f s: running clocks "
            "given the time: %d",
            (outage[1] - outage[0]) / 1000,
            given,
        )
    elif OUTAGE.down and not was_down:
        log.warning(
            "Redis (REDIS_URL) does not answer: no game ends on time until it "
            "does, and the running clocks will be given the time"
        )
    return not OUTAGE.down

"""The AI's searches, shared fairly between clients.

A search costs seconds of a core; a client is a browser or script, named by
its address (:mod:`webgame.clients`). The rules of one process
(:class:`FairPool`, here; across machines :mod:`webgame.backends` keeps the
caps, while Celery's queue serves in arrival order):

- At most ``AI_WORKERS`` searches run at once, and at most
  ``AI_CLIENT_SEARCHES`` (1) of them for one client.
- A search that cannot start yet waits in its client's queue; when a worker
  frees up, the clients take turns by the search time they will have had
  once their next search ends (fair queueing by virtual finish time: the
  waiting client that would then have had the fewest seconds, as measured,
  goes first, so a short search goes before long ones; a new client starts
  level with the least served one under way; all is forgotten when the pool
  falls idle). So one client's backlog never
  delays another client by more than the searches already running, and a
  client of long hints waits while players of short moves are served.
- A client may have ``AI_CLIENT_PENDING`` searches running or waiting, the
  whole server ``AI_MAX_PENDING`` (sized so that many clients reach their own
  cap first). Beyond its own cap a request is refused at once (503) with a
  ``Retry-After`` computed from the real queue: the seconds of search ahead,
  spread over the workers.
- When the whole server is full, a newcomer takes the place of the client
  with the most seconds waiting, if that is more than the newcomer would
  then have waiting: that client's newest waiting search is refused (503)
  instead. So a client asking for 0.1 s is never refused because others
  queued 10 s searches, and cheap addresses (a /64 is one client) cannot
  fill the queue for everyone else.

The search kernels are numba code that releases the GIL, so a few searches
run truly in parallel on separate cores while the web threads keep serving.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from .. import stopping
from ..errors import Busy, Restarting

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """How many searches may run and wait, from the settings."""

    workers: int
    per_client: int
    client_pending: int
    max_pending: int

    @classmethod
    def from_settings(cls) -> Limits:
        """Return the limits the settings give now (tests change them)."""
        return cls(
            workers=settings.AI_WORKERS,
            per_client=settings.AI_CLIENT_SEARCHES,
            client_pending=settings.AI_CLIENT_PENDING,
            max_pending=settings.AI_MAX_PENDING,
        )


@dataclass
class Ticket:
    """One search waiting for, or holding, a worker (or refused while it
    waited: ``evicted`` holds the Retry-After of the Busy it gets, which its
    own request words in its own language)."""

    client: str
    seconds: float
    order: int
    started: float | None = None
    granted: threading.Event = field(default_factory=threading.Event)
    evicted: int | None = None
    #: Refused as the server stops (:meth:`FairPool.stop_waiting`).
    stopped: bool = False


def retry_after(backlog_seconds: float, workers: int) -> int:
    """Return the Retry-After (whole seconds, at least 1) for a request that
    has ``backlog_seconds`` of search ahead of it on ``workers`` workers."""
    return max(1, math.ceil(backlog_seconds / max(1, workers)))


class FairPool:
    """This process's AI worker threads and the clients' queues, behind one
    lock (see the module's rules).

    The threads are created on first use (settings are read then, not at
    import) and replaced if ``AI_WORKERS`` changed (tests change it).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._size = 0
        self._waiting: dict[str, deque[Ticket]] = {}
        self._running: list[Ticket] = []
        # Seconds of search each client under way has been given (its virtual
        # time); forgotten when the pool falls idle.
        self._usage: dict[str, float] = {}
        self._turns = itertools.count()
        self._stopping = False

    def run(self, task: Callable[[], T], *, client: str, expected_seconds: float) -> T:
        """Return ``task()`` computed on an AI worker thread once the client's
        turn comes; Busy (503) at once if the client or the server already has
        as many searches pending as allowed."""
        limits = Limits.from_settings()
        ticket = self._admit(client, expected_seconds, limits)
        # The worker thread speaks the request's language (a ServiceError the
        # task raises, such as a damaged model, reaches the client).
        language = translation.get_language()

        def in_language() -> T:
            with translation.override(language):
                return task()

        try:
            ticket.granted.wait()
            if ticket.stopped:
                raise _stopping()
            if ticket.evicted is not None:
                raise _evicted(ticket.evicted)
            return self._threads(limits.workers).submit(in_language).result()
        finally:
            self._leave(ticket, limits)

    def stop_waiting(self) -> None:
        """The server stops (:mod:`webgame.stopping`): refuse the searches
        waiting, and any asked from now on, with a 503 that says to ask
        again; those running finish within the server's graceful limit."""
        with self._lock:
            self._stopping = True
            for queue in self._waiting.values():
                for ticket in queue:
                    ticket.stopped = True
                    ticket.granted.set()
            self._waiting.clear()

    def pending(self, client: str | None = None) -> int:
        """Return how many searches are running or waiting (of ``client``)."""
        with self._lock:
            return self._pending(client)

    def _pending(self, client: str | None) -> int:
        running = [t for t in self._running if client in (None, t.client)]
        if client is not None:
            return len(running) + len(self._waiting.get(client, ()))
        return len(running) + sum(len(queue) for queue in self._waiting.values())

    def _admit(self, client: str, seconds: float, limits: Limits) -> Ticket:
        with self._lock:
            if self._stopping:
                raise _stopping()
            mine, everyone = self._pending(client), self._pending(None)
            full = everyone >= limits.max_pending
            if mine >= limits.client_pending or (
                full and not self._evict(client, seconds, limits)
            ):
                raise self._busy(mine, everyone, limits)
            ticket = Ticket(client, seconds, next(self._turns))
            if client not in self._usage:  # new: level with the least served
                if len(self._usage) > 10_000:  # forget the clients long gone
                    self._usage = {c: self._usage[c] for c in self._active()}
                self._usage[client] = self._floor()
            self._waiting.setdefault(client, deque()).append(ticket)
            self._dispatch(limits)
            return ticket

    def _busy(self, mine: int, everyone: int, limits: Limits) -> Busy:
        """Return the refusal of a search, with the queue's Retry-After (lock held)."""
        return Busy(
            _(
                "%(mine)s of your AI searches and %(everyone)s in all are running "
                "or waiting (at most %(client_pending)s and %(max_pending)s); "
                "retry after the time given"
            )
            % {
                "mine": mine,
                "everyone": everyone,
                "client_pending": limits.client_pending,
                "max_pending": limits.max_pending,
            },
            retry_after=retry_after(self._backlog(), limits.workers),
        )

    def _evict(self, client: str, seconds: float, limits: Limits) -> bool:
        """Make room for ``client``'s search of ``seconds`` in a full queue:
        refuse the newest waiting search of the client with the most seconds
        waiting, if it has more than ``client`` would then have; return
        whether room was made (lock held)."""
        queued = {
            other: sum(t.seconds for t in queue)
            for other, queue in self._waiting.items()
            if queue and other != client
        }
        if not queued:
            return False
        victim = max(
            queued, key=lambda other: (queued[other], len(self._waiting[other]))
        )
        mine = sum(t.seconds for t in self._waiting.get(client, ())) + seconds
        if queued[victim] <= mine:
            return False
        evicted = self._waiting[victim].pop()  # its newest
        if not self._waiting[victim]:
            del self._waiting[victim]
        evicted.evicted = retry_after(self._backlog() + evicted.seconds, limits.workers)
        evicted.granted.set()
        return True

    def _leave(self, ticket: Ticket, limits: Limits) -> None:
        with self._lock:
            if ticket in self._running:
                self._running.remove(ticket)
                # Charge what the search really took, not what was expected
                # (a level's simulations take a fraction of the second assumed).
                took = time.monotonic() - (ticket.started or time.monotonic())
                if ticket.client in self._usage:
                    self._usage[ticket.client] += took - ticket.seconds
            else:  # never granted (interrupted while waiting)
                queue = self._waiting.get(ticket.client)
                if queue is not None and ticket in queue:
                    queue.remove(ticket)
            if not self._waiting.get(ticket.client):
                self._waiting.pop(ticket.client, None)
            if not self._running and not self._waiting:
                self._usage.clear()  # idle: everyone starts afresh
            self._dispatch(limits)

    def _dispatch(self, limits: Limits) -> None:
        """Grant free workers to waiting clients in turn (lock held)."""
        while len(self._running) < limits.workers:
            eligible = [
                client
                for client, queue in self._waiting.items()
                if queue
                and sum(t.client == client for t in self._running) < limits.per_client
            ]
            if not eligible:
                return
            # Virtual finish time: the seconds a client will have had once its
            # next search ends; a short search goes before long ones.
            client = min(
                eligible,
                key=lambda c: (
                    self._usage.get(c, 0.0) + self._waiting[c][0].seconds,
                    self._waiting[c][0].order,
                ),
            )
            ticket = self._waiting[client].popleft()
            if not self._waiting[client]:
                del self._waiting[client]
            self._usage[client] = self._usage.get(client, 0.0) + ticket.seconds
            ticket.started = time.monotonic()
            self._running.append(ticket)
            ticket.granted.set()

    def _floor(self) -> float:
        """Return the least search time given to a client under way, counting
        a running search from its start (lock held)."""
        running: dict[str, float] = {}
        for t in self._running:
            running[t.client] = running.get(t.client, 0.0) + t.seconds
        return min(
            (self._usage.get(c, 0.0) - running.get(c, 0.0) for c in self._active()),
            default=0.0,
        )

    def _active(self) -> set[str]:
        """Return the clients with searches running or waiting (lock held)."""
        return {t.client for t in self._running} | set(self._waiting)

    def _backlog(self) -> float:
        """Return the seconds of search left: running and waiting (lock held)."""
        now = time.monotonic()
        left = sum(
            max(0.0, t.seconds - (now - (t.started or now))) for t in self._running
        )
        return left + sum(t.seconds for q in self._waiting.values() for t in q)

    def _threads(self, workers: int) -> ThreadPoolExecutor:
        """Return the executor, created or resized to ``workers`` threads."""
        with self._lock:
            if self._executor is None or self._size != workers:
                if self._executor is not None:
                    self._executor.shutdown(wait=False)
                self._size = workers
                self._executor = ThreadPoolExecutor(
                    max_workers=workers,
                    thread_name_prefix="ai-search",
                    initializer=_lower_priority,
                    initargs=(settings.AI_NICE,),
                )
            return self._executor


#: The Retry-After of a search refused as the server stops: a restart's
#: graceful limit and start.
STOPPING_RETRY = 15


def _stopping() -> Restarting:
    """Return the refusal of a search asked for, or waiting, as the server
    stops (worded by the request refused, in its language)."""
    return Restarting(
        _("the server is restarting: ask again in a few seconds"),
        retry_after=STOPPING_RETRY,
    )


def _evicted(retry: int) -> Busy:
    """Return the refusal of a search that gave its place in a full queue to
    a shorter one (worded by the request refused, in its language)."""
    return Busy(
        _(
            "the AI's queue is full and your searches waiting were the longest: "
            "this one gave its place to a shorter one; retry after the time given"
        ),
        retry_after=retry,
    )


def _lower_priority(nice: int) -> None:
    """Lower the calling worker thread's CPU priority by ``nice``.

    A search uses all the CPU it gets until its deadline; web requests need
    little but need it at once. On Linux a thread has its own nice value, so
    the scheduler serves requests first and the search takes what is left
    (it then runs fewer simulations in its think time, which is the right
    trade). Elsewhere this does nothing.
    """
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    with contextlib.suppress(OSError):  # not permitted: run at normal priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)


#: The process's AI worker pool.
POOL = FairPool()
stopping.listen(POOL.stop_waiting)

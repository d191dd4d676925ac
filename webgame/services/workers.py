"""The bounded pool that runs AI searches.

The search kernels are numba code that releases the GIL, so a few searches
run truly in parallel on separate cores while the web threads keep serving.
The pool has ``AI_WORKERS`` threads; at most ``AI_MAX_PENDING`` searches may
be running or waiting at once, and a request beyond that is refused at once
(503 with ``Retry-After``) rather than queued without bound.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from django.conf import settings

from ..errors import Busy

T = TypeVar("T")


class WorkerPool:
    """The process's AI worker threads and the count of searches they hold
    (running or waiting), behind one lock.

    The threads are created on first use (settings are read then, not at
    import) and replaced if ``AI_WORKERS`` changed (tests change it).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._size = 0
        self._pending = 0

    def run(self, task: Callable[[], T], *, expected_seconds: float) -> T:
        """Return ``task()`` computed on an AI worker thread.

        Raises :class:`~webgame.errors.Busy` without running it when
        ``AI_MAX_PENDING`` searches are already running or waiting; the
        ``Retry-After`` hint is the expected length of one search, rounded up.
        """
        with self._lock:
            if self._pending >= settings.AI_MAX_PENDING:
                raise Busy(
                    f"all {settings.AI_MAX_PENDING} AI search slots are taken; "
                    "retry in a moment",
                    retry_after=max(1, int(expected_seconds + 0.999)),
                )
            self._pending += 1
        try:
            return self._threads().submit(task).result()
        finally:
            with self._lock:
                self._pending -= 1

    def pending(self) -> int:
        """Return how many searches are running or waiting now."""
        with self._lock:
            return self._pending

    def _threads(self) -> ThreadPoolExecutor:
        """Return the executor, created or resized to ``AI_WORKERS`` threads."""
        with self._lock:
            if self._executor is None or self._size != settings.AI_WORKERS:
                if self._executor is not None:
                    self._executor.shutdown(wait=False)
                self._size = settings.AI_WORKERS
                self._executor = ThreadPoolExecutor(
                    max_workers=settings.AI_WORKERS,
                    thread_name_prefix="ai-search",
                    initializer=_lower_priority,
                    initargs=(settings.AI_NICE,),
                )
            return self._executor


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
POOL = WorkerPool()

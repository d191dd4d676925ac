"""The server's stop has begun: uvicorn shuts its connections down
(:meth:`webgame.serving.GuardedHttpProtocol.shutdown`), then waits up to
its graceful limit for the requests under way. What must not start then
listens here: the AI pool refuses its waiting searches with a 503 that
says to ask again (operator QA: a search still queued was started as the
server stopped, then cut at the limit, and its client got a dropped
connection)."""

from __future__ import annotations

import threading
from collections.abc import Callable

_listeners: list[Callable[[], None]] = []
_lock = threading.Lock()
_begun = False


def listen(callback: Callable[[], None]) -> None:
    """Call ``callback`` once the stop begins."""
    with _lock:
        _listeners.append(callback)


def begin() -> None:
    """The stop begins: tell the listeners, once."""
    global _begun
    with _lock:
        if _begun:
            return
        _begun = True
        listeners = list(_listeners)
    for callback in listeners:
        callback()

"""``AI_BACKEND=celery``: AI searches on Celery workers, their bookkeeping in
Redis, so that it holds across every web process and machine.

What lives in Redis (keys prefixed ``webgame:``), all with expiry times so
that a crashed process leaves nothing stuck for long:

- ``search:<game>``: the game's search under way (one per game: a second
  ai-move or hint gets 409, whichever web process it reaches);
- ``stop:<game>``: a stop asked for it (any web process may ask; the worker
  running the search polls the key every 50 ms);
- ``pending:<client>``, ``pending``, ``pending-seconds``: searches running or
  queued, per client and in all, and their expected seconds, for the limits
  (``AI_CLIENT_PENDING``, ``AI_MAX_PENDING``) and ``Retry-After``;
- ``answer:<token>``: the search's JSON, pushed by the worker and popped by
  the web process that waits for it (not Celery's result backend: a plain
  BLPOP is safe in a threaded web server);
- ``running:<token>``: renewed every second by the worker on the search, so
  the web process knows within seconds when a worker died on it (killed,
  out of memory) instead of waiting out the search's whole time;
- ``workers``: each running worker, scored by the time its word lasts till
  (renewed every few seconds), so that with none a search is refused at
  once instead of waiting in the queue for nobody.

The throttles' counters are in Redis too (the cache, see settings). Celery's
queue serves searches in arrival order; the per-client cap keeps one client
from filling it (the one-process pool's turns by virtual finish time and its
making room in a full queue are not repeated across processes).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

import redis
from django.conf import settings
from django.utils.translation import gettext as _

from .errors import Busy, Conflict, ServiceError
from .models import Game as GameRow

log = logging.getLogger(__name__)

PREFIX = "webgame:"
#: Seconds a search's keys outlive its think time (queueing, start-up).
GRACE = 60
#: Seconds a worker's word that it is on a search lasts (renewed each second).
ALIVE_SECONDS = 5
#: Seconds a worker's word that it runs lasts (renewed every third of it).
WORKER_SECONDS = 12

#: Admit a search: KEYS pending:<client>, pending, pending-seconds;
#: ARGV client cap, server cap, expected seconds, expiry. Returns 0 if
#: admitted, else the seconds of search queued (for Retry-After).
_ADMIT = """
local mine = tonumber(redis.call('GET', KEYS[1]) or '0')
local all = tonumber(redis.call('GET', KEYS[2]) or '0')
if mine >= tonumber(ARGV[1]) or all >= tonumber(ARGV[2]) then
  return tostring(math.max(0.001, tonumber(redis.call('GET', KEYS[3]) or '0')))
end
redis.call('INCR', KEYS[1]); redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('INCR', KEYS[2]); redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('INCRBYFLOAT', KEYS[3], ARGV[3]); redis.call('EXPIRE', KEYS[3], ARGV[4])
return '0'
"""
#: Release a search's place: the same keys; ARGV expected seconds.
_RELEASE = """
if tonumber(redis.call('DECR', KEYS[1])) <= 0 then redis.call('DEL', KEYS[1]) end
if tonumber(redis.call('DECR', KEYS[2])) <= 0 then
  redis.call('DEL', KEYS[2], KEYS[3])
else
  redis.call('INCRBYFLOAT', KEYS[3], -tonumber(ARGV[1]))
end
return 1
"""
#: Free a game's search slot if this search still holds it: KEYS search, stop.
_FREE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1
"""


@functools.cache
def connection(url: str | None = None) -> redis.Redis:
    """Return the (thread-safe, pooled) Redis client of ``REDIS_URL``."""
    return redis.Redis.from_url(url or settings.REDIS_URL)


def _key(*parts: object) -> str:
    return PREFIX + ":".join(str(part) for part in parts)


def stop(game_id) -> bool:
    """Ask the game's search, on whichever worker, to end now; return True if
    one was under way."""
    r = connection()
    if not r.exists(_key("search", game_id)):
        return False
    r.set(_key("stop", game_id), 1, ex=GRACE)
    return True


def stop_asked(game_id) -> bool:
    """Return True if a stop was asked for the game's search (the worker's poll)."""
    return bool(connection().exists(_key("stop", game_id)))


@contextmanager
def _slot(game_id, seconds: float) -> Iterator[None]:
    """Hold the game's one search slot across all processes, else Conflict."""
    r, token = connection(), secrets.token_hex(8)
    ttl = int(seconds) + GRACE
    if not r.set(_key("search", game_id), token, nx=True, ex=ttl):
        raise Conflict(
            "conflict", _("the AI is already thinking in this game; wait for its move")
        )
    r.delete(_key("stop", game_id))
    try:
        yield
    finally:
        r.eval(_FREE, 2, _key("search", game_id), _key("stop", game_id), token)


def searching(game_id) -> bool:
    """Return whether a search of the game is under way, in any process."""
    return bool(connection().exists(_key("search", game_id)))


@contextmanager
def _place(client: str, seconds: float) -> Iterator[None]:
    """Hold one of the client's and the server's pending places, else Busy."""
    r = connection()
    keys = (_key("pending", client or "-"), _key("pending"), _key("pending-seconds"))
    ttl = int(seconds) + 10 * GRACE
    # redis-py's types also cover its asyncio client: this one answers at once.
    queued = float(
        cast(
            "bytes",
            r.eval(
                _ADMIT,
                3,
                *keys,
                settings.AI_CLIENT_PENDING,
                settings.AI_MAX_PENDING,
                seconds,
                ttl,
            ),
        )
    )
    if queued:
        raise Busy(
            _(
                "all AI search places are taken (at most %(client)s a client, "
                "%(all)s in all); retry after the time given"
            )
            % {"client": settings.AI_CLIENT_PENDING, "all": settings.AI_MAX_PENDING},
            retry_after=max(1, math.ceil(queued / max(1, settings.AI_WORKERS))),
        )
    try:
        yield
    finally:
        r.eval(_RELEASE, 3, *keys, seconds)


def search_on_workers(
    row: GameRow, ai: dict, *, best: bool, client: str, expected_seconds: float
) -> dict:
    """Return the JSON of the search for ``row`` run by a Celery worker, once
    its answer comes back; Conflict, Busy or the worker's ServiceError."""
    # Sent by the task's name: the task module answers through this one, and
    # Celery is loaded only by the web processes that use it.
    from .celery import SEARCH_TASK, app

    if not _workers_run(connection()):
        raise _no_worker()
    with _slot(row.pk, expected_seconds), _place(client, expected_seconds):
        token = secrets.token_hex(16)
        app.send_task(
            SEARCH_TASK,
            kwargs={
                "game_id": str(row.pk),
                "ai": ai,
                "best": best,
                "version": row.version,
                "answer": token,
            },
            expires=expected_seconds + 10 * GRACE,
        )
        answer = json.loads(_wait_for_answer(token, expected_seconds))
    if "error" in answer:
        error = answer["error"]
        raise _error(error["code"], error["detail"], error["status"])
    return answer["result"]


def _wait_for_answer(token: str, expected_seconds: float) -> bytes:
    """Return the worker's answer to the search ``token``; 503 if no worker
    answered in time, or if the worker on it stopped saying it is alive."""
    r = connection()
    key, running = _key("answer", token), _key("running", token)
    deadline = time.monotonic() + int(expected_seconds) + 10 * GRACE
    started = False
    while time.monotonic() < deadline:
        waited = cast("list[bytes] | None", r.blpop([key], timeout=1))
        if waited is not None:
            return waited[1]
        if r.exists(running):
            started = True
        elif started:
            last = cast("bytes | None", r.lpop(key))  # answered as it ended?
            if last is not None:
                return last
            raise _error(
                "ai_unavailable",
                _("the AI worker on this search stopped; ask for the move again"),
                503,
            )
        elif not _workers_run(r):
            # Sent as the last worker stopped (it is counted 12 s on): the
            # search would wait in the queue for nobody (scale-out QA).
            raise _no_worker()
    raise _error(
        "ai_unavailable",
        _("no AI worker answered in time; the search was given up"),
        503,
    )


def say_worker_runs(name: str, stopping: threading.Event) -> None:
    """Say, until ``stopping`` is set, that the worker ``name`` runs (its
    own thread, from the worker's start: webgame/tasks.py)."""
    r, key = connection(), _key("workers")
    while True:
        now = time.time()
        # Redis restarting must not silence the worker for good.
        with contextlib.suppress(redis.RedisError):
            r.zadd(key, {name: now + WORKER_SECONDS})
            r.zremrangebyscore(key, "-inf", now)
        if stopping.wait(WORKER_SECONDS / 3):
            with contextlib.suppress(redis.RedisError):
                r.zrem(key, name)
            return


@contextmanager
def running(token: str) -> Iterator[None]:
    """Say every second, while the block runs, that this worker is on the
    search ``token`` (from a thread of its own: a search, a model's loading
    or a compile may run for seconds without a word)."""
    r, key, done = connection(), _key("running", token), threading.Event()

    def renew() -> None:
        while True:
            with contextlib.suppress(redis.RedisError):
                r.set(key, 1, ex=ALIVE_SECONDS)
            if done.wait(1.0):
                return

    beat = threading.Thread(target=renew, name=f"alive-{token[:8]}", daemon=True)
    beat.start()
    try:
        yield
    finally:
        done.set()
        beat.join()
        r.delete(key)


def _workers_run(r) -> bool:
    """Whether a worker said lately that it runs (:func:`say_worker_runs`)."""
    return bool(r.zcount(_key("workers"), time.time(), "+inf"))


#: How often this process logs that no worker runs, however many searches
#: are refused meanwhile.
NO_WORKER_LOG_SECONDS = 60.0
_no_worker_logged = -math.inf


def _no_worker() -> ServiceError:
    """The 503 of a search that no worker would take; the log is told (once
    a minute)."""
    global _no_worker_logged
    now = time.monotonic()
    if now - _no_worker_logged >= NO_WORKER_LOG_SECONDS:
        _no_worker_logged = now
        log.error(
            "no AI worker is running: the computer's moves are refused (503) "
            "until one starts (celery -A webgame worker, docs/deploy.md)"
        )
    return _error(
        "ai_unavailable", _("no AI worker is running; the operator was told"), 503
    )


def _error(code: str, detail: str, status_code: int) -> ServiceError:
    """Return the ServiceError a worker reported, with its HTTP status."""
    error = ServiceError(code, detail)
    error.status_code = status_code
    return error


def answer(token: str, payload: dict) -> None:
    """Hand a search's JSON (or its error) to the web process waiting for it."""
    r = connection()
    key = _key("answer", token)
    r.rpush(key, json.dumps(payload))
    r.expire(key, GRACE)

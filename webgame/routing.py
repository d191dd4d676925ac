"""The ASGI application's three protocols: HTTP (Django: the page and the
API), the live games' sockets (:mod:`webgame.consumers`), and the server's
lifespan, which runs the flag watcher: every half second it ends the games
whose side to move ran out of time (:func:`webgame.services.flag_due_games`),
and asks for the computer's moves that no page asked for while its clock
runs (:func:`webgame.services.unasked_ai_moves`); every few seconds it
notes that the server is alive (:mod:`webgame.services.beats`).
As the server starts, before the watcher and any request, and as it stops,
the running Fischer clocks are given a restart's time, as lichess does on a
deploy (:func:`webgame.services.make_up_for_restart`); as it stops, the live
models save the games they have not saved yet.

:mod:`webgame.asgi` builds the served application from this after starting
the AI's warm-up; the tests build theirs from it without one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from functools import partial

from channels.db import database_sync_to_async
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from django.conf import settings
from django.urls import re_path

from . import services
from .clients import log_refusal
from .consumers import (
    NO_SUCH_GAME,
    POLICY_VIOLATION,
    TOO_MANY_SOCKETS,
    GameConsumer,
    NoSuchPlace,
    scope_client,
)
from .error_responses import one_line, store_down

log = logging.getLogger(__name__)

#: How often the flag watcher looks for games out of time, in seconds.
FLAG_EVERY = 0.5
UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


async def watch_flags() -> None:
    """End the games out of time, and ask for the computer's moves nobody
    asked for while its clock runs, forever (each end and each move reaches
    the sockets); not while the shared store (Redis) does not answer, whose
    outage the clocks are given after (:func:`webgame.services.watch_store`)."""
    store_answers = database_sync_to_async(services.watch_store)
    flag_due = database_sync_to_async(services.flag_due_games)
    unasked = database_sync_to_async(services.unasked_ai_moves)
    beat = database_sync_to_async(services.beat)
    beaten = 0.0
    # The games whose unasked move is under way, and its task (held here:
    # the event loop keeps only a weak reference to a task).
    playing: dict[str, asyncio.Task] = {}
    failing = False
    while True:
        await asyncio.sleep(FLAG_EVERY)
        try:
            if time.monotonic() - beaten >= services.BEAT_EVERY:
                await beat()  # alive: for a crash's start
                beaten = time.monotonic()
            if not await store_answers():
                continue  # nobody can move: the clocks wait for it (.outages)
            await flag_due()
            for game_id, version in await unasked():
                if str(game_id) not in playing:
                    task = asyncio.create_task(_play_unasked(game_id, version))
                    playing[str(game_id)] = task
                    task.add_done_callback(partial(_forget, playing, str(game_id)))
        except Exception:  # the next round tries again; one report per outage
            if not failing:
                log.exception("the flag watcher failed (it keeps trying)")
            failing = True
        else:
            failing = False


def _forget(playing: dict, game_id: str, _task: asyncio.Task) -> None:
    """Forget that the unasked move of ``game_id`` is under way (it ended)."""
    playing.pop(game_id, None)


async def _play_unasked(game_id, version: int) -> None:
    """Play a computer's unasked move on a thread of its own (a search may
    take seconds: the watcher goes on); a failure is logged."""
    play = database_sync_to_async(services.play_unasked, thread_sensitive=False)
    try:
        await play(game_id, version)
    except Exception:
        log.exception("the computer's unasked move in %s failed", game_id)


async def make_up_for_restart(when: str) -> None:
    """Give the running clocks a restart's time; a failure is logged, and
    the server starts or stops all the same."""
    try:
        given = await database_sync_to_async(services.make_up_for_restart)(when)
    except Exception as exc:
        store = store_down(exc)
        if store is None:
            log.exception("could not give the running clocks a restart's time")
        else:  # Redis's outage is given its time once it answers (outages.py)
            log.error(
                "could not give the running clocks a restart's time: %s does "
                "not answer: %s",
                store,
                one_line(exc),
            )
    else:
        if given:
            log.info(
                "running clocks given a restart's time as the server %ss: %d",
                when,
                given,
            )


async def save_live_models() -> None:
    """Save the live models' games not saved yet, as the server stops (a
    failure is logged)."""
    try:
        saved = await asyncio.to_thread(services.save_live_models)
    except Exception:
        log.exception("could not save the live models")
    else:
        if saved:
            log.info("live models saved as the server stops: %d", saved)


async def lifespan(scope, receive, send, at_stop=()) -> None:
    """Run the flag watcher while the server runs (ASGI lifespan), give the
    running clocks time as the server starts and stops, save the live models
    and call each of ``at_stop`` as it stops (a SIGTERM ends the process
    without running its ``atexit`` functions: uvicorn raises the signal
    again once it has stopped)."""
    watcher = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await make_up_for_restart("start")
            watcher = asyncio.create_task(watch_flags())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if watcher is not None:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
            await make_up_for_restart("stop")
            await save_live_models()
            for done in at_stop:
                done()
            await send({"type": "lifespan.shutdown.complete"})
            return


class SameOrigin:
    """Refuse a socket whose ``Origin`` is not the site it connects to: the
    scheme (https only with ``HTTPS``), host and port of its ``Host``, as
    Django's CSRF check compares them (the allowed-hosts check around it
    ignores the scheme and the port, and let ``http://127.0.0.1:9999`` in)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        headers = dict(scope["headers"])
        origin = headers.get(b"origin", b"").decode("latin-1").lower()
        host = headers.get(b"host", b"").decode("latin-1").lower()
        schemes = ("https",) if settings.HTTPS else ("http", "https")
        if host and origin in {f"{scheme}://{host}" for scheme in schemes}:
            return await self.app(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


class LoggedRefusals:
    """Log each socket refused as an HTTP refusal is (:func:`log_refusal`),
    with its client: a handshake refused (403, its ``Origin``), or a socket
    closed at once for no such game (4404), too many sockets of its client
    (4429) or a message against the rules (1008)."""

    #: The close codes that refuse a socket, and their words in the log.
    CODES = {
        NO_SUCH_GAME: "no_such_game",
        TOO_MANY_SOCKETS: "too_many_sockets",
        POLICY_VIOLATION: "policy_violation",
    }

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def send_seen(message):
            nonlocal accepted
            if message["type"] == "websocket.accept":
                accepted = True
            elif message["type"] == "websocket.close":
                code = message.get("code")
                if not accepted or code in self.CODES:
                    status, why = (
                        (code, self.CODES[code]) if accepted else (403, "origin")
                    )
                    log_refusal(
                        "WebSocket", scope["path"], scope_client(scope), status, why
                    )
            await send(message)

        return await self.app(scope, receive, send_seen)


def application_for(http, at_stop=()):
    """Return the ASGI application serving ``http`` (Django's), the sockets
    and the lifespan, which calls each of ``at_stop`` as the server stops."""
    sockets = URLRouter(
        [
            re_path(rf"^ws/games/(?P<pk>{UUID})/$", GameConsumer.as_asgi()),
            re_path(r"", NoSuchPlace.as_asgi()),
        ]
    )
    return ProtocolTypeRouter(
        {
            "http": http,
            # A page of another site cannot open a socket here (its Origin
            # is not this site, one of ALLOWED_HOSTS).
            "websocket": LoggedRefusals(
                AllowedHostsOriginValidator(SameOrigin(sockets))
            ),
            "lifespan": partial(lifespan, at_stop=tuple(at_stop)),
        }
    )

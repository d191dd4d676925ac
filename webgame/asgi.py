"""ASGI entry point (``uvicorn webgame.asgi:application``): the page, the
API and the live games' sockets on one port.

The AI's warm-up starts first (:mod:`webgame.startup`), then the app, then
the thread that makes each game's AI ready (:mod:`webgame.services.readiness`).
While the server runs, the flag watcher ends the games whose side to move
ran out of time (:func:`webgame.services.flag_due_games`), every half second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from django.core.asgi import get_asgi_application

from webgame.startup import launch_warm_up

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")
_warm_up = launch_warm_up()
django_application = get_asgi_application()

# After Django is set up: these import the models.
from channels.db import database_sync_to_async  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from webgame import services  # noqa: E402
from webgame.consumers import GameConsumer  # noqa: E402
from webgame.services.readiness import READINESS  # noqa: E402

log = logging.getLogger(__name__)
READINESS.follow(_warm_up)

#: How often the flag watcher looks for games out of time, in seconds.
FLAG_EVERY = 0.5


async def watch_flags() -> None:
    """End the games out of time, forever (each end reaches the sockets)."""
    flag_due = database_sync_to_async(services.flag_due_games)
    while True:
        await asyncio.sleep(FLAG_EVERY)
        try:
            await flag_due()
        except Exception:  # the next round tries again
            log.exception("the flag watcher failed")


async def lifespan(scope, receive, send) -> None:
    """Run the flag watcher while the server runs (ASGI lifespan)."""
    watcher = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            watcher = asyncio.create_task(watch_flags())
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if watcher is not None:
                watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watcher
            await send({"type": "lifespan.shutdown.complete"})
            return


UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
application = ProtocolTypeRouter(
    {
        "http": django_application,
        # A page of another site cannot open a socket here (its Origin is
        # not one of ALLOWED_HOSTS).
        "websocket": AllowedHostsOriginValidator(
            URLRouter([re_path(rf"^ws/games/(?P<pk>{UUID})/$", GameConsumer.as_asgi())])
        ),
        "lifespan": lifespan,
    }
)

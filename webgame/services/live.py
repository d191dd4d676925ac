"""Live games: every change of a game goes out to every browser showing it.

Each game has a group on the channel layer (Django Channels): the sockets of
its players and watchers (:mod:`webgame.consumers`) join it, and every write
of the game (:func:`webgame.services.games.write`) sends the new snapshot to
it. On one machine the layer lives in the server's memory; with
``REDIS_URL`` it is Redis, so a move written by one web process (or a Celery
worker) reaches sockets held by another.
"""

from __future__ import annotations

import json
import logging

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group(game_id: object) -> str:
    """Return the channel group of a game's sockets."""
    return f"game-{game_id}"


def publish_thinking(
    game_id: object, *, side: str, version: int, seconds: float | None
) -> None:
    """Tell the sockets showing a game that its computer starts thinking for
    ``side`` from ``version`` (about ``seconds``, None for a level counted
    in simulations): a watcher's page shows it as the asking page does, until
    the move comes."""
    told = {"type": "thinking", "side": side, "version": version, "seconds": seconds}
    _send(game_id, {"type": "ai.thinking", "text": json.dumps(told)})


def publish(snapshot: dict) -> None:
    """Send a game's new snapshot to the sockets showing it. A layer that
    cannot take it (Redis down) costs the live update, never the write:
    the browsers catch up from the game's version when they reconnect."""
    # The message's JSON is made here once, not by each of the game's sockets.
    message = {
        "type": "game.changed",
        "version": snapshot["version"],
        "text": json.dumps({"type": "game", "game": snapshot}),
    }
    _send(snapshot["id"], message)


def publish_presence(game_id: object, who: dict) -> None:
    """Tell the sockets showing a game who is here (``who``: a seat that
    follows it by requests, with no socket, is still here)."""
    _send(game_id, {"type": "presence.changed", "who": who})


def publish_chat(game_id: object, author: str, line: dict) -> None:
    """Send a chat line to the seats' sockets of a game (a watcher's socket
    passes it by): ``author`` is the digest of the seat that said it, for
    each socket to tell its page whether the line is its own."""
    _send(game_id, {"type": "chat.said", "author": author, "line": line})


def _send(game_id: object, message: dict) -> None:
    """Send ``message`` to a game's group; a layer that cannot take it is
    logged, and the write it tells of stands."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group(game_id), message)
    except (redis.ConnectionError, redis.TimeoutError) as error:
        # An outage: each write would log the same three chained tracebacks.
        log.warning(
            "could not send game %s's update: Redis (REDIS_URL) does not answer: %s",
            game_id,
            error,
        )
    except Exception:  # the write is done; a socket's reconnect catches up
        log.exception("could not send game %s's update", game_id)

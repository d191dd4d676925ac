"""The live game socket: ``/ws/games/<id>/`` (Django Channels).

A browser showing a game opens one socket. It is sent the game's snapshot at
once and again after every change (:mod:`webgame.services.live`), each with
the game's version, never one it already has. It may say ``hello`` with its
seat's token and the version it last drew: the server then counts it as
that seat's player (presence) instead of a watcher, and sends the current
snapshot if the browser is behind (a reconnect catches up). Every change of
who is connected goes to all as ``presence``.

Messages from the browser (JSON): ``{"type": "hello", "token": t | null,
"version": n | null, "playing": bool, "paused": bool}`` (``playing``: the
page that plays a game without seats, not counted as a watcher; ``paused``:
that page has paused its computer, said again whenever it changes) and
``{"type": "ping"}`` (answered ``pong``). To the browser: ``{"type":
"game", "game": snapshot}``, ``{"type": "presence", "black": bool, "white":
bool, "watchers": n, "playing": n, "paused": n, "gone": {side: seconds},
"gone_after": seconds, "gone_after_untimed": seconds}``
(:func:`webgame.services.presence.who_is_here`), ``{"type": "thinking",
"side": side, "version": n, "seconds": s | null}`` (the computer starts a
search: :func:`webgame.services.live.publish_thinking`), ``{"type": "chat",
"lines": [line ...]}`` (to a seat's socket only: every line said so far as
it says hello, then each new one; :mod:`webgame.services.chat`),
``{"type": "pong"}``.

Limits: the origin must be the site itself (:mod:`webgame.routing`);
a client (:func:`webgame.clients.client_of`) holds at most
``LIVE_SOCKETS_PER_CLIENT`` sockets (4429 closes the next); a socket sends at
most ``LIVE_MESSAGES_BURST`` messages at once and ``LIVE_MESSAGES_PER_SECOND``
after (1008 closes it, as it does any other message, or one with a field
missing, one more or one named twice); a message is at most 4 KiB
(uvicorn's ``--ws-max-size`` caps frames as well). A game that does not
exist, or any other path, is closed with 4404; with the scale-out's Redis
out of reach, a socket is closed with 1013 (:meth:`GameConsumer.__call__`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

import redis
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest

from . import services
from .clients import client_of
from .errors import GameNotFound
from .parsers import unique_fields
from .services import presence

logger = logging.getLogger(__name__)

#: Close codes: the socket's own (4000-4999) and the protocol's.
NO_SUCH_GAME = 4404
TOO_MANY_SOCKETS = 4429
POLICY_VIOLATION = 1008
SERVER_ERROR = 1011
#: The shared store (Redis, with ``REDIS_URL``) does not answer: the browser
#: tries again later (polling meanwhile).
TRY_AGAIN_LATER = 1013
MAX_MESSAGE = 4096
#: The reasons of the closes a client's bug may meet (a developer reads
#: them; at most 123 bytes, the protocol's limit).
NO_SUCH_GAME_WORDS = "no such game"
NOT_DOCUMENTED_WORDS = (
    "a message the API does not take: a hello (token, version, playing, "
    "paused) or a ping; see /api/docs/"
)
TOO_LONG_WORDS = f"a message is at most {MAX_MESSAGE // 1024} KiB"
BINARY_WORDS = "binary messages are not read: send text (JSON)"
#: Watchers coming and going are announced at most this often (seconds).
WATCHERS_EVERY = 0.5
#: The errors of a shared store (Redis) out of reach.
STORE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
#: A socket that Redis dropped takes back its counts once Redis answers: it
#: tries this often (seconds), for up to a day (the counts' own life).
LEAVE_EVERY = 2.0


def scope_client(scope: dict) -> str:
    """Return the client of a socket, as the HTTP throttles name it."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
    meta = {"REMOTE_ADDR": (scope.get("client") or ("", 0))[0]}
    if "x-forwarded-for" in headers:
        meta["HTTP_X_FORWARDED_FOR"] = headers["x-forwarded-for"]
    request = HttpRequest()
    request.META = meta
    return client_of(request)


_count = sync_to_async(presence.count, thread_sensitive=False)
_arrive = sync_to_async(presence.arrive, thread_sensitive=False)
_leave = sync_to_async(presence.leave, thread_sensitive=False)
_playing = sync_to_async(presence.playing, thread_sensitive=False)


#: The fields of each message a browser sends: those it must send, and those
#: it may leave out.
FIELDS = {
    "ping": ({"type"}, set()),
    "hello": ({"type", "token", "version"}, {"playing", "paused"}),
}


def _as_documented(message: object) -> bool:
    """Whether a message is one of :data:`FIELDS`, with its fields and no
    others, and a hello's values as :func:`_good_hello` says."""
    if not isinstance(message, dict) or message.get("type") not in FIELDS:
        return False
    needed, optional = FIELDS[message["type"]]
    if not needed <= message.keys() <= needed | optional:
        return False
    return message["type"] != "hello" or _good_hello(message)


def _good_hello(message: dict) -> bool:
    """Whether a hello is as documented: a token that is a string or null,
    a version that is a whole number from 0, or null, and ``playing`` and
    ``paused`` true, false or left out."""
    token, version = message.get("token"), message.get("version")
    good_version = version is None or (
        type(version) is int and version >= 0  # not a bool
    )
    flags = all(isinstance(message.get(k, False), bool) for k in ("playing", "paused"))
    return (token is None or isinstance(token, str)) and good_version and flags


class Bucket:
    """A token bucket: ``burst`` messages at once, ``rate`` a second after."""

    def __init__(self, burst: float, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        """Return whether one more message is allowed now (and count it)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class NoSuchPlace(AsyncWebsocketConsumer):
    """A socket to any other path: closed as for a game that does not exist
    (not left to the router's error, a server error logged for every try)."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=NO_SUCH_GAME, reason=NO_SUCH_GAME_WORDS)


class GameConsumer(AsyncWebsocketConsumer):
    """One browser's socket on one game."""

    game_id = ""
    group = ""
    client = ""
    seat: str | None = None
    #: The digest of the seat's token (its chat lines are its own), or "".
    reader = ""
    #: Counted among the game's watchers (not a seat, not the page playing it).
    watching = False
    #: Counted as a page playing a game without seats, and as paused.
    playing = False
    paused = False
    version = -1
    #: The last presence sent (the same is not sent again).
    presence: dict | None = None
    counted = False
    joined = False
    accepted = False
    #: No more sends: this side closed, or the browser went.
    closing = False

    async def __call__(self, scope, receive, send) -> None:
        """Serve the socket. Should the shared store (Redis) stop answering
        (operator QA: a 500 at the handshake, a dead connection and three
        chained tracebacks), the socket is closed with 1013 (the browser
        tries again, polling meanwhile), said in one line of the log, and
        its counts are taken back once Redis answers (:meth:`_leave_later`)."""
        try:
            await super().__call__(scope, receive, send)
        except STORE_DOWN as error:
            logger.warning(
                "the socket on game %s closes (1013): Redis (REDIS_URL) does not "
                "answer: %s",
                self.game_id,
                error,
            )
            with contextlib.suppress(Exception):  # the browser may be gone
                if not self.accepted:
                    await self.accept()
                await self.close(code=TRY_AGAIN_LATER)
            _later(self._leave_later())

    async def _leave_later(self) -> None:
        """Take this socket's counts back once Redis answers, if it kept them
        (:func:`webgame.services.presence.kept`: come back empty, its counts
        are other sockets')."""
        for _ in range(int(presence.KEEP_SECONDS / LEAVE_EVERY)):
            await asyncio.sleep(LEAVE_EVERY)
            try:
                if await sync_to_async(presence.kept, thread_sensitive=False)():
                    await self.disconnect(TRY_AGAIN_LATER)
            except STORE_DOWN:
                continue
            return

    async def accept(self, subprotocol=None, headers=None) -> None:
        await super().accept(subprotocol=subprotocol, headers=headers)
        self.accepted = True

    async def connect(self) -> None:
        """Accept the socket within the client's limit and send the game."""
        self.game_id = self.scope["url_route"]["kwargs"]["pk"].lower()
        self.group = services.live_group(self.game_id)
        self.client = scope_client(self.scope)
        self.bucket = Bucket(
            settings.LIVE_MESSAGES_BURST, settings.LIVE_MESSAGES_PER_SECOND
        )
        try:
            game = await database_sync_to_async(services.get_game)(self.game_id)
        except GameNotFound:
            await self._refuse(NO_SUCH_GAME, NO_SUCH_GAME_WORDS)
            return
        held = await _count(f"live:client:{self.client}", 1)
        self.counted = True  # once it is (Redis may not answer: __call__)
        if held > settings.LIVE_SOCKETS_PER_CLIENT:
            await self._refuse(
                TOO_MANY_SOCKETS,
                "too many sockets from this client: at most "
                f"{settings.LIVE_SOCKETS_PER_CLIENT}",
            )
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.joined = True
        await self.accept()
        await self._send_game(game)
        await self._present(None, 1)

    async def close(self, code=None, reason=None) -> None:
        """Close once: messages that were on their way come after the close
        (a flood's), and the server refuses a second close (uvicorn raises),
        which would end the consumer before its disconnect (see send)."""
        if self.closing:
            return
        self.closing = True
        await super().close(code=code, reason=reason)

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        """Send, unless the socket is closing: a group's message can come
        between a close and its disconnect, and the server refuses a send
        then (uvicorn raises). Raised here, it would end the consumer before
        its disconnect, and the socket would stay counted for its client."""
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except OSError:  # the browser went (uvicorn's ClientDisconnected)
            self.closing = True

    async def _refuse(self, code: int, reason: str) -> None:
        """Close at once with ``code`` and ``reason``: accepted first, so that
        the browser sees them (a refused handshake would only say 403)."""
        await self.accept()
        await self.close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        """Leave the game's group and the counts, each once (Redis may stop
        answering midway: :meth:`_leave_later` does the rest)."""
        if self.joined:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.joined = False
        if self.seat is not None or self.watching:
            await self._present(self.seat, -1)
        if self.playing:
            await self._play(False, False)
        if self.counted:
            await _count(f"live:client:{self.client}", -1)
            self.counted = False

    async def websocket_receive(self, message: dict) -> None:
        """Answer a message; a fault doing so closes the socket as a server
        error (1011), logged, rather than ending the consumer before its
        disconnect (the socket would stay counted for its client and seat);
        Redis out of reach closes it as :meth:`__call__` says."""
        try:
            await super().websocket_receive(message)
        except STORE_DOWN:
            raise  # not this socket's fault: see __call__
        except Exception:
            logger.exception("the socket on game %s failed a message", self.game_id)
            await self.close(code=SERVER_ERROR)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        """Answer a browser's message; close a socket that floods or talks
        nonsense; after the close, nothing more is answered."""
        if self.closing:
            return
        if not self.bucket.take():
            await self.close(
                code=POLICY_VIOLATION,
                reason="too many messages: at most "
                f"{settings.LIVE_MESSAGES_PER_SECOND:g} a second",
            )
            return
        if text_data is None or len(text_data) > MAX_MESSAGE:
            # Said apart from the rest (hostile-client QA: they were told
            # only that the message was not as documented).
            too_much = BINARY_WORDS if text_data is None else TOO_LONG_WORDS
            await self.close(code=POLICY_VIOLATION, reason=too_much)
            return
        try:
            message = json.loads(text_data, object_pairs_hook=unique_fields)
        except (ValueError, RecursionError):  # not JSON, a field named twice, deep
            message = None
        if not _as_documented(message):
            await self.close(code=POLICY_VIOLATION, reason=NOT_DOCUMENTED_WORDS)
        elif message["type"] == "ping":
            await self.send(text_data='{"type": "pong"}')
        else:
            await self._hello(
                message["token"],
                message["version"],
                message.get("playing") is True,
                message.get("paused") is True,
            )

    async def _hello(
        self, token: object, version: object, playing: bool, paused: bool
    ) -> None:
        """Take the seat the token holds (presence), or leave the watchers'
        count as the page playing a game without seats (paused or not), and
        catch up."""
        game = await database_sync_to_async(services.get_game)(self.game_id)
        if isinstance(token, str) and self.seat is None:
            seat = await database_sync_to_async(services.seat_in)(self.game_id, token)
            if seat is not None:
                await self._stop_watching(announce=False)
                await self._present(seat, 1)
                await self._send_chat(token)
        if playing and self.seat is None and not game["seats"]:
            await self._stop_watching()
            await self._play(True, paused)
        # What the browser drew (by this socket or an answer to its own
        # request) is not sent again; anything newer is.
        if isinstance(version, int):
            self.version = max(self.version, version)
        await self._send_game(game)

    async def game_changed(self, event: dict) -> None:
        """A write of the game (the group's message, its JSON made once for
        all the sockets): send it on if newer."""
        if event["version"] > self.version:
            self.version = event["version"]
            await self.send(text_data=event["text"])

    async def ai_thinking(self, event: dict) -> None:
        """The game's computer starts thinking (the group's message): send it on."""
        await self.send(text_data=event["text"])

    async def chat_said(self, event: dict) -> None:
        """A player said a line (the group's message): send it on to a seat's
        socket, telling whether it is this seat's own."""
        if self.reader:
            line = {**event["line"], "mine": event["author"] == self.reader}
            await self.send(text_data=json.dumps({"type": "chat", "lines": [line]}))

    async def _send_chat(self, token: str) -> None:
        """Send a seat's socket every line said so far (a reconnect catches up)."""
        chat = await database_sync_to_async(services.chat_for_socket)(
            self.game_id, token
        )
        if chat is not None:
            self.reader = chat["reader"]
            await self.send(
                text_data=json.dumps({"type": "chat", "lines": chat["lines"]})
            )

    async def presence_changed(self, event: dict) -> None:
        """Who is connected changed: tell the browser, unless it was told
        that already (a seat's arrival, then the watchers' count announced a
        moment later: it had left the watchers as it said hello). A seat here
        by its requests is told each time (every few seconds): the page
        counts it gone once none has come for a while."""
        if event["who"] != self.presence or event["who"].get("polled"):
            self.presence = event["who"]
            await self.send(text_data=json.dumps({"type": "presence", **event["who"]}))

    async def _send_game(self, game: dict) -> None:
        if game["version"] <= self.version:
            return  # already sent (a hello's answer and a broadcast can cross)
        self.version = game["version"]
        await self.send(text_data=json.dumps({"type": "game", "game": game}))

    async def _stop_watching(self, announce=True) -> None:
        if self.watching:
            await self._present(None, -1, announce=announce)

    async def _play(self, playing: bool, paused: bool) -> None:
        """Count this socket as a page playing the game (``playing``) and as
        paused or not, and tell the watchers if that changed anything (only
        they use it: the playing pages were drawn again for nothing, as they
        opened)."""
        step = int(playing) - int(self.playing)
        pause = int(paused and playing) - int(self.paused)
        if step or pause:
            await _playing(self.game_id, step, pause)
            self.playing, self.paused = playing, paused and playing
            await announce_presence(self.channel_layer, self.game_id, watched=True)

    async def _present(self, seat: str | None, step: int, announce=True) -> None:
        """Count this socket in (``step`` 1) or out (-1) as ``seat``'s player or
        a watcher (None), and tell the group who is there: at once for a seat;
        for watchers, once per :data:`WATCHERS_EVERY` however many came or
        went (each arrival told to all would be n² messages for n watchers).
        The socket is counted as ``seat`` or watching once it is (Redis may
        not answer: :meth:`disconnect` takes back only what was counted)."""
        await (_arrive if step > 0 else _leave)(self.game_id, seat)
        if seat is None:
            self.watching = step > 0
        else:
            self.seat = seat if step > 0 else None
        if not announce:
            return
        if seat is not None:
            await announce_presence(self.channel_layer, self.game_id)
        elif self.game_id not in _ANNOUNCING:
            _ANNOUNCING.add(self.game_id)
            asyncio.get_running_loop().call_later(
                WATCHERS_EVERY,
                lambda: asyncio.ensure_future(
                    _announce_later(self.channel_layer, self.game_id)
                ),
            )


#: Games whose watchers' count is about to be announced by this process.
_ANNOUNCING: set[str] = set()
#: Work left by sockets that are gone, held while it runs (the event loop
#: keeps only a weak reference to a task).
_LATER: set[asyncio.Future] = set()


def _later(work) -> None:
    """Run the coroutine ``work`` after its socket has gone."""
    task = asyncio.ensure_future(work)
    _LATER.add(task)
    task.add_done_callback(_LATER.discard)


async def _announce_later(layer, game_id: str) -> None:
    _ANNOUNCING.discard(game_id)
    await announce_presence(layer, game_id)


async def announce_presence(layer, game_id: str, *, watched: bool = False) -> None:
    """Tell every socket on the game who is connected (``watched``: only if
    someone watches)."""
    who = await sync_to_async(presence.who_is_here, thread_sensitive=False)(game_id)
    if watched and not who["watchers"]:
        return
    await layer.group_send(
        services.live_group(game_id), {"type": "presence.changed", "who": who}
    )

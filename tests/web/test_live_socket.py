"""The live game socket (``/ws/games/<id>/``) through the ASGI application:
every change pushed with its version, seats' presence, catching up after a
reconnect, and the limits: origin, sockets per client, messages per socket
(issue 64)."""

from __future__ import annotations

import asyncio
import itertools
import json
import uuid

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.asgi import get_asgi_application
from django.core.cache import cache

from mcts.play import swap2
from webgame import services
from webgame.consumers import GameConsumer, announce_presence
from webgame.errors import Conflict
from webgame.routing import application_for
from webgame.services.searches import SEARCHES

pytestmark = pytest.mark.django_db(transaction=True)
application = application_for(get_asgi_application())
ORIGIN = (b"origin", b"http://localhost:8000")


class WebsocketCommunicator(ApplicationCommunicator):
    """A browser's socket, talking ASGI to the application directly (as
    Channels' own test communicator, which needs the Daphne server)."""

    def __init__(self, app, path: str, headers=None) -> None:
        super().__init__(
            app,
            {
                "type": "websocket",
                "path": path,
                "headers": headers or [],
                "subprotocols": [],
                "client": ("127.0.0.1", 5000),
            },
        )

    async def connect(self, timeout: float = 5) -> tuple[bool, int | None]:
        await self.send_input({"type": "websocket.connect"})
        answer = await self.receive_output(timeout)
        return answer["type"] == "websocket.accept", answer.get("code")

    async def send_to(self, text_data: str | None = None, bytes_data=None) -> None:
        if bytes_data is not None:
            await self.send_input({"type": "websocket.receive", "bytes": bytes_data})
        else:
            await self.send_input({"type": "websocket.receive", "text": text_data})

    async def receive_from(self, timeout: float = 5) -> str:
        answer = await self.receive_output(timeout)
        assert answer["type"] == "websocket.send", answer
        return answer["text"]

    async def disconnect(self, code: int = 1000) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": code})
        await self.wait(1)


def sync(coroutine_function):
    """Run an async test body to its end."""
    return async_to_sync(coroutine_function)()


def friends_game() -> dict:
    made = services.create_game(
        game="gomoku", options=None, players=None, friend={"side": "black"}
    )
    joined = services.join(made["id"], invite=made["invite"])
    return {
        "id": made["id"],
        "black": made["seat"]["token"],
        "white": joined["seat"]["token"],
    }


def socket(game_id: str, *, origin=ORIGIN, client=("127.0.0.1", 5000)):
    communicator = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[origin, (b"host", b"localhost:8000")],
    )
    communicator.scope["client"] = client
    return communicator


async def hello(ws, token: str | None = None, version: int | None = None, **more):
    """Say hello as a browser does: with a seat's token and the version drawn."""
    told = {"type": "hello", "token": token, "version": version, **more}
    await ws.send_to(text_data=json.dumps(told))


async def receive(ws, kind: str) -> dict:
    """Return the next message of ``kind``, skipping the others."""
    while True:
        message = json.loads(await ws.receive_from(timeout=5))
        if message["type"] == kind:
            return message


def test_every_move_reaches_every_socket_once_in_version_order():
    game = friends_game()
    play = database_sync_to_async(services.play_move)

    async def body():
        watchers = [socket(game["id"], client=(f"10.0.0.{n}", 1)) for n in range(3)]
        for ws in watchers:
            assert (await ws.connect())[0]
            assert (await receive(ws, "game"))["game"]["version"] == 1
        await play(game["id"], move="h8", token=game["black"])
        await play(game["id"], move="h9", token=game["white"])
        for ws in watchers:
            seen = [(await receive(ws, "game"))["game"] for _ in range(2)]
            assert [g["version"] for g in seen] == [2, 3]
            assert seen[-1]["moves"] == ["h8", "h9"]
            text = json.dumps(seen)  # no socket message holds a seat's token
            assert game["black"] not in text and game["white"] not in text
            await ws.disconnect()

    sync(body)


def test_a_seat_is_present_once_it_says_hello_with_its_token():
    game = friends_game()

    async def body():
        black, watcher = socket(game["id"]), socket(game["id"], client=("10.1.1.1", 1))
        await watcher.connect()
        await black.connect()
        await hello(black, game["black"], 1)
        while True:
            presence = await receive(watcher, "presence")
            if presence["black"]:
                break
        # White never came: gone since black's arrival, 30 s before a claim
        # (two minutes in a game without a clock, as this one).
        assert presence == {
            "type": "presence",
            "black": True,
            "white": False,
            "watchers": 1,
            "playing": 0,
            "paused": 0,
            "gone": {"white": pytest.approx(0, abs=2)},
            "gone_after": 30,
            "gone_after_untimed": 120,
            "polled": {},
            "polled_here": 10,
        }
        await black.disconnect()
        presence = await receive(watcher, "presence")
        assert presence["black"] is False
        assert presence["gone"]["black"] == pytest.approx(0, abs=2)
        await watcher.disconnect()

    sync(body)


def test_a_seat_is_not_told_the_same_presence_twice():
    # API QA: once the second seat said hello, both sockets got the same
    # presence message twice in a row (its arrival, then the watchers' count
    # announced later, which it had left).
    game = friends_game()

    async def body():
        black, white = socket(game["id"]), socket(game["id"], client=("10.1.1.2", 1))
        await black.connect()
        await hello(black, game["black"], 1)
        await white.connect()
        await hello(white, game["white"], 1)
        await asyncio.sleep(1.2)  # two watchers' announcement periods
        for ws in (black, white):
            seen = []
            while not await ws.receive_nothing(timeout=0.1):
                message = json.loads(await ws.receive_from())
                if message["type"] == "presence":
                    seen.append(message)
            assert seen and seen[-1]["black"] and seen[-1]["white"]
            assert all(a != b for a, b in itertools.pairwise(seen)), seen
        for ws in (black, white):
            await ws.disconnect()

    sync(body)


def test_the_page_playing_a_game_without_seats_is_not_a_watcher():
    # A game against the computer, or of the computer against itself: the
    # page playing it was counted among its watchers, and a watch link's
    # page read "2 watching" with one watcher.
    made = services.create_game(game="reversi", options=None, players=None)

    async def body():
        player = socket(made["id"])
        watcher = socket(made["id"], client=("10.4.0.1", 1))
        await player.connect()
        await hello(player, playing=True)
        await watcher.connect()
        await hello(watcher)
        await asyncio.sleep(1.2)  # two announcement periods
        presence = await receive(watcher, "presence")
        while not await watcher.receive_nothing(timeout=0.1):
            message = json.loads(await watcher.receive_from())
            presence = message if message["type"] == "presence" else presence
        assert presence["watchers"] == 1
        await player.disconnect()
        await watcher.disconnect()
        assert cache.get(f"live:{made['id']}:watchers") == 0

    sync(body)


def test_watchers_are_told_when_the_page_playing_pauses_resumes_and_goes():
    # The watchers of the computer playing itself saw "Black (AI) to move"
    # for good when its page paused, or closed: nothing asked for a move.
    made = services.create_game(game="reversi", options=None, players=None)

    async def playing_and_paused(ws) -> tuple[int, int]:
        presence = await receive(ws, "presence")
        return presence["playing"], presence["paused"]

    async def body():
        player = socket(made["id"])
        watcher = await watching(made["id"])
        await player.connect()
        await hello(player, playing=True)
        assert await playing_and_paused(watcher) == (1, 0)
        await hello(player, playing=True, paused=True)
        assert await playing_and_paused(watcher) == (1, 1)
        await hello(player, playing=True, paused=False)
        assert await playing_and_paused(watcher) == (1, 0)
        await hello(player, playing=True, paused=True)
        assert await playing_and_paused(watcher) == (1, 1)
        await player.disconnect()
        assert await playing_and_paused(watcher) == (0, 0)
        await watcher.disconnect()

    sync(body)


def test_a_seated_games_page_without_a_seat_is_a_watcher_whatever_it_says():
    game = friends_game()

    async def body():
        ws = socket(game["id"])
        await ws.connect()
        await hello(ws, playing=True)
        await asyncio.sleep(1.2)
        presence = await receive(ws, "presence")
        assert presence["watchers"] == 1
        await ws.disconnect()

    sync(body)


def test_a_reconnect_catches_up_from_its_version():
    game = friends_game()
    play = database_sync_to_async(services.play_move)

    async def body():
        ws = socket(game["id"])
        await ws.connect()
        first = (await receive(ws, "game"))["game"]
        await ws.disconnect()
        await play(game["id"], move="h8", token=game["black"])
        await play(game["id"], move="h9", token=game["white"])
        again = socket(game["id"])
        await again.connect()
        await hello(again, game["white"], first["version"])
        latest = (await receive(again, "game"))["game"]
        assert latest["moves"] == ["h8", "h9"] and latest["version"] == 3
        await again.disconnect()

    sync(body)


def test_what_the_players_say_reaches_their_sockets_and_no_watchers():
    game = friends_game()
    say = database_sync_to_async(services.say)

    async def body():
        await say(game["id"], token=game["black"], text="before you came")
        black, white = socket(game["id"]), socket(game["id"], client=("10.2.0.2", 1))
        watcher = socket(game["id"], client=("10.2.0.3", 1))
        for ws, token in ((black, game["black"]), (white, game["white"])):
            await ws.connect()
            await hello(ws, token, 1)
            history = (await receive(ws, "chat"))["lines"]
            assert [x["text"] for x in history] == ["before you came"]
            assert history[0]["mine"] is (token == game["black"])
        await watcher.connect()
        await hello(watcher, "not a seat's token", 1)
        await say(game["id"], token=game["white"], preset="hello")
        for ws, mine in ((black, False), (white, True)):
            (line,) = (await receive(ws, "chat"))["lines"]
            assert line["preset"] == "hello" and line["mine"] is mine
        # The watcher's socket is sent the next move, and never a line.
        await database_sync_to_async(services.play_move)(
            game["id"], move="h8", token=game["black"]
        )
        while True:
            message = json.loads(await watcher.receive_from(timeout=5))
            assert message["type"] != "chat"
            if message["type"] == "game" and message["game"]["ply"] == 1:
                break
        for ws in (black, white, watcher):
            await ws.disconnect()

    sync(body)


def test_another_sites_page_cannot_open_a_socket():
    game = friends_game()

    async def body():
        ws = socket(game["id"], origin=(b"origin", b"http://evil.example.com"))
        connected, _ = await ws.connect()
        assert not connected
        missing = WebsocketCommunicator(application, f"/ws/games/{game['id']}/")
        assert not (await missing.connect())[0]  # no Origin at all

    sync(body)


def test_a_refused_socket_is_logged_with_its_client_and_why(settings, caplog):
    # Operator QA: an HTTP refusal is logged with the client behind the
    # proxy and its code; a socket's only in uvicorn's line, naming the
    # proxy and no reason.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.LIVE_SOCKETS_PER_CLIENT = 1
    game = friends_game()
    cache.clear()
    forwarded = (b"x-forwarded-for", b"203.0.113.5")
    path = f"/ws/games/{game['id']}/"

    def client(origin=ORIGIN):
        return WebsocketCommunicator(
            application, path, headers=[origin, (b"host", b"localhost:8000"), forwarded]
        )

    async def body():
        evil = client((b"origin", b"http://evil.example.com"))
        assert not (await evil.connect())[0]
        held = client()
        assert (await held.connect())[0]
        second = client()
        await second.connect()
        closed = await second.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await second.receive_output(timeout=5)
        await held.disconnect()

    with caplog.at_level("INFO", logger="webgame"):
        sync(body)
    refused = [
        r.getMessage() for r in caplog.records if r.getMessage().startswith("refused")
    ]
    assert refused == [
        f"refused WebSocket {path} from 203.0.113.5: 403 origin",
        f"refused WebSocket {path} from 203.0.113.5: 4429 too_many_sockets",
    ]


@pytest.mark.parametrize(
    ("https", "refused", "accepted"),
    [
        # The right host, but another port, scheme or a user name in front:
        # another service on the machine (security QA).
        (False, "http://localhost:9999", "http://LOCALHOST:8000"),
        (False, "http://localhost", "http://localhost:8000"),
        (False, "ws://localhost:8000", "http://localhost:8000"),
        (False, "http://evil.example.com@localhost:8000", "http://localhost:8000"),
        # A site served over https takes only https pages.
        (True, "http://localhost:8000", "https://localhost:8000"),
    ],
)
def test_only_the_sites_own_origin_opens_a_socket(https, refused, accepted, settings):
    settings.HTTPS = https
    game = friends_game()

    async def body():
        other = socket(game["id"], origin=(b"origin", refused.encode()))
        assert not (await other.connect())[0]
        same = socket(game["id"], origin=(b"origin", accepted.encode()))
        assert (await same.connect())[0]
        await same.disconnect()

    sync(body)


def test_a_client_holds_a_limited_number_of_sockets(settings):
    settings.LIVE_SOCKETS_PER_CLIENT = 2
    game = friends_game()
    cache.clear()

    async def body():
        held = [socket(game["id"]) for _ in range(2)]
        for ws in held:
            assert (await ws.connect())[0]
        third = socket(game["id"])
        await third.connect()
        closed = await third.receive_output(timeout=5)
        while closed["type"] != "websocket.close":
            closed = await third.receive_output(timeout=5)
        assert closed["code"] == 4429
        assert closed["reason"] == "too many sockets from this client: at most 2"
        other = socket(game["id"], client=("10.2.2.2", 1))  # another client
        assert (await other.connect())[0]
        await other.disconnect()
        for ws in held:
            await ws.disconnect()

    sync(body)


def test_a_socket_that_floods_or_talks_nonsense_is_closed():
    game = friends_game()

    async def body():
        ws = socket(game["id"])
        await ws.connect()
        for _ in range(40):
            await ws.send_to(text_data='{"type": "ping"}')
        codes = []
        while True:
            output = await ws.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                codes.append(output["code"])
                break
        assert codes == [1008]
        bad = socket(game["id"])
        await bad.connect()
        await bad.send_to(text_data="not json")
        while (output := await bad.receive_output(timeout=5))[
            "type"
        ] != "websocket.close":
            pass
        assert output["code"] == 1008
        # API QA: the close said nothing of what was wrong, then named
        # api.md, which the site does not serve, and not all of a hello.
        reason = output["reason"]
        assert "/api/docs/" in reason and "hello" in reason and "paused" in reason

    sync(body)


class LikeUvicorn:
    """The application behind a server that refuses a send or a second
    close after the socket's close, as uvicorn does."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        closed = False

        async def refusing(message):
            nonlocal closed
            if closed and message["type"] in ("websocket.send", "websocket.close"):
                raise RuntimeError(f"Unexpected ASGI message {message['type']!r}")
            closed = closed or message["type"] == "websocket.close"
            await send(message)

        await self.app(scope, receive, refusing)


def like_uvicorn(game_id: str) -> WebsocketCommunicator:
    """A browser's socket on ``game_id`` through a server as uvicorn."""
    return WebsocketCommunicator(
        LikeUvicorn(application),
        f"/ws/games/{game_id}/",
        headers=[ORIGIN, (b"host", b"localhost:8000")],
    )


def test_a_socket_closed_for_nonsense_leaves_its_clients_count():
    # A presence message that reaches the socket between its close and its
    # disconnect made the send raise, which ended the consumer before its
    # disconnect: the client's count kept the socket (for up to a day).
    game = friends_game()
    cache.clear()

    async def body():
        ws = like_uvicorn(game["id"])
        assert (await ws.connect())[0]
        assert cache.get("live:client:127.0.0.1") == 1
        await ws.send_to(text_data="not json")
        while (await ws.receive_output(timeout=5))["type"] != "websocket.close":
            pass
        await announce_presence(get_channel_layer(), game["id"])
        await asyncio.sleep(0.2)
        await ws.disconnect()
        assert cache.get("live:client:127.0.0.1") == 0

    sync(body)


def test_a_seat_closed_for_flooding_leaves_and_can_be_claimed_against():
    # QA: a player's socket that flooded was closed, and each message that
    # had come after the close closed it again, which uvicorn refuses: the
    # consumer ended before its disconnect, the seat stayed present (the
    # friend could never claim the game) and the client's count kept it.
    game = friends_game()
    cache.clear()

    async def body():
        white = like_uvicorn(game["id"])
        watcher = socket(game["id"], client=("10.1.1.1", 1))
        assert (await watcher.connect())[0]
        assert (await white.connect())[0]
        await hello(white, game["white"], 1)
        while not (await receive(watcher, "presence"))["white"]:
            pass
        for _ in range(40):
            await white.send_to(text_data='{"type": "ping"}')
        while (output := await white.receive_output(timeout=5))["type"] != (
            "websocket.close"
        ):
            pass
        assert output["reason"].startswith("too many messages")
        await white.disconnect()
        while (await receive(watcher, "presence"))["white"]:
            pass
        await watcher.disconnect()
        assert cache.get("live:client:127.0.0.1") == 0

    sync(body)


async def close_code(ws) -> int:
    """Connect ``ws`` and return the code it is closed with."""
    return (await closed(ws))["code"]


async def closed(ws) -> dict:
    """Connect ``ws`` and return its close: the code and the reason."""
    await ws.connect()
    while (output := await ws.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    return output


def test_no_socket_for_a_game_that_does_not_exist():
    async def body():
        ws = socket("00000000-0000-0000-0000-000000000000")
        close = await closed(ws)
        assert (close["code"], close["reason"]) == (4404, "no such game")

    sync(body)


@pytest.mark.parametrize(
    "message, reason",
    [
        # Hostile-client QA: both closed with the reason of any other
        # message, which did not say what was wrong with these.
        (
            {"text_data": json.dumps({"type": "ping", "pad": "x" * 5000})},
            "at most 4 KiB",
        ),
        ({"bytes_data": b'{"type": "ping"}'}, "text"),
    ],
)
def test_a_message_too_long_or_binary_is_closed_saying_so(message, reason):
    game = friends_game()

    async def body():
        ws = socket(game["id"])
        assert (await ws.connect())[0]
        await receive(ws, "game")
        await ws.send_to(**message)
        while (output := await ws.receive_output(timeout=5))["type"] != (
            "websocket.close"
        ):
            pass
        assert output["code"] == 1008
        assert reason in output["reason"]

    sync(body)


@pytest.mark.parametrize(
    "hello",
    [
        json.dumps(message)
        for message in [
            {"type": "hello", "token": None, "version": "x"},
            {"type": "hello", "token": 7, "version": 0},
            {"type": "hello", "token": None, "version": True},
            {"type": "hello", "token": None, "version": -1},
            {"type": "hello", "token": None, "version": 0, "playing": "yes"},
            {"type": "hello", "token": None, "version": 0, "paused": 1},
            # QA: these were taken too.
            {"type": "hello", "token": None},
            {"type": "hello", "version": 0},
            {"type": "hello", "token": None, "version": 0, "seat": "black"},
            {"type": "ping", "token": None},
        ]
    ]
    + ['{"type": "hello", "type": "ping"}']  # answered pong: the last one won
    + ["[" * 2000 + "]" * 2000],  # the decoder's recursion
)
def test_a_message_not_as_documented_is_closed(hello):
    # It was taken as a watcher's: a client with a bug never heard of it.
    game = friends_game()

    async def body():
        ws = socket(game["id"])
        assert (await ws.connect())[0]
        await receive(ws, "game")
        await ws.send_to(text_data=hello)
        while (output := await ws.receive_output(timeout=5))["type"] != (
            "websocket.close"
        ):
            pass
        assert output["code"] == 1008

    sync(body)


@pytest.mark.parametrize("path", ["/ws/games/not-a-uuid/", "/ws/", "/api/games/"])
def test_a_socket_to_no_route_is_closed_as_not_found(path, caplog):
    """Not a server error with a traceback in the log for each try: the
    same close as for a game that does not exist."""

    async def body():
        ws = WebsocketCommunicator(
            application, path, headers=[ORIGIN, (b"host", b"localhost:8000")]
        )
        assert await close_code(ws) == 4404

    sync(body)
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_the_socket_limit_holds_for_sockets_opened_at_once(settings):
    settings.LIVE_SOCKETS_PER_CLIENT = 8
    game = friends_game()
    cache.clear()

    async def open_one():
        ws = socket(game["id"])
        accepted, _ = await ws.connect()
        assert accepted  # accepted first, then closed if over the limit
        first = await ws.receive_output(timeout=5)
        return ws, first["type"] == "websocket.close" and first["code"] == 4429

    async def body():
        opened = await asyncio.gather(*(open_one() for _ in range(12)))
        assert sum(refused for _, refused in opened) == 4
        for ws, _ in opened:  # the server sends a closed socket's disconnect too
            await ws.disconnect()
        assert cache.get("live:client:127.0.0.1") == 0

    sync(body)


def test_a_fault_answering_a_message_is_logged_and_leaves_no_count(monkeypatch, caplog):
    # An exception in the consumer ended it before its disconnect (a flood's
    # second close, a deep message): the socket stayed counted. Any fault
    # now closes the socket as a server error (1011), logged.
    game = friends_game()
    cache.clear()

    async def broken(*args):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(GameConsumer, "_hello", broken)

    async def body():
        ws = like_uvicorn(game["id"])
        assert (await ws.connect())[0]
        await hello(ws, game["black"], 0)
        while (output := await ws.receive_output(timeout=5))["type"] != (
            "websocket.close"
        ):
            pass
        assert output["code"] == 1011
        await ws.disconnect()
        assert cache.get("live:client:127.0.0.1") == 0

    sync(body)
    assert "the disk caught fire" in caplog.text


def test_a_crowd_of_watchers_is_announced_in_a_few_messages():
    game = friends_game()

    async def body():
        crowd = [socket(game["id"], client=(f"10.3.0.{n}", 1)) for n in range(20)]
        for ws in crowd:
            assert (await ws.connect())[0]
        await asyncio.sleep(1.2)  # two announcement periods
        first = crowd[0]
        seen = []
        while not await first.receive_nothing(timeout=0.1):
            seen.append(json.loads(await first.receive_from()))
        presence = [m for m in seen if m["type"] == "presence"]
        # Not one message per arrival (20): the count, once it settled.
        assert 1 <= len(presence) <= 3
        assert presence[-1]["watchers"] == 20
        for ws in crowd:
            await ws.disconnect()

    sync(body)


def against_the_computer() -> dict:
    """Return a Reversi game whose Black the computer plays (level 1)."""
    return services.create_game(
        game="reversi",
        options=None,
        players={"black": {"kind": "ai", "level": 1}, "white": {"kind": "human"}},
    )


ai_move = database_sync_to_async(services.ai_move)


async def watching(game_id: str):
    """Return a socket on the game that has had the game's snapshot."""
    ws = socket(game_id)
    await ws.connect()
    await receive(ws, "game")
    return ws


def _swap2_opener_computer() -> dict:
    """A Swap2 game whose opener is the computer, thinking 0.1 s a search."""
    return services.create_game(
        game="gomoku",
        options=None,
        opening="swap2",
        players={
            "black": {"kind": "ai", "think_time": 0.1},
            "white": {"kind": "human"},
        },
    )


@pytest.mark.parametrize(
    ("start", "seconds", "stones"),
    [
        (against_the_computer, None, 1),  # a level: simulations, not seconds
        # The opener's turn is a search for each candidate opening: the
        # watcher was told nothing, and the page that asked showed one
        # search's time, its bar full long before the stones came.
        (_swap2_opener_computer, pytest.approx(0.1 * swap2.CANDIDATES), 3),
    ],
)
def test_a_watcher_is_told_when_the_computer_starts_thinking(start, seconds, stones):
    # A watcher of the computer's game saw nothing between its moves: the
    # page that asked for the search showed the thinking, and only it.
    made = start()

    async def body():
        ws = await watching(made["id"])
        await ai_move(made["id"])
        thinking = json.loads(await ws.receive_from(timeout=5))
        assert thinking == {
            "type": "thinking",
            "side": "black",
            "version": made["version"],
            "seconds": seconds,
        }
        after = await receive(ws, "game")
        assert len(after["game"]["moves"]) == stones
        await ws.disconnect()

    sync(body)


def test_a_search_refused_is_not_told_as_thinking():
    # A second page asking for the search under way was refused (409), and
    # its search was told all the same: a watcher waited for a move that no
    # search was making.
    made = against_the_computer()

    async def body():
        ws = await watching(made["id"])
        # Another request's search holds the game's slot.
        with (
            SEARCHES.slot(uuid.UUID(made["id"]), made["version"]),
            pytest.raises(Conflict),
        ):
            await ai_move(made["id"])
        assert await ws.receive_nothing(timeout=0.3)
        await ws.disconnect()

    sync(body)

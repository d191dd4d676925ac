"""An outage of the scale-out's shared store (Redis) costs no player time.

Operator QA (the scale-out walk): with Redis down every request was refused
(503 ``unavailable``), yet the side to move's clock ran on and the flag
watcher ended a 15 s game on time while nobody could move."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.utils import timezone
from rest_framework.test import APIClient

from webgame import consumers, routing, services
from webgame.models import Game as GameRow
from webgame.services import clocks, flag_due_games, outages

from .helpers import url
from .test_friends import post, run_out
from .test_live_socket import friends_game, like_uvicorn

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def outage(monkeypatch):
    """A fresh view of the store for each test (the process keeps one)."""
    fresh = outages.Outage()
    monkeypatch.setattr(outages, "OUTAGE", fresh)
    return fresh


@pytest.fixture
def client():
    return APIClient()


def black_to_move(client, friends) -> str:
    """Play a move each in the friends' game: Black's clock runs."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    return game_id


def test_the_side_to_move_is_given_the_outage_once():
    """The time from the last answer before the outage (or the clock's start,
    if later) to the first after; a second web process that saw the same
    outage, a little longer, gives only what it saw beyond."""
    clock = {**clocks.new_clock({"initial": 15, "increment": 0}), "since": 10_000}
    given = clocks.outage_given(clock, "black", 12_000, 32_000)
    assert given is not None
    assert given["black"] == 15_000 + 20_000 and given["white"] == 15_000
    assert given["since"] == 10_000
    again = clocks.outage_given(given, "black", 12_400, 32_300)
    assert again is not None and again["black"] == given["black"] + 300
    assert clocks.outage_given(again, "black", 12_400, 32_300) is None
    # A clock started after the outage began is given the part after it.
    late = {**clock, "since": 20_000}
    assert clocks.outage_given(late, "black", 12_000, 32_000)["black"] == 27_000
    # One started after the outage has nothing to be given.
    assert clocks.outage_given({**clock, "since": 40_000}, "black", 0, 32_000) is None


def test_nobody_loses_on_time_while_redis_is_down(client, friends, outage):
    """Black thinks 5 s, then Redis goes down for 195 s: more than Black's
    180 s. No game is flagged meanwhile; once Redis answers, Black has the
    175 s it had, and may move."""
    game_id = black_to_move(client, friends)
    run_out(game_id, 200)  # Black's clock started 200 s ago
    started = GameRow.objects.get(pk=game_id).clock["since"]
    assert outage.look(True, started + 5_000) is None
    assert outage.look(False, started + 5_500) is None
    assert outage.down
    assert flag_due_games() == 0  # out of time 20 s ago, but nobody could move
    shown = client.get(url("game-detail", game_id)).json()
    assert shown["status"] == "playing"
    end = clocks.now_ms()
    assert outage.look(True, end) == (started + 5_000, end)
    assert outage.down  # until its time is given
    before = GameRow.objects.get(pk=game_id)
    assert services.make_up_for_outage(started + 5_000, end) == 1
    outage.made_up()
    assert not outage.down
    row = GameRow.objects.get(pk=game_id)
    assert row.version == before.version + 1
    assert flag_due_games() == 0
    shown = client.get(url("game-detail", game_id)).json()["clock"]
    assert 174 < shown["black"] <= 175 and shown["running"] == "black"
    assert shown["restarts"] == 1  # the page says why the clock grew
    # Another web process gives the same outage nothing more.
    assert services.make_up_for_outage(started + 5_000, end) == 0
    moved = post(client, "game-moves", game_id, {"move": "j8"}, token=friends[1])
    assert moved.status_code == 200, moved.content


def test_the_flag_watcher_waits_for_redis_and_then_gives_the_time(
    client, friends, monkeypatch, caplog, settings
):
    """The watcher's look: while the store does not answer no game is ended,
    said once in the log; when it answers, the running clocks are given the
    outage, said once too."""
    game_id = black_to_move(client, friends)
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"  # the look itself is faked
    answers = iter([True, False, False, True, True])
    monkeypatch.setattr(outages, "store_answers", lambda: next(answers))
    caplog.set_level(logging.INFO, logger="webgame.services")
    assert services.watch_store() is True
    run_out(game_id)  # Black's time runs out during the outage
    assert services.watch_store() is False
    assert services.watch_store() is False
    assert flag_due_games() == 0
    assert services.watch_store() is True
    assert services.watch_store() is True
    row = GameRow.objects.get(pk=game_id)
    assert row.status == GameRow.Status.PLAYING
    assert row.clock["restarts"] == 1
    said = [r.getMessage() for r in caplog.records if "Redis" in r.getMessage()]
    assert len(said) == 2, said
    assert "does not answer" in said[0] and "answers again" in said[1]
    assert "given" in said[1]


def test_a_first_move_awaited_has_its_whole_time_again(client, friends, outage):
    """As after a restart: the first move's 25 s (3+2) again, not aborted."""
    game_id = friends[0]
    row = GameRow.objects.get(pk=game_id)
    row.deadline = timezone.now() - dt.timedelta(seconds=2)  # ran out in it
    row.save()
    at = clocks.now_ms()
    outage.look(True, at - 30_000)
    outage.look(False, at - 29_000)
    assert flag_due_games() == 0
    assert services.make_up_for_outage(at - 30_000, at) == 1
    shown = client.get(url("game-detail", game_id)).json()
    assert shown["status"] == "playing"
    assert 24 < shown["clock"]["first_move"] <= 25


def test_without_redis_there_is_no_outage(settings, monkeypatch):
    """One process's memory cannot be out of reach: the watcher asks nothing."""
    settings.REDIS_URL = ""
    monkeypatch.setattr(outages, "store_answers", lambda: False)
    assert services.watch_store() is True
    assert not outages.OUTAGE.down


def test_the_flag_watcher_ends_no_game_and_plays_no_move_during_an_outage(
    monkeypatch,
):
    """The server's watcher asks the store before each round: while it does
    not answer, no game is looked at (the computer's unasked moves neither:
    they could not be told)."""
    looked: list[str] = []
    store = iter([False, False, True])
    monkeypatch.setattr(routing, "FLAG_EVERY", 0.01)

    def watch_store() -> bool:
        looked.append("store")
        return next(store, True)

    monkeypatch.setattr(services, "watch_store", watch_store)
    monkeypatch.setattr(services, "flag_due_games", lambda: looked.append("flags"))
    monkeypatch.setattr(services, "unasked_ai_moves", lambda: looked.append("ai") or [])
    monkeypatch.setattr(services, "beat", lambda: looked.append("beat"))

    async def watch() -> None:
        watcher = asyncio.create_task(routing.watch_flags())
        while len(looked) < 6:
            await asyncio.sleep(0.01)
        watcher.cancel()

    asyncio.run(asyncio.wait_for(watch(), 5))
    # Alive, whether or not the store answers (beats.py), once in 5 s.
    assert looked[:6] == ["beat", "store", "store", "store", "flags", "ai"]


# ---- the live sockets while Redis does not answer ------------------------------


def redis_down(*_args, **_kwargs):
    raise redis.exceptions.ConnectionError("Error 111 connecting to redis:6379")


async def closed_with(ws) -> int:
    """Return the close code of the socket's next close (skipping sends)."""
    while (output := await ws.receive_output(timeout=5))["type"] != "websocket.close":
        pass
    return output["code"]


@pytest.mark.django_db(transaction=True)
def test_a_socket_opened_while_redis_is_down_is_told_to_try_again_later(
    monkeypatch, caplog
):
    """Operator QA: the handshake was a 500 with three chained tracebacks in
    the log. It is accepted and closed with 1013 (try again later: the page
    retries, polling meanwhile), in one line of the log."""
    game = friends_game()
    cache.clear()
    monkeypatch.setattr(consumers, "LEAVE_EVERY", 0.05)

    async def body() -> None:
        ws = like_uvicorn(game["id"])
        with monkeypatch.context() as outage:
            outage.setattr(LocMemCache, "incr", redis_down)
            assert await ws.connect() == (True, None)
            assert await closed_with(ws) == 1013
        await asyncio.sleep(0.3)  # Redis answers: nothing to take back
        assert cache.get("live:client:127.0.0.1") == 0  # was -1

    async_to_sync(body)()
    said = [r for r in caplog.records if r.name == "webgame.consumers"]
    assert len(said) == 1 and said[0].levelno == logging.WARNING, said
    assert "Redis" in said[0].getMessage() and said[0].exc_info is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kept", [True, False])
def test_a_socket_redis_dropped_leaves_its_counts_once_redis_answers(
    monkeypatch, caplog, kept
):
    """A socket open when Redis goes: closed with 1013 in one line, not a
    traceback and a dead connection; its counts (its client's sockets, the
    game's watchers) are taken back once Redis answers, if Redis kept them
    (else another socket's count would be taken)."""
    game = friends_game()
    cache.clear()
    monkeypatch.setattr(consumers, "LEAVE_EVERY", 0.05)
    layer = get_channel_layer()
    store = {"down": False}
    receive = layer.receive

    async def receiving(channel):
        while not store["down"]:
            try:
                return await asyncio.wait_for(receive(channel), 0.05)
            except TimeoutError:
                continue
        redis_down()

    monkeypatch.setattr(layer, "receive", receiving)
    watchers = f"live:{game['id']}:watchers"

    async def body() -> None:
        ws = like_uvicorn(game["id"])
        assert (await ws.connect())[0]
        await asyncio.sleep(0.1)
        assert cache.get("live:client:127.0.0.1") == 1 and cache.get(watchers) == 1
        with monkeypatch.context() as outage:
            outage.setattr(LocMemCache, "incr", redis_down)
            store["down"] = True
            assert await closed_with(ws) == 1013
            await asyncio.sleep(0.2)  # its counts cannot be taken back yet
            assert cache.get(watchers) == 1
            if not kept:  # Redis came back empty; another socket came
                cache.clear()
                cache.set(watchers, 1)
        await asyncio.sleep(0.3)
        assert cache.get(watchers) == (0 if kept else 1)
        if kept:
            assert cache.get("live:client:127.0.0.1") == 0

    async_to_sync(body)()
    said = [r for r in caplog.records if r.name == "webgame.consumers"]
    assert len(said) == 1 and said[0].exc_info is None, said


@pytest.mark.django_db(transaction=True)
def test_a_hello_redis_cannot_count_closes_the_socket_to_try_again(monkeypatch, caplog):
    """Not as a server error (1011) with a traceback: the browser tries again."""
    game = friends_game()

    async def body() -> int:
        ws = like_uvicorn(game["id"])
        assert (await ws.connect())[0]
        await asyncio.sleep(0.2)  # counted as a watcher
        with monkeypatch.context() as outage:
            outage.setattr(LocMemCache, "incr", redis_down)
            told = {"type": "hello", "token": game["black"], "version": 1}
            await ws.send_to(json.dumps(told))
            return await closed_with(ws)

    assert async_to_sync(body)() == 1013
    said = [r for r in caplog.records if r.name == "webgame.consumers"]
    assert len(said) == 1 and said[0].exc_info is None, said


def test_an_update_redis_cannot_carry_is_one_line_of_the_log(monkeypatch, caplog):
    """The write stands; the log says why the sockets missed it, without a
    traceback at each write of an outage."""
    from webgame.services import live

    async def group_send(*_args):
        redis_down()

    monkeypatch.setattr(get_channel_layer(), "group_send", group_send)
    live.publish_chat("0" * 32, "author", {"text": "hi"})
    (record,) = [r for r in caplog.records if r.name == "webgame.services.live"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "Redis" in record.getMessage()

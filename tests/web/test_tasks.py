"""The Celery side of AI_BACKEND=celery: a worker whose MODEL_DIR lacks the
model the web process offered says the server is at fault (503, logged on
the worker), not the client (400); a worker says it runs through a Redis
restart; an undo stands when Redis cannot stop the search it made useless."""

from __future__ import annotations

import contextlib
import logging
import threading
import time

import pytest
import redis
from rest_framework.test import APIClient

from webgame import backends, tasks
from webgame.errors import ModelNotFound, ServiceError
from webgame.services import ai

from .helpers import create, url


@pytest.mark.django_db
def test_a_worker_without_the_model_answers_503_and_logs_it(monkeypatch, caplog):
    answers = []

    def no_model(*args, **kwargs):
        raise ModelNotFound("reversi", "light")

    monkeypatch.setattr(ai, "search_in_worker", no_model)
    monkeypatch.setattr(
        backends, "answer", lambda token, payload: answers.append(payload)
    )
    monkeypatch.setattr(backends, "running", lambda token: contextlib.nullcontext())
    with caplog.at_level(logging.ERROR, logger="webgame.tasks"):
        tasks.search.run(game_id="g", ai={}, best=False, version=0, answer="t")
    assert answers == [
        {
            "error": {
                "code": "ai_unavailable",
                "detail": "an AI worker lacks this model; the error was logged",
                "status": 503,
            }
        }
    ]
    assert "this worker cannot search: no model 'light' for reversi" in caplog.text


class FlakyRedis:
    """A Redis whose first write fails, as while it restarts."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def zadd(self, key, mapping):
        self.calls.append("zadd")
        if self.calls.count("zadd") == 1:
            raise redis.ConnectionError("Redis is restarting")

    def zremrangebyscore(self, key, low, high):
        self.calls.append("zremrangebyscore")

    def zrem(self, key, name):
        self.calls.append("zrem")


def test_a_worker_keeps_saying_it_runs_after_redis_came_back(monkeypatch):
    # Its thread died on the first error, and the web processes then refused
    # every search as if no worker ran.
    flaky = FlakyRedis()
    monkeypatch.setattr(backends, "connection", lambda: flaky)
    monkeypatch.setattr(backends, "WORKER_SECONDS", 0.3)
    stopping = threading.Event()
    saying = threading.Thread(
        target=backends.say_worker_runs, args=("worker1@test", stopping)
    )
    saying.start()
    deadline = time.monotonic() + 10
    while flaky.calls.count("zadd") < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    stopping.set()
    saying.join(timeout=5)
    assert flaky.calls.count("zadd") >= 3 and flaky.calls[-1] == "zrem"


@pytest.mark.django_db
def test_an_undo_stands_when_redis_cannot_stop_the_search_it_made_useless(
    settings, monkeypatch, caplog
):
    """An undo stops the computer's search under way (on a Celery worker, by
    Redis); a Redis down then must not turn the undo, already written, into
    an error."""
    settings.AI_BACKEND = "celery"

    def down(game_id):
        raise redis.ConnectionError("Redis is restarting")

    monkeypatch.setattr(backends, "stop", down)
    client = APIClient()
    game = create(client, "reversi").json()
    client.post(url("game-moves", game["id"]), {"move": "f5"}, format="json")
    undone = client.post(url("game-undo", game["id"]), {}, format="json")
    assert undone.status_code == 200, undone.content
    assert undone.json()["moves"] == []
    assert "was not stopped: Redis is restarting" in caplog.text


class NoWorkerRedis:
    """A Redis in which no worker runs, nor any search: the queue's last
    worker stopped after the search was sent."""

    def blpop(self, keys, timeout):
        return None

    def exists(self, key):
        return 0

    def zcount(self, key, low, high):
        return 0


def test_a_search_sent_as_the_last_worker_stopped_is_refused_not_waited_for(
    monkeypatch, caplog
):
    # Scale-out QA: sent in the 12 s a stopped worker is still counted, the
    # search waited in the queue for nobody (up to its time and 600 s),
    # and a clocked computer lost on time meanwhile.
    monkeypatch.setattr(backends, "connection", NoWorkerRedis)
    monkeypatch.setattr(backends, "GRACE", 0.5)  # before: 5 s, then a 503
    monkeypatch.setattr(backends, "_no_worker_logged", -1e9)  # not told yet
    started = time.monotonic()
    with pytest.raises(ServiceError) as refused:
        backends._wait_for_answer("t", 0.1)
    assert refused.value.code == "ai_unavailable"
    assert str(refused.value.detail) == "no AI worker is running; the operator was told"
    assert time.monotonic() - started < 1
    # Told indeed (operator QA: the log had only "Service Unavailable"), and
    # once for a crowd of refusals, not once each.
    for _ in range(3):
        with pytest.raises(ServiceError):
            backends._wait_for_answer("t", 0.1)
    told = [r for r in caplog.records if "no AI worker is running" in r.getMessage()]
    assert len(told) == 1 and told[0].levelname == "ERROR"
    assert "celery -A webgame worker" in told[0].getMessage()

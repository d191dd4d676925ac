"""The Celery search task (AI_BACKEND=celery) answers its web process: a
worker whose MODEL_DIR lacks the model the web process offered says the
server is at fault (503, logged on the worker), not the client (400)."""

from __future__ import annotations

import contextlib
import logging

from webgame import backends, tasks
from webgame.errors import ModelNotFound
from webgame.services import ai


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

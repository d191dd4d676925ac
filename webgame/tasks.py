"""The Celery tasks of ``AI_BACKEND=celery``: an AI search, and a self-play
run that grows a tree model (both long CPU work, on the worker machines)."""

from __future__ import annotations

import io
import logging
import threading

from celery.signals import worker_ready, worker_shutdown
from django.core.management import call_command
from django.db import close_old_connections

from . import backends
from .celery import SEARCH_TASK, app
from .errors import ServiceError

log = logging.getLogger(__name__)

#: Set when this worker stops: it then no longer says that it runs.
_STOPPING = threading.Event()


@worker_ready.connect
def _say_this_worker_runs(sender, **_kwargs) -> None:
    """Tell the web processes, every few seconds, that this worker runs."""
    threading.Thread(
        target=backends.say_worker_runs,
        args=(sender.hostname, _STOPPING),
        name="worker-runs",
        daemon=True,
    ).start()


@worker_shutdown.connect
def _stop_saying(**_kwargs) -> None:
    _STOPPING.set()


# Acknowledged when it ends, so that a worker on a search reserves no other
# (one that died on it is noticed by the web process: backends.running).
@app.task(name=SEARCH_TASK, acks_late=True)
def search(*, game_id: str, ai: dict, best: bool, version: int, answer: str) -> None:
    """Run the search for a web process and hand it its answer (or the
    ServiceError, such as a model that cannot be loaded or a game that moved
    on) through Redis; the worker polls the game's stop key meanwhile, and
    says every second that it is alive."""
    from .services.ai import search_in_worker

    close_old_connections()
    with backends.running(answer):
        try:
            result = search_in_worker(
                game_id,
                ai=ai,
                best=best,
                version=version,
                stop_asked=lambda: backends.stop_asked(game_id),
            )
            backends.answer(answer, {"result": result})
        except ServiceError as error:
            code, detail, status = error.code, error.detail, error.status_code
            if code == "unknown_model":
                # The web process found it: this worker's MODEL_DIR lacks it.
                log.error("this worker cannot search: %s", detail)
                code, status = "ai_unavailable", 503
                detail = "an AI worker lacks this model; the error was logged"
            _answer_error(answer, code, detail, status)
        except Exception:
            _answer_error(
                answer,
                "server_error",
                "the AI worker failed; the error was logged",
                500,
            )
            raise  # Celery logs it with its traceback
        finally:
            close_old_connections()


def _answer_error(answer: str, code: str, detail: str, status: int) -> None:
    """Hand the web process waiting on ``answer`` the search's error."""
    backends.answer(
        answer, {"error": {"code": code, "detail": detail, "status": status}}
    )


@app.task(name="webgame.selfplay")
def selfplay(*args: str) -> str:
    """Run ``manage.py selfplay ARGS`` on a worker (the model is written into
    that machine's ``MODEL_DIR``) and log the model's summary it printed. Send
    it with ``celery -A webgame call webgame.selfplay --args '["gomoku",
    "--games", "200", "--model", "big"]'``."""
    out = io.StringIO()
    call_command("selfplay", *args, stdout=out)
    log.info("self-play done: %s", out.getvalue())
    return out.getvalue()

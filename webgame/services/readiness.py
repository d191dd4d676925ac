"""Whether the AI of each game is ready to play in this process.

A serving process launches the warm-up before it imports the app
(:mod:`webgame.startup`), then hands it to :meth:`Readiness.follow`: a thread
reads the warm-up's progress, and as each game's kernels are compiled it
loads them into this process from numba's cache (a moment, no compiling).

Meanwhile :meth:`Readiness.status` tells the page how far each game is, and
:meth:`Readiness.wait` holds an AI request until its game is ready: an AI
move asked for early plays late, it never fails. A process that follows no
warm-up (tests, ``manage.py`` commands, Celery workers) compiles on first
use, as numba does by default.
"""

from __future__ import annotations

import logging
import signal
import threading
import time

from mcts import WARM_GAMES, warm_game

from ..startup import WarmUp
from .treemodels import preload_light_models

log = logging.getLogger(__name__)

#: The warm-up's states in which a game waits no more.
DONE = ("ready", "failed")


class Readiness:
    """The AI's readiness in this process, game by game (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = {name: threading.Event() for name in WARM_GAMES}
        self._progress: dict[str, float] = {}
        self._seconds: dict[str, float] = {}
        self._warm: WarmUp | None = None

    def follow(self, warm: WarmUp | None) -> None:
        """Follow ``warm`` in a thread, each game ready once loaded here
        (None: nothing to follow, every game counts as ready)."""
        with self._lock:
            if self._warm is not None or warm is None:
                return
            self._warm = warm
        threading.Thread(
            target=self._run, args=(warm,), name="ai-readiness", daemon=True
        ).start()

    def _run(self, warm: WarmUp) -> None:
        waiting = list(WARM_GAMES)
        relaunched = False
        while waiting:
            exited = warm.exit_code() is not None
            games = warm.status().get("games", {})
            with self._lock:
                for name, entry in games.items():
                    self._progress[name] = float(entry.get("progress", 0.0))
            for name in list(waiting):
                entry = games.get(name, {})
                if entry.get("state") in DONE:
                    waiting.remove(name)
                    self._load(warm, name, entry)
            if exited and waiting:
                if not relaunched and warm.exit_code() == -signal.SIGKILL:
                    # Killed by the system (out of memory): the next one
                    # starts from numba's cache, where this one stopped. Not
                    # one stopped (Ctrl+C stops the server too) or failed.
                    log.warning(
                        "the AI's warm-up was killed (%s) before %s was "
                        "ready: launching it again",
                        warm.exit_code(),
                        ", ".join(waiting),
                    )
                    warm.relaunch()
                    relaunched = True
                    continue
                log.error(
                    "the AI's warm-up exited with %s before %s was ready: "
                    "compiling on the first AI move instead",
                    warm.exit_code(),
                    ", ".join(waiting),
                )
                for name in waiting:
                    self._mark_ready(warm, name)
                return
            time.sleep(0.2)
        # One line for the operator who waits for all (first-start walk: a
        # line per game, twice, and none for the whole).
        log.info(
            "the AI of every game is ready, %.1f s after the start",
            time.monotonic() - warm.launched,
        )
        warm.reap()

    def _load(self, warm: WarmUp, name: str, entry: dict) -> None:
        """Load a compiled game's kernels into this process (from the cache)."""
        if entry.get("state") == "failed":
            log.error(
                "the AI of %s could not be compiled: %s", name, entry.get("error")
            )
        else:
            began = time.monotonic()
            try:
                compiled = warm_game(name)
            except Exception:
                log.exception("loading the AI of %s failed", name)
            else:
                log.info(
                    "the AI of %s is ready, %.1f s after the start (loaded in "
                    "%.1f s; %d kernels compiled in the server)",
                    name,
                    time.monotonic() - warm.launched,
                    time.monotonic() - began,
                    compiled,
                )
        self._mark_ready(warm, name)
        # Then the models a first game picks, in this thread: an AI move
        # that needs one meanwhile waits for it, as it would have anyway.
        preload_light_models(name)

    def _mark_ready(self, warm: WarmUp, name: str) -> None:
        with self._lock:
            self._seconds[name] = round(time.monotonic() - warm.launched, 1)
        self._ready[name].set()

    def is_ready(self, name: str) -> bool:
        """True if ``name``'s AI plays at once (always, with no warm-up)."""
        return self._warm is None or self._ready[name].is_set()

    def wait(self, name: str) -> None:
        """Return once ``name``'s AI is ready (at once with no warm-up)."""
        if self._warm is not None:
            self._ready[name].wait()

    def status(self) -> dict:
        """The JSON of each game's readiness: ``ready``, ``progress`` (0..1)
        and ``seconds`` after the server's start it became ready (None when
        it is not yet, or with no warm-up)."""
        with self._lock:
            progress = dict(self._progress)
            seconds = dict(self._seconds)
        games = {}
        for name in WARM_GAMES:
            ready = self.is_ready(name)
            games[name] = {
                "ready": ready,
                "progress": 1.0 if ready else min(0.99, progress.get(name, 0.0)),
                "seconds": seconds.get(name),
            }
        return {"ready": all(g["ready"] for g in games.values()), "games": games}


#: This process's readiness.
READINESS = Readiness()

"""The server's growing tree model (``LIVE_MODEL``, ``live`` by default): what
the AI's searches in each finished game added to their trees is folded into
``model/<game>/live/``, seeded from the game's ``full`` model if there is one
(unpacked first if it is shipped packed), else ``light``, saved atomically
every ``LIVE_MODEL_SAVE_EVERY`` games and kept within ``LIVE_MODEL_MAX_NODES``
nodes.

A search hands over copies of its tree before and after; one writer thread
works out what it gained (kept in memory per game until the game ends),
folds a finished game's gains in and saves, in that order, so requests never
wait for any of it. The searches read the live model like any other
(``load_shared`` picks up each save), so a crash loses at most the games
since the last save, never the model; a stop saves them (:func:`flush`). A
live model found damaged is set aside (``.live.damaged-<time>``, said once
in the log) and a new one grows from the seed. One that fails to take in
``MAX_FAILURES`` finished games in a row (its save failing, say) stops growing
in this process, said once: its unsaved games would pile up in memory, its
tree past its cap. The one on disk is still played. Only the games' default
options grow it (the seed models are of those), and only with the in-process
AI backend: Celery workers would keep the gains in their own processes.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import OrderedDict
from pathlib import Path

from django.conf import settings

from mcts import (
    LiveModel,
    ModelError,
    Tree,
    model_path,
    packed_path,
    search_gain,
    unpack_model,
)

from .rules import cached_rules, options_key

log = logging.getLogger(__name__)

#: Games whose gains are kept at once (the oldest are dropped beyond).
MAX_GAMES_KEPT = 256
#: Jobs the writer may have waiting; a search's gain beyond is not kept (two
#: copies of a 2 s search's tree are about 10 MB).
MAX_JOBS_WAITING = 64
#: Finished games in a row a live model may fail to take in (each tries its
#: save again) before it stops growing in this process.
MAX_FAILURES = 3
#: The models a live model is seeded from, the first found.
SEEDS = ("full", "light")


def enabled(game: str, options: dict) -> bool:
    """Return whether searches in a game of ``game`` with ``options`` grow
    the live model."""
    if not settings.LIVE_MODEL or settings.AI_BACKEND == "celery":
        return False
    if GROWTH.stopped(game):
        return False
    # Both through the rules, so a game stored before an option existed
    # (its default then filled in) compares as the default it plays.
    defaults = cached_rules(game, options_key({})).options
    return cached_rules(game, options_key(options)).options == defaults


def record_search(game_id, ply: int, before: Tree, after: Tree) -> None:
    """Keep what the search at ``ply`` of game ``game_id`` added to its tree
    (``before`` and ``after`` are copies the search no longer changes)."""
    GROWTH.record(str(game_id), ply, before, after)


def game_finished(row) -> None:
    """Hand a finished game's gains to the writer (once a game)."""
    GROWTH.submit(str(row.pk), row.game, row.options, list(row.moves))


def flush() -> int:
    """Fold in the finished games handed over and save every live model
    with games not saved yet (as the server stops); return how many models
    were saved."""
    GROWTH.wait()
    return GROWTH.save_all()


class Growth:
    """The gains of the games in play, and the writer thread that works them
    out and folds them into the models, one job at a time in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._gains: OrderedDict[str, dict[int, Tree]] = OrderedDict()
        self._queue: queue.Queue = queue.Queue()
        # By folder: a test (or a settings change) may move MODEL_DIR.
        self._models: dict[Path, LiveModel] = {}
        #: Finished games in a row each model failed to take in.
        self._failures: dict[Path, int] = {}
        self._stopped: set[Path] = set()
        self._writer: threading.Thread | None = None

    def record(self, game_id: str, ply: int, before: Tree, after: Tree) -> None:
        if self._queue.qsize() >= MAX_JOBS_WAITING:
            return  # the writer is behind: this search teaches the model nothing
        self._put(lambda: self._keep(game_id, ply, search_gain(before, after)))

    def submit(self, game_id: str, game: str, options: dict, moves: list[str]) -> None:
        # Behind the game's searches in the queue: their gains are all kept.
        self._put(lambda: self._fold_finished(game_id, game, options, moves))

    def wait(self) -> None:
        """Return once every search's gain is kept and every finished game
        folded in."""
        self._queue.join()

    def _put(self, job) -> None:
        with self._lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(
                    target=self._write, name="live-model", daemon=True
                )
                self._writer.start()
        self._queue.put(job)

    def _keep(self, game_id: str, ply: int, gain: Tree) -> None:
        with self._lock:
            self._gains.setdefault(game_id, {})[ply] = gain
            self._gains.move_to_end(game_id)
            while len(self._gains) > MAX_GAMES_KEPT:
                self._gains.popitem(last=False)

    def _fold_finished(
        self, game_id: str, game: str, options: dict, moves: list[str]
    ) -> None:
        with self._lock:
            gains = self._gains.pop(game_id, None)
        if not gains or self.stopped(game):
            return
        folder = _folder(game)
        try:
            self._fold(game, options, moves, gains)
        except OSError as error:  # the disk: added, the save tried again later
            log.error(
                "live model of %s could not be saved (%s): its games stay in "
                "memory, and the next finished game tries again",
                game,
                error,
            )
        except Exception:  # a model write must never take the server down
            log.exception("live model of %s: a finished game was not added", game)
        else:
            self._failures.pop(folder, None)
            return
        self._failures[folder] = self._failures.get(folder, 0) + 1
        if self._failures[folder] >= MAX_FAILURES:
            self._stopped.add(folder)
            self._models.pop(folder, None)
            log.error(
                "live model of %s stops growing in this process after %d "
                "finished games in a row failed (above): the games since its "
                "last save are dropped, and the one in %s is still played; "
                "restart the server once the cause is fixed",
                game,
                MAX_FAILURES,
                folder,
            )

    def stopped(self, game: str) -> bool:
        """Return whether the live model of ``game`` stopped growing here."""
        return _folder(game) in self._stopped

    def save(self, game: str) -> int:
        """Save the live model of ``game`` if it has unsaved games (call it
        after :meth:`wait`); return the games merged into it in all."""
        live = self._models.get(_folder(game))
        if live is None:
            return 0
        if live.unsaved:
            live.save()
        return live.games_merged

    def save_all(self) -> int:
        """Save every live model with unsaved games (call it after
        :meth:`wait`); return how many were saved. A failure is logged."""
        saved = 0
        for folder, live in list(self._models.items()):
            if not live.unsaved:
                continue
            try:
                live.save()
            except OSError as error:
                log.error("live model %s could not be saved: %s", folder, error)
            else:
                saved += 1
        return saved

    def _write(self) -> None:
        while True:
            job = self._queue.get()
            try:
                job()
            except Exception:  # the writer must go on with the next job
                log.exception("live model: a search's gain was not kept")
            finally:
                self._queue.task_done()

    def _fold(self, game: str, options: dict, moves: list[str], gains) -> None:
        rules = cached_rules(game, options_key(options))
        folder = _folder(game)
        live = self._models.get(folder)
        if live is None:
            try:
                live = _live_model(rules, game, folder)
            except ModelError as damaged:
                aside = folder.with_name(
                    f".{folder.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
                )
                folder.rename(aside)
                log.warning(
                    "live model of %s is damaged (%s): set aside as %s; a new "
                    "one grows from the seed",
                    game,
                    damaged,
                    aside,
                )
                live = _live_model(rules, game, folder)
            self._models[folder] = live
        state = rules.initial_state()
        codes = []
        for text in moves:
            code = rules.parse_move(state, text)
            codes.append(code)
            state = rules.apply(state, code)
        if live.add_game(codes, gains):
            log.info(
                "live model of %s saved: %d games, %d nodes",
                game,
                live.games_merged,
                live.model.tree.size,
            )


def _live_model(rules, game: str, folder: Path) -> LiveModel:
    """Return the live model of ``game`` in ``folder``, loaded, or new from
    its seed; ModelError if the one there is damaged."""
    return LiveModel(
        rules,
        folder,
        seed=_seed_folder(game) if not folder.exists() else None,
        save_every=settings.LIVE_MODEL_SAVE_EVERY,
        max_nodes=settings.LIVE_MODEL_MAX_NODES,
    )


def _seed_folder(game: str) -> Path | None:
    """Return the folder of the model a new live model of ``game`` starts
    from: the first of SEEDS there is, unpacked if it is shipped packed."""
    for name in SEEDS:
        folder = model_path(game, name, settings.MODEL_DIR)
        if (folder / "manifest.json").exists():
            return folder
        if packed_path(folder).exists():
            return unpack_model(packed_path(folder))
    return None


def _folder(game: str) -> Path:
    """Return the folder of the live model of ``game``."""
    return model_path(game, settings.LIVE_MODEL, settings.MODEL_DIR)


#: This process's live-model growth.
GROWTH = Growth()

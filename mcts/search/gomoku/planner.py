"""The Gomoku alpha-beta (:mod:`.gomoku_alphabeta`) as the planner of an
MCTS root: :class:`AlphaBetaPlanner` finds the move a
:class:`~mcts.search.searcher.Searcher` plays in a share of its time.

Its search runs in a thread of its own (the kernels release the GIL), so
that the searcher's caller still hears from it every so often (the web app
polls its stop button there), and :meth:`AlphaBetaPlanner.stop` ends it from
any thread. A process lends a search (:func:`borrowed_search`) to each
search running at once: its transposition table is 33 MB, too much to keep
one for each game a server holds. A planner gets back the search it had
last when that one is free; a search lent to another player forgets its
table first: two players sharing one each gained what the other searched
(level 5 scored 37.5% against level 4 so, 75.0% with a table each;
docs/experiments).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from ...games import gomoku
from .alphabeta import (
    clear_stop,
    forget,
    new_search,
    stop,
    think,
    use_weights,
)
from .weights import HAND_WEIGHTS, ShapeWeights

#: Searches a process makes for one board before it lends one that another
#: owner had: two, one for each player of an arena's game.
KEPT_SEARCHES = 2

# Free searches by (size, row, rule), each with the owner it was last lent
# to, and how many were made.
_FREE: dict[tuple[int, int, int], list[tuple[tuple, object]]] = {}
_MADE: dict[tuple[int, int, int], int] = {}
_FREE_LOCK = threading.Lock()


@contextmanager
def borrowed_search(
    size: int, row: int, owner: object = None, rule: int = gomoku.FREESTYLE
) -> Iterator[tuple]:
    """Lend a search (:func:`~.gomoku_alphabeta.new_search`) of ``rule`` for
    the duration of the block: the one ``owner`` had last if it is free, else
    a new one while fewer than :data:`KEPT_SEARCHES` were made (or none is
    free), else another owner's, which first forgets what it found
    (:func:`~.gomoku_alphabeta.forget`): two players do not share their
    tables. ``owner`` None borrows a search that forgets."""
    board = (size, row, rule)
    with _FREE_LOCK:
        free = _FREE.setdefault(board, [])
        mine = [
            i for i, (_, last) in enumerate(free) if owner is not None and last is owner
        ]
        search = last = None
        if mine:
            search, last = free.pop(mine[0])
        elif free and _MADE.get(board, 0) >= KEPT_SEARCHES:
            search, last = free.pop(0)
        else:
            _MADE[board] = _MADE.get(board, 0) + 1
    if search is None:
        search = new_search(size, row, rule)
    elif last is not owner or owner is None:
        forget(search)
    try:
        yield search
    finally:
        with _FREE_LOCK:
            _FREE[board].append((search, owner))


class AlphaBetaPlanner:
    """Finds a Gomoku move with the alpha-beta, for one searcher."""

    def __init__(self, size: int, row: int, rule: int = gomoku.FREESTYLE) -> None:
        self.size = size
        self.row = row
        self.rule = rule
        # The search thinking now (for stop()), else None.
        self._running: tuple | None = None

    def stop(self) -> None:
        """Ask a :meth:`plan` running in another thread to return at once."""
        search = self._running
        if search is not None:
            stop(search)

    def plan(
        self,
        state: np.ndarray,
        seconds: float,
        tick: Callable[[], None],
        tick_every: float,
        stopped: Callable[[], bool],
        weights: ShapeWeights = HAND_WEIGHTS,
    ) -> int:
        """Return the alpha-beta's move in the Gomoku ``state`` (an array),
        found in about ``seconds`` by the evaluation ``weights`` (-1 when
        stopped before it searched a
        ply: its move would be a stand-in); call ``tick`` every ``tick_every``
        seconds meanwhile. ``stopped`` says whether a stop was asked before
        :meth:`stop` could reach this search. If ``tick`` raises, the search
        is stopped first; so it is when ``seconds`` have passed."""
        found: list[int] = []
        failed: list[BaseException] = []

        def think_on(search: tuple) -> None:
            try:
                move, _, depth, _ = think(search, state, seconds)
                found.append(move if depth > 0 else -1)
            except BaseException as error:  # raised again in plan's thread
                failed.append(error)

        with borrowed_search(self.size, self.row, owner=self, rule=self.rule) as search:
            clear_stop(search)
            use_weights(search, weights)
            self._running = search
            if stopped():
                stop(search)
            worker = threading.Thread(target=think_on, args=(search,), daemon=True)
            deadline = time.perf_counter() + seconds
            worker.start()
            try:
                while worker.is_alive():
                    left = deadline - time.perf_counter()
                    worker.join(min(tick_every, max(left, 0.001)))
                    if not worker.is_alive():
                        break
                    if time.perf_counter() >= deadline:
                        # think plans its iterations by its nodes' rate,
                        # which can fall within one: the clock ends it.
                        stop(search)
                    else:
                        tick()
            finally:
                if worker.is_alive():  # tick raised: stop before lending it
                    stop(search)
                    worker.join()
                self._running = None
        if failed:
            raise failed[0]
        return found[0]

"""This process's AI searches by game: the one under way for each game, the
AI players kept between requests, the moves played for late requests, and
the searches a change of the game made useless (:meth:`SearchRegistry.abandon`).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils.translation import gettext as _

from mcts import MctsPlayer

from ..errors import Conflict

log = logging.getLogger(__name__)

#: Requests that may wait for one AI move under way (a player's few pages);
#: more are refused with 409, so that nobody holds a server's threads by
#: asking again and again.
FOLLOWERS = 4
#: The longest a request waits for the AI move it follows, in seconds.
FOLLOW_TIMEOUT = 600.0
#: Games whose last AI move this process remembers (a late request for it
#: gets its answer); the least recently played forgotten first.
MOVES_KEPT = 256


@dataclasses.dataclass
class _Move:
    """An AI move in a game: the version it plays at, how many requests
    wait for it, and its answer once written (None while under way, and if
    it failed)."""

    version: int
    followers: int = 0
    answer: dict | None = None
    done: threading.Event = dataclasses.field(default_factory=threading.Event)

    def wait(self) -> dict:
        """Return the move's answer once written, else raise Conflict (it
        failed: the game changed under it, or the search could not run)."""
        if self.done.wait(FOLLOW_TIMEOUT) and self.answer is not None:
            return self.answer
        raise _already_thinking()


def _already_thinking() -> Conflict:
    """The 409 of a request that meets a search it cannot use."""
    return Conflict(
        "conflict", _("the AI is already thinking in this game; wait for its move")
    )


class SearchRegistry:
    """This process's AI searches by game id, behind one lock.

    - A game has at most one search under way (:meth:`slot`): a second one
      would race the first to write its move, so it is refused (409).
    - The AI player searching for a game is known (:meth:`running`), so that
      :meth:`stop` can end it early; a stop asked before the search starts
      is remembered and honoured once it does (:meth:`stop_asked`).
    - AI players are kept between requests (:meth:`keep`, :meth:`take`), the
      least recently used dropped first, so that a hint's tree serves the
      following AI move and the AI keeps its tree from move to move.
    - An AI move is known by the version it plays at (:meth:`moving`): a
      request for the move at that version waits for it and gets its answer,
      rather than a 409 (two pages of one game ask at once), up to
      :data:`FOLLOWERS` such requests at a time. Once played, a late request
      for it gets its answer as long as nothing else happened in the game
      (:meth:`answered`).
    - A change of the game other than a search (an undo, new players) stops
      the search under way from an earlier version (:meth:`abandon`): its
      move could no longer be written, and the next search would wait.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: game -> the version its search under way started from
        self._busy: dict[object, int] = {}
        #: game -> the version the last change other than a search made
        #: (an undo, new players), for the MOVES_KEPT games changed last
        self._changed: OrderedDict[object, int] = OrderedDict()
        self._moves: dict[object, _Move] = {}
        self._played: OrderedDict[object, _Move] = OrderedDict()
        self._running: dict[object, MctsPlayer] = {}
        self._stop_asked: set[object] = set()
        self._kept: OrderedDict[object, tuple[MctsPlayer, tuple[str, ...]]] = (
            OrderedDict()
        )

    @contextmanager
    def slot(self, game_id: object, version: int) -> Iterator[None]:
        """Hold the game's search slot for a search from ``version``;
        Conflict if a search for the same game is already under way (its
        result would race this one). A search from a version an undo or a
        change of players has already replaced is stopped at its start."""
        with self._lock:
            if game_id in self._busy:
                raise _already_thinking()
            self._busy[game_id] = version
            if self._changed.get(game_id, version) > version:
                self._stop_asked.add(game_id)
        try:
            yield
        finally:
            with self._lock:
                self._busy.pop(game_id, None)
                self._running.pop(game_id, None)
                self._stop_asked.discard(game_id)

    @contextmanager
    def running(self, game_id: object, player: MctsPlayer) -> Iterator[None]:
        """Make ``player`` the one :meth:`stop` reaches for the game."""
        with self._lock:
            self._running[game_id] = player
        try:
            yield
        finally:
            with self._lock:
                self._running.pop(game_id, None)

    def abandon(self, game_id: object, version: int) -> bool:
        """Note that a change other than a search (an undo, new players)
        brought the game to ``version``, and stop the search under way from an
        earlier version: its move could no longer be written, and the next
        search would wait for it. Return True if one was stopped."""
        with self._lock:
            self._changed[game_id] = version
            self._changed.move_to_end(game_id)
            while len(self._changed) > MOVES_KEPT:
                self._changed.popitem(last=False)
            stale = self._busy.get(game_id, version) < version
            player = self._ask_stop(game_id) if stale else None
        if player is not None:
            player.stop()
        return stale

    def stop_asked(self, game_id: object) -> bool:
        """Return True if a stop was asked for the game's search."""
        with self._lock:
            return game_id in self._stop_asked

    def stop(self, game_id: object) -> bool:
        """Ask the game's search to end now; return True if one was under way
        (running, or about to start: it then stops at its first chunk)."""
        with self._lock:
            busy = game_id in self._busy
            player = self._ask_stop(game_id) if busy else None
        if player is not None:
            player.stop()
        return busy

    def _ask_stop(self, game_id: object) -> MctsPlayer | None:
        """Remember a stop for the game's search (the lock held); return its
        player if it runs already, for the caller to stop out of the lock."""
        self._stop_asked.add(game_id)
        return self._running.get(game_id)

    @contextmanager
    def moving(
        self, game_id: object, version: int, *, follow: bool
    ) -> Iterator[tuple[_Move, bool]]:
        """Yield ``(move, following)``. Following (when ``follow`` allows and
        an AI move at ``version`` is under way), ``move`` is that one: wait
        for its answer. Otherwise the caller makes the move, and sets
        ``move.answer`` once it is written; a request at the same version
        meanwhile follows it (unless another at that version was first)."""
        with self._lock:
            current = self._moves.get(game_id)
            if (
                follow
                and current is not None
                and current.version == version
                and current.followers < FOLLOWERS
            ):
                current.followers += 1
                following = True
                move = current
            else:
                following = False
                move = _Move(version)
                # One at another version has been played (or will fail to
                # be): the requests that come after it follow this one.
                if current is None or current.version != version:
                    self._moves[game_id] = move
        try:
            yield move, following
        finally:
            if not following:
                with self._lock:
                    if self._moves.get(game_id) is move:
                        del self._moves[game_id]
                    if move.answer is not None:
                        self._played[game_id] = move
                        self._played.move_to_end(game_id)
                        while len(self._played) > MOVES_KEPT:
                            self._played.popitem(last=False)
                move.done.set()

    def under_way(self, game_id: object) -> bool:
        """Return whether an AI move of the game is under way here."""
        with self._lock:
            return game_id in self._moves

    def answered(self, game_id: object, version: int, now: int) -> dict | None:
        """Return the answer of the AI's last move, played at ``version``, if
        the game, now at version ``now``, has changed by nothing else since
        (the next AI move may be under way). A move at ``version`` that the
        game is already past is written but not yet answered: its answer is
        waited for (a second page's request came in between; it got 409)."""
        with self._lock:
            move = self._played.get(game_id)
            writing = self._moves.get(game_id)
        if writing is not None and writing.version == version < now:
            writing.done.wait(FOLLOW_TIMEOUT)
            move = writing
        if move is None or move.version != version or move.answer is None:
            return None
        return move.answer if move.answer["game"]["version"] == now else None

    def take(self, game_id: object) -> tuple[MctsPlayer, tuple[str, ...]] | None:
        """Return and forget the AI player kept for the game, with the moves
        it had seen; None if none is kept."""
        with self._lock:
            return self._kept.pop(game_id, None)

    def keep(
        self, game_id: object, player: MctsPlayer, moves: tuple[str, ...], limit: int
    ) -> None:
        """Keep ``player`` (at the position after ``moves``) for the game's
        next search, keeping at most ``limit`` players."""
        with self._lock:
            self._kept[game_id] = (player, moves)
            while len(self._kept) > limit:
                self._kept.popitem(last=False)


#: The process's searches.
SEARCHES = SearchRegistry()


def abandon_search(game_id: object, version: int) -> None:
    """Stop the game's search under way that a change other than a search
    (an undo, new players, sharing the game) made useless at ``version``:
    in this process (:meth:`SearchRegistry.abandon`), or with
    ``AI_BACKEND=celery`` on whichever worker runs it (one started since the
    change is not told: a new search forgets a stop asked before it). The
    change is made: a Redis that does not answer is logged, not an error."""
    if settings.AI_BACKEND != "celery":
        SEARCHES.abandon(game_id, version)
        return
    import redis

    from .. import backends  # the Celery/Redis side, only when configured

    try:
        backends.stop(game_id)
    except redis.RedisError as error:
        log.warning("the search of game %s was not stopped: %s", game_id, error)

"""From a stored game to its position, and the position as the API shows it.

A game row stores only the game's name, options and move list; the position
is found by replaying the moves. :data:`POSITIONS` keeps recent positions so
that a request rarely replays more than one move.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from mcts import Game, Gomoku, State

from ..models import Game as GameRow
from . import openings, spacing
from .clocks import now_ms
from .clocks import view as clock_view
from .rules import cached_rules, options_key
from .seats import seats_view

PASS = "pass"

#: A position's cache key: game name, options JSON, the moves played.
PositionKey = tuple[str, str, tuple[str, ...]]


class PositionCache:
    """The most recently used positions, shared by the web threads.

    States are immutable, so a cached state may be handed to any thread;
    the lock only guards the cache's own bookkeeping.
    """

    def __init__(self, kept: int) -> None:
        self._kept = kept
        self._states: OrderedDict[PositionKey, State] = OrderedDict()
        self._lock = threading.Lock()

    def nearest(self, key: PositionKey) -> tuple[State | None, int]:
        """Return the cached state of ``key``, or else of ``key`` less its last
        move, with the number of moves it has played; ``(None, 0)`` if neither
        is cached."""
        name, options_json, moves = key
        with self._lock:
            for probe in (key, (name, options_json, moves[:-1])):
                if probe in self._states:
                    self._states.move_to_end(probe)
                    return self._states[probe], len(probe[2])
        return None, 0

    def put(self, key: PositionKey, state: State) -> None:
        """Keep ``state`` as the position of ``key``, dropping the least
        recently used beyond the limit."""
        with self._lock:
            self._states[key] = state
            while len(self._states) > self._kept:
                self._states.popitem(last=False)


#: The process's position cache.
POSITIONS = PositionCache(kept=1024)


def replay(name: str, options_json: str, moves: tuple[str, ...]) -> State:
    """Return the state after ``moves`` (each a canonical move text).

    A request after one more move replays one move, an undo finds the earlier
    position still cached, and only a cold game is replayed from the start.
    """
    key = (name, options_json, moves)
    state, done = POSITIONS.nearest(key)
    game = cached_rules(name, options_json)
    if state is None:
        state = game.initial_state()
    for text in moves[done:]:
        state = game.play(state, text)
    POSITIONS.put(key, state)
    return state


def position(row: GameRow) -> tuple[Game, State]:
    """Return (rules, state) of a stored game."""
    key = options_key(row.options)
    return cached_rules(row.game, key), replay(row.game, key, tuple(row.moves))


def forbidden_points(
    game: Game, state: State, *, finished: bool = False
) -> dict | None:
    """Return black's forbidden points in ``state`` as ``{square: why}``
    (empty while white is to move), or None when the game is not Gomoku
    under renju. A finished game (resigned, on time, agreed) forbids nothing."""
    if not (isinstance(game, Gomoku) and game.rule == "renju"):
        return None
    points = {} if finished else game.forbidden_points(state)
    return {game.format_move(state, move): why for move, why in points.items()}


def snapshot(row: GameRow) -> dict:
    """Return the JSON-ready view of a stored game, as the API shows it."""
    game, state = position(row)
    finished = row.status == GameRow.Status.FINISHED
    opening = openings.under_way(row)
    no_moves = finished or (opening is not None and opening.choosing)
    legal = [] if no_moves else game.legal_move_texts(state)
    at = now_ms()
    by_from: dict[str, list[str]] | None = None
    if row.game == "loa":
        by_from = {}
        for text in legal:
            if text != PASS:
                by_from.setdefault(text[:2], []).append(text)
    forbidden = forbidden_points(game, state, finished=finished)
    overline = None
    if isinstance(game, Gomoku) and game.rule == "standard" and row.moves:
        last = game.parse_move_text(state, row.moves[-1])
        overline = row.moves[-1] if game.overline_through(state, last) else None
    # During an opening rule, the side that acts (see .openings).
    to_move = None if finished else openings.acting_side(row, game, state)
    return {
        "id": str(row.id),
        "game": row.game,
        "title": game.title,
        "options": game.options,
        "players": row.players,
        "board": board(game, game.state_string(state)),
        "state": game.state_string(state),
        "to_move": to_move,
        "legal_moves": legal,
        "legal_by_from": by_from,
        "forbidden": forbidden,
        "overline": overline,
        "moves": list(row.moves),
        "last_move": row.moves[-1] if row.moves else None,
        "ply": len(row.moves),
        "status": row.status,
        "result": row.result,
        "version": row.version,
        "seats": seats_view(row),
        "clock": clock_view(row.clock, to_move, at, row.deadline),
        "offers": row.offers,
        "waits": spacing.waits(row, at),
        "rematch": str(row.rematch) if row.rematch else None,
        "opening": openings.view(row),
        "created": row.created.isoformat(),
        "updated": row.updated.isoformat(),
    }


def board(game: Game, state_string: str) -> dict:
    """Return the board as rows of cells (``"black"``, ``"white"`` or None) from
    the top of the picture down, with the file letters and the rank labels of
    those rows, so that a cell's square name is ``files[c] + ranks[r]``."""
    cells = state_string.split()[0].split(":")[-1]
    size = int(len(cells) ** 0.5)
    colour = {"x": "black", "o": "white"}
    rows = [
        [colour.get(ch) for ch in cells[r * size : (r + 1) * size]] for r in range(size)
    ]
    ranks = [str(r + 1) for r in range(size)]
    if not game.rank_one_on_top:
        rows.reverse()
        ranks.reverse()
    files = [chr(ord("a") + c) for c in range(size)]
    return {"size": size, "files": files, "ranks": ranks, "cells": rows}

"""The only module of the web app that talks to the mcts library.

Each view calls one function here. The functions take plain, already
shape-checked values (the serializers' output), check them against the rules
(unknown game, bad options, illegal move, whose turn ...), change the
database and return JSON-ready dicts. A refusal is a
:class:`~webgame.errors.ServiceError` and changes nothing.

Writes are optimistic: a function reads the game (version ``v``), does its
work (which for an AI move means seconds of search, without holding any lock)
and writes with one ``UPDATE ... WHERE id = %s AND version = v``; if another
request wrote first, nothing is written and the client gets 409.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from mcts import (
    GAMES,
    LEVELS,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    ModelError,
    Searcher,
    UnknownGameError,
    evaluation_for,
    find_game,
    load_shared,
    model_path,
    warm_tree,
)

from . import workers
from .errors import Conflict, GameNotFound, ServiceError
from .models import Game as GameRow

#: Display names; the library knows games by registry name only.
TITLES = {"reversi": "Reversi", "gomoku": "Gomoku", "loa": "Lines of Action"}

#: What each game's options accept, for the kinds endpoint and the page's form.
#: The library checks the values; this only describes them.
OPTION_SPECS = {
    "reversi": {},
    "gomoku": {
        "size": {"type": "integer", "min": 5, "max": 19},
        "row": {"type": "integer", "min": 3, "max": "size"},
    },
    "loa": {
        "double_connection": {"type": "choice", "choices": ["draw", "mover_wins"]},
        "no_move": {"type": "choice", "choices": ["pass", "lose"]},
        "repetition": {"type": "choice", "choices": [3, 2]},
    },
}

#: Where rank 1 is drawn: Othello notation counts rows downward from the top,
#: renju and chess notation upward from the bottom.
RANK_ONE_ON_TOP = {"reversi": True, "gomoku": False, "loa": False}

#: The default AI setting when a client gives neither level nor think time.
DEFAULT_THINK_TIME = 1.0

#: Longest record accepted by import (a Gomoku 19x19 game has at most 361).
MAX_RECORD_PLIES = 2000

_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

PASS = "pass"


# ---- the games --------------------------------------------------------------------
@lru_cache(maxsize=64)
def _rules(name: str, options_json: str):
    """Return the library's Game for ``name`` with the options in ``options_json``
    (cached: Game objects hold no position, so they are shared)."""
    return find_game(name, **json.loads(options_json))


def _options_key(options: dict) -> str:
    return json.dumps(options, sort_keys=True)


def rules_for(name: str, options: dict | None = None):
    """Return the library's Game for ``name`` and ``options``.

    Raises ServiceError ``unknown_game`` or ``invalid_options``.
    """
    if not isinstance(options, dict | None):
        raise ServiceError("invalid_options", "options must be a JSON object")
    try:
        return _rules(name, _options_key(options or {}))
    except UnknownGameError as exc:
        raise ServiceError("unknown_game", str(exc)) from None
    except InvalidOptionsError as exc:
        raise ServiceError("invalid_options", str(exc)) from None
    except TypeError as exc:  # an option named like a parameter, e.g. "name"
        raise ServiceError("invalid_options", f"bad options: {exc}") from None


_states: OrderedDict = OrderedDict()
_states_lock = threading.Lock()
_STATES_KEPT = 1024


def _replay(name: str, options_json: str, moves: tuple[str, ...]):
    """Return the state after ``moves`` (each a canonical move text).

    Positions are cached (states are immutable, so threads can share them):
    a request after one more move replays one move, an undo finds the earlier
    position still cached, and only a cold game is replayed from the start.
    """
    key = (name, options_json, moves)
    with _states_lock:
        for probe in (key, (name, options_json, moves[:-1])):
            if probe in _states:
                _states.move_to_end(probe)
                state, done = _states[probe], len(probe[2])
                break
        else:
            state, done = None, 0
    game = _rules(name, options_json)
    if state is None:
        state = game.initial_state()
    for text in moves[done:]:
        state = game.play(state, text)
    with _states_lock:
        _states[key] = state
        while len(_states) > _STATES_KEPT:
            _states.popitem(last=False)
    return state


def _position(row: GameRow):
    """Return (rules, state) of a stored game."""
    key = _options_key(row.options)
    return _rules(row.game, key), _replay(row.game, key, tuple(row.moves))


# ---- models on disk ---------------------------------------------------------------
def list_models(game: str) -> list[dict]:
    """Return the tree models on disk for ``game``: name, nodes, bytes, built
    (how it was made, from its manifest), sorted by name."""
    folder = Path(settings.MODEL_DIR) / game
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        manifest_path = path / "manifest.json"
        if not (_MODEL_NAME.fullmatch(path.name) and manifest_path.is_file()):
            continue
        try:
            manifest = json.loads(manifest_path.read_text())
        except (OSError, ValueError):
            continue
        found.append(
            {
                "name": path.name,
                "nodes": manifest.get("nodes", manifest.get("node_count")),
                "bytes": sum(f.stat().st_size for f in path.iterdir() if f.is_file()),
                "built": manifest.get("built", manifest.get("build")),
            }
        )
    return found


def _check_model(game: str, name: str | None) -> str | None:
    """Return the model name (None for no model); ServiceError ``unknown_model``
    unless it is a model on disk: no paths from clients are ever opened."""
    if name is None or name == "none":
        return None
    names = [model["name"] for model in list_models(game)]
    if name not in names:
        known = ", ".join(names) or "none on disk yet"
        raise ServiceError(
            "unknown_model",
            f"unknown model {name!r} for {game}; models: {known} "
            "(or null / 'none' for no model)",
        )
    return name


# ---- players ----------------------------------------------------------------------
def _normal_player(game: str, side: str, spec: dict | None) -> dict:
    """Return a player's settings with defaults filled in, after checking them."""
    spec = dict(spec or {"kind": "human"})
    kind = spec.get("kind", "human")
    if kind == "human":
        return {"kind": "human"}
    if kind != "ai":
        raise ServiceError(
            "invalid_players", f"players.{side}.kind must be 'human' or 'ai'"
        )
    level, think_time = spec.get("level"), spec.get("think_time")
    if level is not None and think_time is not None:
        raise ServiceError(
            "invalid_players",
            f"players.{side}: give a level (1..{max(LEVELS)}) or a think_time "
            "in seconds, not both",
        )
    if level is None and think_time is None:
        think_time = DEFAULT_THINK_TIME
    return {
        "kind": "ai",
        "model": _check_model(game, spec.get("model")),
        "level": level,
        "think_time": think_time,
    }


def _normal_players(game: str, players: dict | None, base: dict | None = None) -> dict:
    """Return both sides' settings: ``players`` over ``base`` (for PATCH), each
    checked and completed."""
    merged = dict(base or {})
    merged.update(players or {})
    return {side: _normal_player(game, side, merged.get(side)) for side in COLORS}


COLORS = ("black", "white")


# ---- reading ----------------------------------------------------------------------
def list_kinds() -> list[dict]:
    """Return each game's name, title, default options, option ranges and the
    models on disk for it."""
    return [
        {
            "name": name,
            "title": TITLES.get(name, name),
            "options": find_game(name).options,
            "option_specs": OPTION_SPECS.get(name, {}),
            "levels": [
                {"level": n, "description": lv.description, "seconds": lv.seconds}
                for n, lv in sorted(LEVELS.items())
            ],
            "models": list_models(name),
        }
        for name in GAMES
    ]


def list_games() -> list[dict]:
    """Return each game's name and title, for the start page."""
    return [{"name": name, "title": TITLES.get(name, name)} for name in GAMES]


def _get_row(game_id) -> GameRow:
    try:
        return GameRow.objects.get(pk=game_id)
    except (GameRow.DoesNotExist, ValueError):
        raise GameNotFound(game_id) from None


def get_game(game_id) -> dict:
    """Return the game's snapshot (board, legal moves, moves, result ...)."""
    return snapshot(_get_row(game_id))


def snapshot(row: GameRow) -> dict:
    """Return the JSON-ready view of a stored game, as the API shows it."""
    game, state = _position(row)
    finished = row.status == GameRow.Status.FINISHED
    legal = [] if finished else game.legal_move_texts(state)
    by_from = None
    if row.game == "loa":
        by_from = {}
        for text in legal:
            if text != PASS:
                by_from.setdefault(text[:2], []).append(text)
    return {
        "id": str(row.id),
        "game": row.game,
        "title": TITLES.get(row.game, row.game),
        "options": game.options,
        "players": row.players,
        "board": _board(row.game, game.state_string(state)),
        "state": game.state_string(state),
        "to_move": None if finished else game.to_move(state),
        "legal_moves": legal,
        "legal_by_from": by_from,
        "moves": list(row.moves),
        "last_move": row.moves[-1] if row.moves else None,
        "ply": len(row.moves),
        "status": row.status,
        "result": row.result,
        "version": row.version,
        "created": row.created.isoformat(),
        "updated": row.updated.isoformat(),
    }


def _board(name: str, state_string: str) -> dict:
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
    if not RANK_ONE_ON_TOP[name]:
        rows.reverse()
        ranks.reverse()
    files = [chr(ord("a") + c) for c in range(size)]
    return {"size": size, "files": files, "ranks": ranks, "cells": rows}


# ---- writing ----------------------------------------------------------------------
def _result_of(game, state) -> tuple[str, dict | None]:
    outcome = game.outcome(state)
    if outcome is None:
        return GameRow.Status.PLAYING, None
    return GameRow.Status.FINISHED, outcome.to_json()


def _write(row: GameRow, *, moves: list[str] | None = None, players=None) -> GameRow:
    """Store new moves and/or players if nobody wrote since ``row`` was read;
    return the updated row, or raise Conflict."""
    fields = {}
    if moves is not None:
        game = _rules(row.game, _options_key(row.options))
        state = _replay(row.game, _options_key(row.options), tuple(moves))
        status, result = _result_of(game, state)
        fields.update(moves=moves, status=status, result=result)
    if players is not None:
        fields["players"] = players
    now = timezone.now()
    written = GameRow.objects.filter(pk=row.pk, version=row.version).update(
        version=row.version + 1, updated=now, **fields
    )
    if not written:
        raise Conflict(
            "conflict",
            "the game changed while this request was handled (another move, "
            "undo or settings change won the race); reload it and try again",
        )
    for name, value in fields.items():
        setattr(row, name, value)
    row.version += 1
    row.updated = now
    return row


def _check_version(row: GameRow, version: int | None) -> None:
    """Raise Conflict if the client saw another version of the game than stored."""
    if version is not None and version != row.version:
        raise Conflict(
            "conflict",
            f"the game is at version {row.version}, not {version}: it changed "
            "since you loaded it; reload it and try again",
        )


def create_game(*, game: str, options: dict | None, players: dict | None) -> dict:
    """Return the snapshot of a new game of ``game`` with ``options`` and
    ``players`` (both human unless given)."""
    rules = rules_for(game, options)
    row = GameRow.objects.create(
        game=rules.name,
        options=rules.options,
        players=_normal_players(rules.name, players),
        moves=[],
    )
    return snapshot(row)


def _playable(row: GameRow):
    """Return (rules, state) of a game still being played; else ``game_over``."""
    game, state = _position(row)
    if row.status == GameRow.Status.FINISHED:
        raise ServiceError(
            "game_over",
            f"the game is over ({_describe_result(row.result)}); undo a move or "
            "start a new game",
        )
    return game, state


def _describe_result(result: dict | None) -> str:
    if not result:
        return "finished"
    who = f"{result['winner']} won" if result.get("winner") else "a draw"
    return f"{who}: {result.get('reason')}"


def play_move(game_id, *, move: str, version: int | None = None) -> dict:
    """Return the snapshot after the human move ``move`` in game ``game_id``.

    Refuses (ServiceError) a move after the end (``game_over``), when the
    side to move is an AI (``not_your_turn``), malformed (``invalid_move``)
    or illegal (``illegal_move``, listing the legal moves).
    """
    row = _get_row(game_id)
    _check_version(row, version)
    game, state = _playable(row)
    side = game.to_move(state)
    if row.players[side]["kind"] != "human":
        raise ServiceError(
            "not_your_turn",
            f"it is {side}'s turn and {side} is played by the AI: ask for "
            "POST ai-move/, or make the side human with PATCH",
        )
    text = _parse(game, state, move)
    return snapshot(_write(row, moves=[*row.moves, text]))


def _parse(game, state, move: str) -> str:
    """Return the canonical notation of the legal move ``move``."""
    try:
        code = game.parse_move(state, move)
    except InvalidMoveError as exc:
        raise ServiceError("invalid_move", str(exc)) from None
    except IllegalMoveError as exc:
        raise ServiceError("illegal_move", str(exc)) from None
    return game.format_move(state, code)


def undo(game_id, *, version: int | None = None) -> dict:
    """Return the snapshot after taking back the last move; when the side then
    to move is an AI and the other side is human, keep taking back until a
    human is to move (so undo against the AI returns to the human's turn)."""
    row = _get_row(game_id)
    _check_version(row, version)
    if not row.moves:
        raise ServiceError("nothing_to_undo", "no move has been played yet")
    moves = list(row.moves[:-1])
    kinds = {side: row.players[side]["kind"] for side in COLORS}
    if "human" in kinds.values() and "ai" in kinds.values():
        key = _options_key(row.options)
        game = _rules(row.game, key)
        while moves:
            state = _replay(row.game, key, tuple(moves))
            if kinds[game.to_move(state)] == "human":
                break
            moves.pop()
    return snapshot(_write(row, moves=moves))


def update_players(game_id, *, players: dict, version: int | None = None) -> dict:
    """Return the snapshot after replacing the settings of the sides named in
    ``players`` (the other side keeps its settings)."""
    row = _get_row(game_id)
    _check_version(row, version)
    merged = _normal_players(row.game, players, base=row.players)
    return snapshot(_write(row, players=merged))


# ---- records ----------------------------------------------------------------------
def game_record(game_id) -> dict:
    """Return the game's record: for Reversi an Othello transcript (``f5d6c3``,
    passes left out because they are forced), for the others the moves
    separated by spaces (``h8 h9``, ``b1-b3 a2xc4``)."""
    row = _get_row(game_id)
    if row.game == "reversi":
        record = "".join(move for move in row.moves if move != PASS)
    else:
        record = " ".join(row.moves)
    return {
        "game": row.game,
        "options": row.options,
        "record": record,
        "moves": list(row.moves),
        "result": row.result,
    }


_MOVE_NUMBER = re.compile(r"\d+\.+")


def _record_tokens(name: str, record: str) -> list[str]:
    """Return the move texts of a record: a Reversi transcript may run its
    squares together (``f5d6``); any record may separate moves by spaces or
    commas and number them (``1. h8 h9 2. j10``)."""
    words = [w for w in re.split(r"[\s,;]+", record.strip()) if w]
    words = [w for w in words if not _MOVE_NUMBER.fullmatch(w)]
    if name != "reversi":
        return words
    tokens = []
    for word in words:
        for token in re.findall(r"pass|[a-z][0-9]+|.+?", word, re.IGNORECASE):
            tokens.append(token)
    return tokens


def import_record(
    *, game: str, options: dict | None, record: str, players: dict | None
) -> dict:
    """Return the snapshot of a new game holding the moves of ``record``.

    Forced passes left out of the record are put back (an Othello transcript
    never writes them). Raises ServiceError ``invalid_record`` naming the ply
    and the move at fault.
    """
    rules = rules_for(game, options)
    tokens = _record_tokens(rules.name, record)
    if len(tokens) > MAX_RECORD_PLIES:
        raise ServiceError(
            "invalid_record", f"records are limited to {MAX_RECORD_PLIES} moves"
        )
    state = rules.initial_state()
    moves: list[str] = []
    for number, token in enumerate(tokens, start=1):
        if rules.is_terminal(state):
            raise ServiceError(
                "invalid_record",
                f"the game ended after {len(moves)} plies but the record goes on "
                f"with {token!r} (move {number})",
            )
        if token.lower() != PASS and rules.legal_moves(state) == [rules.PASS]:
            moves.append(PASS)
            state = rules.play(state, PASS)
        try:
            text = _parse(rules, state, token)
        except ServiceError as exc:
            raise ServiceError(
                "invalid_record", f"move {number} ({token!r}): {exc.detail}"
            ) from None
        moves.append(text)
        state = rules.play(state, text)
    status, result = _result_of(rules, state)
    row = GameRow.objects.create(
        game=rules.name,
        options=rules.options,
        players=_normal_players(rules.name, players),
        moves=moves,
        status=status,
        result=result,
    )
    return snapshot(row)


# ---- the AI -----------------------------------------------------------------------
_thinking: set = set()
_thinking_lock = threading.Lock()

#: Trees kept between requests (a hint's tree serves the following AI move),
#: by game id, least recently used dropped first.
_searchers: OrderedDict = OrderedDict()
_searchers_lock = threading.Lock()


@contextmanager
def _one_search_per_game(row: GameRow):
    """Hold the game's search slot in this process; Conflict if a search for
    the same game is already running (its result would race this one)."""
    with _thinking_lock:
        if row.pk in _thinking:
            raise Conflict(
                "conflict",
                "the AI is already thinking in this game; wait for its move",
            )
        _thinking.add(row.pk)
    try:
        yield
    finally:
        with _thinking_lock:
            _thinking.discard(row.pk)


def _searcher_for(row: GameRow, game, state) -> Searcher:
    """Return a Searcher at ``state``: the game's previous one advanced along
    the moves played since (keeping its tree), or a fresh one."""
    with _searchers_lock:
        entry = _searchers.pop(row.pk, None)
    moves = tuple(row.moves)
    if entry is not None:
        searcher, seen = entry
        if moves[: len(seen)] == seen and len(moves) - len(seen) <= 8:
            position = _replay(row.game, _options_key(row.options), seen)
            for text in moves[len(seen) :]:
                code = game.parse_move(position, text)
                searcher.advance(code)
                position = game.apply(position, code)
            searcher.set_state(state)  # a no-op unless the trees disagree
            return searcher
    return Searcher(game, state, max_nodes=settings.AI_MAX_NODES)


#: The searcher running for each game in this process, and the games whose
#: search was asked to stop, for stop_search.
_running: dict = {}
_stop_asked: set = set()
_running_lock = threading.Lock()


def stop_search(game_id) -> dict:
    """Ask the search running for the game to end now; the pending ai-move or
    hint request then answers with the best move found so far.

    Returns ``{"stopped": True}`` if a search was running or about to start in
    this process, ``{"stopped": False}`` if none was (it may have just ended).
    """
    row = _get_row(game_id)
    with _running_lock:
        searcher = _running.get(row.pk)
        with _thinking_lock:
            thinking = row.pk in _thinking
        if thinking:
            _stop_asked.add(row.pk)
    if searcher is not None:
        searcher.stop()
    return {"stopped": thinking}


def _use_model(searcher: Searcher, row: GameRow, game, model_name: str | None) -> None:
    """Give ``searcher`` the tree model's learned evaluation and its
    statistics for the current position, when the model knows the position
    better than the searcher's own tree does; no model: neither.

    The model is loaded once per process and shared read-only (``warm_tree``
    copies the subtree). A model that fails to load is a ServiceError naming
    the file and line, never a trace.
    """
    if not model_name:
        searcher.evaluation = None
        return
    try:
        model = load_shared(model_path(row.game, model_name, settings.MODEL_DIR))
    except ModelError as error:
        raise ServiceError(
            "model_unavailable", f"model {model_name!r} cannot be used: {error}"
        ) from None
    searcher.evaluation = evaluation_for(model, game)
    warm = warm_tree(model, game, searcher.state)
    if warm is not None and warm.visits[0] > searcher.tree.visits[0]:
        searcher.tree = warm


def _keep_searcher(row: GameRow, searcher: Searcher) -> None:
    with _searchers_lock:
        _searchers[row.pk] = (searcher, tuple(row.moves))
        while len(_searchers) > settings.AI_TREE_CACHE:
            _searchers.popitem(last=False)


def _budget(ai: dict) -> dict:
    """Return the search keywords for an AI setting: its think time, or the
    budget and temperature of its level."""
    if ai.get("think_time") is not None:
        return {"seconds": float(ai["think_time"])}
    level = LEVELS[int(ai["level"])]
    return {
        "seconds": level.seconds,
        "simulations": level.simulations,
        "temperature": level.temperature,
    }


def _expected_seconds(budget: dict) -> float:
    return float(budget.get("seconds") or 1.0)


def _search(row: GameRow, game, state, ai: dict, *, best: bool = False) -> dict:
    """Return the JSON of a search from ``state`` with the AI setting ``ai``,
    run on the bounded worker pool; ``best`` picks the best move even when the
    level would sample one (a hint should not mislead)."""
    budget = _budget(ai)
    if best:
        budget["temperature"] = 0.0

    def task():
        searcher = _searcher_for(row, game, state)
        _use_model(searcher, row, game, ai.get("model"))
        with _running_lock:
            _running[row.pk] = searcher

        def stop_if_asked(_progress) -> None:
            # A Stop that came before the search began (the searcher clears
            # its own flag when it starts) is honoured at the first chunk.
            if row.pk in _stop_asked:
                searcher.stop()

        try:
            return searcher.search(
                **budget, on_progress=stop_if_asked, progress_every=0.05
            ).to_json()
        finally:
            with _running_lock:
                _running.pop(row.pk, None)
                _stop_asked.discard(row.pk)
            _keep_searcher(row, searcher)

    with _one_search_per_game(row):
        return workers.run(task, expected_seconds=_expected_seconds(budget))


def ai_move(game_id, *, version: int | None = None) -> dict:
    """Return ``{"game": snapshot, "search": result}`` after the AI of the side
    to move played its choice.

    Refuses when the game is over (``game_over``) or the side to move is human
    (``not_ai_turn``); 409 if the game changed during the search; 503 when
    every AI slot is taken.
    """
    row = _get_row(game_id)
    _check_version(row, version)
    game, state = _playable(row)
    side = game.to_move(state)
    ai = row.players[side]
    if ai["kind"] != "ai":
        raise ServiceError(
            "not_ai_turn",
            f"it is {side}'s turn and {side} is human: play with POST moves/, "
            "ask for a hint, or make the side an AI with PATCH",
        )
    result = _search(row, game, state, ai)
    row = _write(row, moves=[*row.moves, result["move"]])
    return {"game": snapshot(row), "search": result}


def hint(
    game_id,
    *,
    think_time: float | None = None,
    level: int | None = None,
    version: int | None = None,
) -> dict:
    """Return ``{"game": snapshot, "search": result}``: the search the AI would
    make for the side to move, without playing it. The budget is the one given,
    else the side's own AI setting, else the default think time."""
    row = _get_row(game_id)
    _check_version(row, version)
    game, state = _playable(row)
    side = game.to_move(state)
    if think_time is not None or level is not None:
        ai = {"think_time": think_time, "level": level}
    elif row.players[side]["kind"] == "ai":
        ai = row.players[side]
    else:
        ai = {"think_time": DEFAULT_THINK_TIME}
    result = _search(row, game, state, ai, best=True)
    return {"game": snapshot(row), "search": result}

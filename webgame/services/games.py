"""A game's life in the database: create it, read it, play a human move,
take moves back, change who plays.

Writes are optimistic: a function reads the game (version ``v``), does its
work and writes with one ``UPDATE ... WHERE id = %s AND version = v``; if
another request wrote first, nothing is written and the client gets 409.
"""

from __future__ import annotations

from uuid import UUID

from django.utils import timezone

from mcts import Game, IllegalMoveError, InvalidMoveError, State

from ..errors import Conflict, GameNotFound, ServiceError
from ..models import Game as GameRow
from . import livegrowth
from .players import COLORS, normal_players
from .positions import position, replay, snapshot
from .rules import cached_rules, options_key, rules_for

#: A game's id as the views pass it: the URL's UUID (or its text).
GameId = UUID | str


# ---- reading ----------------------------------------------------------------------
def get_row(game_id: GameId) -> GameRow:
    """Return the stored game with id ``game_id``, or raise GameNotFound."""
    try:
        return GameRow.objects.get(pk=game_id)
    except (GameRow.DoesNotExist, ValueError):
        raise GameNotFound(game_id) from None


def get_game(game_id: GameId) -> dict:
    """Return the game's snapshot (board, legal moves, moves, result ...)."""
    return snapshot(get_row(game_id))


def check_version(row: GameRow, version: int | None) -> None:
    """Raise Conflict if the client saw another version of the game than stored."""
    if version is not None and version != row.version:
        raise Conflict(
            "conflict",
            f"the game is at version {row.version}, not {version}: it changed "
            "since you loaded it; reload it and try again",
        )


def playable(row: GameRow) -> tuple[Game, State]:
    """Return (rules, state) of a game still being played; else ``game_over``."""
    game, state = position(row)
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


def parse(game: Game, state: State, move: str) -> str:
    """Return the canonical notation of the legal move ``move``; ServiceError
    ``invalid_move`` or ``illegal_move`` (naming the legal moves) otherwise."""
    try:
        code = game.parse_move(state, move)
    except InvalidMoveError as exc:
        raise ServiceError("invalid_move", str(exc)) from None
    except IllegalMoveError as exc:
        raise ServiceError("illegal_move", str(exc)) from None
    return game.format_move(state, code)


def result_of(game: Game, state: State) -> tuple[str, dict | None]:
    """Return the row's (status, result) for ``state``."""
    outcome = game.outcome(state)
    if outcome is None:
        return GameRow.Status.PLAYING, None
    return GameRow.Status.FINISHED, outcome.to_json()


# ---- writing ----------------------------------------------------------------------
def write(
    row: GameRow, *, moves: list[str] | None = None, players: dict | None = None
) -> GameRow:
    """Store new moves and/or players if nobody wrote since ``row`` was read;
    return the updated row, or raise Conflict."""
    fields: dict[str, object] = {}
    if moves is not None:
        key = options_key(row.options)
        state = replay(row.game, key, tuple(moves))
        status, result = result_of(cached_rules(row.game, key), state)
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
    ended = row.status != GameRow.Status.FINISHED == fields.get("status")
    for name, value in fields.items():
        setattr(row, name, value)
    row.version += 1
    row.updated = now
    if ended:
        livegrowth.game_finished(row)
    return row


def create_game(*, game: str, options: dict | None, players: dict | None) -> dict:
    """Return the snapshot of a new game of ``game`` with ``options`` and
    ``players`` (both human unless given)."""
    rules = rules_for(game, options)
    row = GameRow.objects.create(
        game=rules.name,
        options=rules.options,
        players=normal_players(rules.name, players),
        moves=[],
    )
    return snapshot(row)


def play_move(game_id: GameId, *, move: str, version: int | None = None) -> dict:
    """Return the snapshot after the human move ``move`` in game ``game_id``.

    Refuses (ServiceError) a move after the end (``game_over``), when the
    side to move is an AI (``not_your_turn``), malformed (``invalid_move``)
    or illegal (``illegal_move``, listing the legal moves).
    """
    row = get_row(game_id)
    check_version(row, version)
    game, state = playable(row)
    side = game.to_move(state)
    if row.players[side]["kind"] != "human":
        raise ServiceError(
            "not_your_turn",
            f"it is {side}'s turn and {side} is played by the AI: ask for "
            "POST ai-move/, or make the side human with PATCH",
        )
    text = parse(game, state, move)
    return snapshot(write(row, moves=[*row.moves, text]))


def undo(game_id: GameId, *, version: int | None = None) -> dict:
    """Return the snapshot after taking back the last move; when the side then
    to move is an AI and the other side is human, keep taking back until a
    human is to move (so undo against the AI returns to the human's turn)."""
    row = get_row(game_id)
    check_version(row, version)
    if not row.moves:
        raise ServiceError("nothing_to_undo", "no move has been played yet")
    moves = list(row.moves[:-1])
    kinds = {side: row.players[side]["kind"] for side in COLORS}
    if "human" in kinds.values() and "ai" in kinds.values():
        key = options_key(row.options)
        game = cached_rules(row.game, key)
        while moves:
            state = replay(row.game, key, tuple(moves))
            if kinds[game.to_move(state)] == "human":
                break
            moves.pop()
    return snapshot(write(row, moves=moves))


def update_players(
    game_id: GameId, *, players: dict, version: int | None = None
) -> dict:
    """Return the snapshot after replacing the settings of the sides named in
    ``players`` (the other side keeps its settings)."""
    row = get_row(game_id)
    check_version(row, version)
    merged = normal_players(row.game, players, base=row.players)
    return snapshot(write(row, players=merged))

"""Game records: export a game as text, and start a game from a record; and
the board after each move, for stepping through a game one did not see
played (an imported one, a link opened in another browser).

Reversi records are Othello transcripts (``f5d6c3``, forced passes left
out); the other games' records are moves separated by spaces (``h8 h9``,
``b1-b3 a2xc4``).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

from mcts import Game, State

from ..errors import ServiceError
from ..models import Game as GameRow
from .games import GameId, get_row, result_of
from .notation import parse
from .players import normal_players
from .positions import PASS, board, snapshot
from .rules import cached_rules, options_key, rules_for

#: Longest record accepted by import (a Gomoku 19x19 game has at most 361).
MAX_RECORD_PLIES = 2000

_MOVE_NUMBER = re.compile(r"\d+\.+")


def game_boards(game_id: GameId) -> dict:
    """Return the game's id, version and the board after each ply from the
    start (``boards[0]`` is the first position): rows of ``x`` (black),
    ``o`` (white) and ``.`` (empty) joined by ``/``, top row first, as the
    snapshot's ``board.cells``."""
    row = get_row(game_id)
    game = cached_rules(row.game, options_key(row.options))
    state = game.initial_state()
    boards = [_board_text(game, state)]
    for text in row.moves:
        state = game.play(state, text)
        boards.append(_board_text(game, state))
    return {"id": str(row.id), "version": row.version, "boards": boards}


def _board_text(game: Game, state: State) -> str:
    mark = {"black": "x", "white": "o", None: "."}
    cells = board(game, game.state_string(state))["cells"]
    return "/".join("".join(mark[cell] for cell in row) for row in cells)


def game_record(game_id: GameId) -> dict:
    """Return the game's record: for Reversi an Othello transcript (``f5d6c3``,
    passes left out because they are forced), for the others the moves
    separated by spaces (``h8 h9``, ``b1-b3 a2xc4``)."""
    row = get_row(game_id)
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
            "invalid_record",
            _("records are limited to %(max)s moves") % {"max": MAX_RECORD_PLIES},
        )
    state = rules.initial_state()
    moves: list[str] = []
    for number, token in enumerate(tokens, start=1):
        if rules.is_terminal(state):
            raise ServiceError(
                "invalid_record",
                _(
                    "the game ended after %(plies)s plies but the record goes on "
                    "with %(move)s (move %(number)s)"
                )
                % {"plies": len(moves), "move": repr(token), "number": number},
            )
        if token.lower() != PASS and rules.legal_moves(state) == [rules.PASS]:
            moves.append(PASS)
            state = rules.play(state, PASS)
        try:
            text = parse(rules, state, token)
        except ServiceError as exc:
            raise ServiceError(
                "invalid_record",
                _("move %(number)s (%(move)s): %(error)s")
                % {"number": number, "move": repr(token), "error": exc.detail},
            ) from None
        moves.append(text)
        state = rules.play(state, text)
    status, result = result_of(rules, state)
    row = GameRow.objects.create(
        game=rules.name,
        options=rules.options,
        players=normal_players(rules.name, players, options=rules.options),
        moves=moves,
        status=status,
        result=result,
    )
    return snapshot(row)

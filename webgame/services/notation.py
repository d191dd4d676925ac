"""Reading a move the API was sent, and saying in the request's language why
it cannot be read or played (the library's own messages are English), and
what board it is on.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from mcts import Game, Gomoku, IllegalMoveError, InvalidMoveError, State

from ..errors import ServiceError

#: How many legal moves a refusal lists before "…".
LISTED = 24


def board_words(options: dict) -> str:
    """Return a Gomoku board as people name it: "8×8, 5 in a row"."""
    return _("%(size)s×%(size)s, %(row)s in a row") % options


def parse(game: Game, state: State, move: str) -> str:
    """Return the canonical notation of the legal move ``move``; ServiceError
    ``invalid_move`` (naming the form moves take) or ``illegal_move`` (naming
    the reason, or the legal moves) otherwise."""
    try:
        code = game.parse_move(state, move)
    except InvalidMoveError:
        raise ServiceError("invalid_move", _unreadable(game, state, move)) from None
    except IllegalMoveError:
        raise ServiceError("illegal_move", _unplayable(game, state, move)) from None
    return game.format_move(state, code)


def _unreadable(game: Game, state: State, move: str) -> str:
    words = {"move": repr(move), "game": _(game.title)}
    if game.name == "reversi":
        words["form"] = _("a square a1 to h8, or pass")
    elif game.name == "loa":
        words["form"] = _("from-to, such as b1-b3 (or b1xb3 for a capture)")
    else:
        size = int(game.options["size"])
        last = chr(ord("a") + size - 1)
        example = f"{chr(ord('a') + size // 2)}{size // 2 + 1}"
        words["form"] = _(
            "a column a to %(last)s and a row 1 to %(size)s, such as %(example)s"
        ) % {"last": last, "size": size, "example": example}
    return _("%(move)s is not a %(game)s move: expected %(form)s") % words


#: Renju's reasons (the library's words) in the page's.
FORBIDDEN = {
    "double three": lambda: _("it makes two threes at once"),
    "double four": lambda: _("it makes two fours at once"),
    "overline": lambda: _("it makes six or more in a row"),
}


def _unplayable(game: Game, state: State, move: str) -> str:
    legal = game.legal_move_texts(state)
    if not legal:
        return _("%(move)s is not legal: the game is over") % {"move": repr(move)}
    if _taken(game, state, move):
        # Gomoku QA: a point taken listed every empty point as the legal ones.
        if game.name == "reversi":
            return _("%(move)s is not legal: a disc is there already") % {
                "move": repr(move)
            }
        return _("%(move)s is not legal: a stone is there already") % {
            "move": repr(move)
        }
    if isinstance(game, Gomoku) and game.rule == "renju":
        why = game.forbidden_reason(state, game.parse_move_text(state, move.strip()))
        if why:
            words = FORBIDDEN[why]() if why in FORBIDDEN else why
            return _("%(move)s is a forbidden point for black under renju: %(why)s") % {
                "move": repr(move),
                "why": words,
            }
    listed = " ".join(legal[:LISTED]) + (" …" if len(legal) > LISTED else "")
    return _("%(move)s is not legal here; legal moves: %(legal)s") % {
        "move": repr(move),
        "legal": listed,
    }


def _taken(game: Game, state: State, move: str) -> bool:
    """Whether a stone or disc is on the square ``move`` names (a game whose
    moves are squares: Reversi, Gomoku)."""
    if game.name not in ("reversi", "gomoku"):
        return False
    code = game.parse_move_text(state, move.strip())
    if code == game.PASS:
        return False
    cells = game.state_string(state).split()[0].split(":")[-1]
    return cells[code] in "xo"

"""The opening explorer: a tree model's knowledge of a position, for a
player to browse.

A position is a game's first ``ply`` moves followed by the moves the player
stepped into (``line``); the answer lists the model's moves there with their
visits, win % and proven marks, most visited first, and the board to draw.
The model is the one the AI plays with (loaded once per process, read-only);
a position it never studied is answered with no moves, not an error.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from mcts import Proven, holding_proofs, warm_tree

from ..errors import Busy, ServiceError
from .games import GameId, position_for_help
from .notation import parse
from .positions import board
from .readiness import READINESS
from .treemodels import (
    PREPARATIONS,
    check_model,
    list_models,
    listed_model,
    prepare_model,
    ready_model,
)

#: The model the explorer reads unless another is named: the shipped one,
#: or under a rule it did not learn, that rule's own (``light-renju``).
DEFAULT_MODEL = "light"

#: The most moves listed for one position.
MAX_MOVES = 20
#: A model up to this many nodes loads within the request (a light model
#: loads in milliseconds); a larger or packed one is prepared in the
#: background, once, as ``prepare/`` does, and the request answered 503
#: until it is ready.
INLINE_NODES = 200_000
#: The seconds a client is told to wait for a model being prepared.
PREPARING_RETRY = 3


def explorable_model(game: str, name: str):
    """Return the loaded model ``name`` of ``game`` for the explorer: loaded
    now if it is small and unpacked, else its preparation started (once,
    however many ask) and Busy (503, Retry-After) until it is ready. So a
    storm of GETs naming a large model costs one background load, not a
    request thread each."""
    if not PREPARATIONS.is_ready(game, name):
        listed = listed_model(game, name)
        if listed["packed"] or (listed["nodes"] or 0) > INLINE_NODES:
            status = prepare_model(game, name)
            progress = status["progress"]
            how_far = f" {round(100 * progress)}%" if progress is not None else ""
            raise Busy(
                _(
                    "model %(name)s is being prepared (%(status)s%(progress)s); "
                    "ask again shortly, or follow GET %(url)s"
                )
                % {
                    "name": repr(name),
                    "status": status["status"],
                    "progress": how_far,
                    "url": f"/api/models/{game}/{name}/",
                },
                retry_after=PREPARING_RETRY,
            )
    return ready_model(game, name)


def model_names(game: str) -> set[str]:
    """The names of ``game``'s models on disk."""
    return {model["name"] for model in list_models(game)}


def default_model(game: str, options: dict) -> str:
    """The shipped light model of ``game`` under ``options``'s rule: ``light``,
    or the rule's own when ``light`` learned another and there is one (QA:
    Explore on a renju game read ``light``, which knows no renju position,
    and showed nothing)."""
    try:
        check_model(game, DEFAULT_MODEL, options)
    except ServiceError as error:
        own = f"{DEFAULT_MODEL}-{options.get('rule')}"
        if error.code == "model_other_rule" and own in model_names(game):
            return own
    return DEFAULT_MODEL


def explore(
    game_id: GameId, *, ply: int, line: list[str], model: str | None = None
) -> dict:
    """Return the model's moves in the position after the game's first
    ``ply`` moves and then ``line``: ``{model, ply, line, to_move, board,
    known, moves: [{move, visits, value, proven}]}``, where ``value`` is the
    win probability and ``proven`` the proven result of the side to move
    (only a proof that holds against every reply: a Gomoku model's tree
    also holds proofs against the replies its search kept)."""
    row, game, state = position_for_help(game_id, ply)
    model = model or default_model(row.game, row.options)
    played = []
    for text in line:
        if game.is_terminal(state):
            raise ServiceError(
                "game_over",
                _("the game is over before %(move)s") % {"move": repr(text)},
            )
        move = parse(game, state, text)
        played.append(move)
        state = game.play(state, move)
    READINESS.wait(row.game)
    loaded = explorable_model(row.game, model)
    tree = None if game.is_terminal(state) else warm_tree(loaded, game, state)
    moves: list[dict] = []
    if tree is not None:
        holds = holding_proofs(game.game_id, state.array, tree)
        for child in tree.children(0):
            visits = int(tree.visits[child])
            if not visits:
                continue
            mean = tree.mean(child)
            moves.append(
                {
                    "move": game.format_move(state, int(tree.move[child])),
                    "visits": visits,
                    "value": None if mean is None else round(mean, 4),
                    "proven": (
                        Proven(int(tree.proven[child])).text
                        if holds is None or holds[child]
                        else None
                    ),
                }
            )
        moves.sort(key=lambda m: m["visits"], reverse=True)
    finished = game.is_terminal(state)
    return {
        "model": model,
        "ply": ply,
        "line": played,
        "to_move": None if finished else game.to_move(state),
        "board": board(game, game.state_string(state)),
        "known": tree is not None,
        "moves": moves[:MAX_MOVES],
    }

"""Who plays each side: a human, or the AI with a model and a strength.

A side's settings are stored with the game as ``{"kind": "human"}`` or
``{"kind": "ai", "model": name | None, "level": n | None, "think_time": s |
None}`` (exactly one of level and think time set).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..errors import ServiceError
from .catalog import MAX_LEVEL
from .sides import SIDES as COLORS
from .treemodels import check_model

#: The default AI setting when a client gives neither level nor think time.
DEFAULT_THINK_TIME = 1.0


def normal_player(
    game: str, side: str, spec: dict | None, options: dict | None = None
) -> dict:
    """Return a player's settings with defaults filled in, after checking them
    (its model against the game's ``options``: see :func:`check_model`)."""
    spec = dict(spec or {"kind": "human"})
    kind = spec.get("kind", "human")
    if kind == "human":
        return {"kind": "human"}
    if kind != "ai":
        raise ServiceError(
            "invalid_players",
            _("players.%(side)s.kind must be 'human' or 'ai'") % {"side": side},
        )
    level, think_time = spec.get("level"), spec.get("think_time")
    if level is not None and think_time is not None:
        raise ServiceError(
            "invalid_players",
            _(
                "players.%(side)s: give a level (1..%(max)s) or a think_time in "
                "seconds, not both"
            )
            % {"side": side, "max": MAX_LEVEL},
        )
    if level is None and think_time is None:
        think_time = DEFAULT_THINK_TIME
    return {
        "kind": "ai",
        "model": check_model(game, spec.get("model"), options),
        "level": level,
        "think_time": think_time,
    }


def normal_players(
    game: str,
    players: dict | None,
    base: dict | None = None,
    options: dict | None = None,
) -> dict:
    """Return both sides' settings: ``players`` over ``base`` (for PATCH), each
    checked against the game's ``options`` and completed."""
    merged = dict(base or {})
    merged.update(players or {})
    return {
        side: normal_player(game, side, merged.get(side), options) for side in COLORS
    }

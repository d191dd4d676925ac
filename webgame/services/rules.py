"""The library's rules for a game name and its options, checked and cached.

A :class:`mcts.Game` holds no position, so one object per (name, options)
serves every request and thread.
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.utils.translation import gettext as _

from mcts import Game, InvalidOptionsError, UnknownGameError, find_game

from ..errors import ServiceError


def rule_words(rule: str | None) -> str:
    """A Gomoku rule as the page's rule selector names it, in the request's
    language ("Renju"; QA: "学的是 renju 规则")."""
    words = {
        "freestyle": _("Freestyle"),
        "standard": _("Standard"),
        "renju": _("Renju"),
    }
    return words.get(rule or "", str(rule))


def options_key(options: dict) -> str:
    """Return ``options`` as canonical JSON: the cache key of a game's rules."""
    return json.dumps(options, sort_keys=True)


@lru_cache(maxsize=64)
def cached_rules(name: str, options_json: str) -> Game:
    """Return the library's Game for ``name`` with the options in
    ``options_json`` (see :func:`options_key`); the library's errors pass."""
    return find_game(name, **json.loads(options_json))


def rules_for(name: str, options: dict | None = None) -> Game:
    """Return the library's Game for ``name`` and ``options``.

    Raises ServiceError ``unknown_game`` or ``invalid_options``.
    """
    if not isinstance(options, dict | None):
        raise ServiceError("invalid_options", _("options must be a JSON object"))
    try:
        return cached_rules(name, options_key(options or {}))
    except UnknownGameError as exc:
        raise ServiceError("unknown_game", str(exc)) from None
    except InvalidOptionsError as exc:
        raise ServiceError("invalid_options", str(exc)) from None
    except TypeError as exc:  # an option named like a parameter, e.g. "name"
        raise ServiceError(
            "invalid_options", _("bad options: %(error)s") % {"error": exc}
        ) from None

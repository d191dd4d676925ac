"""The library's rules for a game name and its options, checked and cached.

A :class:`mcts.Game` holds no position, so one object per (name, options)
serves every request and thread.
"""

from __future__ import annotations

import json
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from mcts import GAMES, Game, InvalidOptionsError, UnknownGameError, find_game

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


def _list_comma() -> str:
    # Translators: between the items of a list of things of one kind: ", "
    # (Chinese "、").
    return pgettext("list of one kind", ", ")


def list_words(items) -> str:
    """Things of one kind as a list in the request's language: "game, size,
    row" ("game、size、row")."""
    return _list_comma().join(str(item) for item in items)


def choice_words(choices) -> str:
    """The choices of a list in the request's language: "3 or 2",
    "freestyle, standard or renju" ("freestyle、standard 或 renju")."""
    texts = [str(choice) for choice in choices]
    if len(texts) < 2:
        return "".join(texts)
    # Translators: the last two of a list of choices: "3 or 2".
    return _("%(some)s or %(last)s") % {
        "some": _list_comma().join(texts[:-1]),
        "last": texts[-1],
    }


def options_words(name: str, options: dict, library: str) -> str:
    """Why game ``name`` (a registry name) refuses ``options``, in the
    request's language (records QA: a record's ``[size "99"]`` came in the
    rules library's English on the Chinese page), from what each of its
    options accepts; ``library`` (the library's English) for what those do
    not say."""
    specs = GAMES[name].option_specs
    title = _(GAMES[name].title)
    unknown = sorted(set(options) - set(specs))
    if unknown and not specs:
        return _("%(title)s has no option %(option)s; it takes none") % {
            "title": title,
            "option": repr(unknown[0]),
        }
    if unknown:
        return _("%(title)s has no option %(option)s; its options are %(known)s") % {
            "title": title,
            "option": repr(unknown[0]),
            "known": list_words(specs),
        }
    for key, spec in specs.items():
        if key not in options:
            continue
        value = options[key]
        words = {"title": title, "option": repr(key), "value": repr(value)}
        if spec["type"] == "integer":
            # The text "9" for the number 9 said so (API QA: "… from 5 to
            # 19, not '9'" read as nonsense).
            if isinstance(value, str):
                words["value"] = _("the text %(text)s") % {"text": repr(value)}
            low, high = spec["min"], spec["max"]
            if isinstance(high, str):  # another option's value: the row's size
                high = options.get(high, cached_rules(name, "{}").options[high])
            whole = isinstance(value, int) and not isinstance(value, bool)
            if not whole or not low <= value <= high:
                return _(
                    "%(title)s's %(option)s is a whole number from %(min)s to "
                    "%(max)s, not %(value)s"
                ) % {**words, "min": low, "max": high}
        elif not any(
            type(value) is type(choice) and value == choice
            for choice in spec["choices"]
        ):
            return _("%(title)s's %(option)s is %(choices)s, not %(value)s") % {
                **words,
                "choices": choice_words(spec["choices"]),
            }
    if options.get("rule") == "renju":  # each option in range: Gomoku's row
        return _("renju is played with five in a row, not %(row)s: leave row at 5") % {
            "row": options.get("row")
        }
    return library


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
        words = options_words(name, options or {}, str(exc))
        raise ServiceError("invalid_options", words) from None
    except TypeError as exc:  # an option named like a parameter, e.g. "name"
        raise ServiceError(
            "invalid_options", _("bad options: %(error)s") % {"error": exc}
        ) from None

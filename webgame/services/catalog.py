"""What the server offers: the games with their options, the AI's strength
ladder, and the tree models on disk for each game (:mod:`.treemodels`)."""

from __future__ import annotations

import json

from django.utils.translation import gettext, gettext_noop, ngettext

from mcts import FORBIDDEN_NAMES, GAMES, LEVELS, THINK_TIMES, Level, Proven, find_game

from . import openings
from .treemodels import list_models

#: The games' registry names, in the registry's order.
GAME_NAMES = tuple(GAMES)

#: The highest strength level a client may ask for.
MAX_LEVEL = max(LEVELS)

#: The games' titles for the translators: the library names each game in
#: English (its ``title``); the site shows it in the request's language.
TITLES = (
    gettext_noop("Reversi"),
    gettext_noop("Gomoku"),
    gettext_noop("Lines of Action"),
)

#: Why a point is forbidden to black under renju, as a snapshot says it.
FORBIDDEN_KINDS = tuple(FORBIDDEN_NAMES.values())

#: The words a search result uses for a proven move: "win", "loss", "draw".
PROVEN_RESULTS = tuple(p.text for p in Proven if p.text is not None)


#: The games whose moves are numbered in pairs, Black's and White's move 12,
#: as Lines of Action's published records (and chess) number them; the
#: others number each move (an Othello game its discs 1 to 60). Records'
#: messages and the page (by the kinds' ``numbered_in_pairs``) number alike.
NUMBERED_IN_PAIRS = frozenset({"loa"})


def list_kinds() -> list[dict]:
    """Return each game's name, title, default options, option ranges, the
    opening rules it may be created with, the AI's strength levels and the
    models on disk for it."""
    return [
        {
            "name": name,
            "title": gettext(rules.title),
            "options": find_game(name).options,
            "option_specs": rules.option_specs,
            "openings": openings.offered(name),
            "levels": list_levels(),
            "models": list_models(name),
            "numbered_in_pairs": name in NUMBERED_IN_PAIRS,
        }
        for name, rules in GAMES.items()
    ]


def list_games() -> list[dict]:
    """Return each game's name and title, for the start page."""
    return [
        {"name": name, "title": gettext(rules.title)} for name, rules in GAMES.items()
    ]


def option_specs(game: str) -> dict[str, dict]:
    """Return what each option of ``game`` (a registry name) accepts."""
    return GAMES[game].option_specs


def describe_options() -> str:
    """Return one line saying what each game's options accept, games sorted
    by name: ``'gomoku: {"size": 5..19, "row": 3..size}; ...; reversi: {}'``."""

    def accepts(spec: dict) -> str:
        if spec["type"] == "integer":
            return f"{spec['min']}..{spec['max']}"
        return "|".join(json.dumps(choice) for choice in spec["choices"])

    return "; ".join(
        name
        + ": {"
        + ", ".join(f'"{key}": {accepts(spec)}' for key, spec in specs.items())
        + "}"
        for name, specs in sorted(
            (name, rules.option_specs) for name, rules in GAMES.items()
        )
    )


def list_levels() -> list[dict]:
    """Return the AI's strength ladder: each level's number, description and
    think time in seconds (None for a level with a simulation budget)."""
    return [
        {"level": n, "description": describe_level(level), "seconds": level.seconds}
        for n, level in sorted(LEVELS.items())
    ]


def describe_level(level: Level) -> str:
    """Return what a level does in the request's language, as the library's
    ``Level.description`` says it in English: its budget a move and, for the
    sampling levels, how often it plays a random move ("10 simulations, a
    random move 1 in 2")."""
    if level.simulations is not None:
        n = level.simulations
        words = ngettext("%(n)s simulation", "%(n)s simulations", n) % {"n": f"{n:,}"}
    else:
        words = gettext("%(seconds)s s a move") % {"seconds": f"{level.seconds:g}"}
    if level.random_moves:
        words = gettext("%(budget)s, a random move 1 in %(n)s") % {
            "budget": words,
            "n": round(1 / level.random_moves),
        }
    return words


def list_think_times() -> list[float]:
    """Return the fixed think times (seconds a move) offered beside the levels."""
    return list(THINK_TIMES)

"""What the server offers: the games with their options and the AI's strength
ladder, and the tree models on disk for each game.

A model is named by the client but found here: only names listed on disk are
accepted, so no path from a client is ever opened.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from django.conf import settings

from mcts import GAMES, LEVELS, THINK_TIMES, Proven, find_game
from mcts import list_models as library_models

from ..errors import ServiceError

#: The games' registry names, in the registry's order.
GAME_NAMES = tuple(GAMES)

#: The highest strength level a client may ask for.
MAX_LEVEL = max(LEVELS)

#: The words a search result uses for a proven move: "win", "loss", "draw".
PROVEN_RESULTS = tuple(p.text for p in Proven if p.text is not None)

_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def list_kinds() -> list[dict]:
    """Return each game's name, title, default options, option ranges, the
    AI's strength levels and the models on disk for it."""
    return [
        {
            "name": name,
            "title": rules.title,
            "options": find_game(name).options,
            "option_specs": rules.option_specs,
            "levels": list_levels(),
            "models": list_models(name),
        }
        for name, rules in GAMES.items()
    ]


def list_games() -> list[dict]:
    """Return each game's name and title, for the start page."""
    return [{"name": name, "title": rules.title} for name, rules in GAMES.items()]


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
        {"level": n, "description": level.description, "seconds": level.seconds}
        for n, level in sorted(LEVELS.items())
    ]


def list_think_times() -> list[float]:
    """Return the fixed think times (seconds a move) offered beside the levels."""
    return list(THINK_TIMES)


def list_models(game: str) -> list[dict]:
    """Return the tree models on disk for ``game``: name, nodes, bytes, built
    (how it was made, from its manifest, without the command line that names
    the builder's folders) and damaged (what is wrong with a damaged one,
    naming the file and line in the model's folder; else None), sorted by
    name. Only models whose folder name a client could send are listed."""
    return [
        {**model.to_json(), "built": _public_build_facts(model.built)}
        for model in library_models(Path(settings.MODEL_DIR), game)
        if _MODEL_NAME.fullmatch(model.name)
    ]


#: What a model's manifest says about its build that a client may see: the
#: settings and counts, not the command line (it names the builder's folders).
_PRIVATE_BUILD_FACTS = ("command",)


def _public_build_facts(built: dict | None) -> dict | None:
    """Return the manifest's build facts without the command line."""
    if built is None:
        return None
    return {k: v for k, v in built.items() if k not in _PRIVATE_BUILD_FACTS}


def model_fault(error: Exception) -> str:
    """Return the text of a model's fault with the models' folder on this
    server left out (``reversi/light/nodes.jsonl line 3: ...``): a client
    never sees a server path."""
    text = str(error)
    for folder in {Path(settings.MODEL_DIR), Path(settings.MODEL_DIR).resolve()}:
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), "")
    return text


def check_model(game: str, name: str | None) -> str | None:
    """Return the model name (None for no model); ServiceError ``unknown_model``
    unless it is a model on disk: no paths from clients are ever opened."""
    if name is None or name == "none":
        return None
    models = {model["name"]: model for model in list_models(game)}
    if name not in models:
        known = ", ".join(models) or "none on disk yet"
        raise ServiceError(
            "unknown_model",
            f"unknown model {name!r} for {game}; models: {known} "
            "(or null / 'none' for no model)",
        )
    if models[name]["damaged"]:
        raise ServiceError(
            "model_unavailable",
            f"model {name!r} for {game} is damaged: {models[name]['damaged']}",
        )
    return name

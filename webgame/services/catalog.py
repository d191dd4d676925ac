"""What the server offers: the games with their options and the AI's strength
ladder, and the tree models on disk for each game.

A model is named by the client but found here: only names listed on disk are
accepted, so no path from a client is ever opened.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings

from mcts import GAMES, LEVELS, find_game

from ..errors import ServiceError
from .rules import TITLES

#: What each game's options accept, for the kinds endpoint and the page's form.
#: The library checks the values; this only describes them.
OPTION_SPECS: dict[str, dict[str, dict]] = {
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

_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def list_kinds() -> list[dict]:
    """Return each game's name, title, default options, option ranges, the
    AI's strength levels and the models on disk for it."""
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


def check_model(game: str, name: str | None) -> str | None:
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

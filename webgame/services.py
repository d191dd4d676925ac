"""The only module of the web app that talks to the mcts library."""

from __future__ import annotations

from mcts import GAMES, find_game


def list_games() -> list[dict]:
    """Return each game's name, title and default options, for the pages and API."""
    return [
        {"name": name, "title": cls.title, "options": find_game(name).options}
        for name, cls in GAMES.items()
    ]

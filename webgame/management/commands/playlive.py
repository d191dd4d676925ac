"""``python manage.py playlive GAME --games N``: grow the live model by games
of the server's own AI against itself.

Each game starts from a few random opening moves (so the games differ),
then both sides are the page's AI (``--think-time`` a move, the live model
once it exists, else the model it is seeded from) until the end; the
finished game feeds the live model as any game played on the page does
(:mod:`webgame.services.livegrowth`), and the model is saved at the end.
The games are deleted afterwards. Run it at low priority beside a server
(``nice``): it is the server's AI pool and model files, in this process.
"""

from __future__ import annotations

import argparse

import numpy as np
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from webgame import services
from webgame.errors import ServiceError
from webgame.models import Game as GameRow
from webgame.services.livegrowth import GROWTH, SEEDS


class Command(BaseCommand):
    help = "Grow the live tree model by games of the AI against itself."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("game", choices=services.GAME_NAMES)
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument(
            "--think-time", type=float, default=0.1, help="seconds a move (0.1)"
        )
        parser.add_argument(
            "--opening-plies",
            type=int,
            default=4,
            help="random moves before the AI plays (4), so that games differ",
        )
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: object, **options) -> None:
        game = options["game"]
        if not settings.LIVE_MODEL or settings.AI_BACKEND == "celery":
            raise CommandError(
                "no live model to grow: LIVE_MODEL is empty or the AI runs on Celery"
            )
        rng = np.random.default_rng(options["seed"])
        for _ in tqdm(range(options["games"]), unit="game", desc="live games"):
            self._play(game, options["think_time"], options["opening_plies"], rng)
        GROWTH.wait()
        saved = GROWTH.save(game)
        self.stdout.write(f"live model of {game}: {saved} games merged in all")

    def _play(self, game: str, think_time: float, plies: int, rng) -> None:
        """Play one game of the AI against itself after ``plies`` random moves."""
        snap = services.create_game(game=game, options=None, players=None)
        try:
            for _ in range(plies):
                legal = snap["legal_moves"]
                if snap["status"] != "playing" or not legal:
                    break
                move = legal[int(rng.integers(len(legal)))]
                snap = services.play_move(snap["id"], move=move)
            ai = {"kind": "ai", "model": _model(game), "think_time": think_time}
            snap = services.update_players(
                snap["id"], players={"black": ai, "white": ai}
            )
            while snap["status"] == "playing":
                snap = services.ai_move(snap["id"])["game"]
        except ServiceError as error:
            raise CommandError(error.detail) from None
        finally:
            GameRow.objects.filter(pk=snap["id"]).delete()


def _model(game: str) -> str | None:
    """Return the model the AI plays with: the live model once saved, else
    the one it is seeded from, else none."""
    names = {m["name"] for m in services.list_models(game) if not m["damaged"]}
    for name in (settings.LIVE_MODEL, *SEEDS):
        if name in names:
            return name
    return None

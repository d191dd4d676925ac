"""``python manage.py selfplay GAME --games N --model NAME``: grow a tree model.

The same arguments and builder as ``python -m mcts selfplay``, taken from the
:mod:`mcts` façade, writing into ``settings.MODEL_DIR`` so the web app lists
the model.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mcts import (
    add_game_arguments,
    add_selfplay_arguments,
    game_from_args,
    model_info,
    model_path,
    run_selfplay,
)


class Command(BaseCommand):
    help = "Grow a tree model by self-play (model/<game>/<name>/)."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_game_arguments(parser)
        add_selfplay_arguments(parser)
        parser.set_defaults(model_dir=str(settings.MODEL_DIR))

    def handle(self, *args: object, **options: object) -> None:
        namespace = argparse.Namespace(**options)
        try:
            game = game_from_args(namespace)
            if sys.argv[1:2] == ["selfplay"]:
                command = "python manage.py " + shlex.join(sys.argv[1:])
            else:  # called from code: say which options it had
                command = "call_command('selfplay') " + " ".join(
                    f"{k}={v}" for k, v in sorted(options.items()) if k in _SHOWN
                )
            run_selfplay(game, namespace, command)
        except KeyboardInterrupt:
            raise CommandError("interrupted: checkpoint saved") from None
        except ValueError as error:
            raise CommandError(str(error)) from None
        path = model_path(game.name, namespace.model, namespace.model_dir)
        self.stdout.write(json.dumps(model_info(path), indent=1))


_SHOWN = {
    "game",
    "games",
    "model",
    "sims",
    "seconds",
    "study_plies",
    "noise_plies",
    "temperature",
    "workers",
    "min_visits",
    "seed",
}

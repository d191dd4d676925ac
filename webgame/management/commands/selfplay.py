"""``python manage.py selfplay GAME --games N --model NAME``: grow a tree model.

The same builder as ``python -m mcts selfplay`` (see :mod:`mcts.selfplay`),
writing into ``settings.MODEL_DIR`` so the web app lists the model.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Grow a tree model by self-play (model/<game>/<name>/)."

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        from mcts.cli.args import add_game_arguments
        from mcts.cli.models import add_selfplay_arguments

        add_game_arguments(parser)
        add_selfplay_arguments(parser)
        parser.set_defaults(model_dir=str(settings.MODEL_DIR))

    def handle(self, *args, **options) -> None:
        from mcts.cli.args import game_from_args
        from mcts.cli.models import model_path, run_selfplay
        from mcts.models import model as treemodel
        from mcts.models import store

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
        summary = treemodel.info(store.load(path, check="fast"))
        self.stdout.write(json.dumps(summary, indent=1))


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

"""``python manage.py expiregames``: delete games nobody touched for a while.

There are no accounts, so a game that nothing changed (no move, undo or
settings change) for ``GAME_EXPIRY_DAYS`` days (30 by default) is taken as
abandoned: its id is lost with the browser that held it. Run it once a day
(cron or a systemd timer); see docs/deploy.md.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from webgame.models import Game


class Command(BaseCommand):
    help = "Delete games not changed for GAME_EXPIRY_DAYS days (default 30)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=float,
            default=None,
            help="age in days of the last change (default: GAME_EXPIRY_DAYS)",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="count them, delete nothing"
        )

    def handle(self, *args, **opts):
        days = settings.GAME_EXPIRY_DAYS if opts["days"] is None else opts["days"]
        # No more than the dates allow: nan and inf were tracebacks.
        most = settings.MAX_EXPIRY_DAYS
        if not 0 < days <= most:
            raise CommandError(f"--days must be more than 0 and at most {most}")
        old = Game.objects.filter(updated__lt=timezone.now() - timedelta(days=days))
        age = f"{days:g} day" + ("" if days == 1 else "s")
        if opts["dry_run"]:
            self.stdout.write(f"{_games(old.count())} older than {age}")
            return
        # Their chat lines go with them; only the games are counted.
        _, deleted = old.delete()
        games = deleted.get(Game._meta.label, 0)
        self.stdout.write(f"deleted {_games(games)} not changed for {age}")


def _games(count: int) -> str:
    """``count`` games, in words: "1 game", "7 games"."""
    return f"{count} game" + ("" if count == 1 else "s")

"""``python manage.py migrate``, as Django's, but a database that does not
answer stops it in one line that names the setting, not a traceback
(``make run`` migrates before it serves; operator QA: PostgreSQL down
stopped it on 40 lines of psycopg's)."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.core.management.commands import migrate
from django.db import InterfaceError, OperationalError

from webgame.error_responses import one_line


class Command(migrate.Command):
    def handle(self, *args, **options):
        try:
            return super().handle(*args, **options)
        except (OperationalError, InterfaceError) as exc:
            raise CommandError(
                f"the database (DATABASE_URL) does not answer: {one_line(exc)}"
            ) from exc

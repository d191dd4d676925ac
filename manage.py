#!/usr/bin/env python
"""Django's command-line utility for the webgame project."""

import os
import sys


def main() -> None:
    """Run a Django management command. A setting that cannot be used stops
    it in one line that names it (webgame/settings.py), not in a traceback:
    under ``make run`` that line is what an operator reads."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 (reads the settings)
    except ImproperlyConfigured as error:
        sys.exit(f"ImproperlyConfigured: {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

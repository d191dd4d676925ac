"""WSGI entry point (gunicorn webgame.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")
application = get_wsgi_application()

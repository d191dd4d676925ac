"""WSGI entry point (`make dev`'s runserver; the served app is ASGI: webgame.asgi).

The AI's warm-up starts first (:mod:`webgame.startup`), then the app, then
the thread that makes each game's AI ready (:mod:`webgame.services.readiness`).
"""

import os

from django.core.wsgi import get_wsgi_application

from webgame.startup import launch_warm_up

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")
_warm_up = launch_warm_up()
application = get_wsgi_application()

from webgame.services.readiness import READINESS  # noqa: E402  (after the warm-up)

READINESS.follow(_warm_up)

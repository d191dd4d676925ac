"""ASGI entry point (``uvicorn webgame.asgi:application``): the page, the
API and the live games' sockets on one port (:mod:`webgame.routing`).

The AI's warm-up starts first (:mod:`webgame.startup`), then the app, then
the thread that makes each game's AI ready (:mod:`webgame.services.readiness`).
"""

import logging
import os

from django.conf import settings
from django.core.asgi import get_asgi_application

from webgame.startup import launch_warm_up, remove_status, warn_about_workers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")
_warm_up = launch_warm_up()
_django = get_asgi_application()
warn_about_workers(settings.REDIS_URL)
if settings.DEBUG:  # operator QA: DEBUG=1 make run started without a word
    logging.getLogger("webgame").warning(
        "DEBUG is on: error pages show the code and the settings to anyone; "
        "for development only"
    )

# After Django is set up: these import the models.
from webgame.routing import application_for  # noqa: E402
from webgame.services.readiness import READINESS  # noqa: E402
from webgame.services.treemodels import (  # noqa: E402
    log_damaged_models,
    remove_leftovers,
)

# Its status folder goes as the server stops (atexit misses a SIGTERM's stop).
application = application_for(
    _django, at_stop=[lambda: remove_status(_warm_up.status_file)] if _warm_up else []
)
READINESS.follow(_warm_up)
remove_leftovers()
log_damaged_models()

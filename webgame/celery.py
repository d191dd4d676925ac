"""The Celery application of ``AI_BACKEND=celery``: workers that run AI
searches and self-play for any number of web processes.

Start a worker with ``celery -A webgame worker --pool threads --concurrency N``
(threads: the search kernels release the GIL, and the threads share the
loaded tree models). Its settings are Django's ``CELERY_*`` settings.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webgame.settings")

#: The AI search task's name: the worker registers it (tasks.py) and the web
#: processes send it by this name (backends.py).
SEARCH_TASK = "webgame.search"

app = Celery("webgame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["webgame"])

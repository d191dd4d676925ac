"""Settings of the test suite: the production settings (``webgame.settings``
with DEBUG off, as ``make run`` serves), except that static files are served
from the sources by their plain names. Production serves the hashed copies
``collectstatic`` makes; the tests never run it (a stale ``staticfiles/`` from
an earlier ``make run`` would otherwise be what the browser tests load).
``tests/web/test_serving.py`` checks the production storage itself.
"""

from webgame.settings import *  # noqa: F403 - the settings under test
from webgame.settings import BASE_DIR, STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# WhiteNoise lists STATIC_ROOT's files whenever its middleware starts, as each
# test client's does: a checkout's staticfiles/ from `make run` (2,000 files)
# made every fuzzed request 0.2 s slower than on a fresh clone. The tests'
# static files come from the sources, so the folder is one that never exists.
STATIC_ROOT = BASE_DIR / "tests" / "no-collected-static"

# Tests create many games a minute from one address; the throttle's own test
# turns it on.
GAME_CREATE_RATE = None
# Finished games would grow model/<game>/live/ in the checkout: the live
# model's own tests turn it on in a temporary folder.
LIVE_MODEL = ""

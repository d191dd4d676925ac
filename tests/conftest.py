"""Suite-wide test settings.

In CI (``CI`` set in the environment) a skipped test counts as a failure:
a browser test that finds no browser must not pass silently. The
``warming`` fixture stands for a server's first start.
"""

import json
import os
import subprocess
import sys
import time

import pytest
from django.utils import translation

from webgame.services.readiness import Readiness
from webgame.startup import WarmUp


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("CI") and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which is not allowed: {report.longrepr}"


@pytest.fixture(autouse=True)
def _the_default_language_after_each_test():
    """Django keeps a thread's language after a request (the test client's
    requests run in the test's thread): each test starts in the default one,
    whatever language the test before asked for."""
    yield
    translation.deactivate()


@pytest.fixture
def warming(tmp_path, monkeypatch):
    """A server's first start, driven by a test: yield (readiness, write),
    the readiness following a warm-up that is a sleeping process and a status
    file the test writes with ``write(game=(state, progress), ...)``."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    status = tmp_path / "status.json"

    def write(**games) -> None:
        entries = {
            name: {"state": "waiting", "progress": 0.0}
            for name in ("gomoku", "reversi", "loa")
        }
        for name, (state, progress) in games.items():
            entries[name] = {"state": state, "progress": progress}
        status.write_text(json.dumps({"rules": True, "games": entries}))

    write()
    readiness = Readiness()
    monkeypatch.setattr("webgame.services.ai.READINESS", readiness)
    monkeypatch.setattr("webgame.services.READINESS", readiness)
    monkeypatch.setattr("webgame.services.explorer.READINESS", readiness)
    readiness.follow(WarmUp(process, status, time.monotonic()))
    yield readiness, write
    # Stopped, not killed: a warm-up killed (by the system) is launched again.
    readiness._warm.process.terminate()
    readiness._warm.process.wait()

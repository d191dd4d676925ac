"""Starting a serving process: the AI's warm-up is launched before the app
(and so :mod:`mcts`) is imported.

numba compiles a kernel on its first use, and its compiler holds the GIL.
So a server runs ``python -m mcts warm`` in a process of its own first, and
imports the app only once that process has compiled the rules (about 5 s on
a fresh checkout, 2 s after): from then on this process loads compiled code
from numba's cache and never compiles. The games' AI keep compiling over
there; :mod:`webgame.services.readiness` follows it. ``make run`` starts
that process before anything else, through :func:`main`.
"""

from __future__ import annotations

import atexit
import json
import logging
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

#: How long a start waits for the rules before serving anyway.
RULES_TIMEOUT = 120.0

#: The prefix of the temporary folder that holds a warm-up's status: a
#: serving process removes its folder when it exits (``make run`` names its
#: folder so too).
STATUS_FOLDER = "mcts-warm-"

#: The project's folder, where the warm-up runs.
ROOT = Path(__file__).resolve().parent.parent

#: The values of ``AI_WARM_UP`` that switch the warm-up off (any case).
OFF = ("0", "false", "no", "off")


def warm_up_wanted() -> bool:
    """Whether ``AI_WARM_UP`` leaves the warm-up on (its default)."""
    return os.environ.get("AI_WARM_UP", "1").strip().lower() not in OFF


def warm_command(status_file: Path, parent: int | None = None) -> list[str]:
    """The warm-up's command line, keeping its progress in ``status_file``
    (``AI_WARM_JOBS`` processes when set) and stopping when process
    ``parent`` (default: this one) exits."""
    parent = os.getpid() if parent is None else parent
    command = [sys.executable, "-m", "mcts", "warm", "--status", str(status_file)]
    command += ["--parent", str(parent)]
    if os.environ.get("AI_WARM_JOBS"):
        command += ["--jobs", os.environ["AI_WARM_JOBS"]]
    return command


@dataclass
class WarmUp:
    """A warm-up process and the file where it keeps its progress: one this
    process launched (``process``), or one started before it (``make run``
    starts it first; ``pid`` from its status file)."""

    process: subprocess.Popen | None
    status_file: Path
    launched: float
    #: The exit code of a warm-up started before this process, once collected.
    collected: int | None = None

    def status(self) -> dict:
        """The warm-up's status (empty before its first write)."""
        try:
            return json.loads(self.status_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def exit_code(self) -> int | None:
        """The warm-up process's exit code once it has exited (minus the
        signal that killed it, as subprocess has it), else None. ``make
        run``'s warm-up is this process's child too (the shell that started
        it became this process): its exit is collected here, so that it
        leaves no zombie and a kill is told from a failure; -1 for one that
        is not (a warm-up gone whose end is unknown)."""
        if self.process is not None:
            return self.process.poll()
        if self.collected is not None:
            return self.collected
        pid = self.status().get("pid")
        if pid is None:
            return None
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # not this process's child
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return -1
            except PermissionError:
                pass  # alive, another user's
            return None
        if done == 0:
            return None
        self.collected = os.waitstatus_to_exitcode(status)
        return self.collected

    def reap(self) -> None:
        """Wait for the warm-up to exit (it has nothing left to do)."""
        while self.exit_code() is None:
            time.sleep(0.5)

    def relaunch(self) -> None:
        """Launch the warm-up again, keeping its progress in the same file
        (what it compiled before is in numba's cache)."""
        self.process = subprocess.Popen(warm_command(self.status_file), cwd=ROOT)


def launch_warm_up() -> WarmUp | None:
    """Return the warm-up once it has compiled the rules: the one running
    with its status in ``AI_WARM_STATUS`` (``make run`` starts it before the
    database migrations and the static files), else ``python -m mcts warm``
    run now. None when switched off (``AI_WARM_UP=0``)."""
    if not warm_up_wanted():
        return None
    attached = os.environ.get("AI_WARM_STATUS", "").strip()
    if attached and not Path(attached).parent.is_dir():
        # No warm-up writes there: the AI would never be ready.
        raise ImproperlyConfigured(
            f"AI_WARM_STATUS={attached!r}: expected a warm-up's status file in "
            "a folder that exists; make run sets it, leave it unset otherwise"
        )
    if attached:
        warm = WarmUp(None, Path(attached), time.monotonic())
        started = warm.status().get("started")
        if started is not None:  # its seconds count from its own start
            warm.launched -= max(0.0, time.time() - started)
    else:
        status_file = Path(tempfile.mkdtemp(prefix=STATUS_FOLDER)) / "status.json"
        warm = WarmUp(
            subprocess.Popen(warm_command(status_file), cwd=ROOT),
            status_file,
            time.monotonic(),
        )
    atexit.register(remove_status, warm.status_file)
    deadline = time.monotonic() + RULES_TIMEOUT
    while time.monotonic() < deadline:
        if warm.status().get("rules") or warm.exit_code() is not None:
            break
        time.sleep(0.05)
    else:
        log.warning(
            "the rules took over %.0f s to compile: serving anyway", RULES_TIMEOUT
        )
    return warm


def warn_about_workers(redis_url: str) -> None:
    """Log an error if this process is one of several serving workers (a
    child of uvicorn's ``--workers``, or of another supervisor) without
    ``redis_url``: each would keep its own games' live updates, AI queue
    and clocks' bookkeeping, and a move made through one would not reach a
    browser on another (docs/deploy.md)."""
    if multiprocessing.parent_process() is not None and not redis_url:
        log.error(
            "this server is a worker process (uvicorn --workers or --reload, "
            "gunicorn) without REDIS_URL: several such workers each keep their "
            "own live updates and AI queue, so browsers on one miss the moves "
            "made through another; run one (make run) or set REDIS_URL"
        )


def remove_status(status_file: Path) -> None:
    """Remove a warm-up's status folder when this process exits, so starts
    leave nothing behind in the temporary folder: only a folder named as
    this module and ``make run`` name it. A warm-up still compiling stops
    too (``--parent``), and writes no status meanwhile
    (:func:`mcts.play.warmup.write_status`)."""
    if status_file.parent.name.startswith(STATUS_FOLDER):
        shutil.rmtree(status_file.parent, ignore_errors=True)


def main(argv: list[str]) -> int:
    """``python -m webgame.startup STATUS_FILE [PARENT]``: the warm-up ``make
    run`` starts before anything else, unless ``AI_WARM_UP`` switches it
    off. It stops when process ``PARENT`` exits: the shell that started it
    (``make run``'s, which becomes the server), by default this process's
    parent (a shell that exits at once may be gone by then: name it)."""
    if len(argv) not in (1, 2) or (len(argv) == 2 and not argv[1].isdigit()):
        print("usage: python -m webgame.startup STATUS_FILE [PARENT]", file=sys.stderr)
        return 2
    if not warm_up_wanted():
        remove_status(Path(argv[0]))  # the folder make run made for it
        return 0
    parent = int(argv[1]) if len(argv) == 2 else os.getppid()
    os.execv(sys.executable, warm_command(Path(argv[0]), parent))
    return 1  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

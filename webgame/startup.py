"""Starting a serving process: the AI's warm-up is launched before the app
(and so :mod:`mcts`) is imported.

numba compiles some kernels when :mod:`mcts` is imported and the rest on
first use; either way its compiler holds the GIL. So a server runs
``python -m mcts warm`` in a process of its own first, and imports the app
only once that process has compiled the import-time kernels and the rules
(about 10 s on a fresh checkout, 2 s after): from then on this process
loads compiled code from numba's cache and never compiles. The games' AI
keep compiling over there; :mod:`webgame.services.readiness` follows it.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: How long a start waits for the rules before serving anyway.
RULES_TIMEOUT = 120.0


@dataclass
class WarmUp:
    """A warm-up process and the file where it keeps its progress."""

    process: subprocess.Popen
    status_file: Path
    launched: float

    def status(self) -> dict:
        """The warm-up's status (empty before its first write)."""
        try:
            return json.loads(self.status_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}


def launch_warm_up() -> WarmUp | None:
    """Run ``python -m mcts warm`` (unless ``AI_WARM_UP=0``) and return once
    it has compiled the rules; None when switched off."""
    if os.environ.get("AI_WARM_UP", "1").strip() in ("0", "false", "no", "off"):
        return None
    launched = time.monotonic()
    status_file = Path(tempfile.mkdtemp(prefix="mcts-warm-")) / "status.json"
    command = [sys.executable, "-m", "mcts", "warm", "--status", str(status_file)]
    if os.environ.get("AI_WARM_JOBS"):
        command += ["--jobs", os.environ["AI_WARM_JOBS"]]
    root = Path(__file__).resolve().parent.parent
    warm = WarmUp(subprocess.Popen(command, cwd=root), status_file, launched)
    deadline = launched + RULES_TIMEOUT
    while time.monotonic() < deadline:
        if warm.status().get("rules") or warm.process.poll() is not None:
            break
        time.sleep(0.05)
    else:
        log.warning(
            "the rules took over %.0f s to compile: serving anyway", RULES_TIMEOUT
        )
    return warm

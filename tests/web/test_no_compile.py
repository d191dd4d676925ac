"""After the warm-up a server runs, no search compiles anything: playing
each game through the web services at every level, with hints, an analysis,
the explorer and a Reversi game to its end, adds no signature to any numba
kernel (issue 63: a 54 s freeze at ply 47 was the endgame solver compiling).

The play runs in a fresh process (``tests/web/no_compile.py``): in this one,
other tests have already compiled whatever they used.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_search_after_the_warm_up_meets_a_kernel_signature_it_lacks(tmp_path):
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="tests.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    done = subprocess.run(
        [sys.executable, "-m", "tests.web.no_compile"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    added = json.loads(done.stdout)
    assert added == {}, "signatures compiled (or loaded) after the warm-up:\n" + (
        json.dumps(added, indent=1)
    )

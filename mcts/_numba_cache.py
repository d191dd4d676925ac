"""Point numba's on-disk cache at a folder named after a hash of the mcts sources.

numba checks only the defining file's timestamp when it reuses cached machine
code, so a kernel that calls into another module (``kernels.perft`` calling
``reversi.legal_moves``) would keep running stale compiled code after that
other module changed. A cache folder per source hash makes any edit to any
module a clean recompile, and leaves unchanged code cached. The folders of
earlier sources would pile up with each update (20-35 MB each): a warm-up
removes those no warm-up used for :data:`KEEP_DAYS` (:func:`prune`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

PACKAGE_DIR = Path(__file__).resolve().parent
#: How each cache folder's name starts (the rest is :func:`source_hash`).
PREFIX = "numba-"
#: Days another source's cache folder is kept since a warm-up last used it: a
#: branch switched back to, or a server of the code before an update still
#: running, finds its compiled code there.
KEEP_DAYS = 7


def source_hash() -> str:
    """Return a short hash of every Python source file in the mcts package."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    """Set numba's cache folder unless the user chose one with NUMBA_CACHE_DIR."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    # numba.config fills its settings in at run time, so mypy cannot see them.
    cache = str(PACKAGE_DIR / "__pycache__" / f"{PREFIX}{source_hash()}")
    numba.config.CACHE_DIR = cache  # type: ignore[attr-defined]


def prune(current: Path, keep_days: float = KEEP_DAYS) -> list[Path]:
    """Mark ``current`` (this source's cache folder) used now, and remove the
    cache folders beside it that no warm-up used for ``keep_days``; return
    those removed. A folder that cannot be touched or removed (a read-only
    checkout, another warm-up removing it at once) is left."""
    try:
        current.mkdir(parents=True, exist_ok=True)
        os.utime(current)
    except OSError:
        return []  # not ours to tidy: nothing is removed either
    unused_since = time.time() - keep_days * 86400
    removed = []
    for folder in current.parent.glob(f"{PREFIX}*"):
        try:
            if folder == current or folder.stat().st_mtime >= unused_since:
                continue
            shutil.rmtree(folder)
        except OSError:
            continue
        removed.append(folder)
    return removed

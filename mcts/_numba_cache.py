"""Point numba's on-disk cache at a folder named after a hash of the mcts sources.

numba checks only the defining file's timestamp when it reuses cached machine
code, so a kernel that calls into another module (``kernels.perft`` calling
``reversi.legal_moves``) would keep running stale compiled code after that
other module changed. A cache folder per source hash makes any edit to any
module a clean recompile, and leaves unchanged code cached.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

PACKAGE_DIR = Path(__file__).resolve().parent


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
    cache = str(PACKAGE_DIR / "__pycache__" / f"numba-{source_hash()}")
    numba.config.CACHE_DIR = cache  # type: ignore[attr-defined]

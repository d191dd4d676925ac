"""Writing a text file atomically: a reader (or a run stopped half way)
finds the old file or the new one whole, never a part."""

from __future__ import annotations

import os
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file beside it
    (``path`` + ``.tmp``) renamed over it."""
    temp = path.with_name(path.name + ".tmp")
    temp.write_text(text, encoding="utf-8")
    os.replace(temp, path)

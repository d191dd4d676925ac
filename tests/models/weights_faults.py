"""Faults a test puts into a saved model's weights file (any kind of
:mod:`mcts.models.weights`), for the loader to report by the file's name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mcts.models import store
from mcts.models.weights import WeightsKind


def flip_a_byte(folder: Path, kind: WeightsKind) -> None:
    """Damage one byte in the middle of the model's ``kind`` file."""
    path = folder / kind.file
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def junk_with_its_checksum(folder: Path, kind: WeightsKind) -> None:
    """Replace the ``kind`` file by bytes that are no weights, and put their
    sha256 into the manifest, so that only the parse can refuse them."""
    manifest = json.loads((folder / store.MANIFEST).read_text())
    (folder / kind.file).write_bytes(b"junk")
    manifest[kind.key]["sha256"] = hashlib.sha256(b"junk").hexdigest()
    (folder / store.MANIFEST).write_text(json.dumps(manifest))

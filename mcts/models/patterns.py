"""The pattern weights a Reversi tree model carries: ``patterns.npz`` beside
its data files, listed in the manifest with its sha256.

The manifest's ``"patterns"`` entry::

    {"file": "patterns.npz", "bytes": ..., "sha256": "...",
     "built": {"command": "python -m mcts train-patterns ...", ...the fit}}

:func:`parse_patterns` reads and checks the file (a missing, damaged or
mismatching file raises :class:`ModelError` naming it); :func:`write_patterns`
writes it into a model folder being saved; :func:`attach_patterns` puts new
weights into an existing model (the ``train-patterns --model`` command).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..games.base import Game
from ..search.reversi_patterns import PatternWeights, from_bytes
from .fileformat import MANIFEST, fault
from .reader import read_manifest

#: The weights file's name in a model folder.
PATTERNS_FILE = "patterns.npz"
#: The games whose models may carry pattern weights.
PATTERN_GAMES = ("reversi",)


def parse_patterns(folder: Path, game: Game, manifest: dict) -> PatternWeights | None:
    """Return the pattern weights the manifest lists, checked against their
    sha256, or None if it lists none; ModelError naming the file otherwise."""
    entry = manifest.get("patterns")
    if entry is None:
        return None
    if game.name not in PATTERN_GAMES:
        raise fault(folder, MANIFEST, None, f"{game.name} has no pattern evaluation")
    if not (
        isinstance(entry, dict)
        and entry.get("file") == PATTERNS_FILE
        and isinstance(entry.get("sha256"), str)
        and isinstance(entry.get("built", {}), dict)
    ):
        raise fault(folder, MANIFEST, None, "bad patterns entry")
    try:
        data = (folder / PATTERNS_FILE).read_bytes()
    except OSError as error:
        raise fault(
            folder, PATTERNS_FILE, None, f"cannot read ({error.strerror})"
        ) from None
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise fault(folder, PATTERNS_FILE, None, "sha256 does not match the manifest")
    try:
        return from_bytes(data, entry.get("built", {}))
    except ValueError as error:
        raise fault(folder, PATTERNS_FILE, None, str(error)) from None


def write_patterns(folder: Path, weights: PatternWeights) -> dict:
    """Write ``weights`` into the model folder ``folder``; return the
    manifest entry."""
    data = weights.to_bytes()
    path = folder / PATTERNS_FILE
    with open(path, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    return {
        "file": PATTERNS_FILE,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "built": dict(weights.fitted),
    }


def attach_patterns(folder: Path, weights: PatternWeights, *, command: str) -> Path:
    """Put ``weights`` (made by ``command``) into the Reversi model at
    ``folder``: write the file, then the manifest that lists it (replaced
    atomically); return the file's path."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest.get("game") not in PATTERN_GAMES:
        raise fault(folder, MANIFEST, None, "only a reversi model carries patterns")
    fitted = dict(weights.fitted)
    fitted["command"] = command
    weights = PatternWeights(weights.weights, weights.scale, fitted)
    manifest["patterns"] = write_patterns(folder, weights)
    temp = folder / (MANIFEST + ".tmp")
    temp.write_text(json.dumps(manifest, sort_keys=True, indent=1) + "\n", "utf-8")
    os.replace(temp, folder / MANIFEST)
    return folder / PATTERNS_FILE

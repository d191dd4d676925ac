"""The weights files a tree model carries beside its data files, each listed
in the manifest with its sha256: a Reversi model's pattern evaluation
(``patterns.npz``), a Gomoku model's policy-value network
(``network.npz``) and its alpha-beta's shape weights (``shapes.npz``).

A manifest entry reads::

    "patterns": {"file": "patterns.npz", "bytes": ..., "sha256": "...",
                 "built": {"command": "python -m mcts.lab train-patterns ...", ...}}

:func:`parse_weights` reads and checks a kind's file (a missing, damaged or
mismatching file raises :class:`ModelError` naming it); :func:`write_weights`
writes it into a model folder being saved; :func:`attach_weights` puts new
weights into an existing model (``train-patterns --model``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import write_text_atomically
from ..games.base import Game
from ..search.gomoku import network
from ..search.gomoku import weights as gomoku_weights
from ..search.reversi import patterns as reversi_patterns
from .fileformat import MANIFEST, fault
from .reader import read_manifest


@dataclass(frozen=True)
class WeightsKind:
    """One kind of weights file: its manifest key and file name, the games
    whose models may carry it, how to read its bytes (``parse(data, built)``)
    and the attribute of the weights that holds what their training recorded."""

    key: str
    file: str
    games: tuple[str, ...]
    parse: Callable[[bytes, dict], Any]
    record: str


PATTERNS = WeightsKind(
    "patterns", "patterns.npz", ("reversi",), reversi_patterns.from_bytes, "fitted"
)
NETWORK = WeightsKind(
    "network", "network.npz", ("gomoku",), network.from_bytes, "trained"
)
SHAPES = WeightsKind(
    "shapes", "shapes.npz", ("gomoku",), gomoku_weights.from_bytes, "fitted"
)
#: Every kind, in the order a manifest lists them.
KINDS = (PATTERNS, NETWORK, SHAPES)


def parse_weights(folder: Path, game: Game, manifest: dict, kind: WeightsKind):
    """Return the weights of ``kind`` the manifest lists, checked against
    their sha256, or None if it lists none; ModelError naming the file."""
    entry = manifest.get(kind.key)
    if entry is None:
        return None
    if game.name not in kind.games:
        raise fault(folder, MANIFEST, None, f"{game.name} has no {kind.key} weights")
    if not (
        isinstance(entry, dict)
        and entry.get("file") == kind.file
        and isinstance(entry.get("sha256"), str)
        and isinstance(entry.get("built", {}), dict)
    ):
        raise fault(folder, MANIFEST, None, f"bad {kind.key} entry")
    try:
        data = (folder / kind.file).read_bytes()
    except OSError as error:
        raise fault(
            folder, kind.file, None, f"cannot read ({error.strerror})"
        ) from None
    if hashlib.sha256(data).hexdigest() != entry["sha256"]:
        raise fault(folder, kind.file, None, "sha256 does not match the manifest")
    try:
        return kind.parse(data, entry.get("built", {}))
    except ValueError as error:
        raise fault(folder, kind.file, None, str(error)) from None


def write_weights(folder: Path, kind: WeightsKind, weights) -> dict:
    """Write ``weights`` of ``kind`` into the model folder ``folder``; return
    the manifest entry."""
    data = weights.to_bytes()
    with open(folder / kind.file, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    return {
        "file": kind.file,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "built": dict(getattr(weights, kind.record)),
    }


def attach_weights(folder: Path, kind: WeightsKind, weights) -> Path:
    """Put ``weights`` of ``kind`` into the model at ``folder``: write the
    file, then the manifest that lists it (replaced atomically); return the
    file's path."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest.get("game") not in kind.games:
        raise fault(
            folder,
            MANIFEST,
            None,
            f"only a {' or '.join(kind.games)} model carries {kind.key}",
        )
    manifest[kind.key] = write_weights(folder, kind, weights)
    write_text_atomically(
        folder / MANIFEST, json.dumps(manifest, sort_keys=True, indent=1) + "\n"
    )
    return folder / kind.file

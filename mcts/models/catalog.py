"""The tree models on disk: what is there, read from each model's manifest.

>>> from pathlib import Path
>>> [m.name for m in list_models(Path("/nonexistent"), "reversi")]
[]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .model import ModelError, info
from .store import MANIFEST, load, read_manifest


@dataclass(frozen=True)
class ModelSummary:
    """A model on disk: its folder name, node count, size of its files in
    bytes, and how it was built (the manifest's ``built`` record, or None)."""

    name: str
    nodes: int
    bytes: int
    built: dict | None

    def to_json(self) -> dict:
        """Return the summary as a JSON-ready dict."""
        return {
            "name": self.name,
            "nodes": self.nodes,
            "bytes": self.bytes,
            "built": self.built,
        }


def list_models(folder: Path, game: str) -> list[ModelSummary]:
    """Return the models of ``game`` under ``folder`` (``folder/game/NAME``),
    sorted by name. A folder without a readable, valid manifest is not a
    model and is left out; its data files are not read."""
    root = Path(folder) / game
    if not root.is_dir():
        return []
    found = []
    for path in sorted(root.iterdir()):
        if not (path / MANIFEST).is_file():
            continue
        try:
            manifest = read_manifest(path)
        except ModelError:
            continue
        found.append(
            ModelSummary(
                name=path.name,
                nodes=manifest["nodes"],
                bytes=sum(f.stat().st_size for f in path.iterdir() if f.is_file()),
                built=manifest.get("built"),
            )
        )
    return found


def model_info(path: Path) -> dict:
    """Return the JSON-ready summary of the model in the folder ``path``
    (node count, depth, bytes, root visits, top lines, how it was built),
    checking its files quickly (not replaying every state)."""
    return info(load(path, check="fast"))

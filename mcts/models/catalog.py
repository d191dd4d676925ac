"""The tree models on disk: what is there, read from each model's manifest.

>>> from pathlib import Path
>>> [m.name for m in list_models(Path("/nonexistent"), "reversi")]
[]
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .fileformat import fault, fault_at
from .model import ModelError, info
from .packed import packed_name, read_packed_manifest, unpacked_state
from .reader import LineReader
from .store import MANIFEST, NODES, STATES, load, read_manifest
from .weights import NETWORK


@dataclass(frozen=True)
class ModelSummary:
    """A model on disk: its folder name, node count, size of its files in
    bytes, how it was built (the manifest's ``built`` record, or None), what
    is wrong with it if it is damaged (None when it looks whole), and whether
    it is still packed (``NAME.tar.xz``, ``bytes`` then the archive's size;
    :func:`mcts.models.packed.unpack` unpacks it), the game options it was
    built for (a Gomoku model's board size and row) and whether it carries a
    policy-value network (which plays only on that board)."""

    name: str
    nodes: int | None
    bytes: int
    built: dict | None
    damaged: str | None = None
    packed: bool = False
    options: dict | None = None
    network: bool = False

    def to_json(self) -> dict:
        """Return the summary as a JSON-ready dict."""
        return {
            "name": self.name,
            "nodes": self.nodes,
            "bytes": self.bytes,
            "built": self.built,
            "damaged": self.damaged,
            "packed": self.packed,
            "options": self.options,
            "network": self.network,
        }


def list_models(folder: Path, game: str) -> list[ModelSummary]:
    """Return the models of ``game`` under ``folder`` (``folder/game/NAME``),
    sorted by name: every folder with a ``manifest.json`` except hidden ones
    (a save's temporary folders), and every packed model ``NAME.tar.xz`` not
    unpacked yet (a model both packed and unpacked is listed as its folder,
    unless the folder holds an older model than the archive: then as packed).

    A damaged model is listed with ``damaged`` saying what is wrong, naming
    the file (and line) inside the model's folder, never the folder's path
    on this machine. Only the manifest is read, and the data files' sizes
    compared with it (so a truncated file is caught); the lines themselves are
    checked when the model is loaded."""
    root = Path(folder) / game
    if not root.is_dir():
        return []
    found = []
    paths = sorted(root.iterdir())
    # Decided from this one reading of the folder and one reading of each
    # unpacked manifest: an unpack that renames its folder into place, or
    # sets a stale one aside, must not hide the model from both sides.
    names = {path.name for path in paths}
    archives = set()
    for path in paths:
        name = packed_name(path)
        if name is None or not path.is_file():
            continue
        archives.add(name)
        if name in names and unpacked_state(path) == "current":
            found.append(_folder_summary(root / name, game))
        else:  # not unpacked (yet), or a folder left from an older archive
            found.append(_packed_summary(path, name, game))
    for path in paths:
        if path.name in archives or path.name.startswith("."):
            continue
        if packed_name(path) is None and (path / MANIFEST).is_file():
            found.append(_folder_summary(path, game))
    return sorted(found, key=lambda model: model.name)


def _folder_summary(path: Path, game: str) -> ModelSummary:
    """Return the summary of the model folder ``path`` (damaged, naming the
    file inside it, if it cannot be read or is of another game)."""
    try:
        size = sum(f.stat().st_size for f in path.iterdir() if f.is_file())
    except OSError:
        size = 0
    try:
        manifest = read_manifest(path)
        _check_listed(path, manifest, game)
    except ModelError as error:
        return ModelSummary(path.name, None, size, None, _local(error, path))
    return _summary(path.name, manifest, size)


def _packed_summary(archive: Path, name: str, game: str) -> ModelSummary:
    """Return the summary of the model ``name`` packed in ``archive``, from
    its manifest alone (damaged if it cannot be read or is of another game)."""
    try:
        size = archive.stat().st_size
    except OSError:
        size = 0
    try:
        manifest = read_packed_manifest(archive)
        if manifest.get("game") != game:
            where = f"{archive}: {name}/{MANIFEST}"
            raise fault_at(where, None, f"the model is for {manifest.get('game')!r}")
    except ModelError as error:
        damaged = _local(error, archive)
        return ModelSummary(name, None, size, None, damaged, packed=True)
    return _summary(name, manifest, size, packed=True)


def _summary(name: str, manifest: dict, size: int, *, packed=False) -> ModelSummary:
    """Return the summary of a whole model from its (checked) manifest."""
    built, options = manifest.get("built"), manifest.get("options")
    return ModelSummary(
        name=name,
        nodes=manifest["nodes"],
        bytes=size,
        built=built if isinstance(built, dict) else None,
        packed=packed,
        options=options if isinstance(options, dict) else None,
        network=NETWORK.key in manifest,
    )


def _check_listed(path: Path, manifest: dict, game: str) -> None:
    """Raise ModelError if the manifest is of another game, or a data file
    is missing or not the size the manifest says (then its lines are read,
    to name the first damaged one as loading would)."""
    if manifest.get("game") != game:
        raise fault(path, MANIFEST, None, f"the model is for {manifest.get('game')!r}")
    for name in (NODES, STATES):
        entry = manifest["files"][name]
        try:
            size = (path / name).stat().st_size
        except OSError as error:
            raise fault(path, name, None, f"cannot read ({error.strerror})") from None
        expected = entry.get("bytes")
        if type(expected) is not int or size == expected:
            continue
        for _ in LineReader(path, name, entry, manifest["nodes"]).blocks_of_lines():
            pass
        raise fault(path, name, None, f"{size} bytes, the manifest says {expected}")


def _local(error: ModelError, path: Path) -> str:
    """Return the error's text with the model's folder left out, so no
    server path reaches a client (``nodes.jsonl line 9: ...``)."""
    text = str(error).replace(str(path) + os.sep, "")
    return text.replace(str(path), path.name).replace(
        str(path.parent), path.parent.name
    )


def model_info(path: Path) -> dict:
    """Return the JSON-ready summary of the model in the folder ``path``
    (node count, depth, bytes, root visits, top lines, how it was built),
    checking its files quickly (not replaying every state)."""
    return info(load(path, check="fast"))

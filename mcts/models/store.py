"""Tree models on disk: save and load them, and find them by name.

The public face of the model files. The format is described in
:mod:`mcts.models.fileformat`; :func:`save` is
:func:`mcts.models.writer.save` (atomic: written beside the target, fsynced,
swapped in; format version 2 unless told 1). :func:`load` reads the manifest
and the nodes (:mod:`mcts.models.reader`) and checks the states
(:mod:`mcts.models.checker`), or for a version 2 model both with
:mod:`mcts.models.version2`; any fault raises :class:`ModelError` naming the
file and line, and no half-loaded tree escapes.

The model in memory (pruning, merging, warm starts) is :mod:`mcts.models.model`.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

from ..games.base import Game
from . import version2
from .checker import check_file_digests, check_states
from .fileformat import BLOCK_LINES, FORMAT, MANIFEST, NODES, STATES, VERSION
from .model import Model, ModelError
from .reader import (
    manifest_game,
    parse_evaluation,
    parse_root,
    read_manifest,
    read_nodes,
)
from .weights import NETWORK, PATTERNS, SHAPES, parse_weights
from .writer import code_version, save

__all__ = [
    "BLOCK_LINES",
    "FORMAT",
    "MANIFEST",
    "MODEL_DIR",
    "NODES",
    "STATES",
    "VERSION",
    "ModelError",
    "code_version",
    "load",
    "load_shared",
    "model_path",
    "read_manifest",
    "save",
]


def load(
    path: str | os.PathLike, *, game: Game | None = None, check: str = "full"
) -> Model:
    """Load the model folder ``path``; return a :class:`Model`.

    Checks the manifest (format, version, game and options against ``game``
    when given, checksums) and every line of both data files: dense ids,
    parents before children with each node's children consecutive, moves well
    formed. With ``check="full"`` (the default) every move is also checked
    legal in its parent's position and every state line against the replayed
    position (:mod:`mcts.models.replay`, about a second per million nodes);
    ``check="fast"`` leaves that to the checksums.
    Raises ModelError naming the file and line of the first fault.
    """
    if check not in ("full", "fast"):
        raise ValueError(f"check must be 'full' or 'fast', got {check!r}")
    folder = Path(path)
    manifest = read_manifest(folder)
    model_game = manifest_game(folder, manifest, game)
    root = parse_root(folder, model_game, manifest)
    evaluation = parse_evaluation(folder, model_game, manifest)
    patterns = parse_weights(folder, model_game, manifest, PATTERNS)
    network = parse_weights(folder, model_game, manifest, NETWORK)
    shape_weights = parse_weights(folder, model_game, manifest, SHAPES)
    count = manifest["nodes"]
    files = manifest["files"]
    # The parsed records are freed block by block and hold no cycles, so the
    # cyclic collector would only rescan them: off while loading (about 20%).
    collecting = gc.isenabled()
    gc.disable()
    v2 = manifest["version"] == 2
    try:
        if v2:
            tree = version2.read_nodes(folder, model_game, root, count, files[NODES])
        else:
            tree = read_nodes(folder, model_game, root, count, files[NODES])
        if check == "full":
            check_all = version2.check_states if v2 else check_states
            check_all(folder, model_game, root, tree, files[STATES])
        elif v2:
            version2.read_checked(folder, STATES, files[STATES], count)
        else:
            check_file_digests(folder / STATES, files[STATES], count)
    finally:
        if collecting:
            gc.enable()
    return Model(
        model_game,
        tree,
        root,
        manifest,
        folder,
        evaluation,
        patterns,
        network,
        shape_weights,
    )


# ---- models by name -----------------------------------------------------------------
MODEL_DIR = Path(__file__).resolve().parents[2] / "model"


def model_path(
    game_name: str, name: str, model_dir: str | os.PathLike = MODEL_DIR
) -> Path:
    """Return the folder of model ``name``: itself if it is a path (holds a
    separator or starts with a dot), else ``model_dir/<game>/<name>``."""
    if os.sep in name or name.startswith("."):
        return Path(name)
    return Path(model_dir) / game_name / name


_CACHE: dict[tuple, Model] = {}


def load_shared(path: str | os.PathLike, *, check: str = "full") -> Model:
    """Return the model at ``path``, loading it once per process (many games
    share one read-only copy); a model saved again since is reloaded."""
    folder = Path(path).resolve()
    try:
        stamp = (folder / MANIFEST).stat().st_mtime_ns
    except OSError as error:
        raise ModelError(f"no model at {folder}: {error.strerror}") from None
    key = (str(folder), stamp, check)
    model = _CACHE.get(key)
    if model is None:
        for old in [k for k in _CACHE if k[0] == str(folder)]:
            del _CACHE[old]
        model = _CACHE[key] = load(folder, check=check)
    return model

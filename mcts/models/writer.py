"""Saving a tree model: the data files line by line with their digests,
then an atomic swap into place.

:func:`save` is atomic: the files are written to a temporary folder beside the
target, fsynced, and swapped in by one ``renameat2(RENAME_EXCHANGE)`` (or two
renames where the kernel lacks it).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import os
import shutil
import tempfile
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from ..games.base import Game, State
from ..search.tree import Tree, depth_of
from . import version2
from .fileformat import (
    BLOCK_LINES,
    FORMAT,
    MANIFEST,
    NODES,
    PROVEN_JSON,
    STATES,
    VERSION,
    VERSIONS,
)
from .model import Model, prune
from .weights import NETWORK, PATTERNS, SHAPES, write_weights


def code_version() -> str:
    """Return the version of this package written into manifests."""
    try:
        return version("mcts")
    except Exception:  # not installed as a distribution: the format version
        return f"format-{VERSION}"


def save(
    model: Model,
    path: str | os.PathLike,
    *,
    min_visits: int = 1,
    built: dict | None = None,
    progress=None,
    version: int = VERSION,
) -> dict:
    """Write ``model`` to the folder ``path`` atomically; return the manifest.

    The tree is pruned by ``min_visits`` (see :func:`prune`) and renumbered
    breadth first. ``built`` replaces the manifest's build description; the
    created time is kept from ``model.manifest`` when it has one, so saving an
    unchanged loaded model reproduces its files byte for byte. ``progress``,
    if given, is called with the count of nodes written now and then.
    ``version`` is the format version to write (1 for readers that know no
    other).
    """
    if version not in VERSIONS:
        raise ValueError(f"format version must be one of {VERSIONS}, got {version!r}")
    target = Path(path)
    game = model.game
    tree = prune(model.tree, min_visits)
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    os.chmod(temp, 0o755)  # mkdtemp makes it private; a model is for everyone to read
    try:
        write_data = version2.write_data if version == 2 else _write_data
        files = write_data(game, model.root_state, tree, temp, progress)
        old = model.manifest or {}
        manifest = {
            "format": FORMAT,
            "version": version,
            "game": game.name,
            "options": dict(game.options),
            "nodes": int(tree.size),
            "root": game.state_string(model.root_state),
            "root_visits": int(tree.visits[0]),
            "depth": depth_of(tree),
            "min_visits": int(min_visits),
            "built": built
            if built is not None
            else old.get("built", {"by": "unknown"}),
            "created": old.get("created") or _now(),
            "files": files,
        }
        if model.evaluation is not None:
            manifest["evaluation"] = model.evaluation.to_json()
        if model.patterns is not None:
            manifest["patterns"] = write_weights(temp, PATTERNS, model.patterns)
        if model.network is not None:
            manifest["network"] = write_weights(temp, NETWORK, model.network)
        if model.shape_weights is not None:
            manifest["shapes"] = write_weights(temp, SHAPES, model.shape_weights)
        with open(temp / MANIFEST, "w", encoding="utf-8") as out:
            out.write(json.dumps(manifest, sort_keys=True, indent=1) + "\n")
            out.flush()
            os.fsync(out.fileno())
        fsync_dir(temp)
        _swap_in(temp, target)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return manifest


def _json_text(text: str | None) -> str:
    """Return ``text`` as JSON: a move needs no escaping (letters, digits, -, x)."""
    return "null" if text is None else f'"{text}"'


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class _Writer:
    """A data file written line by line with its sha256 and block digests."""

    def __init__(self, path: Path) -> None:
        self.file = open(path, "wb")  # noqa: SIM115 - closed in finish()
        self.whole = hashlib.sha256()
        self.block = hashlib.sha256()
        self.blocks: list[str] = []
        self.lines = 0
        self.bytes = 0
        self.buffer: list[bytes] = []

    def write(self, text: str) -> None:
        data = (text + "\n").encode("utf-8")
        self.buffer.append(data)
        self.whole.update(data)
        self.block.update(data)
        self.lines += 1
        self.bytes += len(data)
        if self.lines % BLOCK_LINES == 0:
            self.blocks.append(self.block.hexdigest()[:16])
            self.block = hashlib.sha256()
            self.file.write(b"".join(self.buffer))
            self.buffer.clear()

    def finish(self) -> dict:
        if self.lines % BLOCK_LINES:
            self.blocks.append(self.block.hexdigest()[:16])
        self.file.write(b"".join(self.buffer))
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        return {
            "sha256": self.whole.hexdigest(),
            "bytes": self.bytes,
            "lines": self.lines,
            "block_lines": BLOCK_LINES,
            "blocks": self.blocks,
        }


def _write_data(game: Game, root: State, tree: Tree, folder: Path, progress) -> dict:
    """Write nodes.jsonl and states.jsonl of a breadth-first tree; return their
    checksum entries for the manifest."""
    nodes, states = _Writer(folder / NODES), _Writer(folder / STATES)
    try:
        parent, move = tree.parent, tree.move
        visits, value_sum, proven = tree.visits, tree.value_sum, tree.proven
        pending = {0: root}  # states of nodes whose children are still to come
        lowest = 0
        for node in range(tree.size):
            if node == 0:
                state, text, up = root, None, -1
            else:
                up = int(parent[node])
                while lowest < up:  # breadth first: parents below ``up`` are done
                    pending.pop(lowest, None)
                    lowest += 1
                before = pending[up]
                code = int(move[node])
                text = game.format_move(before, code)
                state = game.apply(before, code)
            if tree.first_child[node] >= 0:
                pending[node] = state
            # The lines json.dumps(sort_keys=True, separators=(",", ":")) would
            # write, formatted directly: three times faster. Moves and states
            # need no escaping.
            nodes.write(
                f'{{"id":{node},"move":{_json_text(text)},'
                f'"parent":{up},"proven":{PROVEN_JSON[int(proven[node])]},'
                f'"value":{float(value_sum[node])!r},"visits":{int(visits[node])}}}'
            )
            states.write(
                f'{{"id":{node},"side":"{game.to_move(state)}",'
                f'"state":"{game.state_string(state)}"}}'
            )
            if progress is not None and node % 65536 == 0:
                progress(node)
        return {NODES: nodes.finish(), STATES: states.finish()}
    except BaseException:
        nodes.file.close()
        states.file.close()
        raise


def fsync_dir(path: Path) -> None:
    """Flush the folder ``path`` itself to disk (the names in it: a rename
    into it is durable only then)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _swap_in(temp: Path, target: Path) -> None:
    """Put the folder ``temp`` at ``target``, the old model (if any) never
    half-replaced: an atomic exchange, or rename old aside then new in."""
    if not target.exists():
        os.rename(temp, target)
    elif not _exchange(temp, target):
        aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        os.rmdir(aside)
        os.rename(target, aside)
        os.rename(temp, target)
        temp = aside
    fsync_dir(target.parent)
    shutil.rmtree(temp, ignore_errors=True)  # after the exchange it holds the old model


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with renameat2(RENAME_EXCHANGE); return False
    where the C library or the file system lacks it."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(
        at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange
    )
    return result == 0

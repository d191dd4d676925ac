"""The on-disk format of a tree model: file names, versions, and the fault.

A model is a folder ``model/<game>/<name>/`` with three files (the format is
documented in ``docs/models.md``):

- ``manifest.json``: format version, game and options, node count, root
  state, how it was built, created time, and a sha256 of each data file plus
  one short digest per block of :data:`BLOCK_LINES` lines (so a damaged byte
  is reported with the lines it is in); and, where the game has one, the
  evaluation learnt from the tree (:mod:`mcts.search.learned`);
- ``nodes.jsonl``: one node a line; ids are dense (the line number minus one)
  and breadth first, so parents come before children and every node's
  children are consecutive lines. Version 2: ``[parent,"move",visits,value,
  proven]`` (:mod:`mcts.models.compact`); version 1: ``{"id","move","parent",
  "proven","value","visits"}``;
- ``states.jsonl``: one line per node. Version 2: the position packed in a
  base64 string; version 1: ``{"id","side","state"}``.

Every line is compact JSON written one way only, so saving is deterministic:
save -> load -> save gives byte-identical files.

The writer (:mod:`mcts.models.writer`), the reader
(:mod:`mcts.models.reader`) and the full check (:mod:`mcts.models.checker`)
share the names here.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..search.tree import Proven
from .model import ModelError

FORMAT = "mcts-tree-model"
#: The version saving writes (its lines: :mod:`mcts.models.compact`).
VERSION = 2
#: The versions a loader reads: 1 (a JSON object a line) and 2.
VERSIONS = (1, 2)
MANIFEST = "manifest.json"
NODES = "nodes.jsonl"
STATES = "states.jsonl"
#: Lines per checksum block: a damaged byte is reported within this many lines.
BLOCK_LINES = 1024

# The ``proven`` field of a node line, by array value and back (Proven.text).
PROVEN_JSON = {int(proven): json.dumps(proven.text) for proven in Proven}
TEXT_TO_PROVEN = {proven.text: int(proven) for proven in Proven}
NODE_KEYS = frozenset(("id", "move", "parent", "proven", "value", "visits"))
STATE_KEYS = frozenset(("id", "side", "state"))


def fault(folder: Path, name: str, line: int | None, message: str) -> ModelError:
    """Return the ModelError naming the file ``name`` in ``folder`` and the
    ``line`` (None: the whole file) of a fault."""
    return fault_at(str(folder / name), line, message)


def fault_at(where: str, line: int | None, message: str) -> ModelError:
    """Return the ModelError of a fault at ``line`` (None: the whole file) of
    the file that ``where`` names (a path, or a member of an archive)."""
    at = where + (f" line {line}" if line is not None else "")
    return ModelError(f"{at}: {message}")


def not_json(error: json.JSONDecodeError | UnicodeDecodeError) -> str:
    """Return the fault text of bytes that ``json.loads`` refused."""
    if isinstance(error, UnicodeDecodeError):
        return f"not JSON (not UTF-8: {error.reason} at byte {error.start})"
    return f"not JSON ({error.msg})"

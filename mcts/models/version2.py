"""Reading, checking and writing the data files of a version 2 model.

The lines are those of :mod:`mcts.models.compact`. A file is read whole: its
sha256 is checked in one pass, and only when it does not match the manifest
are the block digests looked at (by :class:`~mcts.models.reader.LineReader`,
as for version 1), so a damaged byte is still reported with its line. The
lines are then parsed and checked in numba and by numpy columns; a fault is
looked at again in Python to name it, always at the lowest line that has one.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from ..games.base import Game, IllegalMoveError, InvalidMoveError, State
from ..search.tree import Proven, Tree
from . import compact
from .fileformat import BLOCK_LINES, NODES, STATES, fault, not_json
from .model import ModelError
from .reader import LineReader, tree_of_columns

#: What a node line holds, in order.
NODE_FIELDS = ("parent", "move", "visits", "value", "proven")
_PROVEN_VALUES = np.array(sorted(int(p) for p in Proven))


def read_checked(folder: Path, name: str, entry: dict, count: int) -> bytes:
    """Return the bytes of the data file ``name``, checked against its
    manifest entry (sha256, ``count`` lines); on a mismatch raise the
    ModelError that names the first damaged line or block."""
    reader = LineReader(folder, name, entry, count)
    try:
        data = (folder / name).read_bytes()
    except OSError as error:
        raise fault(folder, name, None, f"cannot read ({error.strerror})") from None
    if (
        data.count(b"\n") == count
        and data.endswith(b"\n")
        and hashlib.sha256(data).hexdigest() == entry["sha256"]
    ):
        return data
    del data
    for _ in reader.blocks_of_lines():  # raises the first fault, block by block
        pass
    raise reader.error(None, "does not match the manifest")  # pragma: no cover


# ---- nodes --------------------------------------------------------------------------
def read_nodes(folder: Path, game: Game, root: State, count: int, entry: dict) -> Tree:
    """Return the Tree of a version 2 nodes.jsonl, every line checked."""
    data = read_checked(folder, NODES, entry, count)
    columns = compact.parse_nodes(data, count)
    faults: list[tuple[int, str]] = []  # (index of the line, message)
    if columns.bad >= 0:
        faults.append((columns.bad, _node_line_fault(_line(data, columns.bad))))
        count = columns.bad  # the columns hold the lines before it
    del data
    parent = columns.parent[:count]
    keys = columns.move_key[:count]
    if count and (parent[0] != -1 or keys[0] != 0):
        faults.append((0, "the root needs parent -1 and move null"))
    ids = np.arange(1, max(count, 1), dtype=np.int32)
    missing = np.flatnonzero((parent[1:] < 0) | (parent[1:] >= ids)) + 1
    if missing.size:
        i = int(missing[0])
        faults.append((i, f"parent {int(parent[i])} is missing (parents come first)"))
    # line k + 2 has a smaller parent than line k + 1
    unordered = np.flatnonzero(parent[2:] < parent[1:-1]) + 2
    if unordered.size:
        i = int(unordered[0])
        faults.append((i, f"parent {int(parent[i])} out of breadth-first order"))
    visits, value = columns.visits[:count], columns.value[:count]
    bad = (
        (visits < 0)
        | (visits >= 2**31)
        | ~np.isfinite(value)
        | (value < -1e-3)
        | (value > visits * 1.000001 + 1e-3)
    )
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        faults.append((i, f"bad visits {int(visits[i])} or value sum {value[i]}"))
    proven = columns.proven[:count]
    unknown = np.flatnonzero(~np.isin(proven, _PROVEN_VALUES))
    if unknown.size:
        i = int(unknown[0])
        faults.append((i, f"bad proven {int(proven[i])}"))
    moves = _move_codes(game, root, keys, faults)
    reader = LineReader(folder, NODES, entry, columns.parent.shape[0])
    if faults:
        line, message = min(faults, key=lambda item: item[0])
        raise reader.error(line + 1, message)
    return tree_of_columns(
        reader,
        count,
        parent,
        moves,
        visits,
        value.astype(np.float32),
        proven.astype(np.int8),
    )


def _move_codes(game: Game, root: State, keys: np.ndarray, faults) -> np.ndarray:
    """Return the move code of each line (-1 for the root); note the first
    line whose move is null or not in the game's notation."""
    moves = np.full(keys.shape[0], -1, dtype=np.int32)
    if keys.shape[0] < 2:
        return moves
    unique, inverse = np.unique(keys[1:], return_inverse=True)
    codes = np.empty(unique.shape[0], dtype=np.int32)
    for k, key in enumerate(unique.tolist()):
        try:
            if key == 0:
                raise InvalidMoveError("move None is not a move in notation")
            codes[k] = game.parse_move_text(root, compact.move_text(key))
        except InvalidMoveError as error:
            line = int(np.flatnonzero(keys[1:] == key)[0]) + 1
            text = str(error)
            faults.append((line, text if key == 0 else f"bad move: {text}"))
            codes[k] = -1
    moves[1:] = codes[inverse]
    return moves


def _line(data: bytes, index: int) -> bytes:
    """Return line ``index`` (0-based) of ``data``, with its newline."""
    start = 0
    for _ in range(index):
        start = data.index(b"\n", start) + 1
    stop = data.find(b"\n", start)
    return data[start : len(data) if stop < 0 else stop + 1]


def _node_line_fault(raw: bytes) -> str:
    """Return what is wrong with a node line the numba parser refused."""
    try:
        rec = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return not_json(error)
    if type(rec) is not list or len(rec) != len(NODE_FIELDS):
        return "expected an array [" + ", ".join(NODE_FIELDS) + "]"
    kinds = {
        "parent": (int,),
        "move": (str, type(None)),
        "visits": (int,),
        "value": (int, float),
        "proven": (int,),
    }
    for name, value in zip(NODE_FIELDS, rec, strict=True):
        if type(value) not in kinds[name] or (
            type(value) is int and abs(value) >= 10**15
        ):
            return f"bad {name} {value!r}"
    if type(rec[1]) is str and not 0 < len(rec[1].encode()) <= compact.MOVE_ROOM:
        return f"bad move {rec[1]!r}"
    return "not in the saved form (no spaces, moves in lower case)"


# ---- states -------------------------------------------------------------------------
def check_states(
    folder: Path, game: Game, root: State, tree: Tree, entry: dict
) -> None:
    """Replay every move (each must be legal: a fault in nodes.jsonl) and
    compare every states.jsonl line with the one saving writes; raise the
    fault at the lowest line."""
    data = read_checked(folder, STATES, entry, tree.size)
    width = compact.state_width(game, root)
    wrong_width = None
    if len(data) != tree.size * width:
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        lengths = np.diff(np.concatenate(([-1], ends)))
        wrong_width = int(np.flatnonzero(lengths != width)[0])
        data = b""  # the walk below compares nothing
    illegal, bad_state, _ = compact.walk_states(
        game,
        tree,
        root,
        np.frombuffer(data, dtype=np.uint8) if data else None,
    )
    if not data:
        bad_state = -1 if wrong_width is None else wrong_width
    if bad_state >= 0 and (illegal < 0 or bad_state < illegal):
        raw = _line((folder / STATES).read_bytes(), bad_state)
        message = _state_line_fault(raw, game, root, width)
        raise fault(folder, STATES, bad_state + 1, message)
    if illegal >= 0:
        from .checker import position_of

        message = "not legal in its parent's position"
        try:
            parent_state = position_of(game, root, tree, int(tree.parent[illegal]))
            game.apply(parent_state, int(tree.move[illegal]))
        except (IllegalMoveError, ValueError) as error:
            message = str(error)
        raise fault(folder, NODES, illegal + 1, f"illegal move: {message}")


def _state_line_fault(raw: bytes, game: Game, root: State, width: int) -> str:
    try:
        text = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return not_json(error)
    if type(text) is not str:
        return "expected a string: the packed state"
    if len(raw) != width:
        return f"bad state encoding: {len(raw)} bytes, expected {width}"
    try:
        compact.decode_state(game, root, text)
    except ValueError as error:
        return f"bad state encoding: {error}"
    return "state does not match the position the moves reach"


# ---- writing ------------------------------------------------------------------------
def write_data(game: Game, root: State, tree: Tree, folder: Path, progress) -> dict:
    """Write nodes.jsonl and states.jsonl of a breadth-first tree; return
    their checksum entries for the manifest. Raises ModelError on a move that
    is not legal in its parent's position."""
    illegal, _, states = compact.walk_states(game, tree, root)
    if illegal >= 0:
        raise ModelError(f"node {illegal}: illegal move {int(tree.move[illegal])}")
    size = tree.size
    parent, move, first_child = (
        tree.parent[:size].tolist(),
        tree.move[:size].tolist(),
        tree.first_child[:size].tolist(),
    )
    visits = tree.visits[:size].tolist()
    values = compact.value_texts(tree.value_sum[:size])
    proven = tree.proven[:size].tolist()
    lines = [f"[-1,null,{visits[0]},{values[0]},{proven[0]}]\n"]
    pending = {0: root}  # states of expanded nodes whose children are to come
    lowest = 0
    for node in range(1, size):
        up = parent[node]
        while lowest < up:  # breadth first: parents below ``up`` are done
            pending.pop(lowest, None)
            lowest += 1
        before = pending[up]
        code = move[node]
        if first_child[node] >= 0:
            # Without its history: the kernels that grew the tree never see
            # repetitions (Lines of Action's), so a line may go on past a
            # draw by repetition; the walk above checked each move by them.
            pending[node] = game.apply(State(before.array), code)
        lines.append(
            f'[{up},"{game.format_move(before, code)}",{visits[node]},'
            f"{values[node]},{proven[node]}]\n"
        )
        if progress is not None and node % 65536 == 0:
            progress(node)
    nodes = "".join(lines).encode("ascii")
    del lines
    return {
        NODES: _write_file(folder / NODES, nodes),
        STATES: _write_file(folder / STATES, states.tobytes()),
    }


def _write_file(path: Path, data: bytes) -> dict:
    """Write ``data`` (whole lines) to ``path``, fsynced; return its manifest
    entry (sha256, bytes, lines and a digest per block of lines)."""
    with open(path, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10) + 1
    cuts = [0, *ends[BLOCK_LINES - 1 :: BLOCK_LINES].tolist()]
    if cuts[-1] != len(data):
        cuts.append(len(data))
    view = memoryview(data)
    return {
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "lines": int(ends.shape[0]),
        "block_lines": BLOCK_LINES,
        "blocks": [
            hashlib.sha256(view[a:b]).hexdigest()[:16]
            for a, b in zip(cuts, cuts[1:], strict=False)
        ],
    }

"""Reading a tree model: the manifest, then nodes.jsonl streamed by blocks.

Every block of lines is checked against its digest before it is used, then
parsed in one ``json.loads`` and checked by columns (dense ids, parents before
children with each node's children consecutive, moves well formed); any fault
raises :class:`~mcts.models.model.ModelError` naming the file and line.
"""

from __future__ import annotations

import hashlib
import json
import operator
from collections.abc import Iterator
from itertools import islice, repeat
from pathlib import Path

import numpy as np

from ..games import find_game
from ..games.base import Game, InvalidMoveError, State
from ..search.learned import Evaluation
from ..search.learned import from_json as evaluation_from_json
from ..search.tree import MAX_CAPACITY, Tree
from .fileformat import (
    BLOCK_LINES,
    FORMAT,
    MANIFEST,
    NODE_KEYS,
    NODES,
    STATES,
    TEXT_TO_PROVEN,
    VERSIONS,
    fault,
    fault_at,
    not_json,
)
from .model import ModelError


def read_manifest(folder: Path) -> dict:
    """Return the manifest of the model folder ``folder``, checked for its
    format and version (ModelError naming the file and line otherwise)."""
    path = folder / MANIFEST
    try:
        data = path.read_bytes()
    except OSError as error:
        raise fault(folder, MANIFEST, None, f"cannot read ({error.strerror})") from None
    return parse_manifest(data, str(path))


def parse_manifest(data: bytes, where: str) -> dict:
    """Return the manifest whose file content is ``data``, checked for its
    format, version, node count and checksums; ModelError naming ``where``
    (the file, or the archive member, it came from) and the line otherwise."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise fault_at(where, None, not_json(error)) from None
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise fault_at(where, error.lineno, not_json(error)) from None
    except RecursionError:  # arrays in arrays beyond the parser's depth
        raise fault_at(where, None, "not JSON (nested too deeply)") from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        raise fault_at(where, None, f"not JSON ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise fault_at(where, None, f"not a {FORMAT} manifest")
    version = manifest.get("version")
    if type(version) is not int or version not in VERSIONS:
        raise fault_at(
            where,
            None,
            f"format version {manifest.get('version')!r} is not supported "
            f"(expected one of {', '.join(map(str, VERSIONS))})",
        )
    nodes = manifest.get("nodes")
    if type(nodes) is not int or not 1 <= nodes <= MAX_CAPACITY:
        shown = "too large" if type(nodes) is int and nodes > 0 else repr(nodes)[:40]
        raise fault_at(where, None, f"bad node count {shown}")
    files = manifest.get("files")
    for name in (NODES, STATES):
        entry = files.get(name) if isinstance(files, dict) else None
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("sha256"), str)
            and isinstance(entry.get("blocks"), list)
            and entry.get("block_lines") == BLOCK_LINES
        ):
            raise fault_at(where, None, f"no valid checksums for {name}")
    return manifest


def manifest_game(folder: Path, manifest: dict, game: Game | None) -> Game:
    try:
        found = find_game(manifest.get("game", ""), **(manifest.get("options") or {}))
    except ValueError as error:
        raise fault(folder, MANIFEST, None, f"bad game: {error}") from None
    if game is not None and (game.name, game.options) != (found.name, found.options):
        raise fault(
            folder,
            MANIFEST,
            None,
            f"the model is for {found!r}, not {game!r}",
        )
    return found


def parse_root(folder: Path, game: Game, manifest: dict) -> State:
    try:
        return game.parse_state(str(manifest.get("root")))
    except ValueError as error:
        raise fault(folder, MANIFEST, None, f"bad root state: {error}") from None


def parse_evaluation(folder: Path, game: Game, manifest: dict) -> Evaluation | None:
    if "evaluation" not in manifest:
        return None
    try:
        return evaluation_from_json(game, manifest["evaluation"])
    except ValueError as error:
        raise fault(folder, MANIFEST, None, f"bad evaluation: {error}") from None


class LineReader:
    """Streams a data file by blocks of lines, checking each block's digest."""

    def __init__(self, folder: Path, name: str, entry: dict, count: int) -> None:
        self.folder, self.name = folder, name
        self.blocks = entry["blocks"]
        self.sha = entry["sha256"]
        self.count = count
        expected = (count + BLOCK_LINES - 1) // BLOCK_LINES
        if len(self.blocks) != expected:
            raise fault(
                folder,
                MANIFEST,
                None,
                f"{name} has {len(self.blocks)} block digests, expected {expected}",
            )

    def blocks_of_lines(self) -> Iterator[tuple[int, list[bytes]]]:
        """Yield ``(number of the first line, list of raw lines)`` per block;
        raise ModelError on a truncated line, a wrong line count or a digest
        mismatch (before the block is yielded, so no damaged line is used)."""
        whole = hashlib.sha256()
        number = 0
        try:
            handle = open(self.folder / self.name, "rb")  # noqa: SIM115
        except OSError as error:
            raise fault(
                self.folder, self.name, None, f"cannot read ({error.strerror})"
            ) from None
        with handle:
            while True:
                raws = list(islice(handle, BLOCK_LINES))
                if not raws:
                    break
                first = number + 1
                number += len(raws)
                if number > self.count:
                    raise self.error(
                        self.count + 1, f"extra line (the manifest says {self.count})"
                    )
                if not raws[-1].endswith(b"\n"):
                    raise self.error(number, "truncated line (no newline at the end)")
                data = b"".join(raws)
                whole.update(data)
                index = (first - 1) // BLOCK_LINES
                if hashlib.sha256(data).hexdigest()[:16] != self.blocks[index]:
                    raise self._damaged(first, raws)
                yield first, raws
        if number < self.count:
            raise self.error(
                number + 1, f"missing (the manifest says {self.count} lines)"
            )
        if whole.hexdigest() != self.sha:
            raise fault(
                self.folder, self.name, None, "sha256 does not match the manifest"
            )

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """Yield ``(line number, raw line)`` for every line (checked by block)."""
        for first, raws in self.blocks_of_lines():
            yield from enumerate(raws, first)

    def _damaged(self, first: int, raws: list[bytes]) -> ModelError:
        """Return the error of a block whose digest does not match: at the
        first line that is not well formed, else naming the block's lines."""
        for number, raw in enumerate(raws, first):
            try:
                json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as error:
                return self.error(number, f"damaged: {not_json(error)}")
        last = first + len(raws) - 1
        return fault(
            self.folder,
            self.name,
            None,
            f"lines {first}-{last}: checksum does not match the manifest "
            "(the file was changed after it was saved)",
        )

    def error(self, line: int | None, message: str) -> ModelError:
        return fault(self.folder, self.name, line, message)


def _parse_block(reader: LineReader, first: int, raws: list[bytes]) -> list:
    """Return the JSON values of a block's lines, one per line."""
    try:
        # One parse per block: a C loop instead of a million Python calls.
        values = json.loads(b"[" + b",".join(raws) + b"]")
        if len(values) == len(raws):
            return values
    except (json.JSONDecodeError, UnicodeDecodeError):
        pass
    for number, raw in enumerate(raws, first):
        try:
            json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise reader.error(number, not_json(error)) from None
    raise reader.error(first, "a line holds more than one value")


def _column(reader, first, values, kind, what) -> np.ndarray:
    """Return ``values`` as an int64 or float64 array; ModelError at the first
    value of the wrong type."""
    try:
        column = np.array(values)
        if column.dtype.kind == "i" or (kind == "f" and column.dtype.kind == "f"):
            return column.astype(np.int64 if kind == "i" else np.float64)
    except (OverflowError, ValueError):
        pass
    ok = (int,) if kind == "i" else (int, float)
    for i, value in enumerate(values):
        if type(value) not in ok or abs(value) >= 2**62:
            raise reader.error(first + i, f"bad {what} {value!r}")
    raise reader.error(first, f"bad {what} column")  # pragma: no cover


_GET = operator.itemgetter("id", "parent", "move", "visits", "value", "proven")


def _node_columns(reader, first, recs) -> tuple:
    """Return the six columns of a block of node records; ModelError at the
    first line that is not an object with exactly the node keys."""
    try:
        # every record has the six keys (or itemgetter fails) and six in all
        if sum(map(len, recs)) == len(NODE_KEYS) * len(recs):
            return tuple(zip(*map(_GET, recs), strict=True))
    except (KeyError, TypeError):
        pass
    for i, rec in enumerate(recs):
        if type(rec) is not dict or rec.keys() != NODE_KEYS:
            raise reader.error(
                first + i, f"expected an object with keys {sorted(NODE_KEYS)}"
            )
    raise reader.error(first, "bad block")  # pragma: no cover


def read_nodes(folder: Path, game: Game, root: State, count: int, entry: dict) -> Tree:
    """Return the Tree of nodes.jsonl, checked line by line (vectorized by block)."""
    reader = LineReader(folder, NODES, entry, count)
    parents, moves, visits, values, proofs = [], [], [], [], []
    codes: dict = {}
    last_parent = -1
    for first, raws in reader.blocks_of_lines():
        recs = _parse_block(reader, first, raws)
        id_l, up_l, move_l, n_l, w_l, proven_l = _node_columns(reader, first, recs)
        ids = np.arange(first - 1, first - 1 + len(recs))
        got = _column(reader, first, id_l, "i", "id")
        bad = np.flatnonzero(got != ids)
        if bad.size:
            i = int(bad[0])
            raise reader.error(first + i, f"id {int(got[i])} should be {int(ids[i])}")
        up = _column(reader, first, up_l, "i", "parent")
        low = 0
        if first == 1:
            if up[0] != -1 or move_l[0] is not None:
                raise reader.error(1, "the root needs parent -1 and move null")
            low = 1
        bad = np.flatnonzero((up[low:] < 0) | (up[low:] >= ids[low:]))
        if bad.size:
            i = int(bad[0]) + low
            raise reader.error(
                first + i, f"parent {int(up[i])} is missing (parents come first)"
            )
        chain = np.concatenate(([last_parent], up[low:]))
        bad = np.flatnonzero(np.diff(chain) < 0)
        if bad.size:
            i = int(bad[0]) + low
            raise reader.error(
                first + i, f"parent {int(up[i])} out of breadth-first order"
            )
        last_parent = int(chain[-1])
        try:
            block_codes = list(map(codes.get, move_l))
        except TypeError:  # an unhashable move: let _move_code name it
            block_codes = [None] * len(move_l)
        for i in range(low, len(block_codes)):
            if block_codes[i] is None:
                text = move_l[i]
                code = _move_code(game, root, text, reader, first + i)
                codes[text] = block_codes[i] = code
        if low:
            block_codes[0] = -1
        n = _column(reader, first, n_l, "i", "visits")
        w = _column(reader, first, w_l, "f", "value sum")
        bad = np.flatnonzero(
            (n < 0) | (n >= 2**31) | (w < -1e-3) | (w > n * 1.000001 + 1e-3)
        )
        if bad.size:
            i = int(bad[0])
            raise reader.error(
                first + i, f"bad visits {int(n[i])} or value sum {float(w[i])}"
            )
        try:
            proof = list(map(TEXT_TO_PROVEN.get, proven_l, repeat(99)))
        except TypeError:
            proof = [99] * len(proven_l)
        if 99 in proof:
            i = proof.index(99)
            raise reader.error(first + i, f"bad proven {proven_l[i]!r}")
        parents.append(up)
        moves.append(np.array(block_codes, dtype=np.int32))
        visits.append(n)
        values.append(w)
        proofs.append(np.array(proof, dtype=np.int8))
    return tree_of_columns(
        reader,
        count,
        np.concatenate(parents),
        np.concatenate(moves),
        np.concatenate(visits),
        np.concatenate(values),
        np.concatenate(proofs),
    )


def tree_of_columns(
    reader: LineReader, count: int, parent, moves, visits, values, proofs
) -> Tree:
    """Return the Tree of ``count`` checked node columns (parents
    non-decreasing, each before its children)."""
    tree = Tree(max(2, count))
    tree.parent[:count] = parent
    tree.move[:count] = moves
    tree.visits[:count] = visits
    tree.value_sum[:count] = values
    tree.proven[:count] = proofs
    # Parents are non-decreasing, so each node's children are one run of ids.
    n_children = np.bincount(parent[1:], minlength=count)
    if n_children.max(initial=0) >= 2**15:
        raise reader.error(None, "a node has more children than the format allows")
    tree.n_children[:count] = n_children
    starts = np.searchsorted(parent[1:], np.arange(count)) + 1
    tree.first_child[:count] = np.where(n_children > 0, starts, -1)
    tree.size = count
    return tree


def _move_code(game: Game, root: State, text, reader: LineReader, number: int) -> int:
    if type(text) is not str:
        raise reader.error(number, f"move {text!r} is not a move in notation")
    try:
        return game.parse_move_text(root, text)
    except InvalidMoveError as error:
        raise reader.error(number, f"bad move: {error}") from None

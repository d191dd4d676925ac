"""Tree models on disk: save and load them, and find them by name.

A model is a folder ``model/<game>/<name>/`` with three files (the format is
documented in ``model/README.md``):

- ``manifest.json``: format version, game and options, node count, root
  state, how it was built, created time, and a sha256 of each data file plus
  one short digest per block of :data:`BLOCK_LINES` lines (so a damaged byte
  is reported with the lines it is in); and, where the game has one, the
  evaluation learnt from the tree (:mod:`mcts.evaluation`);
- ``nodes.jsonl``: one node a line, ``{"id","move","parent","proven",
  "value","visits"}``; ids are dense and breadth first, so parents come before
  children and every node's children are consecutive lines;
- ``states.jsonl``: one line per node, ``{"id","side","state"}``.

Every line is JSON with sorted keys and compact separators, so saving is
deterministic: save -> load -> save gives byte-identical files.

:func:`save` is atomic: the files are written to a temporary folder beside the
target, fsynced, and swapped in by one ``renameat2(RENAME_EXCHANGE)`` (or two
renames where the kernel lacks it). :func:`load` streams the files and checks
the manifest and every line; any fault raises :class:`ModelError` naming the
file and line, and no half-loaded tree escapes.

The model in memory (pruning, merging, warm starts) is :mod:`mcts.treemodel`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import hashlib
import json
import operator
import os
import shutil
import tempfile
from datetime import UTC, datetime
from itertools import islice, repeat
from pathlib import Path

import numpy as np

from ..games import find_game
from ..games.base import Game, IllegalMoveError, InvalidMoveError, State
from ..search.learned import Evaluation
from ..search.learned import from_json as evaluation_from_json
from ..search.tree import Proven, Tree, depth_of
from .model import Model, ModelError, prune
from .replay import first_bad_state_line, replay

FORMAT = "mcts-tree-model"
VERSION = 1
MANIFEST = "manifest.json"
NODES = "nodes.jsonl"
STATES = "states.jsonl"
#: Lines per checksum block: a damaged byte is reported within this many lines.
BLOCK_LINES = 1024

# The ``proven`` field of a node line, by array value and back (Proven.text).
_PROVEN_JSON = {int(proven): json.dumps(proven.text) for proven in Proven}
_TEXT_TO_PROVEN = {proven.text: int(proven) for proven in Proven}
_NODE_KEYS = frozenset(("id", "move", "parent", "proven", "value", "visits"))
_STATE_KEYS = frozenset(("id", "side", "state"))


def code_version() -> str:
    """Return the version of this package written into manifests."""
    try:
        from importlib.metadata import version

        return version("mcts")
    except Exception:  # not installed as a distribution: the format version
        return f"format-{VERSION}"


# ---- saving -----------------------------------------------------------------------
def save(
    model: Model,
    path: str | os.PathLike,
    *,
    min_visits: int = 1,
    built: dict | None = None,
    progress=None,
) -> dict:
    """Write ``model`` to the folder ``path`` atomically; return the manifest.

    The tree is pruned by ``min_visits`` (see :func:`prune`) and renumbered
    breadth first. ``built`` replaces the manifest's build description; the
    created time is kept from ``model.manifest`` when it has one, so saving an
    unchanged loaded model reproduces its files byte for byte. ``progress``,
    if given, is called with the count of nodes written now and then.
    """
    target = Path(path)
    game = model.game
    tree = prune(model.tree, min_visits)
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    os.chmod(temp, 0o755)  # mkdtemp makes it private; a model is for everyone to read
    try:
        files = _write_data(game, model.root_state, tree, temp, progress)
        old = model.manifest or {}
        manifest = {
            "format": FORMAT,
            "version": VERSION,
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
        with open(temp / MANIFEST, "w", encoding="utf-8") as out:
            out.write(json.dumps(manifest, sort_keys=True, indent=1) + "\n")
            out.flush()
            os.fsync(out.fileno())
        _fsync_dir(temp)
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
                f'"parent":{up},"proven":{_PROVEN_JSON[int(proven[node])]},'
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


def _fsync_dir(path: Path) -> None:
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
    _fsync_dir(target.parent)
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


# ---- loading ----------------------------------------------------------------------
def load(
    path: str | os.PathLike, *, game: Game | None = None, check: str = "full"
) -> Model:
    """Load the model folder ``path``; return a :class:`Model`.

    Checks the manifest (format, version, game and options against ``game``
    when given, checksums) and every line of both data files: dense ids,
    parents before children with each node's children consecutive, moves well
    formed. With ``check="full"`` (the default) every move is also checked
    legal in its parent's position and every state line against the replayed
    position (:mod:`mcts.replay`, about a second per million nodes);
    ``check="fast"`` leaves that to the checksums.
    Raises ModelError naming the file and line of the first fault.
    """
    if check not in ("full", "fast"):
        raise ValueError(f"check must be 'full' or 'fast', got {check!r}")
    folder = Path(path)
    manifest = read_manifest(folder)
    model_game = _manifest_game(folder, manifest, game)
    root = _parse_root(folder, model_game, manifest)
    evaluation = _parse_evaluation(folder, model_game, manifest)
    count = manifest["nodes"]
    files = manifest["files"]
    # The parsed records are freed block by block and hold no cycles, so the
    # cyclic collector would only rescan them: off while loading (about 20%).
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = _read_nodes(folder, model_game, root, count, files[NODES])
        if check == "full":
            _check_states(folder, model_game, root, tree, files[STATES])
        else:
            _check_file_digests(folder / STATES, files[STATES], count)
    finally:
        if collecting:
            gc.enable()
    return Model(model_game, tree, root, manifest, folder, evaluation)


def _fault(folder: Path, name: str, line: int | None, message: str) -> ModelError:
    where = str(folder / name) + (f" line {line}" if line is not None else "")
    return ModelError(f"{where}: {message}")


def _not_json(error: json.JSONDecodeError | UnicodeDecodeError) -> str:
    """Return the fault text of bytes that ``json.loads`` refused."""
    if isinstance(error, UnicodeDecodeError):
        return f"not JSON (not UTF-8: {error.reason} at byte {error.start})"
    return f"not JSON ({error.msg})"


def read_manifest(folder: Path) -> dict:
    """Return the manifest of the model folder ``folder``, checked for its
    format and version (ModelError naming the file and line otherwise)."""
    path = folder / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise _fault(
            folder, MANIFEST, None, f"cannot read ({error.strerror})"
        ) from None
    except UnicodeDecodeError as error:
        raise _fault(folder, MANIFEST, None, _not_json(error)) from None
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise _fault(folder, MANIFEST, error.lineno, _not_json(error)) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise _fault(folder, MANIFEST, None, f"not a {FORMAT} manifest")
    if manifest.get("version") != VERSION:
        raise _fault(
            folder,
            MANIFEST,
            None,
            f"format version {manifest.get('version')!r} is not supported "
            f"(expected {VERSION})",
        )
    nodes = manifest.get("nodes")
    if not isinstance(nodes, int) or nodes < 1:
        raise _fault(folder, MANIFEST, None, f"bad node count {nodes!r}")
    files = manifest.get("files")
    for name in (NODES, STATES):
        entry = files.get(name) if isinstance(files, dict) else None
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("sha256"), str)
            and isinstance(entry.get("blocks"), list)
            and entry.get("block_lines") == BLOCK_LINES
        ):
            raise _fault(folder, MANIFEST, None, f"no valid checksums for {name}")
    return manifest


def _manifest_game(folder: Path, manifest: dict, game: Game | None) -> Game:
    try:
        found = find_game(manifest.get("game", ""), **(manifest.get("options") or {}))
    except ValueError as error:
        raise _fault(folder, MANIFEST, None, f"bad game: {error}") from None
    if game is not None and (game.name, game.options) != (found.name, found.options):
        raise _fault(
            folder,
            MANIFEST,
            None,
            f"the model is for {found!r}, not {game!r}",
        )
    return found


def _parse_root(folder: Path, game: Game, manifest: dict) -> State:
    try:
        return game.parse_state(str(manifest.get("root")))
    except ValueError as error:
        raise _fault(folder, MANIFEST, None, f"bad root state: {error}") from None


def _parse_evaluation(folder: Path, game: Game, manifest: dict) -> Evaluation | None:
    if "evaluation" not in manifest:
        return None
    try:
        return evaluation_from_json(game, manifest["evaluation"])
    except ValueError as error:
        raise _fault(folder, MANIFEST, None, f"bad evaluation: {error}") from None


class _LineReader:
    """Streams a data file by blocks of lines, checking each block's digest."""

    def __init__(self, folder: Path, name: str, entry: dict, count: int) -> None:
        self.folder, self.name = folder, name
        self.blocks = entry["blocks"]
        self.sha = entry["sha256"]
        self.count = count
        expected = (count + BLOCK_LINES - 1) // BLOCK_LINES
        if len(self.blocks) != expected:
            raise _fault(
                folder,
                MANIFEST,
                None,
                f"{name} has {len(self.blocks)} block digests, expected {expected}",
            )

    def blocks_of_lines(self):
        """Yield ``(number of the first line, list of raw lines)`` per block;
        raise ModelError on a truncated line, a wrong line count or a digest
        mismatch (before the block is yielded, so no damaged line is used)."""
        whole = hashlib.sha256()
        number = 0
        try:
            handle = open(self.folder / self.name, "rb")  # noqa: SIM115
        except OSError as error:
            raise _fault(
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
            raise _fault(
                self.folder, self.name, None, "sha256 does not match the manifest"
            )

    def lines(self):
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
                return self.error(number, f"damaged: {_not_json(error)}")
        last = first + len(raws) - 1
        return _fault(
            self.folder,
            self.name,
            None,
            f"lines {first}-{last}: checksum does not match the manifest "
            "(the file was changed after it was saved)",
        )

    def error(self, line: int, message: str) -> ModelError:
        return _fault(self.folder, self.name, line, message)


def _parse_block(reader: _LineReader, first: int, raws: list[bytes]) -> list:
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
            raise reader.error(number, _not_json(error)) from None
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
        if sum(map(len, recs)) == len(_NODE_KEYS) * len(recs):
            return tuple(zip(*map(_GET, recs), strict=True))
    except (KeyError, TypeError):
        pass
    for i, rec in enumerate(recs):
        if type(rec) is not dict or rec.keys() != _NODE_KEYS:
            raise reader.error(
                first + i, f"expected an object with keys {sorted(_NODE_KEYS)}"
            )
    raise reader.error(first, "bad block")  # pragma: no cover


def _read_nodes(folder: Path, game: Game, root: State, count: int, entry: dict) -> Tree:
    """Return the Tree of nodes.jsonl, checked line by line (vectorized by block)."""
    reader = _LineReader(folder, NODES, entry, count)
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
            proof = list(map(_TEXT_TO_PROVEN.get, proven_l, repeat(99)))
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
    tree = Tree(max(2, count))
    parent = np.concatenate(parents)
    tree.parent[:count] = parent
    tree.move[:count] = np.concatenate(moves)
    tree.visits[:count] = np.concatenate(visits)
    tree.value_sum[:count] = np.concatenate(values)
    tree.proven[:count] = np.concatenate(proofs)
    # Parents are non-decreasing, so each node's children are one run of ids.
    n_children = np.bincount(parent[1:], minlength=count)
    if n_children.max(initial=0) >= 2**15:
        raise reader.error(None, "a node has more children than the format allows")
    tree.n_children[:count] = n_children
    starts = np.searchsorted(parent[1:], np.arange(count)) + 1
    tree.first_child[:count] = np.where(n_children > 0, starts, -1)
    tree.size = count
    return tree


def _move_code(game: Game, root: State, text, reader: _LineReader, number: int) -> int:
    if type(text) is not str:
        raise reader.error(number, f"move {text!r} is not a move in notation")
    try:
        return game.parse_move_text(root, text)
    except InvalidMoveError as error:
        raise reader.error(number, f"bad move: {error}") from None


def _check_states(
    folder: Path, game: Game, root: State, tree: Tree, entry: dict
) -> None:
    """Replay every node's move in its parent's position (in numba): each must
    be legal (a fault in nodes.jsonl) and each line of states.jsonl must be
    the one saving writes for the position reached. The first fault by line
    number is raised."""
    result = replay(game, tree, root)
    illegal_line = result.first_illegal + 1 if result.first_illegal >= 0 else None
    reader = _LineReader(folder, STATES, entry, tree.size)
    for first, raws in reader.blocks_of_lines():
        if illegal_line is not None and illegal_line < first:
            break
        bad = first_bad_state_line(b"".join(raws), first - 1, result)
        if bad >= 0:
            number = first + bad
            if illegal_line is not None and illegal_line <= number:
                break
            raise _state_fault(reader, number, raws[bad], game, root, tree)
    if illegal_line is not None:
        node = result.first_illegal
        message = "not legal in its parent's position"
        try:
            parent_state = _position_of(game, root, tree, int(tree.parent[node]))
            game.apply(parent_state, int(tree.move[node]))
        except (IllegalMoveError, ValueError) as error:
            message = str(error)
        raise _fault(folder, NODES, illegal_line, f"illegal move: {message}")


def _state_fault(
    reader: _LineReader, number: int, raw: bytes, game: Game, root: State, tree: Tree
) -> ModelError:
    """Return the error of a state line that is not the one saving writes."""
    node = number - 1
    try:
        rec = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return reader.error(number, _not_json(error))
    if type(rec) is not dict or rec.keys() != _STATE_KEYS or rec["id"] != node:
        return reader.error(number, f"expected {{id: {node}, side, state}}")
    state = _position_of(game, root, tree, node)
    if rec["state"] == game.state_string(state) and rec["side"] == game.to_move(state):
        return reader.error(number, "not in the saved form (sorted keys, no spaces)")
    return reader.error(number, "state does not match the position the moves reach")


def _position_of(game: Game, root: State, tree: Tree, node: int) -> State:
    """Return the position of ``node``, replaying the moves from the root."""
    path = []
    while node > 0:
        path.append(int(tree.move[node]))
        node = int(tree.parent[node])
    state = root
    for code in reversed(path):
        state = game.apply(state, code)
    return state


def _check_file_digests(path: Path, entry: dict, count: int) -> None:
    reader = _LineReader(path.parent, path.name, entry, count)
    for _ in reader.blocks_of_lines():
        pass


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

"""Version 2 of the model's data lines: a node as a short array, a state packed.

- A ``nodes.jsonl`` line is ``[parent,"move",visits,value,proven]`` (the root:
  ``[-1,null,visits,value,proven]``); the id is the line number minus one.
  ``value`` is the shortest text of 6 to 9 significant digits that reads back
  to the same float32 (what :func:`value_texts` writes), ``proven`` the
  :class:`~mcts.search.tree.Proven` value (0 unknown, 1 win, -1 loss, 2 draw).
- A ``states.jsonl`` line is one JSON string: the cells of the position's state
  string (``.`` 0, ``x`` 1, ``o`` 2, in the string's order) and then the side to
  move (``b`` 0, ``w`` 1), packed five to a byte (``c0 + 3 c1 + 9 c2 + 27 c3 +
  81 c4``) and written in base64 without padding. Every line of a model has
  the same length, so the file is a table of fixed-width rows.

Both files are read whole and checked in numba: :func:`parse_nodes` reads
every node line in the saved form (a line that is not is looked at again in
Python, to name its fault), and :func:`walk_states` replays every move from
its parent's position, writing (when saving) or comparing (when loading) each
state line. Reading and writing the format
are one job: the same packing, in numba, both ways.
"""

from __future__ import annotations

import json

import numpy as np
from numba import njit

from ..games import gomoku, kernels
from ..games.base import MAX_MOVES, STATE_STRING_ROOM, Game, State
from ..search.tree import Tree
from ..search.walk import passed_over, skip_illegal_children, state_at, walk

#: A move text is at most this many bytes (``b1xb3``, ``pass``, ``s19``).
MOVE_ROOM = 8
#: Significant digits tried for a value text, fewest first (9 always reads back).
VALUE_DIGITS = (6, 7, 8, 9)

_B64 = np.frombuffer(
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
    dtype=np.uint8,
)
_DOT, _X, _O, _SPACE, _B, _W = 46, 120, 111, 32, 98, 119
_QUOTE, _NEWLINE = 34, 10


# ---- states -------------------------------------------------------------------------
def state_cells(game: Game, root: State) -> int:
    """Return the number of cells in the game's state string (64, size x size)."""
    text = game.state_string(root)
    board = text.rsplit(" ", 1)[0]
    return sum(board.count(char) for char in ".xo")


def state_width(game: Game, root: State) -> int:
    """Return the bytes of one states.jsonl line: quotes, base64 and newline."""
    packed = (state_cells(game, root) + 1 + 4) // 5
    return (packed * 4 + 2) // 3 + 3


def encode_state(game: Game, state: State) -> str:
    """Return the states.jsonl text of ``state`` (without quotes).

    >>> from mcts.games import find_game
    >>> game = find_game("reversi")
    >>> encode_state(game, game.initial_state())
    'AAAAAAAtAAcAAAAAAA'
    """
    room = np.empty((3, STATE_STRING_ROOM), dtype=np.uint8)
    length = _encode(game.game_id, state.array, room)
    return room[2, :length].tobytes().decode()


def decode_state(game: Game, root: State, text: str) -> State:
    """Return the position of a states.jsonl text; the parts of the state
    string that are not cells (Gomoku's ``size:row:``) are the root's.
    Raises ValueError on a text that is not one."""
    import base64

    cells = state_cells(game, root)
    raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    trits = []
    for byte in raw:
        for _ in range(5):
            trits.append(byte % 3)
            byte //= 3
    template = game.state_string(root)
    chars, k = [], 0
    for char in template.rsplit(" ", 1)[0]:
        if char in ".xo":
            chars.append(".xo"[trits[k]])
            k += 1
        else:
            chars.append(char)
    if len(trits) <= cells or trits[cells] > 1:
        raise ValueError(f"not a packed state: {text!r}")
    return game.parse_state("".join(chars) + " " + "bw"[trits[cells]])


@njit(cache=True, nogil=True)
def _encode(game_id, state, room):
    """Write the base64 text of ``state`` into ``room[2]`` (``room[0]``,
    ``room[1]``: scratch); return its length.

    Reversi and Lines of Action are packed from their two bitboards (state
    vector words 0 and 1, bit = move-code square, the state string's order),
    three times faster than from the state string; Gomoku from its cells
    (words ``HEADER + code``: 0 empty, 1 black, 2 white, already the cells'
    numbers); any other game from its state string (:func:`_encode_rendered`,
    which gives the same text)."""
    if game_id == kernels.GOMOKU_ID:
        return _encode_gomoku(state, room)
    if game_id != kernels.REVERSI_ID and game_id != kernels.LOA_ID:
        return _encode_rendered(game_id, state, room)
    buffer = room[1]
    black, white = state[0], state[1]
    side = kernels.side_to_move(game_id, state)
    one = np.uint64(1)
    packed = 0
    for start in range(0, 65, 5):
        acc = 0
        power = 1
        for square in range(start, min(start + 5, 65)):
            if square == 64:
                trit = side
            else:
                bit = one << np.uint64(square)
                trit = 1 if black & bit else (2 if white & bit else 0)
            acc += trit * power
            power *= 3
        buffer[packed] = acc
        packed += 1
    return _base64(buffer, packed, room[2])


@njit(cache=True, nogil=True)
def _encode_gomoku(state, room):
    """:func:`_encode` of a Gomoku state vector."""
    buffer = room[1]
    size = np.int64(state[gomoku.SIZE])
    cells = size * size
    packed = 0
    for start in range(0, cells + 1, 5):
        acc = 0
        power = 1
        for cell in range(start, min(start + 5, cells + 1)):
            if cell == cells:
                trit = np.int64(state[gomoku.SIDE])
            else:
                trit = np.int64(state[gomoku.HEADER + cell])
            acc += trit * power
            power *= 3
        buffer[packed] = acc
        packed += 1
    return _base64(buffer, packed, room[2])


@njit(cache=True, nogil=True)
def _encode_rendered(game_id, state, room):
    """:func:`_encode` by way of the state string (every game)."""
    text, buffer = room[0], room[1]
    length = kernels.render_state(game_id, state, text)
    packed = 0
    acc = 0
    power = 1
    count = 0
    side = False
    for i in range(length):
        char = text[i]
        if side:
            trit = 1 if char == _W else 0
        elif char == _DOT:
            trit = 0
        elif char == _X:
            trit = 1
        elif char == _O:
            trit = 2
        else:
            if char == _SPACE:
                side = True
            continue
        acc += trit * power
        power *= 3
        count += 1
        if count == 5:
            buffer[packed] = acc
            packed += 1
            acc, power, count = 0, 1, 0
        if side and i > 0 and text[i - 1] == _SPACE:
            break
    if count:
        buffer[packed] = acc
        packed += 1
    return _base64(buffer, packed, room[2])


@njit(cache=True, nogil=True)
def _base64(buffer, packed, out):
    """Write ``buffer[:packed]`` in base64 without padding into ``out``;
    return its length."""
    n = 0
    for start in range(0, packed, 3):
        b0 = np.int64(buffer[start])
        b1 = np.int64(buffer[start + 1]) if start + 1 < packed else np.int64(0)
        b2 = np.int64(buffer[start + 2]) if start + 2 < packed else np.int64(0)
        word = (b0 << 16) | (b1 << 8) | b2
        chars = 4 if start + 2 < packed else (3 if start + 1 < packed else 2)
        for k in range(chars):
            out[n] = _B64[(word >> (18 - 6 * k)) & 63]
            n += 1
    return n


def walk_states(
    game: Game, tree: Tree, root: State, data: np.ndarray | None = None
) -> tuple[int, int, np.ndarray]:
    """Replay every move of ``tree`` from its parent's position (in numba).

    Without ``data``, write the states.jsonl file of the tree; with ``data``
    (that file's bytes), compare each line with the one saving writes.
    Return ``(first illegal node or -1, first node whose line differs or -1,
    the file's bytes written, or none)``; nodes under an illegal move are not
    replayed."""
    size = tree.size
    width = state_width(game, root)
    arrays = tree.arrays.head(size)
    compare = data is not None
    text = np.empty(0 if compare else size * width, dtype=np.uint8)
    # Read-only either way, as the file's bytes are: one compiled signature.
    expected = (text if data is None else data).view()
    expected.flags.writeable = False
    first_illegal, first_bad = _walk(
        game.game_id, walk(arrays, root.array), arrays, expected, text, width, compare
    )
    return int(first_illegal), int(first_bad), text


@njit(cache=True, nogil=True)
def _walk(game_id, way, tree, data, text, width, compare):
    """Walk the tree (``way``, a :class:`~mcts.search.walk.Walk`); compare each reached
    node's state line with ``data`` or write it into ``text``; return the
    lowest illegal node and the lowest node whose line differs (or -1)."""
    order, levels, states = way.order, way.levels, way.states
    first_child, n_children, move = tree.first_child, tree.n_children, tree.move
    legal = np.empty(MAX_MOVES, dtype=np.int64)
    room = np.empty((3, STATE_STRING_ROOM), dtype=np.uint8)
    out = room[2]
    skipped = np.zeros(first_child.shape[0], dtype=np.bool_)
    first_illegal = -1
    first_bad = -1
    for i in range(order.shape[0]):
        node, level = order[i], levels[i]
        if passed_over(first_child, n_children, node, skipped):
            continue
        state = state_at(game_id, states, level, move[node])
        n = _encode(game_id, state, room)
        at = node * width
        if compare:
            ok = n + 3 == width and data[at] == _QUOTE
            if ok:
                for k in range(n):
                    if data[at + 1 + k] != out[k]:
                        ok = False
                        break
            if ok:
                ok = data[at + n + 1] == _QUOTE and data[at + n + 2] == _NEWLINE
            if not ok and (first_bad < 0 or node < first_bad):
                first_bad = node
        else:
            text[at] = _QUOTE
            text[at + 1 : at + 1 + n] = out[:n]
            text[at + n + 1] = _QUOTE
            text[at + n + 2] = _NEWLINE
        first_illegal = skip_illegal_children(
            game_id,
            first_child[node],
            n_children[node],
            move,
            state,
            legal,
            skipped,
            first_illegal,
        )
    return first_illegal, first_bad


# ---- nodes --------------------------------------------------------------------------
def value_texts(values: np.ndarray) -> list[str]:
    """Return the text of each float32 value sum: the fewest significant
    digits (6 to 9) that read back (as a float64, then float32) to it."""
    exact = values.astype(np.float32)
    floats = exact.astype(np.float64).tolist()
    texts = [f"{x:.6g}" for x in floats]
    for digits in VALUE_DIGITS[1:]:
        back = np.array([float(t) for t in texts], dtype=np.float64)
        wrong = np.flatnonzero(back.astype(np.float32) != exact)
        if not wrong.size:
            break
        for i in wrong.tolist():
            texts[i] = f"{floats[i]:.{digits}g}"
    return texts


class NodeColumns:
    """The columns of a parsed nodes.jsonl: per line, the parent, the move
    text packed in a uint64 (0 for null), visits, value sum and proven; and
    ``bad``, the index of the first line not in the saved form (or -1).

    Parents and proofs out of their types' range are stored clamped (still
    out of the range a check accepts)."""

    def __init__(self, count: int) -> None:
        self.parent = np.empty(count, dtype=np.int32)
        self.move_key = np.empty(count, dtype=np.uint64)
        self.visits = np.empty(count, dtype=np.int64)
        self.value = np.empty(count, dtype=np.float64)
        self.value_exact = np.empty(count, dtype=np.bool_)
        self.proven = np.empty(count, dtype=np.int8)
        self.bad = -1


def parse_nodes(data: bytes, count: int) -> NodeColumns:
    """Return the columns of the ``count`` lines of a nodes.jsonl file."""
    columns = NodeColumns(count)
    columns.bad = int(
        _parse_nodes(
            np.frombuffer(data, dtype=np.uint8),
            columns.parent,
            columns.move_key,
            columns.visits,
            columns.value,
            columns.value_exact,
            columns.proven,
        )
    )
    parsed = count if columns.bad < 0 else columns.bad
    inexact = np.flatnonzero(~columns.value_exact[:parsed])
    if inexact.size:
        # Values with too many digits for an exact parse in numba: Python's.
        lines = data.split(b"\n")
        for i in inexact.tolist():
            columns.value[i] = float(json.loads(lines[i])[3])
    return columns


def move_text(key: int) -> str:
    """Return the move text packed in ``key`` (see :class:`NodeColumns`)."""
    return int(key).to_bytes(MOVE_ROOM, "little").rstrip(b"\0").decode("ascii")


_POW10 = np.array([10.0**k for k in range(23)])


@njit(cache=True, nogil=True)
def _integer(data, at, end):
    """Read a JSON integer at ``at``; return ``(value, position after)`` or
    ``(0, -1)`` if there is none (or it has more than 15 digits)."""
    negative = at < end and data[at] == 45  # '-'
    if negative:
        at += 1
    start = at
    value = 0
    while at < end and 48 <= data[at] <= 57:
        value = value * 10 + (data[at] - 48)
        at += 1
    digits = at - start
    if digits == 0 or digits > 15 or (digits > 1 and data[start] == 48):
        return 0, -1
    return (-value if negative else value), at


@njit(cache=True, nogil=True)
def _parse_nodes(data, parent, move_key, visits, value, exact, proven):
    count = parent.shape[0]
    at = 0
    end = data.shape[0]
    for line in range(count):
        if at >= end or data[at] != 91:  # '['
            return line
        at += 1
        number, at = _integer(data, at, end)
        if at < 0 or at >= end or data[at] != 44:  # ','
            return line
        parent[line] = max(min(number, 2**31 - 1), -(2**31))
        at += 1
        if at + 4 <= end and data[at] == 110:  # null
            if data[at + 1] != 117 or data[at + 2] != 108 or data[at + 3] != 108:
                return line
            move_key[line] = 0
            at += 4
        else:
            if at >= end or data[at] != _QUOTE:
                return line
            at += 1
            key = np.uint64(0)
            length = 0
            while at < end and data[at] != _QUOTE:
                char = data[at]
                is_word = 97 <= char <= 122 or 48 <= char <= 57 or char == 45
                if not is_word or length == MOVE_ROOM:
                    return line
                key |= np.uint64(char) << np.uint64(8 * length)
                length += 1
                at += 1
            if length == 0 or at >= end:
                return line
            move_key[line] = key
            at += 1
        if at >= end or data[at] != 44:
            return line
        at += 1
        number, at = _integer(data, at, end)
        if at < 0 or at >= end or data[at] != 44:
            return line
        visits[line] = number
        at += 1
        # the value: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        negative = at < end and data[at] == 45
        if negative:
            at += 1
        mantissa = 0
        digits = 0
        scale = 0
        start = at
        while at < end and 48 <= data[at] <= 57:
            if digits < 18:
                mantissa = mantissa * 10 + (data[at] - 48)
            else:
                scale += 1
            if mantissa > 0 or digits > 0:
                digits += 1
            at += 1
        if at == start or (at - start > 1 and data[start] == 48):
            return line
        if at < end and data[at] == 46:  # '.'
            at += 1
            start = at
            while at < end and 48 <= data[at] <= 57:
                if digits < 18:
                    mantissa = mantissa * 10 + (data[at] - 48)
                    scale -= 1
                if mantissa > 0 or digits > 0:
                    digits += 1
                at += 1
            if at == start:
                return line
        if at < end and (data[at] == 101 or data[at] == 69):  # e E
            at += 1
            sign = 1
            if at < end and (data[at] == 43 or data[at] == 45):
                sign = -1 if data[at] == 45 else 1
                at += 1
            start = at
            power = 0
            while at < end and 48 <= data[at] <= 57:
                if power < 10000:
                    power = power * 10 + (data[at] - 48)
                at += 1
            if at == start:
                return line
            scale += sign * power
        # Exact when the digits fit a double and the power of ten is exact:
        # one correctly rounded multiplication or division (Clinger's fast path).
        fast = digits <= 15 and -22 <= scale <= 22
        exact[line] = fast
        if fast:
            number_f = float(mantissa)
            if scale >= 0:
                number_f = number_f * _POW10[scale]
            else:
                number_f = number_f / _POW10[-scale]
            value[line] = -number_f if negative else number_f
        if at >= end or data[at] != 44:
            return line
        at += 1
        number, at = _integer(data, at, end)
        if at < 0 or at + 1 >= end or data[at] != 93 or data[at + 1] != _NEWLINE:
            return line
        proven[line] = max(min(number, 127), -128)
        at += 2
    return -1 if at == end else count

"""The full check of a loaded model: every move legal, every state line right.

The moves are replayed in numba (:mod:`mcts.models.replay`); only a fault is
looked at again in Python, to name it.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..games.base import Game, IllegalMoveError, State
from ..search.tree import Tree
from .fileformat import NODES, STATE_KEYS, STATES, fault, not_json
from .model import ModelError
from .reader import LineReader
from .replay import first_bad_state_line, replay


def check_states(
    folder: Path, game: Game, root: State, tree: Tree, entry: dict
) -> None:
    """Replay every node's move in its parent's position (in numba): each must
    be legal (a fault in nodes.jsonl) and each line of states.jsonl must be
    the one saving writes for the position reached. The first fault by line
    number is raised."""
    result = replay(game, tree, root)
    illegal_line = result.first_illegal + 1 if result.first_illegal >= 0 else None
    reader = LineReader(folder, STATES, entry, tree.size)
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
            parent_state = position_of(game, root, tree, int(tree.parent[node]))
            game.apply(parent_state, int(tree.move[node]))
        except (IllegalMoveError, ValueError) as error:
            message = str(error)
        raise fault(folder, NODES, illegal_line, f"illegal move: {message}")


def _state_fault(
    reader: LineReader, number: int, raw: bytes, game: Game, root: State, tree: Tree
) -> ModelError:
    """Return the error of a state line that is not the one saving writes."""
    node = number - 1
    try:
        rec = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        return reader.error(number, not_json(error))
    if type(rec) is not dict or rec.keys() != STATE_KEYS or rec["id"] != node:
        return reader.error(number, f"expected {{id: {node}, side, state}}")
    state = position_of(game, root, tree, node)
    if rec["state"] == game.state_string(state) and rec["side"] == game.to_move(state):
        return reader.error(number, "not in the saved form (sorted keys, no spaces)")
    return reader.error(number, "state does not match the position the moves reach")


def position_of(game: Game, root: State, tree: Tree, node: int) -> State:
    """Return the position of ``node``, replaying the moves from the root."""
    path = []
    while node > 0:
        path.append(int(tree.move[node]))
        node = int(tree.parent[node])
    state = root
    for code in reversed(path):
        state = game.apply(state, code)
    return state


def check_file_digests(path: Path, entry: dict, count: int) -> None:
    reader = LineReader(path.parent, path.name, entry, count)
    for _ in reader.blocks_of_lines():
        pass

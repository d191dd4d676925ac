"""A tree model that keeps growing from the games played (the server's ``live``
model): what the AI's searches in a finished game added to their trees is
folded into it along the game's moves, and it is saved atomically every few
games.

Each search contributes its *gain*: its tree after the search less its tree
before (a search that started from a model's statistics must not add them
again), pruned by the rule self-play uses (:func:`mcts.models.model.prune`).
A game's gains are grafted at the nodes its moves reach from the model's
root, as long as the model holds that line.

A live model never outgrows ``max_nodes``: a save that finds it larger
prunes it first, keeping the children of the busiest nodes
(:func:`mcts.models.model.min_visits_for`), so the server's memory and the
model's load time stay bounded however long it runs.

Two processes may grow one live model (the server, and ``playlive`` beside
it): each save holds a lock on the folder, and a save that finds the model
on disk changed since it loaded or saved it reloads it and folds its own
unsaved games in again, so that neither writer's games are lost (QA: the
server's next save overwrote the games ``playlive`` had saved).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from ..games.base import Game
from ..search.tree import Tree
from .model import Model, empty_model, graft, min_visits_for, prune
from .store import load, save

#: Visits a node of a search's gain needs to keep its children in the live
#: model: what the light models' self-play builds pruned each search by (at
#: 50, three Reversi games at 0.05 s a move grew the model by 59,000 nodes).
LIVE_MIN_VISITS = 300
#: The most nodes a live model keeps by default: about what a server loads
#: in 2 s and 300 MB (the README's model-load figures for a million nodes).
LIVE_MAX_NODES = 1_500_000


def search_gain(
    before: Tree, after: Tree, *, min_visits: int = LIVE_MIN_VISITS
) -> Tree:
    """Return what a search added: ``after`` less ``before`` (both rooted at
    the searched position), pruned to the nodes with ``min_visits`` visits."""
    gain = after.subtree(0)
    graft(gain, 0, before, weight=-1.0)
    return prune(gain, min_visits)


class LiveModel:
    """The growing model of one game at ``path``: loaded from there, else
    seeded from the model at ``seed`` (a copy: the seed is never changed),
    else empty. One writer at a time in a process (the caller serializes);
    processes share it through each save's lock. Saved every
    ``save_every`` games, pruned to at most ``max_nodes`` nodes."""

    def __init__(
        self,
        game: Game,
        path: str | os.PathLike,
        *,
        seed: str | os.PathLike | None = None,
        save_every: int = 10,
        max_nodes: int = LIVE_MAX_NODES,
    ) -> None:
        if save_every < 1:
            raise ValueError(f"save_every must be at least 1, got {save_every}")
        if max_nodes < 2:
            raise ValueError(f"max_nodes must be at least 2, got {max_nodes}")
        self.path = Path(path)
        self.save_every = save_every
        self.max_nodes = max_nodes
        if (self.path / "manifest.json").exists():
            base = load(self.path, game=game)
        elif seed is not None and (Path(seed) / "manifest.json").exists():
            base = load(seed, game=game)
        else:
            base = empty_model(game)
        self.game = base.game
        built = base.manifest.get("built") or {}
        self.seeded_from = (
            built.get("seeded_from")
            if built.get("by") == "live"
            else _source(seed, base)
        )
        self._take(base)
        #: The games folded in since the last save: (moves, gains) each.
        self._unsaved: list[tuple[list[int], dict[int, Tree]]] = []
        self._on_disk = self._stamp()

    @property
    def unsaved(self) -> int:
        """The games folded in since the last save."""
        return len(self._unsaved)

    def _take(self, base: Model) -> None:
        """Make the loaded ``base`` this model, with its count of games."""
        built = base.manifest.get("built") or {}
        self.games_merged = (
            int(built.get("live_games", 0)) if built.get("by") == "live" else 0
        )
        # A loaded tree's arrays are exactly full: a growable copy.
        self.model = Model(
            base.game,
            base.tree.subtree(0),
            base.root_state,
            base.manifest,
            None,
            base.evaluation,
            base.patterns,
            shape_weights=base.shape_weights,
        )

    def add_game(self, moves: list[int], gains: dict[int, Tree]) -> bool:
        """Fold a finished game's search gains into the model: ``moves`` are
        its move codes from the model's root, ``gains[ply]`` what the search
        at the position after ``ply`` moves added. Return whether the model
        was saved (every ``save_every`` games)."""
        self._fold(moves, gains)
        self.games_merged += 1
        self._unsaved.append((moves, gains))
        if self.unsaved >= self.save_every:
            self.save()
            return True
        return False

    def _fold(self, moves: list[int], gains: dict[int, Tree]) -> None:
        """Graft a game's gains along its moves (:meth:`add_game`)."""
        tree = self.model.tree
        node = 0
        for ply in range(len(moves) + 1):
            if ply in gains:
                graft(tree, node, gains[ply], weight=1.0)
            if ply == len(moves):
                break
            node = tree.child_with_move(node, moves[ply])
            if node < 0:
                break  # the game left the lines the model holds

    def save(self) -> None:
        """Write the model atomically (a crash mid-save leaves the last one),
        pruned first if it holds more than ``max_nodes`` nodes; if another
        process saved it since, its games are kept and this one's unsaved
        games folded in again."""
        with _locked(self.path):
            on_disk = self._stamp()
            if on_disk is not None and on_disk != self._on_disk:
                self._take(load(self.path, game=self.game))
                for moves, gains in self._unsaved:
                    self._fold(moves, gains)
                self.games_merged += self.unsaved
            self._write()
            self._on_disk = self._stamp()
        self._unsaved.clear()

    def _stamp(self) -> tuple[int, int] | None:
        """Which save of the model is on disk: its manifest's inode and time
        (each save puts a new folder in place), None if none is."""
        try:
            stat = (self.path / "manifest.json").stat()
        except FileNotFoundError:
            return None
        return stat.st_ino, stat.st_mtime_ns

    def _write(self) -> None:
        """Save the model, pruned to ``max_nodes`` (:meth:`save`)."""
        built = {
            "by": "live",
            "live_games": self.games_merged,
            "seeded_from": self.seeded_from,
        }
        tree = self.model.tree
        if tree.size > self.max_nodes:
            min_visits = min_visits_for(tree, self.max_nodes)
            self.model.tree = prune(tree, min_visits).subtree(0)
            built["pruned"] = {"from_nodes": int(tree.size), "min_visits": min_visits}
        save(self.model, self.path, built=built)
        self.model.manifest = {
            "built": built,
            "created": self.model.manifest.get("created"),
        }


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the lock of the live model at ``path`` (a file beside it: the
    folder itself is replaced at each save)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.parent / f".{path.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _source(seed: str | os.PathLike | None, base: Model) -> dict | None:
    """Return what the live model was seeded from, for its manifest."""
    if seed is None or base.tree.size <= 1:
        return None
    built = base.manifest.get("built") or {}
    return {"model": Path(seed).name, "nodes": base.nodes, "by": built.get("by")}

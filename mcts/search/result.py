"""What a search returns: an immutable, JSON-ready summary of the root.

The page, the CLI and the tests all read a :class:`SearchResult`; none of them
looks into the tree arrays. :func:`read_result` makes one from a search tree,
and :func:`best_child` is the final-move rule the search and its result share.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.base import Game, State
from .tree import Proven, Tree

#: The exact score of a proven result for its player.
_PROVEN_VALUE = {Proven.WIN: 1.0, Proven.LOSS: 0.0, Proven.DRAW: 0.5}


@dataclass(frozen=True)
class MoveStats:
    """The search's statistics for one legal root move.

    ``value`` is the mean score for the side to move at the root (win 1,
    draw 0.5, loss 0), ``None`` while the move has no visit; ``proven`` is
    ``"win"``, ``"loss"``, ``"draw"`` (for the side to move) or ``None``;
    ``best`` marks the move the search chose (its result's ``move``);
    ``margin`` is the final disc count's difference for the side to move
    under perfect play, where the search solved the move exactly (a Reversi
    endgame), else ``None``.
    """

    move: str
    code: int
    visits: int
    value: float | None
    proven: str | None
    best: bool = False
    margin: int | None = None

    def to_json(self) -> dict:
        """Return the statistics as a JSON-ready dict."""
        return {
            "move": self.move,
            "code": self.code,
            "visits": self.visits,
            "value": None if self.value is None else round(self.value, 4),
            "proven": self.proven,
            "best": self.best,
            "margin": self.margin,
        }


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a root position.

    - ``move`` / ``code``: the chosen move in notation and as a move code.
    - ``side``: ``"black"`` or ``"white"``, the side to move at the root.
    - ``moves``: one :class:`MoveStats` per legal root move, most visits first.
    - ``value``: the root's expected score for the side to move, read as a win
      probability (a draw counts half); exact (1, 0.5, 0) once proven.
    - ``proven``: ``"win"``, ``"loss"``, ``"draw"`` for the side to move, or
      None; a proof that holds against every reply. For a move a weak level
      drew by chance, ``value`` and ``proven`` are that move's.
    - ``found``: the same as the search's tree has it, which ends the search:
      ``proven``, or a Gomoku result that a reply the search's focus left out
      might still refute (:mod:`mcts.search.proof_check`).
    - ``pv``: the principal variation, up to 10 plies, in notation: the
      chosen ``move`` first (whoever chose it: the tree, the exact solver or
      the alpha-beta), then the tree's best replies below it.
    - ``simulations``: simulations run by this search; ``root_visits`` counts
      those kept from earlier searches too (tree reuse).
    - ``elapsed``: wall-clock seconds of the search; ``nodes``: tree size.
    """

    move: str
    code: int
    side: str
    moves: tuple[MoveStats, ...]
    value: float
    proven: str | None
    found: str | None
    pv: tuple[str, ...]
    simulations: int
    root_visits: int
    elapsed: float
    nodes: int

    def to_json(self) -> dict:
        """Return the whole result as a JSON-ready dict."""
        return {
            "move": self.move,
            "code": self.code,
            "side": self.side,
            "moves": [stats.to_json() for stats in self.moves],
            "value": round(self.value, 4),
            "proven": self.proven,
            "found": self.found,
            "pv": list(self.pv),
            "simulations": self.simulations,
            "root_visits": self.root_visits,
            "elapsed": round(self.elapsed, 4),
            "nodes": self.nodes,
        }

    def stats_for(self, move: str) -> MoveStats:
        """Return the MoveStats of the root move ``move`` (KeyError if absent)."""
        for stats in self.moves:
            if stats.move == move:
                return stats
        raise KeyError(move)


def read_result(
    tree: Tree,
    game: Game,
    state: State,
    code: int,
    legal: list[int],
    holds: np.ndarray | None,
    *,
    simulations: int = 0,
    elapsed: float = 0.0,
    by_chance: bool = False,
) -> SearchResult:
    """Return the SearchResult of ``tree``, searched from ``state`` (whose
    legal moves are ``legal``), that plays the move ``code``. ``holds``
    masks the nodes whose proofs hold against every reply
    (:func:`~mcts.search.proof_check.holding_proofs`; None: all do): only
    those are shown as proven. A move drawn ``by_chance`` (a weak level's
    random or sampled move) is not the one the root's value and proof are
    about: the result then gives the move's own, or no proof where the
    search did not visit it (a random move once said "proven win")."""
    side = game.to_move(state)

    def shown(node: int) -> Proven:
        """The node's proof, if it holds for every reply."""
        proof = Proven(tree.proven[node])
        return proof if holds is None or holds[node] else Proven.UNKNOWN

    stats = []
    by_code = {int(tree.move[child]): child for child in tree.children(0)}
    for move in legal:
        child = by_code.get(move, -1)
        if child < 0:
            text = game.format_move(state, move)
            stats.append(MoveStats(text, move, 0, None, None, move == code))
            continue
        stats.append(
            MoveStats(
                game.format_move(state, move),
                move,
                int(tree.visits[child]),
                tree.mean(child),
                shown(child).text,
                move == code,
            )
        )
    stats.sort(key=lambda s: (-s.visits, -(s.value or 0.0)))
    # The root's own proof is for the player who moved into it: flip it.
    proven = shown(0).flipped
    if proven != Proven.UNKNOWN:
        value = _PROVEN_VALUE[proven]
    elif tree.visits[0] > 0:
        value = 1.0 - float(tree.value_sum[0]) / int(tree.visits[0])
    else:
        value = 0.5
    if by_chance:
        child = by_code.get(code, -1)
        proven = shown(child) if child >= 0 else Proven.UNKNOWN
        if proven != Proven.UNKNOWN:
            value = _PROVEN_VALUE[proven]
        elif child >= 0 and tree.visits[child] > 0:
            value = tree.mean(child) or 0.0
    return SearchResult(
        move=game.format_move(state, code),
        code=code,
        side=side,
        moves=tuple(stats),
        value=min(1.0, max(0.0, value)),
        proven=proven.text,
        found=Proven(tree.proven[0]).flipped.text,
        pv=principal_variation(tree, game, state, first=code),
        simulations=int(simulations),
        root_visits=int(tree.visits[0]),
        elapsed=float(elapsed),
        nodes=int(tree.size),
    )


def principal_variation(
    tree: Tree, game: Game, state: State, plies: int = 10, *, first: int | None = None
) -> tuple[str, ...]:
    """Return up to ``plies`` moves in notation following the best children
    of ``tree``, searched from ``state``, up to where the game ends (the tree
    may go on past a repetition draw, which only the rules library sees);
    ``first`` (a move code) starts the line instead of the root's best child,
    the line going on below it where the tree holds it."""
    line: list[str] = []
    node = 0
    if first is not None and not game.is_terminal(state):
        line.append(game.format_move(state, first))
        state = game.apply(state, first)
        node = tree.child_with_move(0, first) if tree.first_child[0] >= 0 else -1
        if node < 0:
            return tuple(line)
    while (
        len(line) < plies
        and tree.first_child[node] >= 0
        and not game.is_terminal(state)
    ):
        child = best_child(tree, node)
        if tree.visits[child] == 0:
            break
        code = int(tree.move[child])
        line.append(game.format_move(state, code))
        state = game.apply(state, code)
        node = child
    return tuple(line)


def best_child(
    tree: Tree,
    node: int,
    draws: frozenset[int] = frozenset(),
    lets_draw: frozenset[int] = frozenset(),
) -> int:
    """Return ``node``'s best child for the player to move there.

    A proven win first (the most visited one); else the most visited child that
    is not a proven loss (ties by mean), unless its mean is below a draw and a
    proven draw exists, which is then taken; else (all lost) the most visited.
    ``draws`` and ``lets_draw`` are the moves the rules see a repetition draw
    in (:meth:`~mcts.games.base.Game.repetition_draws`): the first count as
    proven draws, the second as draws where the search thought them better.
    """
    children = list(tree.children(node))

    def proof(child: int) -> int:
        proven = int(tree.proven[child])
        move = int(tree.move[child])
        if move in draws:
            return Proven.DRAW
        if move in lets_draw and (
            proven == Proven.WIN
            or (proven == Proven.UNKNOWN and (tree.mean(child) or 0.0) > 0.5)
        ):
            return Proven.DRAW
        return proven

    wins = [ch for ch in children if proof(ch) == Proven.WIN]
    if wins:
        return max(wins, key=lambda ch: int(tree.visits[ch]))
    drawn = [ch for ch in children if proof(ch) == Proven.DRAW]
    open_ = [ch for ch in children if proof(ch) == Proven.UNKNOWN]
    if open_:
        best = max(open_, key=lambda ch: (int(tree.visits[ch]), tree.mean(ch) or 0.0))
        if not drawn or (tree.mean(best) or 0.0) >= 0.5:
            return best
    if drawn:
        return max(drawn, key=lambda ch: int(tree.visits[ch]))
    return max(children, key=lambda ch: int(tree.visits[ch]))

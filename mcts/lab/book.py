"""An opening book learnt from whole games: Meta-MCTS (Chaslot, Hoock, Perez et
al., "Meta Monte-Carlo Tree Search for Automatic Opening Book Generation",
2009).

A tree model built by self-play holds what the *searches* found: a 0.1 s
search's values. In Gomoku from the start position that is not enough: our
player, as white, loses its own black's line in 23 plies every game, even
when white thinks fifty times longer, while a quarter of white's other
moves at those plies go on to win the same game (``docs/models.md``). A
search cannot see that far; whole games can.

Here every simulation of the tree is a game. From the root, a move is chosen
at each book node by UCB1 over the results of the games through it; at a
node whose games allow one more move (progressive widening: ``sqrt(games)``
moves), the best untried move by the line shapes it makes and blocks joins
the book; where the book ends, the player of ``spec`` plays the game out
on both sides, and the first move it plays becomes a book node. The result
(1 win, 0.5 draw, 0 loss) is backed up the path. Games run ``workers`` at a
time (:mod:`mcts.lab.book_games` plays them); a node on a path still
being played counts as lost meanwhile (virtual loss), so parallel games
spread out.

A book for one side (``learner``) learns to answer an opponent, the player
itself: the opponent's moves are never the book's to choose. Every game the
player searches each of the opponent's moves, in the book too, and the game
leaves the book's line where it answers otherwise; the book's moves there
are the opponent's replies seen so far, with how often it played them.

:func:`book_tree` turns the book into a search tree whose visits are
:data:`GAME_VISITS` per game, and :func:`graft_book` folds a model into it,
so a player that starts from the model's statistics plays the book's move
where the book has enough games.

The book is saved as JSON (``{"moves": [...], "games": n, "score": s}``
per node, ``score`` from the view of the player who made the node's last
move) after every ``checkpoint_every`` games, so a run can be resumed.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..atomic import write_text_atomically
from ..games.base import BLACK_WINS, DRAW, Game, State
from ..models.model import graft
from ..search.gomoku.shapes import board_cells, shape_move_score
from ..search.tree import Tree

#: The exploration constant of UCB1 over game results.
BOOK_C = 0.5
#: Book moves a node may have after n games: ceil(WIDENING * sqrt(n)).
WIDENING = 1.0
#: Search visits one book game counts as (:func:`book_tree`): about the
#: simulations its searches ran (a Gomoku game of 40 plies at 0.1 s a move,
#: 3,500 simulations a search, runs 140,000), so where the book holds a few
#: games its statistics outweigh a self-play model's and a player that
#: starts from them plays the book's move.
GAME_VISITS = 100_000


@dataclass
class BookNode:
    """A position of the book: the games through it and their score, from
    the view of the player who made its last move, and its book moves."""

    games: float = 0.0
    score: float = 0.0
    children: dict[int, BookNode] = field(default_factory=dict)
    #: The moves not yet in the book, best first (computed on first need).
    untried: list[int] | None = None


def result_for(status: int, black_moved: bool) -> float:
    """Return the score of a finished game for the player who moved into a
    node (``black_moved``): 1 win, 0.5 draw, 0 loss."""
    if status == DRAW:
        return 0.5
    return 1.0 if (status == BLACK_WINS) == black_moved else 0.0


def ranked_moves(game: Game, state: State) -> list[int]:
    """Return ``state``'s legal moves near the stones, best first by the line
    shapes each makes for the mover and takes from the opponent (on an
    empty board: all of them, nearest the centre first)."""
    if game.name != "gomoku":
        return game.legal_moves(state)
    cells = board_cells(state.array)
    size = int(game.options["size"])
    row = int(game.options["row"])
    if not cells.any():
        centre = (size - 1) / 2
        return sorted(
            game.legal_moves(state),
            key=lambda m: (m // size - centre) ** 2 + (m % size - centre) ** 2,
        )
    mover = 1 if game.to_move(state) == "black" else 2
    scored = []
    for move in game.legal_moves(state):
        r, c = divmod(move, size)
        near = cells.reshape(size, size)[
            max(0, r - 2) : r + 3, max(0, c - 2) : c + 3
        ].any()
        if near:
            scored.append((-shape_move_score(cells, size, row, mover, move), move))
    return [move for _, move in sorted(scored)]


class Book:
    """The book of ``game``: a tree of BookNode from the start position."""

    def __init__(
        self, game: Game, learner: str | None = None, widening: float = WIDENING
    ) -> None:
        if learner not in (None, "black", "white"):
            raise ValueError(f"learner must be black, white or None, got {learner!r}")
        self.game = game
        #: The side whose moves the book widens ("black", "white"), or None
        #: for both; the other side keeps to the moves the player made.
        self.learner = learner
        #: Book moves a node may have after n games: ceil(widening * sqrt(n)).
        self.widening = widening
        self.root = BookNode()

    # ---- choosing where the next game goes ---------------------------------
    def select(self) -> list[int]:
        """Return the moves of the next game's book line. The game is counted
        along it at once, as a loss until :meth:`backup` adds its result (a
        virtual loss: games played meanwhile go elsewhere)."""
        node, state, moves = self.root, self.game.initial_state(), []
        while node.children and self.game.status(state) == 0:
            move = None
            if self.learner in (None, self.game.to_move(state)):
                move = self._widen(node, state)
                if move is None:
                    move = self._ucb(node)
            else:  # the opponent's usual reply: it chooses as the game is played
                move = max(node.children, key=lambda m: node.children[m].games)
            node = node.children[move]
            moves.append(move)
            state = self.game.apply(state, move)
            if node.games == 0:
                break
        self.count_line(moves, 1)  # a virtual loss: the score comes with the result
        return moves

    def count_line(self, line: list[int], games: int) -> None:
        """Add ``games`` to the game counts along the book line ``line``."""
        node = self.root
        node.games += games
        for move in line:
            node = node.children[move]
            node.games += games

    def _widen(self, node: BookNode, state: State) -> int | None:
        """Return a move to add to the book at ``node`` if its games allow one
        more (none yet: the player's own choice comes from the game played)."""
        if not node.children:
            return None
        if len(node.children) >= math.ceil(self.widening * math.sqrt(node.games + 1)):
            return None
        if node.untried is None:
            node.untried = ranked_moves(self.game, state)
        while node.untried:
            move = node.untried.pop(0)
            if move not in node.children:
                node.children[move] = BookNode()
                return move
        return None

    @staticmethod
    def _ucb(node: BookNode) -> int:
        """Return the book move of ``node`` with the best UCB1 bound."""
        best, best_move = -1.0, next(iter(node.children))
        log_games = math.log(max(node.games, 1.0))
        for move, child in node.children.items():
            if child.games == 0:
                return move
            bound = child.score / child.games + BOOK_C * math.sqrt(
                log_games / child.games
            )
            if bound > best:
                best, best_move = bound, move
        return best_move

    # ---- learning from a game ------------------------------------------------
    def backup(self, line: list[int], moves: list[int], status: int) -> None:
        """Add the result ``status`` of the game ``moves`` that was sent
        along the book line ``line`` (:meth:`select` counted it there). The
        game counts where it went: along ``line``, or from where the opponent
        answered otherwise along its own moves. Its first move past the book
        joins the book."""
        self.count_line(line, -1)
        node, black_moved = self.root, False
        node.games += 1
        node.score += 0.5  # the root has no mover: a draw's share, unused
        for move in moves:
            new = move not in node.children
            child = node.children.setdefault(move, BookNode())
            black_moved = not black_moved
            child.games += 1
            child.score += result_for(status, black_moved)
            if new:  # the book ends here
                break
            node = child

    # ---- saving --------------------------------------------------------------
    def to_json_lines(self) -> str:
        """Return the book as JSON lines, parents first."""
        lines = []
        stack: list[tuple[list[int], BookNode]] = [([], self.root)]
        while stack:
            moves, node = stack.pop()
            entry = {"moves": moves, "games": node.games, "score": node.score}
            if not moves:  # the root line also says which side the book learns
                entry["side"] = self.learner or "both"
            lines.append(json.dumps(entry))
            for move, child in sorted(node.children.items(), reverse=True):
                stack.append((moves + [move], child))
        return "\n".join(lines) + "\n"

    @classmethod
    def from_json_lines(
        cls,
        game: Game,
        text: str,
        learner: str | None = None,
        widening: float = WIDENING,
    ) -> Book:
        """Return the book saved by :meth:`to_json_lines`; its side is the
        one its root line names unless ``learner`` is given."""
        book = cls(game, learner, widening)
        for number, line in enumerate(text.splitlines(), 1):
            try:
                entry = json.loads(line)
                node = book.root
                for move in entry["moves"]:
                    node = node.children.setdefault(int(move), BookNode())
                node.games = float(entry["games"])
                node.score = float(entry["score"])
                if not entry["moves"] and learner is None:
                    side = entry.get("side", "both")
                    book.learner = None if side == "both" else _side(side)
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"book line {number}: {error}") from None
        return book

    def size(self) -> int:
        """Return the number of positions in the book."""
        count, stack = 0, [self.root]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children.values())
        return count

    def principal_line(self, min_games: int = 1) -> list[tuple[int, float, float]]:
        """Return the most played line: (move, games, score) a ply."""
        line, node = [], self.root
        while node.children:
            move, child = max(node.children.items(), key=lambda kv: kv[1].games)
            if child.games < min_games:
                break
            line.append((move, child.games, child.score))
            node = child
        return line


def _side(side) -> str:
    """Return ``side`` if it names a side a book can learn, else ValueError."""
    if side not in ("black", "white"):
        raise ValueError(f"side must be black, white or both, got {side!r}")
    return side


def save_book(book: Book, path: str | os.PathLike) -> None:
    """Write ``book`` to ``path`` atomically (a temporary file renamed)."""
    write_text_atomically(Path(path), book.to_json_lines())


def load_book(
    game: Game,
    path: str | os.PathLike,
    learner: str | None = None,
    widening: float = WIDENING,
) -> Book:
    """Return the book saved at ``path``, or a new one if there is none;
    ``learner`` and ``widening`` as :class:`Book` takes them."""
    path = Path(path)
    if not path.exists():
        return Book(game, learner, widening)
    return Book.from_json_lines(game, path.read_text(), learner, widening)


# ---- into a tree model ----------------------------------------------------------
def book_tree(book: Book, base: Tree, *, game_visits: int = GAME_VISITS) -> Tree:
    """Return a search tree of the book's nodes, ``game_visits`` visits a game;
    where ``base`` (a model's tree from the same root) expanded a book node,
    its children are included too (no statistics of their own), so folding
    ``base`` in keeps them.

    A book for one side (``book.learner``) gives statistics only to that
    side's moves: its opponent's moves there are the player's own, played
    in every game, and counting them would outweigh what a book for the
    other side learnt of the same positions. Sides alternate by depth, the
    root's mover first (black: every game starts with black to move).
    """
    tree = Tree(capacity=1024)
    queue: list[tuple[int, BookNode, int, int]] = [(0, book.root, 0, 0)]
    tree.visits[0] = round(book.root.games * game_visits)
    tree.value_sum[0] = book.root.score * game_visits
    while queue:
        node, entry, base_node, depth = queue.pop(0)
        moves = list(entry.children)
        if base_node >= 0:
            moves += [
                int(base.move[c])
                for c in base.children(base_node)
                if int(base.move[c]) not in entry.children
            ]
        if not moves:
            continue
        mover = "black" if depth % 2 == 0 else "white"
        counted = book.learner in (None, mover)
        first = tree.add_children(node, np.array(moves, dtype=np.int64))
        for offset, move in enumerate(moves):
            child = entry.children.get(move)
            base_child = base.child_with_move(base_node, move) if base_node >= 0 else -1
            if child is None:
                continue
            if counted:
                tree.visits[first + offset] = round(child.games * game_visits)
                tree.value_sum[first + offset] = child.score * game_visits
            queue.append((first + offset, child, base_child, depth + 1))
    return tree


def graft_book(book: Book, tree: Tree, *, game_visits: int = GAME_VISITS) -> Tree:
    """Return a new tree: ``book``'s statistics (:func:`book_tree`) plus
    ``tree``'s, a model's tree from the same root."""
    merged = book_tree(book, tree, game_visits=game_visits)
    graft(merged, 0, tree, weight=1.0)
    # A one-sided book's uncounted move that the model never visited is an
    # expanded node with no visits, which the search's kernels divide by:
    # one visit (a draw) keeps them whole and weighs nothing beside a game.
    size = merged.size
    unvisited = (merged.n_children[:size] > 0) & (merged.visits[:size] == 0)
    merged.visits[:size][unvisited] = 1
    merged.value_sum[:size][unvisited] = 0.5
    return merged

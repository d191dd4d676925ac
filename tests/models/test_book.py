"""The game-learnt opening book (mcts.lab.book): every simulation is a whole
game, its result backed up the book's line; the book widens with its games,
chooses by UCB1, survives a save, and folds into a model so that a search
that starts from it plays the book's move."""

from __future__ import annotations

import pytest

from mcts import find_game
from mcts.games.base import BLACK_WINS, WHITE_WINS
from mcts.lab import book as opening_book
from mcts.lab import book_games
from mcts.lab.book import GAME_VISITS, Book, BookNode, graft_book, ranked_moves
from mcts.lab.main import main
from mcts.models import store
from mcts.models.model import Model
from mcts.search.searcher import Searcher
from mcts.search.tree import Proven

GAME = find_game("gomoku", size=9, row=5)
CENTRE = 40  # e5


def test_a_game_scores_its_book_line_and_adds_its_next_move():
    book = Book(GAME)
    assert book.select() == []  # an empty book: the game starts at the root
    book.backup([], [CENTRE, 41, 30], BLACK_WINS)
    first = book.root.children[CENTRE]
    assert (book.root.games, first.games, first.score) == (1, 1, 1.0)
    # One game allows two moves at the root: the next game tries the best
    # untried one (the centre's neighbour), and counts as lost meanwhile.
    line = book.select()
    assert len(line) == 1 and line[0] != CENTRE
    tried = book.root.children[line[0]]
    assert (book.root.games, tried.games, tried.score) == (2, 1, 0.0)
    book.backup(line, line + [CENTRE, 49], WHITE_WINS)
    assert tried.score == 0.0  # black moved into it and lost
    assert tried.children[CENTRE].score == 1.0  # white's reply won
    assert book.root.games == 2 and book.size() == 4


def test_a_book_for_one_side_widens_only_that_side_s_moves():
    book = Book(GAME, learner="white")
    book.backup(book.select(), [CENTRE, 41, 30], BLACK_WINS)
    # Black's move at the root is the player's own: never widened.
    assert [book.select() for _ in range(3)] == [[CENTRE]] * 3
    book.backup([CENTRE], [CENTRE, 41], BLACK_WINS)
    # White's replies are: the next game tries one more.
    assert book.select()[0] == CENTRE and len(book.select()) == 2
    with pytest.raises(ValueError, match="learner"):
        Book(GAME, learner="red")


def test_a_narrower_book_keeps_to_the_player_s_own_move_longer():
    book = Book(GAME, widening=0.3)
    book.backup(book.select(), [CENTRE, 41, 30], BLACK_WINS)
    # ceil(0.3 * sqrt(n + 1)) is 1 up to 10 games: no second move before.
    for _ in range(9):
        assert book.select() == [CENTRE]
    assert book.select() == [CENTRE]  # root.games is now 10: still one
    assert book.select() != [CENTRE]  # 11 games: a second move joins


def test_a_game_counts_where_the_opponent_took_it_not_along_its_line():
    # A book for white: black's replies are the player's own, so the line
    # goes through black's usual reply (a4, 30: five games) but black may
    # answer otherwise when the game is played (e6, 49, seen once before).
    book = Book(GAME, learner="white", widening=0.3)
    book.root.games = 6
    centre = book.root.children[CENTRE] = BookNode(games=6, score=3.0)
    reply = centre.children[41] = BookNode(games=6, score=3.0)
    usual = reply.children[30] = BookNode(games=5, score=2.0)
    other = reply.children[49] = BookNode(games=1, score=1.0)
    line = book.select()
    assert line == [CENTRE, 41, 30] and usual.games == 6  # counted at once
    book.backup(line, [CENTRE, 41, 49, 31], WHITE_WINS)
    assert (usual.games, usual.score) == (5, 2.0)  # the line's count undone
    assert (other.games, other.score) == (2, 1.0)  # black moved and lost
    assert (other.children[31].games, other.children[31].score) == (1, 1.0)
    assert (book.root.games, centre.games, reply.games) == (7, 7, 7)


def test_a_played_out_game_leaves_the_line_where_the_opponent_answers_otherwise():
    book_games._init_worker("gomoku", dict(GAME.options), "mcts-heavy:sims=50", 0.1)
    line = [CENTRE, 41, 0]  # black's a1, far from the stones: no search plays it
    moves, _ = book_games.play_out(line, learner="white")
    assert moves[:2] == line[:2] and moves[2] != 0
    moves, _ = book_games.play_out(line, learner=None)  # a book of both sides
    assert moves[:3] == line


def test_the_learning_side_is_played_by_its_own_player_past_the_book():
    book_games._init_worker(
        "gomoku", dict(GAME.options), "mcts-heavy:sims=50", 0.1, "no-such-player"
    )
    with pytest.raises(ValueError, match="no-such-player"):
        book_games.play_out([CENTRE], learner="white")
    moves, _ = book_games.play_out([CENTRE], learner=None)
    assert moves[0] == CENTRE and len(moves) >= 9  # a five takes 9 plies


def test_ucb_prefers_the_move_that_wins_its_games():
    node = BookNode(games=20)
    node.children = {
        3: BookNode(games=10, score=1.0),
        7: BookNode(games=10, score=9.0),
    }
    assert Book._ucb(node) == 7
    node.children[5] = BookNode()  # an untried move is tried first
    assert Book._ucb(node) == 5


def test_moves_are_ranked_by_the_shapes_they_make_and_block():
    # Black has three in a row on the fifth rank (b5 c5 d5), and a5 stands
    # at the edge: e5, the one cell that makes an open four, comes first for
    # white, who must block it.
    state = GAME.play_all(["b5", "b1", "c5", "c1", "d5"])
    assert GAME.format_move(state, ranked_moves(GAME, state)[0]) == "e5"
    empty = GAME.initial_state()
    assert ranked_moves(GAME, empty)[0] == CENTRE


def test_a_checkpoint_leaves_out_the_games_still_being_played():
    book = Book(GAME)
    book.backup(book.select(), [CENTRE, 41], BLACK_WINS)
    pending = [book.select(), book.select()]
    assert book.root.games == 3
    saved = []
    book_games._save_settled(
        book, pending, lambda b, done: saved.append(b.to_json_lines()), 1
    )
    assert Book.from_json_lines(GAME, saved[0]).root.games == 1
    assert book.root.games == 3  # still counted until their results come


def test_a_saved_book_reads_back_and_a_damaged_one_names_its_line(tmp_path):
    book = Book(GAME)
    book.backup(book.select(), [CENTRE, 41], BLACK_WINS)
    line = book.select()
    book.backup(line, line + [CENTRE], WHITE_WINS)
    path = tmp_path / "book.jsonl"
    opening_book.save_book(book, path)
    again = opening_book.load_book(GAME, path)
    assert again.to_json_lines() == book.to_json_lines()
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines, '{"moves": [1], "games": "many"}']))
    with pytest.raises(ValueError, match=f"book line {len(lines) + 1}: "):
        opening_book.load_book(GAME, path)
    assert opening_book.load_book(GAME, tmp_path / "none.jsonl").size() == 1


def _searched_tree(simulations: int = 400):
    searcher = Searcher(GAME, seed=3)
    searcher.search(simulations=simulations)
    return searcher.tree.subtree(0)


def test_a_grafted_book_adds_its_games_and_keeps_the_model_s_moves():
    base = _searched_tree()
    base_moves = {int(base.move[c]): int(base.visits[c]) for c in base.children(0)}
    known = max(base_moves, key=base_moves.get)
    corner = 0  # a1: a move no search keeps
    assert corner not in base_moves
    book = Book(GAME)
    book.root.games = 5
    book.root.children = {
        known: BookNode(games=1, score=0.0),
        corner: BookNode(games=4, score=4.0),
    }
    merged = graft_book(book, base)
    assert int(merged.visits[0]) == 5 * GAME_VISITS + int(base.visits[0])
    children = {int(merged.move[c]): c for c in merged.children(0)}
    assert set(children) == set(base_moves) | {corner}
    assert int(merged.visits[children[known]]) == GAME_VISITS + base_moves[known]
    assert int(merged.visits[children[corner]]) == 4 * GAME_VISITS
    # The model's own statistics below its moves are all still there.
    below = merged.subtree(children[known]).size
    assert below == base.subtree(base.child_with_move(0, known)).size
    # A search that starts from the merged tree plays the book's move.
    searcher = Searcher(GAME, seed=4)
    searcher.tree = merged
    assert searcher.search(simulations=200).code == corner


def test_learn_plays_games_in_workers_and_saves_the_book(tmp_path):
    game = find_game("gomoku", size=7, row=4)
    book = Book(game)
    saved = []
    book_games.learn(
        game,
        book,
        spec="mcts-heavy:sims=30",
        seconds=0.1,
        games=3,
        workers=1,
        save=lambda b, done: saved.append(done),
        checkpoint_every=2,
    )
    assert book.root.games == 3 and saved == [2, 3]
    assert sum(child.games for child in book.root.children.values()) == 3


def test_the_book_commands_show_and_graft(tmp_path, capsys):
    book = Book(GAME)
    book.backup(book.select(), [CENTRE, 41, 30], BLACK_WINS)
    path = tmp_path / "book.jsonl"
    opening_book.save_book(book, path)
    assert main(["book", "show", "gomoku", "--size", "9", "--book", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "1 games, 2 positions" in shown and "e5" in shown
    model = Model(GAME, _searched_tree(), GAME.initial_state(), {}, None)
    store.save(model, tmp_path / "base")
    out = tmp_path / "with-book"
    args = ["book", "graft", "gomoku", "--size", "9", "--book", str(path)]
    assert main([*args, "--model", str(tmp_path / "base"), "--out", str(out)]) == 0
    grafted = store.load(out)
    assert int(grafted.tree.visits[0]) >= GAME_VISITS
    # A second book (the other side's) is listed beside the first.
    again = tmp_path / "with-two-books"
    assert main([*args, "--model", str(out), "--out", str(again)]) == 0
    books = store.load(again).manifest["built"]["books"]
    assert [b["games"] for b in books] == [1, 1]
    assert books[0]["command"].startswith("python -m mcts.lab book graft gomoku")


def test_a_book_for_one_side_counts_only_that_side_s_moves():
    base = _searched_tree()
    book = Book(GAME, learner="white")
    book.root.games = 4
    book.root.children = {CENTRE: BookNode(games=4, score=4.0)}
    book.root.children[CENTRE].children = {31: BookNode(games=4, score=3.0)}
    merged = graft_book(book, base)
    centre = merged.child_with_move(0, CENTRE)
    # Black's move is the player's own: only the model's statistics count.
    assert int(merged.visits[centre]) == int(base.visits[base.child_with_move(0, 40)])
    reply = merged.child_with_move(centre, 31)
    below = base.child_with_move(base.child_with_move(0, CENTRE), 31)
    own = int(base.visits[below]) if below >= 0 else 0
    assert int(merged.visits[reply]) == 4 * GAME_VISITS + own


def test_a_search_runs_through_a_one_sided_book_the_model_never_met():
    # Black's move a1 is in the book (the player's own) but not the model:
    # it is not counted, yet the search must be able to pass through it.
    base = _searched_tree()
    book = Book(GAME, learner="white")
    book.root.games = 3
    book.root.children = {0: BookNode(games=3, score=3.0)}
    book.root.children[0].children = {CENTRE: BookNode(games=3, score=2.0)}
    merged = graft_book(book, base)
    corner = merged.child_with_move(0, 0)
    assert int(merged.visits[corner]) == 1
    searcher = Searcher(GAME, GAME.apply(GAME.initial_state(), 0), seed=5)
    searcher.tree = merged.subtree(corner)
    assert searcher.search(simulations=100).code == CENTRE


def test_no_expanded_node_of_a_grafted_book_is_left_unvisited():
    # A path through a move the model expanded beside others but never
    # visited, learnt by a book for the other side: not counted there.
    base = _searched_tree()
    node = next(
        n
        for n in range(1, base.size)
        if int(base.visits[n]) == 0 and int(base.visits[base.parent[n]]) > 0
    )
    path = []
    while node > 0:
        path.append(int(base.move[node]))
        node = int(base.parent[node])
    path.reverse()
    mover_of_last = "black" if len(path) % 2 == 1 else "white"
    book = Book(GAME, learner="white" if mover_of_last == "black" else "black")
    entry = book.root
    for move in [*path, 1]:
        entry = entry.children.setdefault(move, BookNode(games=2, score=1.0))
    merged = graft_book(book, base)
    size = merged.size
    assert not ((merged.n_children[:size] > 0) & (merged.visits[:size] == 0)).any()


def test_a_saved_book_remembers_the_side_it_learns():
    book = Book(GAME, learner="white")
    book.backup(book.select(), [CENTRE, 41], BLACK_WINS)
    again = Book.from_json_lines(GAME, book.to_json_lines())
    assert again.learner == "white"
    assert Book.from_json_lines(GAME, Book(GAME).to_json_lines()).learner is None
    with pytest.raises(ValueError, match="book line 1: side"):
        Book.from_json_lines(
            GAME, '{"moves": [], "games": 0, "score": 0, "side": "red"}'
        )


def test_a_search_proves_a_book_game_s_last_position_instead_of_expanding_it():
    # A book keeps the positions where its games ended, with their games'
    # visits but unproven: the search must find the five there, not look
    # for moves after it (it used to divide by their count, zero).
    line = [36, 0, 37, 1, 38, 2, 39, 3, 40]  # black's five on the fifth row
    book = Book(GAME)
    book.root.games = 2
    entry = book.root
    for move in line:
        entry = entry.children.setdefault(move, BookNode(games=2, score=2.0))
    merged = graft_book(book, _searched_tree())
    node = 0
    for move in line:
        node = merged.child_with_move(node, move)
    assert int(merged.visits[node]) == 2 * GAME_VISITS and merged.n_children[node] == 0
    searcher = Searcher(GAME, seed=6)
    searcher.tree = merged
    searcher.search(simulations=300)
    node = 0
    for move in line:
        node = searcher.tree.child_with_move(node, move)
    assert searcher.tree.proven[node] == Proven.WIN

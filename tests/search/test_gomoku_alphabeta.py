"""Gomoku alpha-beta: its incremental line shapes match a fresh reading,
it wins the VCF positions the threat tests use, and it blocks what must be
blocked."""

import io

import numpy as np
import pytest

from mcts.games import find_game, gomoku
from mcts.games.base import ONGOING
from mcts.games.gomoku import Gomoku
from mcts.play import piskvork
from mcts.play.players import find_player
from mcts.search import gomoku_alphabeta as ab
from mcts.search.gomoku_shapes import shape_at

GAME = Gomoku()


def position(game, black, white):
    """Return the state with the named stones, black to move when the
    counts are equal, else white."""
    cells = ["."] * (game.size * game.size)
    empty = game.initial_state()
    for names, char in ((black, "x"), (white, "o")):
        for name in names.split():
            cells[game.parse_move(empty, name)] = char
    side = "b" if len(black.split()) == len(white.split()) else "w"
    return game.parse_state(f"{game.size}:{game.row}:{''.join(cells)} {side}")


def fresh(size, row, stones):
    board = ab.new_board(size, row)
    ab.set_position(board, stones)
    return board


def seen_shape(stones, size, row, colour, x, d):
    """Return shape_at of a ``colour`` stone on ``x`` along ``d`` with the
    line seen through the search's window: ``row`` - 1 cells either side,
    the rest (and the board's edge) blocked."""
    reach = row - 1
    span = 2 * reach + 1
    line = np.zeros(span * span, dtype=np.int64)
    r0, c0 = divmod(x, size)
    dr, dc = gomoku.DIRECTIONS[d]
    for k in range(span):
        r, c = r0 + (k - reach) * dr, c0 + (k - reach) * dc
        if not (0 <= r < size and 0 <= c < size):
            line[k] = 2
        elif stones[r * size + c] != 0:
            line[k] = 1 if stones[r * size + c] == colour else 2
    line[reach] = 0
    return shape_at(line, span, row, 1, reach, 0)


@pytest.mark.parametrize(("size", "row"), [(15, 5), (10, 4), (9, 5), (7, 3)])
def test_stored_shapes_are_the_shapes_a_stone_makes(size, row):
    # Every empty cell's stored shape, both colours, all four lines, is the
    # shape a stone there makes within the window, on random boards; and
    # nearly always the shape on the whole line (the window sees 9 cells
    # when the row is five, as the Gomocup engines' patterns do).
    rng = np.random.default_rng(size * 10 + row)
    same = total = 0
    for _ in range(20):
        stones = np.zeros(size * size, dtype=np.int64)
        filled = rng.choice(
            size * size, size=rng.integers(0, size * size // 2), replace=False
        )
        stones[filled] = rng.integers(1, 3, size=filled.size)
        board = fresh(size, row, stones)
        shapes = board[3]
        for x in np.flatnonzero(stones == 0):
            for colour in (1, 2):
                for d in range(4):
                    stored = shapes[colour - 1, x, d]
                    assert stored == seen_shape(stones, size, row, colour, int(x), d)
                    same += stored == shape_at(stones, size, row, colour, int(x), d)
                    total += 1
    assert same >= 0.95 * total


def test_placing_and_lifting_stones_keeps_the_board_as_a_fresh_reading():
    rng = np.random.default_rng(5)
    size, row = 15, 5
    board = ab.new_board(size, row)
    stones = np.zeros(size * size, dtype=np.int64)
    ab.set_position(board, stones)
    placed = []
    for step in range(120):
        if placed and (rng.random() < 0.3 or len(placed) > 60):
            cell, colour = placed.pop(rng.integers(len(placed)))
            ab._lift(board, cell, colour)
            stones[cell] = 0
        else:
            cell = int(rng.choice(np.flatnonzero(stones == 0)))
            colour = int(rng.integers(1, 3))
            ab._place(board, cell, colour)
            stones[cell] = colour
            placed.append((cell, colour))
        if step % 10 == 0:
            reference = fresh(size, row, stones)
            for index in (0, 4, 5, 9):  # cells, worth, level, hash
                np.testing.assert_array_equal(board[index], reference[index])
            empty = stones == 0  # an occupied cell's shapes are not read
            np.testing.assert_array_equal(board[3][:, empty], reference[3][:, empty])
            np.testing.assert_allclose(board[6], reference[6])  # sums


@pytest.mark.parametrize(
    "text",
    [
        # The VCF positions of test_gomoku_threats.py (5 and 7 plies).
        "15:5:......................................................"
        "..........o.xx.oo........x..o..o.........xxo.o............"
        ".............xo.o.x..........o.x.x........oxxox.x........."
        "....................................................... w",
        "15:5:......................................................"
        "..........oxoo.............ox.x.........x.x.x..........xo."
        "xo.o........o.o.o.x.........x..............x..o..........."
        "....................................................... b",
    ],
)
def test_it_finds_and_plays_out_a_vcf(text):
    state = GAME.parse_state(text)
    attacker = int(state.array[gomoku.SIDE])
    board = ab.new_board(15, 5)
    _, value, _, _ = ab.think(board, state.array, 0.3)
    assert value >= ab.WIN_BOUND
    for _ in range(12):  # both sides played by the search: the attack wins
        move, _, _, _ = ab.think(board, state.array, 0.1)
        state = GAME.apply(state, move)
        if GAME.status(state) != ONGOING:
            break
    assert GAME.status(state) == (
        gomoku.BLACK_WINS if attacker == 0 else gomoku.WHITE_WINS
    )


def test_it_blocks_a_four_and_an_open_three():
    board = ab.new_board(15, 5)
    four = position(GAME, "h8 i8 j8 k8", "h9 i9 a1")  # black four, white to move
    move, _, _, _ = ab.think(board, four.array, 0.2)
    assert GAME.format_move(four, move) in ("g8", "l8")
    three = position(GAME, "h8 i8 j8 c3", "h9 a1 a15")  # open three, white to move
    move, _, _, _ = ab.think(board, three.array, 0.3)
    assert GAME.format_move(three, move) in ("g8", "k8", "f8", "l8")


def test_it_completes_its_own_five_before_blocking():
    board = ab.new_board(15, 5)
    state = position(GAME, "h8 i8 j8 k8", "h9 i9 j9 k9")  # black to move
    move, value, _, _ = ab.think(board, state.array, 0.1)
    assert GAME.format_move(state, move) in ("g8", "l8")
    assert value >= ab.WIN_BOUND


def test_the_alphabeta_spec_plays_gomoku_and_only_gomoku():
    player = find_player("alphabeta:seconds=0.05", GAME)
    state = GAME.play_all(["h8", "i9"])
    assert player.choose(state) in GAME.legal_moves(state)
    with pytest.raises(ValueError, match="Gomoku only"):
        find_player("alphabeta", find_game("reversi"))


def test_the_alphabeta_spec_takes_only_a_think_time():
    with pytest.raises(ValueError, match="takes only seconds"):
        find_player("alphabeta:sims=100", GAME)


def test_the_piskvork_engine_plays_the_alphabeta_player_on_its_clock():
    made = []

    def make(game, seconds):
        made.append(find_player("alphabeta", game, seconds=seconds))
        return made[-1]

    script = "START 15\nINFO timeout_turn 300\nBEGIN\nTURN 8,6\nEND\n"
    out = io.StringIO()
    assert piskvork.serve(make, io.StringIO(script), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "OK" and len(lines) == 3
    assert made[0].seconds == pytest.approx(0.25)  # the turn less its margin
    state = GAME.apply(GAME.initial_state(), piskvork.from_xy(GAME, lines[1]))
    state = GAME.apply(state, piskvork.from_xy(GAME, "8,6"))
    assert piskvork.from_xy(GAME, lines[2]) in GAME.legal_moves(state)

"""Board symmetries: eight square maps, and rules that do not change under them."""

from __future__ import annotations

import numpy as np
import pytest

from mcts.games import find_game
from mcts.games.symmetry import inverse, square_maps

GAMES = [("reversi", {}), ("loa", {}), ("gomoku", {}), ("gomoku", {"size": 9})]


@pytest.mark.parametrize("side", [2, 8, 15])
def test_the_eight_square_maps_form_the_symmetry_group_of_the_square(side):
    maps = square_maps(side)
    keys = {image.tobytes() for image in maps}
    assert len(keys) == 8
    assert np.array_equal(maps[0], np.arange(side * side))
    for a in maps:
        assert np.array_equal(a[inverse(a)], np.arange(side * side))
        for b in maps:
            assert a[b].tobytes() in keys  # closed under composition


def _positions(game, count, seed):
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(count):
        if game.is_terminal(state):
            state = game.initial_state()
        yield state
        legal = game.legal_moves(state)
        state = game.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_mapped_position_has_the_mapped_moves_and_the_same_future(name, options):
    game = find_game(name, **options)
    rng = np.random.default_rng(1)
    for state in _positions(game, 60, seed=2):
        legal = game.legal_moves(state)
        move = legal[int(rng.integers(len(legal)))]
        after = game.apply(state, move)
        for image in game.symmetries():
            table = game.move_map(image)
            mapped = game.map_state(state, image)
            assert sorted(game.legal_moves(mapped)) == sorted(
                int(table[m]) for m in legal
            )
            assert game.status(mapped) == game.status(state)
            played = game.apply(mapped, int(table[move]))
            assert played.key() == game.map_state(after, image).key()

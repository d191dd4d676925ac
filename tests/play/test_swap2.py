"""Swap2's steps, its choices and the AI's decisions (mcts.play.swap2)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from mcts import find_game
from mcts.play import swap2
from mcts.play.arena import run_match
from mcts.play.swap2 import (
    CHOOSE,
    CHOOSE_AGAIN,
    DONE,
    PLACE2,
    PLACE3,
    Swap2Error,
    check_choice,
    opener_colour,
    step,
    swaps,
)


@pytest.mark.parametrize(
    ("stones", "choices", "phase", "opener"),
    [
        (0, [], PLACE3, True),
        (2, [], PLACE3, True),
        (3, [], CHOOSE, False),
        (3, ["white"], DONE, False),
        (9, ["black"], DONE, False),
        (3, ["place2"], PLACE2, False),
        (4, ["place2"], PLACE2, False),
        (5, ["place2"], CHOOSE_AGAIN, True),
        (5, ["place2", "black"], DONE, False),
    ],
)
def test_the_steps_follow_the_stones_and_the_choices(stones, choices, phase, opener):
    assert step(stones, choices) == swap2.Step(phase, opener)


@pytest.mark.parametrize(
    ("stones", "choices"),
    [(4, []), (2, ["white"]), (6, ["place2"]), (5, ["place2", "place2"])],
)
def test_an_impossible_opening_is_refused(stones, choices):
    with pytest.raises(Swap2Error):
        step(stones, choices)


def test_only_the_choices_of_the_step_are_allowed():
    check_choice(3, [], "place2")
    check_choice(5, ["place2"], "white")
    with pytest.raises(Swap2Error, match="places three stones"):
        check_choice(2, [], "white")
    with pytest.raises(Swap2Error, match="black, white"):
        check_choice(5, ["place2"], "place2")
    with pytest.raises(Swap2Error, match="already chosen"):
        check_choice(3, ["white"], "black")


def test_the_colours_follow_the_choices():
    # Before a colour is chosen, black's side is the opener's.
    assert opener_colour([]) is None
    assert opener_colour(["place2"]) is None
    assert opener_colour(["white"]) == "black"
    assert opener_colour(["black"]) == "white"
    assert opener_colour(["place2", "white"]) == "white"
    assert not swaps(3, [], "white")  # the second player keeps white's side
    assert swaps(3, [], "black")
    assert not swaps(3, [], "place2")
    assert not swaps(5, ["place2"], "black")  # the opener keeps black's side
    assert swaps(5, ["place2"], "white")


def _thinker(game, value):
    """A search stand-in: ``value`` for white, its move the first legal one."""
    calls = []

    def think(state):
        calls.append(state)
        return SimpleNamespace(value=value, code=game.legal_moves(state)[0])

    think.calls = calls
    return think


@pytest.mark.parametrize(
    ("value", "choice", "placed"),
    [(0.9, "white", 0), (0.1, "black", 0), (0.52, "place2", 2)],
)
def test_the_second_player_takes_the_colour_its_search_prefers(value, choice, placed):
    game = find_game("gomoku")
    state = game.initial_state()
    for move in ("h8", "h9", "i8"):
        state = game.play(state, move)
    moves, chosen = swap2.ai_turn(
        game, state, 3, [], _thinker(game, value), np.random.default_rng(0)
    )
    assert (chosen, len(moves)) == (choice, placed)
    for move in moves:  # white then black, both legal
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


def test_the_opener_places_three_stones_near_the_centre():
    game = find_game("gomoku")
    think = _thinker(game, 0.5)
    moves, choice = swap2.ai_turn(
        game, game.initial_state(), 0, [], think, np.random.default_rng(1)
    )
    assert choice is None and len(set(moves)) == 3
    assert len(think.calls) == swap2.CANDIDATES  # one search per candidate


@pytest.mark.parametrize(
    ("played", "choices", "value"),
    [
        ((), [], 0.5),  # the opener's three stones
        (("h8",), [], 0.5),  # the opener's two left
        (("h8", "h9", "i8"), [], 0.9),  # a colour
        (("h8", "h9", "i8"), [], 0.52),  # two more stones
        (("h8", "h9", "i8"), ["place2"], 0.5),  # the two stones of place2
        (("h8", "h9", "i8", "g9"), ["place2"], 0.5),  # the last of them
        (("h8", "h9", "i8", "g9", "j7"), ["place2"], 0.5),  # the last choice
    ],
)
def test_a_turns_searches_are_counted_before_it_starts(played, choices, value):
    """The page shows how long the computer's turn takes: as the opener, a
    search for each candidate, not one."""
    game = find_game("gomoku")
    state = game.initial_state()
    for move in played:
        state = game.play(state, move)
    think = _thinker(game, value)
    swap2.ai_turn(game, state, len(played), choices, think, np.random.default_rng(0))
    assert len(think.calls) <= swap2.turn_searches(len(played), choices)
    if value == 0.5 or value == 0.52:  # the most it makes
        assert len(think.calls) == swap2.turn_searches(len(played), choices)


def _apart(a: int, b: int, size: int = 15) -> int:
    return max(abs(a // size - b // size), abs(a % size - b % size))


@pytest.mark.parametrize("seed", range(12))
def test_the_openers_stones_take_the_shape_of_a_renju_opening(seed):
    """As in renju's 26 openings: the first stone on the centre point, the
    second touching it, the third within two points of the first. (Scattered
    stones, such as k7 i10 h11, read as no opening at all to a player.)"""
    game = find_game("gomoku", rule="renju")
    moves, _ = swap2.ai_turn(
        game,
        game.initial_state(),
        0,
        [],
        _thinker(game, 0.5),
        np.random.default_rng(seed),
    )
    first, second, third = moves
    assert game.format_move(game.initial_state(), first) == "h8"
    assert _apart(second, first) == 1
    assert 1 <= _apart(third, first) <= 2 and third != second


def test_an_opener_that_finds_a_stone_placed_goes_on_from_it():
    game = find_game("gomoku")
    state = game.play(game.initial_state(), "g7")
    moves, _ = swap2.ai_turn(
        game, state, 1, [], _thinker(game, 0.5), np.random.default_rng(3)
    )
    first = game.parse_move(game.initial_state(), "g7")
    assert len(moves) == 2
    assert _apart(moves[0], first) == 1 and _apart(moves[1], first) <= 2


def test_a_whole_opening_between_two_searches():
    game = find_game("gomoku", rule="renju")
    rng = np.random.default_rng(2)
    even = swap2.search_turn(game, _thinker(game, 0.5), rng)
    white_wins = swap2.search_turn(game, _thinker(game, 0.8), rng)
    moves, colour = swap2.play_opening(game, white_wins, even)
    # The second player found it even and placed two; the opener took white.
    assert (len(moves), colour) == (5, "white")


def _scripted(*turns):
    """A Turn that gives ``turns`` in order: (move names, choice)."""
    given = iter(turns)

    def turn(state, stones, choices):
        names, choice = next(given)  # on 15x15: a1 is 0, b1 1, a2 15
        return [(int(n[1:]) - 1) * 15 + ord(n[0]) - ord("a") for n in names], choice

    return turn


@pytest.mark.parametrize(
    ("opener", "second", "opener_loses", "why"),
    [
        ((["h8", "h9"], None), None, True, "2 stones placed with 'place3', not 3"),
        ((["h8", "h9", "h8"], None), None, True, "h8 is not legal here"),
        ((["h8", "h9", "i8"], None), ([], None), False, "a choice is due"),
        ((["h8", "h9", "i8"], None), ([], "place3"), False, "choose one of"),
        ((["h8", "h9", "i8"], None), (["j8"], "place2"), False, "1 stones placed"),
        ((["h8", "h9", "i8"], None), (["j8"], "black"), False, "not 0"),
    ],
)
def test_a_turn_the_opening_does_not_allow_forfeits(opener, second, opener_loses, why):
    # What an external engine answers is checked as any other turn.
    game = find_game("gomoku")
    with pytest.raises(swap2.OpeningForfeit, match=why) as raised:
        swap2.play_opening(game, _scripted(opener), _scripted(second))
    assert raised.value.opener == opener_loses


def test_taking_white_may_come_with_whites_move():
    # As Gomocup's engines answer: one stone after three is white's move.
    game = find_game("gomoku")
    moves, colour = swap2.play_opening(
        game,
        _scripted((["h8", "h9", "i8"], None)),
        _scripted((["j8"], "white")),
    )
    assert (len(moves), colour) == (4, "black")


def test_the_arena_opens_by_swap2_and_each_player_opens_in_turn():
    game = find_game("gomoku", size=9, row=4)
    result = run_match(
        game, "mcts-heavy", "mcts-heavy", games=2, simulations=30, swap2_opening=True
    )
    assert [record.opening_plies in (3, 5) for record in result.records] == [
        True,
        True,
    ]
    with pytest.raises(ValueError, match="Swap2"):
        run_match(
            game, "mcts-heavy", "random", games=2, simulations=30, swap2_opening=True
        )
    with pytest.raises(ValueError, match="only Gomoku"):
        run_match(find_game("reversi"), "random", "random", games=2, swap2_opening=True)
    threes = find_game("gomoku", size=7, row=3)
    with pytest.raises(ValueError, match="rows of 4 or more"):
        run_match(threes, "random", "random", games=2, swap2_opening=True)


def test_the_stones_of_a_settled_opening():
    assert swap2.opening_stones_placed(["white"]) == 3
    assert swap2.opening_stones_placed(["place2", "black"]) == 5

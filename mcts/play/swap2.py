"""Swap2, the opening rule of Gomocup and of most Gomoku tournaments.

Two players, the *opener* and the *second player*, settle who plays which
colour while the first stones go down:

1. The opener places three stones: black, white, black (the game's moves 1-3).
2. The second player chooses one of three:
   - ``white``: play white, and so make the next move (white's);
   - ``black``: play black; the opener takes white and makes the next move;
   - ``place2``: place two more stones, white then black (moves 4-5), and
     hand the choice of colour back to the opener.
3. After ``place2`` the opener chooses ``black`` or ``white``; white moves
   next.

The stones are ordinary moves of the game, so the rules (renju's forbidden
points too) judge them as any other; with at most three black stones placed,
no forbidden point can arise. A player's colour is known once a colour is
chosen (:func:`opener_colour`). What the opening has reached is a
:class:`Step`, read from the number of stones and the choices made
(:func:`step`): the web app and the arena both keep exactly those two.

The AI decides with its search (:func:`ai_turn`): as the opener it places,
of a few random three-stone openings of the shape of renju's 26 openings
(:func:`opener_moves`), the one its search finds the most even; as a
chooser it takes the colour its search prefers, and as the second player of a
position within :data:`EVEN_BAND` of even it places two more stones, its
search's best for white, then for black.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..games.base import Game, State
from ..games.gomoku_board import BLACK_STONE, EMPTY, HEADER
from ..search.result import SearchResult
from .base import Forfeit

NAME = "swap2"
PLACE3, CHOOSE, PLACE2, CHOOSE_AGAIN, DONE = (
    "place3",
    "choose",
    "place2",
    "choose-again",
    "done",
)
#: The choices each choosing step allows.
CHOICES = {CHOOSE: ("white", "black", "place2"), CHOOSE_AGAIN: ("black", "white")}
#: The second player places two more stones when its search's value of the
#: three-stone position, for white, lies this close to 0.5: neither colour
#: is worth taking, so it hands the choice back.
EVEN_BAND = 0.05
#: The opener's three stones: the most even of this many random openings.
CANDIDATES = 3
#: The shortest row Swap2 opens: its stones hold three black ones, which a
#: row of three would see win before the colours are settled.
MIN_ROW = 4


class Swap2Error(ValueError):
    """A move or a choice the opening does not allow now."""


@dataclass(frozen=True)
class Step:
    """Where a Swap2 opening is: its ``phase`` (:data:`PLACE3` ...
    :data:`DONE`) and whether the opener is the one to act (else the second
    player; after the opening, whoever has the colour to move)."""

    phase: str
    opener: bool

    @property
    def placing(self) -> bool:
        """Whether the acting player places stones (of either colour) now."""
        return self.phase in (PLACE3, PLACE2)

    @property
    def choosing(self) -> bool:
        """Whether the acting player must choose (:data:`CHOICES`) now."""
        return self.phase in CHOICES


def step(stones: int, choices: Sequence[str]) -> Step:
    """Return the opening's step after ``stones`` moves and ``choices``;
    Swap2Error if the two do not fit together."""
    choices = tuple(choices)
    if not choices:
        if stones < 3:
            return Step(PLACE3, True)
        if stones == 3:
            return Step(CHOOSE, False)
    elif choices[0] in ("white", "black") and len(choices) == 1 and stones >= 3:
        return Step(DONE, False)
    elif choices[0] == "place2" and len(choices) == 1:
        if 3 <= stones < 5:
            return Step(PLACE2, False)
        if stones == 5:
            return Step(CHOOSE_AGAIN, True)
    elif (
        choices[0] == "place2"
        and len(choices) == 2
        and stones >= 5
        and choices[1] in CHOICES[CHOOSE_AGAIN]
    ):
        return Step(DONE, False)
    raise Swap2Error(f"no Swap2 opening has {stones} stones after choices {choices}")


def check_choice(stones: int, choices: Sequence[str], choice: str) -> None:
    """Raise Swap2Error unless ``choice`` may be made now."""
    now = step(stones, choices)
    if not now.choosing:
        raise Swap2Error(
            "nothing is to be chosen now: the opener places three stones, and "
            "after 'place2' the second player places two"
            if now.placing
            else "the colours are already chosen"
        )
    if choice not in CHOICES[now.phase]:
        raise Swap2Error(
            f"choose one of {', '.join(CHOICES[now.phase])}, not {choice!r}"
        )


def opening_stones_placed(choices: Sequence[str]) -> int:
    """Return how many stones the opening places once the colours are
    settled by ``choices``: 3, or 5 after ``place2``."""
    return 5 if choices and choices[0] == "place2" else 3


def opener_colour(choices: Sequence[str]) -> str | None:
    """Return the opener's colour once chosen, else None."""
    if choices and choices[0] in ("white", "black"):
        return "white" if choices[0] == "black" else "black"
    if len(choices) == 2:
        return choices[1]
    return None


def swaps(stones: int, choices: Sequence[str], choice: str) -> bool:
    """Return whether ``choice`` swaps the sides as the web app and the arena
    keep them: until a colour is chosen, black's side is the opener's and
    white's the second player's, so a chooser taking the other colour swaps
    them."""
    chooser = "black" if step(stones, choices).opener else "white"
    return choice in ("black", "white") and choice != chooser


#: The search an AI decides with: a position's result, its value for the side
#: to move (white, at every choice).
Think = Callable[[State], SearchResult]
#: A player's part in the opening: given the position, how many stones it
#: holds and the choices made so far, the move codes the player places and
#: its choice (None when it only places). An AI's is :func:`search_turn`;
#: an external engine's asks it by the protocol's ``SWAP2BOARD``.
Turn = Callable[[State, int, Sequence[str]], tuple[list[int], str | None]]


def opener_moves(game: Game, state: State) -> list[int]:
    """Return where the opener may place its next stone in ``state`` (which
    holds fewer than three): the shape of renju's 26 openings, which players
    know, rather than stones scattered about the centre. The first stone goes
    on the centre point, the second touches it (straight or diagonally), the
    third lies within two points of the first."""
    size = game.options["size"]
    legal = game.legal_moves(state)
    board = state.array[HEADER:]
    placed = np.flatnonzero(board != EMPTY)
    if not len(placed):
        return [(size // 2) * size + size // 2]
    first = int(np.flatnonzero(board == BLACK_STONE)[0])  # the only black one
    reach = 1 if len(placed) == 1 else 2
    return [
        move
        for move in legal
        if max(abs(move // size - first // size), abs(move % size - first % size))
        <= reach
    ]


def opening_stones(
    game: Game, state: State, stones: int, think: Think, rng: np.random.Generator
) -> list[int]:
    """Return the opener's stones still to place in ``state``, which holds
    ``stones`` (of black, white, black): of :data:`CANDIDATES` random
    completions (:func:`opener_moves`), the one whose value ``think`` finds
    the closest to even."""
    best: tuple[float, list[int]] | None = None
    for _ in range(CANDIDATES):
        position, moves = state, []
        for _ in range(3 - stones):
            legal = opener_moves(game, position)
            moves.append(legal[int(rng.integers(len(legal)))])
            position = game.apply(position, moves[-1])
        gap = abs(think(position).value - 0.5)
        if best is None or gap < best[0]:
            best = (gap, moves)
    assert best is not None
    return best[1]


def decide(game: Game, state: State, phase: str, think: Think) -> tuple[str, list[int]]:
    """Return a chooser's choice at ``phase`` in ``state`` (white to move) and
    the stones that go with it (two for ``place2``, else none)."""
    result = think(state)
    value = result.value  # white's: the side to move
    if phase == CHOOSE and abs(value - 0.5) <= EVEN_BAND:
        white = result.code
        after = game.apply(state, white)
        return "place2", [white, think(after).code]
    return ("white" if value >= 0.5 else "black"), []


def ai_turn(
    game: Game,
    state: State,
    stones: int,
    choices: Sequence[str],
    think: Think,
    rng: np.random.Generator,
) -> tuple[list[int], str | None]:
    """Return what the AI acting at this step does: the move codes it places
    and its choice (None when it only places)."""
    now = step(stones, choices)
    if now.phase == PLACE3:
        return opening_stones(game, state, stones, think, rng), None
    if now.phase == PLACE2:
        moves, position = [], state
        for _ in range(5 - stones):
            moves.append(think(position).code)
            position = game.apply(position, moves[-1])
        return moves, None
    if now.choosing:
        choice, moves = decide(game, state, now.phase, think)
        return moves, choice
    raise Swap2Error("the opening is over: the AI plays its moves as usual")


def turn_searches(stones: int, choices: Sequence[str]) -> int:
    """Return the most searches :func:`ai_turn` makes at this step: one for
    each candidate opening, one for each stone of ``place2``, one for a
    choice (and one more for the black stone of a ``place2`` it makes)."""
    now = step(stones, choices)
    if now.phase == PLACE3:
        return CANDIDATES
    if now.phase == PLACE2:
        return 5 - stones
    return 2 if now.phase == CHOOSE else 1


def search_turn(game: Game, think: Think, rng: np.random.Generator) -> Turn:
    """Return the :data:`Turn` of an AI that decides with ``think``
    (:func:`ai_turn`)."""
    return lambda state, stones, choices: ai_turn(
        game, state, stones, choices, think, rng
    )


def _check_turn(
    game: Game,
    state: State,
    stones: int,
    choices: Sequence[str],
    placed: Sequence[int],
    choice: str | None,
) -> None:
    """Raise Swap2Error unless placing ``placed`` and choosing ``choice`` is
    a whole turn at this step: the stones the step places, or with a choice
    the stones that go with it (two for ``place2``; white's move, or none,
    with ``white``; none with ``black``), each legal in turn."""
    now = step(stones, choices)
    if now.choosing:
        if choice is None:
            raise Swap2Error(f"a choice is due: one of {', '.join(CHOICES[now.phase])}")
        check_choice(stones, choices, choice)
        counts = {"place2": (2,), "white": (0, 1), "black": (0,)}[choice]
    else:
        if choice is not None:
            raise Swap2Error(f"nothing is to be chosen now, not {choice!r}")
        counts = ((3 if now.phase == PLACE3 else 5) - stones,)
    if len(placed) not in counts:
        raise Swap2Error(
            f"{len(placed)} stones placed with {choice or now.phase!r}, "
            f"not {' or '.join(map(str, counts))}"
        )
    for move in placed:
        if move not in game.legal_moves(state):
            raise Swap2Error(f"{game.format_move(state, move)} is not legal here")
        state = game.apply(state, move)


class OpeningForfeit(Forfeit):
    """A player's turn in the opening that Swap2 does not allow: the player
    (the opener when ``opener``) loses the game."""

    def __init__(self, message: str, *, opener: bool) -> None:
        super().__init__(message)
        self.opener = opener


def play_opening(game: Game, opener: Turn, second: Turn) -> tuple[list[int], str]:
    """Play a whole Swap2 opening between two players (the arena's): return
    its move codes and the opener's colour. Each turn is checked
    (:func:`_check_turn`): a player whose turn fails, or is not one the
    opening allows, forfeits (:class:`OpeningForfeit`)."""
    state = game.initial_state()
    moves: list[int] = []
    choices: list[str] = []
    while (now := step(len(moves), choices)).phase != DONE:
        turn = opener if now.opener else second
        try:
            placed, choice = turn(state, len(moves), choices)
            _check_turn(game, state, len(moves), choices, placed, choice)
        except (Forfeit, Swap2Error) as error:
            raise OpeningForfeit(str(error), opener=now.opener) from None
        for move in placed:
            moves.append(move)
            state = game.apply(state, move)
        if choice is not None:
            choices.append(choice)
    colour = opener_colour(choices)
    assert colour is not None
    return moves, colour

"""Where our Gomoku games against a reference engine are lost.

Our player plays the engine from the openings a match plays
(:func:`~.openings.match_opening`: balanced ones in standard Gomoku, each
played once with each colour); then, in each game, the
engine looks at the position after each of our moves in turn. The first
one where it proves a win for itself (Rapfi's ``Eval +M<n>``, as read by
:func:`~.conversion.proof_of`) is the move that lost, as far as the engine
can tell. There it is asked two more things, with more time:

- its own choice in our place, and whether that move is proven lost too
  (then the game was lost before our move, whoever played it);
- whether the position before our move was already proven lost for us.

This tells a game lost by a mistake from one lost by the opening (with
two random opening plies, Rapfi proved black's win after white's second or
third move, whatever white played: docs/experiments). Benchmark only:
the engine is not part of this project.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..games.base import Game
from ..play.arena import play_game
from ..play.openings import match_opening
from ..play.players import find_player
from .conversion import OPENING_PLIES, Judge

#: Milliseconds the engine looks at the position after each of our moves.
SCAN_MS = 500
#: Milliseconds it looks at its own choice, and at the position before.
CHECK_MS = 3000


@dataclass(frozen=True)
class LostMove:
    """One game and the first of our moves after which the engine proved a
    win for itself (the fields after ``plies`` are None when it proved none).

    Proofs are plies from the side to move's view: above 0 it wins."""

    colour: str  # ours
    winner: str | None
    plies: int
    ply: int | None = None  # of our move, counted from 1
    move: str | None = None
    after: int | None = None  # the engine's proof after our move
    engine_move: str | None = None  # its choice in our place
    engine_after: int | None = None  # its proof after that choice instead
    before: int | None = None  # the proof for us before our move


def find_lost_move(
    game: Game,
    moves: list[int],
    colour: str,
    winner: str | None,
    judge: Judge,
    *,
    first: int = OPENING_PLIES,
    scan_ms: int = SCAN_MS,
    check_ms: int = CHECK_MS,
) -> LostMove:
    """Return the first of ``colour``'s moves in the game ``moves`` (move
    codes, from ply ``first`` on; ``winner`` its result) after which the
    engine proves a win."""
    states = [game.initial_state()]
    for move in moves:
        states.append(game.apply(states[-1], move))
    ours = 0 if colour == "black" else 1
    for index in range(first, len(moves) - 1):
        if index % 2 != ours:
            continue
        _, after = judge.ask(game, moves[: index + 1], scan_ms)
        if after is None or after <= 0:
            continue
        choice, before = judge.ask(game, moves[:index], check_ms)
        _, engine_after = judge.ask(game, [*moves[:index], choice], check_ms)
        return LostMove(
            colour,
            winner,
            len(moves),
            index + 1,
            game.format_move(states[index], moves[index]),
            after,
            game.format_move(states[index], choice),
            engine_after,
            before,
        )
    return LostMove(colour, winner, len(moves))


def run(
    game: Game,
    player_spec: str,
    engine_spec: str,
    judge: Judge,
    games: int,
    seconds: float,
    seed: int,
    on_game: Callable[[int, LostMove], None] | None = None,
) -> list[LostMove]:
    """Play ``games`` games of our player against the engine from the
    openings a match plays (each twice, ours black first, then white);
    return where each was lost (:func:`find_lost_move`)."""
    rng = np.random.default_rng(seed)
    found = []
    opening: list[int] = []
    for number in range(games):
        if number % 2 == 0:
            opening = match_opening(game, rng)
        colour = "black" if number % 2 == 0 else "white"
        ours = find_player(player_spec, game, seconds=seconds, seed=seed + number)
        engine = find_player(engine_spec, game, seconds=seconds)
        black, white = (ours, engine) if colour == "black" else (engine, ours)
        try:
            winner, texts, _ = play_game(game, black, white, opening)
        finally:
            ours.close()
            engine.close()
        state, moves = game.initial_state(), []
        for text in texts:
            move = game.parse_move(state, text)
            moves.append(move)
            state = game.apply(state, move)
        lost = find_lost_move(game, moves, colour, winner, judge, first=len(opening))
        found.append(lost)
        if on_game is not None:
            on_game(number, lost)
    return found

"""Gomoku conversion benchmark: how often our player keeps a proven win.

Against a strong Gomoku engine a game is decided by a few moves: black
reaches a won position early (Rapfi proves wins from the fourth ply of many
openings) and then has to keep it, move after move, until the five. Game
scores near 0% say little about that; this benchmark measures it move by
move:

1. **Positions** (:func:`find_positions`): a reference engine that reports
   proven wins plays itself from random openings, and every position where
   it proves that the side to move wins (at least :data:`MIN_PLIES` plies
   away, proven again with more time) is kept, at most
   :data:`POSITIONS_PER_GAME` a game.
2. **The test** (:func:`judge_move`): our player moves in each; the
   engine, now to move, judges the position reached. The win is *kept* if
   our move made five or the engine proves itself lost. When the engine
   proves nothing but our search found its move won (a VCT the engine
   cannot see within the judging time, or a win against the replies the
   search kept), or with ``--play-out-all`` whatever our search found, the
   game is played out: the engine defends, our player attacks, and the win
   is kept if we make five or the engine proves itself lost on the way.

The engine must print its evaluation in its chatter the way Rapfi does,
``MESSAGE ... Eval +M17 ...`` (the side to move wins within 17 plies;
``-M12`` loses within 12). Without ``--play-out-all``, a move the engine
cannot judge in time and our search did not find won counts as not kept,
so the rate is a lower bound of the true one.
Benchmark only: the engine is not part of this project.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..games.base import Game, State
from ..play.openings import random_opening
from ..play.piskvork import PiskvorkEngine
from ..play.players import find_player, parse_spec

#: The shortest proven win (plies) a test position may hold: shorter ones
#: are the threat search's, found at once.
MIN_PLIES = 5
#: The fewest stones a test position holds.
MIN_STONES = 5
#: Test positions taken from one game of the engine against itself.
POSITIONS_PER_GAME = 2
#: Random opening plies of those games, and the ply they stop at.
OPENING_PLIES = 2
LAST_PLY = 30
#: Milliseconds a move the engine plays itself with, proves a kept
#: position's win again with, and judges our move with.
PLAY_MS = 150
CONFIRM_MS = 500
JUDGE_MS = 1000
#: Our moves a claimed win is played out for against the engine.
PLAYOUT_MOVES = 20

_PROOF = re.compile(r"\bEval\s+([+-]?)M(\d+)\b")


def proof_of(messages: list[str]) -> int | None:
    """Return the engine's proven result from its chatter, in plies: ``n``
    when the side to move wins within n plies, ``-n`` when it loses, None
    when the last evaluation proves nothing (or there is none).

    >>> proof_of(["MESSAGE Depth 21 | Eval +M17 | Node 114K"])
    17
    >>> proof_of(["MESSAGE Eval -M4", "MESSAGE Eval -118"])
    """
    for line in reversed(messages):
        if "Eval" not in line:
            continue
        found = _PROOF.search(line)
        if found is None:
            return None
        plies = int(found.group(2))
        return -plies if found.group(1) == "-" else plies
    return None


@dataclass(frozen=True)
class Judge:
    """The reference engine of an ``engine:piskvork:...`` spec, started
    afresh for each question (a game's moves in, its move and proof out)."""

    spec: str

    def ask(
        self, game: Game, moves: list[int], milliseconds: int
    ) -> tuple[int, int | None]:
        """Return the engine's move after the move codes ``moves`` and its
        proof (:func:`proof_of`). The engine is told the moves in order:
        Rapfi misreads a position whose stones come in another order (it
        proved a win in 3 for the side that has none)."""
        options = parse_spec(self.spec).options
        engine = PiskvorkEngine(
            game,
            options["cmd"],
            milliseconds=milliseconds,
            cwd=options.get("cwd"),
            timeout=options.get("timeout"),
            name=self.spec,
        )
        try:
            state = game.initial_state()
            for move in moves:
                engine.observe(state, move)
                state = game.apply(state, move)
            move = engine.choose(state)
            return move, proof_of(engine.messages)
        finally:
            engine.close()


def find_positions(
    game: Game, judge: Judge, games: int, seed: int
) -> Iterator[list[int]]:
    """Yield the move lists of the test positions that ``games`` games of
    the engine against itself reach, from the random openings of ``seed``."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        moves = list(random_opening(game, OPENING_PLIES, rng))
        state = position_after(game, moves)
        kept = 0
        while len(moves) < LAST_PLY and not game.is_terminal(state):
            move, plies = judge.ask(game, moves, PLAY_MS)
            if plies is not None and abs(plies) <= 3:
                break  # the game is all but over
            if plies is not None and plies >= MIN_PLIES and len(moves) >= MIN_STONES:
                _, again = judge.ask(game, moves, CONFIRM_MS)
                if again is not None and again > 0:
                    yield list(moves)
                    kept += 1
                    if kept == POSITIONS_PER_GAME:
                        break
            moves.append(move)
            state = game.apply(state, move)


@dataclass(frozen=True)
class Verdict:
    """Our move in one test position and the engine's judgement of it."""

    move: str
    kept: bool
    proof_after: int | None  # the engine's proof for the side to move after us
    seconds: float  # our time for the move
    played_out: bool = False  # decided by playing our claimed win out


def judge_move(
    game: Game,
    moves: list[int],
    player_spec: str,
    seconds: float,
    judge: Judge,
    seed: int,
    *,
    play_out_all: bool = False,
) -> Verdict:
    """Let our player move in the position after ``moves``; return whether
    the engine then proves the side to move lost (or we made five). A move
    the engine cannot judge is played out when our search found it won, or
    with ``play_out_all`` always (the rate is then no lower bound)."""
    state = position_after(game, moves)
    player = find_player(player_spec, game, seconds=seconds, seed=seed)
    try:
        start = time.perf_counter()
        move = player.choose(state)
        spent = time.perf_counter() - start
        name = game.format_move(state, move)
        if game.is_terminal(game.apply(state, move)):
            return Verdict(name, True, None, spent)
        _, plies = judge.ask(game, [*moves, move], JUDGE_MS)
        if plies is None and (play_out_all or _claims_a_win(player)):
            kept = _wins_against(game, [*moves, move], player, judge)
            return Verdict(name, kept, None, spent, played_out=True)
        return Verdict(name, plies is not None and plies < 0, plies, spent)
    finally:
        player.close()


def _claims_a_win(player) -> bool:
    """Return whether our player's last search found its move won (proved
    it, or proved it against the replies it kept)."""
    result = getattr(player, "last_result", None)
    return result is not None and result.found == "win"


def _wins_against(game: Game, moves: list[int], player, judge: Judge) -> bool:
    """Play the game after ``moves`` out, the engine to move: return True
    if our ``player`` makes five or the engine proves itself lost within
    PLAYOUT_MOVES of our moves, False if the engine wins, proves its win or
    the moves run out."""
    moves = list(moves)
    for _ in range(PLAYOUT_MOVES):
        reply, plies = judge.ask(game, moves, JUDGE_MS)
        if plies is not None:
            return plies < 0
        moves.append(reply)
        state = position_after(game, moves)
        if game.is_terminal(state):
            return False
        moves.append(player.choose(state))
        if game.is_terminal(position_after(game, moves)):
            return True
    return False


def position_after(game: Game, moves: list[int]) -> State:
    """Return the position after the move codes ``moves``."""
    state = game.initial_state()
    for move in moves:
        state = game.apply(state, move)
    return state


def load_positions(path: Path) -> list[list[int]]:
    """Return the move lists of a positions file (one JSON list a line)."""
    with path.open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


def run(
    game: Game,
    player_spec: str,
    seconds: float,
    judge: Judge,
    positions: list[list[int]],
    on_verdict: Callable[[int, Verdict], None] | None = None,
    *,
    play_out_all: bool = False,
) -> list[Verdict]:
    """Test every position (the seed of position ``i`` is ``i``); return the
    verdicts in order (``play_out_all``: see :func:`judge_move`)."""
    verdicts = []
    for index, moves in enumerate(positions):
        verdict = judge_move(
            game, moves, player_spec, seconds, judge, index, play_out_all=play_out_all
        )
        verdicts.append(verdict)
        if on_verdict:
            on_verdict(index, verdict)
    return verdicts

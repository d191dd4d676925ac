"""Matches between two players, game by game in parallel worker processes.

Colours alternate: the games come in pairs that start from the same opening
(:func:`~.openings.match_opening`: a few random plies, standard Gomoku's
balanced), once with each player as black, so an unbalanced opening
favours neither player. With ``swap2`` (Gomoku) the players open by the
Swap2 rule instead (:mod:`.swap2`), each opening every other game, and the
colours are what their choices made them: an MCTS player's search decides,
an external engine answers the protocol's ``SWAP2BOARD``, and a turn the
opening does not allow loses the game.

Every move a player chooses is checked by the rules: a player that gives no
legal move (an external engine's garbage, illegal move or silence: a
:class:`~mcts.play.base.Forfeit`) loses that game, and the record's
``reason`` says why. Players are closed after each game (engine processes
end there), in whichever worker process played it.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..atomic import write_text_atomically
from ..games import find_game
from ..games.base import Game, State
from . import swap2
from .base import Forfeit, Player
from .openings import match_opening
from .piskvork import PiskvorkEngine
from .players import MctsPlayer, find_player, parse_spec


@dataclass(frozen=True)
class GameRecord:
    """One finished arena game: who was black, the result and the moves."""

    index: int
    a_black: bool
    winner: str | None  # "black", "white" or None for a draw
    a_score: float
    moves: tuple[str, ...]
    opening_plies: int
    reason: str = ""  # how the game ended, e.g. "white forfeits: ..."
    # Time each player spent choosing its moves (opening moves not counted).
    a_seconds: float = 0.0
    a_moves: int = 0
    b_seconds: float = 0.0
    b_moves: int = 0

    def to_json(self) -> dict:
        """Return the record as a JSON-ready dict."""
        return {
            "index": self.index,
            "a_black": self.a_black,
            "winner": self.winner,
            "a_score": self.a_score,
            "moves": list(self.moves),
            "opening_plies": self.opening_plies,
            "reason": self.reason,
            "a_seconds": round(self.a_seconds, 4),
            "a_moves": self.a_moves,
            "b_seconds": round(self.b_seconds, 4),
            "b_moves": self.b_moves,
        }


def write_records(path: Path, records: Iterable[GameRecord]) -> None:
    """Write game ``records`` to ``path`` as JSON lines, one game a line
    (:meth:`GameRecord.to_json`), atomically: a reader finds the old file
    or the new one whole, never a part."""
    write_text_atomically(
        path, "".join(json.dumps(record.to_json()) + "\n" for record in records)
    )


@dataclass(frozen=True)
class MatchResult:
    """The tally of a match from player A's side, with a 95% confidence interval."""

    a_wins: int
    b_wins: int
    draws: int
    score: float  # A's mean score per game, 0..1
    ci95: float  # half-width of the 95% interval (normal approximation)
    records: tuple[GameRecord, ...]

    @property
    def distinct(self) -> int:
        """Return how many games differ in at least one move."""
        return len({record.moves for record in self.records})

    @property
    def games(self) -> int:
        """Return the number of games played."""
        return self.a_wins + self.b_wins + self.draws

    def seconds_per_move(self) -> tuple[float, float]:
        """Return (A's, B's) mean time per move over the match, in seconds."""
        a_moves = sum(r.a_moves for r in self.records)
        b_moves = sum(r.b_moves for r in self.records)
        return (
            sum(r.a_seconds for r in self.records) / max(a_moves, 1),
            sum(r.b_seconds for r in self.records) / max(b_moves, 1),
        )

    def summary(self) -> str:
        """Return the one-line summary: wins, draws, A's score ± CI and the
        number of distinct games."""
        return (
            f"A wins {self.a_wins}, B wins {self.b_wins}, draws {self.draws}, "
            f"A score {100 * self.score:.1f}% ± {100 * self.ci95:.1f}%, "
            f"{self.distinct} distinct games"
        )


def tally(records: list[GameRecord]) -> MatchResult:
    """Return the MatchResult of ``records``."""
    scores = np.array([r.a_score for r in records], dtype=float)
    n = len(scores)
    mean = float(scores.mean()) if n else 0.0
    ci = 1.96 * float(scores.std(ddof=1)) / math.sqrt(n) if n > 1 else 1.0
    if n > 1 and ci == 0.0:
        # Every game scored the same: no spread to measure, yet not certain
        # (it printed "± 0.0%" for two wins). Agresti and Coull's interval:
        # two wins and two losses added.
        added = (float(scores.sum()) + 2) / (n + 4)
        ci = 1.96 * math.sqrt(added * (1 - added) / (n + 4))
    return MatchResult(
        a_wins=sum(r.a_score == 1.0 for r in records),
        b_wins=sum(r.a_score == 0.0 for r in records),
        draws=sum(r.a_score == 0.5 for r in records),
        score=mean,
        ci95=ci,
        records=tuple(sorted(records, key=lambda r: r.index)),
    )


def distinct_positions(
    game: Game, records: tuple[GameRecord, ...] | list[GameRecord], plies
) -> dict[int, int]:
    """Return, for each ply in ``plies``, how many distinct positions the
    games reached after that many plies, counting a position and its
    rotations and mirror images once (games that ended sooner are left out).

    It measures how much the players vary their play: an opening book only
    helps in positions it meets again.
    """
    seen: dict[int, set[bytes]] = {ply: set() for ply in plies}
    last = max(seen, default=0)
    images = game.symmetries()
    for record in records:
        state = game.initial_state()
        for ply, text in enumerate(record.moves[:last], start=1):
            state = game.apply(state, game.parse_move(state, text))
            if ply in seen:
                seen[ply].add(min(game.map_state(state, i).key() for i in images))
    return {ply: len(keys) for ply, keys in seen.items()}


@dataclass(frozen=True)
class _Task:
    index: int
    game: str
    options: dict
    spec_a: str
    spec_b: str
    a_black: bool
    opening: tuple[int, ...]
    seconds: float | None
    simulations: int | None
    seed: int
    # Open by Swap2, A the opener when ``a_black`` (and ``opening`` empty).
    swap2: bool = False


class _Timed(Player):
    """A player that keeps the time its ``choose`` calls took."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.spent = 0.0  # seconds
        self.moves = 0

    def choose(self, state: State) -> int:
        start = time.perf_counter()
        try:
            return self.player.choose(state)
        finally:
            self.spent += time.perf_counter() - start
            self.moves += 1

    def observe(self, state: State, move: int) -> None:
        self.player.observe(state, move)

    def close(self) -> None:
        self.player.close()


def play_game(
    game: Game, black: Player, white: Player, opening=(), *, max_plies: int = 2000
) -> tuple[str | None, list[str], str]:
    """Play one game between two Players after the ``opening`` move codes.

    Returns (winner "black"/"white" or None for a draw, the moves in notation,
    the reason it ended). A game still going after ``max_plies`` is called a
    draw; a player that gives no legal move loses (the reason says why).
    """
    state = game.initial_state()
    texts: list[str] = []
    players = (black, white)
    for ply in range(max_plies):
        if game.is_terminal(state):
            break
        if ply < len(opening):
            move = int(opening[ply])
        else:
            side = game.to_move(state)
            mover = players[0 if side == "black" else 1]
            try:
                move = mover.choose(state)
                if move not in game.legal_moves(state):
                    raise Forfeit(f"move code {move} is not legal")
            except Forfeit as error:
                other = "white" if side == "black" else "black"
                return other, texts, f"{side} ({mover.name}) forfeits: {error}"
        texts.append(game.format_move(state, move))
        for player in players:
            player.observe(state, move)
        state = game.apply(state, move)
    outcome = game.outcome(state)
    if outcome is None:
        return None, texts, f"draw after {max_plies} plies"
    return outcome.winner, texts, outcome.reason


def _run_task(task: _Task) -> GameRecord:
    """Play the game a task describes (in a worker process); return its record."""
    game = find_game(task.game, **task.options)
    seeds = np.random.SeedSequence(task.seed).generate_state(2)
    a, b = (
        _Timed(
            find_player(
                spec,
                game,
                seconds=task.seconds,
                simulations=task.simulations,
                seed=int(seed),
            )
        )
        for spec, seed in ((task.spec_a, seeds[0]), (task.spec_b, seeds[1]))
    )
    a_black, opening = task.a_black, task.opening
    try:
        if task.swap2:
            opener, second = (a, b) if task.a_black else (b, a)
            rng = np.random.default_rng(task.seed)
            try:
                codes, colour = swap2.play_opening(
                    game,
                    _swap2_turn(opener.player, game, rng),
                    _swap2_turn(second.player, game, rng),
                )
            except swap2.OpeningForfeit as error:
                # Black's side is the opener's until a colour is chosen.
                loser = opener if error.opener else second
                side, other = ("black", "white") if error.opener else ("white", "black")
                reason = f"{side} ({loser.name}) forfeits the Swap2 opening: {error}"
                return _record(task, a, b, task.a_black, other, (), 0, reason)
            a_black = (colour == "black") == task.a_black
            opening = tuple(codes)
        black, white = (a, b) if a_black else (b, a)
        winner, moves, reason = play_game(game, black, white, opening)
    finally:
        a.close()
        b.close()
    return _record(task, a, b, a_black, winner, moves, len(opening), reason)


def _record(
    task: _Task,
    a: _Timed,
    b: _Timed,
    a_black: bool,
    winner: str | None,
    moves: Iterable[str],
    opening_plies: int,
    reason: str,
) -> GameRecord:
    """Return a finished game's record: A's score from the winner and A's
    colour, and the time each player spent."""
    a_colour = "black" if a_black else "white"
    score = 0.5 if winner is None else (1.0 if winner == a_colour else 0.0)
    return GameRecord(
        task.index,
        a_black,
        winner,
        score,
        tuple(moves),
        opening_plies,
        reason,
        a.spent,
        a.moves,
        b.spent,
        b.moves,
    )


def _swap2_turn(player: Player, game: Game, rng: np.random.Generator) -> swap2.Turn:
    """Return how a player takes its turns in a Swap2 opening: an MCTS
    player's search decides; an external engine is asked by the protocol."""
    if isinstance(player, MctsPlayer):
        return swap2.search_turn(game, player.think, rng)
    if isinstance(player, PiskvorkEngine):
        return player.swap2_turn
    raise ValueError(
        f"{player.name} cannot open by Swap2: only the MCTS players (with "
        "their search) and piskvork engines (by SWAP2BOARD) make its choices"
    )


def _tasks(
    game: Game, spec_a, spec_b, games, seconds, simulations, seed, opening_plies
) -> Iterator[_Task]:
    rng = np.random.default_rng(seed)
    opening: list[int] = []
    for index in range(games):
        if index % 2 == 0:
            opening = match_opening(game, rng, opening_plies)
        yield _Task(
            index=index,
            game=game.name,
            options=dict(game.options),
            spec_a=str(spec_a),
            spec_b=str(spec_b),
            a_black=index % 2 == 0,
            opening=tuple(opening),
            seconds=seconds,
            simulations=simulations,
            seed=int(seed) * 100_003 + index,
        )


def run_match(
    game: Game,
    spec_a: str,
    spec_b: str,
    *,
    games: int,
    seconds: float | None = None,
    simulations: int | None = None,
    workers: int = 1,
    seed: int = 0,
    opening_plies: int | None = None,
    swap2_opening: bool = False,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """Play ``games`` games of A against B and return the tally.

    ``seconds``/``simulations`` are the budget per move of players whose spec
    sets none. ``workers`` > 1 plays games in that many processes. ``on_game``
    is called with each record as it finishes (in game order).
    ``swap2_opening`` opens Gomoku games by Swap2, A and B opening in turn.
    """
    parse_spec(spec_a), parse_spec(spec_b)  # fail fast on a bad spec
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if swap2_opening and game.name != "gomoku":
        raise ValueError("only Gomoku opens by Swap2")
    if swap2_opening and game.options["row"] < swap2.MIN_ROW:
        raise ValueError(
            f"Swap2 opens rows of {swap2.MIN_ROW} or more: its three black "
            f"stones could win a row of {game.options['row']} during the opening"
        )
    if swap2_opening:
        opening_plies = 0  # the players open: A in the games where A was black
    tasks = list(
        _tasks(game, spec_a, spec_b, games, seconds, simulations, seed, opening_plies)
    )
    tasks = [replace(task, swap2=swap2_opening) for task in tasks]
    records = []
    if workers <= 1:
        for task in tasks:
            records.append(_run_task(task))
            if on_game:
                on_game(records[-1])
    else:
        # spawn, not fork: numba's runtime and any threads of the parent are not
        # fork-safe; the compiled kernels load from numba's cache in each worker.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            for record in pool.map(_run_task, tasks):
                records.append(record)
                if on_game:
                    on_game(record)
    return tally(records)

"""Playing an opening book's games (:mod:`mcts.lab.book`) in worker
processes: :func:`learn` sends each game down the line the book selects,
:func:`play_out` plays it in a worker, and the result comes back to the
book, saved every few games without the games still being played."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from ..games import find_game
from ..games.base import Game
from ..play.players import find_player
from .book import Book

_WORKER: dict = {}


def _init_worker(
    game_name: str,
    options: dict,
    spec: str,
    seconds: float,
    learner_spec: str | None = None,
) -> None:
    _WORKER.update(
        game=find_game(game_name, **options),
        spec=spec,
        seconds=seconds,
        learner_spec=learner_spec or spec,
    )


def play_out(line: list[int], learner: str | None = None) -> tuple[list[int], int]:
    """Play a game along the book line ``line`` and on to its end with the
    worker's player on both sides; return (all its moves, final status).

    Along the line the player plays the moves of the side that is not
    ``learner`` (a book for one side) itself, searching them as in any game;
    where it answers otherwise the game leaves the line. The learner's line
    moves (all of them, for a book of both sides) are played as given, and
    past the line the learner's player (the worker's ``learner_spec``) plays
    them: the player the book will be grafted for.
    """
    game, seconds = _WORKER["game"], _WORKER["seconds"]
    players = [
        find_player(
            _WORKER["learner_spec"] if side == learner else _WORKER["spec"],
            game,
            seconds=seconds,
        )
        for side in ("black", "white")
    ]
    state, moves = game.initial_state(), []

    def play(move: int) -> None:
        nonlocal state
        for player in players:
            player.observe(state, move)
        state = game.apply(state, move)
        moves.append(move)

    for move in line:
        if learner is not None and game.to_move(state) != learner:
            answer = players[len(moves) % 2].choose(state)
            if answer != move:  # the opponent leaves the line here
                play(answer)
                break
        play(move)
    while game.status(state) == 0:
        play(players[len(moves) % 2].choose(state))
    for player in players:
        player.close()
    return moves, int(game.status(state))


def learn(
    game: Game,
    book: Book,
    *,
    spec: str,
    seconds: float,
    games: int,
    workers: int,
    save: Callable[[Book, int], None],
    checkpoint_every: int = 20,
    on_game: Callable[[int, list[int], int], None] | None = None,
    learner_spec: str | None = None,
) -> None:
    """Add ``games`` games to ``book``, ``workers`` at a time, played by
    ``spec`` at ``seconds`` a move (the learning side past the book by
    ``learner_spec`` if given); call ``save(book, done)`` every
    ``checkpoint_every`` games and at the end."""
    options = dict(game.options)
    done = 0
    # spawn, not fork, as the arena: numba's runtime is not fork-safe.
    with ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(game.name, options, spec, seconds, learner_spec),
    ) as pool:
        running: dict[Future, list[int]] = {}
        started = 0
        while done < games:
            while len(running) < workers and started < games:
                line = book.select()
                running[pool.submit(play_out, line, book.learner)] = line
                started += 1
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                line = running.pop(future)
                moves, status = future.result()
                book.backup(line, moves, status)
                done += 1
                if on_game is not None:
                    on_game(done, moves, status)
                if done % checkpoint_every == 0:
                    _save_settled(book, running.values(), save, done)
    save(book, done)


def _save_settled(book: Book, lines, save, done: int) -> None:
    """Call ``save(book, done)`` without the virtual losses of the games
    still being played (``lines``), which a resumed run would never settle."""
    pending = list(lines)
    for line in pending:
        book.count_line(line, -1)
    try:
        save(book, done)
    finally:
        for line in pending:
            book.count_line(line, 1)

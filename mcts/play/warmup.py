"""Compile (or load from numba's cache) every kernel the AI uses, ahead of
play, with progress a server can show.

numba compiles a kernel on its first call, and its compiler holds the GIL
meanwhile: in a web server, a first AI move would stall every other request
for as long as the compiling takes (a minute or more on a fresh checkout).
So the compiling happens here, in a process of its own
(``python -m mcts warm``), one game after another or several at once
(``jobs``), and the compiled code lands in numba's on-disk cache; a server
then loads it in a moment (:mod:`webgame.services.readiness`). Later starts
find the cache filled and take a few seconds.

Each game is warmed by :func:`warm_game`, which plays every path the product
uses (see :func:`warm_game`), so that no search meets a kernel signature the
warm-up did not compile.

Progress is counted in compiles: numba reports each one
(``numba:compile`` events), and a game's share done is its compiles so far
over those of the last cold warm-up (kept beside the cache, :data:`COUNTS`),
capped below 1 until the game is done.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numba
from numba.core import event

from ..atomic import write_text_atomically
from ..games import find_game
from .arena import play_game
from .players import Level, MctsPlayer, find_player

#: The games in the order they are warmed: the longest first, so that with
#: two jobs the short ones fill in behind it.
GAMES = ("gomoku", "reversi", "loa")

#: The page's AI (heavy search with the light model's knowledge), on a
#: budget that plays a whole game in a moment yet reaches every kernel:
#: Reversi's endgame solver and pattern evaluation, Gomoku's threat search,
#: shapes and alpha-beta (which plays a search for a time, hence the short
#: think time beside the simulations), Lines of Action's evaluation, and the
#: model loader.
WARM_BUDGET = "sims=64,seconds=0.01,seed=1"
WARM_SPEC = "mcts-heavy:model={model}," + WARM_BUDGET

#: The late search (see :func:`warm_game`): this many plies before the warm
#: game's end, for this many seconds (Reversi's root solve needs 0.05 s).
LATE_PLIES = 12
LATE_SECONDS = 0.3

#: Compiles a cold warm-up of each game made when it was last measured:
#: the progress's denominator until this checkout has its own count.
DEFAULT_COMPILES = {"reversi": 370, "gomoku": 415, "loa": 365}


@dataclass
class GameProgress:
    """One game's warm-up as a server shows it: ``state`` is waiting,
    compiling, ready or failed; ``progress`` 0..1; ``seconds`` since the
    warm-up started, when the game became ready; ``compiles`` counted."""

    state: str = "waiting"
    progress: float = 0.0
    seconds: float | None = None
    compiles: int = 0
    error: str | None = None


def counts_path() -> Path:
    """The file beside numba's cache that keeps each game's compile count."""
    return Path(numba.config.CACHE_DIR or ".").parent / "warm-compiles.json"  # type: ignore[attr-defined]


def expected_compiles() -> dict[str, int]:
    """Each game's compiles in its last cold warm-up (defaults if unknown)."""
    counts = dict(DEFAULT_COMPILES)
    with contextlib.suppress(OSError, ValueError):
        counts.update(json.loads(counts_path().read_text(encoding="utf-8")))
    return counts


def _remember_compiles(game: str, compiles: int) -> None:
    """Keep a cold warm-up's count (a warm one compiles next to nothing)."""
    if compiles < 20:
        return
    counts = expected_compiles()
    counts[game] = compiles
    try:
        counts_path().parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(counts_path(), json.dumps(counts))
    except OSError:
        pass  # a read-only checkout: progress keeps the defaults


class _CompileCounter(event.Listener):
    """Counts finished compiles and calls ``on_count(count)`` for each."""

    def __init__(self, on_count: Callable[[int], None]) -> None:
        self.count = 0
        self.on_count = on_count

    def on_start(self, event: event.Event) -> None:
        pass

    def on_end(self, event: event.Event) -> None:
        self.count += 1
        self.on_count(self.count)


def warm_rules(names: tuple[str, ...] = GAMES) -> None:
    """Compile the rules of ``names``: a random game of each through the
    :class:`~mcts.games.base.Game` API the server uses for people's moves
    (legal moves, moves, the end, the state string and the board)."""
    chooser = random.Random(1)
    for name in names:
        game = find_game(name)
        state = game.initial_state()
        while not game.is_terminal(state):
            game.state_string(state)
            state = game.apply(state, chooser.choice(game.legal_moves(state)))
        game.outcome(state)
        game.board_text(state)


def warm_game(
    name: str,
    *,
    model: str | None = "light",
    on_compile: Callable[[int], None] | None = None,
) -> int:
    """Play every path of ``name`` the product uses with the page's AI and
    return the number of kernels numba compiled meanwhile (0 when all came
    from the cache); ``on_compile(count)`` follows each compile.
    ``model=None`` warms the search without a model."""
    counter = _CompileCounter(on_compile or (lambda count: None))
    spec = (
        f"mcts-heavy:{WARM_BUDGET}" if model is None else WARM_SPEC.format(model=model)
    )
    with event.install_listener("numba:compile", counter):
        warm_rules((name,))
        game = find_game(name)
        _, moves, _ = play_game(game, find_player(spec, game), find_player(spec, game))
        # A search with a think time near the end, as the higher levels make:
        # Reversi's root solved exactly (mcts.search.reversi.endgame.solve).
        late = game.initial_state()
        for text in moves[: max(0, len(moves) - LATE_PLIES)]:
            late = game.play(late, text)
        player = find_player(spec, game)
        assert isinstance(player, MctsPlayer)
        player.prepare(late, None)
        player.search(Level(seconds=LATE_SECONDS))
    return counter.count


def warm_up(
    *,
    games: tuple[str, ...] = GAMES,
    model: str | None = "light",
    jobs: int = 1,
    report: Callable[[str, GameProgress], None] | None = None,
) -> dict[str, GameProgress]:
    """Warm ``games`` (:func:`warm_game`), ``jobs`` of them at once in
    processes of their own (1: here, one after another), and return each
    game's final progress; ``report(game, progress)`` follows every change.
    """
    started = time.monotonic()
    expected = expected_compiles()
    progress = {name: GameProgress() for name in games}

    def update(name: str, **change) -> None:
        entry = progress[name]
        for key, value in change.items():
            setattr(entry, key, value)
        if entry.state == "compiling":
            share = entry.compiles / max(1, expected.get(name, 400))
            entry.progress = round(min(0.99, share), 3)
        if report is not None:
            report(name, entry)

    def finished(name: str, compiles: int, error: str | None) -> None:
        seconds = round(time.monotonic() - started, 2)
        if error is None:
            _remember_compiles(name, compiles)
            update(
                name, state="ready", progress=1.0, seconds=seconds, compiles=compiles
            )
        else:
            update(name, state="failed", seconds=seconds, error=error)

    if jobs <= 1 or len(games) <= 1:
        for name in games:
            update(name, state="compiling")
            try:
                count = warm_game(
                    name, model=model, on_compile=partial(_count, update, name)
                )
            except Exception as exc:  # reported, and the next game still warms
                finished(name, 0, f"{type(exc).__name__}: {exc}")
            else:
                finished(name, count, None)
        return progress
    _warm_in_processes(games, model, min(jobs, len(games)), update, finished)
    return progress


def _count(update: Callable[..., None], name: str, compiles: int) -> None:
    update(name, compiles=compiles)


def _warm_in_processes(games, model, jobs, update, finished) -> None:
    """Warm ``games`` in ``jobs`` forked processes that send their progress
    back on a queue: ``("compiles", game, n)``, ``("done", game, n, error)``."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    waiting = list(games)
    running: dict[str, multiprocessing.process.BaseProcess] = {}
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            update(name, state="compiling")
            running[name] = context.Process(
                target=_child, args=(name, model, queue), name=f"warm-{name}"
            )
            running[name].start()
        try:
            message = queue.get(timeout=0.5)
        except Exception:  # queue.Empty: look for a child that died silently
            for name, child in list(running.items()):
                if not child.is_alive() and child.exitcode != 0:
                    running.pop(name)
                    finished(
                        name, 0, f"the warm-up process exited with {child.exitcode}"
                    )
            continue
        if message[0] == "compiles":
            update(message[1], compiles=message[2])
        else:
            _, name, count, error = message
            running.pop(name).join()
            finished(name, count, error)


def _child(name: str, model: str | None, queue) -> None:
    """A warm-up process: warm one game, sending progress at most 5 times a
    second."""
    last = [0.0]

    def on_compile(count: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.2:
            last[0] = now
            queue.put(("compiles", name, count))

    try:
        count = warm_game(name, model=model, on_compile=on_compile)
    except Exception as exc:
        queue.put(("done", name, 0, f"{type(exc).__name__}: {exc}"))
    else:
        queue.put(("done", name, count, None))
    queue.close()
    queue.join_thread()


def write_status(
    path: Path, progress: dict[str, GameProgress], started: float, *, rules: bool
) -> None:
    """Write the warm-up's status for a server to read (atomically): whether
    the rules are compiled, each game's progress, the pid and whether every
    game is done."""
    status = {
        "pid": os.getpid(),
        "started": started,
        "rules": rules,
        "finished": all(p.state in ("ready", "failed") for p in progress.values()),
        "games": {name: asdict(entry) for name, entry in progress.items()},
    }
    write_text_atomically(path, json.dumps(status))

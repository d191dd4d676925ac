"""Compile (or load from numba's cache) every kernel the AI uses, ahead of
play, with progress a server can show.

numba compiles a kernel on its first call, and its compiler holds the GIL
meanwhile: in a web server, a first AI move would stall every other request
for as long as the compiling takes (a minute or more on a fresh checkout).
So the compiling happens here, in processes of their own
(``python -m mcts warm``), and the compiled code lands in numba's on-disk
cache; a server then loads it in a moment (:mod:`webgame.services.readiness`).
Later starts find the cache filled and take a few seconds.

With one job the rules and then each game are warmed here, one after
another. With two or more, two :data:`STAGES` run at once first, each
starting with a share of the rules (the server waits for them all): the
search's kernel, shared by every game, in one; what the games need beside it
in the other. Then every game; see :func:`warm_search`.

Each game is warmed by :func:`warm_game`, which plays every path the product
uses, so that no search meets a kernel signature the warm-up did not compile
(``tests/web/test_no_compile.py`` holds it to that).

Progress is counted in compiles: numba reports each one
(``numba:compile`` events), and a game's share done is its compiles so far
over those of the last cold warm-up (kept beside the cache,
:func:`counts_path`; :data:`DEFAULT_COMPILES` until then), shown as
:func:`shown_progress` makes it: below 1 until the game is done, and still
moving when the code has grown more kernels than the count knows.

A warm-up also removes the caches of earlier sources no warm-up used for a
week (:func:`mcts._numba_cache.prune`).
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import random
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numba
import numpy as np
from numba.core import event

from .. import _numba_cache
from ..atomic import write_text_atomically
from ..games import find_game
from ..games import kernels as game_kernels
from ..games.base import MAX_MOVES, Game
from ..games.gomoku import Gomoku
from ..models.live import LiveModel, search_gain
from ..models.model import ModelError
from ..models.store import model_path
from ..search.gomoku.focus import focus_moves
from ..search.gomoku.threats.root import plan_root
from ..search.gomoku.threats.vct import wins_by_threats
from ..search.proof_check import strict_proofs
from ..search.reversi.endgame import leaf_margin
from ..search.tree import Tree
from .arena import play_game
from .players import Level, MctsPlayer, find_player, load_model

#: The games, in the order a single job warms them.
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

#: The compiles of a cold two-job warm-up of each game (2026-11-30, the
#: shared stages counted in each; a cold ``python -m mcts warm`` writes them
#: to :func:`counts_path`): the progress's denominator until this checkout
#: has its own count.
DEFAULT_COMPILES = {"reversi": 447, "gomoku": 447, "loa": 447}

#: The share of the expected compiles up to which the bar follows it exactly.
EXACT_UP_TO = 0.95


def shown_progress(compiles: int, expected: int) -> float:
    """Return the progress (0..0.99) of a game that has compiled
    ``compiles`` of its ``expected`` kernels: their share up to 95%, then
    creeping towards 99%, so that a count grown beyond ``expected`` slows
    the bar instead of parking it.

    >>> [shown_progress(n, 400) for n in (0, 200, 380, 400, 480, 800)]
    [0.0, 0.5, 0.95, 0.966, 0.987, 0.99]
    """
    share = compiles / max(1, expected)
    if share <= EXACT_UP_TO:
        return round(share, 3)
    left = 0.99 - EXACT_UP_TO
    return round(0.99 - left * math.exp(-(share - EXACT_UP_TO) / 0.1), 3)


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


def _cache_is_empty() -> bool:
    """Whether numba's cache for these sources holds no compiled code yet."""
    folder = Path(numba.config.CACHE_DIR or ".")  # type: ignore[attr-defined]
    return not folder.is_dir() or not any(folder.iterdir())


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
    (legal moves, moves, the end, the state string and the board), and
    Gomoku's renju forbidden points and standard overlines."""
    chooser = random.Random(1)
    for name in names:
        game = find_game(name)
        state = game.initial_state()
        while not game.is_terminal(state):
            game.state_string(state)
            state = game.apply(state, chooser.choice(game.legal_moves(state)))
        game.outcome(state)
        game.board_text(state)
    if "gomoku" in names:
        # Renju's forbidden points, as a snapshot lists them for the page.
        renju = Gomoku(rule="renju")
        crossing = renju.play_all(["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"])
        assert renju.forbidden_points(crossing)
        # A renju position read from its string (the explorer reads renju's
        # own model there: whether black still has a move, on a new array).
        renju.parse_state(renju.state_string(crossing))
        # The standard rule's overline, as a snapshot names it.
        standard = Gomoku(rule="standard")
        moves = ["c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8"]
        six = standard.play_all(moves)
        assert standard.overline_through(six, standard.parse_move_text(six, "f8"))


def warm_game(
    name: str,
    *,
    model: str | None = "light",
    on_compile: Callable[[int], None] | None = None,
) -> int:
    """Play every path of ``name`` the product uses with the page's AI and
    return the number of kernels numba compiled meanwhile (0 when all came
    from the cache); ``on_compile(count)`` follows each compile.
    ``model=None`` warms the search without a model, as does a model that
    cannot be loaded (damaged: the server refuses it, and the kernels are
    the same; QA saw a damaged light model leave Lines of Action's kernels
    to compile at the first request)."""
    counter = _CompileCounter(on_compile or (lambda count: None))
    try:
        _warm_game(name, model, counter)
    except ModelError:
        if model is None:
            raise
        _warm_game(name, None, counter)
    return counter.count


def _warm_game(name: str, model: str | None, counter: _CompileCounter) -> None:
    """Play :func:`warm_game`'s paths, counting compiles with ``counter``."""
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
        if model is not None:
            _warm_live_model(game, model)


def _warm_live_model(game: Game, model: str) -> None:
    """Grow a live model as the server does (webgame.services.livegrowth),
    in a temporary folder: seeded from ``model``, a gain (here the model's
    own tree) folded in at the root, saved."""
    gain = search_gain(Tree(), load_model(game, model).tree)
    with tempfile.TemporaryDirectory(prefix="warm-live-") as folder:
        seed = model_path(game.name, model)
        live = LiveModel(game, Path(folder) / "live", seed=seed, save_every=1)
        live.add_game([], {0: gain})


def warm_up(
    *,
    games: tuple[str, ...] = GAMES,
    model: str | None = "light",
    jobs: int = 1,
    report: Callable[[str, GameProgress], None] | None = None,
    on_rules: Callable[[], None] | None = None,
) -> dict[str, GameProgress]:
    """Compile the rules of every game (:func:`warm_rules`, then
    ``on_rules()``), and warm ``games`` (:func:`warm_game`), ``jobs`` at
    once in processes of their own (1: here, one after another); return
    each game's final progress. ``report(game, progress)`` follows every
    change."""
    started = time.monotonic()
    expected = expected_compiles()
    progress = {name: GameProgress() for name in games}
    # Only a warm-up that starts from an empty cache counts every compile:
    # one resumed after a stop mid-compile counts what was left.
    cold = _cache_is_empty()
    if not os.environ.get("NUMBA_CACHE_DIR"):  # ours, not a folder the user chose
        _numba_cache.prune(Path(numba.config.CACHE_DIR))  # type: ignore[attr-defined]

    def update(name: str, **change) -> None:
        entry = progress[name]
        for key, value in change.items():
            setattr(entry, key, value)
        if entry.state == "compiling":
            entry.progress = shown_progress(entry.compiles, expected.get(name, 400))
        if report is not None:
            report(name, entry)

    def finished(name: str, compiles: int, error: str | None) -> None:
        seconds = round(time.monotonic() - started, 2)
        if error is None:
            if cold:
                _remember_compiles(name, compiles)
            update(
                name, state="ready", progress=1.0, seconds=seconds, compiles=compiles
            )
        else:
            update(name, state="failed", seconds=seconds, error=error)

    if jobs <= 1 or len(games) <= 1:
        warm_rules()
        if on_rules is not None:
            on_rules()
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
    _warm_in_processes(games, model, min(jobs, len(games)), update, finished, on_rules)
    return progress


def _count(update: Callable[..., None], name: str, compiles: int) -> None:
    update(name, compiles=compiles)


def warm_search(
    model: str | None = "light", gomoku_parts=None, rules_done=None
) -> None:
    """Compile the rules of Reversi and Lines of Action (then call
    ``rules_done()``) and the search's kernel
    (``mcts.search.kernel.run_simulations``, one for every game, with each
    game's knowledge under it) by a bare search of a few simulations: first
    Reversi's part of it (the endgame solver at the leaves), then, once
    ``gomoku_parts`` (an Event) says Gomoku's part is compiled in the other
    stage (:func:`warm_gomoku_parts`), the rest. The tree models' loading
    and the live model's growth meanwhile."""
    warm_rules(("reversi", "loa"))
    if rules_done is not None:
        rules_done()
    state = np.array(find_game("reversi").initial_state().array)
    leaf_margin(state, 10)
    if model is not None:  # while Gomoku's part compiles over there
        for name in GAMES:
            load_model(find_game(name), model)
        _warm_live_model(find_game("reversi"), model)
    if gomoku_parts is not None:
        gomoku_parts.wait(timeout=120)
    game = find_game("reversi")
    player = find_player("mcts-heavy:sims=16,seed=1", game)
    assert isinstance(player, MctsPlayer)
    player.prepare(game.initial_state(), None)
    player.search(None)


def warm_gomoku_parts() -> None:
    """Compile Gomoku's part of the search's kernel with the argument types
    the kernel passes (a writable state, int64 budgets): the threat search at
    the leaves and the focus on the moves worth a node."""
    game = find_game("gomoku")
    state = np.array(game.play(game.initial_state(), "h8").array)
    wins_by_threats(state, 100, 10)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    count = game_kernels.legal_moves(game.game_id, state, moves)
    focus_moves(game.game_id, state, moves, count, 5, 2)


def warm_beside_search(
    model: str | None = "light", gomoku_parts=None, rules_done=None
) -> None:
    """Compile Gomoku's rules (then call ``rules_done()``) and what the
    games need beside the search's kernel, after Gomoku's part of that
    kernel (``gomoku_parts`` set once it is done): Gomoku's alpha-beta (a
    quick game of it), root threat search and proof check."""
    try:
        warm_rules(("gomoku",))
        if rules_done is not None:
            rules_done()
        warm_gomoku_parts()
    finally:
        if gomoku_parts is not None:
            gomoku_parts.set()
    game = find_game("gomoku")
    spec = (
        "alphabeta:seconds=0.01"
        if model is None
        else f"alphabeta:seconds=0.01,model={model}"
    )
    _, moves, _ = play_game(
        game, find_player(spec, game), find_player(spec, game), max_plies=16
    )
    # The root's threat search (mcts.search.gomoku.threats.root), as the
    # MCTS plans each Gomoku move, along that game.
    state = game.initial_state()
    for text in moves:
        state = game.play(state, text)
        if not game.is_terminal(state):
            plan_root(Tree(), state.array, 5, deep_budget=1000)
    # The check of the proofs a Gomoku result shows (mcts.search.proof_check).
    tree = Tree()
    given = np.array([], dtype=np.int64)
    strict_proofs(game.game_id, state.array, tree.arrays, tree.size, given, 0, 0)


#: With two jobs or more, the warm-up starts with these two stages at once,
#: and the games follow once the search's kernel is compiled: each game
#: compiling that kernel for itself at the same time would do the longest
#: part of the work twice.
STAGES: dict[str, Callable[..., None]] = {
    "search": warm_search,
    "beside": warm_beside_search,
}


#: Stages that yield the processor (nice increments) once their rules are
#: compiled: off the critical path (the ``search`` stage's kernel), they
#: leave the processor to it and to a server starting beside
#: (``collectstatic``).
LOW_PRIORITY = {"beside": 5}


def _warm_in_processes(games, model, jobs, update, finished, on_rules) -> None:
    """Warm ``games`` in ``jobs`` forked processes, after the :data:`STAGES`
    (the games wait for the ``search`` stage); the processes send progress
    back on a queue: ``("compiles", task, n)``, ``("done", task, n, error)``.
    A stage's compiles count for every game."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    gomoku_parts = context.Event()
    stages = list(STAGES)
    rules_left = set(stages)  # the stages yet to compile their rules
    waiting = stages + list(games)
    running: dict[str, multiprocessing.process.BaseProcess] = {}
    shared = dict.fromkeys(stages, 0)
    own = dict.fromkeys(games, 0)

    def count(task: str, compiles: int) -> None:
        if task in shared:
            shared[task] = compiles
            for name in games:
                update(name, compiles=own[name] + sum(shared.values()))
        else:
            own[task] = compiles
            update(task, compiles=compiles + sum(shared.values()))

    for name in games:
        update(name, state="compiling")
    while waiting or running:
        while waiting and (len(running) < jobs or waiting[0] in games):
            task = waiting[0]
            if task in games and ("search" in running or "search" in waiting):
                break  # the games wait for the search's kernel, then all
                # start (a moment each, the longest part in the cache)
            waiting.pop(0)
            running[task] = context.Process(
                target=_child,
                args=(task, model, queue, gomoku_parts),
                name=f"warm-{task}",
            )
            running[task].start()
        try:
            message = queue.get(timeout=0.5)
        except Exception:  # queue.Empty: look for a child that died silently
            for task, child in list(running.items()):
                if not child.is_alive() and child.exitcode != 0:
                    running.pop(task)
                    if task in games:
                        finished(
                            task, 0, f"the warm-up process exited with {child.exitcode}"
                        )
            continue
        if message[0] in ("rules", "done") and message[1] in rules_left:
            # A stage that failed before its rules holds the server no longer.
            rules_left.discard(message[1])
            if not rules_left and on_rules is not None:
                on_rules()
        if message[0] == "compiles":
            count(message[1], message[2])
        elif message[0] == "done":
            _, task, compiles, error = message
            running.pop(task).join()
            count(task, compiles)
            if task in games:
                finished(task, compiles + sum(shared.values()), error)


def _child(task: str, model: str | None, queue, gomoku_parts) -> None:
    """A warm-up process: run one stage or warm one game, sending progress
    at most 5 times a second."""
    last = [0.0]

    def on_compile(count: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.2:
            last[0] = now
            queue.put(("compiles", task, count))

    def rules_done() -> None:
        queue.put(("rules", task))
        if task in LOW_PRIORITY:
            os.nice(LOW_PRIORITY[task])

    counter = _CompileCounter(on_compile)
    try:
        with event.install_listener("numba:compile", counter):
            if task in STAGES:
                STAGES[task](model, gomoku_parts, rules_done)
            else:
                warm_game(task, model=model)
    except Exception as exc:
        queue.put(("done", task, counter.count, f"{type(exc).__name__}: {exc}"))
    else:
        queue.put(("done", task, counter.count, None))
    queue.close()
    queue.join_thread()


#: Set once the warm-up stops with its parent (:func:`stop_with_parent`).
_STOPPING = threading.Event()


def write_status(
    path: Path, progress: dict[str, GameProgress], started: float, *, rules: bool
) -> None:
    """Write the warm-up's status for a server to read (atomically): whether
    the rules are compiled, each game's progress, the pid and whether every
    game is done. Nothing once ``path``'s folder is gone (the server that
    followed it stopped and removed it) or the warm-up stops with it."""
    if _STOPPING.is_set():
        return
    status = {
        "pid": os.getpid(),
        "started": started,
        "rules": rules,
        "finished": all(p.state in ("ready", "failed") for p in progress.values()),
        "games": {name: asdict(entry) for name, entry in progress.items()},
    }
    with contextlib.suppress(FileNotFoundError):
        write_text_atomically(path, json.dumps(status))


def stop_with_parent(parent: int, status: Path | None) -> None:
    """Exit once process ``parent``, which started this warm-up, is no
    longer its parent (it exited), taking the warm-up's processes and its
    ``status`` file (and the file's folder, if then empty) along: a ``make
    run`` whose start failed left its warm-up compiling, and an operator's
    tries stacked them up. What it compiled so far stays in numba's cache."""

    def stop() -> None:
        _STOPPING.set()  # no status written from now on
        time.sleep(0.2)  # one being written is
        for child in multiprocessing.active_children():
            child.terminate()
        if status is not None:
            with contextlib.suppress(OSError):
                status.unlink()
            with contextlib.suppress(OSError):
                status.parent.rmdir()
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        stop()

    if os.getppid() != parent:  # gone already
        stop()
    threading.Thread(target=watch, name="warm-up-parent", daemon=True).start()

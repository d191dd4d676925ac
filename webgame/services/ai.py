"""The AI's moves and hints, and the searches behind them.

A search runs on the worker pool that clients share in turn (:mod:`.workers`) without
holding any lock or database transaction; its move is written optimistically
afterwards (see :mod:`.games`). :data:`.searches.SEARCHES` is everything this
process remembers about searches between requests.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from mcts import (
    Game,
    Level,
    MctsPlayer,
    Searcher,
    SearchResult,
    State,
    ai_spec,
    find_player,
    spec_level,
    swap2,
)

from ..clients import current_client
from ..errors import ServiceError
from ..models import Game as GameRow
from . import clocks, live, livegrowth, openings, presence
from .clocks import now_ms
from .games import (
    GameId,
    check_version,
    get_row,
    no_help_between_seats,
    playable,
    write,
)
from .players import DEFAULT_THINK_TIME
from .positions import replay, snapshot
from .readiness import READINESS
from .rules import options_key
from .searches import MOVES_KEPT, SEARCHES
from .sides import other_side, side_words
from .treemodels import ready_model
from .workers import POOL

log = logging.getLogger(__name__)

#: The seconds a computer's running clock waits for its move to be asked
#: for before the server asks itself (:func:`unasked_ai_moves`).
UNASKED_SECONDS = 1.0


def stop_search(game_id: GameId) -> dict:
    """Ask the search running for the game to end now; the pending ai-move or
    hint request then answers with the best move found so far.

    Returns ``{"stopped": True}`` if a search was running or about to start
    (in this process; with ``AI_BACKEND=celery`` on any worker), ``{"stopped":
    False}`` if none was (it may have just ended).
    """
    row = get_row(game_id)
    if settings.AI_BACKEND == "celery":
        from .. import backends

        return {"stopped": backends.stop(row.pk)}
    return {"stopped": SEARCHES.stop(row.pk)}


def ai_move(game_id: GameId, *, version: int | None = None) -> dict:
    """Return ``{"game": snapshot, "search": result}`` after the AI of the side
    to move played its choice.

    Refuses when the game is over (``game_over``) or the side to move is human
    (``not_ai_turn``); 409 if the game changed during the search; 503 when
    every AI slot is taken. A request at the ``version`` of an AI move under
    way in this process waits for that move and answers as its request does,
    and one at the version of the AI's move just played gets that move if
    nothing else happened since; without ``version``, it is refused (409)
    while the AI thinks.
    """
    row = get_row(game_id)
    if version is not None:  # asked again by a page that missed the answer
        answered = SEARCHES.answered(row.pk, version, row.version)
        if answered is not None:
            return {"game": snapshot(row), "search": answered["search"]}
    check_version(row, version)
    game, state = playable(row)
    side = openings.acting_side(row, game, state)
    ai = row.players[side]
    if ai["kind"] != "ai":
        raise ServiceError(
            "not_ai_turn",
            (
                _(
                    "it is %(side)s's turn and %(side)s is a seat's player: "
                    "play with POST moves/ and that seat's token"
                )
                if row.seats
                else _(
                    "it is %(side)s's turn and %(side)s is human: play with POST "
                    "moves/, ask for a hint, or make the side an AI with PATCH"
                )
            )
            % {"side": side_words(side)},
        )
    with SEARCHES.moving(row.pk, row.version, follow=version is not None) as (
        move,
        following,
    ):
        if following:
            return move.wait()
        move.answer = _play_ai(row, game, state, side, ai)
        return move.answer


def unasked_ai_moves() -> list[tuple[GameId, int]]:
    """Return (game id, version) of the games where a person waits for the
    computer's move, its clock running, and nobody has asked for that move
    (POST ai-move/) for :data:`UNASKED_SECONDS`: the server then asks for it
    itself (:func:`play_unasked`, from the flag watcher). The page asks at
    once; a page whose requests stopped reaching the server after its
    player's move (a network drop, or on purpose) left the computer to lose
    on time without a move. The computer against itself waits for its page,
    which paces its moves (paused too); once no page plays it, the server
    plays on (spectators QA: its owner closed the page, and the watchers saw
    its clock run out)."""
    waited = timezone.now() - dt.timedelta(seconds=UNASKED_SECONDS)
    rows = GameRow.objects.filter(
        status=GameRow.Status.PLAYING,
        deadline__isnull=False,
        updated__lte=waited,
    ).filter(Q(players__black__kind="ai") | Q(players__white__kind="ai"))
    due: list[tuple[GameId, int]] = []
    for row in rows[:100]:
        ticking = row.clock and row.clock["since"] is not None
        if row.seats or not ticking or _searching(row.pk):
            continue
        game, state = playable(row)
        side = openings.acting_side(row, game, state)
        computer_waited_for = row.players[side]["kind"] == "ai"
        person_waits = row.players[other_side(side)]["kind"] != "ai"
        page_gone = not person_waits and not presence.who_is_here(row.pk)["playing"]
        if computer_waited_for and (person_waits or page_gone):
            due.append((row.pk, row.version))
    return due


def _searching(game_id: GameId) -> bool:
    """Return whether the AI is on a move or hint of the game: in this
    process, or with Celery in any."""
    if settings.AI_BACKEND == "celery":
        from .. import backends

        return backends.searching(game_id)
    return SEARCHES.under_way(game_id)


#: The last refusal of each game's unasked move that was logged (its
#: version and words), for the games refused last: the flag watcher asks
#: again twice a second, and each time wrote the same line (operator QA:
#: with no Celery worker, 54 lines in 15 s).
_REFUSALS_LOGGED: OrderedDict[GameId, tuple[int, str]] = OrderedDict()
_REFUSALS_LOCK = threading.Lock()  # each game's look runs on a thread of its own


def play_unasked(game_id: GameId, version: int) -> None:
    """Play the computer's move that nobody asked for (:func:`unasked_ai_moves`)
    if the game is still at ``version`` (once played, asking again at that
    version plays nothing). A refusal (the game changed, a page asked
    meanwhile, the server is busy) leaves it to the next look; it is logged
    once for the move, not at each look."""
    try:
        ai_move(game_id, version=version)
    except ServiceError as refused:
        said = (version, str(refused))
        with _REFUSALS_LOCK:
            new = _REFUSALS_LOGGED.get(game_id) != said
            _REFUSALS_LOGGED[game_id] = said
            _REFUSALS_LOGGED.move_to_end(game_id)
            while len(_REFUSALS_LOGGED) > MOVES_KEPT:
                _REFUSALS_LOGGED.popitem(last=False)
        if new:
            log.info("the unasked AI move of %s was not played: %s", game_id, refused)


def _play_ai(row: GameRow, game: Game, state: State, side: str, ai: dict) -> dict:
    """Return ``{"game": snapshot, "search": result}`` once the AI ``ai`` of
    ``side`` played its move (or its turn of an opening) in ``row``."""
    if row.clock and not READINESS.is_ready(game.name):
        # QA (an upgrade that changed the AI's code): the computer waited
        # minutes for its kernels, its clock running. Its clock stands
        # still until it can think: charged from then (no flag meanwhile:
        # .games.settle_clock).
        READINESS.wait(game.name)
        if row.clock["since"] is not None:
            row.clock = {**row.clock, "since": now_ms()}
    if row.clock:  # the AI thinks within its clock, in a Swap2 opening too
        ai = {**ai, "think_cap": clocks.think_budget(row.clock, side, now_ms())}
    if openings.under_way(row) is not None:
        return _opening_turn(row, game, state, side, ai)
    seconds = _search_budget(ai, best=False).seconds
    result = _search(
        row,
        game,
        state,
        ai,
        started=lambda: live.publish_thinking(
            row.pk, side=side, version=row.version, seconds=seconds
        ),
    )
    row = write(row, moves=[*row.moves, result["move"]])
    return {"game": snapshot(row), "search": result}


def _opening_turn(row: GameRow, game: Game, state: State, side: str, ai: dict) -> dict:
    """Return ``{"game": snapshot, "search": None}`` after the AI's turn in a
    Swap2 opening: its stones, its choice or both, decided by
    :func:`mcts.play.swap2.ai_turn` with searches of its budget (as the opener,
    one for each candidate opening). They run on the worker pool, in this
    process even with ``AI_BACKEND=celery``: a few short searches. Stop, new
    players or a share end each of them at its next look, as they end a
    move's search (nothing is undone in the opening): the turn then places
    the best stones found so far. The sockets are told how long the turn
    takes: the searches it may make."""
    budget = _search_budget(ai, best=False)
    searches = swap2.turn_searches(len(row.moves), openings.choices(row))
    seconds = budget.seconds * searches if budget.seconds is not None else None

    def task() -> tuple[list[int], str | None]:
        player = ai_player(game, ai.get("model"))
        stop_if_asked = _stopper(player, lambda: SEARCHES.stop_asked(row.pk))

        def think(position: State) -> SearchResult:
            return player.think(
                position, budget, on_progress=stop_if_asked, progress_every=0.05
            )

        with SEARCHES.running(row.pk, player):
            return swap2.ai_turn(
                game,
                state,
                len(row.moves),
                openings.choices(row),
                think,
                np.random.default_rng(),
            )

    READINESS.wait(game.name)
    with SEARCHES.slot(row.pk, row.version):
        live.publish_thinking(row.pk, side=side, version=row.version, seconds=seconds)
        codes, choice = POOL.run(
            task, client=current_client(), expected_seconds=seconds or searches
        )
    texts, position = [], state
    for code in codes:
        texts.append(game.format_move(position, code))
        position = game.apply(position, code)
    columns = openings.choice_columns(row, choice) if choice else {}
    row = write(row, moves=[*row.moves, *texts], **columns)
    return {"game": snapshot(row), "search": None}


def hint(
    game_id: GameId,
    *,
    think_time: float | None = None,
    level: int | None = None,
    version: int | None = None,
) -> dict:
    """Return ``{"game": snapshot, "search": result}``: the search the AI would
    make for the side to move, without playing it. The budget is the one given,
    else the side's own AI setting, else the default think time."""
    row = get_row(game_id)
    check_version(row, version)
    game, state = playable(row)
    no_help_between_seats(row)
    openings.refuse_move_when_choosing(row)  # its move could not be played
    side = game.to_move(state)
    if think_time is not None or level is not None:
        ai = {"think_time": think_time, "level": level}
    elif row.players[side]["kind"] == "ai":
        ai = row.players[side]
    else:
        ai = {"think_time": DEFAULT_THINK_TIME}
    result = _search(row, game, state, ai, best=True)
    return {"game": snapshot(row), "search": result}


def _budget(ai: dict) -> Level:
    """Return the search budget of an AI setting: its think time, or its level
    (budget, temperature and random moves)."""
    if ai.get("think_time") is not None:
        return spec_level({"seconds": float(ai["think_time"])})
    return spec_level({"level": int(ai["level"])})


def _search(
    row: GameRow,
    game: Game,
    state: State,
    ai: dict,
    *,
    best: bool = False,
    started: Callable[[], None] = lambda: None,
) -> dict:
    """Return the JSON of a search from ``state`` with the AI setting ``ai``:
    on this process's worker pool, or with ``AI_BACKEND=celery`` on the Celery
    workers (:mod:`webgame.backends`); ``best`` picks the best move even when
    the level would sample one (a hint should not mislead). ``started`` is
    called once the search is sure to run (in this process, once it holds the
    game's slot: a second request for it is refused, and told nothing)."""
    budget = _search_budget(ai, best=best)
    expected = budget.seconds or 1.0
    if settings.AI_BACKEND == "celery":
        from .. import backends  # the Celery/Redis side, only when configured

        started()
        return backends.search_on_workers(
            row, ai, best=best, client=current_client(), expected_seconds=expected
        )

    def task() -> dict:
        return run_search(
            row,
            game,
            state,
            budget,
            ai.get("model"),
            lambda: SEARCHES.stop_asked(row.pk),
        )

    READINESS.wait(game.name)  # the first start's compiling: late, never refused
    with SEARCHES.slot(row.pk, row.version):
        started()
        return POOL.run(task, client=current_client(), expected_seconds=expected)


def _search_budget(ai: dict, *, best: bool) -> Level:
    """Return the budget of a search for ``ai``; a hint (``best``) samples not."""
    budget = _budget(ai)
    if ai.get("think_cap") is not None and budget.seconds is not None:
        budget = dataclasses.replace(
            budget, seconds=min(budget.seconds, float(ai["think_cap"]))
        )
    if best:
        return dataclasses.replace(budget, temperature=0.0, random_moves=0.0)
    return budget


def run_search(
    row: GameRow,
    game: Game,
    state: State,
    budget: Level,
    model: str | None,
    stop_asked: Callable[[], bool],
) -> dict:
    """Return the JSON of the search itself, in whichever process runs it (a
    web process's worker thread or a Celery worker), keeping its AI player
    in that process for the game's next search; ``stop_asked`` is polled
    every 50 ms. The player is the one :func:`mcts.find_player` builds from
    the AI's spec (:func:`mcts.ai_spec`): the AI the benchmarks measure."""
    player = _player_for(row, game, model)
    player.prepare(state, _last_move(row, game))
    stop_if_asked = _stopper(player, stop_asked)

    # What the search adds to its tree grows the live model once the game
    # ends; the request only copies the tree before and after.
    tree = player.searcher.tree
    before = tree.snapshot() if livegrowth.enabled(row.game, row.options) else None
    try:
        with SEARCHES.running(row.pk, player):
            result = player.search(
                budget, on_progress=stop_if_asked, progress_every=0.05
            )
        if before is not None:
            livegrowth.record_search(
                row.pk, len(row.moves), before, player.searcher.tree.snapshot()
            )
        return result.to_json()
    finally:
        SEARCHES.keep(row.pk, player, tuple(row.moves), limit=settings.AI_TREE_CACHE)


def _stopper(
    player: MctsPlayer, stop_asked: Callable[[], bool]
) -> Callable[[SearchResult], None]:
    """Return the progress callback that stops ``player``'s search once
    ``stop_asked``: polled at each of its chunks, so a stop asked before a
    search began (the searcher clears its own flag when it starts) is
    honoured at its first."""

    def stop_if_asked(_progress: SearchResult) -> None:
        if stop_asked():
            player.stop()

    return stop_if_asked


def search_in_worker(
    game_id: GameId,
    *,
    ai: dict,
    best: bool,
    version: int,
    stop_asked: Callable[[], bool],
) -> dict:
    """Return the JSON of a search run by a Celery worker: the game is read
    from the shared database; Conflict if it is no longer at ``version`` (the
    web process would refuse to write the move anyway)."""
    row = get_row(game_id)
    check_version(row, version)
    game, state = playable(row)
    return run_search(
        row, game, state, _search_budget(ai, best=best), ai.get("model"), stop_asked
    )


def ai_player(game: Game, model: str | None, *, seed: int | None = None) -> MctsPlayer:
    """Return a new AI player for ``game`` with the tree model ``model``
    (None: none), built by the library's factory from the AI's spec
    (:func:`mcts.ai_spec`), the model loaded the web app's way
    (:func:`ready_model`)."""
    loaded = ready_model(game.name, model) if model else None
    player = find_player(
        ai_spec(game, model, loaded),
        game,
        seed=seed,
        max_nodes=settings.AI_MAX_NODES,
        models=lambda name: ready_model(game.name, name),
    )
    assert isinstance(player, MctsPlayer)  # the AI's specs are MCTS players
    return player


def _player_for(row: GameRow, game: Game, model: str | None) -> MctsPlayer:
    """Return the game's AI player: the previous one with its tree advanced
    along the moves played since, if it plays the same spec, or a new one
    (:func:`ai_player`)."""
    entry = SEARCHES.take(row.pk)
    moves = tuple(row.moves)
    if entry is not None:
        player, seen = entry
        loaded = ready_model(game.name, model) if model else None
        same = player.name == ai_spec(game, model, loaded)
        if same and moves[: len(seen)] == seen and len(moves) - len(seen) <= 8:
            position = replay(row.game, options_key(row.options), seen)
            for text in moves[len(seen) :]:
                code = game.parse_move(position, text)
                player.observe(position, code)
                position = game.apply(position, code)
            return player
    return ai_player(game, model)


def _last_move(row: GameRow, game: Game) -> int | None:
    """Return the code of the game's last move (None before the first)."""
    if not row.moves:
        return None
    before = replay(row.game, options_key(row.options), tuple(row.moves[:-1]))
    return game.parse_move(before, row.moves[-1])


def evaluate(game: Game, state: State, *, seconds: float) -> dict:
    """Return the JSON of a fresh search of ``seconds`` from ``state`` (no
    model, no game's slot: a look back at a position, not a move), run on the
    bounded worker pool like the AI's moves; the game analysis asks it."""

    def task() -> dict:
        searcher = Searcher(game, state, max_nodes=settings.AI_MAX_NODES)
        return searcher.search(seconds=seconds).to_json()

    READINESS.wait(game.name)
    return POOL.run(task, client=current_client(), expected_seconds=seconds)

"""Compile (or load from numba's cache) every kernel the page's AI uses, so
that a server's first AI move does not wait for the compiler.

numba compiles a kernel on its first call, 10-60 s for this package's
kernels on a fresh checkout, and the compiler holds the GIL meanwhile: in a
web server that first AI move would stall every other request too. `make
run` calls :func:`warm_up` before the server starts; later starts load the
kernels from the cache in well under a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..games import find_game
from .arena import play_game
from .players import find_player

#: The page's AI (heavy search with the light model's knowledge), on a
#: budget that plays a whole game in a moment yet reaches every kernel:
#: Reversi's endgame solver and pattern evaluation, Gomoku's threat search,
#: shapes and alpha-beta (which plays a search for a time, hence the short
#: think time beside the simulations), Lines of Action's evaluation, and the
#: model loader.
WARM_BUDGET = "sims=64,seconds=0.01,seed=1"
WARM_SPEC = "mcts-heavy:model={model}," + WARM_BUDGET


def warm_up(
    *,
    games: tuple[str, ...] = ("reversi", "gomoku", "loa"),
    model: str | None = "light",
    report: Callable[[str, float], None] | None = None,
) -> dict[str, float]:
    """Play one quick game of each of ``games`` with the page's AI and return
    the seconds each took (the first run on a checkout compiles, later runs
    load the cached kernels); ``report(game, seconds)`` is called after each.
    ``model=None`` warms the search without a model."""
    spec = (
        f"mcts-heavy:{WARM_BUDGET}" if model is None else WARM_SPEC.format(model=model)
    )
    seconds = {}
    for name in games:
        started = time.perf_counter()
        game = find_game(name)
        black = find_player(spec, game)
        white = find_player(spec, game)
        play_game(game, black, white)
        seconds[name] = time.perf_counter() - started
        if report is not None:
            report(name, seconds[name])
    return seconds

"""Run in a fresh process by ``test_no_compile.py``: warm up as a server does,
then play through the web services, and print as JSON every numba kernel
signature the play added (none, if the warm-up covers every path).

In a fresh process a kernel lists only the signatures it has loaded or
compiled, so what play adds beyond the warm-up is exactly what a server
would have compiled (or loaded) in the middle of a game.

Usage: python -m tests.web.no_compile  (DJANGO_SETTINGS_MODULE and
DATABASE_URL set by the caller)
"""

from __future__ import annotations

import json
import sys

import django

from mcts.search.reversi.endgame import MAX_ROOT_SOLVE_EMPTIES


def dispatchers() -> dict[str, object]:
    """Every numba dispatcher of the mcts package, by its qualified name."""
    from numba.core.dispatcher import Dispatcher

    found = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("mcts") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Dispatcher):
                func = value.py_func
                found[f"{func.__module__}.{func.__qualname__}"] = value
    return found


def signatures() -> dict[str, set[str]]:
    return {name: {str(s) for s in d.signatures} for name, d in dispatchers().items()}


#: Reversi's first ply at which a root may be solved exactly (60 empties at
#: the start, one fewer a move), whatever the think time.
ROOT_SOLVES_FROM = 60 - MAX_ROOT_SOLVE_EMPTIES


def level_at(game: str, ply: int) -> int:
    """The level of the AI's move at ``ply``: each level once, then the quick
    ones (levels 3-6 differ only in time); in Reversi each of 1-6 in turn
    once its root may be solved exactly, which depends on the think time."""
    if ply < 6 or (game == "reversi" and ply >= ROOT_SOLVES_FROM):
        return ply % 6 + 1
    return ply % 4 + 1


def play(services) -> None:
    """Each game through the web services: AI moves at every level, hints,
    an analysis and the explorer; Reversi to its end (the endgame solver at
    every depth); Gomoku's Swap2 under each rule, and a root that must rank
    an opponent's VCF's many blocks."""
    for game, options, plies in (
        ("reversi", None, 80),
        ("gomoku", None, 24),
        ("gomoku", {"size": 9, "row": 5}, 12),
        ("gomoku", {"rule": "renju"}, 12),
        ("gomoku", {"rule": "standard"}, 12),
        ("loa", None, 24),
    ):
        ai = {"kind": "ai", "level": 1}
        snap = services.create_game(
            game=game, options=options, players={"black": ai, "white": ai}
        )
        gid = snap["id"]
        for ply in range(plies):
            if snap["status"] != "playing":
                break
            side = snap["to_move"]
            level = level_at(game, ply)
            services.update_players(gid, players={side: {"kind": "ai", "level": level}})
            if ply % 3 == 0:  # for each side in turn
                services.hint(gid, think_time=0.1)
            snap = services.ai_move(gid)["game"]
        services.analyse_ply(gid, ply=min(4, snap["ply"]))
        services.explore(gid, ply=0, line=[])
        services.explore(gid, ply=min(2, snap["ply"]), line=[])
    # Swap2 openings, the AI on both sides: its opening stones, choices and
    # the moves after, under each rule.
    for rule in ("freestyle", "standard", "renju"):
        snap = services.create_game(
            game="gomoku",
            options={"rule": rule},
            players={
                "black": {"kind": "ai", "level": 1},
                "white": {"kind": "ai", "level": 1},
            },
            opening="swap2",
        )
        for _ in range(8):
            if snap["status"] != "playing":
                break
            snap = services.ai_move(snap["id"])["game"]
    # A position where white's VCF has more blocks (19) than the root keeps
    # (three times focus's width): the root ranks them by focus's score.
    snap = services.create_game(game="gomoku", options=None, players=None)
    for move in BLOCKS_MANY.split():
        snap = services.play_move(snap["id"], move=move)
    services.update_players(snap["id"], players={"black": {"kind": "ai", "level": 1}})
    services.ai_move(snap["id"])


#: Found by random play near the stones: after these 20 moves white has a
#: VCF that 19 of black's moves block.
BLOCKS_MANY = "n9 n11 n12 n13 o12 o11 n14 m8 n6 m9 m6 b1 l7 o8 o14 d2 a1 n10 k10 m7"


def main() -> int:
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from mcts import WARM_GAMES, warm_game

    for name in WARM_GAMES:
        warm_game(name)
    before = signatures()
    from webgame import services

    play(services)
    added = {
        name: sorted(sigs - before.get(name, set()))
        for name, sigs in signatures().items()
        if sigs - before.get(name, set())
    }
    print(json.dumps(added, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

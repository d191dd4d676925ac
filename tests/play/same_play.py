"""Positions and budgets whose search statistics ``test_same_play`` pins.

Run as a script to print the statistics of the current build as JSON
(``python -m tests.play.same_play > tests/play/same_play.json``): the file is
written once, from the build before a refactoring, so that the refactoring
must reproduce every visit count and value.
"""

from __future__ import annotations

import json
import sys

from mcts import find_game
from mcts.play.players import find_player

#: (game, options, moves from the start) — an opening, a middle game and an
#: ending of each game, the Reversi ending (16 empties) within reach of the
#: exact leaf solves.
POSITIONS: tuple[tuple[str, dict, str], ...] = (
    ("reversi", {}, ""),
    ("reversi", {}, "e6 f4 c3 c4 d3 e7 f6 c6 e3 c2"),
    (
        "reversi",
        {},
        "c4 e3 f5 c6 f2 b3 c5 g6 a2 e2 f4 d3 c7 b5 a4 g3 g5 e6 d2 a6 e7 c8 d7 "
        "g1 c3 b6 b7 f6 g7 c2 d6 a3 b1 h8 g8 f3 d1 a5 e1 e8 a7 h6 h2 g4",
    ),
    ("gomoku", {}, ""),
    ("gomoku", {}, "h8 i9 h9 h10 j8"),
    ("gomoku", {"size": 9, "row": 5}, "g5 d9 c9 h2"),
    ("loa", {}, ""),
    ("loa", {}, "c8-c6 h5-f3 d1-b3 f3-h1"),
    (
        "loa",
        {},
        "g1-e3 a6-c4 e1-g3 h5-f5 c8-c5 h3-h8 e3-e5 a7-c7 e8-f7 f5-c2 b1-b3 a5-b4",
    ),
)
#: The players: the page's AI with the light model, and the plain searches.
SPECS = ("mcts-heavy:model=light", "mcts-heavy", "mcts")
SIMULATIONS = 400
SEED = 7


def statistics() -> list[dict]:
    """Return, for each position and spec, the root moves' visits and values."""
    rows = []
    for name, options, moves in POSITIONS:
        game = find_game(name, **options)
        state = game.play_all(moves.split())
        for spec in SPECS:
            player = find_player(spec, game, simulations=SIMULATIONS, seed=SEED)
            player.choose(state)
            result = player.last_result
            rows.append(
                {
                    "game": name,
                    "options": options,
                    "moves": moves,
                    "spec": spec,
                    "move": result.move,
                    "stats": [[m.move, m.visits, m.value] for m in result.moves],
                }
            )
    return rows


if __name__ == "__main__":
    json.dump(statistics(), sys.stdout, indent=1)
    print()

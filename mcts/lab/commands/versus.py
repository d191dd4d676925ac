"""The ``versus`` subcommand of ``python -m mcts.lab``: two builds of this
project, each in its own checkout (a ``git worktree`` of a commit), play a
match, for the games that have no engine protocol (Lines of Action).

Each build runs as a child process started in its checkout, so it imports
its own ``mcts``; it is asked a move with the moves played so far (JSON
lines, :data:`CHILD`) and plays them into its player first, as the arena
tells its players each move. This build keeps the rules, the openings and
the score (:func:`~mcts.play.arena.play_game`, :func:`~mcts.play.arena.tally`).
A child answers the one API both builds share: ``find_game``,
``find_player`` and the games' move notation.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ...games import find_game
from ...games.base import Game, State
from ...play.arena import GameRecord, play_game, tally, write_records
from ...play.base import Player
from ...play.openings import match_opening

#: What a child runs, in its build's checkout: a player for each game it is
#: told of (``new``), then a move for each list of moves it is sent.
CHILD = """
import json, sys
sys.path.insert(0, ".")
from mcts import find_game, find_player
game = player = state = None
seen = 0
for line in sys.stdin:
    ask = json.loads(line)
    if "new" in ask:
        if player is not None:
            player.close()
        game = find_game(ask["game"], **ask["options"])
        player = find_player(
            ask["spec"], game, seconds=ask["seconds"], seed=ask["seed"]
        )
        state, seen = game.initial_state(), 0
        print("{}", flush=True)
        continue
    for text in ask["moves"][seen:]:
        move = game.parse_move_text(state, text)
        player.observe(state, move)
        state = game.apply(state, move)
    seen = len(ask["moves"])
    answer = game.format_move(state, player.choose(state))
    print(json.dumps({"move": answer}), flush=True)
"""


def add_commands(subparsers) -> None:
    """Register the ``versus`` subcommand on ``subparsers``."""
    versus = subparsers.add_parser(
        "versus",
        help="a match between two builds of this project, each in its own checkout",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    versus.add_argument("game", help="reversi (othello), gomoku or loa")
    versus.add_argument("--a", required=True, help="checkout of build A")
    versus.add_argument("--b", required=True, help="checkout of build B")
    versus.add_argument(
        "--spec", default="mcts-heavy:model=light", help="the player both play"
    )
    versus.add_argument("--games", type=int, default=200)
    versus.add_argument("--seconds", type=float, default=0.2)
    versus.add_argument("--workers", type=int, default=1, help="games at once")
    versus.add_argument("--seed", type=int, default=0)
    versus.add_argument("--record", help="write the games to FILE as JSON lines")
    versus.set_defaults(func=cmd_versus)


class BuildPlayer(Player):
    """A player of another build: a child process in its checkout."""

    def __init__(self, game: Game, checkout: str, name: str) -> None:
        self.game = game
        self.name = name
        self.moves: list[str] = []
        self.child = subprocess.Popen(
            [sys.executable, "-c", CHILD],
            cwd=checkout,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def _ask(self, message: dict) -> dict:
        assert self.child.stdin and self.child.stdout
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()
        line = self.child.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name} ended: exit code {self.child.wait()}")
        return json.loads(line)

    def new_game(self, spec: str, seconds: float, seed: int) -> None:
        """Start a game: a fresh player of ``spec`` in the child."""
        self.moves = []
        game = self.game
        self._ask(
            {
                "new": True,
                "game": game.name,
                "options": dict(game.options),
                "spec": spec,
                "seconds": seconds,
                "seed": seed,
            }
        )

    def choose(self, state: State) -> int:
        answer = self._ask({"moves": self.moves})
        return self.game.parse_move_text(state, answer["move"])

    def observe(self, state: State, move: int) -> None:
        self.moves.append(self.game.format_move(state, move))

    def close(self) -> None:
        if self.child.stdin:
            self.child.stdin.close()
        self.child.wait()


def cmd_versus(args: argparse.Namespace) -> int:
    """Play the match; print A's score and its 95% interval."""
    game = find_game(args.game)
    rng = np.random.default_rng(args.seed)
    openings = [match_opening(game, rng) for _ in range((args.games + 1) // 2)]
    records: list[GameRecord] = []

    def play(worker: int) -> None:
        a = BuildPlayer(game, args.a, f"A ({Path(args.a).name})")
        b = BuildPlayer(game, args.b, f"B ({Path(args.b).name})")
        try:
            for index in range(worker, args.games, args.workers):
                a_black = index % 2 == 0
                seed = args.seed * 100_003 + index
                a.new_game(args.spec, args.seconds, seed)
                b.new_game(args.spec, args.seconds, seed + 1)
                black, white = (a, b) if a_black else (b, a)
                opening = openings[index // 2]
                winner, moves, reason = play_game(game, black, white, opening)
                colour = "black" if a_black else "white"
                score = 0.5 if winner is None else float(winner == colour)
                records.append(
                    GameRecord(
                        index, a_black, winner, score, tuple(moves), len(opening),
                        reason, 0.0, 0, 0.0, 0,
                    )
                )  # fmt: skip
                print(f"game {index + 1}: A {colour}, {reason}, A scores {score}")
                if args.record:
                    write_records(Path(args.record), sorted(records, key=_index))
        finally:
            a.close()
            b.close()

    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        list(pool.map(play, range(args.workers)))
    print(f"{game.name}: A = {args.a}, B = {args.b}, {args.spec}, {args.seconds} s")
    print(tally(sorted(records, key=_index)).summary())
    return 0


def _index(record: GameRecord) -> int:
    return record.index

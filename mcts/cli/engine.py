"""Play through an engine protocol on stdin/stdout, for GUIs and tournaments:

  python -m mcts engine reversi --protocol nboard     (the NBoard GUI)
  python -m mcts engine gomoku --protocol piskvork    (piskvork, Gomocup)

Only protocol lines go to stdout; problems go to stderr.
"""

from __future__ import annotations

import argparse
import sys

from ..games import find_game, gomoku
from ..games.arguments import positive_number
from ..games.base import Game
from ..models.store import model_path
from ..play import nboard, piskvork, swap2
from ..play.base import Player
from ..play.players import MctsPlayer, PlayerSpec, find_player, parse_spec

#: Our strongest player of each game, the engine's unless ``--player`` says
#: otherwise: in Gomoku the alpha-beta, which scored 73.8% against the MCTS at
#: 1 s a move, and 30% against Rapfi (36 of 120 games) where the MCTS scored
#: 17.5%; it evaluates by the light model's fitted shape weights, which
#: scored 75.0% against the hand-set ones (docs/experiments).
DEFAULT_PLAYERS = {
    "reversi": "mcts-heavy:model=light",
    "gomoku": "alphabeta:model=light",
}
PROTOCOL_OF = {"reversi": "nboard", "gomoku": "piskvork"}
#: Gomoku under the standard and renju rules (piskvork's ``INFO rule``): the
#: tree search with its alpha-beta planner and threat search, which read the
#: rule, and the rule's own light model where one is shipped
#: (``light-renju``), as the page plays it.
OTHER_RULES_PLAYER = "mcts-heavy"
#: The think time of the move each rule's player makes before the engine
#: serves (:func:`cmd_engine`).
WARM_SECONDS = 0.05
#: The Swap2 decisions (``SWAP2BOARD``) are a tree search's
#: (:mod:`mcts.play.swap2`): the engine's player's, else (the freestyle
#: engine's alpha-beta) this one, the page's AI.
SWAP2_PLAYER = "mcts-heavy:model=light"
#: The player kinds that are a tree search.
SEARCH_KINDS = ("mcts", "mcts-heavy", "mcts-net")


def add_commands(subparsers) -> None:
    """Register the ``engine`` subcommand on ``subparsers``."""
    engine = subparsers.add_parser(
        "engine",
        help="play through an engine protocol on stdin/stdout",
        description=__doc__,  # plain words, for a terminal
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    engine.add_argument("game", help="reversi (othello) or gomoku")
    engine.add_argument(
        "--protocol",
        choices=("nboard", "piskvork"),
        help="nboard for reversi, piskvork for gomoku (the default for each)",
    )
    engine.add_argument(
        "--seconds",
        type=positive_number,
        default=1.0,
        help="think time a move (default 1; piskvork's INFO timeout_turn "
        "replaces it, a little under the turn's time)",
    )
    engine.add_argument(
        "--player",
        help="player spec (default: "
        + ", ".join(f"{spec} in {game}" for game, spec in DEFAULT_PLAYERS.items())
        + ")",
    )
    engine.add_argument("--seed", type=int, default=None)
    engine.set_defaults(func=cmd_engine)


def _rule_player(rule: str) -> str:
    """Return the spec the engine plays under ``rule`` (not freestyle)."""
    model = f"light-{rule}"
    if model_path("gomoku", model).is_dir():
        return f"{OTHER_RULES_PLAYER}:model={model}"
    return OTHER_RULES_PLAYER


def cmd_engine(args: argparse.Namespace) -> int:
    """Serve the protocol until its quit command or the end of stdin."""
    game = find_game(args.game)
    protocol = args.protocol or PROTOCOL_OF.get(game.name)
    if protocol is None or PROTOCOL_OF.get(game.name) != protocol:
        raise ValueError(
            f"{game.name} has no engine protocol here"
            if protocol is None
            else f"the {protocol} protocol does not play {game.name}"
        )
    spec = parse_spec(args.player or DEFAULT_PLAYERS[game.name])
    if spec.kind == "engine":
        raise ValueError("the engine command plays one of our players, not an engine")

    def spec_for(game: Game) -> PlayerSpec:
        rule = game.options.get("rule", "freestyle")
        if args.player or rule == "freestyle":
            return spec
        return parse_spec(_rule_player(rule))

    def make_player(game: Game, seconds: float) -> Player:
        return find_player(spec_for(game), game, seconds=seconds, seed=args.seed)

    def make_think(game: Game, seconds: float) -> swap2.Think:
        chosen = spec_for(game)
        if chosen.kind not in SEARCH_KINDS:
            chosen = parse_spec(SWAP2_PLAYER)
        player = find_player(chosen, game, seconds=seconds, seed=args.seed)
        assert isinstance(player, MctsPlayer)
        return player.think

    if protocol == "nboard":
        player = make_player(game, args.seconds)
        return nboard.serve(game, player, sys.stdin, sys.stdout, sys.stderr)
    # Build a player for each rule and let it think once before serving, so
    # that what it loads (a rule's model, numba's cache) is charged to the
    # start, not to the first move: the rule comes after START, with the
    # first move close behind.
    # A model for another board (or rule) is left to the first move of a
    # game it plays (CLI QA: it stopped the engine before START).
    for rule in gomoku.RULES:
        ruled = find_game("gomoku", rule=rule)
        try:
            player = make_player(ruled, WARM_SECONDS)
        except ValueError:
            continue
        player.choose(ruled.initial_state())
        player.close()
    return piskvork.serve(
        make_player,
        sys.stdin,
        sys.stdout,
        seconds=args.seconds,
        make_think=make_think,
        seed=args.seed,
    )

"""The ``strength`` subcommand of ``python -m mcts``: the strength matches of
the README, played and printed as one table.

It plays our player against the reference engines (NTest for Reversi,
Rapfi for Gomoku) and, in Lines of Action where no engine exists here,
against a baseline player spec, each match with colours swapped from short
random openings. Each finished match prints a line (score ± 95% interval,
wins-losses-draws and each side's mean time per move) and is appended to a
results file, so a suite stopped half way resumes where it was (``--results``)::

    python -m mcts.lab strength --engines ENGINES --games 20 --seconds 1

``--suite ladder`` plays instead each level of the strength ladder against
the one below it, in each game (the ladder's promise: each level scores at
least 65% against the one below). ``--suite networks`` plays the shipped
Gomoku networks' matches: each against the heavy player at 0.5 s a move, and
at 400 simulations against plain MCTS of 5,000 playouts, on its own board.
``--suite rapfi-odds`` plays our Gomoku player against Rapfi at 25, 50, 100
and 200 ms a turn: how far behind Rapfi it is; the match closest to even
shows a change of strength in the fewest games (at 200 ms it scores too
little for one to show).

``ENGINES`` is a folder holding builds of NTest (``ntest/ntest``) and Rapfi
(``rapfi/pbrain-rapfi``); they are measurement opponents, not part of this
project, so nothing here runs unless that folder is given.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ...games import find_game
from ...play.arena import MatchResult, run_match
from ...play.players import LEVELS

#: Our player in every match unless ``--player`` says otherwise: the page's
#: default AI.
DEFAULT_PLAYER = "mcts-heavy:model=light"
#: The Lines of Action baseline unless ``--loa-baseline`` says otherwise.
DEFAULT_LOA_BASELINE = "mcts-heavy:model=light"


@dataclass(frozen=True)
class Bout:
    """One match of the suite: a game and the opponent's spec, in which
    ``{engines}`` stands for the engines folder and ``{loa_baseline}`` for the
    LOA baseline spec."""

    game: str
    label: str
    opponent: str
    #: Our side's spec; None: the command's ``--player``.
    player: str | None = None
    #: The game's options (Gomoku: size and row), as (name, value) pairs.
    options: tuple[tuple[str, int], ...] = ()
    #: Our time per move; None: the command's ``--seconds``.
    seconds: float | None = None

    def spec(self, engines: Path | None, loa_baseline: str) -> str:
        """Return the opponent's player spec with the placeholders filled in."""
        if "{engines}" in self.opponent and engines is None:
            raise ValueError(
                f"{self.label} needs --engines (the folder of NTest/Rapfi)"
            )
        return self.opponent.format(engines=engines, loa_baseline=loa_baseline)


_NTEST = "engine:nboard:cmd=./ntest x,cwd={engines}/ntest,depth="
_RAPFI = "engine:piskvork:cmd={engines}/rapfi/pbrain-rapfi,ms="


def _rapfi(ms: int) -> Bout:
    """Return the Gomoku match against Rapfi at ``ms`` milliseconds a turn."""
    return Bout("gomoku", f"Rapfi {ms} ms", f"{_RAPFI}{ms}")


#: The matches of issue 24's acceptance table, in the order they are played.
SUITE: tuple[Bout, ...] = (
    *(Bout("reversi", f"NTest depth {d}", f"{_NTEST}{d}") for d in (1, 4, 8, 12)),
    *(_rapfi(ms) for ms in (200, 1000)),
    Bout("loa", "LOA baseline", "{loa_baseline}"),
)
#: Rapfi at shorter turns than the acceptance's 200 ms: our player's score
#: against each says how far behind it is, and the one closest to even
#: (50 ms in November 2026, about 41%) shows a change of strength in the
#: fewest games (docs/experiments).
RAPFI_ODDS: tuple[Bout, ...] = tuple(_rapfi(ms) for ms in (25, 50, 100, 200))


def _rung(level: int) -> str:
    """Return the spec of a level of the ladder, its budget spelled out too,
    so that a results file never passes off a match of an older ladder."""
    rung = LEVELS[level]
    budget = (
        f"sims={rung.simulations}" if rung.simulations else f"seconds={rung.seconds:g}"
    )
    return f"mcts-heavy:model=light,level={level},{budget}"


#: The strength ladder's check: each level of :data:`mcts.play.players.LEVELS`
#: against the one below it, in each game (each should score >= 65%).
LADDER: tuple[Bout, ...] = tuple(
    Bout(game, f"level {k} vs {k - 1}", _rung(k - 1), player=_rung(k))
    for game in ("reversi", "gomoku", "loa")
    for k in sorted(LEVELS)[1:]
)


def _network_bouts(model: str, size: int, row: int = 5) -> tuple[Bout, ...]:
    """Return the two matches of a Gomoku network's acceptance (``row`` in a
    row on ``size`` x ``size``): against the heavy player at equal time, and
    at 400 simulations against 5,000 playouts."""
    board = (("size", size), ("row", row))
    net = f"mcts-net:model={model}"
    return (
        Bout("gomoku", f"{model} vs heavy", "mcts-heavy:model=light", net, board, 0.5),
        Bout("gomoku", f"{model} vs 5000", "mcts:sims=5000", f"{net},sims=400", board),
    )


#: The shipped networks' matches (the network issue's acceptance table).
NETWORKS: tuple[Bout, ...] = (
    *_network_bouts("net-8x5", 8),
    *_network_bouts("net-10x4", 10, row=4),
    *_network_bouts("net-15x5", 15),
)
#: The suites ``--suite`` chooses from.
SUITES = {
    "engines": SUITE,
    "ladder": LADDER,
    "networks": NETWORKS,
    "rapfi-odds": RAPFI_ODDS,
}


def add_commands(subparsers) -> None:
    """Register the ``strength`` subcommand on ``subparsers``."""
    strength = subparsers.add_parser(
        "strength",
        help="play the strength matches (against NTest, Rapfi and the LOA "
        "baseline) and print score ± 95%% interval and time per move",
    )
    strength.add_argument(
        "--engines",
        type=Path,
        help="folder holding ntest/ntest and rapfi/pbrain-rapfi (not part of "
        "this project)",
    )
    strength.add_argument(
        "--suite",
        choices=sorted(SUITES),
        default="engines",
        help="engines: our player against NTest, Rapfi and the LOA baseline; "
        "ladder: each strength level against the one below; networks: the "
        "shipped Gomoku networks' matches; rapfi-odds: our Gomoku player "
        "against Rapfi at 25, 50, 100 and 200 ms a turn (default engines)",
    )
    strength.add_argument("--player", default=DEFAULT_PLAYER, help="our player spec")
    strength.add_argument(
        "--loa-baseline",
        default=DEFAULT_LOA_BASELINE,
        help="the player spec our LOA player meets",
    )
    strength.add_argument("--games", type=int, default=20, help="games per match")
    strength.add_argument(
        "--seconds", type=float, default=1.0, help="our time per move"
    )
    strength.add_argument("--workers", type=int, default=1, help="worker processes")
    strength.add_argument("--seed", type=int, default=0)
    strength.add_argument(
        "--only",
        default="",
        help="comma list of games or labels to play, e.g. gomoku or "
        "'NTest depth 8' (default: the whole suite)",
    )
    strength.add_argument(
        "--results",
        type=Path,
        default=Path("strength-results.jsonl"),
        help="JSON lines file the finished matches are appended to; a match "
        "already there with the same settings is not played again",
    )
    strength.set_defaults(func=cmd_strength)


def selected(suite: tuple[Bout, ...], only: str) -> list[Bout]:
    """Return the bouts of ``suite`` that ``only`` names (by game or label);
    all of them when ``only`` is empty; ValueError for a name that matches none."""
    names = [name.strip().lower() for name in only.split(",") if name.strip()]
    for name in names:
        if not any(name in (b.game, b.label.lower()) for b in suite):
            raise ValueError(f"--only: no match is called {name!r}")
    return [b for b in suite if not names or {b.game, b.label.lower()} & set(names)]


def result_row(bout: Bout, player: str, opponent: str, args, result) -> dict:
    """Return the results file's line for a finished match."""
    ours, theirs = result.seconds_per_move()
    return {
        "game": bout.game,
        "label": bout.label,
        "player": player,
        "opponent": opponent,
        "games": result.games,
        "seconds": _seconds(bout, args),
        "seed": args.seed,
        "wins": result.a_wins,
        "losses": result.b_wins,
        "draws": result.draws,
        "score": round(result.score, 4),
        "ci95": round(result.ci95, 4),
        "our_seconds_per_move": round(ours, 4),
        "their_seconds_per_move": round(theirs, 4),
    }


def _settings_of(row: dict) -> tuple:
    """Return what makes two results the same match (the key a resume checks)."""
    return (
        row["game"],
        row["label"],
        row["player"],
        row["opponent"],
        row["games"],
        row["seconds"],
        row["seed"],
    )


def _seconds(bout: Bout, args) -> float:
    """Return our time per move in ``bout``: its own, else the command's."""
    return args.seconds if bout.seconds is None else bout.seconds


def read_results(path: Path) -> list[dict]:
    """Return the rows of the results file ``path`` (none if it is missing)."""
    if not path.exists():
        return []
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}, line {number}: {error.msg}") from None
    return rows


def append_result(path: Path, row: dict) -> None:
    """Append ``row`` to the results file and flush it to disk."""
    with path.open("a") as out:
        out.write(json.dumps(row) + "\n")
        out.flush()
        os.fsync(out.fileno())


def format_row(row: dict) -> str:
    """Return a match's line of the table."""
    return (
        f"{row['game']:8} {row['label']:17} "
        f"{100 * row['score']:5.1f}% ± {100 * row['ci95']:4.1f} "
        f"({row['wins']}-{row['losses']}-{row['draws']}, {row['games']} games)  "
        f"s/move ours {row['our_seconds_per_move']:.3f}, "
        f"theirs {row['their_seconds_per_move']:.3f}"
    )


def run_suite(args: argparse.Namespace, suite: tuple[Bout, ...]) -> list[dict]:
    """Play the selected bouts not yet in the results file; return every
    selected bout's row (played now or read back), in suite order."""
    done = {_settings_of(row): row for row in read_results(args.results)}
    rows = []
    for bout in selected(suite, args.only):
        opponent = bout.spec(args.engines, args.loa_baseline)
        player = bout.player or args.player
        key = (
            bout.game,
            bout.label,
            player,
            opponent,
            args.games,
            _seconds(bout, args),
            args.seed,
        )
        if key in done:
            row = done[key]
            print(f"{format_row(row)}  (from {args.results})", flush=True)
        else:
            result: MatchResult = run_match(
                find_game(bout.game, **dict(bout.options)),
                player,
                opponent,
                games=args.games,
                seconds=_seconds(bout, args),
                workers=args.workers,
                seed=args.seed,
            )
            row = result_row(bout, player, opponent, args, result)
            append_result(args.results, row)
            print(format_row(row), flush=True)
        rows.append(row)
    return rows


def cmd_strength(args: argparse.Namespace) -> int:
    """Play the suite and print one line a match (score ± 95% interval,
    wins-losses-draws, each side's mean time per move)."""
    if args.games < 2:
        raise ValueError("--games must be at least 2 (colours are swapped)")
    if args.engines is not None:  # engines run from their own folders
        args.engines = args.engines.resolve()
    if args.suite == "ladder":
        print(f"the strength ladder, {args.games} games a match (levels set budgets)")
    elif args.suite == "networks":
        print(f"the Gomoku networks, {args.games} games a match (bouts set budgets)")
    else:
        print(f"our player: {args.player}, {args.seconds} s a move, {args.games} games")
    run_suite(args, SUITES[args.suite])
    return 0

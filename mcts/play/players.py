"""Players: who picks a move, built from a short text spec.

A spec is a kind and optional ``key=value`` options::

    random                      uniformly random legal moves
    mcts                        MCTS with random rollouts
    mcts-heavy                  MCTS with the game's heavy rollouts (the default)
    mcts-heavy:level=3          a rung of the strength ladder (LEVELS)
    mcts:c=1.4,sims=2000,seed=7 tuning knobs and budgets
    mcts-net:model=NAME         PUCT with a Gomoku model's network (net_player.py)
    alphabeta:model=light       Gomoku: alpha-beta search (alphabeta_player.py)

Options: ``c`` (exploration), ``seconds`` and ``sims`` (budget per move),
``level`` (1..6, sets budget, temperature and random moves), ``temperature``
(``t``), ``random`` (the chance of a random move instead of the search's,
0..1), ``seed``, ``expand`` (visits before a leaf is expanded), ``max_nodes``,
``rule`` (uct, puct), ``width`` (Gomoku: the most moves a tree node keeps, the
best by the row-building score), ``root_width`` (the same at the root, at
least ``width``), ``model`` (a tree model: its statistics start
the search where it knows the position, and its learned evaluation cuts the
rollouts short; a packed ``NAME.tar.xz`` is unpacked on first use), ``use``
(what of the model to use: ``both``, the default, ``book`` or ``eval``;
measures each part's worth), ``cutoff`` (plies a rollout
plays before that evaluation scores it), ``endgame`` (Reversi: a new leaf with
at most this many empty squares is solved exactly; 0 turns it off),
``patterns`` (Reversi: 1, the default, scores leaves by the model's pattern
evaluation when it carries one; 0 keeps the older learned evaluation and
rollouts, for comparison; Gomoku: 1, the default, has the alpha-beta
evaluate by the model's fitted shape weights when it carries them, 0 by
the hand-set ones), ``threats`` (Gomoku: 1, the default with heavy
rollouts, plays VCF wins, blocks the opponent's and proves leaves by VCF; 0
turns it off), ``deep_vct`` (Gomoku: VCF nodes a second of the move spends on
deeper VCTs at the root; 0 turns it off; ``deep_defence=1`` spends half of
them on the opponent's, an experiment kept off), ``vct`` (Gomoku: the VCF
nodes of a VCT of one three that proves new tree leaves too, as in
``mcts-net``; 0, the default, only VCF), ``shapes`` (Gomoku: 1 ranks the
moves a tree node keeps by the line shapes they make and block, 2, the default
with heavy rollouts, also scores quiet leaves: by the shapes, or with
``sharpness=K`` above 0 by the model's learned evaluation with its log-odds
times K, an experiment kept off; 0 neither), ``strict`` (Gomoku: 1 proves a
tree node lost for its player to move only when focus kept every reply that
might save him; 0, the default, trusts the kept replies), ``recheck``
(Gomoku: 1, the default, searches on with strict proofs when the search
stopped on a root proof that does not hold for every reply; 0 plays the
move it stopped on), ``alphabeta`` (Gomoku: the share of a timed move
that an alpha-beta search spends choosing it before the tree search grows
the tree in the rest; by default with heavy rollouts
:data:`~mcts.search.searcher.GOMOKU_ALPHABETA_SHARE`, 0 off), ``minimax`` (the
weight, 0..1, of the evaluation's minimax values backed up the tree in
selection), ``loa_eval`` (Lines of Action: the evaluation and search settings
by name, ``mia`` by default; ``loa_eval=2026-11`` is the search before the
MIA-style evaluation, kept only as the benchmark baseline:
``mcts-heavy:model=light,loa_eval=2026-11`` is the page's AI as it played
then), and ``early_plies`` with ``early_seconds``: the game's first
``early_plies`` plies (both sides' moves) are searched ``early_seconds`` a
move, which measures what a perfect opening book could be worth
(``mcts-heavy:early_plies=8,early_seconds=1`` against ``mcts-heavy``).

An external engine is the kind ``engine``, then its protocol, then options::

    engine:nboard:cmd=./ntest x,cwd=/path/to/ntest,depth=4
    engine:piskvork:cmd=/path/to/pbrain-rapfi,ms=200

``cmd`` (required) is the command line (split like a shell's, no shell; no
commas), ``cwd`` the folder it runs in (a relative program path is found
there), ``depth`` the NBoard engine's search depth (``set depth``; without
it the engine's own default), ``ms`` the piskvork engine's time a turn
(``INFO timeout_turn``; default: the match's seconds a move), ``timeout``
the seconds the engine may take to answer before it forfeits (default 30
for NBoard, twice the turn time plus 2 for piskvork). Every answer is checked
by our rules: a malformed or illegal move, or none in time, loses the game
(:class:`~mcts.play.base.Forfeit`), and the arena's record says why.

Every player has :meth:`Player.choose` (state -> move code) and
:meth:`Player.observe` (told each move played, so a searcher keeps its tree).

The module is over 450 lines because most of it is the spec language's one
definition (this documentation, the option table and how each option reaches
its player): split, an option would be defined in two places.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..games.base import Game, State
from ..models.model import (
    evaluation_for,
    patterns_for,
    shape_weights_for,
    warm_tree,
)
from ..models.packed import unpacked
from ..models.store import load_shared, model_path
from ..search.gomoku.weights import HAND_WEIGHTS
from ..search.searcher import Searcher
from .alphabeta_player import AlphaBetaPlayer
from .base import Player
from .nboard import DEFAULT_TIMEOUT as NBOARD_TIMEOUT
from .nboard import NboardEngine
from .net_player import from_spec as net_player
from .piskvork import PiskvorkEngine


@dataclass(frozen=True)
class Level:
    """One rung of the strength ladder: a budget per move, a temperature and
    the chance of a random move instead of the search's."""

    simulations: int | None = None
    seconds: float | None = None
    temperature: float = 0.0
    random_moves: float = 0.0

    @property
    def description(self) -> str:
        """Return what the level does, in words a player reads on the page:
        its budget a move and, for the sampling levels, that some of its
        moves are random (``"10 simulations, a random move 1 in 2"``)."""
        if self.simulations is not None:
            words = f"{self.simulations:,} simulations"
        else:
            words = f"{self.seconds:g} s a move"
        if self.random_moves:
            words += f", a random move 1 in {round(1 / self.random_moves)}"
        return words


#: The strength ladder: levels 1 and 2 search a few simulations, sample their moves
#: in proportion to visits and play a random move now and then (weak on purpose;
#: level 2 less so), and from level 3 on the AI plays its best move with a think time
#: about 3-4 times the level below. Budgets are times from level 3 on because a
#: simulation costs 20 times more in Gomoku than in Reversi: 300 simulations
#: outlasted 0.03 s there (level 3 then scored 35% against level 2). Few simulations
#: alone do not make a weak player everywhere: Gomoku's root threat search and Lines
#: of Action's priors play well at once (100 simulations scored 25% against 10 in
#: LOA, 0.01 s 45% against 10 simulations in Gomoku), hence the random moves (with 1
#: in 3 at level 1, level 2 scored 62.5% over 60 LOA games). Each level is measured
#: against the one below in every game with ``python -m mcts.lab strength --suite
#: ladder`` (docs/experiments).
LEVELS: dict[int, Level] = {
    1: Level(simulations=10, temperature=1.0, random_moves=0.5),
    2: Level(simulations=100, temperature=0.5, random_moves=0.1),
    3: Level(seconds=0.05),
    4: Level(seconds=0.15),
    5: Level(seconds=0.5),
    6: Level(seconds=2.0),
}

#: Fixed think times in seconds a move, offered beside the levels.
THINK_TIMES: tuple[float, ...] = (0.1, 0.5, 1, 2, 5, 10)

KINDS = ("random", "mcts", "mcts-heavy", "mcts-net", "alphabeta", "engine")
#: The protocols an ``engine`` spec may name.
PROTOCOLS = ("nboard", "piskvork")
#: The options of an ``engine`` spec (the others are for our players).
ENGINE_OPTIONS = ("cmd", "cwd", "depth", "ms", "timeout")
#: Option names accepted in a spec, with the type each value is parsed to.
OPTIONS = {
    "c": float,
    "seconds": float,
    "sims": int,
    "level": int,
    "temperature": float,
    "random": float,
    "seed": int,
    "expand": int,
    "max_nodes": int,
    "rule": str,
    "model": str,
    "early_plies": int,
    "early_seconds": float,
    "width": int,
    "root_width": int,
    "cutoff": int,
    "endgame": int,
    "patterns": int,
    "threats": int,
    "deep_vct": int,
    "deep_defence": int,
    "shapes": int,
    "sharpness": float,
    "strict": int,
    "recheck": int,
    "loa_eval": str,
    "minimax": float,
    "alphabeta": float,
    "vct": int,
    "mix": float,
    "rollouts": int,
    "use": str,
    "cmd": str,
    "cwd": str,
    "depth": int,
    "ms": int,
    "timeout": float,
}
#: What a player may take from its model (the ``use`` option).
MODEL_USES = ("both", "book", "eval")
_ALIASES = {"t": "temperature", "simulations": "sims"}

DEFAULT_SECONDS = 1.0
#: A tree model's statistics for a position replace the player's own tree
#: only where they hold at least this many times the simulations of the
#: player's last search (and more than its tree): positions a model studied
#: little made the player weaker. The measurements behind the value are in
#: docs/models.md (footnotes 3 and 4 of "Shipped models").
MODEL_STUDY_RATIO = 5


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec: ``kind`` and its options (already typed)."""

    kind: str
    options: dict = field(default_factory=dict)

    def __str__(self) -> str:
        options = dict(self.options)
        kind = self.kind
        if kind == "engine":
            kind += ":" + options.pop("protocol")
        if not options:
            return kind
        return kind + ":" + ",".join(f"{k}={v}" for k, v in options.items())


def parse_spec(text: str) -> PlayerSpec:
    """Return the PlayerSpec that ``text`` denotes; ValueError naming what is wrong.

    >>> parse_spec("mcts:c=1.4,sims=500")
    PlayerSpec(kind='mcts', options={'c': 1.4, 'sims': 500})
    """
    kind, _, rest = str(text).strip().partition(":")
    kind = kind.strip().lower()
    if kind not in KINDS:
        raise ValueError(
            f"unknown player {kind!r} in {text!r}; expected one of {', '.join(KINDS)}"
        )
    options: dict = {}
    if kind == "engine":
        protocol, _, rest = rest.partition(":")
        options["protocol"] = protocol.strip().lower()
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        key = _ALIASES.get(key.strip().lower(), key.strip().lower())
        if not sep or key not in OPTIONS:
            raise ValueError(
                f"bad option {item!r} in player {text!r}; expected key=value with key "
                f"one of {', '.join(OPTIONS)}"
            )
        try:
            options[key] = OPTIONS[key](value.strip())
        except ValueError:
            raise ValueError(
                f"option {key} in player {text!r} needs a {OPTIONS[key].__name__}, "
                f"got {value!r}"
            ) from None
    if kind == "engine":
        _check_engine(text, options)
    elif set(options) & set(ENGINE_OPTIONS):
        raise ValueError(f"{', '.join(ENGINE_OPTIONS)} are engine options: {text!r}")
    if kind == "random" and set(options) - {"seed"}:
        raise ValueError(f"the random player takes only a seed, got {text!r}")
    if kind == "alphabeta" and set(options) - {"seconds", "model", "patterns"}:
        raise ValueError(
            f"the alphabeta player takes only seconds, model and patterns, got {text!r}"
        )
    if options.get("use", "both") not in MODEL_USES:
        raise ValueError(
            f"use must be one of {', '.join(MODEL_USES)}, got {options['use']!r}"
        )
    if "use" in options and "model" not in options:
        raise ValueError(f"use needs a model, got {text!r}")
    if ("early_plies" in options) != ("early_seconds" in options):
        raise ValueError(f"early_plies and early_seconds go together, got {text!r}")
    level = options.get("level")
    if level is not None and level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}, got {level}")
    return PlayerSpec(kind, options)


def _check_engine(text: str, options: dict) -> None:
    """Raise ValueError unless ``options`` make a valid ``engine`` spec."""
    protocol = options["protocol"]
    if protocol not in PROTOCOLS:
        raise ValueError(
            f"engine protocol {protocol!r} in {text!r}: expected one of "
            f"{', '.join(PROTOCOLS)}, as in engine:nboard:cmd=PROGRAM"
        )
    others = set(options) - set(ENGINE_OPTIONS) - {"protocol", "seed"}
    if others:
        raise ValueError(
            f"an engine takes only {', '.join(ENGINE_OPTIONS)}, got {text!r}"
        )
    if not options.get("cmd", "").strip():
        raise ValueError(f"an engine needs cmd=COMMAND, got {text!r}")
    wrong = {"nboard": "ms", "piskvork": "depth"}[protocol]
    if wrong in options:
        raise ValueError(f"an {protocol} engine takes no {wrong}, got {text!r}")


class RandomPlayer(Player):
    """Plays a uniformly random legal move."""

    def __init__(self, game: Game, *, seed: int | None = None, name: str = "random"):
        self.game = game
        self.name = name
        self._rng = np.random.default_rng(seed)

    def choose(self, state: State) -> int:
        """Return a uniformly random legal move code."""
        legal = self.game.legal_moves(state)
        return legal[int(self._rng.integers(len(legal)))]


class MctsPlayer(Player):
    """Plays the move an MCTS search picks, keeping its tree between moves."""

    def __init__(
        self,
        game: Game,
        *,
        evaluator: str = "heavy",
        seconds: float | None = None,
        simulations: int | None = None,
        temperature: float = 0.0,
        random_moves: float = 0.0,
        name: str = "mcts-heavy",
        model=None,
        use: str = "both",
        early_plies: int = 0,
        early_seconds: float | None = None,
        patterns: bool = True,
        **searcher_options,
    ) -> None:
        if seconds is None and simulations is None:
            seconds = DEFAULT_SECONDS
        self.game = game
        self.name = name
        self.seconds = seconds
        self.simulations = simulations
        self.temperature = temperature
        self.random_moves = random_moves
        self.searcher = Searcher(game, evaluator=evaluator, **searcher_options)
        # A tree model (mcts.models.model.Model) shared read-only by many
        # players: each position it knows starts the search warm with a copy
        # (its book), and its learned evaluation scores every rollout.
        self.model = model if use in ("both", "book") else None
        if model is not None and use in ("both", "eval"):
            self.searcher.evaluation = evaluation_for(model, game)
            if patterns:
                self.searcher.patterns = patterns_for(model, game)
                self.searcher.shape_weights = shape_weights_for(model, game)
        self.early_plies = early_plies
        self.early_seconds = early_seconds
        self.plies_observed = 0

    def choose(self, state: State) -> int:
        """Search ``state`` within the budget; return the chosen move code."""
        self.searcher.set_state(state)
        if self.model is not None:
            warm = warm_tree(self.model, self.game, state)
            if warm is not None and self._worth_using(int(warm.visits[0])):
                self.searcher.tree = warm
                self.model_plies += (self.plies_observed,)
        seconds, simulations = self.seconds, self.simulations
        if self.plies_observed < self.early_plies:
            seconds, simulations = self.early_seconds, None
        self.last_result = self.searcher.search(
            seconds=seconds,
            simulations=simulations,
            temperature=self.temperature,
            random_moves=self.random_moves,
        )
        return self.last_result.code

    def _worth_using(self, model_visits: int) -> bool:
        """Return whether a model position with ``model_visits`` should
        replace the player's own tree (see :data:`MODEL_STUDY_RATIO`)."""
        last = self.last_result.simulations if self.last_result is not None else 0
        own = int(self.searcher.tree.visits[0])
        return model_visits > own and model_visits >= MODEL_STUDY_RATIO * last

    def observe(self, state: State, move: int) -> None:
        """Move the search tree's root along ``move`` (tree reuse) and count
        the ply."""
        self.plies_observed += 1
        if self.searcher.state == state:
            self.searcher.advance(move)

    def stop(self) -> None:
        """Stop a search running in another thread."""
        self.searcher.stop()


def find_player(
    spec: str | PlayerSpec,
    game: Game,
    *,
    seconds: float | None = None,
    simulations: int | None = None,
    seed: int | None = None,
) -> Player:
    """Return a Player for ``spec`` in ``game``.

    ``seconds`` / ``simulations`` / ``seed`` are defaults that the spec's own
    options override (a level sets both budget and temperature, and an explicit
    ``seconds``/``sims``/``temperature`` in the spec overrides the level).
    """
    if not isinstance(spec, PlayerSpec):
        spec = parse_spec(spec)
    opts = dict(spec.options)
    seed = opts.pop("seed", seed)
    if spec.kind == "random":
        return RandomPlayer(game, seed=seed, name=str(spec))
    if spec.kind == "engine":
        return _engine_player(spec, game, seconds)
    model = None
    if "model" in opts:
        model = load_shared(unpacked(model_path(game.name, opts.pop("model"))))
    if spec.kind == "alphabeta":
        weights = None
        if model is not None and opts.get("patterns", 1):
            weights = shape_weights_for(model, game)
        return AlphaBetaPlayer(
            game,
            seconds=opts.get("seconds", seconds or DEFAULT_SECONDS),
            weights=weights or HAND_WEIGHTS,
            name=str(spec),
        )
    if spec.kind == "mcts-net":
        if seconds is None and simulations is None:
            seconds = DEFAULT_SECONDS
        return net_player(opts, game, model, seconds, simulations, seed, str(spec))
    use = opts.pop("use", "both")
    level = LEVELS.get(opts.pop("level", None)) if "level" in opts else None
    temperature = random_moves = 0.0
    if level is not None:
        seconds, simulations = level.seconds, level.simulations
        temperature, random_moves = level.temperature, level.random_moves
    if "seconds" in opts or "sims" in opts:
        seconds = opts.pop("seconds", None)
        simulations = opts.pop("sims", None)
    temperature = opts.pop("temperature", temperature)
    random_moves = opts.pop("random", random_moves)
    searcher_options = {}
    for key, target in (
        ("c", "c"),
        ("expand", "expand_visits"),
        ("max_nodes", "max_nodes"),
        ("rule", "rule"),
        ("width", "focus_width"),
        ("root_width", "root_width"),
        ("cutoff", "cutoff_plies"),
        ("endgame", "endgame_empties"),
        ("threats", "threats"),
        ("deep_vct", "deep_vct"),
        ("deep_defence", "deep_defence"),
        ("vct", "vct_nodes"),
        ("shapes", "shapes"),
        ("sharpness", "sharpness"),
        ("strict", "strict"),
        ("recheck", "recheck"),
        ("loa_eval", "loa_eval"),
        ("minimax", "minimax"),
        ("alphabeta", "alphabeta"),
    ):
        if key in opts:
            searcher_options[target] = opts.pop(key)
    early = {k: opts.pop(k) for k in ("early_plies", "early_seconds") if k in opts}
    patterns = bool(opts.pop("patterns", 1))
    return MctsPlayer(
        game,
        evaluator="heavy" if spec.kind == "mcts-heavy" else "random",
        seconds=seconds,
        simulations=simulations,
        temperature=temperature,
        random_moves=random_moves,
        name=str(spec),
        seed=seed,
        model=model,
        use=use,
        patterns=patterns,
        **early,
        **searcher_options,
    )


def _engine_player(spec: PlayerSpec, game: Game, seconds: float | None) -> Player:
    """Return the Player that runs the external engine of an ``engine`` spec."""
    opts = spec.options
    cwd, name = opts.get("cwd"), str(spec)
    if opts["protocol"] == "nboard":
        return NboardEngine(
            game,
            opts["cmd"],
            cwd=cwd,
            depth=opts.get("depth"),
            timeout=opts.get("timeout", NBOARD_TIMEOUT),
            name=name,
        )
    milliseconds = opts.get("ms", round(1000 * (seconds or DEFAULT_SECONDS)))
    return PiskvorkEngine(
        game,
        opts["cmd"],
        milliseconds=milliseconds,
        cwd=cwd,
        timeout=opts.get("timeout"),
        name=name,
    )

"""Players: who picks a move, built from a short text spec.

A spec is a kind and optional ``key=value`` options::

    random                      uniformly random legal moves
    mcts                        MCTS with random rollouts
    mcts-heavy                  MCTS with the game's heavy rollouts (the default)
    mcts-heavy:model=light      ... with a tree model: the page's AI
    mcts-heavy:level=3          a rung of the strength ladder (LEVELS)
    mcts:c=1.4,sims=2000,seed=7 a budget and an exploration constant
    mcts-net:model=NAME         PUCT with a Gomoku model's network
    alphabeta:model=light       Gomoku: alpha-beta search (alphabeta_player.py)

The options are :class:`PlayerOptions`' fields, each defined there once with
what it does (:data:`OPTIONS` and :func:`option_help` read them).

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
:func:`find_player` is the one factory of players: the page, the engine
commands, the arena and the benchmarks all build their AI with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from functools import partial
from typing import Any

import numpy as np

from ..games.base import Game, State
from ..models.model import (
    Model,
    evaluation_for,
    patterns_for,
    shape_weights_for,
    warm_tree,
)
from ..models.packed import unpacked
from ..models.store import load_shared, model_path
from ..search.config import SearchConfig
from ..search.gomoku.net_search import DEFAULT_NET_SEARCH, NetSearcher
from ..search.gomoku.weights import HAND_WEIGHTS
from ..search.result import SearchResult
from ..search.searcher import DEFAULT_MAX_NODES, Searcher
from .alphabeta_player import AlphaBetaPlayer
from .base import Player
from .nboard import DEFAULT_TIMEOUT as NBOARD_TIMEOUT
from .nboard import NboardEngine
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


def _option(parse: type, doc: str) -> Any:
    """Return a spec option's field: unset by default, parsed by ``parse``."""
    return field(default=None, metadata={"parse": parse, "doc": doc})


@dataclass(frozen=True)
class PlayerOptions:
    """The options a player spec may set, each defined here once."""

    level: int | None = _option(
        int,
        "a rung of the strength ladder, 1-6 (LEVELS): budget, temperature "
        "and random moves",
    )
    seconds: float | None = _option(float, "think time a move (default 1)")
    sims: int | None = _option(int, "simulations a move")
    model: str | None = _option(
        str,
        "a tree model by name (model/GAME/NAME): its statistics start the "
        "search where it knows the position, its evaluations score the leaves",
    )
    seed: int | None = _option(int, "fixes every random choice")
    c: float | None = _option(
        float, "the exploration constant (default: the game's tuned value)"
    )
    cmd: str | None = _option(str, "engine: its command line (split as a shell's)")
    cwd: str | None = _option(str, "engine: the folder it runs in")
    depth: int | None = _option(int, "NBoard engine: its search depth")
    ms: int | None = _option(int, "piskvork engine: its time a turn")
    timeout: float | None = _option(
        float, "engine: seconds it may take to answer before it forfeits"
    )


#: Option names accepted in a spec, with the type each value is parsed to.
OPTIONS: dict[str, type] = {f.name: f.metadata["parse"] for f in fields(PlayerOptions)}
#: How a refusal names the kind of value an option takes.
KIND_WORDS: dict[type, str] = {int: "a whole number", float: "a number", str: "text"}
#: The options of an ``engine`` spec (the others are for our players).
ENGINE_OPTIONS = ("cmd", "cwd", "depth", "ms", "timeout")
#: The options each of our kinds takes.
KIND_OPTIONS = {
    "random": {"seed"},
    "alphabeta": {"seconds", "model"},
    "mcts-net": {"seconds", "sims", "model", "seed", "c", "level"},
    "mcts": {"level", "seconds", "sims", "model", "seed", "c"},
    "mcts-heavy": {"level", "seconds", "sims", "model", "seed", "c"},
}
_ALIASES = {"simulations": "sims"}

DEFAULT_SECONDS = 1.0
#: A tree model's statistics for a position replace the player's own tree
#: only where they hold at least this many times the simulations of the
#: player's last search (and more than its tree): positions a model studied
#: little made the player weaker (docs/models.md).
MODEL_STUDY_RATIO = 5


def option_help() -> str:
    """Return one line per spec option: its name and what it does."""
    return "\n".join(f"{f.name}: {f.metadata['doc']}" for f in fields(PlayerOptions))


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
                f"option {key} in player {text!r} needs "
                f"{KIND_WORDS.get(OPTIONS[key], OPTIONS[key].__name__)}, "
                f"got {value!r}"
            ) from None
    if kind == "engine":
        _check_engine(text, options)
    elif set(options) - KIND_OPTIONS[kind]:
        raise ValueError(
            f"the {kind} player takes {', '.join(sorted(KIND_OPTIONS[kind]))}, "
            f"got {text!r}"
        )
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
        raise ValueError(f"a {protocol} engine takes no {wrong}, got {text!r}")


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
    """Plays the move an MCTS search picks, keeping its tree between moves.

    ``searcher`` is a :class:`~mcts.search.searcher.Searcher` (or a network
    one); ``level`` its budget a move. With a tree ``model`` (shared
    read-only by many players) the searcher scores its leaves with the
    model's evaluations, and each position the model studied well enough
    starts the search warm with a copy of the model's subtree
    (:data:`MODEL_STUDY_RATIO`): this is the one place a model reaches a
    search."""

    def __init__(
        self,
        game: Game,
        searcher: Searcher,
        *,
        level: Level,
        model: Model | None = None,
        name: str = "mcts-heavy",
    ) -> None:
        self.game = game
        self.name = name
        self.level = level
        self.searcher = searcher
        self.model = model
        if model is not None and not isinstance(searcher, NetSearcher):
            searcher.evaluation = evaluation_for(model, game)
            searcher.patterns = patterns_for(model, game)
            searcher.shape_weights = shape_weights_for(model, game)

    @property
    def seconds(self) -> float | None:
        """Return the think time a move (None: a budget in simulations); the
        engine protocols lower it to what the clock allows."""
        return self.level.seconds

    @seconds.setter
    def seconds(self, seconds: float | None) -> None:
        self.level = replace(self.level, seconds=seconds)

    def think(
        self,
        state: State,
        level: Level | None = None,
        *,
        on_progress: Callable[[SearchResult], None] | None = None,
        progress_every: float = 0.25,
    ) -> SearchResult:
        """Search ``state`` within ``level`` (default: the player's own) and
        return the result; ``on_progress`` hears from the search meanwhile."""
        self.prepare(state)
        return self.search(
            level, on_progress=on_progress, progress_every=progress_every
        )

    def prepare(self, state: State, last_move: int | None = None) -> None:
        """Make ``state`` the search's root, starting from the model's
        subtree where the model studied it well enough; ``last_move``, the
        move that led there (None: unknown), is what a network reads."""
        if isinstance(self.searcher, NetSearcher):
            self.searcher.set_state(state, last_move)
        else:
            self.searcher.set_state(state)
        if self.model is not None and not isinstance(self.searcher, NetSearcher):
            warm = warm_tree(self.model, self.game, state)
            if warm is not None and self._worth_using(int(warm.visits[0])):
                self.searcher.tree = warm

    def search(
        self,
        level: Level | None = None,
        *,
        on_progress: Callable[[SearchResult], None] | None = None,
        progress_every: float = 0.25,
    ) -> SearchResult:
        """Search the prepared root within ``level`` (default: the player's
        own); return the result."""
        level = self.level if level is None else level
        self.last_result = self.searcher.search(
            seconds=level.seconds,
            simulations=level.simulations,
            temperature=level.temperature,
            random_moves=level.random_moves,
            on_progress=on_progress,
            progress_every=progress_every,
        )
        return self.last_result

    def choose(self, state: State) -> int:
        """Search ``state`` within the budget; return the chosen move code."""
        return self.think(state).code

    def _worth_using(self, model_visits: int) -> bool:
        """Return whether a model position with ``model_visits`` should
        replace the player's own tree (see :data:`MODEL_STUDY_RATIO`)."""
        last = self.last_result.simulations if self.last_result is not None else 0
        own = int(self.searcher.tree.visits[0])
        return model_visits > own and model_visits >= MODEL_STUDY_RATIO * last

    def observe(self, state: State, move: int) -> None:
        """Move the search tree's root along ``move`` (tree reuse)."""
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
    max_nodes: int = DEFAULT_MAX_NODES,
    models: Callable[[str], Model] | None = None,
) -> Player:
    """Return a Player for ``spec`` in ``game``: the one factory of players.

    ``seconds`` / ``simulations`` / ``seed`` are defaults that the spec's own
    options override (a level sets the budget, the temperature and the
    random moves; an explicit ``seconds``/``sims`` in the spec overrides the
    level's budget); ``max_nodes`` caps a search tree's memory; ``models``
    loads a model by name (default: :func:`load_model`).
    """
    if not isinstance(spec, PlayerSpec):
        spec = parse_spec(spec)
    opts = dict(spec.options)
    seed = opts.get("seed", seed)
    if spec.kind == "random":
        return RandomPlayer(game, seed=seed, name=str(spec))
    if spec.kind == "engine":
        return _engine_player(spec, game, seconds)
    model = None
    if "model" in opts:
        model = (models or partial(load_model, game))(opts["model"])
    if spec.kind == "alphabeta":
        weights = shape_weights_for(model, game) if model is not None else None
        return AlphaBetaPlayer(
            game,
            seconds=opts.get("seconds", seconds or DEFAULT_SECONDS),
            weights=weights or HAND_WEIGHTS,
            name=str(spec),
        )
    level = spec_level(opts, seconds=seconds, simulations=simulations)
    if spec.kind == "mcts-net":
        if model is None or model.network is None:
            raise ValueError(f"{spec}: the network player needs a model with a network")
        if (model.game.name, model.game.options) != (game.name, game.options):
            raise ValueError(f"the model's network plays {model.game!r}, not {game!r}")
        settings = DEFAULT_NET_SEARCH
        if opts.get("c") is not None:
            settings = settings._replace(c=float(opts["c"]))
        searcher: Searcher = NetSearcher(
            game,
            network=model.network,
            settings=settings,
            seed=seed,
            max_nodes=max_nodes,
        )
        return MctsPlayer(game, searcher, level=level, name=str(spec))
    config = SearchConfig(
        evaluator="heavy" if spec.kind == "mcts-heavy" else "random",
        c=opts.get("c"),
    )
    searcher = Searcher(game, config=config, seed=seed, max_nodes=max_nodes)
    return MctsPlayer(game, searcher, level=level, model=model, name=str(spec))


def load_model(game: Game, name: str) -> Model:
    """Return the tree model ``name`` of ``game`` from the model folder (a
    packed one unpacked first), loaded once per process."""
    return load_shared(unpacked(model_path(game.name, name)))


def ai_spec(game: Game, model_name: str | None, model: Model | None) -> str:
    """Return the spec of the AI that plays ``game`` with the tree model
    ``model_name`` (loaded as ``model``; None: no model): the network search
    when the model carries a network for this board, else the heavy MCTS."""
    if model_name is None or model is None:
        return "mcts-heavy"
    plays_here = (model.game.name, model.game.options) == (game.name, game.options)
    kind = "mcts-net" if model.network is not None and plays_here else "mcts-heavy"
    return f"{kind}:model={model_name}"


def spec_level(
    opts: dict, *, seconds: float | None = None, simulations: int | None = None
) -> Level:
    """Return the budget a move of a spec's options ``opts``: its level, its
    ``seconds``/``sims`` over the level's budget, else the defaults given,
    else :data:`DEFAULT_SECONDS`."""
    level = (
        LEVELS[opts["level"]]
        if "level" in opts
        else Level(simulations=simulations, seconds=seconds)
    )
    if "seconds" in opts or "sims" in opts:
        level = replace(
            level, seconds=opts.get("seconds"), simulations=opts.get("sims")
        )
    if level.seconds is None and level.simulations is None:
        level = replace(level, seconds=DEFAULT_SECONDS)
    return level


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

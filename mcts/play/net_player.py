"""The network player (spec ``mcts-net:model=NAME``): PUCT search guided by
the policy-value network a Gomoku tree model carries
(:class:`~mcts.search.gomoku.net_search.NetSearcher`), keeping its tree between
moves. Its options: ``c``, ``threats``, ``temperature``, ``sims``/``seconds``
``vct`` (VCF nodes of the VCT check at each new leaf; 0 none), ``mix`` (the
share of a leaf's value that heavy rollouts give; 0 none) and ``rollouts``
(how many a leaf plays)."""

from __future__ import annotations

import numpy as np

from ..games import gomoku
from ..games.base import Game, State
from ..models.model import Model
from ..search.gomoku.net_search import (
    NET_C,
    NET_LEAF_ROLLOUTS,
    NET_LEAF_VCT_NODES,
    NET_ROLLOUT_MIX,
    NetSearcher,
)
from .base import Player


class NetPlayer(Player):
    """Plays the move a network-guided search picks within its budget."""

    def __init__(
        self,
        game: Game,
        model: Model,
        *,
        seconds: float | None = None,
        simulations: int | None = None,
        temperature: float = 0.0,
        c: float = NET_C,
        threats: bool = True,
        vct_nodes: int = NET_LEAF_VCT_NODES,
        mix: float = NET_ROLLOUT_MIX,
        rollouts: int = NET_LEAF_ROLLOUTS,
        seed: int | None = None,
        name: str = "mcts-net",
    ) -> None:
        if model.network is None:
            raise ValueError(f"the model {model.path} carries no network")
        if (model.game.name, model.game.options) != (game.name, game.options):
            raise ValueError(f"the model's network plays {model.game!r}, not {game!r}")
        self.game = game
        self.name = name
        self.seconds = seconds
        self.simulations = simulations
        self.temperature = temperature
        self.searcher = NetSearcher(
            game,
            network=model.network,
            c=c,
            threats=threats,
            vct_nodes=vct_nodes,
            mix=mix,
            rollouts=rollouts,
            seed=seed,
        )

    def choose(self, state: State) -> int:
        """Search ``state`` within the budget; return the chosen move code."""
        if state != self.searcher.state:
            last = last_stone(self.searcher.state, state)
            self.searcher.set_state(state, last)
        self.last_result = self.searcher.search(
            seconds=self.seconds,
            simulations=self.simulations,
            temperature=self.temperature,
        )
        return self.last_result.code

    def observe(self, state: State, move: int) -> None:
        """Keep the subtree below ``move`` (tree reuse)."""
        if self.searcher.state == state:
            self.searcher.advance(move)

    def stop(self) -> None:
        """Stop a search running in another thread."""
        self.searcher.stop()


def from_spec(opts: dict, game, model, seconds, simulations, seed, name) -> NetPlayer:
    """Return the network player of an ``mcts-net`` spec's options ``opts``
    (its ``model`` required; ``seconds``/``simulations``: the budget unless
    the spec sets one)."""
    if model is None:
        raise ValueError(f"{name}: the network player needs model=NAME")
    if "seconds" in opts or "sims" in opts:
        seconds, simulations = opts.pop("seconds", None), opts.pop("sims", None)
    known = ("c", "threats", "temperature", "vct", "mix", "rollouts")
    options = {k: opts.pop(k) for k in known if k in opts}
    if "vct" in options:
        options["vct_nodes"] = int(options.pop("vct"))
    return NetPlayer(
        game,
        model,
        seconds=seconds,
        simulations=simulations,
        seed=seed,
        name=name,
        **options,
    )


def last_stone(before: State, after: State) -> int:
    """Return the move code of the one stone ``after`` has beyond ``before``
    (the opponent's last move), or -1 if the positions differ otherwise."""
    old = before.array[gomoku.HEADER :]
    new = after.array[gomoku.HEADER :]
    if len(old) != len(new):
        return -1
    changed = np.flatnonzero(old != new)
    if len(changed) == 1 and old[changed[0]] == gomoku.EMPTY:
        return int(changed[0])
    return -1

"""Monte Carlo Tree Search for Reversi, Gomoku and Lines of Action.

A pure Python library (no Django): the web app imports from this façade only,
including the self-play run's arguments and builder, which ``manage.py
selfplay`` shares with ``python -m mcts selfplay``. The façade imports
neither the command line (:mod:`mcts.cli`) nor the lab (:mod:`mcts.lab`).
"""

import os

# Before numpy loads OpenBLAS: the network search's small matrix products
# run fastest on one thread, and the server runs a search per thread anyway
# (8x8, 2 cores busy: 2,561 simulations/s on one BLAS thread, 1,110 on two).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from . import _numba_cache  # noqa: E402

_numba_cache.configure()  # before any @njit(cache=True) function is defined

from .games import (  # noqa: E402
    GAMES,
    Game,
    Gomoku,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionsError,
    InvalidStateError,
    Outcome,
    State,
    UnknownGameError,
    find_game,
)
from .games.arguments import add_game_arguments, game_from_args  # noqa: E402
from .games.renju import FORBIDDEN_NAMES  # noqa: E402
from .models.catalog import ModelSummary, list_models, model_info  # noqa: E402
from .models.live import LiveModel, search_gain  # noqa: E402
from .models.model import (  # noqa: E402
    ModelError,
    evaluation_for,
    patterns_for,
    shape_weights_for,
    warm_tree,
)
from .models.packed import PACKED_SUFFIX, packed_path  # noqa: E402
from .models.packed import is_stale as unpacked_is_stale  # noqa: E402
from .models.packed import pack as pack_model  # noqa: E402
from .models.packed import unpack as unpack_model  # noqa: E402
from .models.selfplay_run import add_selfplay_arguments, run_selfplay  # noqa: E402
from .models.store import load_shared, model_path  # noqa: E402
from .play import swap2  # noqa: E402
from .play.players import (  # noqa: E402
    LEVELS,
    THINK_TIMES,
    Level,
    MctsPlayer,
    ai_spec,
    find_player,
    spec_level,
)
from .play.warmup import GAMES as WARM_GAMES  # noqa: E402
from .play.warmup import warm_game  # noqa: E402
from .search.gomoku.net_search import NetSearcher  # noqa: E402
from .search.proof_check import holding_proofs  # noqa: E402
from .search.result import MoveStats, SearchResult  # noqa: E402
from .search.searcher import Searcher  # noqa: E402
from .search.tree import Proven, Tree  # noqa: E402

__all__ = [
    "LEVELS",
    "MctsPlayer",
    "ai_spec",
    "find_player",
    "spec_level",
    "swap2",
    "LiveModel",
    "search_gain",
    "Tree",
    "GAMES",
    "FORBIDDEN_NAMES",
    "Gomoku",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionsError",
    "InvalidStateError",
    "Level",
    "ModelError",
    "ModelSummary",
    "MoveStats",
    "Outcome",
    "PACKED_SUFFIX",
    "Proven",
    "SearchResult",
    "Searcher",
    "NetSearcher",
    "State",
    "THINK_TIMES",
    "UnknownGameError",
    "add_game_arguments",
    "add_selfplay_arguments",
    "evaluation_for",
    "patterns_for",
    "shape_weights_for",
    "find_game",
    "holding_proofs",
    "game_from_args",
    "list_models",
    "load_shared",
    "model_info",
    "model_path",
    "pack_model",
    "packed_path",
    "run_selfplay",
    "unpack_model",
    "unpacked_is_stale",
    "warm_game",
    "warm_tree",
    "WARM_GAMES",
]

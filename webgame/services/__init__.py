"""The web app's one door to the mcts library.

Each view calls one function exported here. The functions take plain,
already shape-checked values (the serializers' output), check them against
the rules (unknown game, bad options, illegal move, whose turn ...), change
the database and return JSON-ready dicts. A refusal is a
:class:`~webgame.errors.ServiceError` and changes nothing.

The modules, from the bottom up (each imports only those above it):

- :mod:`.sides`: the two sides, black and white, and the other of one.
- :mod:`.rules`: the library's Game for a name and options, cached.
- :mod:`.treemodels`: the tree models on disk, their status, and getting one
  ready for play (a packed model unpacked, a model loaded), with its progress.
- :mod:`.catalog`: the games offered and their facts, with the models.
- :mod:`.livegrowth`: the live model, grown from the AI's searches in
  finished games.
- :mod:`.openings`: an opening rule (Gomoku's Swap2) in a stored game: who
  acts, the choices, what the sides become.
- :mod:`.clocks`: the clocks the server keeps (Fischer, days per move), and
  the time a player gives their friend.
- :mod:`.beats`: when the server was last seen alive (a crash's restart
  gives the clocks the time since).
- :mod:`.spacing`: how long a player waits to ask their friend again (a
  draw, a takeback, a rematch).
- :mod:`.presence`: who is at a game (its seats' and watchers' sockets), and
  since when a seat has been gone.
- :mod:`.seats`: the seats of a game between two browsers and their secret
  tokens.
- :mod:`.positions`: a stored game's position (replayed, cached) and its
  snapshot, the JSON the API shows.
- :mod:`.notation`: reading a move sent, and why it cannot be read or
  played, in the request's language.
- :mod:`.players`: who plays each side, checked and completed.
- :mod:`.live`: every change of a game sent to the browsers showing it.
- :mod:`.games`: a game's life: create, read, move, undo, change players,
  the loss on time (or the abort of a first move not made in time).
- :mod:`.friends`: playing a friend: the invited seat, sharing a game,
  resigning or aborting, draw offers, takebacks and rematches, giving time,
  claiming a game the friend left.
- :mod:`.chat`: what the two players of a game with a friend say to each
  other.
- :mod:`.records`: game records out and in, and the board after each move.
- :mod:`.readiness`: whether each game's AI is ready in this process, after
  a server's start (the warm-up it follows).
- :mod:`.workers`: the pool of threads that runs AI searches, clients in turn.
- :mod:`.searches`: this process's AI searches by game: the one under way,
  the players kept between them, the ones a change of the game made useless.
- :mod:`.ai`: the AI's moves, hints and stops, and the searches behind them.
- :mod:`.analysis`: looking back at a game: a position's evaluation (a short
  search on the pool), the squares that won it.
- :mod:`.explorer`: the opening explorer: a tree model's moves in a position.
- :mod:`.qr`: a link as a QR code (the invitation, for a phone to scan).

Only this package imports :mod:`mcts`, and only from its façade.
"""

from __future__ import annotations

from .ai import ai_move, hint, play_unasked, stop_search, unasked_ai_moves
from .analysis import analyse_ply, ending
from .beats import BEAT_EVERY, beat
from .catalog import (
    FORBIDDEN_KINDS,
    GAME_NAMES,
    MAX_LEVEL,
    PROVEN_RESULTS,
    describe_options,
    list_games,
    list_kinds,
    list_levels,
    list_think_times,
    option_specs,
)
from .chat import END_PRESETS as CHAT_END_PRESETS
from .chat import MAX_CHARS as CHAT_MAX_CHARS
from .chat import PRESETS as CHAT_PRESETS
from .chat import START_PRESETS as CHAT_START_PRESETS
from .chat import lines as chat_lines
from .chat import lines_for_socket as chat_for_socket
from .chat import say
from .clocks import DAYS_CONTROLS, FISCHER_CONTROLS, GIVEN_SECONDS
from .explorer import explore
from .friends import ACTIONS as OFFER_ACTIONS
from .friends import CLAIMS, abort, claim, give_time, join, resign, seat_in, share
from .friends import answer as answer_offer
from .games import (
    choose,
    create_game,
    flag_due_games,
    get_game,
    make_up_for_outage,
    make_up_for_restart,
    play_move,
    undo,
    update_players,
)
from .live import group as live_group
from .livegrowth import flush as save_live_models
from .openings import CHOICES as OPENING_CHOICES
from .openings import NAMES as OPENING_NAMES
from .openings import STEPS as OPENING_STEPS
from .outages import watch_store
from .positions import snapshot
from .qr import MAX_CHARS as QR_MAX_CHARS
from .qr import qr_rows
from .readiness import READINESS
from .records import game_boards, game_record, import_record, play_from
from .rules import list_words, rule_words, rules_for
from .seats import TOKEN_HEADER
from .treemodels import MODEL_NAME_PATTERN, list_models, model_status, prepare_model


def ai_readiness() -> dict:
    """Return whether each game's AI is ready in this process
    (:meth:`.readiness.Readiness.status`)."""
    return READINESS.status()


__all__ = [
    "CHAT_MAX_CHARS",
    "QR_MAX_CHARS",
    "qr_rows",
    "CHAT_END_PRESETS",
    "CHAT_PRESETS",
    "CHAT_START_PRESETS",
    "chat_for_socket",
    "chat_lines",
    "say",
    "DAYS_CONTROLS",
    "FISCHER_CONTROLS",
    "GIVEN_SECONDS",
    "FORBIDDEN_KINDS",
    "OFFER_ACTIONS",
    "OPENING_CHOICES",
    "OPENING_NAMES",
    "OPENING_STEPS",
    "TOKEN_HEADER",
    "CLAIMS",
    "BEAT_EVERY",
    "abort",
    "answer_offer",
    "beat",
    "claim",
    "flag_due_games",
    "give_time",
    "join",
    "live_group",
    "make_up_for_outage",
    "make_up_for_restart",
    "resign",
    "seat_in",
    "share",
    "GAME_NAMES",
    "MAX_LEVEL",
    "MODEL_NAME_PATTERN",
    "PROVEN_RESULTS",
    "ai_move",
    "ai_readiness",
    "analyse_ply",
    "choose",
    "create_game",
    "describe_options",
    "ending",
    "explore",
    "game_boards",
    "game_record",
    "get_game",
    "hint",
    "import_record",
    "play_from",
    "list_games",
    "list_kinds",
    "list_levels",
    "list_models",
    "list_think_times",
    "list_words",
    "model_status",
    "option_specs",
    "play_move",
    "prepare_model",
    "rules_for",
    "rule_words",
    "snapshot",
    "stop_search",
    "play_unasked",
    "save_live_models",
    "unasked_ai_moves",
    "undo",
    "update_players",
    "watch_store",
]

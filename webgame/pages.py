"""The HTML page of the site: the board page.

The page is a thin shell: it lists the games (so the game selector works before
any script runs) and leaves everything else to ``static/board.js``, which
draws the JSON snapshots of the API. No rule of any game lives here.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import services

#: The strength ladder offered in the AI selectors: levels 1..6 of the search
#: (see ``mcts.players.LEVELS``) and fixed think times in seconds. The values
#: are what board.js sends to the API as ``level`` or ``think_time``.
STRENGTHS = [
    ("level:1", "Level 1 (beginner)"),
    ("level:2", "Level 2 (casual)"),
    ("level:3", "Level 3 (club)"),
    ("level:4", "Level 4 (strong, 0.5 s)"),
    ("level:5", "Level 5 (expert, 2 s)"),
    ("level:6", "Level 6 (master, 5 s)"),
    ("time:0.1", "Think 0.1 s"),
    ("time:0.5", "Think 0.5 s"),
    ("time:1", "Think 1 s"),
    ("time:2", "Think 2 s"),
    ("time:5", "Think 5 s"),
    ("time:10", "Think 10 s"),
]

#: The strength selected when the page opens.
DEFAULT_STRENGTH = "time:1"


def board_page(request: HttpRequest) -> HttpResponse:
    """Return the board page: the games for the selector and the AI strengths;
    the board itself is drawn in the browser from ``/api/games/...``."""
    return render(
        request,
        "index.html",
        {
            "games": services.list_games(),
            "sides": [("black", "Black"), ("white", "White")],
            "strengths": STRENGTHS,
            "default_strength": DEFAULT_STRENGTH,
            "gomoku_sizes": range(5, 20),
            "gomoku_rows": range(3, 8),
        },
    )

"""The HTML page of the site: the board page.

The page is a thin shell: it lists the games (so the game selector works before
any script runs) and leaves everything else to the board script, which draws
the JSON snapshots of the API. No rule of any game lives here: the strength
ladder and the Gomoku option limits come from the library through the services.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import services

#: The strength selected when the page opens.
DEFAULT_STRENGTH = "time:1"

#: The computer's strength the first-minute dialog offers first.
DEFAULT_LEVEL = "level:3"

#: The longest winning row the Gomoku form offers: the rules allow up to the
#: board size, but rows beyond seven make no game worth playing.
GOMOKU_ROWS_OFFERED = 7


def strengths() -> list[tuple[str, str]]:
    """Return the AI selectors' choices as (value, label) pairs: the levels
    (``("level:4", "Level 4 (0.15 s a move)")``), then the fixed think times
    (``("time:0.1", "Think 0.1 s")``). The values are what the board script
    sends to the API as ``level`` or ``think_time``."""
    choices = []
    for level in services.list_levels():
        label = f"Level {level['level']} ({level['description']})"
        choices.append((f"level:{level['level']}", label))
    for seconds in services.list_think_times():
        choices.append((f"time:{seconds:g}", f"Think {seconds:g} s"))
    return choices


#: The time control a game with a friend offers first.
DEFAULT_TIME_CONTROL = "5+3"


def time_controls() -> list[tuple[str, str]]:
    """Return the time controls offered for a game with a friend as (value,
    label) pairs: none, the Fischer controls ("5+3": 5 minutes and 3 s a
    move), then days per move ("d3")."""
    choices = [("", "No clock")]
    for minutes, increment in services.FISCHER_CONTROLS:
        choices.append((f"{minutes}+{increment}", f"{minutes} min + {increment} s"))
    for days in services.DAYS_CONTROLS:
        choices.append((f"d{days}", f"{days} day{'s' if days > 1 else ''} a move"))
    return choices


def board_page(request: HttpRequest) -> HttpResponse:
    """Return the board page: the games for the selector and the AI strengths;
    the board itself is drawn in the browser from ``/api/games/...``."""
    gomoku = services.option_specs("gomoku")
    size, row = gomoku["size"], gomoku["row"]
    choices = strengths()
    return render(
        request,
        "index.html",
        {
            "games": services.list_games(),
            "sides": [("black", "Black"), ("white", "White")],
            "strengths": choices,
            "default_strength": DEFAULT_STRENGTH,
            "levels": [c for c in choices if c[0].startswith("level:")],
            "default_level": DEFAULT_LEVEL,
            "time_controls": time_controls(),
            "default_time_control": DEFAULT_TIME_CONTROL,
            "gomoku_sizes": range(size["min"], size["max"] + 1),
            "gomoku_rows": range(row["min"], GOMOKU_ROWS_OFFERED + 1),
        },
    )

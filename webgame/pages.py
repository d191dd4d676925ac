"""The HTML page of the site: the board page (and the icon a browser asks
for at /favicon.ico).

The page is a thin shell: it lists the games (so the game selector works before
any script runs) and leaves everything else to the board script, which draws
the JSON snapshots of the API. No rule of any game lives here: the strength
ladder and the Gomoku option limits come from the library through the services.
"""

from __future__ import annotations

import functools
from pathlib import Path

from django.contrib.staticfiles import finders
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_safe

from . import services
from .build import page_build

#: The strength both selectors start on (the first-minute dialog and the
#: panel show the same list).
DEFAULT_STRENGTH = "level:3"

#: The levels' names, weakest first: plain words, not numbers (the think time
#: is each one's tooltip).
LEVEL_NAMES = (
    gettext_lazy("Beginner"),
    gettext_lazy("Casual"),
    gettext_lazy("Club"),
    gettext_lazy("Strong"),
    gettext_lazy("Expert"),
    gettext_lazy("Master"),
)

#: The longest winning row the Gomoku form offers: the rules allow up to the
#: board size, but rows beyond seven make no game worth playing.
GOMOKU_ROWS_OFFERED = 7


def strengths() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Return the AI selectors' choices in two groups, as (group label,
    [(value, label, tooltip)]): the levels by name (``("level:3", "Club",
    "Level 3: 0.05 s a move")``), weakest first, then the fixed think times
    (``("time:0.1", "Think 0.1 s", ...)``). The groups' labels say which way
    each grows stronger (a player did not know which was strongest: Master
    thinks 2 s, "Think 10 s" longer). The values are what the board script
    sends to the API as ``level`` or ``think_time``."""
    levels = services.list_levels()
    assert len(levels) == len(LEVEL_NAMES), "a name for each level"
    named = [
        (
            f"level:{x['level']}",
            str(name),
            gettext("Level %(level)s: %(description)s") % x,
        )
        for x, name in zip(levels, LEVEL_NAMES, strict=True)
    ]
    custom = [
        (
            f"time:{s:g}",
            gettext("Think %(seconds)s s") % {"seconds": f"{s:g}"},
            gettext("Its best move after %(seconds)s s a move") % {"seconds": f"{s:g}"},
        )
        for s in services.list_think_times()
    ]
    return [
        (gettext("Strength, weakest first"), named),
        (gettext("Think time, longer is stronger"), custom),
    ]


#: Lines of Action's rule options as New game offers them: each option's
#: label and each of its choices' words (the Olympiad's first, the default).
LOA_OPTION_WORDS: dict[str, tuple[Promise, dict[object, Promise]]] = {
    "double_connection": (
        gettext_lazy("One move joins both sides"),
        {"draw": gettext_lazy("A draw"), "mover_wins": gettext_lazy("The mover wins")},
    ),
    "no_move": (
        gettext_lazy("A side that cannot move"),
        {"pass": gettext_lazy("Passes"), "lose": gettext_lazy("Loses")},
    ),
    "repetition": (
        gettext_lazy("A position repeated draws"),
        {3: gettext_lazy("The third time"), 2: gettext_lazy("The second time")},
    ),
}


def loa_options() -> list[tuple[str, Promise, list[tuple[object, Promise]]]]:
    """Return Lines of Action's options as (key, label, [(value, words)]),
    in the order and with the choices the rules library gives (LOA walk:
    they were open to an imported record's tags only)."""
    options = []
    for key, spec in services.option_specs("loa").items():
        label, words = LOA_OPTION_WORDS[key]
        options.append(
            (key, label, [(value, words[value]) for value in spec["choices"]])
        )
    return options


def gomoku_rules() -> list[tuple[str, str, str]]:
    """Return Gomoku's rules as (value, label, tooltip), the default first."""
    return [
        # The row is chosen (five, or four on a small board): the words say
        # none (QA: "Standard (exactly five)" on a game of four).
        (
            "freestyle",
            services.rule_words("freestyle"),
            gettext("A row of the length chosen or longer wins"),
        ),
        (
            "standard",
            services.rule_words("standard"),
            gettext("Exactly the length chosen wins: a longer row does not"),
        ),
        (
            "renju",
            services.rule_words("renju"),
            gettext("Black may not make two threes, two fours or six or more in a row"),
        ),
    ]


#: The time control a game with a friend offers first.
DEFAULT_TIME_CONTROL = "5+3"


def time_controls() -> list[tuple[str, str]]:
    """Return the time controls offered for a game with a friend as (value,
    label) pairs: none, the Fischer controls ("5+3": 5 minutes and 3 s a
    move), then days per move ("d3")."""
    choices = [("", gettext("No clock"))]
    for minutes, increment in services.FISCHER_CONTROLS:
        label = gettext("%(minutes)s min + %(increment)s s")
        choices.append(
            (
                f"{minutes}+{increment}",
                label % {"minutes": minutes, "increment": increment},
            )
        )
    for days in services.DAYS_CONTROLS:
        label = ngettext("%(days)s day a move", "%(days)s days a move", days)
        choices.append((f"d{days}", label % {"days": days}))
    return choices


@functools.cache
def board_modules() -> list[str]:
    """The board script's modules, which the page preloads: else the browser
    finds them import by import, in four waves, each a round trip."""
    main = finders.find("board/main.js")
    if not isinstance(main, str):
        raise ImproperlyConfigured("board/main.js is not among the static files")
    folder = Path(main).parent
    return sorted(f"board/{path.name}" for path in folder.glob("*.js"))


# Compressed: 52 KB of HTML become 10 KB, a phone's first visit. Its only
# secret is the CSRF token, which Django masks anew in every answer (and its
# gzip pads with random bytes): BREACH finds nothing to guess. The API's
# answers, which may hold a seat's token, are not compressed.
# Only read: any other method is answered 405 before a CSRF check, whose
# 403 read as a lost form to a client that wrote here by mistake.
@csrf_exempt
@require_safe
@gzip_page
def board_page(request: HttpRequest) -> HttpResponse:
    """Return the board page: the games for the selector and the AI strengths;
    the board itself is drawn in the browser from ``/api/games/...``."""
    gomoku = services.option_specs("gomoku")
    size, row = gomoku["size"], gomoku["row"]
    return render(
        request,
        "index.html",
        {
            "games": services.list_games(),
            "sides": [("black", gettext("Black")), ("white", gettext("White"))],
            "strengths": strengths(),
            "default_strength": DEFAULT_STRENGTH,
            "time_controls": time_controls(),
            "default_time_control": DEFAULT_TIME_CONTROL,
            "given_seconds": services.GIVEN_SECONDS,
            "chat_max_chars": services.CHAT_MAX_CHARS,
            "chat_presets": [
                ("start", services.CHAT_START_PRESETS.items()),
                ("end", services.CHAT_END_PRESETS.items()),
            ],
            "gomoku_sizes": range(size["min"], size["max"] + 1),
            "gomoku_rows": range(row["min"], GOMOKU_ROWS_OFFERED + 1),
            "gomoku_rules": gomoku_rules(),
            "loa_options": loa_options(),
            "board_modules": board_modules(),
            "build": page_build(),
        },
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """Lead a browser's /favicon.ico (asked by pages without the icon's link:
    the API's JSON and docs) to the home screen's PNG: every browser shows a
    PNG there. Not a permanent redirect: the file's hashed name changes."""
    return HttpResponseRedirect(static("apple-touch-icon.png"))

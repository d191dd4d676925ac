"""Clocks kept by the server: Fischer clocks and days per move.

A game's ``clock`` column holds its time control and each side's time left,
in milliseconds, as of ``since`` (the moment the side to move's clock
started, in milliseconds since the epoch; None while no clock runs)::

    {"control": {"initial": 180, "increment": 2},   # or {"days": 3}
     "black": 180000, "white": 180000, "since": None}

As on lichess for a casual game, no clock runs before each side has made its
first move (a Swap2 opening: :func:`.openings.clock_runs`). Then the side to
move's clock runs (during Swap2, the side that acts); a move takes the time used
from the mover's clock and adds the increment (Fischer), or sets the mover's
time back to the full days (correspondence). Taking moves back spends the
time used by whoever was to move and starts the clock of whoever is to move
after. A side whose time runs out loses on time: the game's ``deadline``
column says when, and the flag watcher (:func:`flag_due_games`, run by the
server every half second) ends the games past it, whether or not anyone is
looking.

A restart of the server gives every running Fischer clock time, as lichess
does on a deploy (:data:`RESTART_SECONDS`): as the server stops, then as it
starts again, before its flag watcher and its first request, so that a
restart of less than half a minute flags nobody; after a stop it saw, the
start gives the side to move the time the server was down, if more (after
a crash, the time since it was last seen alive: :mod:`.beats`). It is
not counted in ``given``; ``restarts`` counts the times given, for the page
to say why a clock grew.

The computer's clock stands still while its AI cannot think yet (a first
start's compile, :mod:`.readiness`): it is not flagged meanwhile, and its
move is charged from when it could think (:mod:`.ai`).

A player may give their friend ``GIVEN_SECONDS`` on a Fischer clock, as on
lichess (its "moretime"), any number of times while a side holds no more
than ``FISCHER_LIMITS``' largest time; ``given`` counts each side's gifts.

The first moves have a time of their own, as on lichess: in a Fischer game
between two seats, once both are taken, a player who has not made their
first move within :func:`first_move_seconds` (15 to 35 s by the game's
speed; each step of a Swap2 opening before the clocks run, three times
that) lets the game be aborted: it ends without a result. ``deadline``
then says when that is.
"""

from __future__ import annotations

import datetime as dt
import time

from django.utils.translation import gettext as _

from ..errors import Conflict, ServiceError
from .sides import other_side

#: The Fischer controls the page offers (minutes, increment in seconds); the
#: API takes any control within :data:`FISCHER_LIMITS`.
FISCHER_CONTROLS = ((3, 2), (5, 3), (10, 5), (15, 10))
#: Correspondence: the days per move the page offers.
DAYS_CONTROLS = (1, 3, 7)
#: (smallest, largest) initial seconds, largest increment, largest days.
FISCHER_LIMITS = (15, 3 * 3600)
MAX_INCREMENT = 180
MAX_DAYS = 14
#: The seconds a player gives their friend at a time (lichess's 15).
GIVEN_SECONDS = 15


#: The seconds a restart of the server gives a running Fischer clock, as
#: lichess's deploys do: (to the side to move, to the other side) as the
#: server stops, and as it starts again.
RESTART_SECONDS = {"stop": (20, 10), "start": (20, 20)}


#: lichess's seconds for a first move by a game's speed: the estimated
#: seconds of a game (initial time plus 40 increments) below each bound.
FIRST_MOVE_SECONDS = ((30, 15), (180, 20), (480, 25), (1500, 30))
#: The seconds for a first move in a slower game.
FIRST_MOVE_SLOW = 35
#: A Swap2 step before the clocks run (the opener's three stones, the
#: second player's first choice) has this many first moves' time.
OPENING_STEP_FACTOR = 3


def first_move_seconds(control: dict) -> int | None:
    """Return the seconds a player has to make their first move in a game
    with the time ``control`` (None in a game of days a move, which waits)."""
    if "days" in control:
        return None
    estimate = control["initial"] + 40 * control["increment"]
    return next(
        (seconds for bound, seconds in FIRST_MOVE_SECONDS if estimate < bound),
        FIRST_MOVE_SLOW,
    )


def now_ms() -> int:
    """Return the server's time in milliseconds since the epoch."""
    return int(time.time() * 1000)


def new_clock(control: dict | None) -> dict | None:
    """Return the clock of a new game with ``control`` (checked), or None.

    ``control`` is ``{"initial": seconds, "increment": seconds}`` or
    ``{"days": n}``; ServiceError ``invalid_clock`` otherwise.
    """
    if control is None:
        return None
    if set(control) == {"days"}:
        days = control["days"]
        if not (isinstance(days, int) and 1 <= days <= MAX_DAYS):
            raise ServiceError(
                "invalid_clock",
                _("clock.days must be a whole number 1..%(max)s") % {"max": MAX_DAYS},
            )
        full = days * 86_400_000
        return {"control": {"days": days}, "black": full, "white": full, "since": None}
    if set(control) == {"initial", "increment"}:
        initial, increment = control["initial"], control["increment"]
        low, high = FISCHER_LIMITS
        if not (isinstance(initial, int) and low <= initial <= high):
            raise ServiceError(
                "invalid_clock",
                _("clock.initial must be whole seconds %(low)s..%(high)s")
                % {"low": low, "high": high},
            )
        if not (isinstance(increment, int) and 0 <= increment <= MAX_INCREMENT):
            raise ServiceError(
                "invalid_clock",
                _("clock.increment must be whole seconds 0..%(max)s")
                % {"max": MAX_INCREMENT},
            )
        full = initial * 1000
        return {
            "control": {"initial": initial, "increment": increment},
            "black": full,
            "white": full,
            "since": None,
        }
    raise ServiceError(
        "invalid_clock",
        _('clock must be {"initial": seconds, "increment": seconds} or {"days": n}'),
    )


def left_ms(clock: dict, side: str, to_move: str | None, at: int) -> int:
    """Return ``side``'s time left at ``at`` (ms), its running time counted."""
    left = clock[side]
    if side == to_move and clock["since"] is not None:
        left -= at - clock["since"]
    return left


def flagged(clock: dict | None, to_move: str | None, at: int) -> bool:
    """Return whether the side to move has run out of time at ``at``."""
    return bool(clock and to_move and left_ms(clock, to_move, to_move, at) <= 0)


def after_change(
    clock: dict,
    *,
    before: str | None,
    after: str | None,
    moved: bool,
    runs: bool,
    at: int,
    earned: dict[str, int] | None = None,
) -> dict:
    """Return the clock after the moves (or a Swap2 choice) changed at ``at``.

    ``before`` and ``after`` are the sides to move before and after (None:
    the game is over), ``moved`` whether ``before`` played a move or made a
    choice (else moves were taken back), ``runs`` whether a clock runs now
    that each side has moved once (:func:`.openings.clock_runs`). Moves
    taken back take back the increments they ``earned`` (by side): the time
    used stays used, and a move and an undo again and again gain nothing
    (blitz QA); a clock is not taken below a second by it.
    """
    clock = dict(clock)
    clock.pop("stopped", None)  # a restart's stop, if one came: past now
    control = clock["control"]
    if before is not None and clock["since"] is not None:
        clock[before] = max(0, left_ms(clock, before, before, at))
    if moved and before is not None:
        if "days" in control:
            clock[before] = control["days"] * 86_400_000
        elif clock["since"] is not None:
            clock[before] += control["increment"] * 1000
    for side, count in (earned or {}).items():
        if count and "increment" in control:
            taken = clock[side] - count * control["increment"] * 1000
            clock[side] = max(taken, min(clock[side], 1000))
    # No clock runs until each side has moved once, nor after the end.
    clock["since"] = at if after is not None and runs else None
    return clock


def given(clock: dict, side: str) -> dict:
    """Return the Fischer ``clock`` with ``GIVEN_SECONDS`` more for ``side``,
    counted in its ``given``; 409 ``clock_full`` past the largest time."""
    if clock[side] + GIVEN_SECONDS * 1000 > FISCHER_LIMITS[1] * 1000:
        raise Conflict(
            "clock_full",
            _("your friend has %(hours)d hours on their clock already")
            % {"hours": FISCHER_LIMITS[1] // 3600},
        )
    total = clock.get("given", {})
    return {
        **clock,
        side: clock[side] + GIVEN_SECONDS * 1000,
        "given": {**total, side: total.get(side, 0) + GIVEN_SECONDS},
    }


def restarted(
    clock: dict, to_move: str, when: str, at: int, alive: int | None = None
) -> dict:
    """Return the running Fischer ``clock`` with the time a restart gives
    (:data:`RESTART_SECONDS`; ``when`` is ``"stop"`` or ``"start"``, at
    ``at``), ``to_move`` being the side whose clock runs (the caller counts
    the restart). A stop notes its time (``stopped``), and the start after
    gives the side to move the time the server was down if that is more
    (QA: restarts of 44-51 s cost the side to move the rest); after a crash,
    which noted nothing, the time since the server was last seen ``alive``
    (:mod:`.beats`) or since the clock started, whichever is later."""
    mover, other = RESTART_SECONDS[when]
    mover_ms = mover * 1000
    clock = dict(clock)
    stopped = clock.pop("stopped", None)
    if when == "stop":
        clock["stopped"] = at
    elif stopped is not None:
        mover_ms = max(mover_ms, at - stopped)
    elif alive is not None:
        mover_ms = max(mover_ms, at - max(alive, clock["since"]))
    rest = other_side(to_move)
    return {
        **clock,
        to_move: clock[to_move] + mover_ms,
        rest: clock[rest] + other * 1000,
    }


def outage_given(clock: dict, to_move: str, start: int, end: int) -> dict | None:
    """Return the running Fischer ``clock`` with the time of an outage of the
    shared store, from ``start`` to ``end``, given to ``to_move``, the side
    whose clock runs: the part of it after the clock started and after any
    outage already given (``outage_until``: another web process saw the
    same one); None if that is nothing (:mod:`.outages`)."""
    counted_from = max(start, clock["since"], clock.get("outage_until", start))
    if end <= counted_from:
        return None
    return {**clock, to_move: clock[to_move] + end - counted_from, "outage_until": end}


def swapped(clock: dict | None) -> dict | None:
    """Return the clock with the two sides' times swapped (a Swap2 choice
    that gives each player the other colour)."""
    if not clock:
        return clock
    given = clock.get("given", {})
    return {
        **clock,
        "black": clock["white"],
        "white": clock["black"],
        "given": {"black": given.get("white", 0), "white": given.get("black", 0)},
    }


def deadline(clock: dict | None, to_move: str | None) -> dt.datetime | None:
    """Return when the side to move runs out of time, or None if no clock runs."""
    if not clock or to_move is None or clock["since"] is None:
        return None
    ends = clock["since"] + clock[to_move]
    return dt.datetime.fromtimestamp(ends / 1000, tz=dt.UTC)


def stopped(clock: dict | None, to_move: str | None, at: int) -> dict | None:
    """Return the clock stopped at ``at`` (the game ended off the board)."""
    if not clock:
        return clock
    clock = dict(clock)
    if to_move is not None and clock["since"] is not None:
        clock[to_move] = max(0, left_ms(clock, to_move, to_move, at))
    clock["since"] = None
    return clock


def view(
    clock: dict | None,
    to_move: str | None,
    at: int,
    first_move_by: dt.datetime | None = None,
) -> dict | None:
    """Return the clock as the API shows it: the control, each side's seconds
    left at ``at``, which clock runs, while no clock runs the seconds left
    for the first move (``first_move_by``, the game's deadline; else null),
    the seconds each side was given by their friend, and how many times a
    restart of the server gave both time."""
    if not clock:
        return None
    running = to_move if clock["since"] is not None else None
    first_move = None
    if running is None and to_move is not None and first_move_by is not None:
        first_move = max(0, first_move_by.timestamp() * 1000 - at) / 1000
    return {
        "control": clock["control"],
        "black": max(0, left_ms(clock, "black", running, at)) / 1000,
        "white": max(0, left_ms(clock, "white", running, at)) / 1000,
        "running": running,
        "first_move": first_move,
        "given": clock.get("given", {}),
        "restarts": clock.get("restarts", 0),
    }


def think_budget(clock: dict | None, side: str, seconds: float) -> float:
    """Return the seconds the AI may think with ``seconds`` asked: within its
    clock, a Fischer game's time left over 30 moves plus most of the increment
    (always at least a tenth of a second)."""
    if not clock or "days" in clock["control"]:
        return seconds
    left = clock[side] / 1000
    share = left / 30 + 0.8 * clock["control"]["increment"]
    return max(0.1, min(seconds, share, left / 2))

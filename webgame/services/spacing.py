"""How long a player of a game between two seats waits before asking again,
as lichess does so that nobody pesters a friend with requests:

- a draw offered within the last ``DRAW_SPACING`` moves (plies), accepted
  or not, refuses that player's next (lichess's
  ``playerHasOfferedDrawRecently``: the last offer at a ply of at least the
  game's ply less 20 refuses the next), so the next is open 21 moves later;
- a takeback request declined ``n`` times in a row waits ``min(n, 10)² × 10``
  seconds before the next (10 s, 40 s, 90 s … 1000 s: lichess's
  ``TakebackSituation``), and an accepted one starts the count again;
- a declined rematch offer waits ``REMATCH_WAIT`` seconds (lichess's
  rematch ``declined`` memo).

lichess counts a game's declined takebacks whoever asked; here each player's
own, so that nobody waits for the friend's requests. What each side waits is
stored in the game's ``asked`` column and shown in its snapshot's ``waits``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import Conflict
from ..models import Game as GameRow
from .clocks import now_ms

#: A player's draw offer made within this many moves (plies) refuses their next.
DRAW_SPACING = 20
#: Seconds a declined rematch offer waits before it is made again.
REMATCH_WAIT = 60


def _declined_wait(offer: str, declined: int) -> int:
    """Seconds before a player whose ``offer`` (a takeback, a rematch) was
    declined ``declined`` times in a row asks again."""
    if offer == "rematch":
        return REMATCH_WAIT
    return min(declined, 10) ** 2 * 10


def _draw_moves_left(row: GameRow, side: str) -> int:
    """Moves (plies) still to play before ``side`` may offer a draw again."""
    last = row.asked.get("draw", {}).get(side)
    if last is None:
        return 0
    return max(0, last + DRAW_SPACING + 1 - len(row.moves))


def _seconds_left(row: GameRow, offer: str, side: str, at: int) -> float:
    """Seconds still to wait before ``side`` asks ``offer`` again."""
    until = row.asked.get(offer, {}).get(side, {}).get("until", 0)
    return max(0.0, (until - at) / 1000)


def check(row: GameRow, offer: str, side: str) -> None:
    """Refuse (409) ``side``'s new ``offer`` while it must wait:
    ``offered_recently`` for a draw, ``declined_recently`` for a takeback
    or a rematch."""
    if offer == "draw":
        left = _draw_moves_left(row, side)
        if left:
            raise Conflict(
                "offered_recently",
                ngettext(
                    "you offered a draw lately: you may offer one again in %(n)d move",
                    "you offered a draw lately: you may offer one again in %(n)d moves",
                    left,
                )
                % {"n": left},
            )
        return
    wait = _seconds_left(row, offer, side, now_ms())
    if wait > 0:
        refusal = (
            _("your friend declined your takeback: you may ask again in %(n)d s")
            if offer == "takeback"
            else _(
                "your friend declined your rematch: you may offer it again in %(n)d s"
            )
        )
        raise Conflict("declined_recently", refusal % {"n": max(1, round(wait))})


def offered(row: GameRow, offer: str, side: str) -> dict:
    """Return ``asked`` once ``side`` made a new ``offer``."""
    if offer != "draw":
        return row.asked
    return {**row.asked, "draw": {**row.asked.get("draw", {}), side: len(row.moves)}}


def answered(row: GameRow, offer: str, asker: str, *, accepted: bool) -> dict:
    """Return ``asked`` once ``asker``'s ``offer`` was declined or accepted:
    a declined takeback or rematch makes its asker wait, an accepted
    takeback starts their count again."""
    if offer == "draw":
        return row.asked
    sides = dict(row.asked.get(offer, {}))
    if accepted:
        sides.pop(asker, None)
    else:
        declined = sides.get(asker, {}).get("declined", 0) + 1
        until = now_ms() + 1000 * _declined_wait(offer, declined)
        sides[asker] = {"declined": declined, "until": until}
    return {**row.asked, offer: sides}


def waits(row: GameRow, at: int) -> dict:
    """What each side waits now before asking again (the snapshot's
    ``waits``): ``{"draw": {side: {"moves": n}}, "takeback": {side:
    {"seconds": s}}, "rematch": {side: {"seconds": s}}}``, a side absent
    when it need not wait."""
    shown: dict[str, dict] = {}
    playing = row.status == GameRow.Status.PLAYING
    for side in ("black", "white"):
        moves = _draw_moves_left(row, side) if playing else 0
        if moves:
            shown.setdefault("draw", {})[side] = {"moves": moves}
        for offer in ("takeback",) if playing else ("rematch",):
            seconds = _seconds_left(row, offer, side, at)
            if seconds:
                shown.setdefault(offer, {})[side] = {"seconds": round(seconds, 1)}
    return shown


__all__ = ["DRAW_SPACING", "REMATCH_WAIT", "answered", "check", "offered", "waits"]

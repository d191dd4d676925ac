"""Seats of a game between two browsers, each bound to a secret token.

A game played with a friend has two seats. The player who starts it takes
one and gets its token; the invitation (a second secret, in the link sent to
the friend) takes the other once. A token is 256 random bits in URL-safe
base64; the server stores only its SHA-256 and compares digests in constant
time, so neither the database nor any API answer can give a token away. The
token travels in the ``X-Seat-Token`` header (the page keeps it in the
browser's local storage), never in a URL that a spectator could see.

A game without seats (at one screen, against the AI) is played by whoever
holds its id, as before seats existed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from django.utils.translation import gettext as _

from ..errors import Forbidden
from ..models import Game as GameRow
from . import presence
from .sides import SIDES, side_words

#: The header a seat's token comes in.
TOKEN_HEADER = "X-Seat-Token"


def new_secret() -> str:
    """Return a fresh secret: 256 random bits, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """Return the SHA-256 hex digest of ``secret``, as stored."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def matches(secret: str | None, stored: str | None) -> bool:
    """Return whether ``secret`` is the one whose digest is ``stored``, in
    time that does not depend on where they differ."""
    if not secret or not stored:
        return False
    return hmac.compare_digest(digest(secret), stored)


def seat_of(row: GameRow, token: str | None) -> str | None:
    """Return the colour whose seat ``token`` holds in ``row``, or None."""
    found = None
    for side in SIDES:  # both compared, whichever matches
        if matches(token, row.seats.get(side)):
            found = side
    return found


def require_seat(row: GameRow, token: str | None, *, side: str | None = None) -> str:
    """Return the colour of the seat ``token`` holds (or ``side`` in a game
    without seats); Forbidden (403) when a seated game's token is missing,
    wrong, or another side's than ``side``. The seat is seen
    (:mod:`.presence`): a player who plays through the API is not gone."""
    if not row.seats:
        return side or ""
    mine = seat_of(row, token)
    if mine is None:
        words = (
            _(
                "this game is played by two seats and the request's token "
                "(%(header)s header) holds neither: only watching is open to you"
            )
            if token
            else _(
                "this game is played by two seats and the request gave no seat's "
                "token (%(header)s header): only watching is open to you"
            )
        )
        raise Forbidden("not_your_seat", words % {"header": TOKEN_HEADER})
    presence.requested(row.id, mine)
    if side is not None and mine != side:
        raise Forbidden(
            "not_your_turn",
            _("it is %(side)s's turn and your seat is %(mine)s's")
            % {"side": side_words(side), "mine": side_words(mine)},
        )
    return mine


def open_seats(creator: str) -> tuple[dict, str, str, str]:
    """Return (seats, invite digest, creator's token, invitation) for a new
    game between two browsers whose creator sits at ``creator``."""
    token, invitation = new_secret(), new_secret()
    seats = {side: digest(token) if side == creator else None for side in SIDES}
    return seats, digest(invitation), token, invitation


def pick_colour(colour: str) -> str:
    """Return ``colour``, or a random one for ``"random"`` (the API's
    serializers refuse any other value before it comes here)."""
    if colour == "random":
        return secrets.choice(SIDES)
    if colour not in SIDES:
        raise ValueError(f"colour {colour!r}: expected black, white or random")
    return colour


def seats_view(row: GameRow) -> dict | None:
    """Return which seats are taken, as the API shows them (no digests), or
    None for a game without seats."""
    if not row.seats:
        return None
    return {side: row.seats.get(side) is not None for side in SIDES}

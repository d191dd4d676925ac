"""What the two players of a game with a friend say to each other.

As lichess's chat between a game's players: only the two seats read and
write it (a watcher sees none of it, nor is told a line was said), a line
is at most 140 characters on one line, a game keeps its last 200 lines, and
a player who writes too fast waits a moment. Besides free text, a player may
send one of lichess's presets ("Hello", "Good luck", "Good game" ...): the
line then names the preset, and each page shows it in its reader's
language.

A line belongs to the seat that said it (its token's digest, as the game's
``seats`` holds it), not to a colour, so a Swap2 choice that swaps the
colours leaves each line with its author. The API and the sockets say of
each line whether it is the reader's own (``mine``), never whose it is.

Chat is not the game: a line does not change the game's version, and it goes
to the seats' sockets alone (:func:`.live.publish_chat`).
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..errors import Conflict, ServiceError, TooFast
from ..models import CHAT_LINE_CHARS, ChatLine
from ..models import Game as GameRow
from . import live, seats
from .games import GameId, get_row

#: The longest line, in characters (the table's column).
MAX_CHARS = CHAT_LINE_CHARS
#: The lines a game keeps: the oldest go (as lichess).
KEPT_LINES = 200
#: A player says at most this many lines in this many seconds.
FLOOD_LINES = 5
FLOOD_SECONDS = 10
#: The presets and their words, in the order the page offers them: early in
#: the game, then once it is over (lichess's two sets).
START_PRESETS = {
    "hello": gettext_lazy("Hello"),
    "good_luck": gettext_lazy("Good luck"),
    "have_fun": gettext_lazy("Have fun!"),
    "you_too": gettext_lazy("You too!"),
}
END_PRESETS = {
    "good_game": gettext_lazy("Good game"),
    "well_played": gettext_lazy("Well played"),
    "thank_you": gettext_lazy("Thank you"),
    "got_to_go": gettext_lazy("I've got to go"),
    "bye": gettext_lazy("Bye!"),
}
PRESETS = (*START_PRESETS, *END_PRESETS)


def _author(row: GameRow, token: str | None) -> str:
    """Return the stored digest of the token's seat in ``row``; 400
    ``no_opponent`` in a game without seats, 403 for any other token."""
    if not row.seats:
        raise ServiceError("no_opponent", _("players chat in a game between two seats"))
    side = seats.require_seat(row, token)
    return row.seats[side]


def _view(line: ChatLine, reader: str) -> dict:
    """Return a line as its reader sees it."""
    return {
        "n": line.id,
        "mine": line.author == reader,
        "text": line.text,
        "preset": line.preset or None,
        "said": line.said.isoformat(),
    }


def lines(game_id: GameId, *, token: str | None) -> dict:
    """Return what the game's players said, oldest first, for the token's seat."""
    row = get_row(game_id)
    reader = _author(row, token)
    return {"lines": [_view(line, reader) for line in row.chat.all()]}


def lines_for_socket(game_id: GameId, token: str) -> dict | None:
    """Return what a seat's socket is sent as it says hello (``lines``) and
    the digest it tells its own lines by (``reader``), or None for a token
    that holds no seat of the game (a watcher's socket)."""
    row = get_row(game_id)
    side = seats.seat_of(row, token) if row.seats else None
    if side is None:
        return None
    reader = row.seats[side]
    return {"reader": reader, "lines": [_view(line, reader) for line in row.chat.all()]}


#: The format characters an emoji is made of, kept in a line: the joiners
#: (a family is a man, a woman and a child joined) and the tags that name a
#: region's flag. The others (right-to-left overrides and the like, which
#: reorder what the friend reads) are spaces.
EMOJI_FORMAT = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))


def one_line(text: str) -> str:
    """Return ``text`` as one line: every run of white space or control
    characters one space, none at either end; an emoji's joiners and tags
    are kept (friends QA: a family arrived as four people)."""
    cleaned = "".join(
        " " if ch.isspace() or not (ch.isprintable() or ch in EMOJI_FORMAT) else ch
        for ch in text
    )
    return " ".join(cleaned.split())


def say(
    game_id: GameId,
    *,
    token: str | None,
    text: str | None = None,
    preset: str | None = None,
) -> dict:
    """Return the line the token's player says to their friend (``text``, or
    one of :data:`PRESETS`), sent to both seats' sockets; 409 ``seat_open``
    before the friend joined, 429 ``too_fast`` for a sixth line within
    :data:`FLOOD_SECONDS`. The game may be over: a player says "good game"."""
    row = get_row(game_id)
    author = _author(row, token)
    if None in row.seats.values():
        raise Conflict("seat_open", _("your friend has not joined this game yet"))
    text = one_line(text or "")
    if bool(text) == bool(preset):
        raise ServiceError(
            "empty_line",
            _("a line has text (not only spaces) or a preset, not both"),
        )
    since = timezone.now() - timedelta(seconds=FLOOD_SECONDS)
    recent = list(
        row.chat.filter(author=author, said__gte=since)
        .order_by("-id")
        .values_list("said", flat=True)[:FLOOD_LINES]
    )
    if len(recent) >= FLOOD_LINES:
        wait = recent[-1] + timedelta(seconds=FLOOD_SECONDS) - timezone.now()
        raise TooFast(
            _("you are writing fast: wait a few seconds"),
            retry_after=max(1, round(wait.total_seconds() + 0.5)),
        )
    line = ChatLine.objects.create(
        game=row, author=author, text=text, preset=preset or ""
    )
    oldest_kept = row.chat.order_by("-id").values_list("id", flat=True)[
        KEPT_LINES - 1 : KEPT_LINES
    ]
    if oldest_kept:
        row.chat.filter(id__lt=oldest_kept[0]).delete()
    live.publish_chat(row.id, author, _view(line, ""))
    return _view(line, author)

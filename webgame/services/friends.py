"""Playing a friend: taking the invited seat, sharing a game already on the
board, resigning, and the requests one player answers for the other (a draw
offer, a takeback, and once the game is over a rematch).

As on lichess for a casual game with a friend: an offer waits until the
other player answers it or a move is played (a draw offered before one's
own move waits on: the friend's move declines it); offering what the other side
already offers accepts it; a takeback takes back the asker's last move (and
the reply played after it, if any), so the asker is to move again; an
accepted rematch starts the same game again (its options, opening and time
control) with the colours swapped, each seat held by the same token, and
the finished game names it so that both browsers and the watchers go there
(a game without seats, against the computer, starts its rematch at once).
A player whose friend left (no socket, no request) for ``LIVE_GONE_SECONDS``
(longer without a clock: .presence.gone_after) may claim the game: the win,
or a draw (lichess's "force resignation" and "force draw"); not in a
correspondence game, where the clock waits days.
A player may give their friend time on a Fischer clock whenever they like
(lichess's "moretime", .clocks). Until each player has made their first
move either may abort the game, which ends it without a result (so does a
first move not made in time: .clocks); as on lichess, nobody resigns,
offers a draw or asks a takeback before then (409 ``too_early``): there is
nothing yet to lose, to share or to take back that aborting would not
settle. Nor does a player pester the friend with requests: how long one
waits to ask again is .spacing's.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ..errors import Conflict, Forbidden, ServiceError
from ..models import Game as GameRow
from . import clocks, openings, presence, seats, spacing
from .games import ABORTED, GameId, get_row, new_row, playable, write
from .players import normal_players
from .positions import replay, snapshot
from .rules import cached_rules, options_key
from .searches import abandon_search
from .sides import other_side, side_words

#: What a seat may do with a draw offer, a takeback request or a rematch:
#: make it, answer the friend's, or withdraw its own, as on lichess.
ACTIONS = ("offer", "accept", "decline", "withdraw")


def _friend_seated(row: GameRow, side: str) -> None:
    """Refuse (409) what needs the friend of ``side`` before they joined:
    nobody is there to answer an offer, or to win a resignation or a claim."""
    if row.seats and row.seats.get(other_side(side)) is None:
        raise Conflict("seat_open", _("your friend has not joined this game yet"))


def _seated_playing(
    row: GameRow, token: str | None, refusal: str, *, alone: bool = False
) -> str:
    """Return the side of the token's seat in ``row``, a game between two
    seats that is still played and that the friend has joined (or not yet,
    with ``alone``); 400 ``no_opponent`` (saying ``refusal``) in a game
    without seats."""
    if not row.seats:
        raise ServiceError("no_opponent", refusal)
    playable(row)
    side = seats.require_seat(row, token)
    if not alone:
        _friend_seated(row, side)
    return side


def _not_before_first_moves(row: GameRow, refusal: str) -> None:
    """Refuse (409 ``too_early``, saying ``refusal``) what waits until each
    player of a game between two seats has made a first move (their first
    turn in a Swap2 opening): until then the game is aborted instead."""
    if row.seats and not openings.clock_runs(row.opening, len(row.moves)):
        raise Conflict("too_early", refusal)


def _early_offer(offer: str) -> str:
    """Why ``offer`` (a draw, a takeback) waits for each player's first move."""
    if offer == "draw":
        return _("a draw is offered once each player has made a first move")
    return _("a takeback is asked once each player has made a first move")


def seat_in(game_id: GameId, token: str | None) -> str | None:
    """Return the side whose seat ``token`` holds in the game, or None."""
    return seats.seat_of(get_row(game_id), token)


def join(game_id: GameId, *, invite: str, token: str | None = None) -> dict:
    """Return the snapshot and ``seat`` (side, token) of the open seat that the
    invitation ``invite`` takes; 403 for a wrong invitation, 409 once taken
    or for the inviter's own ``token``, 400 ``game_over`` once the game has
    ended (its inviter aborted it)."""
    row = get_row(game_id)
    if seats.seat_of(row, token) is not None:
        raise Conflict(
            "seat_held",
            _("you hold a seat of this game already: the invitation is your friend's"),
        )
    if not row.seats:
        raise ServiceError(
            "no_seats",
            _("this game has no seats to take: anyone with its link plays it"),
        )
    if not row.invite:
        raise Conflict("seat_taken", _("both seats are taken: you can watch this game"))
    if not seats.matches(invite, row.invite):
        raise Forbidden("bad_invite", _("this invitation is not this game's"))
    if row.status == GameRow.Status.FINISHED:  # aborted before anyone came
        raise ServiceError(
            "game_over", _("this game ended before you joined: you can watch it")
        )
    side = next(side for side in seats.SIDES if row.seats.get(side) is None)
    token = seats.new_secret()
    clock = row.clock
    playing = row.status == GameRow.Status.PLAYING
    if clock and playing and openings.clock_runs(row.opening, len(row.moves)):
        clock = {**clock, "since": clocks.now_ms()}  # it waited for the friend
    row = write(
        row, seats={**row.seats, side: seats.digest(token)}, invite="", clock=clock
    )
    presence.seen(row.id, side)  # not gone before their page is even open
    return {**snapshot(row), "seat": {"side": side, "token": token}}


def share(game_id: GameId, *, side: str, clock: dict | None = None) -> dict:
    """Return the snapshot, the ``seat`` and the ``invite`` of a game at one
    screen (or against the AI) turned into a game between two browsers: both
    sides human, the asker seated at ``side``, with ``clock`` if given."""
    row = get_row(game_id)
    if row.seats:
        raise Conflict("already_shared", _("this game is already shared"))
    playable(row)
    mine = seats.pick_colour(side)
    seated, invite_digest, token, invitation = seats.open_seats(mine)
    row = write(
        row,
        players=normal_players(row.game, None),
        seats=seated,
        invite=invite_digest,
        clock=clocks.new_clock(clock),  # runs once the friend joins
    )
    abandon_search(row.pk, row.version)  # the computer's move under way
    return {
        **snapshot(row),
        "seat": {"side": mine, "token": token},
        "invite": invitation,
    }


def resign(game_id: GameId, *, token: str | None = None) -> dict:
    """Return the snapshot after a resignation: the token's seat's, in a game
    between two browsers (409 ``too_early`` before each player has made a
    first move: it is aborted then); else the human's against the AI, else
    the side to move's."""
    row = get_row(game_id)
    game, state = playable(row)
    side = seats.require_seat(row, token)
    if side:
        _friend_seated(row, side)
        _not_before_first_moves(
            row, _("until each player has made a first move, abort the game instead")
        )
    else:
        humans = [s for s in seats.SIDES if row.players[s]["kind"] == "human"]
        side = humans[0] if len(humans) == 1 else game.to_move(state)
    ending = {"winner": other_side(side), "reason": "resignation", "score": None}
    return snapshot(write(row, ending=ending))


def abort(game_id: GameId, *, token: str | None) -> dict:
    """Return the snapshot after the token's seat aborts the game, which then
    ends without a result; 409 ``not_abortable`` once each player has made
    their first move (resign then), 400 in a game without seats. Before the
    friend joined it withdraws the invitation, as lichess's cancel of a
    challenge: the link then opens the game to watch."""
    row = get_row(game_id)
    side = _seated_playing(
        row,
        token,
        _("a game is aborted between two seats; here, start a new game"),
        alone=True,
    )
    if openings.clock_runs(row.opening, len(row.moves)):
        raise Conflict(
            "not_abortable",
            _("each player has made a first move: resign or offer a draw instead"),
        )
    return snapshot(write(row, ending={**ABORTED, "aborted_by": side}))


def give_time(game_id: GameId, *, token: str | None) -> dict:
    """Return the snapshot after the token's seat gives its friend
    ``clocks.GIVEN_SECONDS`` on their clock, as on lichess; 409
    ``no_fischer_clock`` in a game without a clock or of days a move, and
    ``too_early`` before each player has made a first move (a first move's
    own countdown decides then, which no gift changes)."""
    row = get_row(game_id)
    side = _seated_playing(
        row, token, _("time is given to a friend, in a game between two seats")
    )
    if not row.clock or "days" in row.clock["control"]:
        raise Conflict(
            "no_fischer_clock",
            _("time is given on a clock of minutes and seconds, not in this game"),
        )
    _not_before_first_moves(
        row, _("time is given once each player has made a first move")
    )
    return snapshot(write(row, clock=clocks.given(row.clock, other_side(side))))


#: What a player may claim of a game their friend left.
CLAIMS = ("win", "draw")


def claim(game_id: GameId, *, result: str, token: str | None) -> dict:
    """Return the snapshot after the token's seat claims the game (``result``
    ``win`` or ``draw``) that the other seat has left for at least
    :func:`.presence.gone_after`; 409 in a correspondence game, before each player
    has made a first move (the game is aborted then, as on lichess: a win
    claimed was about to be an abort at the first move's deadline), or
    while the friend is here or not yet gone that long."""
    row = get_row(game_id)
    side = _seated_playing(
        row, token, _("a game is claimed from a friend who left it, between two seats")
    )
    if row.clock and "days" in row.clock["control"]:
        raise Conflict(
            "correspondence",
            _("a correspondence game waits for its moves: its clock decides it"),
        )
    _not_before_first_moves(
        row, _("until each player has made a first move, abort the game instead")
    )
    friend = other_side(side)
    gone = presence.gone_for(row.id, friend)
    if gone is None:
        raise Conflict("friend_here", _("your friend is connected to this game"))
    wait = presence.gone_after(row.clock) - gone
    if wait > 0:
        raise Conflict(
            "friend_not_gone",
            _(
                "your friend has not been connected for %(gone)d s: you may claim "
                "the game in %(wait)d s"
            )
            % {"gone": gone, "wait": max(1, round(wait))},
        )
    winner = side if result == "win" else None
    ending = {"winner": winner, "reason": "abandonment", "score": None}
    return snapshot(write(row, ending=ending))


def answer(game_id: GameId, *, offer: str, action: str, token: str | None) -> dict:
    """Return the snapshot after the token's seat offers, accepts, declines
    or withdraws a draw, a takeback or a rematch (``offer``, ``action``), in
    a game between two browsers (at one screen, undo takes a move back at
    once); in a game without seats a rematch starts at once
    (:func:`_rematch`)."""
    row = get_row(game_id)
    if offer == "rematch" and (row.seats or action not in ("decline", "withdraw")):
        return _rematch(row, action=action, token=token)
    side = _seated_playing(
        row,
        token,
        _(
            "draw offers, takebacks and rematch offers are between two "
            "seats; use undo/ or start a new game here"
        ),
    )
    pending = row.offers.get(offer)
    if action == "withdraw":
        return _withdraw(row, offer, side)
    if action == "offer" and pending == side:
        return snapshot(row)  # asked already: it waits for the answer
    if action == "offer" and pending is None:
        _not_before_first_moves(row, _early_offer(offer))
        spacing.check(row, offer, side)
        if offer == "takeback":  # each has moved: only Swap2's stones are not theirs
            _taken_back(row, asker=side)  # refused now if it would be then
        asked = spacing.offered(row, offer, side)
        return snapshot(write(row, offers={**row.offers, offer: side}, asked=asked))
    if action == "offer":
        action = "accept"  # both want it
    if pending != other_side(side):
        raise Conflict(
            "no_offer",
            _("%(side)s has no %(offer)s offer waiting for you")
            % {"side": side_words(other_side(side)), "offer": _offer_words(offer)},
        )
    asked = spacing.answered(row, offer, pending, accepted=action == "accept")
    if action == "decline":
        rest = {name: who for name, who in row.offers.items() if name != offer}
        return snapshot(write(row, offers=rest, asked=asked))
    if offer == "draw":
        ending = {"winner": None, "reason": "agreement", "score": None}
        return snapshot(write(row, ending=ending))
    return snapshot(write(row, moves=_taken_back(row, asker=pending), asked=asked))


def _offer_words(offer: str) -> str:
    """An offer as a message names it: the API's word in English."""
    return {
        "draw": pgettext("offer", "draw"),
        "takeback": pgettext("offer", "takeback"),
        "rematch": pgettext("offer", "rematch"),
    }[offer]


def _withdraw(row: GameRow, offer: str, side: str) -> dict:
    """Return the snapshot after ``side`` withdraws its ``offer``; 409
    ``no_offer`` if it has none waiting. Its wait before asking again runs
    as it was (a withdrawn offer is no declined one)."""
    if row.offers.get(offer) != side:
        raise Conflict(
            "no_offer",
            _("you have no %(offer)s offer to withdraw")
            % {"offer": _offer_words(offer)},
        )
    rest = {name: who for name, who in row.offers.items() if name != offer}
    return snapshot(write(row, offers=rest))


def _rematch(row: GameRow, *, action: str, token: str | None) -> dict:
    """Return the snapshot after a rematch offer, its acceptance (the new
    game started, named by the finished one) or its refusal. In a game
    without seats nobody is asked: it starts at once, each side's player
    (the computer with its settings) at the other colour, so that the
    game's watchers can follow it."""
    if row.status != GameRow.Status.FINISHED:
        raise Conflict("game_not_over", _("a rematch is offered once the game is over"))
    side = seats.require_seat(row, token)
    if row.rematch and action in ("decline", "withdraw"):
        raise Conflict("no_offer", _("the rematch has started: no offer waits"))
    if row.rematch:
        return snapshot(row)  # both asked at once: the one game started
    if not row.seats:
        return _start_rematch(row, players=_handed_over(row, row.players), seated={})
    _friend_seated(row, side)  # an invitation withdrawn: nobody to ask
    if action == "withdraw":
        return _withdraw(row, "rematch", side)
    pending = row.offers.get("rematch")
    if action == "offer" and pending == side:
        return snapshot(row)  # offered already: it waits for the answer
    if action == "offer" and pending is None:
        spacing.check(row, "rematch", side)
        return snapshot(write(row, offers={**row.offers, "rematch": side}))
    if pending != other_side(side):
        raise Conflict(
            "no_offer",
            _("%(side)s has no rematch offer waiting for you")
            % {"side": side_words(other_side(side))},
        )
    if action == "decline":
        asked = spacing.answered(row, "rematch", pending, accepted=False)
        return snapshot(write(row, offers={}, asked=asked))
    return _start_rematch(
        row, players=normal_players(row.game, None), seated=_handed_over(row, row.seats)
    )


def _handed_over(row: GameRow, by_side: dict) -> dict:
    """Return ``by_side`` (players or seats, by colour at the end of
    ``row``) as the rematch gives them: the colours swapped; under Swap2 the
    parts, so that the second player opens, whatever colour the choice gave
    each (Gomoku QA: the colours swapped back made the opener open again).
    The opener plays black until the choice."""
    opens = openings.opener(row)
    return {"black": by_side[other_side(opens)], "white": by_side[opens]}


def _start_rematch(row: GameRow, *, players: dict, seated: dict) -> dict:
    """Start the rematch of ``row`` (its options, opening and time control)
    between ``players`` in ``seated`` (each side's token digest, or none),
    and return the finished game's snapshot naming it."""
    again = new_row(
        game=row.game,
        options=row.options,
        players=players,
        seats=seated,
        clock=clocks.new_clock(row.clock["control"] if row.clock else None),
        opening=openings.new_opening(
            row.game, row.opening["name"] if row.opening else None, row.options
        ),
    )
    try:
        return snapshot(write(row, offers={}, rematch=again.id))
    except Conflict:
        again.delete()  # the other request won: its game is the rematch
        raise


def _to_move_after(row: GameRow, plies: int) -> str:
    key = options_key(row.options)
    state = replay(row.game, key, tuple(row.moves[:plies]))
    return cached_rules(row.game, key).to_move(state)


def _taken_back(row: GameRow, *, asker: str) -> list[str]:
    """Return the moves with the asker's last move (and any reply) taken back;
    refuse (``nothing_to_undo``) to take back a Swap2 opening's stones."""
    floor = openings.first_undoable(row)
    plies = len(row.moves) - 1
    while plies > floor and _to_move_after(row, plies) != asker:
        plies -= 1
    if floor and _to_move_after(row, plies) != asker:
        raise ServiceError(
            "nothing_to_undo",
            _("the Swap2 opening's stones are not taken back"),
        )
    return list(row.moves[:plies])


__all__ = [
    "ACTIONS",
    "CLAIMS",
    "abort",
    "answer",
    "claim",
    "give_time",
    "join",
    "resign",
    "seat_in",
    "share",
]

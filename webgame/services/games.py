"""A game's life in the database: create it, read it, play a human move,
take moves back, change who plays.

Writes are optimistic: a function reads the game (version ``v``), does its
work and writes with one ``UPDATE ... WHERE id = %s AND version = v``; if
another request wrote first, nothing is written and the client gets 409.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import cast
from uuid import UUID

from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from mcts import Game, State

from ..errors import Conflict, Forbidden, GameNotFound, ServiceError
from ..models import Game as GameRow
from . import beats, clocks, live, livegrowth, openings, outages, presence, seats
from .notation import parse
from .players import COLORS, normal_players
from .positions import PASS, position, replay, snapshot
from .readiness import READINESS
from .rules import cached_rules, options_key, rules_for
from .searches import abandon_search
from .sides import other_side, side_words

log = logging.getLogger(__name__)

#: A game's id as the views pass it: the URL's UUID (or its text).
GameId = UUID | str


# ---- reading ----------------------------------------------------------------------
def get_row(game_id: GameId) -> GameRow:
    """Return the stored game with id ``game_id``, its clock settled (a side
    out of time has lost), or raise GameNotFound."""
    try:
        row = GameRow.objects.get(pk=game_id)
    except (GameRow.DoesNotExist, ValueError):
        raise GameNotFound(game_id) from None
    return settle_clock(row)


def get_game(game_id: GameId, *, token: str | None = None) -> dict:
    """Return the game's snapshot (board, legal moves, moves, result ...). A
    seat's ``token`` marks the seat as here: a player who follows the game
    through the API, with no socket, is not gone."""
    row = get_row(game_id)
    side = seats.seat_of(row, token) if token and row.seats else None
    if side:
        presence.requested(row.id, side)
    return snapshot(row)


def check_version(row: GameRow, version: int | None) -> None:
    """Raise Conflict if the client saw another version of the game than stored."""
    if version is not None and version != row.version:
        raise Conflict(
            "conflict",
            _(
                "the game is at version %(version)s, not %(asked)s: it changed "
                "since you loaded it; reload it and try again"
            )
            % {"version": row.version, "asked": version},
        )


def playable(row: GameRow) -> tuple[Game, State]:
    """Return (rules, state) of a game still being played; else ``game_over``."""
    game, state = position(row)
    if row.status == GameRow.Status.FINISHED:
        raise ServiceError(
            "game_over",
            (
                # Between two seats no move is taken back: a rematch is asked
                # (of a friend who came: one aborted before is nobody's).
                _("the game is over (%(result)s); offer a rematch or start a new game")
                if row.seats and all(row.seats.values())
                else _("the game is over (%(result)s); start a new game")
                if row.seats or row.ending
                else _("the game is over (%(result)s); undo a move or start a new game")
            )
            % {"result": _describe_result(row.result)},
        )
    return game, state


#: The reasons a game ends, as the API words them (the games' end_reason,
#: the server's endings), marked for the translators of its messages; the
#: page words them in its own catalog (state.js).
REASONS = (
    gettext_noop("three in a row"),
    gettext_noop("four in a row"),
    gettext_noop("five in a row"),
    gettext_noop("six in a row"),
    gettext_noop("seven in a row"),
    gettext_noop("eight in a row"),
    gettext_noop("nine in a row"),
    gettext_noop("board full"),
    gettext_noop("black has only forbidden points"),
    gettext_noop("connected group"),
    gettext_noop("both sides connected at once"),
    gettext_noop("no legal move"),
    gettext_noop("third repetition"),
    gettext_noop("repetition"),
    gettext_noop("resignation"),
    gettext_noop("time"),
    gettext_noop("agreement"),
    gettext_noop("abandonment"),
)


def _describe_result(result: dict | None) -> str:
    """A finished game's result in the request's language: "Black won: five
    in a row" (Chinese QA: the reason was the API's English there)."""
    if not result:
        return _("finished")
    reason = result.get("reason") or ""
    if reason == "aborted":
        return _("aborted: nobody won or lost")
    if result.get("score"):  # Reversi's discs, the winner's first
        high, low = sorted(result["score"].values(), reverse=True)
        words = (
            _("disc count %(high)s–%(low)s")
            if high != low
            else _("equal disc count %(high)s–%(low)s")
        ) % {"high": high, "low": low}
    else:
        words = _(reason) if reason in REASONS else reason
    if result.get("winner"):
        return _("%(winner)s won: %(reason)s") % {
            "winner": side_words(result["winner"]),
            "reason": words,
        }
    return _("a draw: %(reason)s") % {"reason": words}


def unseated(row: GameRow, refusal: str) -> None:
    """Refuse (``seated_game``, saying ``refusal``) what only a game without
    seats allows."""
    if row.seats:
        raise ServiceError("seated_game", refusal)


def no_help_between_seats(row: GameRow) -> None:
    """Refuse (403 ``no_help``) the AI's help (hints, analysis, the explorer)
    and a board beside it (play-from) while a game between two seats is
    played: it would be a third player."""
    if row.seats and row.status == GameRow.Status.PLAYING:
        raise Forbidden(
            "no_help",
            _(
                "a game between two players is studied (hints, analysis, the "
                "explorer, playing on from a position) only once it is over"
            ),
        )


def position_for_help(game_id: GameId, ply: int) -> tuple[GameRow, Game, State]:
    """Return a game's row, rules and position after its first ``ply``
    moves, for the computer's help on it (the analysis, the explorer):
    refused while two seats play it (:func:`no_help_between_seats`), 400
    ``invalid_ply`` outside 0 to the moves played."""
    row = get_row(game_id)
    no_help_between_seats(row)
    if not 0 <= ply <= len(row.moves):
        raise ServiceError(
            "invalid_ply",
            _("ply must be from 0 to %(plies)s in this game")
            % {"plies": len(row.moves)},
        )
    key = options_key(row.options)
    state = replay(row.game, key, tuple(row.moves[:ply]))
    return row, cached_rules(row.game, key), state


def result_of(game: Game, state: State) -> tuple[str, dict | None]:
    """Return the row's (status, result) for ``state``."""
    outcome = game.outcome(state)
    if outcome is None:
        return GameRow.Status.PLAYING, None
    return GameRow.Status.FINISHED, outcome.to_json()


# ---- writing ----------------------------------------------------------------------
def write(
    row: GameRow,
    *,
    moves: list[str] | None = None,
    players: dict | None = None,
    ending: dict | None = None,
    **columns: object,
) -> GameRow:
    """Store new moves, players, an ending off the board (resignation, time,
    agreement) and/or other ``columns`` (seats, invite, offers, clock) if
    nobody wrote since ``row`` was read; return the updated row, or raise
    Conflict. The clock follows the moves; a change of moves answers every
    pending offer (not a draw its mover offered); every browser showing the
    game is sent its new snapshot."""
    fields: dict[str, object] = dict(columns)
    at = clocks.now_ms()
    key = options_key(row.options)
    game = cached_rules(row.game, key)
    finished = row.status == GameRow.Status.FINISHED
    # The sides that act, before and after: during a Swap2 opening the seats
    # its steps name (.openings.side_acting), else the colours to move.
    opening = cast(dict | None, fields.get("opening", row.opening))
    before = None
    if not finished:
        state = replay(row.game, key, tuple(row.moves))
        before = openings.side_acting(row.opening, len(row.moves), game, state)
    after = before
    if moves is not None:
        if len(moves) > len(row.moves):
            moves = with_forced_passes(row.game, key, moves)
        state = replay(row.game, key, tuple(moves))
        status, result = result_of(game, state)
        after = None
        if status == GameRow.Status.PLAYING:
            after = openings.side_acting(opening, len(moves), game, state)
        fields.update(moves=moves, status=status, result=result, ending=None)
        # A change of moves answers every pending offer, but for the draw
        # that the mover offered before moving, as on lichess: the friend's
        # move declines it.
        kept = {}
        moved = len(moves) > len(row.moves) and status == GameRow.Status.PLAYING
        if moved and before is not None and row.offers.get("draw") == before:
            kept = {"draw": before}
        fields.setdefault("offers", kept)
        if row.clock:
            fields["clock"] = clocks.after_change(
                row.clock,
                before=before,
                after=after,
                moved=len(moves) > len(row.moves),
                runs=openings.clock_runs(opening, len(moves)),
                at=at,
                earned=_increments_earned(row, len(moves)),
            )
    elif opening != row.opening and before is not None:
        # A Swap2 choice alone: timed as a move.
        after = openings.side_acting(opening, len(row.moves), game, state)
        if row.clock:
            fields["clock"] = clocks.after_change(
                row.clock,
                before=before,
                after=after,
                moved=True,
                runs=openings.clock_runs(opening, len(row.moves)),
                at=at,
            )
    if opening and row.opening and opening["swapped"] != row.opening["swapped"]:
        # The choice swapped the seats: each player's clock goes with theirs,
        # the chooser's time charged first.
        fields["clock"] = clocks.swapped(
            cast(dict | None, fields.get("clock", row.clock))
        )
    if ending is not None:
        after = None
        fields.update(
            status=GameRow.Status.FINISHED,
            result=ending,
            ending=ending,
            offers={},
            clock=clocks.stopped(row.clock, before, at),
        )
    if players is not None:
        fields["players"] = players
    clock = cast(dict | None, fields.get("clock", row.clock))
    if clock and clock["since"] is not None and fields.get("invite", row.invite):
        # No clock runs while the friend's seat is open (a game shared
        # mid-way): it starts when they join (.friends.join).
        clock = fields["clock"] = {**clock, "since": None}
    fields["deadline"] = clocks.deadline(clock, after) or _first_move_deadline(
        row, fields, clock, after, at
    )
    now = timezone.now()
    written = GameRow.objects.filter(pk=row.pk, version=row.version).update(
        version=row.version + 1, updated=now, **fields
    )
    if not written:
        raise Conflict(
            "conflict",
            _(
                "the game changed while this request was handled (another move, "
                "undo or settings change won the race); reload it and try again"
            ),
        )
    ended = row.status != GameRow.Status.FINISHED == fields.get("status")
    for name, value in fields.items():
        setattr(row, name, value)
    row.version += 1
    row.updated = now
    if ended:
        livegrowth.game_finished(row)
    live.publish(snapshot(row))
    return row


def _increments_earned(row: GameRow, kept: int) -> dict[str, int]:
    """Return how many of the moves of ``row`` after the first ``kept``
    earned their side an increment, by side: those played while the clocks
    ran (:func:`.openings.clock_runs`), not a forced pass (played with the
    move before it). Colours alternate move by move, passes included."""
    earned = {"black": 0, "white": 0}
    for ply in range(kept, len(row.moves)):
        if row.moves[ply] != "pass" and openings.clock_runs(row.opening, ply):
            earned["black" if ply % 2 == 0 else "white"] += 1
    return earned


def _first_move_deadline(
    row: GameRow, fields: dict, clock: dict | None, after: str | None, at: int
) -> dt.datetime | None:
    """Return when the side ``after`` must have made its first move (the
    game is aborted then: :func:`settle_clock`), or None: only between two
    taken seats, in a Fischer game whose clocks do not run yet. The time
    counts from that side's turn: kept while nothing but an offer changes."""
    seated = fields.get("seats", row.seats)
    if after is None or not clock or clock["since"] is not None or not seated:
        return None
    if fields.get("invite", row.invite) or not all(seated.get(s) for s in seats.SIDES):
        return None
    seconds = clocks.first_move_seconds(clock["control"])
    if seconds is None:
        return None
    moves = fields.get("moves", row.moves)
    if openings.step(fields.get("opening", row.opening), len(moves)) is not None:
        # A Swap2 step (a stone of three, a choice) is thought over as no
        # first move is (renju-friends QA: 25 s aborted a club player's game).
        seconds *= clocks.OPENING_STEP_FACTOR
    same_turn = (
        row.deadline is not None
        and row.clock is not None
        and row.clock["since"] is None
        and row.clock.get("restarts", 0) == clock.get("restarts", 0)
        and "moves" not in fields
        and "seats" not in fields
        and fields.get("opening", row.opening) == row.opening
    )
    if same_turn:
        return row.deadline
    return dt.datetime.fromtimestamp(at / 1000 + seconds, tz=dt.UTC)


def with_forced_passes(name: str, key: str, moves: list[str]) -> list[str]:
    """Return ``moves`` and the passes that follow by force: a side whose only
    legal move is to pass (Reversi, Lines of Action) passes at once, whoever
    plays it, and the record keeps the pass."""
    game = cached_rules(name, key)
    moves = list(moves)
    while True:
        state = replay(name, key, tuple(moves))
        if game.outcome(state) is not None:
            return moves
        if game.legal_move_texts(state) != [PASS]:
            return moves
        moves.append(PASS)


#: The ending of a game aborted before each player had made a first move.
ABORTED = {"winner": None, "reason": "aborted", "score": None}


def settle_clock(row: GameRow) -> GameRow:
    """Return ``row``, or the row after the loss on time of the side to move
    if its time has run out, or aborted if it has not made its first move in
    time (written once, whoever notices first)."""
    if row.status != GameRow.Status.PLAYING or row.deadline is None:
        return row
    if outages.OUTAGE.down:
        return row  # nobody can move meanwhile: its time is given after (.outages)
    waiting = row.clock and row.clock["since"] is None  # for a first move
    if waiting and timezone.now() < row.deadline:
        return row
    game, state = position(row)
    side = openings.acting_side(row, game, state)
    if waiting:
        # Aborted, saying whose first move did not come (lichess's "Black
        # didn't move").
        ending = {**ABORTED, "no_first_move": side}
    else:
        if not clocks.flagged(row.clock, side, clocks.now_ms()):
            return row
        if row.players[side]["kind"] == "ai" and not READINESS.is_ready(row.game):
            return row  # its clock stands still while it cannot think (.ai)
        other = other_side(side)
        ending = {"winner": other, "reason": "time", "score": None}
    try:
        ended = write(row, ending=ending)
    except Conflict:  # another request or process wrote first: read theirs
        return settle_clock(get_row(row.pk))
    # For the operator: the log said nothing of a game the server ended.
    if waiting:
        log.info("game %s aborted: %s made no first move in time", row.pk, side.title())
    else:
        log.info(
            "game %s ended: %s ran out of time, %s wins",
            row.pk,
            side.title(),
            other.title(),
        )
    return ended


def flag_due_games() -> int:
    """End every game whose side to move has run out of time (or of its time
    for a first move); return how many (the server's flag watcher calls this
    every half second)."""
    due = GameRow.objects.filter(
        status=GameRow.Status.PLAYING, deadline__lte=timezone.now()
    )
    ended = 0
    for row in due[:100]:
        ended += settle_clock(row).status == GameRow.Status.FINISHED
    return ended


def make_up_for_restart(when: str) -> int:
    """Give every game in play whose Fischer clock runs the time a restart
    of the server gives (:func:`.clocks.restarted`, ``when`` ``"stop"`` or
    ``"start"``), and a first move awaited its whole time again; return how
    many. Web processes sharing a
    cache (Redis) give it once a minute, so that a restart of them all gives
    it once."""
    if not cache.add(f"restart-time:{when}", True, timeout=60):
        return 0
    at = clocks.now_ms()
    alive = beats.last_beat() if when == "start" else None
    return _give_running_clocks(
        lambda clock, side: clocks.restarted(clock, side, when, at, alive)
    )


def make_up_for_outage(start: int, end: int) -> int:
    """Give every game in play whose Fischer clock runs an outage of the
    shared store, from ``start`` to ``end`` (:func:`.clocks.outage_given`),
    and a first move awaited its whole time again; return how many."""
    return _give_running_clocks(
        lambda clock, side: clocks.outage_given(clock, side, start, end)
    )


def _give_running_clocks(given: Callable[[dict, str], dict | None]) -> int:
    """Write ``given(clock, side)`` (the clock with time given to ``side``,
    whose clock runs; None if there is nothing to give) in each game in play
    whose Fischer clock runs, give a first move awaited its whole time again,
    each counted in the clock's ``restarts``; return how many games were
    given time."""
    running = GameRow.objects.filter(
        status=GameRow.Status.PLAYING, deadline__isnull=False
    )
    count = 0
    for row in running.iterator():
        clock = row.clock
        if not clock or "days" in clock["control"]:
            continue  # days a move
        game, state = position(row)
        side = openings.acting_side(row, game, state)
        # A first move awaited has its whole time again (_first_move_deadline).
        ticking = clock["since"] is not None
        again = given(clock, side) if ticking else clock
        if again is None:
            continue
        try:
            write(row, clock={**again, "restarts": clock.get("restarts", 0) + 1})
        except Conflict:  # a move came meanwhile: its clock has started since
            continue
        count += 1
    return count


def new_row(**columns: object) -> GameRow:
    """Store and return a new game (no move played yet) with ``columns``;
    one that starts between two taken seats on a Fischer clock (a rematch)
    counts its first mover's time from now, as :func:`write` does after a
    change."""
    row = GameRow(moves=[], **columns)
    key = options_key(row.options)
    game = cached_rules(row.game, key)
    first = openings.side_acting(row.opening, 0, game, replay(row.game, key, ()))
    row.deadline = _first_move_deadline(row, {}, row.clock, first, clocks.now_ms())
    row.save(force_insert=True)
    return row


def create_game(
    *,
    game: str,
    options: dict | None,
    players: dict | None,
    clock: dict | None = None,
    friend: dict | None = None,
    opening: str | None = None,
) -> dict:
    """Return the snapshot of a new game of ``game`` with ``options``,
    ``players`` (both human unless given), ``clock`` (a time control, or
    None) and ``opening`` (Gomoku's ``"swap2"``, or None: black begins).
    With ``friend`` (``{"side": "black" | "white" | "random"}``) the game is
    between two browsers: both sides human, the creator seated at ``side``
    (under Swap2, black's side opens); the answer then also holds the
    creator's ``seat`` (side and secret token) and the ``invite`` that takes
    the other seat."""
    rules = rules_for(game, options)
    fields: dict = {
        "clock": clocks.new_clock(clock),
        "opening": openings.new_opening(rules.name, opening, rules.options),
    }
    seat = None
    if friend is not None:
        side = seats.pick_colour(friend.get("side", "random"))
        fields["seats"], fields["invite"], token, invitation = seats.open_seats(side)
        players = None  # both human
        seat = {"side": side, "token": token}
    row = new_row(
        game=rules.name,
        options=rules.options,
        players=normal_players(rules.name, players, options=rules.options),
        **fields,
    )
    view = snapshot(row)
    if seat is not None:
        view.update(seat=seat, invite=invitation)
    return view


def play_move(
    game_id: GameId,
    *,
    move: str,
    version: int | None = None,
    token: str | None = None,
) -> dict:
    """Return the snapshot after the human move ``move`` in game ``game_id``.

    Refuses (ServiceError) a move after the end (``game_over``), when the
    side to move is an AI or another seat's (``not_your_turn``), without the
    seat's ``token`` in a game between two browsers (403), malformed
    (``invalid_move``) or illegal (``illegal_move``, listing the legal moves).
    """
    row, game, state = _human_acting(game_id, version, token)
    openings.refuse_move_when_choosing(row)
    text = parse(game, state, move)
    return snapshot(write(row, moves=[*row.moves, text]))


def undo(game_id: GameId, *, version: int | None = None) -> dict:
    """Return the snapshot after taking back the last move (and a forced pass
    with the move before it); when the side then to move is an AI and the
    other side is human, keep taking back until a human is to move (so undo
    against the AI returns to the human's turn). Against the AI before the
    human's first move (the human plays white) there is nothing to take
    back: ``nothing_to_undo`` (the AI would play its move again). A game
    lost on time stays lost: ``game_over``. Without ``version`` the undo
    does not depend on the position: if another write wins the race (the
    computer's move stored as the player pressed Undo), it takes back from
    after that one."""
    return _rewrite(game_id, version, lambda row: {"moves": _undone(row)})


#: How many times a change without a version (an undo, new players) is
#: tried when other writes win the race (each try reads the game again).
RACE_TRIES = 3


def _rewrite(
    game_id: GameId, version: int | None, change: Callable[[GameRow], dict]
) -> dict:
    """Return the snapshot after writing the columns ``change`` makes of the
    game as stored (it may refuse). Without ``version`` the change does not
    depend on the position: if another write wins the race, it is made
    again on the game after that one. A search under way in the game is
    stopped: it could no longer write its move."""
    tries = 1
    while True:
        row = get_row(game_id)
        check_version(row, version)
        try:
            row = write(row, **change(row))
        except Conflict:
            if version is not None or tries == RACE_TRIES:
                raise
            tries += 1
            continue
        abandon_search(row.pk, row.version)
        return snapshot(row)


def _undone(row: GameRow) -> list[str]:
    """Return the moves of ``row`` once its last ones are taken back, as
    :func:`undo` says; or refuse (``nothing_to_undo``, ``game_over``, a game
    between seats)."""
    unseated(
        row,
        _(
            "this game is between two seats: no one can take a move back: ask "
            "for a takeback (POST takeback/)"
        ),
    )
    if row.ending:
        # Lost on time or by resignation: taking a move back would replay it
        # under a fallen flag, or undo a decision (as lichess, no takeback).
        raise ServiceError(
            "game_over",
            _("the game is over (%(result)s): nothing is taken back after it")
            % {"result": _describe_result(row.result)},
        )
    floor = openings.first_undoable(row)
    if len(row.moves) <= floor:
        if floor:
            raise ServiceError(
                "nothing_to_undo", _("the Swap2 opening's stones are not taken back")
            )
        raise ServiceError("nothing_to_undo", _("no move has been played yet"))
    moves = list(row.moves)
    taken = moves.pop()
    while taken == PASS and moves:  # a forced pass goes with the move before
        taken = moves.pop()
    kinds = {side: row.players[side]["kind"] for side in COLORS}
    if "human" in kinds.values() and "ai" in kinds.values():
        key = options_key(row.options)
        game = cached_rules(row.game, key)
        while len(moves) > floor:
            state = replay(row.game, key, tuple(moves))
            if kinds[game.to_move(state)] == "human":
                break
            moves.pop()
        else:
            if kinds[game.to_move(replay(row.game, key, tuple(moves)))] == "ai":
                raise ServiceError(
                    "nothing_to_undo", _("none of your moves can be taken back yet")
                )
    return moves


def choose(
    game_id: GameId,
    *,
    choice: str,
    version: int | None = None,
    token: str | None = None,
) -> dict:
    """Return the snapshot after the human whose side acts makes a Swap2
    ``choice`` (``white``, ``black``, ``place2``): refused (``invalid_choice``)
    when no choice is awaited or this one is not allowed; ``not_your_turn``
    (403) when that side is the AI's or another seat's."""
    row, _game, _state = _human_acting(game_id, version, token)
    return snapshot(write(row, **openings.choice_columns(row, choice)))


def _human_acting(
    game_id: GameId, version: int | None, token: str | None
) -> tuple[GameRow, Game, State]:
    """Return (row, rules, state) of a game still played whose side to act
    (the side to move, or the one an opening rule names) is a human, and the
    token's seat in a game between two browsers; refuse (403
    ``not_your_turn``) otherwise."""
    row = get_row(game_id)
    check_version(row, version)
    game, state = playable(row)
    side = openings.acting_side(row, game, state)
    seats.require_seat(row, token, side=side)
    if row.players[side]["kind"] != "human":
        raise Forbidden(
            "not_your_turn",
            _(
                "it is %(side)s's turn and %(side)s is played by the AI: ask for "
                "POST ai-move/, or make the side human with PATCH"
            )
            % {"side": side_words(side)},
        )
    return row, game, state


def update_players(
    game_id: GameId, *, players: dict, version: int | None = None
) -> dict:
    """Return the snapshot after replacing the settings of the sides named in
    ``players`` (the other side keeps its settings). Without ``version`` the
    change does not depend on the position: if another write (an AI's move
    in a game between AIs) wins the race, it is applied after that one."""

    def change(row: GameRow) -> dict:
        unseated(
            row, _("this game is between two seats: no one can change its players")
        )
        return {
            "players": normal_players(
                row.game, players, base=row.players, options=row.options
            )
        }

    return _rewrite(game_id, version, change)

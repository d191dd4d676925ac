"""A stored game's opening rule: Gomoku's Swap2 (:mod:`mcts.play.swap2` has the
rule itself).

A game opened by Swap2 keeps ``{"name": "swap2", "choices": [...],
"swapped": bool}`` in its ``opening`` column. Until a colour is chosen,
black's side (its player settings, its seat) is the opener's and white's the
second player's: the side that acts is the one the step names, whatever the
colour of the stone it places. A choice that gives a player the other colour
swaps the two sides' settings and seats (``swapped`` says so), so that after
the opening each side is a colour again, as in every other game. Nothing is
taken back until the colours are settled.

A clock runs for the side that acts, as in Gomocup, where the opening's
time counts, once each player has acted (:func:`clock_runs`): as each side's
first move in any game (:mod:`.clocks`), the opener's three stones and the
second player's first choice are not timed; the two more stones and the
opener's second choice are. A choice that swaps the sides swaps their
clocks with them.
"""

from __future__ import annotations

from typing import cast

from django.utils.translation import gettext as _

from mcts import GAMES, Game, State, swap2

from ..errors import ServiceError
from ..models import Game as GameRow
from .sides import other_side

#: The opening rules a game may be created with, by game.
OPENINGS = {"gomoku": (swap2.NAME,)}
#: Every opening rule's name, the choices it knows and its steps (the API's).
NAMES = tuple(sorted({name for names in OPENINGS.values() for name in names}))
CHOICES = ("white", "black", "place2")
STEPS = (swap2.PLACE3, swap2.CHOOSE, swap2.PLACE2, swap2.CHOOSE_AGAIN, swap2.DONE)


def offered(game: str) -> list[dict]:
    """Return the opening rules a game of ``game`` may be created with, each
    with the shortest row it opens (the kinds' ``openings``)."""
    return [{"name": name, "min_row": swap2.MIN_ROW} for name in OPENINGS.get(game, ())]


def new_opening(game: str, name: str | None, options: dict) -> dict | None:
    """Return the ``opening`` column of a new game of ``game`` with
    ``options`` opened by ``name`` (None: as the rules start it), or refuse
    ``invalid_opening``: an unknown rule, or Swap2 with rows too short."""
    if name in (None, "", "none"):
        return None
    if name not in OPENINGS.get(game, ()):
        raise ServiceError(
            "invalid_opening",
            _("%(game)s has no opening rule %(name)s (Gomoku has swap2)")
            % {"game": _(GAMES[game].title), "name": repr(name)},
        )
    if options.get("row", swap2.MIN_ROW) < swap2.MIN_ROW:
        raise ServiceError(
            "invalid_opening",
            _(
                "Swap2 opens games of %(n)d or more in a row: its three black "
                "stones could win a row of %(row)d before the colours are chosen"
            )
            % {"n": swap2.MIN_ROW, "row": options["row"]},
        )
    return {"name": name, "choices": [], "swapped": False}


def replayed(
    name: str, choices: list[str], stones: int, *, made_at_the_end: bool = True
) -> dict:
    """Return the ``opening`` column of a Swap2 game (``name``) whose
    ``stones`` first moves are on the board and whose choices were
    ``choices``, kept as far as those moves reach: a choice made after as
    many stones as the board holds is kept when ``made_at_the_end`` (a
    record that ends with it), not otherwise (a game played again from that
    position chooses again). Refuse ``invalid_record`` for choices the
    stones do not fit (one where none is made, or none where one is due)."""
    unknown = [choice for choice in choices if choice not in CHOICES]
    if unknown or len(choices) > 2:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's Swap2 choices are at most two of %(choices)s, "
                "not %(given)s"
            )
            % {"choices": ", ".join(CHOICES), "given": repr(" ".join(choices))},
        )
    made: list[str] = []
    swapped = False
    for choice in choices:
        # The first choice follows the opener's three stones, the second the
        # second player's two more.
        at = 3 + 2 * len(made)
        if at > stones or (at == stones and not made_at_the_end):
            break
        try:
            swap2.check_choice(at, made, choice)
        except swap2.Swap2Error:
            raise ServiceError(
                "invalid_record",
                _("the record's Swap2 choices %(choices)s do not follow one another")
                % {"choices": repr(" ".join(choices))},
            ) from None
        swapped ^= swap2.swaps(at, made, choice)
        made.append(choice)
    try:
        swap2.step(stones, made)
    except swap2.Swap2Error:
        raise ServiceError(
            "invalid_record",
            _(
                "the record's Swap2 opening has no choice after move %(n)d: "
                'give it in a tag such as [choices "white"]'
            )
            % {"n": 3 + 2 * len(made)},
        ) from None
    return {"name": name, "choices": made, "swapped": swapped}


def step(opening: dict | None, stones: int) -> swap2.Step | None:
    """Return the Swap2 step after ``stones`` moves, or None once the colours
    are settled (or for a game without an opening rule)."""
    if not opening:
        return None
    now = swap2.step(stones, opening["choices"])
    return None if now.phase == swap2.DONE else now


def under_way(row: GameRow) -> swap2.Step | None:
    """Return the step of the row's opening while it is under way, else None."""
    return step(row.opening, len(row.moves))


def choices(row: GameRow) -> list[str]:
    """Return the opening's choices so far (none without an opening)."""
    return list(row.opening["choices"]) if row.opening else []


def acting_side(row: GameRow, game: Game, state: State) -> str:
    """Return the side whose player acts now: during the opening the one its
    step names (black's side is the opener's), after it the colour to move."""
    return side_acting(row.opening, len(row.moves), game, state)


def side_acting(opening: dict | None, stones: int, game: Game, state: State) -> str:
    """Return the side whose player acts after ``stones`` moves (``state``)
    of a game opened by ``opening``, as :func:`acting_side` says."""
    now = step(opening, stones)
    if now is None:
        return game.to_move(state)
    return "black" if now.opener else "white"


def clock_runs(opening: dict | None, stones: int) -> bool:
    """Return whether a clock runs after ``stones`` moves of a game opened by
    ``opening``: once each player has acted, that is after two moves, or in
    Swap2 from the second player's two more stones on."""
    now = step(opening, stones)
    if now is None:
        return stones >= 2
    return now.phase in (swap2.PLACE2, swap2.CHOOSE_AGAIN)


def refuse_move_when_choosing(row: GameRow) -> None:
    """Refuse (``choose_first``) a move, or a hint at one, while a Swap2
    choice is awaited."""
    now = under_way(row)
    if now is not None and now.choosing:
        raise ServiceError(
            "choose_first",
            _("the Swap2 opening awaits a choice (%(choices)s), not a move")
            % {"choices": ", ".join(swap2.CHOICES[now.phase])},
        )


def choice_columns(row: GameRow, choice: str) -> dict:
    """Return the columns to write for ``choice`` (its opening, and the
    players and seats swapped when the chooser takes the other colour), or
    refuse ``invalid_choice``."""
    now = under_way(row)
    if now is None or not now.choosing:
        raise ServiceError(
            "invalid_choice",
            _("nothing is to be chosen in this game now")
            if now is None
            else _("the Swap2 opening awaits stones, not a choice"),
        )
    if choice not in swap2.CHOICES[now.phase]:
        raise ServiceError(
            "invalid_choice",
            _("choose one of %(choices)s")
            % {"choices": ", ".join(swap2.CHOICES[now.phase])},
        )
    opening = cast(dict, row.opening)
    stones, choices = len(row.moves), opening["choices"]
    swapped = swap2.swaps(stones, choices, choice)
    columns: dict = {
        "opening": {
            **opening,
            "choices": [*choices, choice],
            "swapped": opening["swapped"] != swapped,
        }
    }
    if swapped:
        columns["players"] = {
            "black": row.players["white"],
            "white": row.players["black"],
        }
        if row.seats:
            columns["seats"] = {
                "black": row.seats["white"],
                "white": row.seats["black"],
            }
            # So do their offers and the waits before asking again (renju-
            # friends QA: the opener's draw offer, kept by colour, greyed
            # the other player's Offer a draw).
            columns["offers"] = {
                offer: other_side(side) for offer, side in row.offers.items()
            }
            columns["asked"] = {
                offer: {other_side(side): wait for side, wait in sides.items()}
                for offer, sides in row.asked.items()
            }
        # The clocks follow them (.games.write, after it has charged the
        # chooser's time).
    return columns


def first_undoable(row: GameRow) -> int:
    """Return how many moves nothing may take back: the opening's stones,
    once settled; refuse ``opening_under_way`` while it is not."""
    if not row.opening:
        return 0
    if under_way(row) is not None:
        raise ServiceError(
            "opening_under_way",
            _("nothing is taken back during the Swap2 opening"),
        )
    return swap2.opening_stones_placed(row.opening["choices"])


def opener(row: GameRow) -> str:
    """Return the colour the opener plays: black until a colour is chosen,
    and in a game without an opening rule."""
    if not row.opening:
        return "black"
    return swap2.opener_colour(row.opening["choices"]) or "black"


def view(row: GameRow) -> dict | None:
    """Return the opening as the API shows it: its rule, choices, step and
    whether the sides were swapped; None for a game without one."""
    if not row.opening:
        return None
    now = under_way(row)
    return {
        **row.opening,
        "step": swap2.DONE if now is None else now.phase,
        "opener": opener(row),
        "choices_now": list(swap2.CHOICES.get(now.phase, ())) if now else [],
    }

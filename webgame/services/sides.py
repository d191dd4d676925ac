"""The two sides of every game, black (who begins) and white, and how a
message names them."""

from __future__ import annotations

from django.utils.translation import pgettext

SIDES = ("black", "white")


def other_side(side: str) -> str:
    """Return the side that is not ``side``."""
    return "white" if side == "black" else "black"


def side_words(side: str) -> str:
    """A side as a message names it: the API's own word in English
    ("black"), the language's word for it elsewhere (QA: "轮到 black 走棋")."""
    return {"black": pgettext("side", "black"), "white": pgettext("side", "white")}[
        side
    ]

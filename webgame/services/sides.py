"""The two sides of every game, black (who begins) and white."""

from __future__ import annotations

SIDES = ("black", "white")


def other_side(side: str) -> str:
    """Return the side that is not ``side``."""
    return "white" if side == "black" else "black"

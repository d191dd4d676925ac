"""The chart of a network's strength over its training time, from the gates
its model's manifest records (``--eval-games`` of ``train-net``)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no screen here
from matplotlib import pyplot  # noqa: E402


def draw(
    gates: list[dict], out: Path, *, title: str, clock: str = "hours of training"
) -> int:
    """Draw the best network's score against plain MCTS at each gate over
    the training's wall-clock hours (the x axis labelled ``clock``), each
    point labelled with the self-play games played by then, into the image
    ``out``; return the points drawn."""
    points = [g for g in gates if "pure_mcts" in g]
    if not points:
        raise ValueError("no gate measured the network against plain MCTS")
    hours = [g["seconds"] / 3600 for g in points]
    scores = [100 * g["pure_mcts"] for g in points]
    figure, axes = pyplot.subplots(figsize=(6.4, 3.6), dpi=120)
    axes.plot(hours, scores, marker="o", color="#2b6cb0")
    for hour, score, gate in zip(hours, scores, points, strict=True):
        axes.annotate(
            f"{gate['games']}",
            (hour, score),
            textcoords="offset points",
            xytext=(0, -14),
            ha="center",
            fontsize=8,
            color="#4a5568",
        )
    axes.set_xlabel(f"{clock} (each point: self-play games played)")
    axes.set_ylabel("score against plain MCTS (%)")
    axes.set_ylim(0, 105)  # a point at 100% stays in view
    axes.grid(alpha=0.3)
    axes.set_title(title, fontsize=10)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    pyplot.close(figure)
    return len(points)

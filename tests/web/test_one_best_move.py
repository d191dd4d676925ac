"""One answer to "what is the best move" (issue 67, finding 7): the move a
hint or an analysis gives heads its principal variation and is the one move
marked best among the candidates, whoever chose it (in Gomoku the alpha-beta
chooses the move of a search for a time, and once disagreed with the tree's
line: move k9, line l12 ...)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .helpers import create, url

OPENINGS = {
    "gomoku": ["h8", "i9", "h9", "h10", "j8", "g7"],
    "reversi": ["f5", "d6", "c3", "d3", "c4"],
    "loa": [],
}


def _agrees(search: dict) -> None:
    assert search["pv"] and search["pv"][0] == search["move"], search["pv"]
    marked = [m["move"] for m in search["moves"] if m["best"]]
    assert marked == [search["move"]]


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(OPENINGS))
def test_a_hints_move_heads_its_line_and_is_the_one_marked_best(game):
    client = APIClient()
    created = create(client, game).json()
    for move in OPENINGS[game]:
        response = client.post(
            url("game-moves", created["id"]), {"move": move}, format="json"
        )
        assert response.status_code == 200, response.content
    for think_time in (0.1, 0.3):
        response = client.post(
            url("game-hint", created["id"]), {"think_time": think_time}, format="json"
        )
        assert response.status_code == 200, response.content
        _agrees(response.json()["search"])


@pytest.mark.django_db
def test_an_analysis_gives_its_best_move_first_in_its_line():
    client = APIClient()
    created = create(client, "gomoku").json()
    for move in OPENINGS["gomoku"]:
        client.post(url("game-moves", created["id"]), {"move": move}, format="json")
    for ply in (1, 4, 6):
        body = client.post(
            url("game-analysis", created["id"]), {"ply": ply}, format="json"
        ).json()
        assert body["pv"][0] == body["best"], body

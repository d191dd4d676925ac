"""Whole games played through the API to the end: human vs AI and AI vs AI.

Small boards and 50-simulation AIs keep them fast; the point is that the
endpoints carry a game from the first move to a result, for every game.
"""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from mcts import find_game

from .helpers import FAST_AI, HUMAN, create, url

GAMES = [
    ("reversi", None),
    ("gomoku", {"size": 7, "row": 4}),
    ("loa", None),
]
PLY_CAP = 600


def finish(client, game, *, seed=0):
    """Play ``game`` to the end: ai-move when an AI is to move, else a random
    legal move; return the final game and the number of requests."""
    rng = random.Random(seed)
    requests = 0
    while game["status"] == "playing":
        assert len(game["moves"]) < PLY_CAP, "game did not end"
        side = game["to_move"]
        if game["players"][side]["kind"] == "ai":
            response = client.post(url("game-ai-move", game["id"]))
            assert response.status_code == 200, response.content
            body = response.json()
            # The AI's move, then any pass it forced on the other side.
            played = body["game"]["moves"][len(game["moves"]) :]
            assert played[0] == body["search"]["move"]
            assert all(move == "pass" for move in played[1:])
            game = body["game"]
        else:
            move = rng.choice(game["legal_moves"])
            response = client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            )
            assert response.status_code == 200, response.content
            game = response.json()
        requests += 1
    return game, requests


def check_finished(client, name, options, game):
    """Assert the finished game is consistent with the rules library."""
    assert game["to_move"] is None and game["legal_moves"] == []
    assert game["result"]["winner"] in ("black", "white", None)
    assert game["result"]["reason"]
    rules = find_game(name, **(options or {}))
    state = rules.play_all(game["moves"])
    assert rules.is_terminal(state)
    assert rules.outcome(state).to_json() == game["result"]
    record = client.get(url("game-record", game["id"])).json()["record"]
    body = {"game": name, "record": record, "options": options or {}}
    again = client.post("/api/games/import/", body, format="json").json()
    assert again["moves"] == game["moves"] and again["result"] == game["result"]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_human_against_ai_to_the_end(name, options):
    client = APIClient()
    game = create(client, name, options=options, black=HUMAN, white=FAST_AI).json()
    game, _ = finish(client, game, seed=1)
    check_finished(client, name, options, game)


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_ai_against_ai_to_the_end(name, options):
    client = APIClient()
    game = create(client, name, options=options, black=FAST_AI, white=FAST_AI).json()
    game, requests = finish(client, game)
    # One request a move; the passes a move forced came with it.
    assert requests == sum(move != "pass" for move in game["moves"])
    check_finished(client, name, options, game)

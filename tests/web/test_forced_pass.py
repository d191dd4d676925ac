"""A forced pass plays itself (issue 65): a side whose only legal move is to
pass passes at once, the record keeps the pass, and undo takes it back with
the move before it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .helpers import url

pytestmark = pytest.mark.django_db
#: After these eight Reversi moves Black has no move.
BEFORE_THE_PASS = "d3c3e6d2d1e1b2"


@pytest.fixture
def game():
    client = APIClient()
    made = client.post(
        "/api/games/import/",
        {"game": "reversi", "record": BEFORE_THE_PASS},
        format="json",
    ).json()
    assert made["to_move"] == "white" and made["ply"] == 7
    return client, made["id"]


def test_the_move_that_leaves_no_move_brings_the_pass_with_it(game):
    client, game_id = game
    after = client.post(url("game-moves", game_id), {"move": "c1"}, format="json")
    body = after.json()
    assert body["moves"][-2:] == ["c1", "pass"]
    assert body["to_move"] == "white" and "pass" not in body["legal_moves"]
    record = client.get(url("game-record", game_id)).json()["record"]
    assert record.startswith("d3c3e6d2d1e1b2c1")  # a transcript leaves passes out


def test_undo_takes_the_pass_back_with_the_move_before_it(game):
    client, game_id = game
    client.post(url("game-moves", game_id), {"move": "c1"}, format="json")
    back = client.post(url("game-undo", game_id), {}, format="json").json()
    assert back["ply"] == 7 and back["to_move"] == "white"


def test_the_ai_that_leaves_no_move_passes_for_the_other_side_too(game):
    client, game_id = game
    client.patch(
        url("game-detail", game_id),
        {"players": {"white": {"kind": "ai", "level": 1}}},
        format="json",
    )
    moved = client.post(url("game-ai-move", game_id), {}, format="json").json()
    game_after = moved["game"]
    # Whatever White chose, Black is never left to click a pass.
    assert game_after["legal_moves"] != ["pass"]


def test_a_record_that_ends_on_a_forced_pass_is_imported_with_the_pass():
    """Reversi walk: a transcript ending where Black has no move was imported
    with Black to move, and the page waited on a Pass button; in play the
    pass comes with the move before it."""
    client = APIClient()
    made = client.post(
        "/api/games/import/",
        {"game": "reversi", "record": BEFORE_THE_PASS + "c1"},
        format="json",
    ).json()
    assert made["moves"][-2:] == ["c1", "pass"]
    assert made["to_move"] == "white" and "pass" not in made["legal_moves"]


def test_a_game_played_on_from_before_a_forced_pass_begins_with_the_pass(game):
    """The position before a forced pass is shown (the move that forced it):
    a game played on from there passes as the game did."""
    client, game_id = game
    client.post(url("game-moves", game_id), {"move": "c1"}, format="json")
    new = client.post(url("game-play-from", game_id), {"ply": 8}, format="json")
    assert new.status_code == 201, new.content
    assert new.json()["moves"][-2:] == ["c1", "pass"]
    assert new.json()["to_move"] == "white"

"""The endpoints that look back at a game: a position's analysis, how the
game ended (the squares that won it) and the opening explorer."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .helpers import assert_error, create, url

#: Black's five on row 1 of a 9x9 board (White answers on row 2).
GOMOKU_FIVE = ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"]
LOA_BLACK_WIN = [
    "d1-b3", "h5-g4", "b1-b4", "g4xg1", "b4-e7",
    "a3xc1", "b3-e6", "h3xf1", "e1-e5",
]  # fmt: skip


@pytest.fixture
def client():
    return APIClient()


def _played(client, game, moves, options=None) -> str:
    game_id = create(client, game, options=options).json()["id"]
    for move in moves:
        response = client.post(
            url("game-moves", game_id), {"move": move}, format="json"
        )
        assert response.status_code == 200, response.content
    return game_id


@pytest.mark.django_db
def test_analysis_scores_a_position_and_the_end_by_its_result(client):
    game_id = _played(client, "gomoku", GOMOKU_FIVE, {"size": 9, "row": 5})
    start = client.post(url("game-analysis", game_id), {"ply": 0}, format="json")
    assert start.status_code == 200, start.content
    body = start.json()
    assert body["to_move"] == "black" and 0.0 <= body["black"] <= 1.0
    assert body["best"] and body["pv"][0] == body["best"]
    # Black has four in a row and is to move: the search sees the win.
    won = client.post(url("game-analysis", game_id), {"ply": 8}, format="json").json()
    assert won["best"] == "e1" and won["black"] > 0.9
    end = client.post(url("game-analysis", game_id), {"ply": 9}, format="json").json()
    assert end == {
        "ply": 9, "to_move": None, "black": 1.0, "best": None, "pv": [], "proven": None
    }  # fmt: skip
    too_far = client.post(url("game-analysis", game_id), {"ply": 10}, format="json")
    assert_error(too_far, 400, "invalid_ply")
    # Below 0 or not a number: the same code (it was invalid_request).
    for ply in (-1, "0"):
        wrong = client.post(url("game-analysis", game_id), {"ply": ply}, format="json")
        assert_error(wrong, 400, "invalid_ply")
    wrong = client.get(url("game-explorer", game_id), {"ply": -1})
    assert_error(wrong, 400, "invalid_ply")


@pytest.mark.django_db
def test_ending_names_the_winning_row_and_the_winners_group(client):
    gomoku = _played(client, "gomoku", GOMOKU_FIVE, {"size": 9, "row": 5})
    body = client.get(url("game-ending", gomoku)).json()
    assert body["winner"] == "black" and "five" in body["reason"]
    assert body["squares"] == ["a1", "b1", "c1", "d1", "e1"]
    loa = _played(client, "loa", LOA_BLACK_WIN)
    body = client.get(url("game-ending", loa)).json()
    snap = client.get(url("game-detail", loa)).json()
    black = {
        snap["board"]["files"][c] + snap["board"]["ranks"][r]
        for r, row in enumerate(snap["board"]["cells"])
        for c, cell in enumerate(row)
        if cell == "black"
    }
    assert body["winner"] == "black" and set(body["squares"]) == black
    playing = _played(client, "reversi", ["f5"])
    assert client.get(url("game-ending", playing)).json() == {
        "winner": None, "reason": None, "squares": []
    }  # fmt: skip


@pytest.mark.django_db
def test_ending_lights_only_what_won_on_the_board(client):
    # QA: a standard six that did not win was lit beside the five that did,
    # and a resigned Lines of Action game lit the winner's scattered pieces.
    six = ["c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8"]
    five = ["b15", "o1", "b13", "o2", "b11", "o3", "b9", "o4", "b7", "o5"]
    standard = _played(client, "gomoku", six + five, {"rule": "standard"})
    body = client.get(url("game-ending", standard)).json()
    assert body["winner"] == "black"
    assert body["squares"] == ["o5", "o4", "o3", "o2", "o1"]
    resigned = _played(client, "loa", LOA_BLACK_WIN[:4])
    response = client.post(url("game-resign", resigned), {}, format="json")
    assert response.status_code == 200, response.content
    body = client.get(url("game-ending", resigned)).json()
    assert body["winner"] and body["reason"] == "resignation"
    assert body["squares"] == []


@pytest.mark.django_db
def test_explorer_lists_the_models_moves_and_steps_into_them(client):
    game_id = _played(client, "reversi", [])
    body = client.get(url("game-explorer", game_id), {"ply": 0}).json()
    assert body["known"] and body["model"] == "light" and body["to_move"] == "black"
    moves = body["moves"]
    assert moves and all(m["visits"] > 0 for m in moves)
    assert [m["visits"] for m in moves] == sorted(
        (m["visits"] for m in moves), reverse=True
    )
    assert {m["move"] for m in moves} <= {"d3", "c4", "f5", "e6"}
    first = moves[0]["move"]
    inside = client.get(url("game-explorer", game_id), {"ply": 0, "line": first}).json()
    assert inside["line"] == [first] and inside["to_move"] == "white"
    assert inside["board"]["cells"] != body["board"]["cells"]
    illegal = client.get(url("game-explorer", game_id), {"ply": 0, "line": "a1"})
    assert_error(illegal, 400, "illegal_move")
    missing = client.get(url("game-explorer", game_id), {"ply": 0, "model": "nope"})
    # Named as unknown, with the models there are (no server path).
    detail = assert_error(missing, 400, "unknown_model")["detail"]
    assert detail.endswith("models: full, light")  # no "none": the explorer needs one
    path = client.get(url("game-explorer", game_id), {"ply": 0, "model": "../x"})
    assert path.status_code == 400


@pytest.mark.django_db
def test_explorer_reads_a_rules_own_model_by_default(client):
    # On a renju game it read light, which learned freestyle and knows no
    # renju position: Explore showed nothing (QA).
    game_id = _played(client, "gomoku", [], {"rule": "renju"})
    body = client.get(url("game-explorer", game_id), {"ply": 0}).json()
    assert body["model"] == "light-renju" and body["known"] and body["moves"]
    # Freestyle reads light; standard, without a model of its own, too.
    for rule in ("freestyle", "standard"):
        other = _played(client, "gomoku", [], {"rule": rule})
        answer = client.get(url("game-explorer", other), {"ply": 0})
        assert answer.status_code == 200 and answer.json()["model"] == "light", rule


#: Lines of Action: after these, White's d4xg4 joins both sides at once
#: (LOA walk).
LOA_BOTH_JOINED = (
    "d8-d6 h3-f5 b8-e5 a5xe5 e8xe5 h5xe5 f8xf5 a2-c4 g8-g6 h4-e4 c8-e6 a3-c5 "
    "g6-g4 a6-d3 c1-e3 a7xe3 g4-e2 c4-f4 d6xd3 a4-d4 f5-h3 h7xh3 e6-g4 c5-c4 "
    "e1-f2 c4-d5 g4-g2 d4-g4 g1xg4 e5-d4 b1-e1 d5-e5 d1-g1 h6-g6 g2xe4 h2-h4 "
    "e1-d2 g6-h5 g1-e1 h4-g5 e4-c2 d4xg4"
)


@pytest.mark.django_db
def test_a_draw_of_both_sides_joined_at_once_lights_both_groups(client):
    # LOA walk: the draw lit neither group, where a win lights the winner's.
    drawn = _played(client, "loa", LOA_BOTH_JOINED.split())
    body = client.get(url("game-ending", drawn)).json()
    assert body["winner"] is None
    assert body["reason"] == "both sides connected at once"
    snap = client.get(url("game-detail", drawn)).json()
    pieces = {
        snap["board"]["files"][c] + snap["board"]["ranks"][r]
        for r, row in enumerate(snap["board"]["cells"])
        for c, cell in enumerate(row)
        if cell
    }
    assert set(body["squares"]) == pieces

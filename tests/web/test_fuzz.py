"""Property-based fuzz of the API: no input whatever gets a 500.

Hypothesis throws arbitrary JSON, near-valid bodies (the right keys holding
wrong values), raw bytes and odd paths at every endpoint and method, and
checks that each answer is a success or a 4xx in the one error shape.
"""

from __future__ import annotations

import json
import uuid
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from rest_framework.test import APIClient

from mcts import Level
from webgame.services import ai

from .helpers import create

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)

GAME_NAMES = st.sampled_from(["reversi", "gomoku", "loa", "othello", "", "chess"])
KEYS = [
    "game",
    "options",
    "players",
    "record",
    "move",
    "version",
    "level",
    "think_time",
    "model",
    "kind",
    "black",
    "white",
    "size",
    "row",
]


def near_valid(values):
    """Return bodies built from the API's own keys with fuzzed values."""
    player = st.fixed_dictionaries(
        {"kind": st.sampled_from(["human", "ai", "AI", 3])},
        optional={
            "level": values,
            "think_time": values,
            "model": st.sampled_from(["none", None, "light", "../x", 5]),
        },
    )
    players = st.fixed_dictionaries(
        {}, optional={"black": player | values, "white": player | values}
    )
    options = (
        st.fixed_dictionaries(
            {},
            optional={
                "size": values,
                "row": values,
                "repetition": values,
                "no_move": values,
                "double_connection": values,
            },
        )
        | values
    )
    moves = (
        st.sampled_from(
            [
                "f5",
                "F5",
                "pass",
                "h8",
                "b1-b3",
                "b1xb3",
                "a1",
                "z99",
                "",
                " d3 ",
                "b1-b9",
            ]
        )
        | values
    )
    return st.fixed_dictionaries(
        {},
        optional={
            "game": GAME_NAMES | values,
            "options": options,
            "players": players | values,
            "record": st.text(max_size=40) | values,
            "move": moves,
            "version": values,
            "level": values,
            "think_time": values,
        },
    ) | st.dictionaries(st.sampled_from(KEYS), values, max_size=5)


bodies = (
    near_valid(json_values).map(lambda b: ("json", b))
    | json_values.map(lambda b: ("json", b))
    | st.binary(max_size=60).map(lambda b: ("raw", b))
)

METHODS = ["get", "post", "patch", "put", "delete"]
ENDPOINTS = [
    "game-detail",
    "game-moves",
    "game-ai-move",
    "game-hint",
    "game-undo",
    "game-record",
]
FREE = [
    "/api/games/",
    "/api/games/kinds/",
    "/api/games/import/",
    "/api/schema/x",
    "/api/",
    "/api/games/not-a-uuid/moves/",
]


def assert_no_server_error(response):
    assert response.status_code < 500, (response.status_code, response.content)
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("error"), str) and body["error"]
        assert isinstance(body.get("detail"), str) and body["detail"]


def send(client, method, path, body):
    """Return the response to ``method`` on ``path`` with the body in the request
    body (for every method, GET included)."""
    kind, payload = body
    data = json.dumps(payload).encode() if kind == "json" else payload
    return client.generic(
        method.upper(), path, data=data, content_type="application/json"
    )


# A search of a few simulations: the fuzz is about input handling, not strength.
def tiny_budget(setting):
    return Level(simulations=8)


FUZZ = settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


class FuzzTests(TestCase):
    @FUZZ
    @given(
        method=st.sampled_from(METHODS),
        path=st.sampled_from(FREE),
        body=bodies,
    )
    def test_no_500_on_collection_endpoints(self, method, path, body):
        client = APIClient()
        with mock.patch.object(ai, "_budget", tiny_budget):
            assert_no_server_error(send(client, method, path, body))

    @FUZZ
    @given(
        game=st.sampled_from(
            [("reversi", None), ("gomoku", {"size": 5, "row": 3}), ("loa", None)]
        ),
        players=st.sampled_from(["hh", "ha", "ah", "aa"]),
        steps=st.lists(
            st.tuples(st.sampled_from(METHODS), st.sampled_from(ENDPOINTS), bodies),
            min_size=1,
            max_size=5,
        ),
        wrong_id=st.booleans(),
    )
    def test_no_500_on_game_endpoints(self, game, players, steps, wrong_id):
        client = APIClient()
        side = {"h": {"kind": "human"}, "a": {"kind": "ai", "level": 1}}
        created = create(
            client,
            game[0],
            options=game[1],
            black=side[players[0]],
            white=side[players[1]],
        ).json()
        game_id = uuid.uuid4() if wrong_id else created["id"]
        with mock.patch.object(ai, "_budget", tiny_budget):
            for method, name, body in steps:
                path = (
                    f"/api/games/{game_id}/"
                    + {
                        "game-detail": "",
                        "game-moves": "moves/",
                        "game-ai-move": "ai-move/",
                        "game-hint": "hint/",
                        "game-undo": "undo/",
                        "game-record": "record/",
                    }[name]
                )
                assert_no_server_error(send(client, method, path, body))

    @FUZZ
    @given(text=st.text(max_size=30))
    def test_any_move_text_is_played_or_refused_with_400(self, text):
        client = APIClient()
        for name in ("reversi", "gomoku", "loa"):
            game_id = create(client, name).json()["id"]
            response = client.post(
                f"/api/games/{game_id}/moves/", {"move": text}, format="json"
            )
            assert_no_server_error(response)
            assert response.status_code in (200, 400)

    @FUZZ
    @given(
        record=st.text(alphabet="abcdefghx-12345678 ,.pas", max_size=60),
        name=st.sampled_from(["reversi", "gomoku", "loa"]),
    )
    def test_any_record_is_imported_or_refused_with_400(self, record, name):
        response = APIClient().post(
            "/api/games/import/", {"game": name, "record": record}, format="json"
        )
        assert_no_server_error(response)
        assert response.status_code in (201, 400)
        if response.status_code == 201:
            assert json.loads(response.content)["game"] == name

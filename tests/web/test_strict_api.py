"""The API accepts what its schema allows and refuses what it does not:
strict JSON types, PATCH with nothing to change, game ids in either case,
cross-site forms refused, a Content-Security-Policy, no build paths shown,
and every refusal of a body or of help between seats listed in the schema."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from .helpers import FAST_AI, HUMAN, assert_error, create, url

pytestmark = pytest.mark.django_db


def openapi(client) -> dict:
    """Return the served OpenAPI schema."""
    accept = "application/vnd.oai.openapi+json"
    return json.loads(client.get(reverse("api-schema"), HTTP_ACCEPT=accept).content)


@pytest.fixture
def client():
    return APIClient()


@pytest.fixture
def game(client):
    return create(client, black=FAST_AI, white=HUMAN).json()


def test_patch_with_nothing_to_change_returns_the_game(client, game):
    response = client.patch(url("game-detail", game["id"]), {}, format="json")
    assert response.status_code == 200
    assert response.json()["version"] == game["version"]


@pytest.mark.parametrize(
    ("player", "code"),
    [
        ({"kind": "ai", "model": 0}, "unknown_model"),
        ({"kind": "ai", "think_time": True}, "invalid_think_time"),
        ({"kind": "ai", "think_time": "2"}, "invalid_think_time"),
        ({"kind": "ai", "level": True}, "invalid_level"),
        ({"kind": "ai", "level": "2"}, "invalid_level"),
    ],
)
def test_values_of_the_wrong_json_type_are_refused(client, player, code):
    assert_error(create(client, white=player), 400, code)


def test_a_wrong_type_version_is_refused(client, game):
    response = client.post(
        url("game-undo", game["id"]), {"version": "0"}, format="json"
    )
    assert_error(response, 400, "invalid_version")


@pytest.mark.parametrize(
    "player",
    [
        {"kind": "human", "model": "light"},
        {"kind": "human", "level": 3},
        {"kind": "human", "think_time": 1.0},
    ],
)
def test_a_human_side_with_ai_settings_is_refused_not_trimmed(client, game, player):
    body = assert_error(create(client, black=player), 400, "invalid_players")
    assert "human" in body["detail"]
    response = client.patch(
        url("game-detail", game["id"]), {"players": {"white": player}}, format="json"
    )
    assert_error(response, 400, "invalid_players")


def test_an_uppercase_game_id_finds_the_game(client, game):
    response = client.get(
        url("game-detail", game["id"]).upper().replace("/API/GAMES/", "/api/games/")
    )
    assert response.status_code == 200
    assert response.json()["id"] == game["id"]


@pytest.mark.parametrize(
    "name", ["game-undo", "game-hint", "game-stop", "game-ai-move", "game-moves"]
)
@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "text/plain",
    ],
)
def test_a_cross_site_form_post_is_refused_before_it_acts(
    client, game, name, content_type
):
    response = client.generic(
        "POST", url(name, game["id"]), b"", content_type=content_type
    )
    assert_error(response, 415, "unsupported_media_type")
    stored = client.get(url("game-detail", game["id"])).json()
    assert stored["moves"] == [] and stored["version"] == game["version"]


@pytest.mark.parametrize("name", ["game-undo", "game-stop", "game-ai-move"])
def test_a_cross_site_bodiless_fetch_is_refused(client, game, name):
    response = client.generic(
        "POST", url(name, game["id"]), b"", HTTP_SEC_FETCH_SITE="cross-site"
    )
    assert_error(response, 415, "unsupported_media_type")
    stored = client.get(url("game-detail", game["id"])).json()
    assert stored["moves"] == [] and stored["version"] == game["version"]


def test_a_bodiless_post_from_a_script_is_taken_as_empty(client, game):
    response = client.generic(
        "POST", url("game-ai-move", game["id"]), b"", content_type=""
    )
    assert response.status_code == 200, response.content


def test_stop_and_undo_take_an_empty_json_post(client, game):
    response = client.generic(
        "POST", url("game-stop", game["id"]), b"", content_type="application/json"
    )
    assert response.status_code == 200 and response.json() == {"stopped": False}


def test_pages_and_api_carry_a_content_security_policy(client):
    for target in ("/", reverse("game-kinds"), reverse("api-docs")):
        policy = client.get(target)["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        assert (
            "script-src 'self'" in policy
            and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
        )
        assert "frame-ancestors 'none'" in policy


def test_the_docs_page_has_no_inline_script(client):
    page = client.get(reverse("api-docs")).content.decode()
    assert "<script>" not in page.replace(" ", "")
    assert 'src="' in page


def test_kinds_show_no_build_command_lines(client):
    kinds = client.get(reverse("game-kinds")).json()
    built = [m["built"] for kind in kinds for m in kind["models"] if m["built"]]
    assert built, "the shipped light models have build facts"
    assert all("command" not in facts for facts in built)
    assert all("selfplay_games" in facts for facts in built)


def body_operations(schema: dict):
    """Yield (method, path, operation) of each operation that takes a body."""
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method in ("post", "patch"):
                yield method, path, operation


def test_the_schema_closes_request_objects_and_requires_bodies(client):
    schema = openapi(client)
    requests = {
        name: component
        for name, component in schema["components"]["schemas"].items()
        if name.endswith("Request")
    }
    assert "CreateGameRequest" in requests and "PlayerRequest" in requests
    assert all(c["additionalProperties"] is False for c in requests.values())
    for _, _, operation in body_operations(schema):
        assert operation["requestBody"]["required"] is True


def test_the_docs_example_of_creating_a_game_is_accepted(client):
    schema = openapi(client)
    for path, name in (
        ("/api/games/", "game-create"),
        ("/api/games/import/", "game-import"),
    ):
        content = schema["paths"][path]["post"]["requestBody"]["content"]
        examples = content["application/json"]["examples"]
        assert examples
        for example in examples.values():
            response = client.post(reverse(name), example["value"], format="json")
            assert response.status_code == 201, response.content


def test_every_body_refused_for_its_size_or_type_is_in_the_schema(client, game):
    schema = openapi(client)
    operations = list(body_operations(schema))
    assert len(operations) >= 18
    big = json.dumps({"note": "x" * 70_000})
    for method, path, operation in operations:
        where = path.format(id=game["id"], game="reversi", name="light")
        send = getattr(client, method)
        for body, content_type, code in (
            (big, "application/json", 413),
            ("{}", "text/plain", 415),
        ):
            response = send(where, body, content_type=content_type)
            assert response.status_code == code, (method, path, response.content)
            assert str(code) in operation["responses"], (method, path, code)


def test_the_help_refused_between_two_seats_is_in_the_schema(client):
    schema = openapi(client)
    seated = client.post(
        reverse("game-create"),
        {"game": "gomoku", "friend": {"side": "black"}},
        format="json",
    ).json()
    game_id = seated["id"]
    for method, path, data in (
        ("post", "/api/games/{id}/hint/", {}),
        ("post", "/api/games/{id}/analysis/", {"ply": 0}),
        ("get", "/api/games/{id}/explorer/", {"ply": 0}),
    ):
        where = path.format(id=game_id)
        if method == "get":
            response = client.get(where, data)
        else:
            response = client.post(where, data, format="json")
        assert_error(response, 403, "no_help")
        assert "403" in schema["paths"][path][method]["responses"], path


def test_the_null_search_of_an_ai_swap2_opening_turn_is_in_the_schema(client):
    # The computer's Swap2 turn answers no search (it made several), and the
    # schema said the search was always an object: a page reading it threw.
    body = {
        "game": "gomoku",
        "opening": "swap2",
        "players": {"black": FAST_AI, "white": HUMAN},
    }
    made = client.post(reverse("game-create"), body, format="json").json()
    answer = client.post(url("game-ai-move", made["id"]), {}, format="json")
    assert answer.status_code == 200 and answer.json()["search"] is None
    search = openapi(client)["components"]["schemas"]["GameAndSearch"]
    assert search["properties"]["search"].get("nullable") is True

"""The contract says what it does (issue 67, finding 5): bodies strictly
typed or refused when an endpoint takes none, messages that match their
rules, one model-name pattern everywhere."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from .helpers import assert_error, create, url


@pytest.fixture
def client():
    return APIClient()


@pytest.mark.django_db
@pytest.mark.parametrize("ply", ["361", "1", 1.0, True, None])
def test_an_analysis_ply_must_be_a_json_integer(client, ply):
    game_id = create(client, "reversi").json()["id"]
    client.post(url("game-moves", game_id), {"move": "f5"}, format="json")
    response = client.post(url("game-analysis", game_id), {"ply": ply}, format="json")
    body = assert_error(response, 400, "invalid_ply")
    assert "ply" in body["detail"]


@pytest.mark.django_db
def test_an_analysis_of_an_integer_ply_is_answered(client):
    game_id = create(client, "reversi").json()["id"]
    response = client.post(url("game-analysis", game_id), {"ply": 0}, format="json")
    assert response.status_code == 200, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "content_type"),
    [('{"path": "../../etc"}', "application/json"), ("{", "application/json")],
)
def test_prepare_takes_no_body(client, body, content_type):
    path = reverse("model-prepare", kwargs={"game": "reversi", "name": "light"})
    response = client.generic("POST", path, body, content_type=content_type)
    assert response.status_code == 400, response.content
    assert response.json()["error"] in ("invalid_request", "parse_error")


@pytest.mark.django_db
def test_prepare_without_a_body_is_accepted(client):
    path = reverse("model-prepare", kwargs={"game": "reversi", "name": "light"})
    assert client.post(path).status_code == 202
    assert client.post(path, {}, format="json").status_code == 202


@pytest.mark.django_db
def test_the_explorer_does_not_offer_no_model(client):
    game_id = create(client, "reversi").json()["id"]
    response = client.get(url("game-explorer", game_id), {"ply": 0, "model": "none"})
    assert response.status_code in (400, 404), response.content
    detail = response.json()["detail"]
    assert "no model" not in detail and "models: full, light" in detail


@pytest.mark.django_db
def test_a_model_name_with_a_dot_is_one_name_everywhere(client):
    game_id = create(client, "reversi").json()["id"]
    explored = client.get(
        url("game-explorer", game_id), {"ply": 0, "model": "light.v2"}
    )
    status = client.get(
        reverse("model-status", kwargs={"game": "reversi", "name": "light.v2"})
    )
    # Both read it as a model name (unknown here), neither as a malformed one.
    assert explored.json()["error"] == status.json()["error"] == "unknown_model"

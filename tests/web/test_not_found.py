"""A mistyped address (issue 65): a browser gets a page, a client of the API
(and any client that does not ask for HTML) gets the API's JSON."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
BROWSER = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_a_browser_gets_a_page_with_the_way_home():
    answer = Client().get("/nope", **BROWSER)
    assert answer.status_code == 404
    assert answer["Content-Type"].startswith("text/html")
    page = answer.content.decode()
    assert "There is no page here" in page and 'href="/"' in page
    assert "/nope" in page and "{" not in page.split("<body>")[1].split("<code>")[0]


def test_the_api_and_other_clients_get_json():
    for path, headers in (("/api/nope/", BROWSER), ("/nope", {})):
        answer = Client().get(path, **headers)
        assert answer.status_code == 404
        assert answer["Content-Type"] == "application/json"
        assert answer.json()["error"] == "not_found"


@pytest.mark.parametrize("method", ["get", "head", "options", "post", "delete"])
def test_no_api_endpoint_is_a_404_whatever_the_method(method):
    # OPTIONS answered 200 with the metadata of the view that says 404.
    answer = getattr(Client(), method)(
        "/api/games/not-a-game/", content_type="application/json"
    )
    assert answer.status_code == 404

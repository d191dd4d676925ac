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


def test_a_browser_at_a_host_not_allowed_gets_a_page_that_says_why():
    """Operator QA: the site opened by a name not in ALLOWED_HOSTS (the
    machine's address on the network) showed the API's JSON, "check the
    Host header", to a player; its operator learns what to change."""
    answer = Client().get("/", HTTP_HOST="games.example", **BROWSER)
    assert answer.status_code == 400
    assert answer["Content-Type"].startswith("text/html")
    page = answer.content.decode()
    assert "This server does not answer to games.example" in page
    assert "ALLOWED_HOSTS" in page
    chinese = Client().get(
        "/nope", HTTP_HOST="games.example", HTTP_ACCEPT_LANGUAGE="zh-CN", **BROWSER
    )
    assert chinese.status_code == 400 and "games.example" in chinese.content.decode()
    assert "服务器" in chinese.content.decode()
    # Other clients, and the API, still get its JSON.
    for path, headers in (("/api/games/", BROWSER), ("/", {})):
        refused = Client().get(path, HTTP_HOST="games.example", **headers)
        assert refused.status_code == 400
        assert refused.json()["error"] == "bad_request"
    # A name that is not one is not echoed into the page.
    odd = Client().get("/", HTTP_HOST="<b>x</b>", **BROWSER).content.decode()
    assert "<b>x</b>" not in odd

"""Bodies no parser should choke on, and 5xx responses that reach the log."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from webgame import services
from webgame.errors import Busy, api_style
from webgame.parsers import MAX_DEPTH, nesting_depth

from .helpers import assert_error, create, url

DEEP_LIST = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


@pytest.fixture
def client():
    return APIClient()


@pytest.mark.django_db
@pytest.mark.parametrize("body", [DEEP_LIST, DEEP_OBJECT])
def test_deeply_nested_json_is_a_400_everywhere(client, body):
    game_id = create(client).json()["id"]
    targets = [
        ("post", reverse("game-create")),
        ("post", reverse("game-import")),
        ("patch", url("game-detail", game_id)),
        ("post", url("game-moves", game_id)),
        ("post", url("game-ai-move", game_id)),
        ("post", url("game-hint", game_id)),
        ("post", url("game-undo", game_id)),
    ]
    for method, target in targets:
        response = getattr(client, method)(
            target, body, content_type="application/json"
        )
        body_out = assert_error(response, 400, "parse_error")
        assert str(MAX_DEPTH) in body_out["detail"]


@pytest.mark.django_db
def test_nesting_within_the_limit_is_parsed(client):
    body = '{"game": "reversi", "options": {}, "x": ' + "[" * 20 + "]" * 20 + "}"
    response = client.post(
        reverse("game-create"), body, content_type="application/json"
    )
    assert_error(response, 400, "invalid_request")  # the unknown field, not parsing


@pytest.mark.django_db
def test_a_field_named_twice_is_refused(client, settings):
    # The decoder kept the last: {"move": "d3", "move": "c4"} played c4.
    game = create(client).json()
    body = f'{{"move": "d3", "move": "c4", "version": {game["version"]}}}'
    response = client.post(
        url("game-moves", game["id"]), body, content_type="application/json"
    )
    out = assert_error(response, 400, "parse_error")
    assert '"move"' in out["detail"]
    assert client.get(url("game-detail", game["id"])).json()["ply"] == 0


@pytest.mark.django_db
def test_a_number_of_thousands_of_digits_is_refused_in_the_api_s_words(client):
    # QA: 5,000 digits were refused in words about Python's settings
    # ("use sys.set_int_max_str_digits() to increase the limit").
    game = create(client).json()
    for digits in (5000, 101):
        body = f'{{"move": "d3", "version": {"9" * digits}}}'
        response = client.post(
            url("game-moves", game["id"]), body, content_type="application/json"
        )
        out = assert_error(response, 400, "parse_error")
        assert out["detail"] == (
            "the body is not JSON this API reads: a number has more than 100 digits"
        )
    body = f'{{"move": "d3", "version": {"9" * 100}}}'  # read: not the version
    response = client.post(
        url("game-moves", game["id"]), body, content_type="application/json"
    )
    assert_error(response, 409, "conflict")
    assert client.get(url("game-detail", game["id"])).json()["ply"] == 0


def test_brackets_inside_strings_do_not_count():
    assert nesting_depth(b'{"a": "[[[[[[[[{{{{", "b": [1, [2]]}') == 3
    assert nesting_depth(b'"\\"[[["') == 0
    assert nesting_depth(b"") == 0


@pytest.mark.django_db
def test_a_server_error_is_logged_with_its_traceback(client, monkeypatch, caplog):
    def broken(game_id, **_kwargs):
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr(services, "get_game", broken)
    game_id = create(client).json()["id"]
    client.raise_request_exception = False
    response = client.get(url("game-detail", game_id))
    assert_error(response, 500, "server_error")
    record = next(r for r in caplog.records if r.name == "django.request")
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
    # ... and a handler of the settings' LOGGING writes it out, traceback and all
    # (pytest's own capturing handlers do not count).
    writers = [
        h
        for h in logging.getLogger().handlers
        if type(h) is logging.StreamHandler and record.levelno >= h.level
    ]
    assert writers and all(h.filter(record) for h in writers)
    text = writers[0].format(record)
    assert "Traceback (most recent call last)" in text
    assert "RuntimeError: the disk caught fire" in text


def _redis_down():
    import redis

    return redis.exceptions.ConnectionError("Error 111 connecting to redis:6379")


def _database_down():
    from django.db import OperationalError

    return OperationalError("connection to server at 127.0.0.1, port 1 failed")


@pytest.mark.parametrize(
    ("down", "said", "detail"),
    [
        # Operator QA: with the scale-out's Redis down, every new game was a
        # bare 500 (a ConnectionError's traceback) ...
        (_redis_down, "Error 111", "shared store (Redis)"),
        # ... and with PostgreSQL down, every request was a 500 with 80 lines
        # of traceback in the log.
        (_database_down, "port 1 failed", "database"),
    ],
)
@pytest.mark.django_db
def test_a_store_down_is_a_503_that_says_so_in_one_log_line(
    client, monkeypatch, caplog, down, said, detail
):
    def fails(game_id, **_kwargs):
        raise down()

    monkeypatch.setattr(services, "get_game", fails)
    game_id = create(client).json()["id"]
    client.raise_request_exception = False
    response = client.get(url("game-detail", game_id))
    assert detail in assert_error(response, 503, "unavailable")["detail"]
    assert response["Retry-After"] == "5"
    (record,) = _records(caplog, "webgame.error_responses")
    assert record.levelno == logging.ERROR and said in record.getMessage()
    assert record.exc_info is None


# ---- quiet logs (issue 67, finding 6): a refusal is one line, not a fault ----
def _records(caplog, name: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == name]


@pytest.mark.django_db
def test_a_request_for_another_host_is_one_warning_line(client, caplog):
    client.raise_request_exception = False
    response = client.get("/api/games/kinds/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    (record,) = _records(caplog, "django.security.DisallowedHost")
    assert record.levelno == logging.WARNING and record.exc_info is None


@pytest.mark.django_db
def test_a_busy_ai_is_one_warning_line(client, monkeypatch, caplog):
    def busy(game_id, **kwargs):
        raise Busy("every AI worker is taken", retry_after=3)

    monkeypatch.setattr(services, "ai_move", busy)
    game_id = create(client, black={"kind": "ai", "level": 1}).json()["id"]
    response = client.post(url("game-ai-move", game_id), {}, format="json")
    assert_error(response, 503, "busy")
    assert response["Retry-After"] == "3"
    (record,) = _records(caplog, "django.request")
    assert record.levelno == logging.WARNING and record.exc_info is None


@pytest.mark.django_db
def test_a_refusal_is_logged_with_its_code_and_client(client, caplog, settings):
    # The access log names the proxy and the status only: the operator
    # could not tell whom a 429 stopped, nor an illegal move from a bad seat.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    caplog.set_level(logging.INFO, logger="webgame")
    response = client.post(
        reverse("game-create"),
        {"game": "chess"},
        format="json",
        HTTP_X_FORWARDED_FOR="203.0.113.5",
    )
    assert_error(response, 400, "unknown_game")
    (record,) = _records(caplog, "webgame.clients")
    assert record.levelno == logging.INFO
    assert (
        record.getMessage()
        == "refused POST /api/games/ from 203.0.113.5: 400 unknown_game"
    )
    # Refused before the API (a chunked body here), the line is there too.
    client.generic(
        "POST",
        reverse("game-create"),
        b"{}",
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        HTTP_X_FORWARDED_FOR="203.0.113.5",
    )
    assert _records(caplog, "webgame.clients")[-1].getMessage() == (
        "refused POST /api/games/ from 203.0.113.5: 411 length_required"
    )
    # A path that decodes to a new line writes no line of its sender's.
    client.get("/api/x%0a2026-12-01 INFO webgame.clients: refused")
    written = _records(caplog, "webgame.clients")[-1].getMessage()
    assert "\n" not in written and "/api/x\\n2026-12-01" in written


# ---- chunked bodies (issue 67, finding 3): refused, never read as empty ----
@pytest.mark.django_db
def test_a_chunked_patch_is_refused_and_changes_nothing(client):
    game = create(client).json()
    body = b'{"players": {"white": {"kind": "ai", "level": 6}}}'
    response = client.generic(
        "PATCH",
        url("game-detail", game["id"]),
        body,
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert_error(response, 411, "length_required")
    after = client.get(url("game-detail", game["id"])).json()
    assert after["players"] == game["players"] and after["version"] == game["version"]


@pytest.mark.django_db
def test_a_chunked_ai_move_is_refused(client):
    game = create(client, black={"kind": "ai", "level": 1}).json()
    response = client.generic(
        "POST",
        url("game-ai-move", game["id"]),
        b'{"version": 0}',
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert_error(response, 411, "length_required")
    assert client.get(url("game-detail", game["id"])).json()["ply"] == 0


@pytest.mark.django_db
def test_the_transport_s_refusals_are_in_the_api_s_words(client, settings):
    # API walk: Django REST framework's own details were in another style
    # ('Method "DELETE" not allowed.', "Could not satisfy the request Accept
    # header.") from the API's ("no game has the id …": lower case, no full
    # stop, what is accepted).
    settings.AI_THROTTLE_RATE = "1/min"
    game = create(client).json()
    detail = url("game-detail", game["id"])
    refusals = {
        "method_not_allowed": client.delete(detail),
        "not_acceptable": client.get(detail, HTTP_ACCEPT="text/xml"),
        "unsupported_media_type": client.post(
            reverse("game-create"), "game=reversi", content_type="text/plain"
        ),
        "parse_error": client.post(
            reverse("game-create"), "{bad", content_type="application/json"
        ),
    }
    client.post(url("game-hint", game["id"]))
    refusals["throttled"] = client.post(url("game-hint", game["id"]))
    words = {code: response.json()["detail"] for code, response in refusals.items()}
    for code, text in words.items():
        assert refusals[code].json()["error"] == code
        assert text[0].islower() and not text.endswith("."), (code, text)
        assert '"' not in text and " - " not in text, (code, text)
        assert ": E" not in text, (code, text)  # the decoder's "Expecting …"
    assert "DELETE" in words["method_not_allowed"]
    assert "GET, PATCH" in words["method_not_allowed"]
    assert "application/json" in words["not_acceptable"]
    assert "text/plain" in words["unsupported_media_type"]
    seconds = refusals["throttled"]["Retry-After"]
    assert f"{seconds} s" in words["throttled"]


@pytest.mark.django_db
def test_a_field_s_refusal_is_in_the_api_s_style_in_each_language(client):
    # Verification walk: "game: This field is required." (capital, full
    # stop) beside the API's own "no game has the id …"; "该字段是必填项。".
    english = client.post(reverse("game-create"), {}, format="json")
    assert english.json()["detail"] == "game: this field is required"
    chinese = client.post(
        reverse("game-create"), {}, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert chinese.json()["detail"] == "game: 该字段是必填项"
    level = client.post(
        reverse("game-create"),
        {"game": "reversi", "players": {"white": {"kind": "ai", "level": "x"}}},
        format="json",
    ).json()["detail"]
    assert level[0].islower() and not level.endswith("."), level
    # Verification walk: "ply: A valid integer is required" (a one-letter
    # first word kept its capital); a name keeps its own.
    game = client.post(reverse("game-create"), {"game": "reversi"}, format="json")
    ply = client.post(
        reverse("game-play-from", args=[game.json()["id"]]), {"ply": "3"}, format="json"
    )
    assert ply.json()["detail"] == "ply: a valid integer is required"
    assert api_style("JSON parse error.") == "JSON parse error"

"""The QR code of a link (``POST /api/qr/``): the invitation, for a phone to
scan. Its rows are a QR code's: square, 21 + 4k modules a side, the three
finder patterns in their corners, and another text another code."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .helpers import assert_error

LINK = (
    "http://localhost:8000/?game=8d7a3c0e-6b0f-4f0e-9d2a-0a1b2c3d4e5f#invite="
    + ("Ab3_" * 11)[:43]
)
FINDER = ["1111111", "1000001", "1011101", "1011101", "1011101", "1000001", "1111111"]


def qr(body, client=None):
    return (client or APIClient()).post("/api/qr/", body, format="json")


def test_a_link_is_made_into_a_qr_code():
    answer = qr({"text": LINK})
    assert answer.status_code == 200, answer.content
    rows = answer.json()["rows"]
    n = len(rows)
    assert (n - 21) % 4 == 0 and n >= 21
    assert all(len(row) == n and set(row) <= {"0", "1"} for row in rows)
    # The finder patterns: top left, top right, bottom left (and no quiet zone).
    assert [row[:7] for row in rows[:7]] == FINDER
    assert [row[-7:] for row in rows[:7]] == FINDER
    assert [row[:7] for row in rows[-7:]] == FINDER
    # The timing pattern between the top finders alternates.
    assert rows[6][8:-8] == ("10" * n)[: n - 16]
    assert qr({"text": LINK + "x"}).json()["rows"] != rows


@pytest.mark.parametrize(
    "text", ["0" * 512, "0" * 300, "1" * 512, "é" * 512, "\U0001f600" * 128, "x"]
)
def test_any_text_within_the_limit_is_made_into_a_code(text):
    # The package's numeric mode failed on "0" * 300 (a server error,
    # found by schemathesis): every text is encoded as bytes.
    rows = qr({"text": text}).json()["rows"]
    assert [row[:7] for row in rows[:7]] == FINDER


@pytest.mark.parametrize(
    "body", [{}, {"text": 7}, {"text": "x" * 513}, {"text": "x", "size": 3}]
)
def test_a_body_not_as_documented_is_refused(body):
    assert_error(qr(body), 400, "invalid_request")


def test_the_link_is_never_read_from_the_url():
    # A GET would carry the invitation's secret in the URL (and the logs).
    assert qr({"text": LINK}).status_code == 200
    assert APIClient().get("/api/qr/", {"text": LINK}).status_code == 405


@pytest.mark.django_db
def test_codes_count_with_new_games_against_the_clients_rate(settings):
    # A code costs milliseconds of CPU: a client may not ask for them without
    # end. Each comes with a share, so they count with new games and seats.
    settings.GAME_CREATE_RATE = "2/min"  # the cache starts clean (conftest)
    one, two = APIClient(REMOTE_ADDR="10.0.0.1"), APIClient(REMOTE_ADDR="10.0.0.2")
    assert qr({"text": LINK}, one).status_code == 200
    assert (
        one.post("/api/games/", {"game": "reversi"}, format="json").status_code == 201
    )
    refused = qr({"text": LINK}, one)
    assert_error(refused, 429, "throttled")
    assert int(refused.headers["Retry-After"]) > 0
    assert qr({"text": LINK}, two).status_code == 200

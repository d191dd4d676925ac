"""The chat between the two players of a game with a friend, through the
API: only the seats read and write it, a line is one line of at most 140
characters or a preset, a fast writer waits, a game keeps its last 200
lines, and a line changes nothing in the game."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from webgame.models import ChatLine
from webgame.models import Game as GameRow
from webgame.services import chat

from .helpers import assert_error, create, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def say(client, game_id, body, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url("game-chat", game_id), body, format="json", **headers)


def read(client, game_id, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.get(url("game-chat", game_id), **headers)


def test_the_two_players_read_what_each_said(client, friends):
    game_id, black, white = friends
    version = client.get(url("game-detail", game_id)).json()["version"]
    said = say(client, game_id, {"text": "  hi\n\tthere  "}, black)
    assert said.status_code == 201, said.content
    line = said.json()
    assert line["mine"] is True and line["text"] == "hi there"
    assert line["preset"] is None and dt.datetime.fromisoformat(line["said"])
    assert say(client, game_id, {"preset": "good_luck"}, white).status_code == 201
    lines = read(client, game_id, white).json()["lines"]
    assert [(x["mine"], x["text"], x["preset"]) for x in lines] == [
        (False, "hi there", None),
        (True, "", "good_luck"),
    ]
    assert lines[0]["n"] < lines[1]["n"]
    assert [x["mine"] for x in read(client, game_id, black).json()["lines"]] == [
        True,
        False,
    ]
    # Said is not played: the game is as it was, for its watchers too.
    game = client.get(url("game-detail", game_id))
    assert game.json()["version"] == version and "hi there" not in game.content.decode()


def test_a_watcher_neither_reads_nor_writes_the_chat(client, friends):
    game_id, black, _ = friends
    say(client, game_id, {"text": "secret plan"}, black)
    assert_error(read(client, game_id), 403, "not_your_seat")
    assert_error(read(client, game_id, "x" * 43), 403, "not_your_seat")
    assert_error(say(client, game_id, {"text": "hello"}), 403, "not_your_seat")
    assert ChatLine.objects.count() == 1


def test_no_chat_in_a_game_without_seats_or_before_the_friend_came(client):
    alone = create(client, "reversi").json()
    assert_error(say(client, alone["id"], {"text": "hi"}), 400, "no_opponent")
    assert_error(read(client, alone["id"]), 400, "no_opponent")
    made = client.post(
        "/api/games/", {"game": "reversi", "friend": {"side": "white"}}, format="json"
    ).json()
    token = made["seat"]["token"]
    assert_error(say(client, made["id"], {"text": "hi"}, token), 409, "seat_open")
    assert read(client, made["id"], token).json() == {"lines": []}


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({}, 400, "empty_line"),
        ({"text": " \n\t "}, 400, "empty_line"),
        ({"text": "\u0007\u0008\u001b"}, 400, "empty_line"),
        ({"text": "hi", "preset": "hello"}, 400, "empty_line"),
        ({"text": "x" * 141}, 400, "invalid_request"),
        ({"text": "a\u0000b"}, 400, "invalid_request"),
        ({"text": 5}, 400, "invalid_request"),
        ({"preset": "insult"}, 400, "invalid_request"),
        ({"said": "hi"}, 400, "invalid_request"),
    ],
)
def test_a_line_not_as_documented_is_refused(client, friends, body, status, code):
    game_id, black, _ = friends
    assert_error(say(client, game_id, body, black), status, code)
    assert not ChatLine.objects.exists()


def test_a_line_of_140_characters_is_said_whole(client, friends):
    game_id, black, _ = friends
    text = "é" * 140
    assert say(client, game_id, {"text": text}, black).json()["text"] == text


@pytest.mark.parametrize(
    "text",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: joined
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # a rainbow flag
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
    ],
)
def test_a_joined_emoji_arrives_as_sent(client, friends, text):
    """Friends QA: the joiner between its parts was taken for a control
    character: four people arrived for a family."""
    game_id, black, _ = friends
    assert say(client, game_id, {"text": text}, black).json()["text"] == text


def test_text_that_turns_the_line_round_is_taken_out():
    """Right-to-left overrides and the like reorder what others read (a
    line could pose as one's friend's words): each is a space."""
    assert chat.one_line("ok\u202egg\u2066x\u2069") == "ok gg x"


def test_a_fast_writer_waits_a_moment(client, friends):
    game_id, black, white = friends
    for n in range(chat.FLOOD_LINES):
        assert say(client, game_id, {"text": f"line {n}"}, black).status_code == 201
    refused = say(client, game_id, {"text": "one more"}, black)
    assert_error(refused, 429, "too_fast")
    assert 1 <= int(refused["Retry-After"]) <= chat.FLOOD_SECONDS
    # The friend is not held back by it, and the wait ends.
    assert say(client, game_id, {"text": "calm down"}, white).status_code == 201
    ChatLine.objects.filter(text__startswith="line").update(
        said=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=chat.FLOOD_SECONDS + 1)
    )
    assert say(client, game_id, {"text": "one more"}, black).status_code == 201


def test_a_game_keeps_its_last_200_lines(client, friends):
    game_id, black, white = friends
    row = GameRow.objects.get(pk=game_id)
    author = row.seats["black"]
    ChatLine.objects.bulk_create(
        ChatLine(game=row, author=author, text=f"old {n}")
        for n in range(chat.KEPT_LINES)
    )
    # Another game's lines are not counted in this game's.
    other = client.post(
        "/api/games/", {"game": "gomoku", "friend": {"side": "black"}}, format="json"
    ).json()
    ChatLine.objects.create(game_id=other["id"], author="x", text="elsewhere")
    say(client, game_id, {"text": "new"}, white)
    lines = read(client, game_id, black).json()["lines"]
    assert len(lines) == chat.KEPT_LINES
    assert lines[0]["text"] == "old 1" and lines[-1]["text"] == "new"
    assert ChatLine.objects.filter(game_id=other["id"]).count() == 1


def test_a_line_stays_its_authors_when_a_swap_gives_them_the_other_colour(
    client, friends
):
    game_id, black, white = friends
    say(client, game_id, {"text": "I open"}, black)
    row = GameRow.objects.get(pk=game_id)
    row.seats = {"black": row.seats["white"], "white": row.seats["black"]}
    row.save()
    assert read(client, game_id, black).json()["lines"][0]["mine"] is True
    assert read(client, game_id, white).json()["lines"][0]["mine"] is False


def test_players_chat_after_the_game(client, friends):
    game_id, black, white = friends
    client.post(url("game-abort", game_id), {}, format="json", HTTP_X_SEAT_TOKEN=black)
    assert client.get(url("game-detail", game_id)).json()["status"] == "finished"
    assert say(client, game_id, {"preset": "good_game"}, white).status_code == 201


def test_an_expired_games_lines_go_with_it_and_only_games_are_counted(
    client, friends, settings
):
    game_id, black, white = friends
    for token in (black, white):
        say(client, game_id, {"preset": "hello"}, token)
    settings.GAME_EXPIRY_DAYS = 30
    GameRow.objects.filter(pk=game_id).update(
        updated=dt.datetime.now(dt.UTC) - dt.timedelta(days=31)
    )
    out = StringIO()
    call_command("expiregames", stdout=out)
    assert out.getvalue().startswith("deleted 1 game ")
    assert not ChatLine.objects.exists()

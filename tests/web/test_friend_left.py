"""A friend who left the game: once their seat has had no socket and no
request for ``LIVE_GONE_SECONDS``, the player who stayed may claim the win or
a draw (``POST /api/games/{id}/claim/``), as lichess lets a player force the
resignation or the draw of an opponent who left; never sooner, never against
a friend who is here."""

from __future__ import annotations

import time
import types
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse

from webgame.models import Game as GameRow
from webgame.services import presence

from .helpers import assert_error
from .test_friends import client, post  # noqa: F401  (a fixture, a helper)

pytestmark = pytest.mark.django_db


@pytest.fixture
def later(monkeypatch):
    """Move the presence's clock ``seconds`` on."""

    def move(seconds: float) -> None:
        now = time.time() + seconds
        monkeypatch.setattr(presence, "time", types.SimpleNamespace(time=lambda: now))

    return move


def claim(client, game_id, result, token):  # noqa: F811
    return post(client, "game-claim", game_id, {"result": result}, token=token)


def first_moves(client, game_id, black, white):  # noqa: F811
    """Each player makes a first move: a game is claimed only after them."""
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)


def test_a_friend_who_left_long_enough_loses_by_claim(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    presence.arrive(game_id, "white")
    presence.leave(game_id, "white")
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    later(29)
    refused = assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    # Not "your friend left": a page without a signal has not (presence QA).
    assert refused["detail"] == (
        "your friend has not been connected for 29 s: you may claim the game in 1 s"
    )
    assert GameRow.objects.get(pk=game_id).status == GameRow.Status.PLAYING
    later(31)
    over = claim(client, game_id, "win", black).json()
    assert over["status"] == "finished"
    assert over["result"] == {"winner": "black", "reason": "abandonment", "score": None}
    assert_error(claim(client, game_id, "win", black), 400, "game_over")


def test_a_draw_may_be_claimed_instead(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    presence.leave(game_id, "black")
    later(31)
    over = claim(client, game_id, "draw", white).json()
    assert over["result"] == {"winner": None, "reason": "abandonment", "score": None}


def test_a_game_without_a_clock_waits_longer_before_a_claim(client, later):  # noqa: F811
    """Network QA: a friend whose phone locked its screen for half a minute
    lost a game without a clock, where nobody is pressed for time."""
    made = client.post(
        "/api/games/", {"game": "gomoku", "friend": {"side": "black"}}, format="json"
    ).json()
    black = made["seat"]["token"]
    white = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    first_moves(client, made["id"], black, white["seat"]["token"])
    presence.arrive(made["id"], "white")
    presence.leave(made["id"], "white")
    assert presence.who_is_here(made["id"])["gone_after_untimed"] == 120
    later(31)
    refused = assert_error(
        claim(client, made["id"], "win", black), 409, "friend_not_gone"
    )
    assert refused["detail"].endswith("you may claim the game in 89 s")
    later(121)
    assert claim(client, made["id"], "win", black).json()["status"] == "finished"


def test_a_game_on_a_clock_waits_half_a_minute(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    presence.leave(game_id, "white")
    later(31)
    assert presence.who_is_here(game_id)["gone_after"] == 30
    assert claim(client, game_id, "win", black).json()["status"] == "finished"


def test_no_claim_while_the_friend_is_connected(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    presence.arrive(game_id, "white")
    later(3600)
    assert_error(claim(client, game_id, "win", black), 409, "friend_here")
    presence.leave(game_id, "white")
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")


def test_a_friend_who_plays_through_the_api_has_not_left(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    later(60)
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)  # no socket
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    later(95)
    assert claim(client, game_id, "win", black).status_code == 200


def test_a_friend_who_reads_the_game_with_their_token_has_not_left(
    client,  # noqa: F811
    friends,
    later,
):
    # White followed the game by GET with its token every 3 s and no socket,
    # and lost by black's claim (security QA).
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    later(60)
    url = reverse("game-detail", args=[game_id])
    assert client.get(url, HTTP_X_SEAT_TOKEN=white).status_code == 200
    later(80)
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    assert client.get(url, HTTP_X_SEAT_TOKEN="not a seat").status_code == 200
    later(95)  # a wrong token, or none, is only a watcher's
    assert claim(client, game_id, "win", black).status_code == 200


def test_the_wait_starts_at_the_friend_s_last_request(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    later(29)  # moved 29 s ago, their page never opened
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    later(31)
    assert claim(client, game_id, "win", black).status_code == 200


def test_a_friend_who_left_before_a_first_move_is_not_beaten_but_aborted(
    client,  # noqa: F811
    friends,
    later,
):
    """As on lichess: the claim's countdown ran past the first move's
    deadline, at which the game is aborted (QA: "You can claim victory in 7
    seconds" read as the game was aborted)."""
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    # Said first, whether the friend is here or gone for a while only (QA:
    # friend_here, then friend_not_gone, and too_early only 30 s on).
    presence.arrive(game_id, "white")
    assert_error(claim(client, game_id, "win", black), 409, "too_early")
    presence.leave(game_id, "white")
    assert_error(claim(client, game_id, "win", black), 409, "too_early")
    later(31)
    for result in ("win", "draw"):
        assert_error(claim(client, game_id, result, black), 409, "too_early")
    assert GameRow.objects.get(pk=game_id).status == GameRow.Status.PLAYING
    aborted = post(client, "game-abort", game_id, {}, token=black).json()
    assert aborted["result"]["reason"] == "aborted"


def test_after_a_restart_the_wait_starts_again(client, friends, later):  # noqa: F811
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    cache.clear()  # the server restarted: nothing is known of the friend
    later(31)
    assert_error(claim(client, game_id, "win", black), 409, "friend_not_gone")
    later(62)
    assert claim(client, game_id, "win", black).status_code == 200


def test_who_may_claim_and_when(client, later):  # noqa: F811
    later(3600)
    alone = client.post("/api/games/", {"game": "gomoku"}, format="json").json()
    assert_error(claim(client, alone["id"], "win", None), 400, "no_opponent")
    made = client.post(
        "/api/games/", {"game": "gomoku", "friend": {"side": "black"}}, format="json"
    ).json()
    token = made["seat"]["token"]
    assert_error(claim(client, made["id"], "win", token), 409, "seat_open")
    joined = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    later(7200)
    assert_error(claim(client, made["id"], "win", None), 403, "not_your_seat")
    assert_error(claim(client, made["id"], "resign", token), 400, "invalid_request")
    mail = client.post(
        "/api/games/",
        {"game": "gomoku", "friend": {"side": "white"}, "clock": {"days": 3}},
        format="json",
    ).json()
    post(client, "game-join", mail["id"], {"invite": mail["invite"]})
    later(10800)
    assert_error(
        claim(client, mail["id"], "win", mail["seat"]["token"]), 409, "correspondence"
    )
    assert joined["status"] == "playing"


def test_a_games_presence_outlives_many_other_games():
    """In one process the cache is its memory: the presence of a game (a
    claim rests on it) is not dropped when many other games come after it,
    as Django's default in-memory cache drops entries beyond 300."""
    first = uuid.uuid4()
    presence.arrive(first, "black")
    for _ in range(1000):
        presence.arrive(uuid.uuid4(), None)
    assert presence.who_is_here(first)["black"] is True
    assert presence.gone_for(first, "black") is None


def test_a_seat_that_follows_by_requests_is_here(client, friends, later, monkeypatch):  # noqa: F811
    """Verification QA: a page whose socket cannot connect follows its game
    by requests every 3 s; its friend saw it gone, and was offered a claim
    the server refused. A seat's requests keep it here for 10 s, and the
    sockets on the game are told (every 4 s at most)."""
    told = []
    monkeypatch.setattr(
        presence.live, "publish_presence", lambda g, who: told.append(who)
    )
    game_id, black, white = friends
    first_moves(client, game_id, black, white)
    cache.delete_many([f"live:{game_id}:{side}:told" for side in ("black", "white")])
    told.clear()
    presence.arrive(game_id, "black")  # black has a socket, white none
    client.get(reverse("game-detail", args=[game_id]), HTTP_X_SEAT_TOKEN=white)
    [who] = told
    assert who["white"] is True and who["polled"] == {"white": pytest.approx(0, abs=1)}
    assert "white" not in who["gone"]
    client.get(reverse("game-detail", args=[game_id]), HTTP_X_SEAT_TOKEN=white)
    assert len(told) == 1  # told again in 4 s, not at each request
    later(9)
    assert presence.who_is_here(game_id)["white"] is True
    later(11)
    who = presence.who_is_here(game_id)
    assert who["white"] is False and who["polled"] == {}
    assert who["gone"]["white"] == pytest.approx(11, abs=1)
    # The black seat's requests, with its socket, change nothing of this.
    client.get(reverse("game-detail", args=[game_id]), HTTP_X_SEAT_TOKEN=black)
    assert presence.who_is_here(game_id)["polled"] == {}

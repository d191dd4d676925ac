"""Playing a friend through the API: seats bound to secret tokens, the
invitation, 403 without the seat's token, resigning, aborting, draw offers,
takebacks, the clock, the loss on time and the time for a first move (issue
64)."""

from __future__ import annotations

import asyncio
import datetime as dt
import hmac
import json
import logging

import pytest
import redis
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from webgame import routing, services
from webgame.errors import ServiceError
from webgame.models import Game as GameRow
from webgame.services import ai as ai_service
from webgame.services import clocks, flag_due_games, make_up_for_restart, positions
from webgame.services.seats import digest

from .conftest import GOMOKU_3_2, friends_at_3_2
from .helpers import assert_error, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def post(client, name, game_id, body=None, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(url(name, game_id), body or {}, format="json", **headers)


def run_out(game_id, seconds: int = 181) -> None:
    """Turn the game's running clock back ``seconds``, its deadline with it:
    at 181, the side to move's 180 s of a 3+2 game ran out a second ago."""
    row = GameRow.objects.get(pk=game_id)
    row.clock = {**row.clock, "since": row.clock["since"] - seconds * 1000}
    row.deadline = timezone.now() - dt.timedelta(seconds=seconds - 180)
    row.save()


def test_tokens_are_256_bits_and_only_their_digests_are_stored(client):
    made = client.post(
        "/api/games/", {"game": "reversi", "friend": {"side": "random"}}, format="json"
    ).json()
    token, invite = made["seat"]["token"], made["invite"]
    assert len(token) == len(invite) == 43  # 32 bytes, URL-safe base64
    row = GameRow.objects.get(pk=made["id"])
    stored = json.dumps(
        [row.seats, row.invite, row.players, row.offers, row.clock, row.moves]
    )
    assert token not in stored and invite not in stored
    assert hmac.compare_digest(row.seats[made["seat"]["side"]], digest(token))
    # Nobody else's answer holds a token: the game as anyone reads it.
    seen = client.get(url("game-detail", made["id"])).content.decode()
    assert token not in seen and invite not in seen and digest(token) not in seen
    assert made["seats"] == {
        made["seat"]["side"]: True,
        "white" if made["seat"]["side"] == "black" else "black": False,
    }


def test_the_invitation_takes_the_open_seat_once(client, friends):
    game_id, black, white = friends
    again = GameRow.objects.get(pk=game_id)
    assert again.invite == ""
    assert_error(
        post(client, "game-join", game_id, {"invite": "x" * 43}), 409, "seat_taken"
    )


def test_a_wrong_invitation_is_refused(client):
    made = client.post(
        "/api/games/", {"game": "reversi", "friend": {"side": "black"}}, format="json"
    ).json()
    assert_error(
        post(client, "game-join", made["id"], {"invite": "y" * 43}), 403, "bad_invite"
    )
    assert GameRow.objects.get(pk=made["id"]).seats["white"] is None


@pytest.mark.parametrize(
    "players",
    [{"black": {"kind": "human"}, "white": {"kind": "human"}}, {}],
    ids=["two humans", "empty"],
)
def test_a_friend_game_given_players_says_to_leave_them_out(client, players):
    """Records walk: two human players sent with a friend were refused as if
    they were not: "a game with a friend has two human players". An empty
    ``players`` was taken, though the answer's players are not what it
    says."""
    refused = client.post(
        "/api/games/",
        {"game": "reversi", "friend": {"side": "black"}, "players": players},
        format="json",
    )
    detail = assert_error(refused, 400, "invalid_players")["detail"]
    assert detail == (
        "players: a game with a friend has two human players: leave out players"
    )


def test_moves_need_the_seat_of_the_side_to_move(client, friends):
    game_id, black, white = friends
    none = assert_error(
        post(client, "game-moves", game_id, {"move": "h8"}), 403, "not_your_seat"
    )
    assert "gave no seat's token" in none["detail"]
    wrong = assert_error(
        post(client, "game-moves", game_id, {"move": "h8"}, token="z" * 43),
        403,
        "not_your_seat",
    )
    assert "token (X-Seat-Token header) holds neither" in wrong["detail"]
    # The AI is asked for nothing between two seats: the advice is the seat's.
    human = assert_error(post(client, "game-ai-move", game_id), 400, "not_ai_turn")
    assert "that seat's token" in human["detail"] and "PATCH" not in human["detail"]
    assert_error(
        post(client, "game-moves", game_id, {"move": "h8"}, token=white),
        403,
        "not_your_turn",
    )
    assert GameRow.objects.get(pk=game_id).moves == []
    answer = post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    assert answer.status_code == 200 and answer.json()["moves"] == ["h8"]
    # What a spectator cannot do either: resign, offer, undo, change players.
    assert_error(post(client, "game-resign", game_id), 403, "not_your_seat")
    assert_error(
        post(client, "game-draw", game_id, {"action": "offer"}), 403, "not_your_seat"
    )
    assert_error(post(client, "game-undo", game_id), 400, "seated_game")
    assert_error(
        client.patch(
            url("game-detail", game_id),
            {"players": {"white": {"kind": "ai", "level": 1}}},
            format="json",
        ),
        400,
        "seated_game",
    )
    assert_error(post(client, "game-hint", game_id), 403, "no_help")


def test_a_draw_offer_is_accepted_or_declined_by_the_other_seat(client, friends):
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    offered = post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"draw": "black"}
    assert_error(
        post(client, "game-draw", game_id, {"action": "accept"}, token=black),
        409,
        "no_offer",
    )
    declined = post(client, "game-draw", game_id, {"action": "decline"}, token=white)
    assert declined.json()["offers"] == {} and declined.json()["status"] == "playing"
    post(client, "game-draw", game_id, {"action": "offer"}, token=white)
    agreed = post(
        client, "game-draw", game_id, {"action": "accept"}, token=black
    ).json()
    assert agreed["status"] == "finished"
    assert agreed["result"] == {"winner": None, "reason": "agreement", "score": None}
    assert agreed["clock"]["running"] is None


def test_a_draw_offered_before_ones_move_waits_for_the_friends_answer(client, friends):
    """As on lichess: a player offers a draw and then moves; the offer stays
    for the friend to answer (friends QA: it was dropped by the offerer's
    own move, shown on the friend's board for under a second). The friend's
    move declines it."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    moved = post(client, "game-moves", game_id, {"move": "j8"}, token=black)
    assert moved.json()["offers"] == {"draw": "black"}
    # White's move declines it, as does a takeback asked and answered.
    moved = post(client, "game-moves", game_id, {"move": "j9"}, token=white)
    assert moved.json()["offers"] == {}


def test_a_takeback_returns_the_move_to_its_asker(client, friends):
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white), ("j8", black)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    # White asks after Black replied: White's move and Black's reply go.
    post(client, "game-takeback", game_id, {"action": "offer"}, token=white)
    back = post(client, "game-takeback", game_id, {"action": "accept"}, token=black)
    assert back.json()["moves"] == ["h8"] and back.json()["to_move"] == "white"
    # A move answers a pending offer (it is dropped).
    post(client, "game-takeback", game_id, {"action": "offer"}, token=black)
    moved = post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    assert moved.json()["offers"] == {}


def play_apart(client, game_id, tokens, plies):
    """Play ``plies`` Gomoku moves, alternately, on points two apart each way
    (no two stones touch, so nobody wins); return the last snapshot."""
    for _ in range(plies):
        game = client.get(url("game-detail", game_id)).json()
        files, side = game["board"]["files"], game["to_move"]
        move = next(
            m
            for m in game["legal_moves"]
            if files.index(m[0]) % 2 == 0 and int(m[1:]) % 2 == 1
        )
        answer = post(client, "game-moves", game_id, {"move": move}, token=tokens[side])
        assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_player_offers_a_draw_again_only_twenty_moves_after_the_last(client, friends):
    """lichess's spacing of draw offers: an offer at ply p refuses the same
    player's next until ply p + 21; the friend's own offers are not held."""
    game_id, black, white = friends
    tokens = {"black": black, "white": white}
    play_apart(client, game_id, tokens, 2)
    post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    declined = post(client, "game-draw", game_id, {"action": "decline"}, token=white)
    assert declined.json()["waits"] == {"draw": {"black": {"moves": 21}}}
    version = declined.json()["version"]
    refused = assert_error(
        post(client, "game-draw", game_id, {"action": "offer"}, token=black),
        409,
        "offered_recently",
    )
    assert refused["detail"].endswith("again in 21 moves")
    assert client.get(url("game-detail", game_id)).json()["version"] == version
    # White offers at once; asking twice is asking once.
    post(client, "game-draw", game_id, {"action": "offer"}, token=white)
    same = post(client, "game-draw", game_id, {"action": "offer"}, token=white)
    assert same.json()["version"] == version + 1
    assert same.json()["offers"] == {"draw": "white"}
    post(client, "game-draw", game_id, {"action": "decline"}, token=black)
    at_22 = play_apart(client, game_id, tokens, 20)
    assert at_22["ply"] == 22 and at_22["waits"]["draw"]["black"] == {"moves": 1}
    assert_error(
        post(client, "game-draw", game_id, {"action": "offer"}, token=black),
        409,
        "offered_recently",
    )
    at_23 = play_apart(client, game_id, tokens, 1)
    assert at_23["waits"] == {}  # White offered at ply 2 too
    offered = post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"draw": "black"}


def wait_over(game_id, offer, side):
    """Move ``side``'s wait to ask ``offer`` again into the past."""
    row = GameRow.objects.get(pk=game_id)
    row.asked[offer][side]["until"] = clocks.now_ms() - 1
    row.save()


def test_a_declined_takeback_waits_longer_each_time(client, friends):
    """lichess's spacing of takeback requests: 10 s after a first refusal,
    40 s after a second in a row; an accepted one starts the count again.
    Each player counts their own."""
    game_id, black, white = friends
    play_apart(client, game_id, {"black": black, "white": white}, 3)
    for declines, seconds in ((1, 10), (2, 40)):
        post(client, "game-takeback", game_id, {"action": "offer"}, token=white)
        declined = post(
            client, "game-takeback", game_id, {"action": "decline"}, token=black
        ).json()
        assert (
            seconds - 1 < declined["waits"]["takeback"]["white"]["seconds"] <= seconds
        )
        refused = assert_error(
            post(client, "game-takeback", game_id, {"action": "offer"}, token=white),
            409,
            "declined_recently",
        )
        assert refused["detail"].endswith(f"ask again in {seconds} s")
        assert (
            GameRow.objects.get(pk=game_id).asked["takeback"]["white"]["declined"]
            == declines
        )
        wait_over(game_id, "takeback", "white")
    # Black's requests do not wait for White's.
    post(client, "game-takeback", game_id, {"action": "offer"}, token=black)
    post(client, "game-takeback", game_id, {"action": "decline"}, token=white)
    wait_over(game_id, "takeback", "black")
    post(client, "game-takeback", game_id, {"action": "offer"}, token=white)
    back = post(client, "game-takeback", game_id, {"action": "accept"}, token=black)
    assert back.json()["ply"] == 1 and back.json()["waits"] == {}
    play_apart(client, game_id, {"black": black, "white": white}, 1)
    post(client, "game-takeback", game_id, {"action": "offer"}, token=white)
    again = post(client, "game-takeback", game_id, {"action": "decline"}, token=black)
    assert 9 < again.json()["waits"]["takeback"]["white"]["seconds"] <= 10


def test_a_declined_rematch_is_offered_again_a_minute_later(client, friends):
    game_id, black, white = friends
    post(client, "game-abort", game_id, token=white)
    post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    declined = post(client, "game-rematch", game_id, {"action": "decline"}, token=white)
    assert 59 < declined.json()["waits"]["rematch"]["black"]["seconds"] <= 60
    assert_error(
        post(client, "game-rematch", game_id, {"action": "offer"}, token=black),
        409,
        "declined_recently",
    )
    wait_over(game_id, "rematch", "black")
    offered = post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"rematch": "black"}
    assert offered.json()["waits"] == {}


def test_a_player_withdraws_their_own_offer(client, friends):
    """As on lichess: a rematch (or a draw, or a takeback) asked for can be
    taken back while it waits; the friend's cannot, nor one never made."""
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    for token in (white, None):
        refused = post(
            client, "game-draw", game_id, {"action": "withdraw"}, token=token
        )
        assert refused.status_code in (403, 409)
    withdrawn = post(client, "game-draw", game_id, {"action": "withdraw"}, token=black)
    assert withdrawn.json()["offers"] == {} and withdrawn.json()["status"] == "playing"
    assert_error(
        post(client, "game-draw", game_id, {"action": "withdraw"}, token=black),
        409,
        "no_offer",
    )
    post(client, "game-resign", game_id, token=white)
    post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    assert_error(
        post(client, "game-rematch", game_id, {"action": "withdraw"}, token=white),
        409,
        "no_offer",
    )
    back = post(client, "game-rematch", game_id, {"action": "withdraw"}, token=black)
    assert back.json()["offers"] == {} and back.json()["rematch"] is None
    # Nothing declined it: offered again at once.
    again = post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    assert again.json()["offers"] == {"rematch": "black"}


def test_nothing_is_offered_to_a_seat_nobody_took(client):
    """Before the friend opens the invitation there is nobody to answer an
    offer or to win by a resignation: the friend's first sight was a draw
    offer at move 0, and a resignation gave the game to an empty seat (an
    abort withdraws the invitation: the test below)."""
    made = client.post(
        "/api/games/", {**GOMOKU_3_2, "friend": {"side": "black"}}, format="json"
    ).json()
    game_id, black = made["id"], made["seat"]["token"]
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    before = client.get(url("game-detail", game_id)).json()
    for name in ("game-draw", "game-takeback"):
        refused = assert_error(
            post(client, name, game_id, {"action": "offer"}, token=black),
            409,
            "seat_open",
        )
        assert refused["detail"] == "your friend has not joined this game yet"
    assert_error(post(client, "game-resign", game_id, token=black), 409, "seat_open")
    assert client.get(url("game-detail", game_id)).json() == before
    # Once the friend is here and has moved, all three are theirs to answer.
    joined = post(client, "game-join", game_id, {"invite": made["invite"]}).json()
    post(client, "game-moves", game_id, {"move": "h9"}, token=joined["seat"]["token"])
    offered = post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"draw": "black"}


def test_an_abort_before_the_friend_came_withdraws_the_invitation(client):
    made = client.post(
        "/api/games/", {**GOMOKU_3_2, "friend": {"side": "black"}}, format="json"
    ).json()
    game_id, black = made["id"], made["seat"]["token"]
    assert_error(post(client, "game-abort", game_id), 403, "not_your_seat")
    over = post(client, "game-abort", game_id, token=black).json()
    assert over["status"] == "finished"
    assert over["result"] == {
        "winner": None,
        "reason": "aborted",
        "score": None,
        "aborted_by": "black",
    }
    # The invitation seats nobody in the ended game; a wrong one is still 403.
    assert_error(
        post(client, "game-join", game_id, {"invite": "x" * 43}), 403, "bad_invite"
    )
    refused = assert_error(
        post(client, "game-join", game_id, {"invite": made["invite"]}),
        400,
        "game_over",
    )
    assert refused["detail"] == "this game ended before you joined: you can watch it"
    # A move after it: no draw, and no rematch to offer (API QA: "the game is
    # over (a draw: aborted); offer a rematch", which answered 409 seat_open).
    late = post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    assert assert_error(late, 400, "game_over")["detail"] == (
        "the game is over (aborted: nobody won or lost); start a new game"
    )
    # Nobody to ask for a rematch either.
    assert_error(
        post(client, "game-rematch", game_id, {"action": "offer"}, token=black),
        409,
        "seat_open",
    )
    assert client.get(url("game-detail", game_id)).json()["seats"] == {
        "black": True,
        "white": False,
    }


def test_resigning_loses_for_the_token_seat(client, friends):
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    post(client, "game-moves", game_id, {"move": "j8"}, token=black)
    over = post(client, "game-resign", game_id, token=white).json()
    assert over["result"] == {"winner": "black", "reason": "resignation", "score": None}
    over = assert_error(
        post(client, "game-moves", game_id, {"move": "h10"}, token=white),
        400,
        "game_over",
    )
    # No move is taken back between two seats: the advice is a rematch.
    assert "offer a rematch" in over["detail"] and "undo" not in over["detail"]
    empty = assert_error(
        post(client, "game-resign", game_id, {"reason": "bored"}, token=white),
        400,
        "invalid_request",
    )
    assert "send an empty object {}" in empty["detail"]


def test_the_clock_runs_after_both_first_moves_and_adds_the_increment(client, friends):
    game_id, black, white = friends
    first = post(client, "game-moves", game_id, {"move": "h8"}, token=black).json()
    assert first["clock"]["running"] is None  # no clock before each side moved
    second = post(client, "game-moves", game_id, {"move": "h9"}, token=white).json()
    assert second["clock"]["running"] == "black"
    row = GameRow.objects.get(pk=game_id)
    # Black thought 10 s (the clock started 10 s ago): 180 - 10 + 2.
    row.clock = {**row.clock, "since": row.clock["since"] - 10_000}
    row.save()
    third = post(client, "game-moves", game_id, {"move": "j8"}, token=black).json()
    assert 171.9 <= third["clock"]["black"] <= 172.0
    assert third["clock"]["running"] == "white"


def test_an_undo_takes_back_the_increments_its_moves_earned(client, monkeypatch):
    """Blitz QA: against the computer at 3+2, a move and an undo, again and
    again, gave the player 2 s each time (3:01 to 3:12, the clock running).
    A move taken back takes back its increment; the time used stays used."""
    now = [1_800_000_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    monkeypatch.setattr(positions, "now_ms", lambda: now[0])
    made = client.post(
        "/api/games/",
        {"game": "gomoku", "clock": {"initial": 180, "increment": 2}},
        format="json",
    ).json()

    def play(move: str, seconds: float) -> dict:
        now[0] += int(seconds * 1000)
        answer = post(client, "game-moves", made["id"], {"move": move})
        assert answer.status_code == 200, answer.content
        return answer.json()["clock"]

    play("h8", 5)  # no clock runs before each side's first move
    play("h9", 5)
    play("j8", 3)  # 180 - 3 + 2
    clock = play("j9", 1)  # 180 - 1 + 2
    assert (clock["black"], clock["white"]) == (179, 181)
    now[0] += 4000
    undone = post(client, "game-undo", made["id"]).json()["clock"]
    # White's j9 taken back, and its 2 s: white moves again, black's clock
    # as it was, its 4 s used since the move charged.
    assert (undone["black"], undone["white"], undone["running"]) == (175, 179, "white")
    # Black's j8 takes back its 2 s; h9 and h8, played before the clocks
    # ran, earned nothing and take back nothing.
    for _ in range(3):
        undone = post(client, "game-undo", made["id"]).json()["clock"]
    assert (undone["black"], undone["white"]) == (173, 179)


def test_a_side_out_of_time_loses_when_the_watcher_looks(client, friends):
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    assert flag_due_games() == 0
    run_out(game_id)
    assert flag_due_games() == 1
    over = client.get(url("game-detail", game_id)).json()
    assert over["result"] == {"winner": "white", "reason": "time", "score": None}
    assert over["clock"]["black"] == 0 and over["clock"]["running"] is None
    assert flag_due_games() == 0


def test_a_move_after_the_flag_fell_is_refused_even_before_the_watcher(client, friends):
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    row = GameRow.objects.get(pk=game_id)
    row.clock = {**row.clock, "since": row.clock["since"] - 181_000}
    row.save()
    late = post(client, "game-moves", game_id, {"move": "j8"}, token=black)
    assert_error(late, 400, "game_over")
    assert GameRow.objects.get(pk=game_id).result["reason"] == "time"


def test_a_player_gives_the_friend_fifteen_seconds(client, friends):
    """lichess's "moretime": 15 s on the friend's clock, whenever asked once
    each player has moved, the running clock's deadline with it; counted in
    clock.given. Before, a first move's own countdown decides (QA: "Your
    friend gave you 15 seconds" while that countdown went on)."""
    game_id, black, white = friends
    assert_error(post(client, "game-give-time", game_id), 403, "not_your_seat")
    early = post(client, "game-give-time", game_id, token=black)
    assert_error(early, 409, "too_early")
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    gift = post(client, "game-give-time", game_id, token=black).json()
    assert gift["clock"]["white"] == 195 and 179 < gift["clock"]["black"] <= 180
    assert gift["clock"]["given"] == {"white": 15}
    deadline = GameRow.objects.get(pk=game_id).deadline  # Black's clock runs
    gift = post(client, "game-give-time", game_id, token=white).json()
    assert gift["clock"]["given"] == {"white": 15, "black": 15}
    assert 194 < gift["clock"]["black"] <= 195  # 180 + 15, less a moment
    moved = GameRow.objects.get(pk=game_id).deadline - deadline
    assert moved == dt.timedelta(seconds=15)
    # A Swap2 choice that swaps the seats swaps what each was given.
    row = GameRow.objects.get(pk=game_id)
    assert clocks.swapped(row.clock)["given"] == {"black": 15, "white": 15}
    assert clocks.swapped({**row.clock, "given": {"white": 30}})["given"] == {
        "black": 30,
        "white": 0,
    }
    # Not past the longest clock (3 hours).
    row.clock = {**row.clock, "white": 3 * 3600 * 1000 - 10_000}
    row.save()
    assert_error(
        post(client, "game-give-time", game_id, token=black), 409, "clock_full"
    )
    post(client, "game-resign", game_id, token=black)
    assert_error(post(client, "game-give-time", game_id, token=white), 400, "game_over")


def test_a_restart_gives_the_running_clocks_time_as_lichess_does(client, friends):
    """As lichess's deploys: as the server stops, 20 s to the side to move
    and 10 s to the other; as it starts, 20 s to each (not counted as a
    friend's gift), the deadline with them, each once a minute."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    before = GameRow.objects.get(pk=game_id)  # Black's clock runs
    assert make_up_for_restart("stop") == 1
    assert make_up_for_restart("stop") == 0  # another web process's stop
    row = GameRow.objects.get(pk=game_id)
    assert row.version == before.version + 1
    assert row.clock["black"] == before.clock["black"] + 20_000
    assert row.clock["white"] == before.clock["white"] + 10_000
    assert row.clock["since"] == before.clock["since"]
    assert row.deadline - before.deadline == dt.timedelta(seconds=20)
    assert make_up_for_restart("start") == 1
    shown = client.get(url("game-detail", game_id)).json()["clock"]
    assert 219 < shown["black"] <= 220 and shown["white"] == 210
    assert shown["running"] == "black" and shown["given"] == {}
    assert shown["restarts"] == 2  # the page says why the clocks grew


def test_a_restart_longer_than_its_time_costs_the_side_to_move_nothing(client, friends):
    """QA: restarts of make run took 44 to 51 s (a first compile, a slow
    install), more than the 40 s given: the side to move lost the rest of
    its time while nobody could move, and a player with little left lost
    on time. As it starts, the side to move is given the time the server
    was down, if that is more than 20 s (after a stop it saw)."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    assert make_up_for_restart("stop") == 1
    row = GameRow.objects.get(pk=game_id)
    left = clocks.left_ms(row.clock, "black", "black", clocks.now_ms())
    # The server is down for 60 s.
    row.clock = {
        **row.clock,
        "since": row.clock["since"] - 60_000,
        "stopped": row.clock["stopped"] - 60_000,
    }
    row.save()
    assert make_up_for_restart("start") == 1
    shown = client.get(url("game-detail", game_id)).json()["clock"]
    # As much as at the stop (read a few ms after it), not 20 s less.
    assert abs(shown["black"] - left / 1000) < 0.5
    assert shown["white"] == 210  # 10 s and 20 s, as always
    assert "stopped" not in GameRow.objects.get(pk=game_id).clock


def test_a_crash_costs_the_side_to_move_nothing(client, friends):
    """Operator QA: a server killed (no stop to note its time) gave the side
    to move 20 s whatever the time it was down, so a crash of minutes lost
    a game on time. Its start gives the time since a web process was last
    seen alive: the flag watcher notes it every few seconds (a beat)."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    row = GameRow.objects.get(pk=game_id)
    at = clocks.now_ms()
    left = clocks.left_ms(row.clock, "black", "black", at)
    # The server died at ``at`` and was down for 150 s (Black had 180 s).
    row.clock = {**row.clock, "since": row.clock["since"] - 150_000}
    row.save()
    services.beat(at - 150_000)
    assert make_up_for_restart("start") == 1
    shown = client.get(url("game-detail", game_id)).json()["clock"]
    assert abs(shown["black"] - left / 1000) < 0.5
    assert shown["white"] == 200  # 20 s as the server starts, as always
    # A start whose last beat is fresh (another web process serves on) gives
    # the usual 20 s.
    services.beat(clocks.now_ms())
    cache.clear()  # the next minute
    before = GameRow.objects.get(pk=game_id).clock["black"]
    assert make_up_for_restart("start") == 1
    assert GameRow.objects.get(pk=game_id).clock["black"] == before + 20_000


def test_a_move_after_a_stop_ends_what_the_start_would_make_up():
    """With two web processes one may stop while the other serves moves:
    its start then gives the usual 20 s, not the time since its stop."""
    clock = {**clocks.new_clock({"initial": 180, "increment": 2}), "since": 0}
    stopped = clocks.restarted(clock, "black", "stop", at=1_000)
    moved = clocks.after_change(
        stopped, before="black", after="white", moved=True, runs=True, at=5_000
    )
    assert "stopped" not in moved
    started = clocks.restarted(moved, "white", "start", at=600_000)
    assert started["white"] == moved["white"] + 20_000


def test_a_restart_within_its_time_flags_nobody(client, friends):
    """Black's time ran out ten seconds ago, while the server was down: as
    it starts, before its flag watcher, Black is given time to move."""
    game_id, black, white = friends
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", game_id, {"move": move}, token=token)
    run_out(game_id, 190)
    assert make_up_for_restart("start") == 1
    assert flag_due_games() == 0
    played = post(client, "game-moves", game_id, {"move": "j8"}, token=black)
    assert played.status_code == 200, played.content
    assert played.json()["status"] == "playing"


def test_a_restart_gives_no_time_where_no_fischer_clock_runs(client):
    """Days a move, no clock, a game over: nothing is written."""
    days = client.post(
        "/api/games/",
        {"game": "gomoku", "clock": {"days": 3}, "friend": {"side": "black"}},
        format="json",
    ).json()
    joined = post(client, "game-join", days["id"], {"invite": days["invite"]}).json()
    for move, token in (("h8", days["seat"]["token"]), ("h9", joined["seat"]["token"])):
        post(client, "game-moves", days["id"], {"move": move}, token=token)
    assert GameRow.objects.get(pk=days["id"]).clock["since"] is not None  # runs
    client.post("/api/games/", {"game": "gomoku"}, format="json")
    over = client.post("/api/games/", GOMOKU_3_2, format="json").json()
    for move in ("h8", "h9", "j8"):
        client.post(url("game-moves", over["id"]), {"move": move}, format="json")
    run_out(over["id"])
    assert flag_due_games() == 1  # lost on time
    versions = {row.pk: row.version for row in GameRow.objects.all()}
    assert len(versions) == 3
    assert make_up_for_restart("start") == 0
    assert {row.pk: row.version for row in GameRow.objects.all()} == versions


def test_a_restart_gives_a_first_move_its_whole_time_again(client, friends):
    """QA: the whole time the server was down came off a first move's 20 s,
    and the games still in their first moves were aborted after a restart
    (3+2: 25 s)."""
    game_id, black, white = friends  # nobody has moved: a first move awaited
    row = GameRow.objects.get(pk=game_id)
    row.deadline = timezone.now() + dt.timedelta(seconds=2)  # nearly gone
    row.save()
    assert make_up_for_restart("start") == 1
    shown = client.get(url("game-detail", game_id)).json()["clock"]
    assert 24 < shown["first_move"] <= 25 and shown["restarts"] == 1
    assert shown["running"] is None and shown["black"] == 180
    assert flag_due_games() == 0
    moved = post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    assert moved.status_code == 200, moved.content


def test_the_server_gives_a_restarts_time_as_it_starts_and_as_it_stops(monkeypatch):
    """The ASGI lifespan: before it says it has started (before the flag
    watcher and any request), and before it says it has stopped; then the
    live models are saved, and the warm-up's status removed (given as
    ``at_stop``: QA, a SIGTERM's stop left it in /tmp)."""
    told: list[str] = []

    def give(when: str) -> int:
        told.append(when)
        return 0

    monkeypatch.setattr(services, "make_up_for_restart", give)
    # As it stops, the live models save their games (QA: a stop lost them).
    monkeypatch.setattr(services, "save_live_models", lambda: told.append("save"))

    async def serve() -> list:
        inbox: asyncio.Queue = asyncio.Queue()
        said = []

        async def send(message: dict) -> None:
            said.append((message["type"], list(told)))

        stop = [lambda: told.append("at stop")]
        server = asyncio.create_task(routing.lifespan({}, inbox.get, send, stop))
        for message in ("lifespan.startup", "lifespan.shutdown"):
            await inbox.put({"type": message})
        await server
        return said

    assert asyncio.run(serve()) == [
        ("lifespan.startup.complete", ["start"]),
        ("lifespan.shutdown.complete", ["start", "stop", "save", "at stop"]),
    ]


def test_a_store_down_as_the_server_starts_or_stops_is_one_line(monkeypatch, caplog):
    """Operator QA: Redis down as the server started and as it stopped
    logged two tracebacks of 20 lines (the outage's time is given once it
    answers, :mod:`webgame.services.outages`)."""

    def refused(when: str) -> int:
        raise redis.exceptions.ConnectionError("Error 111 connecting. Refused.")

    monkeypatch.setattr(services, "make_up_for_restart", refused)
    asyncio.run(routing.make_up_for_restart("start"))
    [record] = caplog.records
    assert record.getMessage() == (
        "could not give the running clocks a restart's time: Redis (REDIS_URL)"
        " does not answer: Error 111 connecting. Refused."
    )
    assert record.exc_info is None


@pytest.mark.parametrize("clock", [None, {"days": 3}])
def test_time_is_given_on_a_fischer_clock_between_two_seats(client, clock):
    body = {"game": "gomoku", "friend": {"side": "black"}}
    made = client.post("/api/games/", {**body, "clock": clock}, format="json").json()
    post(client, "game-join", made["id"], {"invite": made["invite"]})
    assert_error(
        post(client, "game-give-time", made["id"], token=made["seat"]["token"]),
        409,
        "no_fischer_clock",
    )
    alone = client.post("/api/games/", {"game": "gomoku"}, format="json").json()
    assert_error(post(client, "game-give-time", alone["id"]), 400, "no_opponent")


def test_the_server_logs_each_game_it_ends_on_time(client, friends, caplog):
    """Operator QA: the server's log said nothing of a game it ended (a
    flag fall, a first move not made in time): only its HTTP lines."""
    game_id, black, white = friends
    caplog.set_level(logging.INFO, logger="webgame.services.games")
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    row = GameRow.objects.get(pk=game_id)
    row.deadline = timezone.now() - dt.timedelta(seconds=1)
    row.save()
    assert flag_due_games() == 1
    assert [r.getMessage() for r in caplog.records] == [
        f"game {game_id} aborted: White made no first move in time"
    ]
    caplog.clear()
    other, black, white = friends_at_3_2()
    for move, token in (("h8", black), ("h9", white)):
        post(client, "game-moves", other, {"move": move}, token=token)
    run_out(other)
    assert flag_due_games() == 1
    assert [r.getMessage() for r in caplog.records] == [
        f"game {other} ended: Black ran out of time, White wins"
    ]


def test_a_game_lost_on_time_takes_nothing_back(client):
    """At one screen (or against the computer) undo after a flag fell took
    moves off the record of a game that stayed lost on time."""
    made = client.post("/api/games/", GOMOKU_3_2, format="json").json()
    for move in ("h8", "h9", "j8"):
        client.post(url("game-moves", made["id"]), {"move": move}, format="json")
    run_out(made["id"])
    assert flag_due_games() == 1
    refused = assert_error(
        client.post(url("game-undo", made["id"]), {}, format="json"), 400, "game_over"
    )
    assert "nothing is taken back" in refused["detail"]
    after = client.get(url("game-detail", made["id"])).json()
    assert len(after["moves"]) == 3 and after["result"]["reason"] == "time"


def test_either_player_aborts_until_each_has_made_a_first_move(client, friends):
    """As on lichess: before each player has moved, Abort ends the game
    without a result (a resignation would give it to the other)."""
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    assert_error(post(client, "game-abort", game_id), 403, "not_your_seat")
    over = post(client, "game-abort", game_id, token=white).json()
    assert over["status"] == "finished"
    # Who aborted it: friends QA, "Game aborted" said nothing of who did.
    assert over["result"] == {
        "winner": None,
        "reason": "aborted",
        "score": None,
        "aborted_by": "white",
    }
    assert over["clock"]["running"] is None and over["clock"]["first_move"] is None
    assert flag_due_games() == 0
    late = post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    assert assert_error(late, 400, "game_over")["detail"] == (
        "the game is over (aborted: nobody won or lost); offer a rematch or start "
        "a new game"
    )


def test_no_abort_once_each_has_moved_nor_without_seats(client, friends):
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    before = client.get(url("game-detail", game_id)).json()
    refused = assert_error(
        post(client, "game-abort", game_id, token=black), 409, "not_abortable"
    )
    assert "resign" in refused["detail"]
    after = client.get(url("game-detail", game_id)).json()
    assert after["version"] == before["version"]
    alone = client.post("/api/games/", GOMOKU_3_2, format="json").json()
    assert_error(post(client, "game-abort", alone["id"]), 400, "no_opponent")


def test_nobody_resigns_offers_a_draw_or_asks_a_takeback_before_each_has_moved(
    client, friends
):
    """As on lichess: until each player has made a first move the game is
    aborted, not resigned (nothing is lost yet), and a draw or a takeback
    waits."""
    game_id, black, white = friends
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    before = client.get(url("game-detail", game_id)).json()
    for token in (black, white):
        refused = assert_error(
            post(client, "game-resign", game_id, token=token), 409, "too_early"
        )
        assert "abort" in refused["detail"]
        for name, what in (("game-draw", "a draw"), ("game-takeback", "a takeback")):
            refused = assert_error(
                post(client, name, game_id, {"action": "offer"}, token=token),
                409,
                "too_early",
            )
            assert refused["detail"].startswith(what)
    after = client.get(url("game-detail", game_id)).json()
    assert after["version"] == before["version"] and after["offers"] == {}
    post(client, "game-moves", game_id, {"move": "h9"}, token=white)
    offered = post(client, "game-takeback", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"takeback": "black"}


def test_a_first_move_not_made_in_time_aborts_the_game(client, friends):
    """lichess's time for a first move: 25 s at 3+2 (a blitz game), counted
    from each player's turn once both seats are taken; the flag watcher
    aborts the game when it runs out."""
    game_id, black, white = friends
    joined = client.get(url("game-detail", game_id)).json()
    assert 24 < joined["clock"]["first_move"] <= 25
    row = GameRow.objects.get(pk=game_id)
    first_deadline = row.deadline
    # An offer does not restart the count; a move starts white's.
    post(client, "game-draw", game_id, {"action": "offer"}, token=black)
    assert GameRow.objects.get(pk=game_id).deadline == first_deadline
    moved = post(client, "game-moves", game_id, {"move": "h8"}, token=black).json()
    assert moved["to_move"] == "white" and 24 < moved["clock"]["first_move"] <= 25
    assert flag_due_games() == 0
    row = GameRow.objects.get(pk=game_id)
    row.deadline = timezone.now() - dt.timedelta(seconds=1)
    row.save()
    assert flag_due_games() == 1
    over = client.get(url("game-detail", game_id)).json()
    assert over["result"] == {
        "winner": None,
        "reason": "aborted",
        "score": None,
        "no_first_move": "white",  # said, as lichess's "White didn't move"
    }
    # Each clock as it was: no time was spent.
    assert over["clock"]["black"] == over["clock"]["white"] == 180


def test_a_timed_rematch_counts_the_first_move_from_its_start(client, friends):
    """A rematch between two seats starts with both taken: its first mover
    has the same 25 s as in the first game, else one player could leave the
    other before a clock that never runs (QA found the rematch's
    ``first_move`` null, its clocks at 3:00 for good)."""
    game_id, black, white = friends
    post(client, "game-abort", game_id, token=white)
    post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    started = post(client, "game-rematch", game_id, {"action": "offer"}, token=white)
    new_id = started.json()["rematch"]
    again = client.get(url("game-detail", new_id)).json()
    assert again["to_move"] == "black" and 24 < again["clock"]["first_move"] <= 25
    row = GameRow.objects.get(pk=new_id)
    row.deadline = timezone.now() - dt.timedelta(seconds=1)
    row.save()
    assert flag_due_games() == 1
    over = client.get(url("game-detail", new_id)).json()
    assert over["result"]["reason"] == "aborted"
    assert over["result"]["no_first_move"] == "black"


def test_no_time_for_a_first_move_before_the_friend_joins_or_once_clocks_run(
    client,
):
    made = client.post(
        "/api/games/", {**GOMOKU_3_2, "friend": {"side": "black"}}, format="json"
    ).json()
    assert made["clock"]["first_move"] is None  # the invitation waits
    black = made["seat"]["token"]
    white = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    post(client, "game-moves", made["id"], {"move": "h8"}, token=black)
    second = post(
        client, "game-moves", made["id"], {"move": "h9"}, token=white["seat"]["token"]
    ).json()
    assert second["clock"]["running"] == "black"
    assert second["clock"]["first_move"] is None
    # Days a move, or no clock: nothing is aborted for waiting.
    for clock in ({"days": 3}, None):
        body = {"game": "gomoku", "friend": {"side": "black"}}
        if clock:
            body["clock"] = clock
        made = client.post("/api/games/", body, format="json").json()
        post(client, "game-join", made["id"], {"invite": made["invite"]})
        assert GameRow.objects.get(pk=made["id"]).deadline is None


def test_the_time_for_a_first_move_follows_the_games_speed():
    seconds = clocks.first_move_seconds
    assert seconds({"initial": 15, "increment": 0}) == 15  # ultrabullet
    assert seconds({"initial": 60, "increment": 1}) == 20  # bullet: 100 s
    assert seconds({"initial": 180, "increment": 2}) == 25  # blitz: 260 s
    assert seconds({"initial": 300, "increment": 3}) == 25  # blitz: 420 s
    assert seconds({"initial": 600, "increment": 5}) == 30  # rapid: 800 s
    assert seconds({"initial": 900, "increment": 10}) == 30  # rapid: 1300 s
    assert seconds({"initial": 1800, "increment": 0}) == 35  # classical
    assert seconds({"days": 3}) is None


def test_clock_controls_are_checked(client):
    for clock in ({"initial": 5, "increment": 0}, {"days": 0}, {"initial": 60}):
        answer = client.post(
            "/api/games/", {"game": "reversi", "clock": clock}, format="json"
        )
        assert answer.status_code == 400, clock
    days = client.post(
        "/api/games/", {"game": "reversi", "clock": {"days": 3}}, format="json"
    ).json()
    assert days["clock"]["black"] == 3 * 86400


def test_the_ai_thinks_within_its_clock():
    clock = clocks.new_clock({"initial": 60, "increment": 0})
    assert clocks.think_budget(clock, "white", 10.0) == pytest.approx(2.0)
    clock["white"] = 1_000
    assert clocks.think_budget(clock, "white", 10.0) == pytest.approx(0.1)
    assert clocks.think_budget(None, "white", 10.0) == 10.0


def test_a_game_on_the_board_is_shared_with_a_friend(client):
    made = client.post("/api/games/", {"game": "reversi"}, format="json").json()
    shared = post(
        client,
        "game-share",
        made["id"],
        {"side": "white", "clock": {"initial": 300, "increment": 3}},
    ).json()
    assert shared["seat"]["side"] == "white" and shared["seats"]["black"] is False
    assert shared["clock"]["control"] == {"initial": 300, "increment": 3}
    again = post(client, "game-share", made["id"], {"side": "black"})
    assert_error(again, 409, "already_shared")
    # Said as it is: one seat is still open (it said "has its two seats").
    assert again.json()["detail"] == "this game is already shared"
    joined = post(client, "game-join", made["id"], {"invite": shared["invite"]}).json()
    assert joined["seat"]["side"] == "black"


def test_a_shared_games_clock_waits_for_the_friend(client):
    """Shared mid-game with a clock: no clock runs until the friend joins,
    even if the inviter moves first (else the friend could lose on time
    before opening the link); then the side to move's clock runs."""
    made = client.post("/api/games/", {"game": "reversi"}, format="json").json()
    for move in ("f5", "d6", "c3", "d3"):
        post(client, "game-moves", made["id"], {"move": move})
    shared = post(
        client,
        "game-share",
        made["id"],
        {"side": "black", "clock": {"initial": 180, "increment": 2}},
    ).json()
    assert shared["clock"]["running"] is None
    token = shared["seat"]["token"]
    moved = post(client, "game-moves", made["id"], {"move": "c4"}, token=token).json()
    assert moved["clock"]["running"] is None
    assert moved["clock"]["black"] == 180 and moved["clock"]["white"] == 180
    row = GameRow.objects.get(pk=made["id"])
    assert row.deadline is None
    joined = post(client, "game-join", made["id"], {"invite": shared["invite"]}).json()
    assert joined["clock"]["running"] == "white"
    assert GameRow.objects.get(pk=made["id"]).deadline is not None


def test_no_clock_runs_when_the_friend_joins_during_swap2(client):
    made = client.post(
        "/api/games/",
        {**GOMOKU_3_2, "opening": "swap2", "friend": {"side": "black"}},
        format="json",
    ).json()
    token = made["seat"]["token"]
    for move in ("h8", "h9", "j8"):  # the opener's three stones
        post(client, "game-moves", made["id"], {"move": move}, token=token)
    joined = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    assert joined["opening"]["step"] == "choose"
    assert joined["clock"]["running"] is None
    assert GameRow.objects.get(pk=made["id"]).clock["since"] is None


def test_tokens_are_compared_in_constant_time(monkeypatch):
    from webgame.services import seats

    compared = []
    real = hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(seats.hmac, "compare_digest", spy)
    stored = digest("right")
    assert seats.matches("right", stored) and not seats.matches("wrong", stored)
    assert len(compared) == 2 and all(b == stored for _, b in compared)


def test_the_joiner_gets_only_its_own_token(client):
    made = client.post(
        "/api/games/", {"game": "gomoku", "friend": {"side": "white"}}, format="json"
    ).json()
    joined = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    text = json.dumps(joined)
    assert made["seat"]["token"] not in text and made["invite"] not in text
    assert joined["seat"]["side"] == "black" and "invite" not in joined


def test_the_inviter_cannot_take_its_own_invitation(client):
    # Hostile-client QA: the inviter's token with the invitation took the
    # second seat too, and the friend found both taken.
    made = client.post(
        "/api/games/", {"game": "gomoku", "friend": {"side": "white"}}, format="json"
    ).json()
    own = post(
        client,
        "game-join",
        made["id"],
        {"invite": made["invite"]},
        token=made["seat"]["token"],
    )
    assert_error(own, 409, "seat_held")
    friend = post(client, "game-join", made["id"], {"invite": made["invite"]})
    assert friend.json()["seat"]["side"] == "black"


def test_the_ai_of_a_game_with_a_clock_plays_within_it(client):
    # 15 s for the game: the AI's 2 s a move become 15/30 = 0.5 s at most.
    made = client.post(
        "/api/games/",
        {
            "game": "reversi",
            "players": {"black": {"kind": "ai", "think_time": 2.0}},
            "clock": {"initial": 15, "increment": 0},
        },
        format="json",
    ).json()
    answer = post(client, "game-ai-move", made["id"], {"version": made["version"]})
    assert answer.status_code == 200, answer.content
    assert answer.json()["search"]["elapsed"] < 1.0
    assert answer.json()["game"]["ply"] == 1


def _against_the_computer(client, black: str, white: str) -> str:
    """Return a Reversi game at 15+0 of ``black`` against ``white`` ("human"
    or "ai") after each side's first move: Black's clock runs, as of a
    second ago."""
    kinds = {"human": {"kind": "human"}, "ai": {"kind": "ai", "think_time": 0.1}}
    made = client.post(
        "/api/games/",
        {
            "game": "reversi",
            "players": {"black": kinds[black], "white": kinds[white]},
            "clock": {"initial": 15, "increment": 0},
        },
        format="json",
    ).json()
    row = GameRow.objects.get(pk=made["id"])
    services.games.write(row, moves=["d3", "c5"])
    GameRow.objects.filter(pk=row.pk).update(
        updated=timezone.now() - dt.timedelta(seconds=1.5)
    )
    return made["id"]


def test_the_server_asks_for_the_computer_s_move_nobody_asked_for(client):
    _against_the_computer(client, "human", "ai")
    assert services.unasked_ai_moves() == []  # the person's turn
    game_id = _against_the_computer(client, "ai", "human")
    due = services.unasked_ai_moves()
    assert [str(g) for g, _ in due] == [game_id]
    services.play_unasked(*due[0])
    after = client.get(url("game-detail", game_id)).json()
    assert after["ply"] == 3 and after["clock"]["running"] == "white"
    assert services.unasked_ai_moves() == []
    # Played once: a second try at the same version changes nothing.
    services.play_unasked(*due[0])
    assert client.get(url("game-detail", game_id)).json()["ply"] == 3


def test_the_computer_against_itself_waits_for_its_page_while_it_is_open(client):
    """Its page paces its moves; closed, the server plays on (spectators QA:
    the owner closed it, the watchers read "the game goes on once it is open
    again", and the computer lost on time meanwhile)."""
    from webgame.services import presence

    game_id = _against_the_computer(client, "ai", "ai")
    presence.playing(game_id, 1, 0)  # its page, open
    try:
        assert services.unasked_ai_moves() == []
    finally:
        presence.playing(game_id, -1, 0)
    assert [str(g) for g, _ in services.unasked_ai_moves()] == [game_id]


def test_the_computer_s_clock_stands_still_while_its_ai_compiles(client, monkeypatch):
    """QA (an upgrade that changed the AI's code): the computer waited 5 min
    for its kernels to compile, its clock running: 3 min 43 s of its 5 min
    went, and at 3+2 it would have lost on time without a move. Its clock
    stands still while its AI is not ready: no flag, and the wait is not
    charged to its move."""
    from webgame.services.readiness import READINESS

    game_id = _against_the_computer(client, "ai", "human")  # 15 s each
    row = GameRow.objects.get(pk=game_id)
    row.clock = {**row.clock, "since": row.clock["since"] - 20_000}
    row.deadline = timezone.now() - dt.timedelta(seconds=5)
    row.save()
    ready = {"now": False}
    monkeypatch.setattr(READINESS, "is_ready", lambda name: ready["now"])
    assert flag_due_games() == 0  # its time is up, but it cannot think yet

    def wait(name: str) -> None:
        ready["now"] = True  # as if compiled in the meantime, 20 s on

    monkeypatch.setattr(READINESS, "wait", wait)
    answer = post(client, "game-ai-move", game_id, {})
    assert answer.status_code == 200, answer.content
    shown = answer.json()["game"]["clock"]
    assert answer.json()["game"]["status"] == "playing"
    assert 14 < shown["black"] <= 15  # the 20 s not charged


def test_an_unasked_move_waits_a_second_for_the_page_to_ask(client):
    game_id = _against_the_computer(client, "ai", "human")
    GameRow.objects.filter(pk=game_id).update(updated=timezone.now())
    assert services.unasked_ai_moves() == []


def test_a_rematch_is_offered_after_the_end_and_swaps_the_seats(client, friends):
    game_id, black, white = friends
    assert_error(
        post(client, "game-rematch", game_id, {"action": "offer"}, token=black),
        409,
        "game_not_over",
    )
    post(client, "game-moves", game_id, {"move": "h8"}, token=black)
    post(client, "game-abort", game_id, token=white)
    assert_error(  # a watcher has no seat to offer from
        post(client, "game-rematch", game_id, {"action": "offer"}), 403, "not_your_seat"
    )
    offered = post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    assert offered.json()["offers"] == {"rematch": "black"}
    declined = post(client, "game-rematch", game_id, {"action": "decline"}, token=white)
    assert declined.json()["offers"] == {} and declined.json()["rematch"] is None
    post(client, "game-rematch", game_id, {"action": "offer"}, token=white)
    # Offering what the other already offers accepts it.
    started = post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    new_id = started.json()["rematch"]
    assert new_id and started.json()["offers"] == {}
    again = client.get(url("game-detail", new_id)).json()
    assert again["ply"] == 0 and again["options"] == started.json()["options"]
    assert again["seats"] == {"black": True, "white": True}
    assert again["clock"]["control"] == {"initial": 180, "increment": 2}
    # The colours are swapped and each token holds its new seat.
    assert_error(
        post(client, "game-moves", new_id, {"move": "h8"}, token=black),
        403,
        "not_your_turn",
    )
    moved = post(client, "game-moves", new_id, {"move": "h8"}, token=white)
    assert moved.status_code == 200, moved.content
    # Asking again changes nothing: the rematch is that game.
    same = post(client, "game-rematch", game_id, {"action": "offer"}, token=black)
    assert same.json()["rematch"] == new_id
    # Nothing waits to be declined or withdrawn (hostile-client QA: 200, as
    # if it were done).
    for action, token in (("decline", white), ("withdraw", black)):
        late = post(client, "game-rematch", game_id, {"action": action}, token=token)
        assert_error(late, 409, "no_offer")
        assert "started" in late.json()["detail"]
    assert GameRow.objects.count() == 2


def test_a_rematch_keeps_the_swap2_opening(client):
    made = client.post(
        "/api/games/",
        {"game": "gomoku", "opening": "swap2", "friend": {"side": "black"}},
        format="json",
    ).json()
    joined = post(client, "game-join", made["id"], {"invite": made["invite"]}).json()
    tokens = {"black": made["seat"]["token"], "white": joined["seat"]["token"]}
    post(client, "game-abort", made["id"], token=tokens["white"])
    for side in ("black", "white"):
        answer = post(
            client, "game-rematch", made["id"], {"action": "offer"}, token=tokens[side]
        )
    again = client.get(url("game-detail", answer.json()["rematch"])).json()
    assert again["opening"]["name"] == "swap2" and again["opening"]["step"] == "place3"
    assert again["clock"] is None


def test_a_game_without_seats_names_its_rematch_for_its_watchers(client):
    # The page started a new game for a rematch: the watchers of a game
    # against the computer, or of the computer against itself, stayed on
    # the finished one.
    made = client.post(
        "/api/games/",
        {
            "game": "reversi",
            "players": {
                "black": {"kind": "human"},
                "white": {"kind": "ai", "level": 2},
            },
            "clock": {"initial": 300, "increment": 3},
        },
        format="json",
    ).json()
    assert_error(
        post(client, "game-rematch", made["id"], {"action": "offer"}),
        409,
        "game_not_over",
    )
    post(client, "game-resign", made["id"])
    assert_error(  # nobody asked: nothing to decline
        post(client, "game-rematch", made["id"], {"action": "decline"}),
        400,
        "no_opponent",
    )
    started = post(client, "game-rematch", made["id"], {"action": "offer"}).json()
    again = client.get(url("game-detail", started["rematch"])).json()
    # At once, nobody to ask: the same game, the colours swapped.
    assert again["ply"] == 0 and again["seats"] is None
    assert again["players"]["black"]["kind"] == "ai"
    assert again["players"]["black"]["level"] == 2
    assert again["players"]["white"]["kind"] == "human"
    assert again["clock"]["control"] == {"initial": 300, "increment": 3}
    # A second page's Rematch goes to the same game.
    same = post(client, "game-rematch", made["id"], {"action": "accept"}).json()
    assert same["rematch"] == started["rematch"]
    assert GameRow.objects.count() == 2


def test_an_unasked_move_refused_again_and_again_is_logged_once(
    client, monkeypatch, caplog
):
    # Operator QA (Celery, no worker running): the flag watcher's retry, twice
    # a second, wrote "the unasked AI move ... was not played" each time.
    game_id = _against_the_computer(client, "ai", "human")
    (due,) = services.unasked_ai_moves()

    def refused(*args, **kwargs):
        raise ServiceError("ai_unavailable", "no AI worker is running")

    monkeypatch.setattr(ai_service, "ai_move", refused)
    with caplog.at_level("INFO", logger="webgame.services.ai"):
        for _ in range(5):
            services.play_unasked(*due)
        services.play_unasked(due[0], due[1] + 1)  # another move: said again
    said = [r.getMessage() for r in caplog.records if "unasked" in r.getMessage()]
    assert (
        said
        == [f"the unasked AI move of {game_id} was not played: no AI worker is running"]
        * 2
    )

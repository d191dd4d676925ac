"""Gomoku's Swap2 opening through the API: who acts at each step, the
choices, the sides swapped with their players and seats, the AI's turns,
the clock waiting and nothing taken back (issue 66, point 3)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from webgame.models import Game as GameRow
from webgame.services import ai as ai_service
from webgame.services import clocks, positions
from webgame.services.positions import snapshot

from .helpers import FAST_AI, HUMAN, assert_error, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return APIClient()


def new(client, black=HUMAN, white=HUMAN, **extra):
    body = {"game": "gomoku", "opening": "swap2", **extra}
    if "friend" not in extra:
        body["players"] = {"black": black, "white": white}
    made = client.post("/api/games/", body, format="json")
    assert made.status_code == 201, made.content
    return made.json()


def move(client, game, text, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(
        url("game-moves", game["id"]), {"move": text}, format="json", **headers
    )


def choose(client, game, choice, token=None):
    headers = {"HTTP_X_SEAT_TOKEN": token} if token else {}
    return client.post(
        url("game-choice", game["id"]), {"choice": choice}, format="json", **headers
    )


def placed(client, game, *texts):
    for text in texts:
        answer = move(client, game, text)
        assert answer.status_code == 200, answer.content
        game = answer.json()
    return game


def friends_swap2(client, clock: dict) -> tuple[dict, str, str]:
    """Return a Swap2 game between two seats on ``clock``, the friend
    joined, with the opener's token and the second player's."""
    made = new(client, friend={"side": "black"}, clock=clock)
    second = client.post(
        url("game-join", made["id"]), {"invite": made["invite"]}, format="json"
    ).json()["seat"]["token"]
    return made, made["seat"]["token"], second


def frozen_time(monkeypatch) -> list[int]:
    """Hold the clocks' time still; the list's one item moves it (ms)."""
    now = [1_800_000_000_000]
    monkeypatch.setattr(clocks, "now_ms", lambda: now[0])
    monkeypatch.setattr(positions, "now_ms", lambda: now[0])
    return now


def test_the_opener_places_three_stones_then_the_second_player_chooses(client):
    game = new(client)
    assert game["opening"] == {
        "name": "swap2",
        "choices": [],
        "swapped": False,
        "step": "place3",
        "opener": "black",
        "choices_now": [],
    }
    game = placed(client, game, "h8")
    assert game["to_move"] == "black"  # the opener places white's stone too
    game = placed(client, game, "h9", "i8")
    assert game["opening"]["step"] == "choose"
    assert game["opening"]["choices_now"] == ["white", "black", "place2"]
    assert (game["to_move"], game["legal_moves"]) == ("white", [])
    assert_error(move(client, game, "j8"), 400, "choose_first")
    # Not one of the choices: its own code, as api.md gives it.
    assert_error(choose(client, game, "sideways"), 400, "invalid_choice")
    game = choose(client, game, "white").json()
    assert game["opening"]["step"] == "done"
    assert game["to_move"] == "white" and "j8" in game["legal_moves"]
    assert_error(choose(client, game, "black"), 400, "invalid_choice")


def test_taking_black_swaps_the_sides_players(client):
    game = new(client, white=FAST_AI)
    game = placed(client, game, "h8", "h9", "i8")
    row = GameRow.objects.get(pk=game["id"])
    row.players = {"black": FAST_AI, "white": HUMAN}  # the second player: human
    row.save()
    game = choose(client, game, "black").json()
    assert game["opening"]["swapped"] is True
    assert game["opening"]["opener"] == "white"
    assert game["players"]["black"]["kind"] == "human"
    assert game["players"]["white"]["kind"] == "ai"
    assert game["to_move"] == "white"


def test_two_more_stones_hand_the_choice_back(client):
    game = new(client)
    game = placed(client, game, "h8", "h9", "i8")
    game = choose(client, game, "place2").json()
    assert game["opening"]["step"] == "place2" and game["to_move"] == "white"
    game = placed(client, game, "g7", "j10")
    assert game["opening"]["step"] == "choose-again"
    assert game["to_move"] == "black"  # the opener chooses
    assert_error(choose(client, game, "place2"), 400, "invalid_choice")
    game = choose(client, game, "white").json()
    assert game["opening"]["swapped"] is True and game["ply"] == 5
    # Nothing of the opening is taken back, and the refusal says why.
    refused = assert_error(
        client.post(url("game-undo", game["id"]), {}, format="json"),
        400,
        "nothing_to_undo",
    )
    assert "Swap2 opening" in refused["detail"]
    game = placed(client, game, "k11")
    undone = client.post(url("game-undo", game["id"]), {}, format="json").json()
    assert undone["ply"] == 5


def test_the_ai_plays_every_step_of_its_side(client):
    game = new(client, black=FAST_AI, white=HUMAN)
    assert_error(move(client, game, "h8"), 403, "not_your_turn")
    assert_error(
        client.post(url("game-undo", game["id"]), {}, format="json"),
        400,
        "opening_under_way",
    )
    answer = client.post(url("game-ai-move", game["id"]), {}, format="json").json()
    game = answer["game"]
    assert game["ply"] == 3 and game["opening"]["step"] == "choose"
    # The human second player hands the choice back: the AI opener chooses.
    # (Its stones lie within 3 points of the centre.)
    game = choose(client, game, "place2").json()
    game = placed(client, game, "b2", "n14")
    answer = client.post(url("game-ai-move", game["id"]), {}, format="json").json()
    game = answer["game"]
    assert game["opening"]["step"] == "done" and game["ply"] == 5
    assert game["players"][game["opening"]["opener"]]["kind"] == "ai"


def test_the_ai_as_second_player_chooses_and_maybe_places(client):
    game = new(client, black=HUMAN, white=FAST_AI)
    game = placed(client, game, "h8", "h9", "i8")
    assert_error(choose(client, game, "white"), 403, "not_your_turn")
    game = client.post(url("game-ai-move", game["id"]), {}, format="json").json()[
        "game"
    ]
    assert game["opening"]["choices"][0] in ("white", "black", "place2")
    assert game["opening"]["step"] in ("done", "choose-again")
    assert game["ply"] == (5 if game["opening"]["choices"] == ["place2"] else 3)


def test_seats_swap_with_the_colours_and_the_clock_waits(client):
    made, opener, second = friends_swap2(client, {"initial": 60, "increment": 1})
    game = made
    for text in ("h8", "h9", "i8"):
        assert_error(move(client, game, text, second), 403, "not_your_turn")
        answer = move(client, game, text, opener)
        assert answer.status_code == 200, answer.content
        game = answer.json()
        assert game["clock"]["running"] is None
    assert_error(choose(client, game, "black", opener), 403, "not_your_turn")
    game = choose(client, game, "black", second).json()
    # The second player now sits at black's seat; white (the opener) moves,
    # and its clock runs.
    assert game["clock"]["running"] == "white"
    assert_error(move(client, game, "j8", second), 403, "not_your_turn")
    assert move(client, game, "j8", opener).status_code == 200
    assert_error(
        client.post(
            url("game-takeback", game["id"]),
            {"action": "offer"},
            format="json",
            HTTP_X_SEAT_TOKEN=second,
        ),
        400,
        "nothing_to_undo",
    )


def test_an_untimed_opening_step_has_three_first_moves_time(client, monkeypatch):
    """Renju-friends QA: at 5+3 each of the opener's stones and the second
    player's colour choice had a first move's 25 s, and a club player's
    thought over the opening aborted the game. Each step has three times
    that, 75 s, until the clocks run."""
    now = frozen_time(monkeypatch)
    made, opener, second = friends_swap2(client, {"initial": 300, "increment": 3})

    def seconds_left() -> float:
        deadline = GameRow.objects.get(pk=made["id"]).deadline
        return deadline.timestamp() - now[0] / 1000

    assert seconds_left() == 75
    game = made
    for text in ("h8", "h9", "i8"):
        now[0] += 60_000  # within a step's time
        game = move(client, game, text, opener).json()
        assert game["status"] == "playing" and seconds_left() == 75
    now[0] += 60_000
    game = choose(client, game, "white", second).json()
    # Each has acted: the clock of white (the second player) runs, as in
    # any game after that.
    assert game["status"] == "playing" and game["clock"]["running"] == "white"
    assert seconds_left() == 300


def test_a_choice_that_swaps_the_seats_swaps_the_offers_and_waits_too(client):
    """Renju-friends QA: after a draw offer and a choice that swapped the
    seats, the other player's Offer a draw was greyed "again in 16 moves":
    the offer and its wait, kept by colour, stayed with the colour."""
    made, opener, second = friends_swap2(client, {"initial": 60, "increment": 1})
    game = made
    for text in ("h8", "h9", "i8"):
        game = move(client, game, text, opener).json()
    game = choose(client, game, "place2", second).json()
    for text in ("j9", "g7"):
        game = move(client, game, text, second).json()
    offered = client.post(
        url("game-draw", game["id"]),
        {"action": "offer"},
        format="json",
        HTTP_X_SEAT_TOKEN=opener,
    ).json()
    assert offered["offers"] == {"draw": "black"}  # the opener sits at black
    game = choose(client, offered, "white", opener).json()
    assert game["opening"]["swapped"]
    assert game["offers"] == {"draw": "white"}  # the opener's, at white now
    assert list(game["waits"]["draw"]) == ["white"]
    declined = client.post(
        url("game-draw", game["id"]),
        {"action": "decline"},
        format="json",
        HTTP_X_SEAT_TOKEN=second,
    )
    assert declined.status_code == 200, declined.content


def test_the_clock_runs_for_whoever_acts_once_each_player_has(client, monkeypatch):
    """Gomocup's practice: the opening's time counts, so that nobody can stall
    in it. As each side's first move in any game, the opener's three stones
    and the second player's first choice are free; the two more stones and
    the second choice are timed, and a choice that swaps the seats swaps
    their clocks."""
    now = frozen_time(monkeypatch)
    made, opener, second = friends_swap2(client, {"initial": 60, "increment": 1})
    game = made
    for text in ("h8", "h9", "i8"):
        now[0] += 5000
        game = move(client, game, text, opener).json()
    now[0] += 5000
    game = choose(client, game, "place2", second).json()
    # Nothing charged so far; now the second player's stones are timed.
    assert game["clock"] == {**game["clock"], "black": 60, "white": 60}
    assert game["clock"]["running"] == "white"
    for seconds, text in ((4, "j9"), (3, "g7")):
        now[0] += seconds * 1000
        game = move(client, game, text, second).json()
    # 7 s used, an increment a stone; the opener's choice is timed.
    assert (game["clock"]["white"], game["clock"]["running"]) == (55, "black")
    assert GameRow.objects.get(pk=game["id"]).deadline is not None
    now[0] += 10_000
    game = choose(client, game, "white", opener).json()
    # The opener took white: 10 s charged and an increment, then the seats
    # and the clocks swapped. White moves next: the opener's clock runs.
    assert game["opening"]["swapped"] and game["opening"]["step"] == "done"
    assert (game["clock"]["white"], game["clock"]["black"]) == (51, 55)
    assert game["clock"]["running"] == "white"
    assert move(client, game, "k10", opener).status_code == 200


def test_the_ai_thinks_within_its_clock_in_the_opening_too(client, monkeypatch):
    turns = []

    def opening_turn(row, game, state, side, ai):
        turns.append(ai)
        return {"game": snapshot(row), "search": None}

    monkeypatch.setattr(ai_service, "_opening_turn", opening_turn)
    game = new(client, black=FAST_AI, clock={"initial": 60, "increment": 0})
    client.post(url("game-ai-move", game["id"]), {}, format="json")
    # A 30th of its time, as for a move (clocks.think_budget).
    assert turns[0]["think_cap"] == pytest.approx(2.0)


def test_only_gomoku_opens_by_swap2(client):
    answer = client.post(
        "/api/games/", {"game": "reversi", "opening": "swap2"}, format="json"
    )
    refused = assert_error(answer, 400, "invalid_opening")
    # The game named as a name (verification walk: "gomoku has no ...").
    assert refused["detail"].startswith("Reversi has no opening rule 'swap2'")


def test_swap2_opens_rows_of_four_or_more_as_the_kinds_say(client):
    # QA: on a 5x5 board of three in a row, the second player's two stones
    # won for black during the opening, which still awaited a choice.
    kinds = {kind["name"]: kind for kind in client.get("/api/games/kinds/").json()}
    assert kinds["gomoku"]["openings"] == [{"name": "swap2", "min_row": 4}]
    assert kinds["reversi"]["openings"] == []
    for friend in (None, {"side": "black"}):
        for row, answer in ((3, 400), (4, 201)):
            body = {"game": "gomoku", "options": {"size": 5, "row": row}}
            body.update(opening="swap2", **({"friend": friend} if friend else {}))
            made = client.post("/api/games/", body, format="json")
            assert made.status_code == answer, made.content
            if answer == 400:
                assert_error(made, 400, "invalid_opening")
    assert GameRow.objects.count() == 2


def test_a_hint_waits_for_the_choice_as_a_move_does(client):
    # Developer QA: a hint at the choice suggested a stone (h10), which,
    # sent as a move, was refused: choose_first.
    game = placed(client, new(client), "h8", "h9", "i8")
    hint = client.post(url("game-hint", game["id"]), {"think_time": 0.1}, format="json")
    assert_error(hint, 400, "choose_first")


@pytest.mark.parametrize(("choice", "new_black"), [("black", "ai"), ("white", "ai")])
def test_a_rematch_gives_the_opening_to_the_other_player(client, choice, new_black):
    """Gomoku QA: after the computer, second, took black, Rematch ("the
    colours swapped") made the player the opener again: the colours the
    choice gave were swapped back. The parts change hands, whatever colour
    each ended with."""
    game = new(client)
    game = placed(client, game, "h8", "h9", "i8")
    game = choose(client, game, choice).json()
    assert game["opening"]["swapped"] is (choice == "black")
    # The second player is the computer, at the colour it chose.
    second = "white" if game["opening"]["opener"] == "black" else "black"
    row = GameRow.objects.get(pk=game["id"])
    row.players = {**row.players, second: FAST_AI}
    row.save()
    client.post(url("game-resign", game["id"]), {}, format="json")
    started = client.post(
        url("game-rematch", game["id"]), {"action": "offer"}, format="json"
    ).json()
    again = client.get(url("game-detail", started["rematch"])).json()
    assert again["opening"]["opener"] == "black"
    assert again["players"]["black"]["kind"] == new_black  # the computer opens
    assert again["players"]["white"]["kind"] == "human"


def _record(client, game) -> str:
    return client.get(url("game-record", game["id"])).json()["record"]


def _imported(client, record: str) -> dict:
    made = client.post("/api/games/import/", {"record": record}, format="json")
    assert made.status_code == 201, made.content
    return made.json()


def test_a_swap2_record_comes_back_with_its_opening(client):
    """Dark-mode walk: the record of a Swap2 game said nothing of it, and
    came back as a game without an opening."""
    game = new(client)
    game = placed(client, game, "h8", "h9", "i8")
    game = choose(client, game, "place2").json()
    game = placed(client, game, "g7", "j10")
    game = choose(client, game, "white").json()
    game = placed(client, game, "k11")
    record = _record(client, game)
    assert '[opening "swap2"] [choices "place2 white"]' in record
    again = _imported(client, record)
    assert again["opening"]["choices"] == ["place2", "white"]
    assert again["opening"]["step"] == "done"
    assert again["opening"]["swapped"] is True
    assert again["moves"] == game["moves"] and again["to_move"] == game["to_move"]
    # A record cut in the opening goes on from there: the choice still to make.
    cut = record.rsplit("\n", 1)[0] + "\nh8 h9 i8 g7 j10"
    again = _imported(client, cut)
    assert again["opening"]["choices"] == ["place2", "white"]
    cut = record.rsplit("\n", 1)[0] + "\nh8 h9 i8 g7"
    again = _imported(client, cut)
    assert again["opening"]["step"] == "place2" and again["to_move"] == "white"


def test_a_swap2_record_whose_choices_do_not_fit_is_refused(client):
    tags = '[game "gomoku"] [opening "swap2"]'
    refused = assert_error(
        client.post(
            "/api/games/import/", {"record": tags + " h8 h9 i8 g7"}, format="json"
        ),
        400,
        "invalid_record",
    )
    assert "no choice after move 3" in refused["detail"]
    bad = tags + ' [choices "white place2"] h8 h9 i8 g7 j10 k11'
    refused = assert_error(
        client.post("/api/games/import/", {"record": bad}, format="json"),
        400,
        "invalid_record",
    )
    assert "do not follow one another" in refused["detail"]
    # Verification walk: "purple" did "not follow"; a third choice was let by.
    for choices in ("purple", "WHITE", "place2 black white"):
        bad = tags + f' [choices "{choices}"] h8 h9 i8 g7 j10 k11'
        refused = assert_error(
            client.post("/api/games/import/", {"record": bad}, format="json"),
            400,
            "invalid_record",
        )
        assert "at most two of white, black, place2" in refused["detail"]
    alone = '[game "gomoku"] [choices "white"] h8 h9 i8 g7'
    assert_error(
        client.post("/api/games/import/", {"record": alone}, format="json"),
        400,
        "invalid_record",
    )
    reversi = '[game "reversi"] [opening "swap2"] f5'
    refused = assert_error(
        client.post("/api/games/import/", {"record": reversi}, format="json"),
        400,
        "invalid_record",
    )
    assert "'opening'" in refused["detail"]


def test_playing_from_a_position_in_the_opening_makes_its_choice_again(client):
    """Dark-mode walk: "Play from here" at move 3 of a Swap2 game gave a game
    without the opening, white to move: the choice was skipped."""
    game = new(client, white=FAST_AI)
    game = placed(client, game, "h8", "h9", "i8")
    row = GameRow.objects.get(pk=game["id"])
    row.players = {"black": HUMAN, "white": HUMAN}
    row.save()
    game = choose(client, game, "black").json()  # the second player takes black
    game = placed(client, game, "g7", "j10")
    assert game["opening"]["swapped"] is True
    row = GameRow.objects.get(pk=game["id"])
    row.players = {"black": HUMAN, "white": FAST_AI}  # the opener, now white: AI
    row.save()

    def play_from(ply):
        made = client.post(
            url("game-play-from", game["id"]), {"ply": ply}, format="json"
        )
        assert made.status_code == 201, made.content
        return made.json()

    at3 = play_from(3)
    assert at3["moves"] == ["h8", "h9", "i8"]
    assert at3["opening"]["step"] == "choose" and at3["opening"]["choices"] == []
    # Its players on the sides they had then: the opener (the computer)
    # black's side again, the second player to choose.
    assert at3["players"]["black"]["kind"] == "ai"
    assert at3["players"]["white"]["kind"] == "human"
    assert at3["clock"] is None and at3["seats"] is None
    at4 = play_from(4)
    assert at4["opening"]["step"] == "done" and at4["opening"]["choices"] == ["black"]
    now = client.get(url("game-detail", game["id"])).json()
    assert at4["players"]["white"]["kind"] == "ai"  # as they are now
    assert at4["players"]["black"]["kind"] == "human"
    assert play_from(0)["opening"]["step"] == "place3"
    # The game played from is as it was.
    assert now["ply"] == 5 and now["opening"]["choices"] == ["black"]
    assert_error(
        client.post(url("game-play-from", game["id"]), {"ply": 6}, format="json"),
        400,
        "invalid_ply",
    )


def test_playing_from_a_game_two_seats_play_waits_for_its_end(client):
    # As the computer's help does: a side game from the live position.
    game, opener, second = friends_swap2(client, {"initial": 300, "increment": 3})
    refused = client.post(url("game-play-from", game["id"]), {"ply": 0}, format="json")
    assert_error(refused, 403, "no_help")

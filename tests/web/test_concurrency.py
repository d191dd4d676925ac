"""Racing requests on one game: one wins, the others get 409, and the move
list in the database is never corrupted (no lost or duplicated move).

The requests run in real threads, each with its own database connection
(transactional test database, a file for SQLite), as under a threaded server.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from mcts import find_game
from webgame.models import Game

from .helpers import HUMAN, create, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timing]


def in_threads(functions):
    """Run the callables at once (released by a barrier); return their results
    in order."""
    barrier = threading.Barrier(len(functions))
    results = [None] * len(functions)

    def run(index, function):
        try:
            barrier.wait()
            results[index] = function()
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def post(path, body=None, *, address="127.0.0.1"):
    """Return (status, json) of a POST made with a fresh client at ``address``."""
    response = APIClient(REMOTE_ADDR=address).post(path, body or {}, format="json")
    return response.status_code, response.json()


def assert_consistent(game_id):
    """Assert the stored moves replay legally and match status and version."""
    row = Game.objects.get(pk=game_id)
    rules = find_game(row.game, **row.options)
    state = rules.play_all(row.moves)
    assert (row.status == "finished") == rules.is_terminal(state)
    return row


def test_racing_moves_on_the_same_version_apply_exactly_one():
    client = APIClient()
    game = create(client).json()
    for _ in range(6):
        game = client.get(url("game-detail", game["id"])).json()
        legal = game["legal_moves"]
        bodies = [
            {"move": legal[i % len(legal)], "version": game["version"]}
            for i in range(6)
        ]
        moves_url = url("game-moves", game["id"])
        results = in_threads([lambda b=b, u=moves_url: post(u, b) for b in bodies])
        codes = sorted(code for code, _ in results)
        assert codes == [200] + [409] * 5, results
        winner = next(body for code, body in results if code == 200)
        row = assert_consistent(game["id"])
        assert row.moves == winner["moves"]
        assert row.version == game["version"] + 1


def test_racing_moves_without_versions_lose_or_duplicate_nothing():
    client = APIClient()
    # Row 9 on 9x9 and squares of files a..e, ranks 1..8 only: no line can
    # be completed, so every move stays legal whatever order wins the races.
    game = create(client, "gomoku", options={"size": 9, "row": 9}).json()
    squares = [f"{c}{r}" for c in "abcde" for r in range(1, 9)]
    accepted = []
    for round_start in range(0, 40, 8):
        batch = squares[round_start : round_start + 8]
        results = in_threads(
            [
                lambda m=m: post(url("game-moves", game["id"]), {"move": m})
                for m in batch
            ]
        )
        for (code, body), move in zip(results, batch, strict=True):
            assert code in (200, 409), body
            if code == 200:
                accepted.append((body["version"], move, body["moves"]))
    row = assert_consistent(game["id"])
    accepted.sort()
    versions = [version for version, _, _ in accepted]
    assert versions == list(range(1, len(accepted) + 1)), "a write was lost"
    assert row.moves == [move for _, move, _ in accepted], "moves lost or doubled"
    assert len(set(row.moves)) == len(row.moves)
    for version, _, moves in accepted:
        assert moves == row.moves[:version]


def test_a_move_during_an_ai_search_wins_and_the_ai_gets_409():
    client = APIClient()
    ai = {"kind": "ai", "think_time": 1.5}
    game = create(client, black=HUMAN, white=ai).json()
    client.post(url("game-moves", game["id"]), {"move": "f5"}, format="json")

    def human_takes_over():
        time.sleep(0.4)
        other = APIClient()
        patched = other.patch(
            url("game-detail", game["id"]),
            {"players": {"white": HUMAN}},
            format="json",
        )
        assert patched.status_code == 200, patched.content
        moved = other.post(url("game-moves", game["id"]), {"move": "d6"}, format="json")
        return moved.status_code, moved.json()

    ai_result, human_result = in_threads(
        [lambda: post(url("game-ai-move", game["id"])), human_takes_over]
    )
    assert human_result[0] == 200, human_result
    assert ai_result[0] == 409 and ai_result[1]["error"] == "conflict", ai_result
    row = assert_consistent(game["id"])
    assert row.moves == ["f5", "d6"]


def test_a_second_ai_move_without_a_version_while_the_ai_thinks_is_409_at_once():
    """A program that asks again without saying at which version may want a
    second move: it is refused at once, not given the first one's."""
    client = APIClient()
    ai = {"kind": "ai", "think_time": 1.0}
    game = create(client, black=ai, white=HUMAN).json()

    def second():
        time.sleep(0.3)
        started = time.perf_counter()
        result = post(url("game-ai-move", game["id"]))
        return result, time.perf_counter() - started

    first, (second_result, waited) = in_threads(
        [lambda: post(url("game-ai-move", game["id"])), second]
    )
    assert first[0] == 200, first
    assert second_result[0] == 409 and "thinking" in second_result[1]["detail"]
    assert waited < 0.5
    assert len(assert_consistent(game["id"]).moves) == 1


def test_ai_moves_asked_at_the_same_version_get_the_one_search_s_move():
    """Two pages of one game (two tabs, or a page reloaded while the AI
    thinks) ask for the AI's move at the same version: the second waits for
    the search the first started and gets its answer (it was refused with
    409, and the page asked again later), and the AI plays once. A third,
    asking at that version once the move is played, gets it too; once the
    game moved on, it is refused."""
    client = APIClient()
    ai = {"kind": "ai", "think_time": 1.0}
    game = create(client, black=ai, white=HUMAN).json()
    body = {"version": game["version"]}

    def later():
        time.sleep(0.3)
        return post(url("game-ai-move", game["id"]), body, address="10.0.0.2")

    first, second = in_threads(
        [lambda: post(url("game-ai-move", game["id"]), body), later]
    )
    assert first[0] == second[0] == 200, (first, second)
    assert second[1] == first[1]
    assert len(assert_consistent(game["id"]).moves) == 1
    third = post(url("game-ai-move", game["id"]), body)
    assert third == first
    reply = first[1]["game"]["legal_moves"][0]
    client.post(url("game-moves", game["id"]), {"move": reply}, format="json")
    fourth = post(url("game-ai-move", game["id"]), body)
    assert fourth[0] == 409 and "changed since" in fourth[1]["detail"], fourth
    assert len(assert_consistent(game["id"]).moves) == 2


def test_undo_racing_a_move_applies_one_of_them():
    client = APIClient()
    game = create(client).json()
    game = client.post(
        url("game-moves", game["id"]), {"move": "f5"}, format="json"
    ).json()
    version = game["version"]
    results = in_threads(
        [
            lambda: post(url("game-undo", game["id"]), {"version": version}),
            lambda: post(
                url("game-moves", game["id"]), {"move": "d6", "version": version}
            ),
        ]
    )
    assert sorted(code for code, _ in results) == [200, 409], results
    row = assert_consistent(game["id"])
    assert row.moves in ([], ["f5", "d6"])


def timed_ai_moves(game_ids, delay=0.0, *, clients=1):
    """Return [(status, seconds)] of ai-move requests on the games, started
    ``delay`` seconds apart, from ``clients`` addresses in turn."""

    def one(index, game_id):
        time.sleep(index * delay)
        started = time.perf_counter()
        address = f"10.0.0.{index % clients + 1}"
        code, body = post(url("game-ai-move", game_id), address=address)
        return code, time.perf_counter() - started, body

    return in_threads([lambda i=i, g=g: one(i, g) for i, g in enumerate(game_ids)])


def ai_games(count, think_time):
    client = APIClient()
    ai = {"kind": "ai", "think_time": think_time}
    ids = [create(client, "gomoku", black=ai).json()["id"] for _ in range(count)]
    # Load the compiled search kernels first, so the timings measure the pool.
    warm = client.post(url("game-hint", ids[0]), {"level": 1}, format="json")
    assert warm.status_code == 200
    return ids


def test_searches_of_different_clients_run_at_once_up_to_the_worker_count(settings):
    settings.AI_WORKERS = 2
    results = timed_ai_moves(ai_games(2, 0.6), clients=2)
    assert [code for code, _, _ in results] == [200, 200]
    assert max(seconds for _, seconds, _ in results) < 1.1


def test_one_clients_searches_run_one_at_a_time_even_with_workers_free(settings):
    settings.AI_WORKERS = 2
    results = timed_ai_moves(ai_games(2, 0.6), clients=1)
    assert [code for code, _, _ in results] == [200, 200]
    assert max(seconds for _, seconds, _ in results) >= 1.15


def test_searches_beyond_the_workers_wait_their_turn(settings):
    settings.AI_WORKERS = 1
    results = timed_ai_moves(ai_games(2, 0.6))
    assert [code for code, _, _ in results] == [200, 200]
    assert max(seconds for _, seconds, _ in results) >= 1.15


def test_searches_beyond_the_cap_get_503_with_retry_after_not_a_hang(settings):
    settings.AI_WORKERS = 1
    settings.AI_MAX_PENDING = 1
    first, second = timed_ai_moves(ai_games(2, 0.8), delay=0.3)
    assert first[0] == 200
    assert second[0] == 503 and second[2]["error"] == "busy"
    assert second[1] < 0.3


def ai_move_in_a_thread(game_id) -> tuple[threading.Thread, dict]:
    """Start ``POST ai-move/`` in a thread; return it and the dict that gets
    its answer (``ai``: status and JSON) and its ``seconds``."""
    answers: dict = {}

    def think():
        started = time.perf_counter()
        answers["ai"] = post(url("game-ai-move", game_id))
        answers["seconds"] = time.perf_counter() - started
        connection.close()

    thinker = threading.Thread(target=think)
    thinker.start()
    return thinker, answers


def test_stop_ends_a_long_search_which_then_plays_its_best_move():
    slow_ai = {"kind": "ai", "think_time": 10.0}
    game = create(APIClient(), "reversi", black=slow_ai, white=HUMAN).json()
    thinker, answers = ai_move_in_a_thread(game["id"])
    stopped = {"stopped": False}
    deadline = time.perf_counter() + 15
    while not stopped["stopped"] and time.perf_counter() < deadline:
        time.sleep(0.2)
        code, stopped = post(url("game-stop", game["id"]))
        assert code == 200
    thinker.join(timeout=30)
    assert stopped == {"stopped": True}
    code, body = answers["ai"]
    assert code == 200, body
    assert answers["seconds"] < 6  # far less than the 10 s think time
    assert body["game"]["moves"] == [body["search"]["move"]]
    assert_consistent(game["id"])


def test_stop_ends_the_computers_swap2_opening_turn_which_then_places_its_stones():
    """The opener's turn is three searches, one for each candidate opening:
    Stop was told a search ran, and the turn ran on to its 30 s."""
    slow_ai = {"kind": "ai", "think_time": 10.0}
    body = {
        "game": "gomoku",
        "opening": "swap2",
        "players": {"black": slow_ai, "white": HUMAN},
    }
    game = APIClient().post(reverse("game-create"), body, format="json").json()
    thinker, answers = ai_move_in_a_thread(game["id"])
    time.sleep(1.0)
    assert post(url("game-stop", game["id"])) == (200, {"stopped": True})
    thinker.join(timeout=60)
    code, body = answers["ai"]
    assert code == 200, body
    assert answers["seconds"] < 6  # far less than three searches of 10 s
    assert len(body["game"]["moves"]) == 3
    assert body["game"]["opening"]["step"] == "choose"
    assert_consistent(game["id"])


def test_stop_with_no_search_running_says_so():
    game = create(APIClient(), "reversi").json()
    assert post(url("game-stop", game["id"])) == (200, {"stopped": False})


def test_an_undo_stops_the_search_it_made_useless():
    """An undo as the computer thought: its search ran on to its end, for a
    move that could no longer be written, and the computer's next search
    waited for it (a random walk against the computer: 10 s, not 5 s)."""
    slow_ai = {"kind": "ai", "think_time": 10.0}
    client = APIClient()
    game = create(client, "reversi", black=HUMAN, white=slow_ai).json()
    client.post(url("game-moves", game["id"]), {"move": "f5"}, format="json")
    thinker, answers = ai_move_in_a_thread(game["id"])
    time.sleep(1.0)
    undone = client.post(url("game-undo", game["id"]), {}, format="json")
    assert undone.status_code == 200 and undone.json()["moves"] == []
    thinker.join(timeout=30)
    code, body = answers["ai"]
    assert code == 409 and body["error"] == "conflict", body
    assert answers["seconds"] < 4  # far less than the 10 s think time
    assert Game.objects.get(pk=game["id"]).moves == []

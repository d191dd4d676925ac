"""Scale-out with real servers: two web processes (uvicorn) and two Celery
workers sharing Redis and PostgreSQL, as docs/deploy.md
sets them up. AI games go through both web processes, a stop sent
to the other process ends the search, two AI moves for one game through two
processes give one 200 and one 409, the limits hold across processes, and
every game's moves are all there.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import threading
import time

import pytest
import redis
from websockets.sync.client import connect

from mcts import find_game
from webgame import backends

from .servers import (
    app_env,
    asgi_server,
    free_port,
    migrate,
    postgres_url,  # noqa: F401 - fixture
    redis_url,  # noqa: F401 - fixture
    start,
    stop,
    venv_bin,
    wait_for_port,
)

pytestmark = pytest.mark.slow


def call(port, method, path, body=None, *, client="10.0.0.1", timeout=60):
    """Return (status, json body, headers) of one request as ``client``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"X-Forwarded-For": client, "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None, response
    finally:
        conn.close()


class Cluster(list):
    """The ports of the two web processes, and the two Celery workers behind."""

    def __init__(self, env, tmp) -> None:
        super().__init__()
        self.env, self.tmp, self.workers = env, tmp, []

    def start_workers(self) -> None:
        self.workers = [
            start(
                [
                    venv_bin("celery"), "-A", "webgame", "worker",
                    "--pool", "threads", "--concurrency", "1",
                    "--hostname", f"worker{n}@%h", "--loglevel", "INFO",
                    "--without-gossip", "--without-mingle",
                ],
                env=self.env,
                log=self.tmp / f"worker{n}.log",
            )
            for n in (1, 2)
        ]  # fmt: skip
        # Until both say they run, a search is refused (no AI worker).
        workers = redis.Redis.from_url(self.env["REDIS_URL"])
        deadline = time.monotonic() + 120
        while workers.zcount("webgame:workers", time.time(), "+inf") < 2:
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)

    def kill_workers(self) -> None:
        """Kill both workers at once, as the system's OOM killer would."""
        for worker in self.workers:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


@pytest.fixture(scope="module")
def webs(redis_url, postgres_url, tmp_path_factory):  # noqa: F811 - fixtures
    """Yield the ports of two web processes (a Cluster); two Celery workers
    run behind."""
    tmp = tmp_path_factory.mktemp("cluster")
    env = app_env(
        AI_BACKEND="celery",
        REDIS_URL=redis_url,
        DATABASE_URL=postgres_url,
        SECRET_KEY="scale-out-test-" + "k" * 40,
        AI_WORKERS="2",
        AI_CLIENT_PENDING="1",
        AI_MAX_PENDING="8",
        AI_THROTTLE_RATE="off",
        GAME_CREATE_RATE="off",
        NUM_PROXIES="1",
        STATIC_ROOT=str(tmp / "static"),
    )
    migrate(env)
    cluster, procs = Cluster(env, tmp), []
    try:
        cluster.start_workers()
        for n in (1, 2):
            port = free_port()
            proc = start(asgi_server(port), env=env, log=tmp / f"web{n}.log")
            procs.append(proc)
            cluster.append(port)
        for port, proc in zip(cluster, procs, strict=True):
            wait_for_port(port, proc, "uvicorn")
        yield cluster
    finally:
        for proc in procs + cluster.workers:
            stop(proc)
        for log in sorted(tmp.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text()[-3000:]}")


def new_game(port, black, white, client="10.0.0.1"):
    body = {"game": "gomoku", "options": {"size": 9, "row": 5}}
    body["players"] = {"black": black, "white": white}
    status, game, _ = call(port, "POST", "/api/games/", body, client=client)
    assert status == 201, game
    return game


def test_ai_games_through_both_web_processes(webs):
    ai = {"kind": "ai", "level": 1}
    game = new_game(webs[0], ai, ai)
    for ply in range(6):
        port = webs[ply % 2]
        status, body, _ = call(port, "POST", f"/api/games/{game['id']}/ai-move/", {})
        assert status == 200, body
        assert len(body["game"]["moves"]) == ply + 1
    seen = [call(port, "GET", f"/api/games/{game['id']}/")[1] for port in webs]
    assert seen[0]["moves"] == seen[1]["moves"] and len(seen[0]["moves"]) == 6
    find_game("gomoku", size=9, row=5).play_all(seen[0]["moves"])


def test_a_stop_sent_to_the_other_process_ends_the_search(webs):
    slow = {"kind": "ai", "think_time": 10.0}
    game = new_game(webs[0], slow, {"kind": "human"})
    answer = {}

    def think():
        started = time.monotonic()
        answer["reply"] = call(webs[0], "POST", f"/api/games/{game['id']}/ai-move/", {})
        answer["seconds"] = time.monotonic() - started

    thinker = threading.Thread(target=think)
    thinker.start()
    stopped, deadline = False, time.monotonic() + 8
    while not stopped and time.monotonic() < deadline:
        time.sleep(0.3)
        status, body, _ = call(
            webs[1], "POST", f"/api/games/{game['id']}/stop/", {}, client="10.0.0.9"
        )
        assert status == 200
        stopped = body["stopped"]
    thinker.join(timeout=30)
    assert stopped
    status, body, _ = answer["reply"]
    assert status == 200, body
    assert answer["seconds"] < 7  # well under the 10 s think time
    assert body["game"]["moves"] == [body["search"]["move"]]


def test_two_ai_moves_for_one_game_through_two_processes_give_200_and_409(webs):
    ai = {"kind": "ai", "think_time": 1.0}
    game = new_game(webs[0], ai, {"kind": "human"})
    barrier = threading.Barrier(2)
    replies = [None, None]

    def move(index):
        barrier.wait()
        replies[index] = call(
            webs[index],
            "POST",
            f"/api/games/{game['id']}/ai-move/",
            {},
            client=f"10.0.1.{index}",
        )

    threads = [threading.Thread(target=move, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(reply[0] for reply in replies) == [200, 409]
    status, stored, _ = call(webs[1], "GET", f"/api/games/{game['id']}/")
    assert len(stored["moves"]) == 1 and stored["version"] == 1


def test_the_limits_hold_across_processes(webs):
    human = {"kind": "human"}
    first, second = new_game(webs[0], human, human), new_game(webs[1], human, human)
    answer = {}

    def long_hint():
        answer["reply"] = call(
            webs[0],
            "POST",
            f"/api/games/{first['id']}/hint/",
            {"think_time": 2.0},
            client="10.0.2.1",
        )

    thinker = threading.Thread(target=long_hint)
    thinker.start()
    time.sleep(0.5)
    # The same client through the other process: its one place is taken.
    status, body, response = call(
        webs[1],
        "POST",
        f"/api/games/{second['id']}/hint/",
        {"think_time": 0.1},
        client="10.0.2.1",
    )
    assert status == 503 and body["error"] == "busy"
    assert int(response.getheader("Retry-After")) >= 1
    # Another client is served.
    status, body, _ = call(
        webs[1],
        "POST",
        f"/api/games/{second['id']}/hint/",
        {"think_time": 0.1},
        client="10.0.2.2",
    )
    assert status == 200, body
    thinker.join(timeout=30)
    assert answer["reply"][0] == 200


def test_an_ai_move_of_more_than_five_seconds_is_answered(webs):
    # redis-py 8 gave up reading after 5 s: the web process's wait for the
    # worker's answer ended in a 500 while the worker went on thinking.
    slow = {"kind": "ai", "think_time": 6.0}
    game = new_game(webs[0], slow, {"kind": "human"}, client="10.0.3.1")
    started = time.monotonic()
    status, body, _ = call(
        webs[1], "POST", f"/api/games/{game['id']}/ai-move/", {}, client="10.0.3.1"
    )
    assert status == 200, body
    assert time.monotonic() - started >= 6
    assert body["game"]["moves"] == [body["search"]["move"]]


def test_the_computer_s_move_nobody_asked_for_is_played_once(webs):
    """The flag watchers of both processes ask for the move no page asked
    for while the computer's clock runs: one plays it."""
    human, ai = {"kind": "human"}, {"kind": "ai", "think_time": 0.2}
    body = {"game": "gomoku", "options": {"size": 9, "row": 5}}
    body |= {"players": {"black": human, "white": ai}}
    body["clock"] = {"initial": 60, "increment": 0}
    status, game, _ = call(webs[0], "POST", "/api/games/", body, client="10.0.4.1")
    assert status == 201, game
    moves = f"/api/games/{game['id']}/moves/"
    call(webs[0], "POST", moves, {"move": "e5"}, client="10.0.4.1")
    status, answer, _ = call(
        webs[1], "POST", f"/api/games/{game['id']}/ai-move/", {}, client="10.0.4.1"
    )
    assert status == 200, answer
    status, after, _ = call(webs[0], "POST", moves, {"move": "a1"}, client="10.0.4.1")
    assert after["clock"]["running"] == "white"
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        now = call(webs[1], "GET", f"/api/games/{game['id']}/")[1]
        if len(now["moves"]) > 3:
            break
        time.sleep(0.2)
    assert len(now["moves"]) == 4 and now["to_move"] == "black"
    time.sleep(1.5)  # no second move played by the other process
    assert len(call(webs[0], "GET", f"/api/games/{game['id']}/")[1]["moves"]) == 4


def test_a_quiet_live_socket_stays_open_and_hears_the_other_process(webs):
    # With redis-py 8, the channel layer's 5 s blocking read dropped every
    # socket every 5-6 s (and logged a traceback each time).
    human = {"kind": "human"}
    game = new_game(webs[0], human, human, client="10.0.3.2")
    origin = f"http://127.0.0.1:{webs[1]}"
    with connect(
        f"ws://127.0.0.1:{webs[1]}/ws/games/{game['id']}/",
        origin=origin,
        additional_headers={"X-Forwarded-For": "10.0.3.2"},
    ) as socket:
        socket.send(json.dumps({"type": "hello", "token": None, "version": 0}))
        heard = []
        quiet_until = time.monotonic() + 8
        while time.monotonic() < quiet_until:
            try:
                heard.append(
                    json.loads(socket.recv(timeout=quiet_until - time.monotonic()))
                )
            except TimeoutError:
                break
        status, _, _ = call(
            webs[0],
            "POST",
            f"/api/games/{game['id']}/moves/",
            {"move": "e5", "version": 0},
            client="10.0.3.2",
        )
        assert status == 200
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            message = json.loads(socket.recv(timeout=deadline - time.monotonic()))
            if message["type"] == "game" and message["game"]["moves"] == ["e5"]:
                break
        else:
            raise AssertionError(f"the move did not reach the socket; heard {heard}")


def test_a_worker_killed_on_a_search_is_a_503_in_seconds_and_frees_the_game(webs):
    # The web process waited out the search's whole time and ten minutes
    # more, holding the game's slot and the client's place.
    slow = {"kind": "ai", "think_time": 10.0}
    game = new_game(webs[0], slow, {"kind": "human"}, client="10.0.4.1")
    path = f"/api/games/{game['id']}/ai-move/"
    answer = {}

    def think():
        started = time.monotonic()
        answer["reply"] = call(webs[0], "POST", path, {}, client="10.0.4.1")
        answer["seconds"] = time.monotonic() - started

    thinker = threading.Thread(target=think)
    thinker.start()
    time.sleep(2.5)
    try:
        webs.kill_workers()
        killed = time.monotonic()
        thinker.join(timeout=30)
        status, body, _ = answer["reply"]
        assert status == 503 and body["error"] == "ai_unavailable", body
        assert answer["seconds"] < 10  # not the 10 s think time, nor 600 s more
        # Once no worker says it runs, a search is refused at once, not queued
        # for nobody.
        time.sleep(max(0.0, killed + backends.WORKER_SECONDS + 1 - time.monotonic()))
        asked = time.monotonic()
        status, body, _ = call(webs[1], "POST", path, {}, client="10.0.4.1")
        assert status == 503 and "no AI worker is running" in body["detail"], body
        assert time.monotonic() - asked < 2
    finally:
        webs.start_workers()
    # The game's slot and the client's place are free: its players can change
    # (to a short think, not to wait out 10 s more) and the AI moves.
    quick = {"players": {"black": {"kind": "ai", "think_time": 0.1}}}
    status, body, _ = call(
        webs[1], "PATCH", f"/api/games/{game['id']}/", quick, client="10.0.4.1"
    )
    assert status == 200, body
    status, body, _ = call(webs[1], "POST", path, {}, client="10.0.4.1", timeout=120)
    assert status == 200, body

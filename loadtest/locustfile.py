"""The load test: simulated players against a running server, with Locust.

Start the server, each client named by its X-Forwarded-For, then run Locust::

    NUM_PROXIES=1 make run PORT=8765
    make loadtest            # 50 players for 30 s
    make loadtest HOG=4      # and one client keeping 4 games' 10 s hints going

``make loadtest`` runs ``locust -f loadtest/locustfile.py --headless
--only-summary -u 50 -r 25 -t 30s --hog 0 --host http://127.0.0.1:8765``;
``HOG=4`` makes it ``-u 54 ... --hog 4``.

A ``Player`` plays like a person at the board: starts a game against the AI,
looks at the board, thinks (``--pause``), plays a random legal move and asks
the AI to reply, now and then asks for a hint or takes a move back, reads the
record when the game ends and starts another. The ``Hog`` users are one client
(one address) keeping ``--hog`` games' long hints going; ``--hog`` sets their
``fixed_count``, so ``-u`` counts them too.

Request names keep the figures apart: AI requests (ai-move, hint) start with
``AI``, the hog's with ``hog``, and an AI request answered 503 or 429 with
Retry-After is reported as ``... deferred 503`` (not a failure): the user
waits and asks again, as the page does. Any other 4xx/5xx is an error. At the
end Locust's tables are followed by a short summary (``summary``).

Locust runs in its own process (gevent patches the standard library):
nothing in the Django server or the test suite imports this file.
"""

from __future__ import annotations

import itertools
import random
import time

from locust import FastHttpUser, constant, events, task
from locust.exception import StopUser
from locust.stats import StatsEntry

#: The games the players start, as the old command chose them.
GAMES: tuple[tuple[str, dict[str, int]], ...] = (
    ("reversi", {}),
    ("gomoku", {"size": 9, "row": 5}),
    ("gomoku", {}),
    ("loa", {}),
)
#: The players play black; the AI replies as white.
AI_SIDE = "white"
#: One address a player: each is a client of its own to the server's fair AI
#: sharing and throttles (it trusts one proxy, NUM_PROXIES=1).
ADDRESSES = (f"10.{n // 250}.{n % 250}.1" for n in itertools.count())
#: All the hog's games come from this one client.
HOG_ADDRESS = "10.255.255.1"
GAME = "/api/games/{id}/"


@events.init_command_line_parser.add_listener
def _options(parser) -> None:
    parser.add_argument(
        "--ai-level", type=int, default=1, help="the players' AI level (default 1)"
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=1.0,
        help="mean seconds a player thinks between turns (default 1)",
    )
    parser.add_argument(
        "--hog",
        type=int,
        default=0,
        metavar="GAMES",
        help="hog users: one client keeping this many games' hints going "
        "(the issue's starvation: 4); they count in -u",
    )
    parser.add_argument(
        "--hog-think",
        type=float,
        default=10.0,
        help="think time of the hog's hints (default 10 s)",
    )


class Client(FastHttpUser):
    """What players and the hog share: their requests, and waiting out a
    deferred AI request."""

    abstract = True
    # Never a remote server by default; --host overrides.
    host = "http://127.0.0.1:8765"

    def call(self, method: str, path: str, name: str, body=None) -> dict | None:
        """Return the answer's JSON, or None if it failed (Locust counts it)."""
        response = self.client.request(method, path, name=name, json=body)
        return _json(response)

    def ai(self, path: str, name: str, body: dict) -> dict | None:
        """Return the AI request's answer once served, or None if it failed.

        503/429 with Retry-After is reported as ``<name> deferred <status>``
        and asked again after Retry-After (at least 1 s), as the page does.
        A request sent on a kept-alive connection that the server closed
        while the client waited (no answer at all) is sent again once, on a
        new connection, and reported as ``<name> reconnect``.
        """
        resent = False
        while True:
            with self.client.post(
                path, json=body, name=name, catch_response=True
            ) as response:
                status = response.status_code
                if status == 0 and not resent:
                    response.request_meta["name"] = f"{name} reconnect"
                    response.success()
                    resent = True
                    continue
                if status not in (429, 503):
                    return _json(response)
                response.request_meta["name"] = f"{name} deferred {status}"
                response.success()
                wait = float(response.headers.get("Retry-After") or 1)
            resent = False
            time.sleep(max(1.0, wait))  # gevent's sleep: Locust patched time


class Player(Client):
    """A person playing the AI: each task is one turn, after a think."""

    def __init__(self, environment) -> None:
        self.default_headers = {"X-Forwarded-For": next(ADDRESSES)}
        super().__init__(environment)
        self.game: dict | None = None

    def wait_time(self) -> float:
        pause = self.environment.parsed_options.pause
        return random.uniform(0.5 * pause, 1.5 * pause)

    def path(self, tail: str = "") -> str:
        assert self.game is not None
        return GAME.format(id=self.game["id"]) + tail

    def look(self) -> dict | None:
        """Return the game in play with the player to move: the board as the
        server has it, or a new game if there is none; None after a failure."""
        if self.game is None:
            name, options = random.choice(GAMES)
            ai = {"kind": "ai", "level": self.environment.parsed_options.ai_level}
            body = {
                "game": name,
                "options": options,
                "players": {"black": {"kind": "human"}, AI_SIDE: ai},
            }
            self.game = self.call("POST", "/api/games/", "/api/games/", body)
        else:
            self.game = self.call("GET", self.path(), GAME)
        self.reply()
        return self.game

    def reply(self) -> None:
        """Let the AI move while it is its turn (the page asks at once); once
        the game is over, read its record and forget it."""
        while self.game and self.game["status"] == "playing":
            if self.game["to_move"] != AI_SIDE:
                return
            answer = self.ai(self.path("ai-move/"), "AI " + GAME + "ai-move/", {})
            self.game = answer["game"] if answer else None
        if self.game is not None:
            self.call("GET", self.path("record/"), GAME + "record/")
            self.game = None

    @task(18)
    def move(self) -> None:
        if game := self.look():
            move = {"move": random.choice(game["legal_moves"])}
            self.game = self.call("POST", self.path("moves/"), GAME + "moves/", move)
            self.reply()

    @task(1)
    def hint(self) -> None:
        if self.look():
            self.ai(self.path("hint/"), "AI " + GAME + "hint/", {"level": 1})

    @task(1)
    def take_back(self) -> None:
        if (game := self.look()) and game["moves"]:
            self.game = self.call("POST", self.path("undo/"), GAME + "undo/", {})


class Hog(Client):
    """One of the hog's games: long hints back to back, all the hog's games
    from one address (``--hog`` of them; none without it)."""

    weight = 0  # --hog sets fixed_count
    default_headers = {"X-Forwarded-For": HOG_ADDRESS}
    wait_time = constant(0)

    def on_start(self) -> None:
        body = {"game": "gomoku", "players": {}}
        game = self.call("POST", "/api/games/", "hog /api/games/", body)
        if game is None:
            raise StopUser()  # the failure is in the report
        self.hints = GAME.format(id=game["id"]) + "hint/"

    @task
    def long_hint(self) -> None:
        think = self.environment.parsed_options.hog_think
        self.ai(self.hints, "hog " + GAME + "hint/", {"think_time": think})


@events.init.add_listener
def _setup(environment, **_kwargs) -> None:
    options = environment.parsed_options
    if options.hog > 0 and Hog not in environment.user_classes:
        # Locust dropped the class (weight 0) before reading the options.
        Hog.fixed_count = options.hog
        environment.user_classes.append(Hog)

    def report(**_kwargs) -> None:
        print(summary(environment), flush=True)

    environment.events.quit.add_listener(report)


def summary(environment) -> str:
    """Return the closing lines: the players' requests/s, their non-AI and AI
    p50/p99 (ms; Locust's histogram rounds to whole ms, and above 100 ms to
    two digits), deferred AI requests, errors (failures and exceptions, all
    users) and what the hog got."""
    stats, options = environment.stats, environment.parsed_options

    def merged(wanted) -> StatsEntry:
        entry = StatsEntry(stats, "", "")
        for row in stats.entries.values():
            if wanted(row.name):
                entry.extend(row)
        return entry

    def latency(entry: StatsEntry) -> str:
        p50, p99 = (entry.get_response_time_percentile(p) for p in (0.5, 0.99))
        return f"p50 {p50} ms, p99 {p99} ms, max {entry.max_response_time:.0f} ms"

    players = merged(lambda name: not name.startswith("hog "))
    plain = merged(lambda name: not name.startswith(("hog ", "AI ")))
    ai = merged(lambda name: name.startswith("AI ") and "deferred" not in name)
    deferred = merged(lambda name: name.startswith("AI ") and "deferred" in name)
    finished = merged(lambda name: name == GAME + "record/")
    errors = stats.total.num_failures + sum(
        error["count"] for error in environment.runner.exceptions.values()
    )
    lines = [
        f"Summary (players, AI level {options.ai_level}, pause {options.pause:g} s)",
        f"  requests/s {players.total_rps:.1f} ({players.num_requests} requests; "
        f"games finished {finished.num_requests})",
        f"  non-AI {latency(plain)} ({plain.num_requests})",
        f"  AI {latency(ai)} ({ai.num_requests} served)",
        f"  deferred {deferred.num_requests} (503/429 + Retry-After, retried)",
        f"  errors {errors}",
    ]
    if options.hog:
        hints = merged(lambda name: name == "hog " + GAME + "hint/")
        waited = merged(lambda name: name.startswith("hog " + GAME + "hint/ defer"))
        lines.append(
            f"  hog: {options.hog} games x {options.hog_think:g} s hints: "
            f"{hints.num_requests} served, {waited.num_requests} deferred"
        )
    return "\n".join(lines)


def _json(response) -> dict | None:
    """Return the answer's JSON, or None when there was none: an error
    status, or no answer at all (status 0: the connection failed, which
    Locust counts as a failure)."""
    if not response.status_code or not response.ok or not response.text:
        return None
    return response.json()

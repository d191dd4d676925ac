"""``python manage.py loadtest``: simulated players against a local server.

N clients play games through the HTTP API for S seconds, like people at the
board: each starts a game against the AI, looks at the board, thinks for a
while, moves, asks the AI to reply, now and then asks for a hint, takes a
move back or reads the record, and starts a new game when one ends.

By default the command starts its own threaded WSGI server in a child
process (so the clients' Python threads do not share a GIL with the server)
on 127.0.0.1 with a throw-away SQLite database; ``--url`` points it at a
server you started instead (loopback addresses only). The AI throttle is
switched off in its own server, since all clients share one address.

It prints requests per second, the p50/p99 latency of the non-AI requests
(which must stay fast while searches run), the AI requests' latency, how many
AI requests were deferred with 503 + Retry-After (the clients wait and
retry, as the page does), and the error count (any other 4xx/5xx or a failed
connection).

One module on purpose (about 500 lines): the command starts its own server,
plays the simulated clients and reports, and nothing else uses its parts.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError
from django.test import Client as TestClient

from webgame.models import Game

MAX_CLIENTS = 200
MAX_SECONDS = 600
#: Set in the environment of the child server process (and only there).
SERVER_MARK = "WEBGAME_LOADTEST_SERVER"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
AI_PATHS = ("ai-move/", "hint/")
GAMES: tuple[tuple[str, dict[str, int]], ...] = (
    ("reversi", {}),
    ("gomoku", {"size": 9, "row": 5}),
    ("gomoku", {}),
    ("loa", {}),
)


@dataclass
class Tally:
    """What the clients saw, merged under a lock."""

    plain: list[float] = field(default_factory=list)
    ai: list[float] = field(default_factory=list)
    busy: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    games_finished: int = 0
    by_endpoint: dict = field(default_factory=dict)
    #: The hog's own tally (``--hog``), kept apart from the players'.
    hog: Tally | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, path: str, seconds: float, status: int, body: bytes) -> None:
        """Count one response."""
        with self.lock:
            if status == 503:
                self.busy += 1
            if status >= 400 and status != 503:
                self.errors += 1
                if len(self.error_samples) < 5:
                    self.error_samples.append(f"{status} {path} {body[:200]!r}")
            if status == 503:
                return
            (self.ai if path.endswith(AI_PATHS) else self.plain).append(seconds)
            endpoint = _endpoint(path)
            self.by_endpoint.setdefault(endpoint, []).append(seconds)

    def failed(self, what: str) -> None:
        """Count a request that got no response at all."""
        with self.lock:
            self.errors += 1
            if len(self.error_samples) < 5:
                self.error_samples.append(what)


def _endpoint(path: str) -> str:
    """Return the path with the game id replaced by ``{id}``."""
    parts = path.split("/")
    if len(parts) > 3 and len(parts[3]) == 36:
        parts[3] = "{id}"
    return "/".join(parts)


def percentile(values: list[float], fraction: float) -> float:
    """Return the ``fraction`` quantile of ``values`` (nearest rank), 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * len(ordered))) - 1))
    return ordered[index]


class Client:
    """One simulated player with its own keep-alive connection."""

    def __init__(self, host, port, tally, deadline, rng, ai, pause, address):
        self.host, self.port = host, port
        # Each player is its own client to the server's fair AI sharing: the
        # server trusts one proxy (NUM_PROXIES=1) and reads this address.
        self.address = address
        self.tally = tally
        self.deadline = deadline
        self.rng = rng
        self.ai = ai
        self.pause = pause
        self.ramp_up = min(2.0, (deadline - time.monotonic()) / 4)
        self.conn = None

    def request(self, method: str, path: str, body=None):
        """Return (status, json or None); 503 is retried after Retry-After."""
        while True:
            data = None if body is None else json.dumps(body).encode()
            headers = {"X-Forwarded-For": self.address}
            if data:
                headers["Content-Type"] = "application/json"
            started = time.perf_counter()
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(
                        self.host, self.port, timeout=120
                    )
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException) as exc:
                self.conn = None
                self.tally.failed(f"{method} {path}: {exc!r}")
                return 0, None
            elapsed = time.perf_counter() - started
            self.tally.record(path, elapsed, response.status, raw)
            if response.will_close:
                self.conn.close()
                self.conn = None
            if response.status == 503 and time.monotonic() < self.deadline:
                wait = float(response.getheader("Retry-After") or 1)
                time.sleep(min(wait, 1.0) * self.rng.uniform(0.5, 1.0))
                continue
            try:
                return response.status, json.loads(raw) if raw else None
            except ValueError:
                self.tally.failed(f"{method} {path}: body is not JSON")
                return response.status, None

    def think(self) -> None:
        time.sleep(self.pause * self.rng.uniform(0.5, 1.5))

    def run(self) -> None:
        """Play games until the deadline, after arriving at a random moment
        of the ramp-up (people do not all press "new game" in the same
        millisecond)."""
        time.sleep(self.rng.uniform(0, self.ramp_up))
        try:
            while time.monotonic() < self.deadline:
                self.play_one_game()
        finally:
            if self.conn is not None:
                self.conn.close()

    def play_one_game(self) -> None:
        name, options = self.rng.choice(GAMES)
        body = {
            "game": name,
            "options": options,
            "players": {"black": {"kind": "human"}, "white": self.ai},
        }
        status, game = self.request("POST", "/api/games/", body)
        if status != 201:
            self.think()
            return
        base = f"/api/games/{game['id']}/"
        while time.monotonic() < self.deadline and game["status"] == "playing":
            if game["to_move"] == "white":
                # The page asks for the AI's reply as soon as the human moved.
                status, reply = self.request("POST", base + "ai-move/", {})
                if status != 200:
                    return
                game = reply["game"]
                continue
            self.think()
            status, game = self.request("GET", base)
            if status != 200 or game["status"] != "playing":
                break
            roll = self.rng.random()
            if roll < 0.05:
                self.request("POST", base + "hint/", {"level": 1})
            elif roll < 0.10 and game["moves"]:
                status, game = self.request("POST", base + "undo/", {})
                if status != 200:
                    return
                continue
            move = self.rng.choice(game["legal_moves"])
            status, game = self.request("POST", base + "moves/", {"move": move})
            if status != 200:
                return
        if game and game["status"] == "finished":
            with self.tally.lock:
                self.tally.games_finished += 1
            self.request("GET", base + "record/")


#: The address of the ``--hog`` client (all its connections share it).
HOG = "10.255.255.1"


class Hog(Client):
    """One game of the hog client: long hints, one after the other, from the
    start to the deadline (503s are retried after Retry-After, as the page
    does)."""

    think_time = 10.0

    def run(self) -> None:
        try:
            body = {"game": "gomoku", "players": {}}
            status, game = self.request("POST", "/api/games/", body)
            if status != 201:
                return
            path = f"/api/games/{game['id']}/hint/"
            while time.monotonic() < self.deadline:
                self.request("POST", path, {"think_time": self.think_time})
        finally:
            if self.conn is not None:
                self.conn.close()


class Command(BaseCommand):
    help = (
        "Run N simulated players against a local server for S seconds and print "
        "requests/s, non-AI latency percentiles and the error count."
    )

    def add_arguments(self, parser):
        parser.add_argument("--clients", type=int, default=50)
        parser.add_argument("--seconds", type=float, default=20.0)
        parser.add_argument(
            "--pause",
            type=float,
            default=1.0,
            help="mean seconds a player thinks before each request (default 1)",
        )
        parser.add_argument(
            "--ai-level", type=int, default=1, help="the AI's level (default 1)"
        )
        parser.add_argument(
            "--think-time",
            type=float,
            default=None,
            help="the AI's think time in seconds (instead of --ai-level)",
        )
        parser.add_argument(
            "--url",
            default=None,
            help="a running server on loopback, e.g. http://127.0.0.1:8000; "
            "by default the command starts its own",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--hog",
            type=int,
            default=0,
            metavar="GAMES",
            help="one more client keeps this many games' hints going at once "
            "(the issue's starvation: 4); the report shows whether the other "
            "clients' AI requests still got through",
        )
        parser.add_argument(
            "--hog-think",
            type=float,
            default=10.0,
            help="the think time of the hog's hints (default 10 s)",
        )
        # Internal: the child process that serves.
        parser.add_argument("--serve", action="store_true", help="(internal)")
        parser.add_argument("--port", type=int, default=0, help="(internal)")

    def handle(self, *args, **opts):
        self.verbosity = opts["verbosity"]
        if opts["serve"]:
            if os.environ.get(SERVER_MARK) != "1":
                raise CommandError("--serve is internal: run loadtest without it")
            return serve(opts["port"])
        clients, seconds = opts["clients"], opts["seconds"]
        if not 1 <= clients <= MAX_CLIENTS:
            raise CommandError(f"--clients must be 1..{MAX_CLIENTS}")
        if not 0 < seconds <= MAX_SECONDS:
            raise CommandError(f"--seconds must be in (0, {MAX_SECONDS}]")
        ai = (
            {"kind": "ai", "think_time": opts["think_time"]}
            if opts["think_time"] is not None
            else {"kind": "ai", "level": opts["ai_level"]}
        )
        if opts["url"]:
            parts = urlsplit(opts["url"])
            if parts.hostname not in LOOPBACK:
                raise CommandError("--url must be a loopback address")
            tally = run_clients(
                parts.hostname, parts.port or 80, clients, seconds, ai, opts
            )
        else:
            with local_server() as port:
                tally = run_clients("127.0.0.1", port, clients, seconds, ai, opts)
        self.report(tally, clients, seconds, ai)
        if opts["hog"]:
            self.report_hog(tally.hog, opts)

    def report_hog(self, hog: Tally, opts) -> None:
        """Print what the hog got: its hints done and refused."""
        self.stdout.write(
            f"\nhog: {opts['hog']} games x {opts['hog_think']:g} s hints: "
            f"{len(hog.ai)} done, {hog.busy} refused with 503 (the others' "
            "AI latency and deferred count are above)"
        )

    def report(self, tally: Tally, clients: int, seconds: float, ai: dict) -> None:
        total = len(tally.plain) + len(tally.ai) + tally.busy + tally.errors
        ms = 1000.0
        budget = (
            f"think_time {ai['think_time']} s"
            if "think_time" in ai
            else f"level {ai['level']}"
        )
        lines = [
            f"clients {clients}, {seconds:g} s, AI {budget}",
            f"requests {total} ({total / seconds:.1f}/s): non-AI "
            f"{len(tally.plain)}, AI {len(tally.ai)} done + {tally.busy} deferred; "
            f"games finished {tally.games_finished}",
            f"non-AI latency p50 {percentile(tally.plain, 0.5) * ms:.1f} ms, "
            f"p99 {percentile(tally.plain, 0.99) * ms:.1f} ms, "
            f"max {max(tally.plain, default=0) * ms:.1f} ms",
            f"AI latency (done) p50 {percentile(tally.ai, 0.5) * ms:.1f} ms, "
            f"p99 {percentile(tally.ai, 0.99) * ms:.1f} ms, "
            f"max {max(tally.ai, default=0) * ms:.1f} ms",
            f"deferred (503 + Retry-After, retried) {tally.busy}",
            f"errors {tally.errors}",
        ]
        lines += [f"  e.g. {sample}" for sample in tally.error_samples]
        if self.verbosity > 1:
            for endpoint, times in sorted(tally.by_endpoint.items()):
                lines.append(
                    f"  {endpoint:32} n {len(times):5}  p50 "
                    f"{percentile(times, 0.5) * ms:7.1f} ms  p99 "
                    f"{percentile(times, 0.99) * ms:7.1f} ms"
                )
        self.stdout.write("\n".join(lines))


def run_clients(host, port, clients, seconds, ai, opts) -> Tally:
    """Return the tally of ``clients`` players running for ``seconds``."""
    tally = Tally()
    deadline = time.monotonic() + seconds
    master = random.Random(opts["seed"])
    players = [
        Client(
            host,
            port,
            tally,
            deadline,
            random.Random(master.random()),
            ai,
            opts["pause"],
            f"10.{index // 250}.{index % 250}.1",
        )
        for index in range(clients)
    ]
    if opts.get("hog"):
        tally.hog = Tally()
        hogs = [
            Hog(host, port, tally.hog, deadline, random.Random(index), ai, 0, HOG)
            for index in range(opts["hog"])
        ]
        for hog in hogs:
            hog.think_time = opts["hog_think"]
        players += hogs
    threads = [threading.Thread(target=p.run, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        # A request started just before the deadline may still be running.
        thread.join(timeout=max(1.0, deadline - time.monotonic()) + 130)
    return tally


class local_server:
    """Context manager: a child process serving the app on 127.0.0.1 with a
    temporary SQLite database; yields its port and stops it on exit."""

    def __enter__(self) -> int:
        self.tmp = tempfile.TemporaryDirectory(prefix="loadtest-")
        env = dict(os.environ)
        env.update(
            DATABASE_URL=f"sqlite:///{Path(self.tmp.name) / 'load.sqlite3'}",
            AI_THROTTLE_RATE="off",
            GAME_CREATE_RATE="off",
            # The simulated players name themselves in X-Forwarded-For, each
            # a client of its own to the fair AI sharing.
            NUM_PROXIES="1",
            DEBUG="0",
            SECRET_KEY=secrets.token_urlsafe(50),
            SECURE_SSL_REDIRECT="0",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            **{SERVER_MARK: "1"},
        )
        manage = Path(__file__).resolve().parents[3] / "manage.py"
        self.proc = subprocess.Popen(
            [sys.executable, str(manage), "loadtest", "--serve"],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None  # opened with stdout=PIPE
        line = self.proc.stdout.readline()
        if not line.startswith("ready "):
            self.proc.kill()
            self.tmp.cleanup()
            raise CommandError("the load-test server did not start")
        return int(line.split()[1])

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.tmp.cleanup()


def warm_up() -> None:
    """Play a move and an AI reply in each game once, in-process, so that the
    first measured requests do not pay for imports and loading compiled
    kernels; the warm-up games are deleted."""
    client = TestClient(HTTP_HOST="127.0.0.1")
    made = []
    for name, options in GAMES:
        body = {
            "game": name,
            "options": options,
            "players": {"white": {"kind": "ai", "level": 1}},
        }
        game = client.post("/api/games/", body, content_type="application/json")
        game = game.json()
        made.append(game["id"])
        move = {"move": game["legal_moves"][0]}
        base = f"/api/games/{game['id']}/"
        client.post(base + "moves/", move, content_type="application/json")
        client.post(base + "ai-move/", {}, content_type="application/json")
        client.get(base + "record/")
    Game.objects.filter(pk__in=made).delete()


def serve(port: int) -> None:
    """Migrate the (temporary) database, then serve the app on 127.0.0.1 with
    one thread per connection until terminated; print ``ready <port>`` once
    listening."""
    import warnings

    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    # WhiteNoise warns that STATIC_ROOT was never collected: no static files
    # are asked for here.
    warnings.filterwarnings("ignore", message="No directory at")
    call_command("migrate", interactive=False, verbosity=0)
    warm_up()

    class QuietHandler(WSGIRequestHandler):
        # The handler writes headers and body separately; with Nagle's
        # algorithm on, the body then waits ~40 ms for the client's delayed
        # ACK on every keep-alive response.
        disable_nagle_algorithm = True

        def log_message(self, format, *args):  # noqa: A002 - the base's name
            pass

    class Server(ThreadedWSGIServer):
        # socketserver's default backlog of 5 resets connections when 50
        # clients connect at once.
        request_queue_size = 256

    server = Server(("127.0.0.1", port), QuietHandler)
    server.set_app(get_wsgi_application())
    print(f"ready {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()

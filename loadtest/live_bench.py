"""Live games' updates over WebSockets, timed: ``make bench-live``.

It starts a server of its own (``make run`` in this checkout, in a temporary
folder's database, static files and key, with ``LIVE_SOCKETS_PER_CLIENT=1000``
and no throttles) or uses a running one (``--url``), and in each run, in
fresh games:

- one "show" game between two friends (both seats joined) is watched by
  ``--spectators`` sockets (200) and gets ``--show-moves`` moves (20);
- ``--pairs`` more friends' games (20) each have their two players' sockets
  open (each says ``hello`` with its seat's token) and play ``--moves`` moves
  (10), all at once, a random legal move every ``--pause`` seconds (0.3).

The moves start once every socket has its game's snapshot, the players are
seated and no socket has received anything for half a second: who is
connected goes to every socket on the game (``presence``: at once when a
player arrives, at most twice a second for watchers), and the moves are
timed after that has settled (the run says how long it took, and how many
presence messages the spectators received). A server
started here is first given its AI's warm-up (up to 3 minutes), whose
compiling would share the cores with the runs.

Every move is a ``POST /api/games/<id>/moves/`` with the token of the side to
move. Its latency to a socket is the time from just before the request is
sent to the moment that socket receives the snapshot of the version the move
wrote (the bench's own event loop included: it timestamps a message before
parsing it). Each socket also checks its versions: after the snapshot on
connect, each must be the previous one + 1; a jump counts the versions
skipped as lost, a repeat or a step back as duplicated, and a socket that
ends the run behind its game's last version (or closed early) counts the
missing versions as lost.

It prints each run's sockets, deliveries measured, latency p50/p90/p99/max in
ms, lost and duplicated updates, then the median of the runs' p99, and the
server's log lines that look wrong (errors, 5xx, refused sockets). It exits 1
if any update was lost or duplicated, or if a move, a socket or the server
failed (2 if the server could not be started or reached).

    python loadtest/live_bench.py [--venv .venv] [--runs 3] [--spectators 200]
                                  [--pairs 20] [--moves 10] [--show-moves 20]
                                  [--pause 0.3] [--seed 1] [--server-log FILE]
    python loadtest/live_bench.py --url http://127.0.0.1:8000   # running server

A running server must allow the sockets from one address:
``LIVE_SOCKETS_PER_CLIENT=1000 make run``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from first_start import ROOT, free_port, make_run
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

#: A friends' Gomoku game with a Fischer clock, the creator seated as black.
NEW_GAME = {
    "game": "gomoku",
    "friend": {"side": "black"},
    "clock": {"initial": 600, "increment": 5},
}
#: Sockets opening at once (the rest wait their turn).
CONNECTING = 20
#: Seconds to wait for the server, for the AI's warm-up, for every socket to
#: reach its game's last version after the moves.
SERVER_WAIT = 300
WARM_WAIT = 180
SETTLE_WAIT = 15
#: The silence on every socket, in seconds, that says the arrivals' presence
#: messages are all delivered: the moves start then.
QUIET = 0.5
#: Server log lines worth showing.
SUSPECT = re.compile(
    r"\bERROR\b|\bCRITICAL\b|Traceback|database is locked|"
    r'" 5\d\d\b|WebSocket .*\b403\b|connection rejected|\[Errno'
)


class Http:
    """JSON over HTTP to the server under test (one connection a request)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.origin = f"http://{self.host}:{self.port}"
        self.ws_base = f"ws://{self.host}:{self.port}"

    def call(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        token: str | None = None,
        timeout: float = 60,
    ) -> tuple[int, dict | None, float]:
        """Return the status, the JSON answer (or None) and the
        ``time.perf_counter()`` just before the request was sent (after the
        connection was made)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.connect()
            headers = {}
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            if token is not None:
                headers["X-Seat-Token"] = token
            sent = time.perf_counter()
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read()
            is_json = "json" in (response.getheader("Content-Type") or "")
            return response.status, (json.loads(text) if is_json else None), sent
        finally:
            conn.close()


@dataclass
class Game:
    """A friends' game of the run: its seats, its moves' send times."""

    snapshot: dict
    tokens: dict[str, str]
    #: The send time of the move that wrote each version.
    sent: dict[int, float] = field(default_factory=dict)
    #: The round trip of each move's request, in seconds.
    round_trips: list[float] = field(default_factory=list)
    final: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        """Return the game's id."""
        return self.snapshot["id"]


@dataclass
class Watcher:
    """One socket on one game: what it received, and when."""

    game: Game
    token: str | None = None
    first: int | None = None
    last: int | None = None
    received: dict[int, float] = field(default_factory=dict)
    lost: int = 0
    duplicated: int = 0
    closed: str | None = None
    #: Presence messages received, and when the last message of any kind was.
    presence: int = 0
    heard: float = 0.0
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    seated: asyncio.Event = field(default_factory=asyncio.Event)

    def see(self, version: int, at: float) -> None:
        """Count a received game version against the previous one."""
        if self.last is None:
            self.first = self.last = version
            self.opened.set()
            return
        if version <= self.last:
            self.duplicated += 1
            return
        self.lost += version - self.last - 1
        self.last = version
        self.received[version] = at


async def new_game(http: Http) -> Game:
    """Return a new friends' game with both seats taken."""
    status, body, _ = await asyncio.to_thread(
        http.call, "POST", "/api/games/", NEW_GAME
    )
    if status != 201 or body is None:
        raise RuntimeError(f"creating a game answered {status}: {body}")
    tokens = {body["seat"]["side"]: body["seat"]["token"]}
    path = f"/api/games/{body['id']}/join/"
    status, joined, _ = await asyncio.to_thread(
        http.call, "POST", path, {"invite": body["invite"]}
    )
    if status != 200 or joined is None:
        raise RuntimeError(f"joining game {body['id']} answered {status}: {joined}")
    tokens[joined["seat"]["side"]] = joined["seat"]["token"]
    return Game(snapshot=joined, tokens=tokens)


async def watch(
    http: Http, watcher: Watcher, gate: asyncio.Semaphore, stop: asyncio.Event
) -> None:
    """Hold one socket on the watcher's game until ``stop``, recording what it
    receives; a player's socket says hello with its token."""
    uri = f"{http.ws_base}/ws/games/{watcher.game.id}/"
    try:
        async with gate:
            socket = await connect(uri, origin=Origin(http.origin), open_timeout=60)
    except (OSError, InvalidHandshake, TimeoutError) as error:
        watcher.closed = f"handshake failed: {error!r}"
        watcher.opened.set()
        watcher.seated.set()
        return
    reader = asyncio.create_task(_read(socket, watcher))
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([reader, stopping], return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    reader.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await reader
    await socket.close()


async def _read(socket: ClientConnection, watcher: Watcher) -> None:
    try:
        async for text in socket:
            at = watcher.heard = time.perf_counter()
            message = json.loads(text)
            kind = message.get("type")
            if kind == "game":
                first = watcher.last is None
                watcher.see(message["game"]["version"], at)
                if first and watcher.token is not None:
                    hello = {"type": "hello", "token": watcher.token}
                    await socket.send(json.dumps({**hello, "version": watcher.last}))
            elif kind == "presence":
                watcher.presence += 1
                if message.get("black") and message.get("white"):
                    watcher.seated.set()
        watcher.closed = f"closed by the server: {socket.close_code}"
    except ConnectionClosed as error:
        watcher.closed = f"closed by the server: {error!r}"
    finally:
        watcher.opened.set()
        watcher.seated.set()


async def play(
    http: Http, game: Game, moves: int, pause: float, rng: random.Random
) -> None:
    """Play ``moves`` random legal moves in ``game`` with the right seat's
    token, ``pause`` seconds apart, recording when each was sent."""
    snapshot = game.snapshot
    path = f"/api/games/{game.id}/moves/"
    await asyncio.sleep(rng.uniform(0, pause))  # the games out of step
    try:
        for _ in range(moves):
            if snapshot["status"] != "playing" or not snapshot["legal_moves"]:
                break
            move = rng.choice(snapshot["legal_moves"])
            body = {"move": move, "version": snapshot["version"]}
            token = game.tokens[snapshot["to_move"]]
            began = time.perf_counter()
            try:
                status, answer, sent = await asyncio.to_thread(
                    http.call, "POST", path, body, token
                )
            except OSError as error:
                game.errors.append(f"move {move} in game {game.id}: {error!r}")
                break
            if status != 200 or answer is None:
                game.errors.append(f"move {move} in game {game.id}: {status} {answer}")
                break
            game.round_trips.append(time.perf_counter() - began)
            game.sent[answer["version"]] = sent
            snapshot = answer
            await asyncio.sleep(pause)
    finally:
        game.final = snapshot["version"]


@dataclass
class Run:
    """One run's figures."""

    sockets: int
    moves: int
    latencies: list[float]
    round_trips: list[float]
    lost: int
    duplicated: int
    problems: list[str]
    #: Seconds from the first handshake until every socket had its snapshot,
    #: and until the arrivals' presence messages were delivered.
    opened_in: float
    quiet_in: float
    #: The presence messages the spectators received before the moves.
    presence: int

    def percentile(self, q: float) -> float:
        """Return the ``q`` quantile of the latencies, in ms."""
        return quantile_ms(self.latencies, q)

    def lines(self) -> list[str]:
        """Return the run's figures as text."""
        p, trips = self.percentile, self.round_trips
        return [
            f"{self.sockets} sockets open in {self.opened_in:.1f} s, quiet after "
            f"{self.quiet_in:.1f} s (the spectators received {self.presence} "
            "presence messages)",
            f"{self.moves} moves, move request ms p50 "
            f"{quantile_ms(trips, 0.5):.1f} p99 {quantile_ms(trips, 0.99):.1f}",
            f"{len(self.latencies)} deliveries measured: latency ms p50 "
            f"{p(0.5):.1f} p90 {p(0.9):.1f} p99 {p(0.99):.1f} max {p(1.0):.1f}; "
            f"lost {self.lost}, duplicated {self.duplicated}",
        ]


def quantile_ms(values: list[float], q: float) -> float:
    """Return the ``q`` quantile (nearest rank) of ``values`` (seconds), in ms."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return 1000 * ordered[rank]


async def measure(
    http: Http,
    spectators: int,
    pairs: int,
    moves: int,
    show_moves: int,
    pause: float,
    seed: str,
) -> Run:
    """Return the figures of one run in fresh games."""
    show = await new_game(http)
    games = [show, *await asyncio.gather(*(new_game(http) for _ in range(pairs)))]
    watchers = [Watcher(show) for _ in range(spectators)]
    for game in games[1:]:
        watchers += [Watcher(game, token=token) for token in game.tokens.values()]
    gate, stop = asyncio.Semaphore(CONNECTING), asyncio.Event()
    began = time.perf_counter()
    holders = [asyncio.create_task(watch(http, w, gate, stop)) for w in watchers]
    problems: list[str] = []
    try:
        opening = asyncio.gather(*(w.opened.wait() for w in watchers))
        await asyncio.wait_for(opening, SERVER_WAIT)
        opened_in = time.perf_counter() - began
        seating = asyncio.gather(*(w.seated.wait() for w in watchers if w.token))
        try:
            await asyncio.wait_for(seating, SETTLE_WAIT)
        except TimeoutError:
            problems.append(f"the players' hellos unanswered after {SETTLE_WAIT} s")
        quiet_in = await _quiet(watchers, began)
        presence = sum(w.presence for w in watchers if w.game is show)
        plays = [play(http, show, show_moves, pause, random.Random(f"{seed}-show"))]
        plays += [
            play(http, game, moves, pause, random.Random(f"{seed}-{i}"))
            for i, game in enumerate(games[1:])
        ]
        await asyncio.gather(*plays)
        deadline = time.monotonic() + SETTLE_WAIT
        while time.monotonic() < deadline and any(
            w.closed is None and (w.last or 0) < w.game.final for w in watchers
        ):
            await asyncio.sleep(0.05)
    finally:
        stop.set()
        await asyncio.gather(*holders, return_exceptions=True)
    latencies: list[float] = []
    lost = duplicated = 0
    for w in watchers:
        if w.closed is not None:
            problems.append(f"a socket on game {w.game.id}: {w.closed}")
        last = w.game.snapshot["version"] if w.last is None else w.last
        lost += w.lost + max(0, w.game.final - last)
        duplicated += w.duplicated
        latencies += [
            at - w.game.sent[version]
            for version, at in w.received.items()
            if version in w.game.sent
        ]
    for game in games:
        problems += game.errors
    return Run(
        sockets=len(watchers),
        moves=sum(len(game.sent) for game in games),
        latencies=latencies,
        round_trips=[t for game in games for t in game.round_trips],
        lost=lost,
        duplicated=duplicated,
        problems=problems,
        opened_in=opened_in,
        quiet_in=quiet_in,
        presence=presence,
    )


async def _quiet(watchers: list[Watcher], began: float) -> float:
    """Return the seconds since ``began`` once no socket has received
    anything for ``QUIET`` seconds (or after ``SERVER_WAIT``)."""
    while True:
        now = time.perf_counter()
        if now - max(w.heard for w in watchers) >= QUIET or now - began > SERVER_WAIT:
            return now - began
        await asyncio.sleep(0.05)


async def bench(http: Http, args: argparse.Namespace) -> int:
    """Return the exit status after the runs, their figures printed."""
    asyncio.get_running_loop().set_default_executor(
        ThreadPoolExecutor(max_workers=args.pairs + 8)
    )
    runs: list[Run] = []
    for number in range(1, args.runs + 1):
        run = await measure(
            http,
            args.spectators,
            args.pairs,
            args.moves,
            args.show_moves,
            args.pause,
            f"{args.seed}-{number}",
        )
        runs.append(run)
        print(f"run {number}: " + "\n       ".join(run.lines()), flush=True)
        for problem in run.problems[:10]:
            print(f"  problem: {problem}")
        if len(run.problems) > 10:
            print(f"  ... and {len(run.problems) - 10} more problems")
    p99s = [run.percentile(0.99) for run in runs]
    lost = sum(run.lost for run in runs)
    duplicated = sum(run.duplicated for run in runs)
    problems = sum(len(run.problems) for run in runs)
    print(
        f"median p99 over {len(runs)} runs: {statistics.median(p99s):.1f} ms "
        f"(runs: {', '.join(f'{p:.1f}' for p in p99s)}); lost {lost}, "
        f"duplicated {duplicated}, other problems {problems}"
    )
    return 1 if lost or duplicated or problems else 0


def wait_for_server(http: Http, process: subprocess.Popen | None) -> None:
    """Return once ``/api/games/kinds/`` answers, then once the AI's warm-up
    is done (its compiling would share the cores with the runs)."""
    started = time.monotonic()
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server stopped with status {process.returncode}")
        try:
            if http.call("GET", "/api/games/kinds/", timeout=5)[0] == 200:
                break
        except OSError:
            pass
        if time.monotonic() - started > SERVER_WAIT:
            raise RuntimeError(f"the server did not answer within {SERVER_WAIT} s")
        time.sleep(0.2)
    print(f"server answers after {time.monotonic() - started:.1f} s", flush=True)
    while time.monotonic() - started < WARM_WAIT:
        _, status, _ = http.call("GET", "/api/ai/", timeout=5)
        games = (status or {}).get("games", {})
        if all(entry.get("ready") for entry in games.values()):
            print(f"AI ready after {time.monotonic() - started:.1f} s", flush=True)
            return
        time.sleep(0.5)
    print(f"the AI is not ready after {WARM_WAIT} s: measuring anyway")


@contextlib.contextmanager
def own_server(
    venv: Path, folder: Path, **settings: str
) -> Iterator[tuple[Http, Path, subprocess.Popen]]:
    """Yield the HTTP client of a server started here with ``make run`` (its
    database, static files and key in ``folder``, no throttles, no live model,
    then ``settings``), its log file and the process of ``make``; stop it (its
    whole process group) at the end."""
    port = free_port()
    log_path = folder / "server.log"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{folder}/db.sqlite3",
        STATIC_ROOT=str(folder / "static"),
        SECRET_KEY_FILE=str(folder / "key"),
        LIVE_SOCKETS_PER_CLIENT="1000",
        GAME_CREATE_RATE="off",
        AI_THROTTLE_RATE="off",
        LIVE_MODEL="",
    )
    env.update(settings)
    arguments = [f"VENV={venv}", f"PORT={port}"]
    with log_path.open("w") as log, make_run(ROOT, arguments, env, log) as process:
        http = Http(f"http://127.0.0.1:{port}")
        wait_for_server(http, process)
        yield http, log_path, process


def suspect_lines(log_path: Path) -> list[str]:
    """Return the server log's lines that look wrong."""
    text = log_path.read_text(errors="replace")
    return [line for line in text.splitlines() if SUSPECT.search(line)]


def main(argv: list[str] | None = None) -> int:
    """Return the exit status of the benchmark run from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv")
    parser.add_argument("--url", help="a running server's (else one is started)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--show-moves", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.3)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--server-log", type=Path, help="keep the server's log here")
    args = parser.parse_args(argv)
    print(
        f"{args.runs} runs: {args.spectators} spectators on a show game of "
        f"{args.show_moves} moves, {args.pairs} pairs of {args.moves} moves, "
        f"{args.pause:g} s apart",
        flush=True,
    )
    if args.url:
        http = Http(args.url)
        wait_for_server(http, None)
        return asyncio.run(bench(http, args))
    with tempfile.TemporaryDirectory(prefix="live-bench-") as tmp:
        log_path = Path(tmp) / "server.log"
        try:
            with own_server(args.venv.resolve(), Path(tmp)) as (http, log_path, _):
                status = asyncio.run(bench(http, args))
        except (RuntimeError, OSError) as error:
            print(f"failed: {error!r}")
            status = 2
        if args.server_log and log_path.exists():
            shutil.copyfile(log_path, args.server_log)
        lines = suspect_lines(log_path) if log_path.exists() else []
        print(f"server log: {len(lines)} suspect lines")
        for line in lines[:40]:
            print(f"  {line}")
        if status == 2 and log_path.exists():
            print("server log's end:")
            for line in log_path.read_text(errors="replace").splitlines()[-40:]:
                print(f"  {line}")
        return status if status or not lines else 1


if __name__ == "__main__":
    sys.exit(main())

"""The first start as a new player meets it, timed: ``make bench-start``.

It clones this repository into a temporary folder (a fresh checkout: no
compiled kernels, no static files, no database), reuses the installed
virtual environment, runs ``make run`` there and prints:

- the seconds until the page answers;
- the seconds until each game's AI is ready (``/api/ai/``);
- each game's first AI move at level 3, asked the moment the page answers:
  its latency, and the AI readiness the page showed meanwhile;
- over a full game of each game at each level 1-6 (the computer against
  itself), the longest and the median AI move against its budget (the
  level's think time, or 0.5 s for the levels that count simulations), and
  the worst overrun, the live model growing as on a player's server;
- the server's log of each game's readiness: how long loading the compiled
  kernels took in the server, after the warm-up had compiled them.

All times are wall-clock seconds measured here, from the moment ``make run``
starts. Only the standard library: run it with any Python 3.11.

    python loadtest/first_start.py [--venv .venv] [--levels 1,2,3,4,5,6]
                                   [--plies N]   # cap each game (default: full)
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("reversi", "gomoku", "loa")
#: Each level's budget a move in seconds (mcts.play.players.LEVELS): levels
#: 1-2 count simulations, and their budget is this.
SIMULATION_BUDGET = 0.5
LEVEL_SECONDS = {1: None, 2: None, 3: 0.05, 4: 0.15, 5: 0.5, 6: 2.0}


class Server:
    """HTTP to the server under test."""

    def __init__(self, port: int) -> None:
        self.port = port

    def request(self, method: str, path: str, body: dict | None = None, timeout=600):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            text = response.read()
            is_json = "json" in (response.getheader("Content-Type") or "")
            return response.status, (json.loads(text) if is_json else None)
        finally:
            conn.close()

    def new_game(self, game: str, black: dict, white: dict) -> dict:
        status, body = self.request(
            "POST",
            "/api/games/",
            {"game": game, "players": {"black": black, "white": white}},
        )
        assert status == 201, (status, body)
        return body

    def ai_move(self, game_id: str) -> tuple[float, dict]:
        began = time.monotonic()
        status, body = self.request("POST", f"/api/games/{game_id}/ai-move/", {})
        assert status == 200, (status, body)
        return time.monotonic() - began, body["game"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def first_start(clone: Path, venv: Path, levels: list[int], plies: int | None) -> int:
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    # The server's own defaults otherwise: the live model grows from each
    # finished game, as on a player's server.
    env.update(GAME_CREATE_RATE="", AI_THROTTLE_RATE="")
    started = time.monotonic()
    # -o: the packages count as installed (the clone's requirements files
    # are newer than the venv's stamp, and pip would check them again).
    make = ["-o", f"{venv}/.installed", f"VENV={venv}", f"PORT={port}"]
    log_file = clone.parent / "server.log"
    with log_file.open("w") as log, make_run(clone, make, env, log):
        failed = _measure(Server(port), started, levels, plies)
    # The server's own account: how long each game's loading took there.
    for line in log_file.read_text(encoding="utf-8", errors="replace").splitlines():
        if " is ready, " in line:
            print("server:", line.split("the AI of ", 1)[-1])
    return failed


@contextlib.contextmanager
def make_run(folder: Path, arguments: list[str], env: dict, log) -> Iterator:
    """Run ``make run`` with ``arguments`` in ``folder`` (its own process
    session, output to ``log``) while the block runs; yield the process, and
    stop it and its children after (SIGTERM, then SIGKILL after 30 s)."""
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", *arguments],
        cwd=folder,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):  # already gone
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _measure(
    server: Server, started: float, levels: list[int], plies: int | None
) -> int:
    def since() -> float:
        return time.monotonic() - started

    while True:
        try:
            if server.request("GET", "/", timeout=5)[0] == 200:
                break
        except OSError:
            pass
        if since() > 300:
            print("the page did not answer within 300 s")
            return 1
        time.sleep(0.1)
    print(f"page answers: {since():.1f} s after `make run` started")

    # The first AI move of each game, asked at once; the readiness followed
    # meanwhile, as the page follows it.
    firsts: dict[str, float] = {}
    shown: dict[str, set[int]] = {name: set() for name in GAMES}

    def first_move(name: str) -> None:
        game = server.new_game(name, {"kind": "ai", "level": 3}, {"kind": "human"})
        latency, _ = server.ai_move(game["id"])
        firsts[name] = latency

    asked = [threading.Thread(target=first_move, args=(name,)) for name in GAMES]
    for thread in asked:
        thread.start()
    ready_at: dict[str, float] = {}
    at_99: dict[str, float] = {}  # when the bar first showed 99%
    while len(ready_at) < len(GAMES):
        _, status = server.request("GET", "/api/ai/")
        for name, entry in status["games"].items():
            if entry["ready"] and name not in ready_at:
                ready_at[name] = since()
            elif not entry["ready"]:
                shown[name].add(round(100 * entry["progress"]))
                if entry["progress"] >= 0.99:
                    at_99.setdefault(name, since())
        time.sleep(0.25)
    for thread in asked:
        thread.join()
    for name in GAMES:
        steps = sorted(shown[name])
        progress = f"{steps[0]}%..{steps[-1]}%" if steps else "ready at once"
        if name in at_99:
            progress += f", at 99% for {ready_at[name] - at_99[name]:.1f} s"
        print(
            f"{name}: AI ready {ready_at[name]:.1f} s after the start; first AI move "
            f"(level 3, asked when the page answered) took {firsts[name]:.1f} s; "
            f"progress shown meanwhile: {progress}"
        )

    worst = (0.0, "")
    for name in GAMES:
        for level in levels:
            budget = LEVEL_SECONDS[level] or SIMULATION_BUDGET
            ai = {"kind": "ai", "level": level}
            game = server.new_game(name, ai, ai)
            latencies: list[float] = []
            while game["status"] == "playing" and (
                plies is None or len(latencies) < plies
            ):
                latency, game = server.ai_move(game["id"])
                latencies.append(latency)
            longest = max(latencies)
            over = longest - budget
            print(
                f"{name} level {level}: {len(latencies)} AI moves, longest "
                f"{longest:.2f} s, median {statistics.median(latencies):.3f} s "
                f"against a budget of {budget:g} s (overrun {over:+.2f} s)"
            )
            if over > worst[0] or not worst[1]:
                worst = (over, f"{name} level {level}")
    print(f"worst overrun: {worst[0]:+.2f} s ({worst[1]})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv")
    parser.add_argument("--levels", default="1,2,3,4,5,6")
    parser.add_argument("--plies", type=int, default=None)
    args = parser.parse_args(argv)
    venv = args.venv.resolve()
    if not (venv / ".installed").exists():
        print(f"no installed virtual environment at {venv}: run `make setup` first")
        return 2
    levels = [int(x) for x in args.levels.split(",")]
    with tempfile.TemporaryDirectory(prefix="first-start-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        print(f"fresh clone of {ROOT} at {clone} (HEAD {_head(clone)}), venv {venv}")
        return first_start(clone, venv, levels, args.plies)


def _head(clone: Path) -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=clone,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())

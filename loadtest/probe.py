"""Hostile clients against a running server, and what another client meets
meanwhile: ``make probe`` (issue 67).

Two scenarios, against the server at ``--url`` (``make run`` in another
terminal; a server on the loopback, as the clients come from loopback
addresses 127.0.x.y, each a client of its own for the server):

1. **Slow loris.** ``--sockets`` connections (256) each send a request's
   head a byte every 2 s. Meanwhile another client GETs
   ``/api/games/kinds/`` every half second. It prints that client's
   latencies, whether they stayed under 200 ms, and how the server answered
   the slow sockets (408 once their head was late).
2. **Many addresses.** 34 addresses each start two Gomoku games and ask a
   10 s hint in both (68 searches against a queue of 64 a worker). Then
   another address asks a 0.1 s AI move. It prints how many hints were
   admitted or refused, and whether the 0.1 s move was served and when.
   At the end every hint is stopped (``stop/``), so the server is idle again
   within seconds.

    python loadtest/probe.py [--url http://127.0.0.1:8000] [--sockets 256]
                             [--seconds 20] [--addresses 34]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import socket
import statistics
import threading
import time
from collections import Counter
from urllib.parse import urlsplit


class Client:
    """JSON over HTTP from one loopback address (a client of its own)."""

    def __init__(self, url: str, address: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.address = address

    def call(self, method: str, path: str, body=None, timeout=120.0):
        """Return (status, JSON body or None, seconds taken)."""
        conn = http.client.HTTPConnection(
            self.host, self.port, timeout=timeout, source_address=(self.address, 0)
        )
        started = time.perf_counter()
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            taken = time.perf_counter() - started
            return response.status, (json.loads(raw) if raw else None), taken
        finally:
            conn.close()


def _ending(sock: socket.socket) -> str:
    """Return how the server ended a slow socket: its answer's status (408),
    "closed", "reset", or "still open"."""
    try:
        data = sock.recv(200)
    except BlockingIOError:
        return "still open"
    except OSError:
        return "reset"
    if not data:
        return "closed"
    return "answered " + data.split(b" ", 2)[1].decode("ascii", "replace")


def slow_loris(url: str, sockets: int, seconds: float) -> list[str]:
    """Run the slow-loris scenario; return its report's lines."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    head = f"GET /api/games/kinds/ HTTP/1.1\r\nHost: {host}\r\nX-Slow: ".encode()
    held: list[socket.socket] = []
    for n in range(sockets):
        sock = socket.create_connection(
            (host, port), source_address=(f"127.0.{10 + n // 250}.{1 + n % 250}", 0)
        )
        sock.setblocking(False)
        held.append(sock)
    answers: Counter[str] = Counter()
    other = Client(url, "127.0.9.1")
    latencies: list[float] = []
    deadline = time.monotonic() + seconds
    sent = 0
    while time.monotonic() < deadline:
        for sock in held:  # a byte each, every 2 s (the server may have closed it)
            with contextlib.suppress(OSError):
                sock.send(head[sent % len(head) : sent % len(head) + 1])
        sent += 1
        for _ in range(4):
            status, _, taken = other.call("GET", "/api/games/kinds/")
            latencies.append(taken * 1000 if status == 200 else float("inf"))
            time.sleep(0.5)
    for sock in held:
        answers[_ending(sock)] += 1
        sock.close()
    worst = max(latencies)
    return [
        f"slow loris: {sockets} sockets sending a request's head a byte every 2 s "
        f"for {seconds:g} s",
        f"  another client's GET, {len(latencies)} times: p50 "
        f"{statistics.median(latencies):.1f} ms, max {worst:.1f} ms; under 200 ms: "
        f"{'yes' if worst < 200 else 'NO'}",
        "  the slow sockets at the end: "
        + ", ".join(f"{what}: {n}" for what, n in sorted(answers.items())),
    ]


def many_addresses(url: str, addresses: int) -> list[str]:
    """Run the many-address scenario; return its report's lines."""
    hogs = [Client(url, f"127.0.20.{n + 1}") for n in range(addresses)]
    games = []
    for hog in hogs:
        for _ in range(2):
            status, game, _ = hog.call("POST", "/api/games/", {"game": "gomoku"})
            assert status == 201, (status, game)
            games.append((hog, game["id"]))
    codes: list[int] = []

    def hint(hog: Client, game_id: str) -> None:
        status, _, _ = hog.call(
            "POST", f"/api/games/{game_id}/hint/", {"think_time": 10.0}, timeout=900
        )
        codes.append(status)

    threads = [threading.Thread(target=hint, args=pair) for pair in games]
    for thread in threads:
        thread.start()
    time.sleep(3)  # every hint admitted or refused
    refused_first = codes.count(503)
    other = Client(url, "127.0.30.1")
    fast = {"black": {"kind": "ai", "think_time": 0.1}}
    _, game, _ = other.call("POST", "/api/games/", {"game": "gomoku", "players": fast})
    status, _, taken = other.call("POST", f"/api/games/{game['id']}/ai-move/", {})
    for hog, game_id in games:  # the server idle again soon
        hog.call("POST", f"/api/games/{game_id}/stop/", {})
    for thread in threads:
        thread.join(timeout=120)
    return [
        f"many addresses: {addresses} addresses x 2 hints of 10 s "
        f"({len(games)} searches)",
        f"  refused at once (503): {refused_first}; in all after the 0.1 s move: "
        f"{codes.count(503)} (the hints that gave it their place)",
        f"  another client's 0.1 s AI move: {status} in {taken:.1f} s; served: "
        f"{'yes' if status == 200 else 'NO'}",
    ]


def main(argv: list[str] | None = None) -> int:
    """Run both scenarios and print what another client met."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--sockets", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--addresses", type=int, default=34)
    args = parser.parse_args(argv)
    lines = slow_loris(args.url, args.sockets, args.seconds)
    print("\n".join(lines), flush=True)
    lines = many_addresses(args.url, args.addresses)
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

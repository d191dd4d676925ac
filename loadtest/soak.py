"""A server's memory under sustained play: ``make bench-memory``.

It starts a server of its own (``make run`` in this checkout, as
``make bench-live`` does: a temporary folder's database, static files and
key, no throttles) whose ``MODEL_DIR`` is a temporary copy of the shipped
models, so that the live models it grows are not the checkout's; or it
measures a running one (``--url``, with ``--pid``, the server's process id).

For ``--minutes`` (45) ``--clients`` (2) play games of the computer against
itself through the API, each move at ``--think`` (0.1) s with the game's light
model: Reversi, Gomoku, Lines of Action and Gomoku under renju in turn.
Every ``--every`` (30) s it prints the server's resident memory (``VmRSS``),
the games finished and the moves played.

At the end it prints the memory at the end of the first third (each game's
models loaded by then), the highest, the last, and the trend of the last two
thirds: the least-squares slope of their samples in MB per 10 minutes. A
server that keeps its memory has a trend near 0 (each live model's save makes
the samples jump by up to about 250 MB and back). The default is 45 minutes
because the live models reach their cap (``LIVE_MODEL_MAX_NODES``) only about
35 minutes in: 15 minutes showed a trend of +130 MB per 10 minutes, 45 of
+1.8 (docs/performance.md). A server started here has its log's lines that look
wrong printed (errors, 5xx). It exits 1 if the server answered an error or
logged one.

    python loadtest/soak.py [--venv .venv] [--minutes 45] [--clients 2]
                            [--think 0.1] [--every 30] [--server-log FILE]
    python loadtest/soak.py --url http://127.0.0.1:8000 --pid PID
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from first_start import ROOT
from live_bench import Http, own_server, suspect_lines, wait_for_server

#: The games played in turn: (game, options, model).
GAMES = (
    ("reversi", None, "light"),
    ("gomoku", None, "light"),
    ("loa", None, "light"),
    ("gomoku", {"rule": "renju"}, "light-renju"),
)
#: What a copy of the shipped models needs: the light models played and the
#: packed full models the live ones are seeded from.
SHIPPED = ("light", "light-renju", "full.tar.xz")


def resident_mb(pid: int) -> float:
    """Return the resident memory of process ``pid`` in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def uvicorn_pid(group: int) -> int:
    """Return the id of the uvicorn process in process group ``group``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        # The process group is the 5th field after the ")" ending the name.
        if int(stat.rsplit(")", 1)[1].split()[2]) == group and b"uvicorn" in command:
            return int(entry.name)
    raise RuntimeError(f"no uvicorn process in process group {group}")


def copy_models(target: Path) -> None:
    """Copy what the soak plays and seeds from of ``model/`` into ``target``."""
    for game in ("reversi", "gomoku", "loa"):
        for name in SHIPPED:
            source = ROOT / "model" / game / name
            if source.is_dir():
                shutil.copytree(source, target / game / name)
            elif source.exists():
                (target / game).mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / game / name)


class Soak:
    """The clients' counts and the samples of the server's memory."""

    def __init__(self, http: Http, pid: int, args: argparse.Namespace) -> None:
        self.http, self.pid, self.args = http, pid, args
        self.games = self.moves = 0
        self.errors: list[str] = []
        self.samples: list[tuple[float, float]] = []  # (seconds, MB)
        self.lock = threading.Lock()
        self.turns = itertools.cycle(GAMES)

    def play(self, until: float) -> None:
        """Play games of the computer against itself until ``until``."""
        while time.monotonic() < until and not self.errors:
            with self.lock:
                name, options, model = next(self.turns)
            ai = {"kind": "ai", "model": model, "think_time": self.args.think}
            body: dict = {"game": name, "players": {"black": ai, "white": ai}}
            if options:
                body["options"] = options
            status, answer, _ = self.http.call("POST", "/api/games/", body)
            game: dict = answer or {}
            path = f"/api/games/{game.get('id')}/ai-move/"
            while status in (200, 201) and game.get("status") == "playing":
                if time.monotonic() >= until:
                    return
                status, answer, _ = self.http.call("POST", path, {}, timeout=120)
                game = (answer or {}).get("game", answer or {})
                with self.lock:
                    self.moves += status == 200
            with self.lock:
                if status not in (200, 201):
                    self.errors.append(f"{status} {answer}")
                else:
                    self.games += 1

    def sample(self, started: float) -> None:
        """Record and print the server's memory now."""
        seconds, mb = time.monotonic() - started, resident_mb(self.pid)
        self.samples.append((seconds, mb))
        print(
            f"{seconds:6.0f} s  {mb:7.1f} MB  games {self.games}  "
            f"moves {self.moves}  errors {len(self.errors)}",
            flush=True,
        )

    def run(self) -> int:
        """Play and sample for the minutes asked; print the summary."""
        started = time.monotonic()
        until = started + self.args.minutes * 60
        clients = [
            threading.Thread(target=self.play, args=(until,), daemon=True)
            for _ in range(self.args.clients)
        ]
        for client in clients:
            client.start()
        self.sample(started)
        while time.monotonic() < until and any(c.is_alive() for c in clients):
            time.sleep(max(0.0, min(self.args.every, until - time.monotonic())))
            self.sample(started)
        for client in clients:  # each ends with the move it was waiting for
            client.join()
        return self.summary()

    def summary(self) -> int:
        third = self.args.minutes * 60 / 3
        late = [(s, mb) for s, mb in self.samples if s >= third]
        if len(late) >= 2:
            slope = statistics.linear_regression(
                [s for s, _ in late], [mb for _, mb in late]
            ).slope
            print(
                f"memory: {late[0][1]:.0f} MB after {late[0][0] / 60:.0f} min, "
                f"highest {max(mb for _, mb in self.samples):.0f} MB, last "
                f"{self.samples[-1][1]:.0f} MB; trend of the last two thirds "
                f"{slope * 600:+.1f} MB per 10 min ({len(late)} samples); "
                f"{self.games} games, {self.moves} moves"
            )
        for error in self.errors[:5]:
            print(f"error: {error}")
        return 1 if self.errors else 0


def main(argv: list[str] | None = None) -> int:
    """Return the exit status of the soak run from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv")
    parser.add_argument("--url", help="a running server's (else one is started)")
    parser.add_argument("--pid", type=int, help="with --url: the server's process")
    parser.add_argument("--minutes", type=float, default=45)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--every", type=float, default=30)
    parser.add_argument("--server-log", type=Path, help="keep the server's log here")
    args = parser.parse_args(argv)
    if args.url:
        if args.pid is None:
            parser.error("--url needs --pid, the server's process id")
        http = Http(args.url)
        wait_for_server(http, None)
        return Soak(http, args.pid, args).run()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        models = Path(tmp) / "model"
        copy_models(models)
        settings = {"MODEL_DIR": str(models), "LIVE_MODEL": "live"}
        with own_server(args.venv.resolve(), Path(tmp), **settings) as started:
            http, log_path, process = started
            status = Soak(http, uvicorn_pid(process.pid), args).run()
        if args.server_log:
            shutil.copyfile(log_path, args.server_log)
        lines = suspect_lines(log_path)
        print(f"server log: {len(lines)} suspect lines")
        for line in lines[:20]:
            print(f"  {line}")
        return status if status or not lines else 1


if __name__ == "__main__":
    sys.exit(main())

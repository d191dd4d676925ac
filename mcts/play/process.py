"""An external engine's process: lines to its stdin, lines from its stdout
with a time limit, and a clean end (the quit line, then a kill).

Used by the protocol clients (:mod:`mcts.play.nboard`,
:mod:`mcts.play.piskvork`); every failure in a game is a
:class:`~mcts.play.base.Forfeit`, so the arena scores it as a lost game and
records why; an engine that does not start at all voids the match
(:class:`EngineNotStarted`).
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading

from .base import Forfeit

#: Seconds an engine gets to exit after its quit line before it is killed.
EXIT_GRACE = 1.0


class EngineNotStarted(ValueError):
    """An engine that cannot be started at all (a wrong path, a bad command):
    the match is void, not won by its opponent (CLI QA: a typo in the
    engines' folder scored 100% against each depth of NTest)."""


class EngineProcess:
    """A running engine started from ``command`` (split like a shell line,
    no shell) in the folder ``cwd``; a relative program path is found there."""

    def __init__(self, command: str, *, cwd: str | None = None) -> None:
        self.command = command
        try:
            self.process = subprocess.Popen(
                shlex.split(command),
                cwd=cwd or None,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except (OSError, ValueError) as error:
            raise EngineNotStarted(
                f"could not start engine {command!r}: {error}"
            ) from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        # A thread reads stdout so that a silent engine cannot block the game:
        # read_line waits on the queue with a time limit.
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Write one line to the engine; Forfeit if it has exited."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise Forfeit(f"engine {self.command!r} exited") from None

    def read_line(self, timeout: float) -> str:
        """Return the engine's next line (without the line end); Forfeit if
        none comes within ``timeout`` seconds or the engine exits."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise Forfeit(f"no answer within {timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # stay at the end for later reads
            code = self.process.poll()
            raise Forfeit(f"engine exited (exit code {code})")
        return line

    def close(self, quit_line: str) -> None:
        """Send ``quit_line``, give the engine a moment to exit, then kill it."""
        if self.process.poll() is None:
            with contextlib.suppress(Forfeit):
                self.send(quit_line)
            try:
                self.process.wait(EXIT_GRACE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # The reader sees the end of the output once the process is gone.
        self._reader.join(EXIT_GRACE)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None and not self._reader.is_alive():
                with contextlib.suppress(OSError):
                    stream.close()

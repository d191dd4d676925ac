"""The NBoard protocol (Othello engines such as NTest), both sides.

:func:`serve` is our engine: it reads NBoard commands from a text stream,
asks a :class:`~mcts.play.base.Player` for moves and writes the answers.
:class:`NboardEngine` is the other side: a Player that runs an external
NBoard engine, for the arena.

Choices where the protocol leaves room (our engine):

- ``set depth N`` is accepted and ignored: our player thinks a fixed time a
  move (``--seconds``), which is what a depth stands for in a GUI.
- ``set game`` takes any 8x8 start position (``BO[8 <64 squares> <side>]``)
  and the moves after it (``B[F5]W[D6]``, ``PA`` for a pass, any
  ``/eval/time`` after a move dropped).
- ``hint N`` searches like ``go`` and answers the N most visited moves as
  ``search <MOVE> <eval> 0 <depth>``: the eval is the move's win chance
  scaled to a disc-like range, ``(2p - 1) * 64``, not a disc margin, and the
  depth is the length of the principal variation.
- ``set contempt``, other ``set`` lines and ``learn`` are ignored; a line that
  cannot be used is reported on the error stream, never answered on stdout.
"""

from __future__ import annotations

import re
from typing import TextIO

from ..games.base import Game, State
from .base import Forfeit, History, Player
from .process import EngineProcess

#: Squares and side to move of a GGF ``BO`` tag: ``*`` black, ``O`` white.
_BO_RE = re.compile(r"BO\[\s*8\s+([-*O.]{64})\s+([*O])\s*\]", re.IGNORECASE)
#: A move tag (``B[F5]``, ``W[PA/1.5/0.2]``); the look-behind skips PB[], PW[].
_MOVE_RE = re.compile(r"(?<![A-Z])([BW])\[([^\]]*)\]")
_FROM_GGF = {"*": "x", "O": "o", "o": "o", "-": ".", ".": "."}
_TO_GGF = {"x": "*", "o": "O", ".": "-"}
#: Seconds an engine gets to answer ``go`` unless the spec says otherwise.
DEFAULT_TIMEOUT = 30.0
#: Seconds an engine gets to start and answer its first ``ping``.
START_TIMEOUT = 30.0


def to_nboard(game: Game, state: State, move: int) -> str:
    """Return the NBoard text of ``move``: upper case, ``PA`` for a pass."""
    return "PA" if move == game.PASS else game.format_move(state, move).upper()


def from_nboard(game: Game, state: State, text: str) -> int:
    """Return the legal move code of an NBoard move (``F5``, ``f5/1.2/0.1``,
    ``PA``); InvalidMoveError or IllegalMoveError otherwise."""
    text = text.strip().split("/")[0].strip()
    return game.parse_move(state, "pass" if text.upper() == "PA" else text)


def parse_ggf(game: Game, text: str) -> tuple[State, list[str]]:
    """Return the start position and the move texts (as written, ``PA`` for
    a pass) of a GGF Othello game; ValueError if it has no 8x8 ``BO`` tag."""
    board = _BO_RE.search(text)
    if board is None:
        raise ValueError(f"no 8x8 BO[...] start position in GGF game {text!r}")
    squares = "".join(_FROM_GGF[ch] for ch in board[1])
    side = "b" if board[2] == "*" else "w"
    start = game.parse_state(f"{squares} {side}")
    moves = [m[2].split("/")[0] for m in _MOVE_RE.finditer(text[board.end() :])]
    return start, moves


def ggf(game: Game, start: State, moves: list[int]) -> str:
    """Return the GGF game of ``moves`` (codes) from ``start``."""
    squares, side = game.state_string(start).split()
    board = "".join(_TO_GGF[ch] for ch in squares)
    tags = []
    state = start
    for move in moves:
        colour = "B" if game.to_move(state) == "black" else "W"
        tags.append(f"{colour}[{to_nboard(game, state, move)}]")
        state = game.apply(state, move)
    return (
        "(;GM[Othello]PC[mcts]PB[black]PW[white]RE[?]TI[0:00]TY[8]"
        f"BO[8 {board} {'*' if side == 'b' else 'O'}]{''.join(tags)};)"
    )


# ---- our engine ----------------------------------------------------------------
class _Position:
    """The game the GUI set: a start and moves; tells the player what changed."""

    def __init__(self, game: Game, player: Player) -> None:
        self.game = game
        self.player = player
        self.start = game.initial_state()
        self.moves: list[int] = []
        self.state = self.start
        # What the player has been shown, so only new moves are observed.
        self._shown_start = self.start
        self._shown_moves: list[int] = []

    def set_game(self, start: State, texts: list[str]) -> None:
        state, moves = start, []
        for ply, text in enumerate(texts, start=1):
            try:
                move = from_nboard(self.game, state, text)
            except ValueError as error:
                raise ValueError(f"move {ply} of the game: {error}") from None
            moves.append(move)
            state = self.game.apply(state, move)
        self.start, self.moves, self.state = start, moves, state

    def add(self, text: str) -> None:
        move = from_nboard(self.game, self.state, text)
        self.moves.append(move)
        self.state = self.game.apply(self.state, move)

    def show(self) -> None:
        """Tell the player the moves it has not seen (its tree follows them)."""
        shown = len(self._shown_moves)
        if self.start == self._shown_start and self.moves[:shown] == self._shown_moves:
            state = self.start
            for move in self.moves[:shown]:
                state = self.game.apply(state, move)
            for move in self.moves[shown:]:
                self.player.observe(state, move)
                state = self.game.apply(state, move)
        self._shown_start, self._shown_moves = self.start, list(self.moves)


def serve(
    game: Game,
    player: Player,
    lines: TextIO,
    out: TextIO,
    err: TextIO | None = None,
    *,
    name: str = "mcts",
) -> int:
    """Answer NBoard commands from ``lines`` on ``out`` until ``quit`` or the
    end of input; problems go to ``err``. Returns the exit code (0)."""
    position = _Position(game, player)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def warn(text: str) -> None:
        if err is not None:
            err.write(f"nboard: {text}\n")
            err.flush()

    while True:
        line = lines.readline()
        if not line:
            return 0
        words = line.split()
        if not words:
            continue
        command, rest = words[0].lower(), line.strip()[len(words[0]) :].strip()
        try:
            if command == "quit":
                return 0
            if command == "nboard":
                say(f"set myname {name}")
            elif command == "ping":
                say(f"pong {rest}".rstrip())
            elif command == "set" and rest.lower().startswith("game"):
                position.set_game(*parse_ggf(game, rest[4:]))
            elif command == "move":
                position.add(rest)
            elif command == "go":
                if game.is_terminal(position.state):
                    warn("go: the game is over")
                    continue
                position.show()
                move = player.choose(position.state)
                say(f"=== {to_nboard(game, position.state, move)}")
            elif command == "hint":
                if game.is_terminal(position.state):
                    continue
                position.show()
                for reply in _hints(game, player, position.state, rest):
                    say(reply)
            elif command in ("set", "learn", "analyze"):
                pass  # depth, contempt and the rest: see the module docstring
            else:
                warn(f"unknown command {line.strip()!r} ignored")
        except ValueError as error:
            warn(f"{line.strip()!r} ignored: {error}")


def _hints(game: Game, player: Player, state: State, count: str) -> list[str]:
    """Return the ``search`` lines of a hint: the best moves of a search."""
    wanted = int(count) if count.strip().isdigit() else 1
    move = player.choose(state)
    result = player.last_result
    if result is None or not result.moves:
        return [f"search {to_nboard(game, state, move)} 0.00 0 1"]
    depth = max(1, len(result.pv))
    lines = []
    for stats in result.moves[: max(1, wanted)]:
        value = 0.5 if stats.value is None else stats.value
        text = to_nboard(game, state, stats.code)
        lines.append(f"search {text} {(2 * value - 1) * 64:.2f} 0 {depth}")
    return lines


# ---- an external engine -------------------------------------------------------
class NboardEngine(Player):
    """A Player that asks an external NBoard engine for each move.

    Every ``choose`` sends the whole game (``set game``), syncs with a
    ``ping``, sends ``go`` and checks the ``=== MOVE`` answer with our rules:
    a malformed or illegal answer, or none within ``timeout`` seconds, is a
    :class:`Forfeit`. The process starts at the first move and ends at
    :meth:`close`.
    """

    def __init__(
        self,
        game: Game,
        command: str,
        *,
        cwd: str | None = None,
        depth: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        name: str = "engine:nboard",
    ) -> None:
        if game.name != "reversi":
            raise ValueError(f"an NBoard engine plays reversi, not {game.name}")
        self.game = game
        self.command = command
        self.cwd = cwd
        self.depth = depth
        self.timeout = timeout
        self.name = name
        self._process: EngineProcess | None = None
        self._pings = 0
        self.history = History(game)

    def observe(self, state: State, move: int) -> None:
        """Record the move: the next ``set game`` carries it."""
        self.history.observe(state, move)

    def _engine(self) -> EngineProcess:
        if self._process is None:
            self._process = EngineProcess(self.command, cwd=self.cwd)
            self._process.send("nboard 2")
            if self.depth is not None:
                self._process.send(f"set depth {self.depth}")
        return self._process

    def choose(self, state: State) -> int:
        """Return the engine's move in ``state``; Forfeit if it gives none."""
        self.history.sync(state)
        first = self._process is None
        engine = self._engine()
        engine.send(f"set game {ggf(self.game, self.history.base, self.history.moves)}")
        self._pings += 1
        engine.send(f"ping {self._pings}")
        limit = START_TIMEOUT if first else self.timeout
        while engine.read_line(limit).split() != ["pong", str(self._pings)]:
            pass
        engine.send("go")
        while True:
            line = engine.read_line(self.timeout)
            if line.startswith("==="):
                break
        answer = line[3:].strip()
        try:
            return from_nboard(self.game, state, answer)
        except ValueError as error:
            raise Forfeit(f"engine answered {line!r}: {error}") from None

    def close(self) -> None:
        """Quit the engine process (killed if it does not exit)."""
        if self._process is not None:
            self._process.close("quit")
            self._process = None

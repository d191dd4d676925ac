"""The Gomocup (piskvork) protocol for Gomoku engines such as Rapfi, both sides.

:func:`serve` is our engine: it reads piskvork commands from a text stream,
asks a :class:`~mcts.play.base.Player` for moves and answers one line each.
:class:`PiskvorkEngine` is the other side: a Player that runs an external
piskvork engine, for the arena.

Coordinates are ``x,y``: column and row, 0-based from the **top-left**
corner, while our renju notation counts rows upward from ``a1`` at the
bottom-left: on 15x15, ``0,0`` is ``a15`` and ``7,7`` is ``h8``.

Choices where the protocol leaves room (our engine): ``START n`` accepts the
sizes our Gomoku has (5..19, five in a row); ``INFO rule`` is a bit mask
(1 exactly five, 2 a continuous game, 4 renju, 8 caro): 4 plays renju, else
1 standard, else freestyle; the continuous bit is ignored, and caro gets a
``MESSAGE`` saying we do not play it (INFO lines take no answer, so an
``ERROR`` would be read as the next command's). A rule that changes during a
game applies to the stones on the board;
``INFO timeout_turn`` sets the think time a little under it, and with a
match clock (``INFO timeout_match`` above 0) a move spends at most
:data:`MATCH_SHARE` of ``INFO time_left`` (:class:`Clock`); other INFO keys
are accepted and ignored; ``RECTSTART`` and unknown commands are refused
(``ERROR`` / ``UNKNOWN``). In ``BOARD``, ``3`` marks (continuous-game
winning-line marks) are ignored.

``SWAP2BOARD`` (Gomocup's Swap2 opening: the stones so far, ``x,y`` lines
in the order played, black first, then ``DONE``) is answered as Gomocup's
engines answer it, with the decisions of :mod:`.swap2` (our search's):

- no stone: the opener's three, ``x1,y1 x2,y2 x3,y3`` (black, white, black);
- three stones: ``SWAP`` to take black, one ``x,y`` to play white's move
  now, or two, ``x1,y1 x2,y2`` (white, black), to hand the choice back;
- five stones: ``SWAP`` to take black, or ``x,y`` to play white's move.

The search's think time for each decision is the turn's divided by
:data:`SWAP2_SEARCHES`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from ..games import find_game
from ..games.base import Game, InvalidOptionsError, State
from . import swap2
from .base import Forfeit, History, Player
from .process import EngineProcess

#: Gomocup's games are five in a row.
ROW = 5
#: ``INFO rule`` bits: exactly five, renju, caro.
EXACT_FIVE = 1
RENJU = 4
CARO = 8
#: What ``INFO rule`` sends for each of our rules.
RULE_CODES = {"freestyle": 0, "standard": EXACT_FIVE, "renju": RENJU}
#: Our think time is the turn's time less this share (and at least
#: MIN_MARGIN seconds): the margin covers the protocol and process overhead.
MARGIN_SHARE = 0.1
MIN_MARGIN = 0.05
#: A ``SWAP2BOARD`` answer searches at most three positions (the opener's
#: three candidate openings), each for the turn's time divided by this: a
#: 1 s turn answered in 0.94 s with three, too close to the limit.
SWAP2_SEARCHES = 4
#: With a match clock, a move thinks at most this share of the match time
#: left (less the margin above), so the share shrinks with the clock: a
#: 180 s match gives our first move 10.8 s, the 30th 1.75 s, and lasts 90
#: of our moves with 50 ms of overhead each (a 15x15 game seldom has 60).
MATCH_SHARE = 1 / 15
#: Seconds an engine gets to start and answer ``START`` with ``OK``.
START_TIMEOUT = 30.0
#: Seconds between an engine's move and our next command. Rapfi loses a
#: command that comes right after its move (it takes ``TURN`` as said during
#: its search, then ``x,y`` as an unknown command): against an opponent that
#: answers at once (the random player) it forfeited without this pause.
SETTLE = 0.05
ABOUT = 'name="mcts", version="0.1.0", author="mcts-boardgames", country="-"'


def to_xy(game: Game, move: int) -> str:
    """Return the ``x,y`` of a move code (row 0 at the top).

    >>> to_xy(find_game("gomoku", size=15), 0)  # a1, the bottom-left corner
    '0,14'
    """
    size = game.options["size"]
    return f"{move % size},{size - 1 - move // size}"


def from_xy(game: Game, text: str) -> int:
    """Return the move code of ``x,y``; ValueError if it is not on the board."""
    size = game.options["size"]
    parts = text.strip().split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a move: expected x,y")
    x, y = int(parts[0]), int(parts[1])
    if not (0 <= x < size and 0 <= y < size):
        raise ValueError(f"{text!r} is off the {size}x{size} board")
    return (size - 1 - y) * size + x


def think_seconds(milliseconds: int) -> float:
    """Return our think time for a turn limit in milliseconds (0: fastest)."""
    seconds = milliseconds / 1000
    return max(0.01, seconds - max(MIN_MARGIN, MARGIN_SHARE * seconds))


@dataclass
class Clock:
    """The time limits the manager's INFO lines set, in milliseconds: the
    turn's (None until told), the match's (0: none) and what is left of it
    (None until told)."""

    turn: int | None = None
    match: int = 0
    left: int | None = None

    def turn_seconds(self, default: float) -> float:
        """Return the think time a move that the turn limit allows
        (``default`` when there is none)."""
        return default if self.turn is None else think_seconds(self.turn)

    def move_seconds(self, default: float) -> float:
        """Return the think time of the next move: :meth:`turn_seconds`,
        or less when the match clock left allows less (:data:`MATCH_SHARE`)."""
        seconds = self.turn_seconds(default)
        if self.match > 0 and self.left is not None:
            seconds = min(seconds, think_seconds(int(self.left * MATCH_SHARE)))
        return seconds


def position(game: Game, own: list[int], opponent: list[int]) -> State:
    """Return the position with ``own`` stones for the side to move.

    Black moves first, so the side to move is black when both have as many
    stones and white when the opponent has one more; ValueError otherwise."""
    if len(own) == len(opponent):
        black, white, side = own, opponent, "b"
    elif len(opponent) == len(own) + 1:
        black, white, side = opponent, own, "w"
    else:
        raise ValueError(
            f"{len(own)} own and {len(opponent)} opponent stones: the side to "
            "move has as many stones as the other or one fewer"
        )
    size = game.options["size"]
    cells = ["."] * (size * size)
    for code in black:
        cells[code] = "x"
    for code in white:
        cells[code] = "o"
    rule = game.options["rule"]
    word = "" if rule == "freestyle" else f"{rule}:"
    return game.parse_state(f"{size}:{ROW}:{word}{''.join(cells)} {side}")


def _stones(game: Game, state: State) -> tuple[list[int], list[int]]:
    """Return the (black, white) stone codes of a position."""
    cells = game.state_string(state).split()[0].split(":")[-1]
    black = [code for code, ch in enumerate(cells) if ch == "x"]
    white = [code for code, ch in enumerate(cells) if ch == "o"]
    return black, white


# ---- our engine ----------------------------------------------------------------
def serve(
    make_player: Callable[[Game, float], Player],
    lines: TextIO,
    out: TextIO,
    *,
    seconds: float = 1.0,
    make_think: Callable[[Game, float], swap2.Think] | None = None,
    seed: int | None = None,
) -> int:
    """Answer piskvork commands from ``lines`` on ``out`` until ``END`` or the
    end of input. ``make_player(game, seconds)`` builds our player (again
    when the board size or the turn time changes); a player that thinks
    for a time (its ``seconds`` set) thinks no longer than the turn and the
    match clock allow (:class:`Clock`). ``make_think(game, seconds)`` gives
    the search that makes the Swap2 decisions (None: ``SWAP2BOARD`` is
    refused); ``seed`` seeds the opener's random stones. Returns the exit
    code."""
    game: Game | None = None
    state: State | None = None
    rule = "freestyle"
    player: Player | None = None
    built_for: tuple[Game, float] | None = None
    own_seconds: float | None = None  # the player's think time as built
    clock = Clock()

    rng = np.random.default_rng(seed)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def answer_swap2(opening: State, stones: int) -> None:
        nonlocal state
        assert game is not None and make_think is not None
        think = make_think(game, clock.turn_seconds(seconds) / SWAP2_SEARCHES)
        reply, moves = swap2_reply(game, opening, stones, think, rng)
        state = opening
        for move in moves:
            state = game.apply(state, move)
        say(reply)

    def answer() -> None:
        nonlocal player, built_for, own_seconds, state
        assert game is not None and state is not None
        if game.is_terminal(state):
            say("ERROR the game is over")
            return
        turn = clock.turn_seconds(seconds)
        if player is None or built_for != (game, turn):
            if player is not None:
                player.close()
            player = None
            try:
                player, built_for = make_player(game, turn), (game, turn)
            except ValueError as error:  # a model for another board or rule
                say(f"ERROR {error}")
                return
            own_seconds = player.seconds
        if own_seconds is not None:
            player.seconds = min(own_seconds, clock.move_seconds(seconds))
        move = player.choose(state)
        player.observe(state, move)
        state = game.apply(state, move)
        say(to_xy(game, move))

    while True:
        line = lines.readline()
        if not line:
            return 0
        words = line.strip().split(maxsplit=1)
        if not words:
            continue
        command, rest = words[0].upper(), (words[1] if len(words) > 1 else "")
        if command == "END":
            return 0
        if command == "ABOUT":
            say(ABOUT)
        elif command == "START":
            try:
                game = find_game("gomoku", size=int(rest), row=ROW, rule=rule)
            except (InvalidOptionsError, ValueError) as error:
                say(f"ERROR unsupported size {rest!r}: {error}")
                continue
            state, player = game.initial_state(), None
            say("OK")
        elif command == "RECTSTART":
            say("ERROR rectangular boards are not supported")
        elif command == "INFO":
            told = _info(rest, clock, say)
            if told is not None and told != rule:
                rule = told
                if game is not None and state is not None:
                    game, state = _with_rule(game, state, rule)
                    player = None
        elif game is None or state is None:
            say(f"ERROR {command} before START")
        elif command == "RESTART":
            state, player = game.initial_state(), None
            say("OK")
        elif command == "BEGIN":
            state = game.initial_state()
            answer()
        elif command == "TURN":
            try:
                move = from_xy(game, rest)
                game.apply(state, move)
            except ValueError as error:
                say(f"ERROR bad move {rest!r}: {error}")
                continue
            if player is not None:
                player.observe(state, move)
            state = game.apply(state, move)
            answer()
        elif command == "BOARD":
            try:
                state = _read_board(game, lines)
            except ValueError as error:
                say(f"ERROR bad board: {error}")
                continue
            answer()
        elif command == "SWAP2BOARD":
            try:
                opening, stones = _read_swap2(game, lines)
            except ValueError as error:
                say(f"ERROR bad swap2 board: {error}")
                continue
            if make_think is None:
                say("ERROR this player does not open by swap2")
            else:
                answer_swap2(opening, stones)
        elif command == "TAKEBACK":
            try:
                state = _take_back(game, state, from_xy(game, rest))
            except ValueError as error:
                say(f"ERROR cannot take back {rest!r}: {error}")
                continue
            say("OK")
        else:
            say(f"UNKNOWN command {command}")


def _info(rest: str, clock: Clock, say: Callable[[str], None]) -> str | None:
    """Apply one ``INFO key value`` to ``clock`` (or say what we do not
    play); return the rule's name when the line sets one."""
    key, _, value = rest.strip().partition(" ")
    key, value = key.lower(), value.strip()
    if value.isdigit() and key in ("timeout_turn", "timeout_match", "time_left"):
        number = int(value)
        if key == "timeout_turn":
            clock.turn = number
        elif key == "timeout_match":
            clock.match = number
        else:
            clock.left = number
    if key != "rule" or not value.isdigit():
        return None
    bits = int(value)
    if bits & CARO:
        say(f"MESSAGE rule {value}: caro is not supported, playing without it")
    if bits & RENJU:
        return "renju"
    return "standard" if bits & EXACT_FIVE else "freestyle"


def _with_rule(game: Game, state: State, rule: str) -> tuple[Game, State]:
    """Return the game under ``rule`` and the position of ``state``'s stones."""
    ruled = find_game("gomoku", size=game.options["size"], row=ROW, rule=rule)
    black, white = _stones(game, state)
    own, opponent = (black, white) if game.to_move(state) == "black" else (white, black)
    return ruled, position(ruled, own, opponent)


def _lines_to_done(lines: TextIO) -> list[str]:
    """Read the lines up to ``DONE`` (all of them first: a bad line leaves
    none behind to be read as commands); return them, stripped."""
    texts: list[str] = []
    while True:
        line = lines.readline()
        if not line:
            raise ValueError("input ended before DONE")
        if line.strip().upper() == "DONE":
            return texts
        texts.append(line.strip())


def _read_board(game: Game, lines: TextIO) -> State:
    """Read ``x,y,who`` lines up to ``DONE``; return the position (side to
    move = ``1``'s stones)."""
    texts = _lines_to_done(lines)
    own: list[int] = []
    opponent: list[int] = []
    for text in texts:
        where, _, who = text.rpartition(",")
        who = who.strip()
        if not where or who not in ("1", "2", "3"):
            raise ValueError(f"{text!r}: expected x,y,1 (own) or x,y,2 (opponent)")
        move = from_xy(game, where)
        if move in own or move in opponent:
            raise ValueError(f"two stones on {where}")
        if who == "1":
            own.append(move)
        elif who == "2":
            opponent.append(move)
    return position(game, own, opponent)


def _read_swap2(game: Game, lines: TextIO) -> tuple[State, int]:
    """Read a ``SWAP2BOARD``'s lines up to ``DONE``: its stones in the order
    played, black first, each ``x,y`` or, as ``BOARD`` writes them (Rapfi
    reads only these), ``x,y,who`` (the order alone gives the colours);
    return the position and how many stones (0, 3 or 5)."""
    texts = _lines_to_done(lines)
    state = game.initial_state()
    for text in texts:
        where, _, who = text.rpartition(",")
        if who.strip() not in ("1", "2"):  # no side given: x,y
            where = text
        move = from_xy(game, where)
        if move not in game.legal_moves(state):
            raise ValueError(f"{text} is not free")
        state = game.apply(state, move)
    if len(texts) not in (0, 3, 5):
        raise ValueError(f"{len(texts)} stones: a swap2 board has 0, 3 or 5")
    return state, len(texts)


def swap2_reply(
    game: Game,
    state: State,
    stones: int,
    think: swap2.Think,
    rng: np.random.Generator,
) -> tuple[str, list[int]]:
    """Return our ``SWAP2BOARD`` answer in ``state`` (``stones`` placed) and
    the moves it plays: the stones we place, or white's move when we take
    white; none for ``SWAP``, which takes black."""
    choices = [] if stones < 5 else ["place2"]
    moves, choice = swap2.ai_turn(game, state, stones, choices, think, rng)
    if choice == "black":
        return "SWAP", []
    if choice == "white":
        moves = [think(state).code]
    return " ".join(to_xy(game, move) for move in moves), moves


def _take_back(game: Game, state: State, move: int) -> State:
    """Return ``state`` without the stone on ``move``; that stone's side moves."""
    black, white = _stones(game, state)
    if move in black:
        black.remove(move)
        return position(game, black, white)
    if move in white:
        white.remove(move)
        return position(game, white, black)
    raise ValueError("no stone there")


# ---- an external engine -------------------------------------------------------
class PiskvorkEngine(Player):
    """A Player that asks an external piskvork engine for each move.

    The engine starts at the first move (``START``, then ``INFO`` with the
    turn time in ``milliseconds`` and the game's rule). A move is asked with
    ``BEGIN`` on the empty board, ``TURN x,y`` when the engine knows the game
    but the last move, else ``BOARD``; the answer is checked with our rules:
    a malformed or illegal answer, or none within ``timeout`` seconds, is a
    :class:`Forfeit`. Its turns in a Swap2 opening are asked by
    ``SWAP2BOARD`` (:meth:`swap2_turn`).
    """

    def __init__(
        self,
        game: Game,
        command: str,
        *,
        milliseconds: int,
        cwd: str | None = None,
        timeout: float | None = None,
        name: str = "engine:piskvork",
    ) -> None:
        if game.name != "gomoku" or game.options["row"] != ROW:
            raise ValueError(
                f"a piskvork engine plays gomoku with five in a row, not {game!r}"
            )
        self.game = game
        self.command = command
        self.cwd = cwd
        self.milliseconds = milliseconds
        # Gomocup managers allow some slack over the turn time: so do we.
        self.timeout = 2 * milliseconds / 1000 + 2 if timeout is None else timeout
        self.name = name
        self._process: EngineProcess | None = None
        self._told: list[int] | None = None  # the moves the engine knows
        self._answered_at = 0.0
        self.history = History(game)
        #: The chatter (MESSAGE, DEBUG, INFO lines) the engine sent before
        #: its last move: Rapfi's carry its evaluation (see
        #: :mod:`mcts.lab.conversion`).
        self.messages: list[str] = []

    def observe(self, state: State, move: int) -> None:
        """Record the move: the next request carries it."""
        self.history.observe(state, move)

    def _engine(self) -> EngineProcess:
        if self._process is None:
            engine = self._process = EngineProcess(self.command, cwd=self.cwd)
            engine.send(f"START {self.game.options['size']}")
            reply = _answer(engine, START_TIMEOUT)
            if reply != "OK":
                raise Forfeit(f"engine answered {reply!r} to START")
            for key, value in (
                ("timeout_turn", self.milliseconds),
                ("timeout_match", 0),
                ("time_left", 2147483647),
                ("rule", RULE_CODES[self.game.options["rule"]]),
                ("thread_num", 1),
                ("pondering", 0),
            ):
                engine.send(f"INFO {key} {value}")
        return self._process

    def _settle(self) -> EngineProcess:
        """Return the engine, started, once it may take the next command."""
        engine = self._engine()
        time.sleep(max(0.0, self._answered_at + SETTLE - time.monotonic()))
        return engine

    def choose(self, state: State) -> int:
        """Return the engine's move in ``state``; Forfeit if it gives none."""
        history = self.history
        history.sync(state)
        engine = self._settle()
        moves = history.moves
        known = history.base == self.game.initial_state()
        if known and not moves:
            engine.send("BEGIN")
        elif known and self._told is not None and self._told == moves[:-1]:
            engine.send(f"TURN {to_xy(self.game, moves[-1])}")
        else:
            self._send_board(state)
        self.messages = []
        reply = _answer(engine, self.timeout, self.messages)
        self._answered_at = time.monotonic()
        try:
            move = from_xy(self.game, reply)
        except ValueError as error:
            raise Forfeit(f"engine answered {reply!r}: {error}") from None
        if move not in self.game.legal_moves(state):
            where = self.game.format_move(state, move)
            raise Forfeit(f"engine answered {reply!r}: {where} is not legal here")
        self._told = moves + [move] if known else None
        return move

    def swap2_turn(
        self, state: State, stones: int, choices: Sequence[str]
    ) -> tuple[list[int], str | None]:
        """Ask the engine for its turn in a Swap2 opening by ``SWAP2BOARD``:
        the stones of ``state`` (``stones`` of them, black and white in
        turn) as ``BOARD`` lines. Return what it places and its choice
        (:data:`.swap2.Turn`); Forfeit if the answer is none of the
        protocol's. Whether the turn is one the opening allows is for
        :func:`.swap2.play_opening` to judge."""
        engine = self._settle()
        black, white = _stones(self.game, state)
        mover_black = self.game.to_move(state) == "black"
        engine.send("SWAP2BOARD")
        for index in range(stones):
            is_black = index % 2 == 0
            move = (black if is_black else white)[index // 2]
            who = 1 if is_black == mover_black else 2
            engine.send(f"{to_xy(self.game, move)},{who}")
        engine.send("DONE")
        self.messages = []
        reply = _answer(engine, self.timeout, self.messages)
        self._answered_at = time.monotonic()
        self._told = None  # the engine's board is the opening's now
        if reply.upper() == "SWAP":
            return [], "black"
        try:
            moves = [from_xy(self.game, text) for text in reply.split()]
        except ValueError as error:
            raise Forfeit(f"engine answered {reply!r} to SWAP2BOARD: {error}") from None
        if swap2.step(stones, choices).placing:
            return moves, None
        return moves, "place2" if len(moves) == 2 else "white"

    def _send_board(self, state: State) -> None:
        """Send the position as ``BOARD``: the base's stones, then the moves
        in order (1 = the engine's, the side to move)."""
        assert self._process is not None
        mover_black = self.game.to_move(state) == "black"
        black, white = _stones(self.game, self.history.base)
        state_now = self.history.base
        ordered: list[tuple[int, bool]] = [(m, True) for m in black]
        ordered += [(m, False) for m in white]
        for move in self.history.moves:
            ordered.append((move, self.game.to_move(state_now) == "black"))
            state_now = self.game.apply(state_now, move)
        self._process.send("BOARD")
        for move, is_black in ordered:
            who = 1 if is_black == mover_black else 2
            self._process.send(f"{to_xy(self.game, move)},{who}")
        self._process.send("DONE")

    def close(self) -> None:
        """End the engine process (killed if it does not exit)."""
        if self._process is not None:
            self._process.close("END")
            self._process = None
        self._told = None


def _answer(
    engine: EngineProcess, timeout: float, chatter: list[str] | None = None
) -> str:
    """Return the engine's next line that is not chatter (MESSAGE, DEBUG...);
    the chatter lines before it are appended to ``chatter`` if given."""
    while True:
        line = engine.read_line(timeout).strip()
        if line and line.split()[0].upper() not in ("MESSAGE", "DEBUG", "INFO"):
            return line
        if line and chatter is not None:
            chatter.append(line)

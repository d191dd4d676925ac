"""The arena against external engines, played by tiny fake engines written
here (Python scripts run with this interpreter): every answer is checked by
our rules, and a bad one loses the game with the reason recorded."""

import os
import shlex
import sys
from pathlib import Path

import pytest

from mcts.games import find_game
from mcts.play.arena import play_game, run_match
from mcts.play.base import Forfeit
from mcts.play.players import find_player, parse_spec
from mcts.play.process import EngineNotStarted
from tests.play.fake_engines import READ_BOARD

ROOT = Path(__file__).resolve().parents[2]

NBOARD_FAKE = """
import os, sys
mode, pidfile = sys.argv[1], sys.argv[2]
open(pidfile, "a").write(f"{os.getpid()}\\n")
if mode == "legal":
    sys.path.insert(0, ROOT)
    from mcts.games import find_game
    from mcts.play import nboard
    game = find_game("reversi")
state = None
for line in sys.stdin:
    words = line.split()
    if not words or (mode == "silent" and words[0] != "ping"):
        continue  # the silent engine never moves nor quits
    if words[0] == "quit":
        break
    if words[0] == "ping":
        print("pong", words[1], flush=True)
    elif words[0] == "set" and words[1] == "game" and mode == "legal":
        start, texts = nboard.parse_ggf(game, line[9:])
        state = start
        for text in texts:
            state = game.apply(state, nboard.from_nboard(game, state, text))
    elif words[0] == "go":
        if mode == "legal":
            move = game.legal_moves(state)[-1]
            print("status thinking", flush=True)
            print("===", nboard.to_nboard(game, state, move) + "/0.5/0.01", flush=True)
        elif mode == "illegal":
            print("=== A1", flush=True)
        else:
            print("=== hello world", flush=True)
"""

PISKVORK_FAKE = (
    READ_BOARD
    + """
import os, sys
mode, pidfile = sys.argv[1], sys.argv[2]
open(pidfile, "a").write(f"{os.getpid()}\\n")
taken, size = set(), 0

def answer():
    if mode == "garbage":
        print("MESSAGE thinking hard", flush=True)
        print("e5 please", flush=True)
        return
    if mode == "illegal":
        print(f"{size // 2},{size // 2}", flush=True)  # the centre, taken or not
        return
    for y in range(size):
        for x in range(size):
            if (x, y) not in taken:
                taken.add((x, y))
                print("DEBUG", x, y, flush=True)
                print(f"{x},{y}", flush=True)
                return

lines = iter(sys.stdin)
for line in lines:
    words = line.strip().replace(",", " ").split()
    if not words:
        continue
    command = words[0].upper()
    if command == "END":
        break
    if command == "START":
        size = int(words[1])
        print("OK", flush=True)
    elif command == "BEGIN":
        answer()
    elif command == "TURN":
        taken.add((int(words[1]), int(words[2])))
        answer()
    elif command == "BOARD":
        taken = read_board(lines)
        answer()
    elif command == "SWAP2BOARD":  # logs its stones; places or swaps at once
        rows = []
        for row in lines:
            if row.strip() == "DONE":
                break
            rows.append(row.strip())
        open(pidfile + ".swap2", "a").write(" ".join(rows) + "\\n")
        taken = {tuple(int(v) for v in row.split(",")[:2]) for row in rows}
        if mode == "garbage":
            print("e5 please", flush=True)
        elif len(rows) == 5:
            print("SWAP", flush=True)
        else:  # three stones on the empty board, else two (hand it back)
            free = [(x, y) for y in range(size) for x in range(size)
                    if (x, y) not in taken]
            count = 3 if not rows else 2
            print(" ".join(f"{x},{y}" for x, y in free[:count]), flush=True)
"""
)


def _fake(tmp_path, source, mode):
    script = tmp_path / "fake_engine.py"
    script.write_text(source.replace("ROOT", repr(str(ROOT))))
    pidfile = tmp_path / f"pids-{mode}"
    command = " ".join(
        shlex.quote(str(part)) for part in (sys.executable, script, mode, pidfile)
    )
    return command, pidfile


def _all_ended(pidfile):
    for pid in map(int, pidfile.read_text().split()):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


def test_engine_specs_carry_a_command_and_round_trip():
    spec = parse_spec("engine:nboard:cmd=./ntest x,cwd=/opt/ntest,depth=4")
    assert spec.options == {
        "protocol": "nboard",
        "cmd": "./ntest x",
        "cwd": "/opt/ntest",
        "depth": 4,
    }
    assert parse_spec(str(spec)) == spec
    for bad in (
        "engine:uci:cmd=x",
        "engine:nboard",
        "engine:piskvork:cmd=x,depth=3",
        "engine:nboard:cmd=x,c=1.4",
        "mcts:cmd=x",
    ):
        with pytest.raises(ValueError):
            parse_spec(bad)


def test_a_legal_nboard_engine_plays_whole_games_and_ends_its_process(tmp_path):
    command, pids = _fake(tmp_path, NBOARD_FAKE, "legal")
    game = find_game("reversi")
    result = run_match(
        game, f"engine:nboard:cmd={command},depth=2", "random", games=2, seed=1
    )
    for record in result.records:
        assert "forfeits" not in record.reason
        assert game.is_terminal(game.play_all(record.moves))
    assert len(pids.read_text().split()) == 2 and _all_ended(pids)


@pytest.mark.parametrize(
    ("mode", "why"), [("illegal", "not legal"), ("garbage", "hello world")]
)
def test_an_nboard_engine_that_answers_badly_loses_and_the_record_says_why(
    tmp_path, mode, why
):
    command, pids = _fake(tmp_path, NBOARD_FAKE, mode)
    game = find_game("reversi")
    result = run_match(game, "random", f"engine:nboard:cmd={command}", games=2)
    assert result.a_wins == 2
    for record in result.records:
        colour = "white" if record.a_black else "black"
        assert record.reason.startswith(f"{colour} (engine:nboard:cmd=")
        assert "forfeits: engine answered" in record.reason and why in record.reason
    assert _all_ended(pids)


def test_a_silent_engine_forfeits_on_time_and_is_killed(tmp_path):
    command, pids = _fake(tmp_path, NBOARD_FAKE, "silent")
    game = find_game("reversi")
    engine = find_player(f"engine:nboard:cmd={command},timeout=0.5", game)
    with pytest.raises(Forfeit, match="no answer within 0.5 s"):
        engine.choose(game.initial_state())
    engine.close()
    assert _all_ended(pids)


def test_a_missing_engine_program_voids_the_game_it_would_lose():
    """CLI QA: it forfeited each game, and a wrong path scored 100% for the
    other player."""
    game = find_game("reversi")
    engine = find_player("engine:nboard:cmd=/nonexistent/engine", game)
    with pytest.raises(EngineNotStarted, match="could not start engine"):
        play_game(game, engine, find_player("random", game))


def test_a_piskvork_engine_plays_in_worker_processes(tmp_path):
    command, pids = _fake(tmp_path, PISKVORK_FAKE, "legal")
    game = find_game("gomoku", size=7)
    result = run_match(
        game, f"engine:piskvork:cmd={command},ms=100", "random", games=4, workers=2
    )
    assert result.games == 4
    for record in result.records:
        assert "forfeits" not in record.reason
        state = game.play_all(record.moves)  # every move was legal
        assert game.is_terminal(state)
    assert _all_ended(pids)


def test_piskvork_engine_is_sent_begin_turn_and_board_in_top_left_xy(tmp_path):
    command, _ = _fake(tmp_path, PISKVORK_FAKE, "legal")
    game = find_game("gomoku", size=7)
    engine = find_player(f"engine:piskvork:cmd={command}", game)
    try:
        start = game.initial_state()
        first = engine.choose(start)  # BEGIN: the fake takes the top-left corner
        assert game.format_move(start, first) == "a7"
        engine.observe(start, first)
        state = game.apply(start, first)
        reply = game.parse_move(state, "a6")  # 0,1: the fake's next free cell
        engine.observe(state, reply)
        state = game.apply(state, reply)
        assert game.format_move(state, engine.choose(state)) == "b7"  # TURN
        # A position it was not told move by move comes as a BOARD.
        other = game.play_all(["d4", "a7", "d5"])
        assert game.format_move(other, engine.choose(other)) == "b7"
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("mode", "why"), [("illegal", "is not legal here"), ("garbage", "e5 please")]
)
def test_a_piskvork_engine_that_answers_badly_loses(tmp_path, mode, why):
    command, pids = _fake(tmp_path, PISKVORK_FAKE, mode)
    game = find_game("gomoku", size=7)
    opening = [game.parse_move(game.initial_state(), "d4")]  # the centre: 3,3
    engine = find_player(f"engine:piskvork:cmd={command},ms=50", game)
    try:
        winner, _, reason = play_game(
            game, find_player("random", game), engine, opening
        )
    finally:
        engine.close()
    assert winner == "black"
    assert reason.startswith("white (engine:piskvork:") and why in reason
    assert _all_ended(pids)


def _swap2_match(game, command):
    """Two games opened by Swap2 of the fake engine against a quick search,
    each opening one."""
    return run_match(
        game,
        f"engine:piskvork:cmd={command},ms=100",
        "mcts-heavy",
        games=2,
        simulations=30,
        swap2_opening=True,
    )


def test_a_piskvork_engine_opens_by_swap2_in_the_arena(tmp_path):
    # The engine is asked each of its turns by SWAP2BOARD, the stones as
    # BOARD lines (1: the side to move's, white at every choice); it places
    # three, hands the choice back with two, and swaps at five.
    command, pids = _fake(tmp_path, PISKVORK_FAKE, "legal")
    game = find_game("gomoku", size=9, rule="renju")
    result = _swap2_match(game, command)
    for record in result.records:
        assert "forfeits" not in record.reason and record.opening_plies in (3, 5, 6)
        assert game.is_terminal(game.play_all(record.moves))
    asked = Path(f"{pids}.swap2").read_text().splitlines()
    assert "" in asked  # the opener's turn: the empty board
    for line in asked:
        whose = [row.split(",")[2] for row in line.split()]
        assert whose == ["2", "1", "2", "1", "2"][: len(whose)]
    assert _all_ended(pids)


def test_a_piskvork_engine_that_answers_swap2board_badly_loses(tmp_path):
    command, pids = _fake(tmp_path, PISKVORK_FAKE, "garbage")
    game = find_game("gomoku", size=9)
    result = _swap2_match(game, command)
    assert [record.a_score for record in result.records] == [0.0, 0.0]
    for record in result.records:
        assert "forfeits the Swap2 opening" in record.reason
        assert "e5 please" in record.reason and record.moves == ()
    assert _all_ended(pids)


@pytest.mark.parametrize(
    ("game", "protocol"),
    [(find_game("reversi"), "nboard"), (find_game("gomoku", size=7), "piskvork")],
)
def test_our_engine_command_plays_the_arena_through_its_protocol(game, protocol):
    ours = f"{shlex.quote(sys.executable)} -m mcts engine {game.name}"
    spec = f"engine:{protocol}:cmd={ours} --player random --seed 1,cwd={ROOT}"
    result = run_match(game, spec, "random", games=1, seconds=0.2)
    for record in result.records:
        assert "forfeits" not in record.reason
        assert game.is_terminal(game.play_all(record.moves))

"""Our engines behind the NBoard and piskvork protocols, driven by scripted
input; and the protocols' notation (GGF games, x,y from the top-left)."""

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mcts.cli import engine as engine_cli
from mcts.cli.main import main
from mcts.games import find_game
from mcts.models import store
from mcts.play import nboard, piskvork
from mcts.play.base import Player
from mcts.play.players import find_player
from mcts.search.gomoku.patterns import WEIGHTS as BOARD_WEIGHTS
from mcts.search.gomoku.weights import HAND_WEIGHTS

ROOT = Path(__file__).resolve().parents[2]
START_BO = "BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]"


class Recorder(Player):
    """Plays the first legal move and remembers the positions it was asked."""

    def __init__(self, game):
        self.game = game
        self.asked = []
        self.observed = []

    def choose(self, state):
        self.asked.append(state)
        return self.game.legal_moves(state)[0]

    def observe(self, state, move):
        self.observed.append(move)


def _nboard(lines, player=None):
    game = find_game("reversi")
    player = player or Recorder(game)
    out, err = io.StringIO(), io.StringIO()
    code = nboard.serve(game, player, io.StringIO("\n".join(lines) + "\n"), out, err)
    return code, out.getvalue().splitlines(), err.getvalue(), player


def _piskvork(lines, players=None):
    players = [] if players is None else players

    def make(game, seconds):
        players.append(Recorder(game))
        players[-1].seconds = seconds
        return players[-1]

    out = io.StringIO()
    code = piskvork.serve(make, io.StringIO("\n".join(lines) + "\n"), out)
    return code, out.getvalue().splitlines(), players


# ---- NBoard ---------------------------------------------------------------------
def test_ggf_round_trips_a_game_with_a_pass_marked_pa():
    game = find_game("reversi")
    start, texts = nboard.parse_ggf(
        game, f"(;GM[Othello]PB[b]PW[w]TY[8]{START_BO}B[F5//1.2]W[d6];)"
    )
    assert start == game.initial_state()
    assert texts == ["F5", "d6"]
    moves = [game.parse_move(start, "f5")]
    text = nboard.ggf(game, start, moves)
    assert START_BO in text and "B[F5]" in text
    assert nboard.to_nboard(game, start, game.PASS) == "PA"


def test_nboard_engine_answers_ping_and_a_legal_move_in_upper_case():
    code, out, err, player = _nboard(
        [
            "nboard 2",
            "set depth 8",
            "set contempt 0",
            f"set game (;GM[Othello]PC[x]PB[b]PW[w]RE[?]TI[0:00]TY[8]{START_BO}"
            "B[F5]W[D6];)",
            "ping 7",
            "go",
            "quit",
        ]
    )
    assert code == 0 and err == ""
    assert out[:2] == ["set myname mcts", "pong 7"]
    game = find_game("reversi")
    state = game.play_all(["f5", "d6"])
    assert player.asked == [state]
    assert out[2] == "=== " + game.format_move(state, player.choose(state)).upper()
    assert out[2] == "=== C3"


def test_nboard_moves_append_and_are_shown_to_the_player_once():
    code, out, err, player = _nboard(
        [
            "nboard 2",
            f"set game (;GM[Othello]TY[8]{START_BO};)",
            "go",
            "move D3/0/1",
            "move c3",
            "go",
        ]
    )
    game = find_game("reversi")
    assert [line[:4] for line in out[1:]] == ["=== ", "=== "]
    assert player.asked[1] == game.play_all(["d3", "c3"])
    assert [game.format_move(game.initial_state(), player.observed[0])] == ["d3"]
    assert len(player.observed) == 2


def test_nboard_plays_from_a_non_standard_start_position():
    board = START_BO.replace(" *]", " O]")  # the usual discs, white to move
    code, out, err, player = _nboard(
        [f"set game (;GM[Othello]TY[8]{board}W[E3];)", "go"]
    )
    game = find_game("reversi")
    start = game.parse_state(game.state_string(game.initial_state())[:-1] + "w")
    state = game.play(start, "e3")
    assert player.asked == [state] and game.to_move(state) == "black"
    assert out[0][4:].lower() in game.legal_move_texts(state)


def test_nboard_reports_a_bad_game_or_move_on_the_error_stream_only():
    code, out, err, _ = _nboard(
        ["set game (;GM[Othello]TY[10];)", "move A1", "frobnicate", "ping 1"]
    )
    assert out == ["pong 1"]
    assert "BO[" in err and "'A1' is not legal" in err and "frobnicate" in err


def test_nboard_hint_lists_the_best_moves_of_a_search():
    game = find_game("reversi")
    player = find_player("mcts:sims=200,seed=1", game)
    code, out, err, _ = _nboard(["hint 3"], player)
    assert len(out) == 3
    legal = [t.upper() for t in game.legal_move_texts(game.initial_state())]
    for line in out:
        word, move, value, zero, depth = line.split()
        assert (word, zero) == ("search", "0") and move in legal
        assert -64 <= float(value) <= 64 and int(depth) >= 1


def test_engine_command_speaks_nboard_on_stdin_and_stdout():
    script = "nboard 2\nset game (;GM[Othello]TY[8]%s B[F5];)\nping 1\ngo\nquit\n"
    run = subprocess.run(
        [sys.executable, "-m", "mcts", "engine", "reversi", "--protocol", "nboard"]
        + ["--seconds", "0.05", "--player", "mcts", "--seed", "1"],
        input=script % START_BO,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["set myname mcts", "pong 1"]
    game = find_game("reversi")
    legal = game.legal_move_texts(game.play_all(["f5"]))
    assert lines[2].startswith("=== ") and lines[2][4:].lower() in legal


def test_engine_command_refuses_a_protocol_of_another_game(capsys):
    assert main(["engine", "gomoku", "--protocol", "nboard"]) == 2
    assert "does not play gomoku" in capsys.readouterr().err


# ---- piskvork -------------------------------------------------------------------
def test_xy_counts_rows_from_the_top_and_renju_from_the_bottom():
    game = find_game("gomoku", size=15)
    c2 = game.parse_move(game.initial_state(), "c2")  # not symmetric: x=2, y=13
    assert piskvork.to_xy(game, c2) == "2,13"
    assert piskvork.from_xy(game, "2,13") == c2
    assert piskvork.from_xy(game, " 0,0") == game.parse_move(
        game.initial_state(), "a15"
    )
    for bad in ("15,0", "1;2", "a,b", "1,2,3"):
        with pytest.raises(ValueError):
            piskvork.from_xy(game, bad)


def test_piskvork_start_about_info_and_refusals():
    code, out, players = _piskvork(
        [
            "ABOUT",
            "START 20",
            "RECTSTART 10,12",
            "BEGIN",
            "START 9",
            "INFO timeout_turn 500",
            "INFO rule 12",
            "INFO time_left 10000",
            "INFO max_memory 0",
            "FROBNICATE",
            "END",
            "START 9",
        ]
    )
    assert code == 0
    assert out[0].startswith('name="mcts", version="')
    assert out[1].startswith("ERROR unsupported size")
    assert out[2].startswith("ERROR") and out[3] == "ERROR BEGIN before START"
    assert out[4] == "OK"
    assert out[5].startswith("MESSAGE") and "caro is not supported" in out[5]
    assert out[6].startswith("UNKNOWN")
    assert len(out) == 7  # nothing after END


@pytest.mark.parametrize(
    ("bits", "rule"),
    [("0", "freestyle"), ("1", "standard"), ("4", "renju"), ("5", "renju")],
)
def test_piskvork_info_rule_sets_the_rule_for_the_game_and_the_stones_on_it(bits, rule):
    code, out, players = _piskvork(
        [
            "START 15",
            "BOARD",
            "7,7,1",
            "8,8,2",
            "DONE",
            f"INFO rule {bits}",
            "TURN 9,9",
            "END",
        ]
    )
    assert code == 0 and len(out) == 3
    asked = players[-1].asked[-1]
    game = find_game("gomoku", size=15, rule=rule)
    assert game.state_string(asked).startswith(
        f"15:5:{'' if rule == 'freestyle' else rule + ':'}"
    )
    assert len(game.state_string(asked).split()[0].replace(".", "")) > 3


def test_piskvork_under_renju_never_plays_a_forbidden_point():
    # Black (we) to move with j8 a double three: the only point we must avoid.
    stones = ["7,7,1", "8,7,1", "9,6,1", "9,5,1", "0,0,2", "2,0,2", "4,0,2", "6,0,2"]
    code, out, players = _piskvork(
        ["START 15", "INFO rule 4", "BOARD", *stones, "DONE", "END"]
    )
    game = find_game("gomoku", size=15, rule="renju")
    asked = players[0].asked[0]
    j8 = game.parse_move_text(asked, "j8")
    assert game.forbidden_reason(asked, j8) == "double three"
    assert j8 not in game.legal_moves(asked)
    assert piskvork.from_xy(game, out[-1]) in game.legal_moves(asked)


def test_piskvork_begin_and_turn_answer_moves_and_follow_the_game():
    code, out, players = _piskvork(
        ["START 15", "INFO timeout_turn 200", "BEGIN", "TURN 8,6", "END"]
    )
    game = find_game("gomoku", size=15)
    player = players[0]
    assert player.seconds == pytest.approx(0.15)
    first = player.choose(game.initial_state())
    assert out == ["OK", piskvork.to_xy(game, first), out[2]]
    state = game.apply(game.initial_state(), first)
    state = game.apply(state, piskvork.from_xy(game, "8,6"))
    assert player.asked[1] == state
    assert out[2] == piskvork.to_xy(game, game.legal_moves(state)[0])


def test_piskvork_clock_gives_a_move_a_share_of_the_match_time_left():
    clock = piskvork.Clock()
    assert clock.move_seconds(1.0) == 1.0  # nothing told: the default
    clock.turn = 30_000
    assert clock.move_seconds(1.0) == pytest.approx(27.0)
    clock.left = 15_000  # no match limit: time_left alone changes nothing
    assert clock.move_seconds(1.0) == pytest.approx(27.0)
    clock.match = 180_000
    assert clock.move_seconds(1.0) == pytest.approx(0.9)  # 1 s less 10%
    clock.left = 180_000
    assert clock.move_seconds(1.0) == pytest.approx(10.8)  # 12 s less 10%
    # Each move's whole share and 50 ms of overhead: the clock lasts 90 moves.
    left = 180_000
    for _ in range(90):
        clock.left = left
        left -= int(1000 * clock.move_seconds(1.0)) + 50
    assert 0 < left < 1000


def test_piskvork_match_clock_lowers_the_think_time_of_the_same_player():
    code, out, players = _piskvork(
        [
            "START 15",
            "INFO timeout_turn 30000",
            "INFO timeout_match 180000",
            "INFO time_left 180000",
            "BEGIN",
            "INFO time_left 1500",
            "TURN 8,6",
            "END",
        ]
    )
    assert code == 0 and len(out) == 3
    assert len(players) == 1  # the clock does not rebuild the player
    assert players[0].seconds == pytest.approx(0.05)  # 0.1 s less 0.05


def test_piskvork_board_sets_the_position_with_our_stones_to_move():
    code, out, players = _piskvork(
        ["START 15", "BOARD", "7,7,2", "8,8,1", "9,9,2", "DONE", "TURN 0,0", "END"]
    )
    game = find_game("gomoku", size=15)
    asked = players[0].asked[0]
    assert game.to_move(asked) == "white"  # the opponent has one stone more
    h8 = game.parse_move(game.initial_state(), "h8")
    i7 = piskvork.from_xy(game, "8,8")
    assert piskvork.to_xy(game, i7) == "8,8" and game.format_move(asked, i7) == "i7"
    assert game.legal_moves(asked)[0] not in (h8, i7)
    assert len(out) == 3 and all("," in line for line in out[1:])
    ours = game.legal_moves(asked)[0]
    assert out[1] == piskvork.to_xy(game, ours)
    after = game.apply(game.apply(asked, ours), piskvork.from_xy(game, "0,0"))
    assert players[0].asked[1] == after


def test_piskvork_refuses_a_bad_board_and_a_bad_turn():
    code, out, _ = _piskvork(
        ["START 15", "BOARD", "7,7,1", "8,8,1", "DONE", "TURN 7,", "TURN 99,1", "END"]
    )
    assert out[0] == "OK"
    assert out[1].startswith("ERROR bad board")
    assert out[2].startswith("ERROR bad move") and out[3].startswith("ERROR bad move")


def test_piskvork_takeback_and_restart():
    code, out, players = _piskvork(
        ["START 15", "BEGIN", "TAKEBACK 7,7", "TAKEBACK 7,7", "RESTART", "BEGIN"]
    )
    ours = out[1]
    code, out, players = _piskvork(
        [
            "START 15",
            "BEGIN",
            f"TAKEBACK {ours}",
            f"TAKEBACK {ours}",
            "RESTART",
            "BEGIN",
        ]
    )
    assert out[:3] == ["OK", ours, "OK"]
    assert out[3].startswith("ERROR cannot take back")
    assert out[4:] == ["OK", ours]


def test_engine_command_plays_gomoku_with_the_alphabeta_player_by_default(
    monkeypatch, capsys
):
    made = []
    real = engine_cli.find_player

    def recording(spec, game, **kwargs):
        made.append(real(spec, game, **kwargs))
        return made[-1]

    monkeypatch.setattr(engine_cli, "find_player", recording)
    script = "START 15\nINFO timeout_turn 300\nBEGIN\nEND\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["engine", "gomoku"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "OK" and len(lines) == 2
    # One for each rule built before serving (to compile and load the rule's
    # model: freestyle's alpha-beta, the tree search under standard and
    # renju), then one for the game.
    assert [type(player).__name__ for player in made] == [
        "AlphaBetaPlayer",
        "MctsPlayer",
        "MctsPlayer",
        "AlphaBetaPlayer",
    ]
    # It evaluates by the shape weights of the light model, if it has any.
    light = store.load(store.model_path("gomoku", "light"), check="fast")
    weights = light.shape_weights or HAND_WEIGHTS
    assert np.array_equal(made[-1]._board[BOARD_WEIGHTS], weights.array())
    game = find_game("gomoku")
    assert piskvork.from_xy(game, lines[1]) in game.legal_moves(game.initial_state())


def _swap2(stones, seed=5, who=False):
    """Answer ``SWAP2BOARD`` with ``stones`` (renju notation; with ``who`` as
    ``x,y,who`` lines, as Rapfi reads them) by a quick search; return the
    output lines and the game."""
    game = find_game("gomoku", size=15)
    state = game.initial_state()
    lines = ["START 15", "SWAP2BOARD"]
    for index, name in enumerate(stones):
        move = game.parse_move(state, name)
        mover = (len(stones) - index) % 2 == 0  # the side to move's stone
        side = ("1" if mover else "2") if who else ""
        lines.append(",".join(filter(None, (piskvork.to_xy(game, move), side))))
        state = game.apply(state, move)
    lines += ["DONE", "END"]

    def make_think(game, seconds):
        return find_player("mcts-heavy:sims=200,seed=1", game).think

    out = io.StringIO()
    code = piskvork.serve(
        lambda game, seconds: Recorder(game),
        io.StringIO("\n".join(lines) + "\n"),
        out,
        make_think=make_think,
        seed=seed,
    )
    assert code == 0
    return out.getvalue().splitlines(), game, state


def test_piskvork_swap2board_places_three_stones_on_an_empty_board():
    out, game, state = _swap2([])
    stones = [piskvork.from_xy(game, xy) for xy in out[1].split()]
    assert len(stones) == 3
    for move in stones:  # black, white, black: each legal in turn
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


@pytest.mark.parametrize(
    "stones", [["h8", "i9", "h10"], ["h8", "i9", "h10", "g9", "j8"]]
)
@pytest.mark.parametrize("who", [False, True])
def test_piskvork_swap2board_answers_a_choice_gomocup_reads(stones, who):
    # SWAP takes black; one move plays white's now; after three stones two
    # moves (white, black) hand the choice back. The stones may say whose
    # they are (1: the side to move's), as BOARD's lines do.
    out, game, state = _swap2(stones, who=who)
    answer = out[1].split()
    if answer == ["SWAP"]:
        return
    allowed = (1, 2) if len(stones) == 3 else (1,)
    assert len(answer) in allowed
    for xy in answer:
        move = piskvork.from_xy(game, xy)
        assert move in game.legal_moves(state)
        state = game.apply(state, move)


def test_piskvork_swap2board_refuses_a_bad_board_and_reads_it_whole():
    out, _game, _state = _swap2(["h8"])
    assert out[1].startswith("ERROR bad swap2 board: 1 stones")
    script = ["START 15", "SWAP2BOARD", "7,7", "7,7", "8,8", "DONE", "ABOUT", "END"]
    code, lines, _players = _piskvork(script)
    assert lines[1].startswith("ERROR bad swap2 board") and "not free" in lines[1]
    assert lines[2].startswith("name=")  # the next command, not a leftover line

"""Bad input on the command lines is one line and exit code 2, before any
work, never a traceback or a figure that means nothing (CLI QA: a walk of
every command of the README and docs/)."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from mcts.cli.main import main
from mcts.lab.main import main as lab_main
from mcts.play import piskvork
from tests.play.test_protocols import _piskvork

ARENA = ["arena", "gomoku", "--size", "7", "--row", "4", "--a", "random"]


def refused(capsys, argv, *, lab=False) -> str:
    """Run ``argv``; assert it ends with code 2 and return its error text."""
    try:
        code = (lab_main if lab else main)(argv)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err
    return captured.err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        # KeyError: 'loa'
        (["engine", "loa"], "loa has no engine protocol"),
        # OverflowError: cannot convert float infinity to integer
        (["think", "reversi", "--seconds", "inf"], "--seconds"),
        # Started, then never answered NBoard's go.
        (["engine", "reversi", "--seconds", "-1"], "--seconds"),
        # Shown one move and "... 7 more moves" of four.
        (["think", "reversi", "--top", "-3"], "--top"),
        (ARENA + ["--b", "random", "--games", "0"], "--games"),
        (ARENA + ["--b", "random", "--workers", "0"], "--workers"),
        (ARENA + ["--b", "random", "--opening-plies", "-1"], "--opening-plies"),
        # A progress bar, then "manifest.json: cannot read".
        (["selfplay", "reversi", "--games", "0", "--model", "x"], "--games"),
        (["solve", "reversi"], "give a state string or --moves"),
        (["perft", "reversi", "-1"], "depth"),
        # Started an exact search of 60 empties: years.
        (["solve", "reversi", "--moves", "d3"], "59 empties: solve takes at most 30"),
        # "ready" for each game, warmed without the model asked for.
        (["warm", "--model", "nosuch"], "no model nosuch for gomoku, reversi, loa"),
        (["warm", "reversi", "--model", "light-renju"], "no model light-renju"),
    ],
)
def test_a_bad_value_is_one_line_before_any_work(capsys, argv, said):
    assert said in refused(capsys, argv)


def test_an_arena_record_that_cannot_be_written_is_refused_before_the_games(
    capsys, tmp_path
):
    """It failed after the first game, and a folder given left FOLDER.tmp
    beside it."""
    missing = tmp_path / "no-such-folder" / "games.jsonl"
    assert "--record" in refused(
        capsys, ARENA + ["--b", "random", "--record", str(missing)]
    )
    assert "--record" in refused(
        capsys, ARENA + ["--b", "random", "--record", str(tmp_path)]
    )
    assert list(tmp_path.parent.glob("*.tmp")) == []


def test_an_engine_that_cannot_start_voids_the_match(capsys):
    """A wrong engine path scored 100% ("forfeits: could not start engine" in
    each game), and the strength command saved it as a result."""
    argv = ["arena", "reversi", "--a", "random", "--games", "2"]
    argv += ["--b", "engine:nboard:cmd=/nonexistent/engine"]
    assert "could not start engine" in refused(capsys, argv)


def test_the_lab_bench_of_a_network_names_the_game_that_has_one(capsys):
    said = refused(
        capsys, ["bench", "reversi", "--evaluator", "network"], lab=True
    )  # KeyError: 'size'
    assert "gomoku" in said


def test_a_piskvork_board_with_a_bad_line_is_read_to_its_done():
    """The lines after the bad one were read as commands (UNKNOWN command
    9,9,1 ... UNKNOWN command DONE), and the message named '8', not 8,8."""
    code, out, _ = _piskvork(
        ["START 15", "BOARD", "7,7,2", "8,8", "9,9,1", "6,6,2", "DONE", "END"]
    )
    assert out[0] == "OK"
    assert out[1].startswith("ERROR bad board") and "'8,8'" in out[1]
    assert len(out) == 2, out


def test_output_cut_short_by_a_pipe_is_no_traceback():
    """``python -m mcts ... | head -1`` ended in a BrokenPipeError's traceback."""
    run = subprocess.Popen(
        [sys.executable, "-m", "mcts", "show", "reversi"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()  # the reader goes before the first line
    error = run.stderr.read().decode()
    assert run.wait(timeout=60) != 0 or error == ""
    assert "Traceback" not in error and "BrokenPipe" not in error


def test_model_info_on_a_packed_model_says_how_to_unpack_it(capsys, tmp_path):
    """CLI QA: "model/reversi/full/manifest.json: cannot read", and no word
    of the model/reversi/full.tar.xz beside it (a fresh checkout's)."""
    (tmp_path / "full.tar.xz").write_bytes(b"")
    said = refused(capsys, ["model", "info", str(tmp_path / "full")])
    assert f"python -m mcts model unpack {tmp_path / 'full.tar.xz'}" in said


@pytest.mark.parametrize(
    "argv",
    [
        ["think", "reversi", "--player", "mcts-heavy:level=6", "--seconds", "0.1"],
        ["arena", "reversi", "--a", "mcts-heavy:level=3", "--b", "random"]
        + ["--seconds", "1"],
    ],
)
def test_a_level_with_a_budget_is_refused_not_overridden(capsys, argv):
    """CLI QA: level 6 thought 2 s with --seconds 0.1, and the arena's header
    said 1.0 s/move while level 3 took 0.036 s."""
    assert "a level" in refused(capsys, argv)


def test_think_refuses_a_player_before_drawing_the_board(capsys):
    """CLI QA: the board came first, then "error: 'alphabeta' does not
    search" (it does: think shows a tree search's statistics)."""
    assert main(["think", "gomoku", "--size", "9", "--player", "alphabeta"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "tree search" in captured.err


def test_an_arena_interrupted_sums_up_the_games_it_finished(capsys, monkeypatch):
    """CLI QA: Ctrl-C was a traceback, and no word of the games finished."""
    from mcts.cli import search

    def interrupted(*args, on_game, **kwargs):
        on_game(
            search.GameRecord(
                index=0,
                a_black=True,
                winner="black",
                a_score=1.0,
                moves=("a1",),
                opening_plies=0,
            )
        )
        raise KeyboardInterrupt

    monkeypatch.setattr(search, "run_match", interrupted)
    assert main(ARENA + ["--b", "random", "--games", "4"]) == 130
    captured = capsys.readouterr()
    assert "interrupted after 1 games" in captured.err
    assert captured.out.strip().splitlines()[-1].startswith("A wins 1, B wins 0")


def test_a_player_that_cannot_play_the_board_started_answers_an_error():
    """CLI QA: a network model for another board stopped the piskvork engine
    with a traceback at its first move."""

    def make(game, seconds):
        raise ValueError(f"the model's network plays 8x8, not {game.options['size']}")

    out = io.StringIO()
    code = piskvork.serve(make, io.StringIO("START 15\nBEGIN\nEND\n"), out)
    assert code == 0
    assert out.getvalue().splitlines() == [
        "OK",
        "ERROR the model's network plays 8x8, not 15",
    ]


def test_the_engine_starts_with_a_network_for_another_board():
    """It built the player for 15x15 before START and stopped: "the model's
    network plays Gomoku(size=8, ...), not Gomoku(size=15, ...)"."""
    done = subprocess.run(
        [sys.executable, "-m", "mcts", "engine", "gomoku", "--seconds", "0.1"]
        + ["--player", "mcts-net:model=net-8x5"],
        input="START 8\nBEGIN\nEND\n",
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "OK"
    assert re.fullmatch(r"\d,\d", done.stdout.splitlines()[1]), done.stdout

"""Where a game against a reference engine was lost, against the tiny fake
engine of :mod:`tests.play.fake_engines` that plays and "proves" wins the
way Rapfi reports them."""

from mcts.games import find_game
from mcts.lab import lost_moves
from mcts.lab.conversion import Judge
from mcts.lab.lost_moves import LostMove, find_lost_move
from mcts.lab.main import main
from tests.play.fake_engines import prover_spec


def _engine(tmp_path):
    return prover_spec(tmp_path, "prover") + ",ms=50"


def _codes(game, names):
    state, codes = game.initial_state(), []
    for name in names.split():
        codes.append(game.parse_move(state, name))
        state = game.apply(state, codes[-1])
    return codes


def test_the_first_move_after_which_the_engine_proves_its_win(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    judge = Judge(_engine(tmp_path))
    moves = _codes(game, "e5 d4 e6 d5 e7 d6 e8 d7 e9")
    # White's moves are at plies 2, 4, ...; the first judged after the
    # opening's two plies is ply 4, d5.
    lost = find_lost_move(game, moves, "white", "black", judge, scan_ms=50)
    assert (lost.ply, lost.move, lost.after) == (4, "d5", 9)
    assert lost.engine_move == "a9"  # the fake's first free cell (x 0, y 0)
    assert lost.engine_after == 9  # its own choice is "proven lost" too
    assert lost.before == -8  # and the position before it already was
    assert (lost.colour, lost.winner, lost.plies) == ("white", "black", 9)


def test_no_lost_move_when_the_engine_proves_nothing_for_itself(tmp_path):
    game = find_game("gomoku", size=9, row=5)
    judge = Judge(_engine(tmp_path))
    moves = _codes(game, "e5 d4 e6 d5 e7 d6 e8 d7 e9")
    # After each black move white is to move, and the fake says it loses.
    lost = find_lost_move(game, moves, "black", "black", judge, scan_ms=50)
    assert lost.ply is None and lost.move is None and lost.after is None
    assert lost.plies == 9


def test_the_command_plays_the_games_and_sums_up_each_colour(tmp_path, capsys):
    engine = _engine(tmp_path)
    code = main(
        [
            "lost-moves",
            "--engine",
            engine,
            "--games",
            "2",
            "--size",
            "9",
            "--player",
            "random",
            "--seconds",
            "0.05",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "game   1: ours black" in out
    assert "game   2: ours white" in out
    # As white, the fake proves black's win after our first judged move,
    # ply 4, and its own choice there and the position before are lost too.
    assert (
        "the engine proved its win after our move in 1 at ply 4 (median; 4-4); "
        "its own choice there was proven lost too in 1, the position before "
        "already in 1" in out
    )
    assert "as black: won" in out
    assert "the engine proved its win after our move in 0;" in out


def test_the_command_wants_a_piskvork_engine(capsys):
    assert main(["lost-moves", "--engine", "mcts-heavy"]) != 0
    assert "engine:piskvork" in capsys.readouterr().err


def test_the_games_open_as_a_match_does_each_opening_twice(monkeypatch):
    # Standard Gomoku opens balanced in a match (tests/play/test_arena.py),
    # and so here: each opening once with our player black, once white.
    openings = iter([[112], [113]])
    monkeypatch.setattr(lost_moves, "match_opening", lambda game, rng: next(openings))
    played = []

    def play_game(game, black, white, opening):
        played.append(list(opening))
        return "black", [game.format_move(game.initial_state(), opening[0])], None

    monkeypatch.setattr(lost_moves, "play_game", play_game)
    monkeypatch.setattr(
        lost_moves, "find_lost_move", lambda *args, **kw: LostMove("black", None, 1)
    )
    game = find_game("gomoku")
    found = lost_moves.run(game, "random", "random", None, 4, 0.1, seed=1)
    assert played == [[112], [112], [113], [113]]
    assert len(found) == 4

"""The versus subcommand (registered by mcts.lab.commands.versus): two
builds, here both this checkout, play through child processes."""

import json
import re
from pathlib import Path

from mcts.games import find_game
from mcts.lab.commands.versus import BuildPlayer, add_commands
from mcts.play.arena import play_game
from tests.cli.subcommands import run_subcommand

CHECKOUT = str(Path(__file__).resolve().parents[2])


def test_a_build_in_a_child_process_plays_legal_moves_to_the_end():
    game = find_game("loa")
    black = BuildPlayer(game, CHECKOUT, "black")
    white = BuildPlayer(game, CHECKOUT, "white")
    try:
        for player, seed in ((black, 1), (white, 2)):
            player.new_game("random", 0.01, seed)
        winner, moves, reason = play_game(game, black, white)
    finally:
        black.close()
        white.close()
    assert winner in ("black", "white") and "forfeits" not in reason
    assert len(moves) > 10  # every one checked legal by play_game


def test_versus_plays_the_games_and_prints_a_score(capsys, tmp_path):
    record = tmp_path / "games.jsonl"
    argv = ["versus", "reversi", "--a", CHECKOUT, "--b", CHECKOUT, "--spec"]
    code, out = run_subcommand(
        add_commands,
        [*argv, "random", "--games", "2", "--seconds", "0.01", "--record", str(record)],
        capsys,
    )
    assert code == 0
    assert re.search(r"A score \d+\.\d% ± \d+\.\d%, \d distinct games$", out.strip())
    games = [json.loads(line) for line in record.read_text().splitlines()]
    assert [game["a_black"] for game in games] == [True, False]

"""The product's command line and the lab's: what each offers, and that the
library's façade loads neither."""

import subprocess
import sys

from mcts.cli.main import build_parser
from mcts.lab.main import REGISTRARS as LAB_REGISTRARS


def _commands(parser) -> set[str]:
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices)


def test_the_product_offers_a_dozen_commands_at_most_and_the_lab_the_rest():
    product = _commands(build_parser())
    lab = _commands(build_parser("lab", None, LAB_REGISTRARS))
    assert len(product) <= 12
    assert {"show", "think", "solve", "engine", "arena", "selfplay", "warm"} <= product
    assert {"strength", "bench", "train-patterns", "fit-shapes", "book"} <= lab
    assert not product & lab


def test_the_lab_runs_as_a_module():
    done = subprocess.run(
        [sys.executable, "-m", "mcts.lab", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "strength" in done.stdout


def test_the_facade_imports_neither_the_command_line_nor_the_lab():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, mcts; print(sorted(m for m in sys.modules "
            "if m.startswith(('mcts.cli', 'mcts.lab'))))",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_product_s_help_is_plain_words():
    # The descriptions are module docstrings: their Sphinx markup
    # (``python -m mcts.lab``'s (:mod:`mcts.lab.main`)) showed in a terminal.
    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    for text in (parser.format_help(), action.choices["engine"].format_help()):
        assert "``" not in text and ":mod:" not in text, text

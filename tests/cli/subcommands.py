"""Run the subcommands one CLI module registers, in-process: their errors
raise as they are (``python -m mcts`` turns them into exit code 2)."""

import argparse


def run_subcommand(add_commands, argv, capsys):
    """Return (exit code, standard output) of ``argv`` parsed by a parser
    holding only the subcommands ``add_commands`` registers."""
    parser = argparse.ArgumentParser(prog="mcts")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr().out

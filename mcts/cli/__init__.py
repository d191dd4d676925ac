"""``python -m mcts``: one module per group of subcommands (rules, search,
solve, engine, models); :mod:`.main` builds the parser."""

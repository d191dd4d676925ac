"""``python -m mcts``: one module per group of subcommands (rules, search, models)."""

"""The Django project and its one app: the web front of the mcts library."""

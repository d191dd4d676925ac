"""Players built from specs (``mcts-heavy:model=light``) and the arena that
plays them against each other."""

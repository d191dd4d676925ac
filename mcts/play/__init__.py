"""Players built from specs (``mcts-heavy:model=light``), the arena that
plays them against each other, and the games an opening book learns from."""

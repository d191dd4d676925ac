"""Training policy-value networks by self-play (the AlphaZero method).

Needs the optional training extra (``make train-setup``: PyTorch, CPU build);
nothing else in :mod:`mcts` imports this package, and playing with a trained
network needs only numpy (:mod:`mcts.search.gomoku.network`).
"""

"""Everything that fits weights or trains networks: Reversi's pattern
evaluation (:mod:`.reversi_patterns`), Gomoku's shape weights
(:mod:`.gomoku_shapes`) and policy-value networks by self-play (the
AlphaZero method: :mod:`.trainer` and the modules it uses).

The networks need the optional training extra (``make train-setup``:
PyTorch, CPU build); playing with a trained network needs only numpy
(:mod:`mcts.search.gomoku.network`). Nothing the product runs imports this
package.
"""

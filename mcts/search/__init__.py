"""The search: the generic MCTS and each game's knowledge.

The generic part is the tree (typed arrays, :mod:`.tree`), the numba loop
(:mod:`.kernel`), :class:`~.searcher.Searcher` and its configuration
(:mod:`.config`), the result (:mod:`.result`), the leaf evaluators
(:mod:`.rollouts`), the learned evaluation (:mod:`.learned`, :mod:`.features`)
and the proof check (:mod:`.proof_check`). Each game's knowledge, with its
typed search record, lives in its own package: :mod:`.reversi`,
:mod:`.gomoku` and :mod:`.loa`.
"""

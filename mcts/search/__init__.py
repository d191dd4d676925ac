"""The search: the generic MCTS and each game's knowledge.

The generic part is the tree (typed arrays, :mod:`.tree`), the numba loop
(:mod:`.kernel`), :class:`~.searcher.Searcher` and its configuration
(:mod:`.config`), the result (:mod:`.result`), the leaf evaluators
(:mod:`.rollouts`), the learned evaluation (:mod:`.learned`, :mod:`.features`)
and the proof check (:mod:`.proof_check`). Each game's knowledge, with its
typed search record, lives in its own package: :mod:`.reversi`,
:mod:`.gomoku` and :mod:`.loa`.

Kernels and compile time: numba compiles each kernel with every kernel it
calls linked in and optimised again, so a thin wrapper over a large kernel
costs that kernel's compile once more. A helper with one caller is
therefore inlined (``inline="always"``), and several searches a Python
caller needs together run in one kernel (:func:`.gomoku.threats.root.root_threats`).
Constants are passed as ``np.int64(...)``/``np.bool_(...)``: numba compiles
a kernel again for each literal. ``tests/web/test_no_compile.py`` holds the
signatures to those the warm-up compiles (docs/experiments/2026-11-29-compile-time.md).
"""

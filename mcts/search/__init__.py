"""The search: the tree (typed arrays), the numba loop, :class:`Searcher`, its
result, rollouts, position features and the learned evaluation."""

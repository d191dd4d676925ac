"""Gomoku threat-space search: the forced wins a tree search would need
millions of simulations to see, found by searching threats alone.

- :mod:`.lines`: the board's windows, win cells, fours and threes.
- :mod:`.vcf`: victory by continuous fours, and the moves that must block
  the opponent's.
- :mod:`.vct`: victory by continuous threats (threes, then a VCF).
- :mod:`.root`: what the searcher does with them before its tree search
  (:func:`~.root.plan_root`).

The kernel also runs a small VCF at each new leaf of the tree
(:func:`~.vcf.has_vcf`). All are numba kernels but the root's plan,
which is Python around one (:func:`~.root.root_threats`).
"""

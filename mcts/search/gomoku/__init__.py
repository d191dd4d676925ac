"""Gomoku's knowledge: move focus (:mod:`.focus`), line shapes (:mod:`.shapes`,
:mod:`.weights`), the threat search (:mod:`.threats`), the alpha-beta and
its board (:mod:`.alphabeta`, :mod:`.patterns`, :mod:`.planner`), the
network search (:mod:`.network`, :mod:`.net_search`, :mod:`.net_kernel`) and
the search's record (:mod:`.config`)."""

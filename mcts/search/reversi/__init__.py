"""Reversi's knowledge: the pattern evaluation (:mod:`.patterns`), the exact
endgame solver (:mod:`.endgame`) and the search's record (:mod:`.config`)."""

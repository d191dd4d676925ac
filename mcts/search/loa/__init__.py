"""Lines of Action's knowledge: the MIA-style evaluation (:mod:`.evaluation`),
MC-LOA's rollout and progressive bias (:mod:`.search`) and the search's
record (:mod:`.config`)."""

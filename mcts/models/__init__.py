"""Tree models: the model in memory, its files (store), replaying a tree's
positions, and growing a model by self-play."""

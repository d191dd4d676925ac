"""A helper the search tests share: a search's configuration with some of
its settings changed."""

from mcts.search.config import SearchConfig, game_settings

#: The settings of :class:`SearchConfig` itself; the others are the game's.
_GENERIC = ("c", "rule", "expand_visits")


def config(game, evaluator="heavy", **changes):
    """Return the SearchConfig of ``game``'s default settings for
    ``evaluator`` with ``changes``: ``c``, ``rule`` and ``expand_visits``
    to the config, the rest to the game's record."""
    generic = {key: changes.pop(key) for key in _GENERIC if key in changes}
    settings = game_settings(game, evaluator)._replace(**changes)
    return SearchConfig(evaluator=evaluator, game=settings, **generic)

"""The lab: what measures and improves the AI, apart from what plays.

``python -m mcts.lab`` (:mod:`.main`) runs its commands (:mod:`.commands`);
its library parts are the conversion benchmark (:mod:`.conversion`), where
games are lost (:mod:`.lost_moves`) and the Meta-MCTS opening book
(:mod:`.book`, :mod:`.book_games`). Nothing in the product imports it.
"""

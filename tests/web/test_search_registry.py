"""The process's AI searches by game (webgame.services.searches.SearchRegistry):
a page that asks for an AI move the game has just played gets that move."""

from __future__ import annotations

import threading
import uuid

from webgame.services.searches import SearchRegistry


def test_a_request_for_a_move_written_but_not_yet_answered_waits_for_it():
    """Two pages of a game between AIs ask for each move at its version. The
    second page's request came after the first one's move was written (the
    game one version on) and before its answer was kept: it got 409, and the
    page logged the error (a browser test caught it under load)."""
    registry = SearchRegistry()
    game = uuid.uuid4()
    got: dict = {}
    with registry.moving(game, 3, follow=False) as (move, following):
        assert not following
        late = threading.Thread(
            target=lambda: got.update(answer=registry.answered(game, 3, 4))
        )
        late.start()
        late.join(0.3)
        assert late.is_alive()  # waiting for the answer, not None at once
        move.answer = {"game": {"version": 4}, "search": {"move": "d3"}}
    late.join(5)
    assert got["answer"] == move.answer


def test_a_move_at_another_version_is_not_waited_for():
    registry = SearchRegistry()
    game = uuid.uuid4()
    with registry.moving(game, 5, follow=False):
        assert registry.answered(game, 3, 6) is None  # at once
        assert registry.answered(game, 5, 5) is None  # not written yet


def test_a_change_stops_the_search_from_an_earlier_version_only():
    """An undo as the computer thought: its search ran out its 5 s, and the
    next one waited for it, for a move that could no longer be written (a
    random walk against the computer)."""
    registry = SearchRegistry()
    game = uuid.uuid4()
    with registry.slot(game, 7):
        assert not registry.abandon(game, 7)  # a search from the change's version
        assert not registry.stop_asked(game)
        assert registry.abandon(game, 8)
        assert registry.stop_asked(game)
    with registry.slot(game, 8):
        assert not registry.stop_asked(game)


def test_a_search_from_a_version_already_replaced_stops_at_its_start():
    registry = SearchRegistry()
    game = uuid.uuid4()
    assert not registry.abandon(game, 4)  # no search under way yet
    with registry.slot(game, 3):  # its request had read the game before
        assert registry.stop_asked(game)

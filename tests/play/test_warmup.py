"""The warm-up's processes: the server waits for the rules of both stages,
and a stage that fails does not keep it waiting."""

from __future__ import annotations

import time

from mcts.play import warmup


def test_the_rules_are_done_once_each_stage_has_done_its_share_or_failed(monkeypatch):
    def search(model, gomoku_parts, rules_done):
        rules_done()

    def beside(model, gomoku_parts, rules_done):
        gomoku_parts.set()
        raise RuntimeError("a compile failed")

    # The stages' processes are forked: they run these stand-ins.
    monkeypatch.setitem(warmup.STAGES, "search", search)
    monkeypatch.setitem(warmup.STAGES, "beside", beside)
    monkeypatch.setattr(warmup, "warm_game", lambda name, model: 0)
    rules = []
    progress = warmup.warm_up(
        games=("loa", "reversi"), jobs=2, on_rules=lambda: rules.append(True)
    )
    assert rules == [True]
    assert {name: p.state for name, p in progress.items()} == {
        "loa": "ready",
        "reversi": "ready",
    }


def test_the_rules_wait_for_both_stages(monkeypatch):
    def search(model, gomoku_parts, rules_done):
        rules_done()

    def beside(model, gomoku_parts, rules_done):
        time.sleep(0.5)
        rules_done()
        gomoku_parts.set()

    monkeypatch.setitem(warmup.STAGES, "search", search)
    monkeypatch.setitem(warmup.STAGES, "beside", beside)
    monkeypatch.setattr(warmup, "warm_game", lambda name, model: 0)
    started, rules = time.monotonic(), []
    warmup.warm_up(
        games=("loa", "reversi"),
        jobs=2,
        on_rules=lambda: rules.append(time.monotonic()),
    )
    assert len(rules) == 1 and rules[0] - started >= 0.5

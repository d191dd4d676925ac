"""The warm-up's processes: the server waits for the rules of both stages,
and a stage that fails does not keep it waiting."""

from __future__ import annotations

import shutil
import time

import pytest

from mcts import ModelError
from mcts.games import find_game
from mcts.models.store import model_path
from mcts.play import warmup
from mcts.play.players import load_model


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


def test_a_damaged_model_leaves_the_kernels_warmed_without_it(tmp_path, monkeypatch):
    # QA: a truncated model stopped Lines of Action's warm-up ("failed: a
    # truncated line"), and its first AI move compiled in the server, 60 s.
    damaged = tmp_path / "light"
    shutil.copytree(model_path("loa", "light"), damaged)
    nodes = damaged / "nodes.jsonl"
    nodes.write_bytes(nodes.read_bytes()[: nodes.stat().st_size // 2])
    with pytest.raises(ModelError):
        load_model(find_game("loa"), str(damaged))
    warmed = []

    def play(name, model, counter):  # the search's paths, without the search
        warmed.append(model)
        if model is not None:
            load_model(find_game(name), model)

    monkeypatch.setattr(warmup, "_warm_game", play)
    assert warmup.warm_game("loa", model=str(damaged)) == 0
    assert warmed == [str(damaged), None]

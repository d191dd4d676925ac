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


@pytest.mark.parametrize(("cache_before", "kept"), [(False, 300), (True, 447)])
def test_only_a_cold_warm_up_s_count_is_kept(tmp_path, monkeypatch, cache_before, kept):
    """QA: a first start stopped mid-compile, then started again, compiled
    only what was left (124 of some 447) and kept that as the count a cold
    start's progress bar is drawn against: the next cold start's bar would
    have reached 95% a third of the way. A warm-up that found compiled code
    in its cache keeps the count it had."""
    import json

    import numba

    cache = tmp_path / "numba-abc"
    if cache_before:
        cache.mkdir()
        (cache / "kernel.nbi").write_text("")
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache), raising=False)
    monkeypatch.setattr(warmup, "warm_rules", lambda: None)
    monkeypatch.setattr(warmup, "warm_game", lambda name, model, on_compile: 300)
    (tmp_path / "warm-compiles.json").write_text(json.dumps({"gomoku": 447}))
    warmup.warm_up(games=("gomoku",), jobs=1)
    assert warmup.expected_compiles()["gomoku"] == kept


@pytest.mark.parametrize("chosen_by_user", [False, True])
def test_a_warm_up_removes_the_caches_of_sources_unused_for_a_week(
    tmp_path, monkeypatch, chosen_by_user
):
    """Each change to the sources compiles into a folder of its own (20-35 MB):
    an operator's checkout kept one more at every update."""
    import os

    import numba

    day = 86400
    folders = {}
    for name, age in [
        ("numba-current", 30),  # used again now: its age is renewed
        ("numba-before-the-update", 8),
        ("numba-a-branch-of-last-week", 2),
        ("pycache-of-something-else", 30),
    ]:
        folders[name] = tmp_path / name
        folders[name].mkdir()
        (folders[name] / "kernel.nbi").write_bytes(b"x")
        then = time.time() - age * day
        os.utime(folders[name], (then, then))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(folders["numba-current"]))
    if chosen_by_user:  # the user's folder, perhaps shared: never pruned
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(folders["numba-current"]))
    else:
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(warmup, "warm_rules", lambda: None)
    warmup.warm_up(games=())
    left = sorted(p.name for p in tmp_path.iterdir())
    if chosen_by_user:
        assert left == sorted(folders)
    else:
        assert left == [
            "numba-a-branch-of-last-week",
            "numba-current",
            "pycache-of-something-else",
        ]
        assert folders["numba-current"].stat().st_mtime > time.time() - 60


def test_a_cache_folder_that_cannot_be_pruned_does_not_stop_the_warm_up(
    tmp_path, monkeypatch
):
    """A read-only checkout, or another warm-up removing the same folder at
    once: the kernels are still warmed."""
    import numba

    from mcts import _numba_cache

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba-current"))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    warmed = []
    monkeypatch.setattr(warmup, "warm_rules", lambda: warmed.append(True))

    def refused(*args, **kwargs):
        raise PermissionError("read-only file system")

    monkeypatch.setattr(_numba_cache.os, "utime", refused)
    warmup.warm_up(games=())
    assert warmed == [True]

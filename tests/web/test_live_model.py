"""The server's live model grows from finished AI games: each game's search
gains are folded into model/<game>/live/ (seeded from light here) and saved,
and the model is then offered like any other."""

from __future__ import annotations

import json
import shutil
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework import status
from rest_framework.test import APIClient

from mcts import Tree
from mcts.models import store
from webgame.services import livegrowth
from webgame.services.livegrowth import GROWTH

from .helpers import create, url

SHIPPED = Path(settings.MODEL_DIR) / "reversi" / "light"
AI = {"kind": "ai", "model": "light", "level": 3}


@pytest.fixture
def client():
    return APIClient()


def _play_out(client, game_id: str) -> dict:
    """Ask the AI to move until the game is over; return the last snapshot."""
    while True:
        response = client.post(url("game-ai-move", game_id), {}, format="json")
        assert response.status_code == status.HTTP_200_OK, response.content
        game = response.json()["game"]
        if game["status"] == "finished":
            return game


@pytest.mark.django_db
def test_finished_ai_games_grow_and_save_the_live_model(
    client, settings, tmp_path, caplog
):
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 2
    light = store.load(tmp_path / "reversi" / "light", check="fast")
    live_dir = tmp_path / "reversi" / "live"
    for number in (1, 2):
        game = create(client, "reversi", black=AI, white=AI).json()
        _play_out(client, game["id"])
        GROWTH.wait()
        # Saved every second game, atomically: nothing half-written before.
        assert live_dir.exists() == (number == 2)
    manifest = json.loads((live_dir / store.MANIFEST).read_text())
    assert manifest["built"]["by"] == "live"
    assert manifest["built"]["live_games"] == 2
    # The operator reads each save in the log (QA: only failures were).
    saves = [r.getMessage() for r in caplog.records if "saved:" in r.getMessage()]
    assert len(saves) == 1 and saves[0].startswith(
        "live model of reversi saved: 2 games"
    )
    live = store.load(live_dir)
    assert int(live.tree.visits[0]) > int(light.tree.visits[0])
    kinds = client.get(reverse("game-kinds")).json()
    names = [m["name"] for k in kinds if k["name"] == "reversi" for m in k["models"]]
    assert names == ["light", "live"]


@pytest.mark.django_db
def test_a_game_with_other_options_does_not_grow_it(client, settings, tmp_path):
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 1
    ai = {"kind": "ai", "level": 1}
    game = create(client, "gomoku", options={"size": 7, "row": 4}, black=ai, white=ai)
    _play_out(client, game.json()["id"])
    GROWTH.wait()
    assert not (tmp_path / "gomoku" / "live").exists()


@pytest.mark.django_db
def test_playlive_plays_the_ai_against_itself_and_saves_the_model(settings, tmp_path):
    from django.core.management import call_command

    from webgame.models import Game as GameRow

    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 10
    call_command("playlive", "reversi", games=1, think_time=0.05)
    manifest = json.loads((tmp_path / "reversi" / "live" / store.MANIFEST).read_text())
    assert manifest["built"]["live_games"] == 1  # saved at the end, not at 10
    assert not GameRow.objects.exists()  # its games are not left behind


def test_a_new_live_model_starts_from_the_packed_full_model(settings, tmp_path):
    from mcts import pack_model
    from webgame.services.livegrowth import _seed_folder

    settings.MODEL_DIR = str(tmp_path)
    full = tmp_path / "reversi" / "full"
    shutil.copytree(SHIPPED, full)
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    pack_model(full)
    shutil.rmtree(full)  # shipped packed only, as on a fresh clone
    assert _seed_folder("reversi") == full
    assert store.load(full).nodes == store.load(SHIPPED, check="fast").nodes
    shutil.rmtree(tmp_path / "reversi")
    assert _seed_folder("reversi") is None


def test_a_search_hands_its_trees_to_the_writer_and_does_not_wait(monkeypatch):
    # Working out a search's gain took 0.04-0.25 s after a 2 s Lines of Action
    # search (level 6), and the player waited for it.
    release = threading.Event()
    worked_out = []

    def slow_gain(before, after):
        release.wait(30)
        worked_out.append(after.size)
        return before

    monkeypatch.setattr(livegrowth, "search_gain", slow_gain)
    tree = Tree()
    started = time.monotonic()
    livegrowth.record_search(uuid.uuid4().hex, 0, tree.snapshot(), tree.snapshot())
    assert time.monotonic() - started < 5 and worked_out == []
    release.set()
    GROWTH.wait()
    assert worked_out == [1]


@pytest.mark.django_db
def test_a_stop_saves_the_games_not_saved_yet(client, settings, tmp_path):
    """QA: the model was saved every LIVE_MODEL_SAVE_EVERY games and never
    as the server stopped: each restart lost up to nine games' gains."""
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 10
    game = create(client, "reversi", black=AI, white=AI).json()
    _play_out(client, game["id"])
    live_dir = tmp_path / "reversi" / "live"
    assert livegrowth.flush() == 1
    manifest = json.loads((live_dir / store.MANIFEST).read_text())
    assert manifest["built"]["live_games"] == 1
    assert livegrowth.flush() == 0  # nothing more to save


@pytest.mark.django_db
def test_a_damaged_live_model_is_set_aside_and_grows_again(
    client, settings, tmp_path, caplog
):
    """QA: a live model damaged at a start (a disk full, a crash under
    another tool) failed every finished game after, a traceback each, and
    never grew again. It is set aside, said once, and a new one grows."""
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "live")
    nodes = tmp_path / "reversi" / "live" / "nodes.jsonl"
    nodes.write_bytes(nodes.read_bytes()[: nodes.stat().st_size // 2])
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 1
    livegrowth.GROWTH._models.clear()
    for _ in range(2):
        game = create(client, "reversi", black=AI, white=AI).json()
        _play_out(client, game["id"])
        GROWTH.wait()
    manifest = json.loads((tmp_path / "reversi" / "live" / store.MANIFEST).read_text())
    assert manifest["built"]["live_games"] == 2
    aside = [p.name for p in (tmp_path / "reversi").iterdir() if "damaged" in p.name]
    assert len(aside) == 1 and aside[0].startswith(".live.damaged-")
    said = [r for r in caplog.records if "set aside" in r.getMessage()]
    assert len(said) == 1 and said[0].levelname == "WARNING"
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_a_live_model_that_fails_to_save_three_times_stops_growing(
    settings, tmp_path, monkeypatch, caplog
):
    """A save that kept failing (the Lines of Action writer's bug, found by
    make bench-memory) logged a traceback for every finished game, kept every
    unsaved game's gains in memory, grew the tree past its cap (pruned only
    at a save) and made each stop fail the same save again. After three
    failures in a row the model stops growing in this process, said once; the
    one on disk stays as it was and is still played."""
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    settings.MODEL_DIR = str(tmp_path)
    settings.LIVE_MODEL = "live"
    settings.LIVE_MODEL_SAVE_EVERY = 1
    monkeypatch.setattr(livegrowth, "GROWTH", livegrowth.Growth())
    tries = []

    def failing_save(live):
        tries.append(live.unsaved)
        raise RuntimeError("a writer's bug")

    monkeypatch.setattr(livegrowth.LiveModel, "save", failing_save)
    tree = Tree()
    assert livegrowth.enabled("reversi", {})
    for _ in range(5):
        game_id = uuid.uuid4().hex
        livegrowth.record_search(game_id, 0, tree.snapshot(), tree.snapshot())
        livegrowth.GROWTH.submit(game_id, "reversi", {}, [])
        livegrowth.GROWTH.wait()
    assert tries == [1, 2, 3]
    assert not livegrowth.enabled("reversi", {})
    assert livegrowth.enabled("gomoku", {})  # the other games grow theirs
    assert livegrowth.flush() == 0  # a stop does not try it again
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 4  # a traceback for each failure, then the stop
    assert "stops growing" in errors[-1] and "restart" in errors[-1]
    assert not (tmp_path / "reversi" / "live").exists()

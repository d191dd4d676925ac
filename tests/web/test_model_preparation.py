"""A model shipped packed (``NAME.tar.xz``) is listed as packed, unpacked and
loaded on request or at the AI's first move with it, with its status and
progress at /api/models/GAME/NAME/; a damaged archive is reported, never a
server path."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from rest_framework import status
from rest_framework.test import APITestCase

from mcts import pack_model
from webgame.services import treemodels

from .helpers import HUMAN, assert_error, create, url

SHIPPED = Path(settings.MODEL_DIR) / "reversi" / "light"


def wait_ready(client, game: str, name: str, seconds: float = 60) -> list[dict]:
    """Poll the model's status until it is ready or damaged; return every
    status seen."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        response = client.get(reverse("model-status", args=[game, name]))
        assert response.status_code == status.HTTP_200_OK, response.content
        seen.append(response.json())
        if seen[-1]["status"] in ("ready", "damaged"):
            return seen
        time.sleep(0.05)
    raise AssertionError(f"still not ready: {seen[-1]}")


def finish_preparations() -> None:
    """Wait for the models being got ready in the background: a test's own
    (its folder is removed after it) or one before (CI, two processes: an
    unpacking still running as the folder went, and the next test read its
    status)."""
    for thread in threading.enumerate():
        if thread.name.startswith("prepare-"):
            thread.join(timeout=60)


class PackedModelTests(APITestCase):
    def setUp(self):
        finish_preparations()
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)
        self.addCleanup(finish_preparations)  # before the folder goes
        games = Path(self.folder) / "reversi"
        shutil.copytree(SHIPPED, games / "light")
        # "big": the light model shipped packed, as the full models are.
        shutil.copytree(SHIPPED, games / "big")
        pack_model(games / "big")
        shutil.rmtree(games / "big")
        self.games = games
        overrides = override_settings(MODEL_DIR=self.folder)
        overrides.enable()
        self.addCleanup(overrides.disable)

    def models(self) -> dict:
        kinds = self.client.get(reverse("game-kinds")).json()
        reversi = next(kind for kind in kinds if kind["name"] == "reversi")
        return {model["name"]: model for model in reversi["models"]}

    def test_a_packed_model_is_listed_with_its_nodes_and_archive_size(self):
        big = self.models()["big"]
        assert big["packed"] is True and big["status"] == "packed"
        assert big["nodes"] == self.models()["light"]["nodes"]
        assert big["bytes"] == (self.games / "big.tar.xz").stat().st_size
        assert big["damaged"] is None and big["progress"] is None

    def test_prepare_unpacks_and_loads_it_with_progress_then_it_is_ready(self):
        response = self.client.post(reverse("model-prepare", args=["reversi", "big"]))
        assert response.status_code == status.HTTP_202_ACCEPTED
        assert response.json()["status"] in ("unpacking", "loading", "ready")
        seen = wait_ready(self.client, "reversi", "big")
        assert seen[-1]["status"] == "ready", seen[-1]
        assert (self.games / "big" / "nodes.jsonl").is_file()
        progress = [s["progress"] for s in seen if s["status"] == "unpacking"]
        assert progress == sorted(progress)
        big = self.models()["big"]
        assert (big["packed"], big["status"]) == (False, "ready")

    def test_the_ais_first_move_with_a_packed_model_waits_for_it(self):
        ai = {"kind": "ai", "model": "big", "level": 1}
        game = create(self.client, "reversi", black=ai, white=HUMAN).json()
        response = self.client.post(url("game-ai-move", game["id"]))
        assert response.status_code == status.HTTP_200_OK, response.content
        # Level 1's few simulations, on top of the model's statistics.
        assert response.json()["search"]["root_visits"] > 1000
        assert self.models()["big"]["status"] == "ready"

    def test_an_explorer_storm_on_a_packed_model_costs_one_preparation(self):
        """The issue's finding: twenty explorer GETs naming the full model
        each loaded it. Now each answers at once, 503 with Retry-After, while
        one preparation runs in the background; then the explorer answers."""
        game = create(self.client, "reversi").json()["id"]
        started = time.monotonic()
        answers = [
            self.client.get(url("game-explorer", game), {"ply": 0, "model": "big"})
            for _ in range(20)
        ]
        assert time.monotonic() - started < 5
        waiting = [a for a in answers if a.status_code == 503]
        assert waiting, [a.status_code for a in answers]
        body = assert_error(waiting[0], 503, "busy")
        assert "being prepared" in body["detail"]
        assert waiting[0]["Retry-After"] == "3"
        assert wait_ready(self.client, "reversi", "big")[-1]["status"] == "ready"
        ready = self.client.get(url("game-explorer", game), {"ply": 0, "model": "big"})
        assert ready.status_code == 200 and ready.json()["known"] is True

    def test_the_explorer_and_prepare_count_against_the_ai_throttle(self):
        game = create(self.client, "reversi").json()["id"]
        with override_settings(AI_THROTTLE_RATE="2/min"):
            for _ in range(2):
                ok = self.client.get(url("game-explorer", game), {"ply": 0})
                assert ok.status_code == 200
            refused = self.client.get(url("game-explorer", game), {"ply": 0})
            assert_error(refused, 429, "throttled")
            prepare = self.client.post(
                reverse("model-prepare", args=["reversi", "big"])
            )
            assert_error(prepare, 429, "throttled")

    def test_a_folder_left_from_an_older_archive_is_unpacked_again(self):
        # As after a git pull of a rebuilt model: the folder is the old build.
        shutil.copytree(SHIPPED, self.games / "big")
        manifest = self.games / "big" / "manifest.json"
        manifest.write_text(manifest.read_text().replace('"nodes"', ' "nodes"', 1))
        assert self.models()["big"]["status"] == "packed"
        self.client.post(reverse("model-prepare", args=["reversi", "big"]))
        seen = wait_ready(self.client, "reversi", "big")
        assert seen[-1]["status"] == "ready", seen[-1]
        assert manifest.read_bytes() == (SHIPPED / "manifest.json").read_bytes()
        big = self.models()["big"]
        assert (big["packed"], big["status"]) == (False, "ready")

    def test_a_damaged_archive_is_listed_as_damaged_without_a_server_path(self):
        archive = self.games / "big.tar.xz"
        archive.write_bytes(archive.read_bytes()[:200])
        big = self.models()["big"]
        assert big["status"] == "damaged" and "big.tar.xz" in big["damaged"]
        response = self.client.post(reverse("model-prepare", args=["reversi", "big"]))
        assert_error(response, status.HTTP_400_BAD_REQUEST, "model_unavailable")
        assert self.folder not in response.content.decode()

    def test_an_archive_damaged_past_its_manifest_is_damaged_once_unpacked(self):
        archive = self.games / "big.tar.xz"
        data = archive.read_bytes()
        archive.write_bytes(data[: len(data) // 2])
        assert self.models()["big"]["status"] == "packed"  # its manifest reads
        self.client.post(reverse("model-prepare", args=["reversi", "big"]))
        final = wait_ready(self.client, "reversi", "big")[-1]
        assert final["status"] == "damaged" and "big.tar.xz" in final["detail"]
        assert self.folder not in str(final)
        assert not (self.games / "big").exists()

    def test_a_disk_that_refuses_the_unpacking_is_said_not_waited_for(self):
        # QA: a read-only model folder left "unpacking 0%" for good, and each
        # AI move with it was a 500 with a traceback.
        # A name of its own: this process keeps each model's status.
        shutil.copytree(SHIPPED, self.games / "unwritable")
        pack_model(self.games / "unwritable")
        shutil.rmtree(self.games / "unwritable")
        refused = OSError(30, "Read-only file system")
        with mock.patch.object(treemodels, "unpack_model", side_effect=refused):
            self.client.post(reverse("model-prepare", args=["reversi", "unwritable"]))
            final = wait_ready(self.client, "reversi", "unwritable", seconds=10)[-1]
            assert final["status"] == "damaged"
            assert final["detail"] == (
                "the server could not unpack it (Read-only file system)"
            )
            game = create(
                self.client,
                black={"kind": "ai", "model": "unwritable", "level": 1},
                white=HUMAN,
            ).json()
            moved = self.client.post(url("game-ai-move", game["id"]), {}, format="json")
            assert_error(moved, 400, "model_unavailable")

    def test_unknown_models_are_404(self):
        for name in ("nothing", "big.tar.xz"):
            response = self.client.get(reverse("model-status", args=["reversi", name]))
            assert_error(response, status.HTTP_404_NOT_FOUND, "unknown_model")
            response = self.client.post(reverse("model-prepare", args=["loa", name]))
            assert_error(response, status.HTTP_404_NOT_FOUND, "unknown_model")

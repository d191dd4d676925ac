"""A damaged model never breaks the page's lists: GET /api/games/kinds/ lists
it as damaged, naming the file and line, the others beside it, and no reply
names a folder of the server."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.test import override_settings
from django.urls import reverse
from rest_framework import status
from rest_framework.test import APITestCase

from mcts.models import store
from webgame.services import treemodels

from .helpers import HUMAN, assert_error, create, url

SHIPPED = Path(settings.MODEL_DIR) / "reversi" / "light"
DAMAGE = {
    "array": "[]",
    "number": "12",
    "not-json": '{\n"format": oops}',
    "no-files": json.dumps({"format": "mcts-tree-model", "version": 2, "nodes": 3}),
}


class DamagedModelTests(APITestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)
        games = Path(self.folder) / "reversi"
        # Format version 1 (one JSON object a line, checked line by line), so
        # the damage is named by its line; version 2 names a checksum block.
        store.save(store.load(SHIPPED), games / "light", version=1)
        for name, text in DAMAGE.items():
            (games / name).mkdir()
            (games / name / "manifest.json").write_text(text)
        shutil.copytree(games / "light", games / "cut")
        nodes = games / "cut" / "nodes.jsonl"
        nodes.write_bytes(nodes.read_bytes()[:5000])

    def test_kinds_lists_each_damaged_model_with_its_file_and_line(self):
        with override_settings(MODEL_DIR=self.folder):
            response = self.client.get(reverse("game-kinds"))
        assert response.status_code == status.HTTP_200_OK
        assert self.folder not in response.content.decode()
        kinds = {kind["name"]: kind for kind in response.json()}
        models = {m["name"]: m for m in kinds["reversi"]["models"]}
        assert sorted(models) == sorted([*DAMAGE, "cut", "light"])
        assert models["light"]["damaged"] is None
        assert models["light"]["nodes"] > 1000
        assert models["not-json"]["damaged"].startswith(
            "manifest.json line 2: not JSON"
        )
        assert models["array"]["damaged"] == (
            "manifest.json: not a mcts-tree-model manifest"
        )
        assert models["cut"]["damaged"].startswith("nodes.jsonl line ")
        assert "truncated" in models["cut"]["damaged"]
        assert all(models[name]["nodes"] is None for name in [*DAMAGE, "cut"])

    def test_a_damaged_model_is_refused_by_name_without_a_server_path(self):
        with override_settings(MODEL_DIR=self.folder):
            response = create(
                self.client, "reversi", black={"kind": "ai", "model": "cut"}
            )
        assert_error(response, status.HTTP_400_BAD_REQUEST, "model_unavailable")
        assert "nodes.jsonl line" in response.json()["detail"]
        assert self.folder not in response.content.decode()

    def test_a_model_damaged_inside_a_line_names_it_without_a_server_path(self):
        nodes = Path(self.folder) / "reversi" / "light" / "nodes.jsonl"
        lines = nodes.read_bytes().splitlines(keepends=True)
        lines[2] = lines[2].replace(b"{", b"[", 1)  # same size: the list sees no fault
        nodes.write_bytes(b"".join(lines))
        ai = {"kind": "ai", "model": "light", "level": 1}
        with override_settings(MODEL_DIR=self.folder):
            game = create(self.client, "reversi", black=ai, white=HUMAN).json()
            response = self.client.post(url("game-ai-move", game["id"]))
        assert_error(response, status.HTTP_400_BAD_REQUEST, "model_unavailable")
        detail = response.json()["detail"]
        assert "reversi/light/nodes.jsonl line 3" in detail
        assert (
            self.folder not in detail and str(Path(self.folder).resolve()) not in detail
        )

    def test_each_damaged_model_is_logged_once_at_a_start(self):
        # Operator QA: a damaged model reached the log only as each client's
        # refusal, at INFO.
        with (
            override_settings(MODEL_DIR=self.folder),
            self.assertLogs("webgame.services.treemodels", "WARNING") as logged,
        ):
            treemodels.log_damaged_models()
            treemodels.log_damaged_models()  # once each
            self.client.get(reverse("game-kinds"))
        warned = [line for line in logged.output if "cut of reversi" in line]
        assert len(warned) == 1
        assert "is damaged and cannot be used: nodes.jsonl line " in warned[0]
        assert len(logged.output) == len(DAMAGE) + 1  # light is whole


def test_a_start_removes_what_a_killed_server_left_half_written(tmp_path, settings):
    """QA: a server killed while it unpacked a full model (70 MB) or saved
    its live model left the half-made folders beside the models for good.
    A start removes those an hour old or more; younger ones may be another
    process's at work, and a live model set aside as damaged is kept."""
    import os
    import time

    settings.MODEL_DIR = str(tmp_path)
    folder = tmp_path / "reversi"
    left = [".unpack-full-12565-yobgp9u3", ".live.tmp-3985oa0f", ".live.old-ab12"]
    kept = [".live.damaged-20261204-213000", "light", ".unpack-full-1-fresh"]
    for name in left + kept:
        (folder / name).mkdir(parents=True)
        (folder / name / "nodes.jsonl").write_text("{}\n")
    hour_ago = time.time() - 3700
    for name in left + kept[:2]:
        os.utime(folder / name, (hour_ago, hour_ago))
    packing = folder / ".full.tar.xz.tmp-k2j4"
    packing.write_bytes(b"half")
    os.utime(packing, (hour_ago, hour_ago))
    treemodels.remove_leftovers()
    assert sorted(p.name for p in folder.iterdir()) == sorted(kept)

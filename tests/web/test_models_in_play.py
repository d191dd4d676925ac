"""The AI uses the tree model a player picked: its search starts warm."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from rest_framework import status
from rest_framework.test import APITestCase

from mcts import Searcher, find_game
from webgame.services import ai

from .helpers import HUMAN, create, url

LIGHT_AI = {"kind": "ai", "level": 1, "model": "light"}


class ModelInPlayTests(APITestCase):
    def ai_move(self, black):
        game = create(self.client, "reversi", black=black, white=HUMAN).json()
        response = self.client.post(url("game-ai-move", game["id"]), format="json")
        assert response.status_code == status.HTTP_200_OK, response.content
        return response.json()["search"]

    def test_a_model_starts_the_search_with_its_stored_visits(self):
        search = self.ai_move(LIGHT_AI)
        # Level 1 runs 10 simulations; the root holds far more from the model.
        assert search["simulations"] <= 10
        assert search["root_visits"] > 10 * search["simulations"]

    def test_a_model_lends_its_evaluation_and_no_model_takes_it_back(self):
        game = find_game("reversi")
        searcher = Searcher(game)
        row = SimpleNamespace(game="reversi")
        ai._use_model(searcher, row, game, "light")
        assert searcher.evaluation is not None
        assert searcher.evaluation.game == "reversi"
        # The page's AI scores Reversi leaves by the model's pattern weights.
        assert searcher.patterns is not None
        ai._use_model(searcher, row, game, None)
        assert searcher.evaluation is None
        assert searcher.patterns is None

    def test_without_a_model_the_search_starts_cold(self):
        search = self.ai_move({"kind": "ai", "level": 1})
        assert search["root_visits"] <= search["simulations"] + 1

    def test_a_corrupt_model_is_a_clear_error_naming_the_line(self):
        with tempfile.TemporaryDirectory() as folder:
            broken = Path(folder) / "reversi" / "light"
            shutil.copytree(Path(settings.MODEL_DIR) / "reversi" / "light", broken)
            nodes = broken / "nodes.jsonl"
            lines = nodes.read_text().splitlines(keepends=True)
            lines[2] = "{not json\n"
            nodes.write_text("".join(lines))
            with self.settings(MODEL_DIR=folder):
                # The file's size differs from the manifest's: refused at once.
                response = create(self.client, "reversi", black=LIGHT_AI)
        assert response.status_code == status.HTTP_400_BAD_REQUEST
        body = response.json()
        assert body["error"] == "model_unavailable"
        assert "nodes.jsonl" in body["detail"] and "line 3" in body["detail"]
        assert folder not in body["detail"]

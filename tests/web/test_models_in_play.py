"""The AI uses the tree model a player picked: its search starts warm."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from rest_framework import status
from rest_framework.test import APITestCase

from mcts import Level, MctsPlayer, NetSearcher, Searcher, find_game
from webgame.services import ai, searches

from .helpers import HUMAN, assert_error, create, url

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

    def test_a_model_lends_its_evaluation_and_no_model_lends_none(self):
        game = find_game("reversi")
        searcher = ai.ai_player(game, "light").searcher
        assert searcher.evaluation is not None
        assert searcher.evaluation.game == "reversi"
        # The page's AI scores Reversi leaves by the model's pattern weights.
        assert searcher.patterns is not None
        searcher = ai.ai_player(game, None).searcher
        assert searcher.evaluation is None
        assert searcher.patterns is None

    def test_a_gomoku_model_lends_its_alphabeta_the_fitted_shape_weights(self):
        from mcts.models.model import Model
        from mcts.search.gomoku.weights import ShapeWeights

        game = find_game("gomoku")
        fitted = ShapeWeights(
            (0.0, 1.0, 60.0, 160.0, 299.0, 1e3, 1e5), 800, 300, 0, 0.3
        )
        model = Model(game, Searcher(game).tree, game.initial_state())
        model.shape_weights = fitted
        player = MctsPlayer(game, Searcher(game), level=Level(seconds=1), model=model)
        assert player.searcher.shape_weights == fitted
        player = MctsPlayer(game, Searcher(game), level=Level(seconds=1))
        assert player.searcher.shape_weights is None

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


class NetworkModelInPlayTests(APITestCase):
    """A Gomoku model that carries a network plays with PUCT and the network
    on the board it was trained for, and with the usual search elsewhere."""

    def setUp(self):
        from mcts.models import store
        from mcts.models.model import Model
        from mcts.search.gomoku import network
        from mcts.search.tree import Tree

        self.folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.folder)
        game = find_game("gomoku", size=7, row=4)
        weights = network.random_weights(7)
        model = Model(game, Tree(2), game.initial_state(), network=weights)
        store.save(model, Path(self.folder) / "gomoku" / "net7")

    def ai_searcher(self, options):
        ai_player = {"kind": "ai", "level": 2, "model": "net7"}
        with self.settings(MODEL_DIR=self.folder):
            game = create(
                self.client, "gomoku", options=options, black=HUMAN, white=ai_player
            ).json()
            played = self.client.post(
                url("game-moves", game["id"]), {"move": "d4"}, format="json"
            )
            assert played.status_code == status.HTTP_200_OK, played.content
            response = self.client.post(url("game-ai-move", game["id"]), format="json")
        assert response.status_code == status.HTTP_200_OK, response.content
        player, _ = searches.SEARCHES.take(uuid.UUID(game["id"]))
        return player.searcher, response.json()

    def test_the_network_plays_on_its_board_and_sees_the_last_move(self):
        searcher, body = self.ai_searcher({"size": 7, "row": 4})
        assert isinstance(searcher, NetSearcher)
        assert body["search"]["simulations"] > 0
        # The network saw the human's move d4 as the last move.
        game = find_game("gomoku", size=7, row=4)
        assert searcher.last_move == game.parse_move(game.initial_state(), "d4")

    def test_the_list_names_the_board_the_network_was_trained_for(self):
        with self.settings(MODEL_DIR=self.folder):
            response = self.client.get(reverse("game-kinds"))
        kinds = {kind["name"]: kind for kind in response.json()}
        (listed,) = kinds["gomoku"]["models"]
        assert listed["name"] == "net7" and listed["network"] is True
        assert listed["options"] == {"size": 7, "row": 4, "rule": "freestyle"}

    def test_on_another_board_the_network_is_refused(self):
        # As the page offers it only on its board; it was taken, and the
        # usual search played without a word.
        ai_player = {"kind": "ai", "level": 2, "model": "net7"}
        with self.settings(MODEL_DIR=self.folder):
            response = create(
                self.client, "gomoku", options={"size": 9, "row": 5}, white=ai_player
            )
            body = assert_error(
                response, status.HTTP_400_BAD_REQUEST, "model_other_board"
            )
            assert "7\u00d77" in body["detail"] or "7×7" in body["detail"]
            game = create(self.client, "gomoku", options={"size": 9, "row": 5}).json()
            response = self.client.patch(
                url("game-detail", game["id"]),
                {"players": {"white": ai_player}},
                format="json",
            )
            assert_error(response, status.HTTP_400_BAD_REQUEST, "model_other_board")


class ModelRuleTests(APITestCase):
    """A Gomoku model learned one rule: the API refuses it for a game of
    another (400, nothing changed), as the page offers it only there."""

    def renju_ai(self, model):
        return {"kind": "ai", "level": 1, "model": model}

    def test_a_game_takes_only_a_model_of_its_rule(self):
        renju = {"rule": "renju"}
        response = create(
            self.client, "gomoku", options=renju, black=self.renju_ai("light")
        )
        body = assert_error(response, status.HTTP_400_BAD_REQUEST, "model_other_rule")
        assert (
            "the Freestyle rule" in body["detail"] and "plays Renju" in body["detail"]
        )
        # The rules named as the page names them (Chinese QA: "学的是 renju
        # 规则，而本局使用 freestyle 规则").
        response = create(
            self.client.__class__(HTTP_ACCEPT_LANGUAGE="zh-hans"),
            "gomoku",
            options=renju,
            black=self.renju_ai("light"),
        )
        detail = assert_error(response, 400, "model_other_rule")["detail"]
        assert "freestyle" not in detail and "连珠（有禁手）" in detail, detail
        response = create(
            self.client, "gomoku", options=renju, black=self.renju_ai("light-renju")
        )
        assert response.status_code == status.HTTP_201_CREATED, response.content

    def test_a_patch_with_a_model_of_another_rule_changes_nothing(self):
        game = create(self.client, "gomoku").json()  # freestyle
        response = self.client.patch(
            url("game-detail", game["id"]),
            {"players": {"white": self.renju_ai("light-renju")}},
            format="json",
        )
        assert_error(response, status.HTTP_400_BAD_REQUEST, "model_other_rule")
        after = self.client.get(url("game-detail", game["id"])).json()
        assert after["players"] == game["players"] and after["version"] == 0
        response = self.client.patch(
            url("game-detail", game["id"]),
            {"players": {"white": self.renju_ai("light")}},
            format="json",
        )
        assert response.status_code == status.HTTP_200_OK, response.content

"""Every endpoint of the API and every error it promises, one behaviour a test."""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from unittest import mock

import pytest
from django.contrib.staticfiles import finders
from django.test import override_settings
from django.urls import reverse
from rest_framework import status
from rest_framework.test import APITestCase

from mcts import LEVELS
from mcts.games import find_game
from mcts.search.searcher import Searcher
from webgame.models import Game as GameRow
from webgame.services import games

from .helpers import FAST_AI, HUMAN, assert_error, create, url

LOA_BLACK_WIN = [
    "d1-b3",
    "h5-g4",
    "b1-b4",
    "g4xg1",
    "b4-e7",
    "a3xc1",
    "b3-e6",
    "h3xf1",
    "e1-e5",
]
GOMOKU_SMALL = {"size": 5, "row": 3}

GAME_KEYS = {
    "id",
    "game",
    "options",
    "players",
    "board",
    "state",
    "to_move",
    "legal_moves",
    "moves",
    "last_move",
    "status",
    "result",
}


class KindsTests(APITestCase):
    def test_kinds_lists_the_three_games_with_their_options(self):
        with tempfile.TemporaryDirectory() as empty, self.settings(MODEL_DIR=empty):
            response = self.client.get(reverse("game-kinds"))
        assert response.status_code == status.HTTP_200_OK
        kinds = {kind["name"]: kind for kind in response.json()}
        assert set(kinds) == {"reversi", "gomoku", "loa"}
        assert kinds["gomoku"]["options"] == {"size": 15, "row": 5, "rule": "freestyle"}
        assert kinds["gomoku"]["option_specs"]["size"] == {
            "type": "integer",
            "min": 5,
            "max": 19,
        }
        assert kinds["loa"]["option_specs"]["no_move"]["choices"] == ["pass", "lose"]
        assert all(kind["models"] == [] for kind in kinds.values())

    def test_kinds_lists_models_found_on_disk_and_create_accepts_them(self):
        import tempfile
        from pathlib import Path

        from django.conf import settings

        shipped = Path(settings.MODEL_DIR) / "gomoku" / "light" / "manifest.json"
        manifest = json.loads(shipped.read_text())
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(shipped.parent, Path(tmp) / "gomoku" / "light")
            # A manifest the store refuses: listed as damaged. No manifest: not
            # a model.
            damaged = Path(tmp) / "gomoku" / "damaged"
            damaged.mkdir()
            (damaged / "manifest.json").write_text(json.dumps({"nodes": 1234}))
            (Path(tmp) / "gomoku" / "../../etc").mkdir(exist_ok=True)
            with override_settings(MODEL_DIR=tmp):
                kinds = self.client.get(reverse("game-kinds")).json()
                gomoku = next(kind for kind in kinds if kind["name"] == "gomoku")
                names = [model["name"] for model in gomoku["models"]]
                assert names == ["damaged", "light"]
                assert gomoku["models"][0]["damaged"] == (
                    "manifest.json: not a mcts-tree-model manifest"
                )
                light = gomoku["models"][1]
                assert light["damaged"] is None
                assert light["nodes"] == manifest["nodes"]
                public = {k: v for k, v in manifest["built"].items() if k != "command"}
                assert light["built"] == public
                assert light["bytes"] > 0
                ai = {"kind": "ai", "model": "light", "level": 1}
                assert create(self.client, "gomoku", white=ai).status_code == 201
                # The same name is not a model of another game.
                assert_error(
                    create(self.client, "reversi", white=ai),
                    status.HTTP_400_BAD_REQUEST,
                    "unknown_model",
                )


class FieldErrorTests(APITestCase):
    """Operator QA: a clock's wrong type was invalid_request, and a field
    refused for its value (not its type) came without ``fields``."""

    def test_a_clocks_every_fault_is_invalid_clock_and_names_the_field(self):
        friend = {"game": "gomoku", "friend": {"side": "black"}}
        for clock in ({"initial": 60.5, "increment": 2}, {"initial": 6000000}, 5):
            response = self.client.post(
                reverse("game-create"), {**friend, "clock": clock}, format="json"
            )
            assert set(assert_error(response, 400, "invalid_clock")["fields"]) == {
                "clock"
            }

    def test_a_refusal_of_a_fields_value_names_the_field(self):
        body = assert_error(
            create(self.client, "gomoku", options={"size": 4}), 400, "invalid_options"
        )
        assert body["fields"] == {"options": [body["detail"]]}
        record = {"game": "reversi", "record": "zz"}
        body = self.client.post(reverse("game-import"), record, format="json").json()
        assert body["error"] == "invalid_record" and list(body["fields"]) == ["record"]


class CreateTests(APITestCase):
    def test_create_returns_201_with_the_whole_game(self):
        response = create(self.client, "reversi", white=FAST_AI)
        assert response.status_code == status.HTTP_201_CREATED
        game = response.json()
        assert set(game) >= GAME_KEYS
        assert game["to_move"] == "black"
        assert sorted(game["legal_moves"]) == ["c4", "d3", "e6", "f5"]
        assert game["moves"] == [] and game["last_move"] is None
        assert game["status"] == "playing" and game["result"] is None
        assert game["players"]["white"] == {
            "kind": "ai",
            "model": None,
            "level": 1,
            "think_time": None,
        }
        assert game["version"] == 0

    def test_reversi_board_has_a1_top_left(self):
        board = create(self.client).json()["board"]
        assert board["ranks"][0] == "1" and board["files"][0] == "a"
        # d4 (row 4 from the top, file d) holds a white disc at the start.
        assert board["cells"][3][3] == "white"
        assert board["cells"][3][4] == "black"

    def test_gomoku_board_has_a1_bottom_left_and_the_options_asked(self):
        game = create(self.client, "gomoku", options={"size": 7, "row": 4}).json()
        assert game["options"] == {"size": 7, "row": 4, "rule": "freestyle"}
        assert game["board"]["ranks"] == ["7", "6", "5", "4", "3", "2", "1"]
        assert len(game["legal_moves"]) == 49
        after = self.client.post(
            url("game-moves", game["id"]), {"move": "a1"}, format="json"
        ).json()
        assert after["board"]["cells"][6][0] == "black"

    def test_a_standard_overline_is_named_and_does_not_win(self):
        game = create(self.client, "gomoku", options={"rule": "standard"}).json()
        assert game["overline"] is None
        moves = ["c8", "a1", "d8", "a3", "e8", "a5", "g8", "a7", "h8", "a9", "f8"]
        for move in moves:
            game = self.client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            ).json()
            assert game["overline"] == (move if move == "f8" else None)
        assert game["status"] == "playing"
        after = self.client.post(
            url("game-moves", game["id"]), {"move": "a11"}, format="json"
        ).json()
        assert after["overline"] is None  # only the last move's
        freestyle = create(self.client, "gomoku").json()
        assert freestyle["overline"] is None

    def test_loa_legal_moves_are_also_grouped_by_from_square(self):
        game = create(self.client, "loa").json()
        grouped = game["legal_by_from"]
        assert sorted(sum(grouped.values(), [])) == sorted(game["legal_moves"])
        assert all(
            move.startswith(square)
            for square, moves in grouped.items()
            for move in moves
        )
        assert "b1-b3" in grouped["b1"]
        assert create(self.client).json()["legal_by_from"] is None

    def test_players_default_to_human_and_ai_defaults_to_one_second(self):
        body = {"game": "gomoku", "players": {"white": {"kind": "ai"}}}
        game = self.client.post(reverse("game-create"), body, format="json").json()
        assert game["players"]["black"] == {"kind": "human"}
        assert game["players"]["white"]["think_time"] == 1.0

    def test_model_none_means_no_model(self):
        ai = {"kind": "ai", "model": "none", "think_time": 0.5}
        game = create(self.client, white=ai).json()
        assert game["players"]["white"]["model"] is None

    def test_unknown_game_is_400(self):
        response = self.client.post(
            reverse("game-create"), {"game": "chess"}, format="json"
        )
        body = assert_error(response, 400, "unknown_game")
        assert "reversi" in body["detail"]

    def test_a_long_value_is_not_echoed_whole(self):
        # Hostile-client QA: a 60,000-character name came back twice, in
        # the detail and in the fields (120 KB).
        response = self.client.post(
            reverse("game-create"), {"game": "x" * 60_000}, format="json"
        )
        body = assert_error(response, 400, "unknown_game")
        assert len(response.content) < 2000
        assert "xxx…xxx" in body["detail"] and "reversi" in body["detail"]
        assert body["fields"]["game"][0] in body["detail"]

    def test_bad_options_are_400_and_say_what_is_accepted(self):
        for options in ({"size": 30}, {"size": 9, "row": 10}, {"colour": 1}):
            body = assert_error(
                create(self.client, "gomoku", options=options), 400, "invalid_options"
            )
            assert "size" in body["detail"] or "row" in body["detail"]
        assert_error(
            create(self.client, "reversi", options={"size": 8}), 400, "invalid_options"
        )
        assert_error(
            create(self.client, "loa", options={"repetition": 4}),
            400,
            "invalid_options",
        )

    def test_options_must_be_an_object(self):
        response = self.client.post(
            reverse("game-create"), {"game": "gomoku", "options": [1]}, format="json"
        )
        assert_error(response, 400, "invalid_options")

    def test_think_time_out_of_range_is_400(self):
        for think_time in (0.05, 10.5, "soon", -1):
            ai = {"kind": "ai", "think_time": think_time}
            body = assert_error(
                create(self.client, white=ai), 400, "invalid_think_time"
            )
            assert "0.1" in body["detail"] and "10" in body["detail"]

    def test_level_out_of_range_is_400(self):
        assert_error(
            create(self.client, white={"kind": "ai", "level": 7}), 400, "invalid_level"
        )

    def test_level_and_think_time_together_are_400(self):
        ai = {"kind": "ai", "level": 2, "think_time": 1}
        assert_error(create(self.client, white=ai), 400, "invalid_players")

    def test_unknown_player_kind_is_400(self):
        assert_error(
            create(self.client, white={"kind": "robot"}), 400, "invalid_players"
        )

    def test_unknown_model_is_400(self):
        ai = {"kind": "ai", "model": "../../etc/passwd", "level": 1}
        body = assert_error(create(self.client, white=ai), 400, "unknown_model")
        assert "passwd" in body["detail"]

    def test_unknown_field_is_400(self):
        response = self.client.post(
            reverse("game-create"), {"game": "reversi", "colour": "x"}, format="json"
        )
        body = assert_error(response, 400, "invalid_request")
        assert "colour" in body["detail"]

    def test_missing_game_is_400(self):
        response = self.client.post(reverse("game-create"), {}, format="json")
        body = assert_error(response, 400, "invalid_request")
        assert "game" in body["detail"]

    def test_body_not_json_is_400(self):
        response = self.client.post(
            reverse("game-create"), "{game: reversi", content_type="application/json"
        )
        assert_error(response, 400, "parse_error")

    def test_body_a_json_list_is_400(self):
        response = self.client.post(reverse("game-create"), [1, 2], format="json")
        assert_error(response, 400, "invalid_request")

    def test_body_too_large_is_413(self):
        body = json.dumps({"game": "reversi", "pad": "x" * 70_000})
        response = self.client.post(
            reverse("game-create"), body, content_type="application/json"
        )
        assert_error(
            response, status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "payload_too_large"
        )

    def test_form_body_is_415(self):
        response = self.client.post(reverse("game-create"), {"game": "reversi"})
        assert_error(
            response, status.HTTP_415_UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"
        )

    def test_nothing_is_stored_when_create_fails(self):
        from webgame.models import Game

        create(self.client, "gomoku", options={"size": 99})
        assert Game.objects.count() == 0


class DetailTests(APITestCase):
    def test_get_returns_the_stored_game(self):
        created = create(self.client).json()
        response = self.client.get(url("game-detail", created["id"]))
        assert response.status_code == status.HTTP_200_OK
        assert response.json() == created

    def test_unknown_game_id_is_404(self):
        response = self.client.get(url("game-detail", uuid.uuid4()))
        assert_error(response, status.HTTP_404_NOT_FOUND, "not_found")

    def test_malformed_game_id_is_404(self):
        response = self.client.get("/api/games/12345/")
        assert_error(response, status.HTTP_404_NOT_FOUND, "not_found")

    def test_unknown_api_url_is_404_json(self):
        for method in ("get", "post", "delete"):
            response = getattr(self.client, method)("/api/nothing/here/")
            assert_error(response, status.HTTP_404_NOT_FOUND, "not_found")

    def test_an_api_url_without_its_last_slash_is_told_so(self):
        # API QA: GET /api/games/{id} was "no API endpoint", nothing more.
        game_id = create(self.client).json()["id"]
        for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/moves"):
            response = self.client.get(path)
            detail = assert_error(response, 404, "not_found")["detail"]
            assert detail.endswith(f"the API's URLs end with a slash: {path}/")
        other = assert_error(self.client.get("/api/nothing"), 404, "not_found")
        assert "slash" not in other["detail"]

    def test_the_apis_root_points_to_its_docs(self):
        # Long-session QA: GET /api/, where the README says the API is, was
        # the API's only 404 of an evening.
        response = self.client.get("/api/")
        assert response.status_code == 200
        assert response.json() == {
            "docs": "/api/docs/",
            "schema": "/api/schema/",
            "games": "/api/games/",
            "kinds": "/api/games/kinds/",
            "ai": "/api/ai/",
        }

    def test_unknown_site_url_is_404_json(self):
        assert_error(self.client.get("/nothing/"), 404, "not_found")

    def test_wrong_method_is_405(self):
        game_id = create(self.client).json()["id"]
        for method in ("put", "delete"):
            response = getattr(self.client, method)(url("game-detail", game_id))
            assert_error(
                response, status.HTTP_405_METHOD_NOT_ALLOWED, "method_not_allowed"
            )
        assert_error(
            self.client.get(url("game-moves", game_id)), 405, "method_not_allowed"
        )
        assert_error(self.client.get(reverse("game-create")), 405, "method_not_allowed")


class MoveTests(APITestCase):
    def setUp(self):
        self.game = create(self.client).json()
        self.moves_url = url("game-moves", self.game["id"])

    def play(self, move, **extra):
        return self.client.post(self.moves_url, {"move": move, **extra}, format="json")

    def test_a_legal_move_is_played_and_stored_in_notation(self):
        response = self.play("F5")
        assert response.status_code == status.HTTP_200_OK
        game = response.json()
        assert game["moves"] == ["f5"] and game["last_move"] == "f5"
        assert game["to_move"] == "white" and game["version"] == 1
        assert sorted(game["legal_moves"]) == ["d6", "f4", "f6"]
        stored = self.client.get(url("game-detail", self.game["id"])).json()
        assert stored["moves"] == ["f5"]

    def test_illegal_move_is_400_listing_legal_moves_and_changes_nothing(self):
        body = assert_error(self.play("a1"), 400, "illegal_move")
        for move in ("c4", "d3", "e6", "f5"):
            assert move in body["detail"]
        stored = self.client.get(url("game-detail", self.game["id"])).json()
        assert stored["moves"] == [] and stored["version"] == 0

    def test_malformed_move_is_400(self):
        body = assert_error(self.play("z9"), 400, "invalid_move")
        assert "a1 to h8" in body["detail"]
        assert_error(self.play(""), 400, "invalid_move")
        assert_error(self.play(17), 400, "invalid_move")

    def test_missing_move_is_400(self):
        response = self.client.post(self.moves_url, {}, format="json")
        body = assert_error(response, 400, "invalid_request")
        assert "move" in body["detail"]

    def test_a_stale_version_is_409(self):
        self.play("f5")
        body = assert_error(
            self.play("f4", version=0), status.HTTP_409_CONFLICT, "conflict"
        )
        assert "version" in body["detail"]
        assert self.play("f4", version=1).status_code == 200

    def test_move_when_the_ai_is_to_move_is_403(self):
        game = create(self.client, black=FAST_AI).json()
        response = self.client.post(
            url("game-moves", game["id"]), {"move": "f5"}, format="json"
        )
        body = assert_error(response, 403, "not_your_turn")
        assert "ai-move" in body["detail"]

    def test_move_after_the_end_is_400(self):
        game = import_game(self.client, "gomoku", "a1 a2 b1 b2 c1", GOMOKU_SMALL)
        assert game["status"] == "finished"
        response = self.client.post(
            url("game-moves", game["id"]), {"move": "e5"}, format="json"
        )
        body = assert_error(response, 400, "game_over")
        assert "black won" in body["detail"]

    def test_a_winning_move_finishes_the_game_with_a_result(self):
        game = create(self.client, "gomoku", options=GOMOKU_SMALL).json()
        for move in ("a1", "a2", "b1", "b2"):
            self.client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            )
        final = self.client.post(
            url("game-moves", game["id"]), {"move": "c1"}, format="json"
        ).json()
        assert final["status"] == "finished"
        assert final["result"] == {
            "winner": "black",
            "reason": "three in a row",
            "score": None,
        }
        assert final["to_move"] is None and final["legal_moves"] == []

    def test_a_finished_renju_game_marks_no_forbidden_point(self):
        """The red crosses stayed on a renju board that white had won by
        resignation, black to move (found by a random walk of two friends): a
        finished game has no move to forbid."""
        game = create(self.client, "gomoku", options={"rule": "renju"}).json()
        # Black's h8 i8 j9 j10 make j8 a double three.
        for move in ["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"]:
            played = self.client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            ).json()
        assert played["forbidden"] == {"j8": "double three"}
        final = self.client.post(url("game-resign", game["id"]), {}, format="json")
        assert final.status_code == 200, final.content
        assert final.json()["status"] == "finished"
        assert final.json()["forbidden"] == {}
        assert self.client.get(url("game-detail", game["id"])).json()["forbidden"] == {}
        # The resigned end's boards/ forbid nothing either.
        assert (
            self.client.get(url("game-boards", game["id"])).json()["forbidden"][-1]
            == {}
        )

    def test_the_boards_give_each_renju_positions_forbidden_points(self):
        """Teacher walk: stepping back through a renju game marked none."""
        moves = ["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7", "b15", "a9"]
        game = create(self.client, "gomoku", options={"rule": "renju"}).json()
        for move in moves:
            self.client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            )
        forbidden = self.client.get(url("game-boards", game["id"])).json()["forbidden"]
        assert len(forbidden) == len(moves) + 1
        assert forbidden[8] == {"j8": "double three"}  # black to move
        assert forbidden[0] == forbidden[7] == forbidden[9] == {}
        other = create(self.client, "gomoku").json()
        assert (
            self.client.get(url("game-boards", other["id"])).json()["forbidden"] is None
        )

    def test_loa_capture_is_stored_with_x(self):
        game = create(self.client, "loa").json()
        for move in LOA_BLACK_WIN[:3]:
            self.client.post(
                url("game-moves", game["id"]), {"move": move}, format="json"
            )
        after = self.client.post(
            url("game-moves", game["id"]), {"move": "g4-g1"}, format="json"
        ).json()
        assert after["last_move"] == "g4xg1"


def import_game(client, game, record, options=None):
    """Return the game imported from ``record`` (asserting 201)."""
    body = {"game": game, "record": record}
    if options:
        body["options"] = options
    response = client.post(reverse("game-import"), body, format="json")
    assert response.status_code == status.HTTP_201_CREATED, response.content
    return response.json()


class AIMoveTests(APITestCase):
    def test_ai_move_plays_for_the_side_to_move_and_reports_the_search(self):
        game = create(self.client, black=FAST_AI).json()
        response = self.client.post(url("game-ai-move", game["id"]), format="json")
        assert response.status_code == status.HTTP_200_OK
        body = response.json()
        assert body["game"]["moves"] == [body["search"]["move"]]
        assert body["game"]["to_move"] == "white"
        search = body["search"]
        assert search["move"] in ("c4", "d3", "e6", "f5")
        assert search["simulations"] == LEVELS[1].simulations
        assert sum(m["visits"] for m in search["moves"]) >= LEVELS[1].simulations - 1
        for key in ("value", "pv", "elapsed", "proven"):
            assert key in search
        assert {m["move"] for m in search["moves"]} == {"c4", "d3", "e6", "f5"}

    @pytest.mark.timing
    def test_ai_move_with_a_think_time_respects_it(self):
        # numba compiles Gomoku's kernels (threat search and alpha-beta too)
        # on their first call, in whichever search comes first: not the time
        # this measures. The second search has its time for the alpha-beta.
        Searcher(find_game("gomoku")).search(simulations=1)
        Searcher(find_game("gomoku")).search(seconds=0.05)
        ai = {"kind": "ai", "think_time": 0.2}
        game = create(self.client, "gomoku", black=ai).json()
        body = self.client.post(url("game-ai-move", game["id"])).json()
        assert 0.1 < body["search"]["elapsed"] < 1.0

    def test_ai_move_when_a_human_is_to_move_is_400(self):
        game = create(self.client, white=FAST_AI).json()
        response = self.client.post(url("game-ai-move", game["id"]), format="json")
        body = assert_error(response, 400, "not_ai_turn")
        assert "black" in body["detail"]

    def test_ai_move_after_the_end_is_400(self):
        game = import_game(self.client, "loa", " ".join(LOA_BLACK_WIN))
        self.client.patch(
            url("game-detail", game["id"]),
            {"players": {"white": FAST_AI}},
            format="json",
        )
        response = self.client.post(url("game-ai-move", game["id"]), format="json")
        assert_error(response, 400, "game_over")

    def test_ai_move_in_an_unknown_game_is_404(self):
        response = self.client.post(url("game-ai-move", uuid.uuid4()))
        assert_error(response, 404, "not_found")

    @override_settings(AI_MAX_PENDING=0)
    def test_ai_move_when_all_slots_are_taken_is_503_with_retry_after(self):
        game = create(self.client, black=FAST_AI).json()
        response = self.client.post(url("game-ai-move", game["id"]))
        assert_error(response, status.HTTP_503_SERVICE_UNAVAILABLE, "busy")
        assert int(response["Retry-After"]) >= 1
        stored = self.client.get(url("game-detail", game["id"])).json()
        assert stored["moves"] == []

    @override_settings(AI_THROTTLE_RATE="2/min")
    def test_ai_requests_are_throttled_per_client_with_retry_after(self):
        game = create(self.client, black=FAST_AI, white=FAST_AI).json()
        for _ in range(2):
            assert self.client.post(url("game-ai-move", game["id"])).status_code == 200
        response = self.client.post(url("game-hint", game["id"]))
        assert_error(response, status.HTTP_429_TOO_MANY_REQUESTS, "throttled")
        # A made-up X-Forwarded-For does not make a new client.
        spoofed = self.client.post(
            url("game-hint", game["id"]), HTTP_X_FORWARDED_FOR="10.9.8.7"
        )
        assert_error(spoofed, status.HTTP_429_TOO_MANY_REQUESTS, "throttled")
        assert int(response["Retry-After"]) > 0
        # Non-AI requests are not throttled.
        assert self.client.get(url("game-detail", game["id"])).status_code == 200


class HintTests(APITestCase):
    def test_hint_searches_without_playing(self):
        game = create(self.client, "gomoku", options={"size": 7, "row": 4}).json()
        response = self.client.post(
            url("game-hint", game["id"]), {"level": 1}, format="json"
        )
        assert response.status_code == status.HTTP_200_OK
        body = response.json()
        assert body["search"]["move"] in game["legal_moves"]
        assert body["game"]["moves"] == [] and body["game"]["version"] == 0
        stored = self.client.get(url("game-detail", game["id"])).json()
        assert stored["moves"] == []

    def test_hint_think_time_out_of_range_is_400(self):
        game = create(self.client).json()
        response = self.client.post(
            url("game-hint", game["id"]), {"think_time": 120}, format="json"
        )
        assert_error(response, 400, "invalid_think_time")

    def test_hint_with_level_and_think_time_is_400(self):
        game = create(self.client).json()
        response = self.client.post(
            url("game-hint", game["id"]), {"think_time": 1, "level": 1}, format="json"
        )
        assert_error(response, 400, "invalid_think_time")

    def test_hint_after_the_end_is_400(self):
        game = import_game(self.client, "gomoku", "a1 a2 b1 b2 c1", GOMOKU_SMALL)
        assert_error(self.client.post(url("game-hint", game["id"])), 400, "game_over")


class UndoTests(APITestCase):
    def post_moves(self, game_id, *moves):
        for move in moves:
            response = self.client.post(
                url("game-moves", game_id), {"move": move}, format="json"
            )
            assert response.status_code == 200, response.content

    def test_undo_between_humans_takes_back_one_ply(self):
        game_id = create(self.client).json()["id"]
        self.post_moves(game_id, "f5", "f6")
        game = self.client.post(url("game-undo", game_id)).json()
        assert game["moves"] == ["f5"] and game["to_move"] == "white"

    def test_undo_against_the_ai_returns_to_the_humans_turn(self):
        game_id = create(self.client, white=FAST_AI).json()["id"]
        self.post_moves(game_id, "f5")
        self.client.post(url("game-ai-move", game_id))
        game = self.client.post(url("game-undo", game_id)).json()
        assert game["moves"] == [] and game["to_move"] == "black"

    def test_undo_of_the_humans_move_while_the_ai_is_to_move_goes_back_further(self):
        game_id = create(self.client, white=FAST_AI).json()["id"]
        self.post_moves(game_id, "f5")
        game = self.client.post(url("game-undo", game_id)).json()
        assert game["moves"] == [] and game["to_move"] == "black"

    def test_undo_against_the_ai_before_the_humans_first_move_is_400(self):
        # The AI's first move taken back, it would play it again at once.
        game_id = create(self.client, black=FAST_AI).json()["id"]
        self.client.post(url("game-ai-move", game_id))
        response = self.client.post(url("game-undo", game_id))
        body = assert_error(response, 400, "nothing_to_undo")
        assert body["detail"] == "none of your moves can be taken back yet"
        assert len(self.client.get(url("game-detail", game_id)).json()["moves"]) == 1

    def test_undo_between_ais_takes_back_one_ply(self):
        game_id = create(self.client, black=FAST_AI, white=FAST_AI).json()["id"]
        for _ in range(2):
            self.client.post(url("game-ai-move", game_id))
        game = self.client.post(url("game-undo", game_id)).json()
        assert len(game["moves"]) == 1

    def test_undo_reopens_a_finished_game(self):
        game = import_game(self.client, "gomoku", "a1 a2 b1 b2 c1", GOMOKU_SMALL)
        after = self.client.post(url("game-undo", game["id"])).json()
        assert after["status"] == "playing" and after["result"] is None
        assert after["moves"] == ["a1", "a2", "b1", "b2"]

    def test_undo_with_no_moves_is_400(self):
        game_id = create(self.client).json()["id"]
        assert_error(
            self.client.post(url("game-undo", game_id)), 400, "nothing_to_undo"
        )

    def test_undo_without_a_version_takes_back_after_a_write_that_won_the_race(
        self,
    ):
        """Undo pressed as the computer's move was being stored: the other
        write came between the undo's read and its own, and the player got
        a 409 and the computer's move (found by a random walk). Without a
        version an undo means "back to my turn" from whatever is stored."""
        game_id = create(self.client).json()["id"]
        self.post_moves(game_id, "f5", "f6")
        real_get_row = games.get_row
        raced = []

        def get_row_then_a_move_lands(pk):
            row = real_get_row(pk)
            if not raced:  # the other write lands after the undo's read
                raced.append(games.write(real_get_row(pk), moves=[*row.moves, "e6"]))
            return row

        with mock.patch.object(games, "get_row", get_row_then_a_move_lands):
            response = self.client.post(url("game-undo", game_id))
        assert raced and response.status_code == 200, response.content
        assert response.json()["moves"] == ["f5", "f6"]

    def test_undo_with_a_stale_version_is_409(self):
        game_id = create(self.client).json()["id"]
        self.post_moves(game_id, "f5")
        response = self.client.post(
            url("game-undo", game_id), {"version": 0}, format="json"
        )
        assert_error(response, 409, "conflict")


class PatchTests(APITestCase):
    def test_patch_changes_one_side_and_keeps_the_other(self):
        game = create(self.client, black={"kind": "ai", "think_time": 3}).json()
        response = self.client.patch(
            url("game-detail", game["id"]),
            {"players": {"white": {"kind": "ai", "level": 2}}},
            format="json",
        )
        assert response.status_code == status.HTTP_200_OK
        players = response.json()["players"]
        assert players["black"]["think_time"] == 3
        assert players["white"] == {
            "kind": "ai",
            "model": None,
            "level": 2,
            "think_time": None,
        }
        assert response.json()["version"] == 1

    def test_patch_makes_a_human_side_an_ai_mid_game(self):
        game_id = create(self.client).json()["id"]
        self.client.post(url("game-moves", game_id), {"move": "f5"}, format="json")
        self.client.patch(
            url("game-detail", game_id), {"players": {"white": FAST_AI}}, format="json"
        )
        response = self.client.post(url("game-ai-move", game_id))
        assert response.status_code == 200
        assert len(response.json()["game"]["moves"]) == 2

    def test_patch_errors_are_400_and_change_nothing(self):
        game_id = create(self.client).json()["id"]
        cases = [
            (
                {"players": {"white": {"kind": "ai", "model": "nosuch"}}},
                "unknown_model",
            ),
            (
                {"players": {"white": {"kind": "ai", "think_time": 0}}},
                "invalid_think_time",
            ),
            ({"players": {"red": HUMAN}}, "invalid_players"),
            ({"game": "gomoku", "players": {}}, "invalid_request"),
        ]
        for body, code in cases:
            response = self.client.patch(
                url("game-detail", game_id), body, format="json"
            )
            assert_error(response, 400, code)
        assert self.client.get(url("game-detail", game_id)).json()["version"] == 0

    def test_a_players_change_is_not_lost_to_a_racing_write(self):
        """Between AIs each move is a write: a strength change sent without a
        version while one lands is applied after it, not refused (the page's
        selector jumped back); with a version the race is still a 409."""
        from webgame.services import games

        game_id = create(self.client).json()["id"]
        real_write = games.write
        raced = []

        def write_after_another(row, **fields):
            if len(raced) < 2:  # another write lands first, twice
                raced.append(row.version)
                GameRow.objects.filter(pk=row.pk).update(version=row.version + 1)
            return real_write(row, **fields)

        with mock.patch.object(games, "write", write_after_another):
            response = self.client.patch(
                url("game-detail", game_id),
                {"players": {"white": FAST_AI}},
                format="json",
            )
            assert response.status_code == 200, response.content
            assert response.json()["players"]["white"]["kind"] == "ai"
            assert response.json()["version"] == 3
            raced.clear()
            stale = self.client.patch(
                url("game-detail", game_id),
                {"players": {"white": HUMAN}, "version": 4},
                format="json",
            )
            assert_error(stale, 409, "conflict")
        assert GameRow.objects.get(pk=game_id).players["white"]["kind"] == "ai"

    def test_patch_with_a_stale_version_is_409(self):
        game_id = create(self.client).json()["id"]
        self.client.post(url("game-moves", game_id), {"move": "f5"}, format="json")
        response = self.client.patch(
            url("game-detail", game_id),
            {"players": {"white": FAST_AI}, "version": 0},
            format="json",
        )
        assert_error(response, 409, "conflict")


class RecordTests(APITestCase):
    def play_all(self, game_id, moves):
        for move in moves:
            response = self.client.post(
                url("game-moves", game_id), {"move": move}, format="json"
            )
            assert response.status_code == 200, response.content

    def test_reversi_record_is_an_othello_transcript(self):
        game_id = create(self.client).json()["id"]
        self.play_all(game_id, ["f5", "d6", "c3"])
        response = self.client.get(url("game-record", game_id))
        assert response.status_code == status.HTTP_200_OK
        assert response.json()["record"] == "f5d6c3"

    def test_gomoku_and_loa_records_are_move_lists_under_their_tags(self):
        gomoku_id = create(self.client, "gomoku").json()["id"]
        self.play_all(gomoku_id, ["h8", "h9"])
        assert self.client.get(url("game-record", gomoku_id)).json()["record"] == (
            '[game "gomoku"] [size "15"] [row "5"] [rule "freestyle"]\nh8 h9'
        )
        loa_id = create(self.client, "loa").json()["id"]
        self.play_all(loa_id, LOA_BLACK_WIN[:4])
        record = self.client.get(url("game-record", loa_id)).json()
        # Numbered in pairs, as Lines of Action's published records are.
        first, second = LOA_BLACK_WIN[:2], LOA_BLACK_WIN[2:4]
        assert record["record"] == (
            '[game "loa"] [double_connection "draw"] [no_move "pass"]'
            f' [repetition "3"]\n1. {" ".join(first)} 2. {" ".join(second)}'
        )

    def test_a_record_comes_back_as_the_game_it_was(self):
        # A 9x9 game's record came back on 15x15, and a renju one as
        # freestyle, where black's forbidden overline point won (QA).
        options = {"size": 9, "row": 5, "rule": "renju"}
        game_id = create(self.client, "gomoku", options=options).json()["id"]
        self.play_all(game_id, ["e5", "a1", "e6", "a3"])
        record = self.client.get(url("game-record", game_id)).json()["record"]
        # Imported over another game and other options: the tags decide.
        again = import_game(self.client, "reversi", record)
        assert (again["game"], again["options"]) == ("gomoku", options)
        assert again["moves"] == ["e5", "a1", "e6", "a3"]
        # Tags typed by hand: any case, the options not tagged are the
        # game's defaults, and what is not a tag of the game is refused.
        typed = import_game(
            self.client, "gomoku", '[Game "gomoku"] [Rule "standard"] h8'
        )
        assert typed["options"] == {"size": 15, "row": 5, "rule": "standard"}
        refused = self.client.post(
            reverse("game-import"),
            {"game": "gomoku", "record": '[game "gomoku"] [colour "red"] h8'},
            format="json",
        )
        detail = assert_error(refused, 400, "invalid_record")["detail"]
        assert detail == (
            "the record's tag 'colour' is not one of Gomoku's: game, size, row, rule, "
            "opening, choices, ending, winner"
        )
        # A game without options says so (QA: "… not one of Reversi's: game"
        # read as if "game" were at fault).
        bare = self.client.post(
            reverse("game-import"),
            {"record": '[game "reversi"] [rule "banana"] f5'},
            format="json",
        )
        assert assert_error(bare, 400, "invalid_record")["detail"] == (
            "the record's tag 'rule' is not one of Reversi's: game, ending, winner"
        )
        # A tag given twice is refused, not read as the last one (hostile-
        # client QA: "move 1: 'e5' is not legal: a disc is there already").
        twice = self.client.post(
            reverse("game-import"),
            {"record": '[game "gomoku"] [Game "reversi"] e5'},
            format="json",
        )
        assert assert_error(twice, 400, "invalid_record")["detail"] == (
            "the record's tag 'Game' is given twice"
        )
        too_big = self.client.post(
            reverse("game-import"),
            {"game": "gomoku", "record": '[game "gomoku"] [size "99"] h8'},
            format="json",
        )
        assert too_big.status_code == 400
        # A tag's value not among the option's choices is named in the game's
        # title (records QA: "Loa option repetition='banana' ...").
        banana = self.client.post(
            reverse("game-import"),
            {"record": '[game "loa"] [repetition "banana"] b1-b3'},
            format="json",
        )
        detail = assert_error(banana, 400, "invalid_record")["detail"]
        assert detail == (
            "the record's tag 'repetition' is 'banana'; Lines of Action's is 3 or 2"
        )

    def test_an_ending_off_the_board_comes_back_with_the_record(self):
        """Records walk: a game won by resignation, on time or drawn by
        agreement came back from its record as a game still to play."""
        ended = (
            ("gomoku", ["h8", "h9"], "white", "resignation"),
            ("reversi", ["f5", "d6"], None, "agreement"),
            ("loa", LOA_BLACK_WIN[:4], "black", "time"),
        )
        for name, moves, winner, reason in ended:
            game_id = create(self.client, name).json()["id"]
            self.play_all(game_id, moves)
            result = {"winner": winner, "reason": reason, "score": None}
            GameRow.objects.filter(pk=game_id).update(
                status="finished", result=result, ending=result
            )
            record = self.client.get(url("game-record", game_id)).json()["record"]
            tags = f'[ending "{reason}"]' + (f' [winner "{winner}"]' if winner else "")
            assert tags in record
            again = import_game(self.client, name, record)
            assert again["moves"] == moves
            assert (again["status"], again["result"]) == ("finished", result)
            # As the game it was: no move is taken back after its end (records
            # walk: an undo reopened it, a move short).
            undone = self.client.post(url("game-undo", again["id"]), {}, format="json")
            assert_error(undone, 400, "game_over")
        # A game that ended on the board keeps its transcript bare.
        game_id = create(self.client).json()["id"]
        self.play_all(game_id, ["f5", "d6"])
        assert self.client.get(url("game-record", game_id)).json()["record"] == "f5d6"

    def test_an_ending_that_does_not_fit_is_refused(self):
        refusals = (
            ('[winner "white"] h8', "needs its ending"),
            ('[ending "checkmate"] h8', "'checkmate'; it is one of resignation"),
            ('[ending "resignation"] h8', "needs its winner"),
            ('[ending "time"] [winner "red"] h8', "needs its winner"),
            ('[ending "agreement"] [winner "black"] h8', "has no winner"),
            ('[ending "time"] [winner "white"] h8', "needs a move of each side"),
            ('[ending "resignation"] [winner "black"]', "needs a move of each side"),
        )
        for tags, words in refusals:
            refused = self.client.post(
                reverse("game-import"),
                {"record": '[game "gomoku"] ' + tags},
                format="json",
            )
            assert words in assert_error(refused, 400, "invalid_record")["detail"]
        # Their words in any case (verification walk: [winner "Black"]).
        game = import_game(
            self.client,
            "gomoku",
            '[game "gomoku"] [Ending "Time"] [winner "Black"] h8 h9',
        )
        assert game["result"] == {"winner": "black", "reason": "time", "score": None}
        over = '[game "loa"] [ending "resignation"] [winner "white"] '
        refused = self.client.post(
            reverse("game-import"),
            {"record": over + " ".join(LOA_BLACK_WIN)},
            format="json",
        )
        detail = assert_error(refused, 400, "invalid_record")["detail"]
        assert "ended on the board" in detail

    def test_import_rebuilds_the_game_and_its_result(self):
        game = import_game(self.client, "loa", " ".join(LOA_BLACK_WIN))
        assert game["moves"] == LOA_BLACK_WIN
        assert game["status"] == "finished"
        assert game["result"]["winner"] == "black"

    def test_import_accepts_move_numbers_commas_and_upper_case(self):
        game = import_game(self.client, "gomoku", "1. H8 h9, 2. j10 ; g7")
        assert game["moves"] == ["h8", "h9", "j10", "g7"]
        reversi = import_game(self.client, "reversi", "F5 d6 C3d3")
        assert reversi["moves"] == ["f5", "d6", "c3", "d3"]
        # Numbers written against their move (study walk: "'1.' is not a
        # Reversi move").
        glued = import_game(self.client, "reversi", "1.f5 d6 2.c3 2...d3")
        assert glued["moves"] == ["f5", "d6", "c3", "d3"]
        loa = import_game(self.client, "loa", "1.b1-b3 h2-f2")
        assert loa["moves"] == ["b1-b3", "h2-f2"]

    def test_import_reads_records_as_other_sites_write_them(self):
        """Records walk: a PGN's header, its result, passes written "--" or
        "PA" and full-width commas were refused."""
        header = '[Event "Club"] [Date "2026.12.01"] [Black "Me"] [White "You"]'
        game = import_game(self.client, "reversi", header + ' [Result "1-0"] f5d6 1-0')
        assert game["moves"] == ["f5", "d6"]
        untold = self.client.post(
            reverse("game-import"), {"record": header + " h8 h9 *"}, format="json"
        )
        assert untold.status_code == 201, untold.content
        assert (untold.json()["game"], untold.json()["moves"]) == (
            "gomoku",
            ["h8", "h9"],
        )
        tagged = import_game(self.client, "reversi", header + ' [game "gomoku"] h8')
        assert tagged["game"] == "gomoku"
        # Only another site's header: read as a record without tags, whose
        # game is found (verification walk: 'h8' was "not legal" in Reversi).
        refused = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": header + " 1. h8 h9 2. i9 0-1"},
            format="json",
        )
        body = assert_error(refused, 400, "invalid_record")
        assert body["reads_as"]["game"] == "gomoku"
        more = '[ECO "C00"] [WhiteElo "1800"] [PlyCount "2"] [Variant "x"] f5d6'
        assert import_game(self.client, "reversi", more)["moves"] == ["f5", "d6"]
        # A tag not known is named as written.
        refused = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": '[FEN "8/8"] f5'},
            format="json",
        )
        detail = assert_error(refused, 400, "invalid_record")["detail"]
        assert detail.startswith("the record's tag 'FEN' is not one of Reversi's")
        # Brackets and quotes as a Chinese keyboard writes them.
        wide = import_game(self.client, "reversi", "［game “gomoku”］ h8 h9")
        assert wide["game"] == "gomoku"
        assert import_game(self.client, "gomoku", "h8，h9、j10；g7")["moves"] == [
            "h8",
            "h9",
            "j10",
            "g7",
        ]
        # Letters and digits of full width (Reversi walk: 'ｆ５' was no move),
        # in the moves and the tags.
        assert import_game(self.client, "reversi", "ｆ５ｄ６　Ｃ３")["moves"] == [
            "f5",
            "d6",
            "c3",
        ]
        wide = import_game(self.client, "reversi", "［ｇａｍｅ “ｌｏａ”］ ｂ１－ｂ３")
        assert (wide["game"], wide["moves"]) == ("loa", ["b1-b3"])
        moves = _reversi_game_with_a_pass()
        for word in ("--", "PA", "pa", "PASS"):
            written = " ".join(word if m == "pass" else m for m in moves)
            assert import_game(self.client, "reversi", written)["moves"] == moves

    def test_import_puts_back_the_passes_a_transcript_leaves_out(self):
        moves = _reversi_game_with_a_pass()
        transcript = "".join(m for m in moves if m != "pass")
        game = import_game(self.client, "reversi", transcript)
        assert game["moves"] == moves
        record = self.client.get(url("game-record", game["id"])).json()
        assert record["record"] == transcript
        assert record["moves"] == moves

    def test_record_round_trips_through_import_for_every_game(self):
        for name, moves in (
            ("reversi", ["f5", "d6", "c3", "d3", "c4"]),
            ("gomoku", ["h8", "h9", "j10"]),
            ("loa", LOA_BLACK_WIN[:5]),
        ):
            game_id = create(self.client, name).json()["id"]
            self.play_all(game_id, moves)
            record = self.client.get(url("game-record", game_id)).json()["record"]
            assert import_game(self.client, name, record)["moves"] == moves

    def test_import_of_an_illegal_record_is_400_naming_the_move(self):
        response = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "f5c3"},
            format="json",
        )
        body = assert_error(response, 400, "invalid_record")
        assert "move 2" in body["detail"] and "d6" in body["detail"]  # legal
        # What is no square is quoted whole (it said 'z' of "zz").
        letters = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "d3 zz"},
            format="json",
        )
        detail = assert_error(letters, 400, "invalid_record")["detail"]
        # Named once (Othello QA: "move 3 ('h8'): 'h8' is not legal: ...").
        assert "move 2: 'zz' is not a Reversi move" in detail
        assert detail.count("zz") == 1
        garbage = self.client.post(
            reverse("game-import"),
            {"game": "loa", "record": "b1-b3 hello"},
            format="json",
        )
        assert_error(garbage, 400, "invalid_record")

    def test_import_of_another_games_record_is_400_naming_that_game(self):
        # Already move 1 is no Reversi move, and the whole record is Gomoku's.
        response = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "h8 h9 j10"},
            format="json",
        )
        body = assert_error(response, 400, "invalid_record")
        assert body["detail"].startswith("this is a record of Gomoku, not of Reversi")
        assert body["reads_as"] == {
            "game": "gomoku",
            "options": {"size": 15, "row": 5, "rule": "freestyle"},
        }
        again = import_game(
            self.client, "gomoku", "h8 h9 j10", body["reads_as"]["options"]
        )
        assert again["moves"] == ["h8", "h9", "j10"]
        # An Othello transcript is no Lines of Action record.
        transcript = self.client.post(
            reverse("game-import"),
            {"game": "loa", "record": "f5d6c3d3"},
            format="json",
        )
        assert assert_error(transcript, 400, "invalid_record")["reads_as"] == {
            "game": "reversi",
            "options": {},
        }
        # Every move written as the game's, the first illegal: the game's own
        # error, and the game it reads as named, not taken (study walk: "a1"
        # typed over Reversi became a game of Gomoku).
        typo = self.client.post(
            reverse("game-import"), {"game": "reversi", "record": "a1"}, format="json"
        )
        body = assert_error(typo, 400, "invalid_record")
        assert "reads_as" not in body
        assert body["detail"].startswith("move 1: 'a1' is not legal")
        assert body["detail"].endswith(
            "; it reads as a record of Gomoku: choose Gomoku to import it"
        )
        # A wrong move after a first that is the game's: the game's own error.
        later = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "f5 d6 c3 c2"},
            format="json",
        )
        assert "reads_as" not in assert_error(later, 400, "invalid_record")
        # Another game's record, wrong at a later move: that move is named
        # (QA: refused as Reversi's first move).
        wrong = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "b1-b3 b1-b3"},
            format="json",
        )
        body = assert_error(wrong, 400, "invalid_record")
        # Numbered as Lines of Action's records number it: White's first
        # (LOA walk: "move 5" named a record's "3. d3xc4").
        assert body["detail"].startswith(
            "this reads as a record of Lines of Action, but: move 1 (white): 'b1-b3'"
        )
        assert "reads_as" not in body
        # A record of a larger Gomoku board names both boards (QA: "a record
        # of Gomoku, not of Gomoku").
        small = self.client.post(
            reverse("game-import"),
            {"game": "gomoku", "options": {"size": 5}, "record": "h8"},
            format="json",
        )
        assert assert_error(small, 400, "invalid_record")["detail"].startswith(
            "this is a record of Gomoku on 15×15, 5 in a row, not on 5×5, 5 in a row"
        )

    def test_import_of_moves_after_the_end_is_400(self):
        response = self.client.post(
            reverse("game-import"),
            {"game": "gomoku", "options": GOMOKU_SMALL, "record": "a1 a2 b1 b2 c1 e5"},
            format="json",
        )
        body = assert_error(response, 400, "invalid_record")
        # In the page's words: moves, not plies.
        assert body["detail"] == (
            "the game ended after 5 moves but the record goes on with 'e5' (move 6)"
        )
        # The record's moves: a transcript's passes are not counted (records
        # QA: "ended after 61 moves ... (move 61)", a pass counted once).
        transcript = [m for m in _reversi_game_with_a_pass() if m != "pass"]
        response = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "".join(transcript) + "a1"},
            format="json",
        )
        assert assert_error(response, 400, "invalid_record")["detail"] == (
            f"the game ended after {len(transcript)} moves but the record goes on "
            f"with 'a1' (move {len(transcript) + 1})"
        )

    def test_import_of_a_record_too_long_says_how_long_one_may_be(self):
        response = self.client.post(
            reverse("game-import"),
            {"game": "reversi", "record": "f5" * 2001},
            format="json",
        )
        body = assert_error(response, 400, "invalid_record")
        assert body["detail"] == "record: too long: at most 4000 characters"

    def test_import_without_a_game_reads_the_tags_or_the_record_itself(self):
        # A developer posted a record's answer back as it came, with no
        # "game": 400 "game: This field is required", though the tags said it.
        game_id = create(self.client, "gomoku", options={"size": 9}).json()["id"]
        self.play_all(game_id, ["e5", "e6"])
        record = self.client.get(url("game-record", game_id)).json()["record"]
        for text, game, moves in (
            (record, "gomoku", ["e5", "e6"]),
            ("f5d6c3", "reversi", ["f5", "d6", "c3"]),
            (" ".join(LOA_BLACK_WIN[:3]), "loa", LOA_BLACK_WIN[:3]),
            ("h8 h9 j10", "gomoku", ["h8", "h9", "j10"]),
        ):
            answer = self.client.post(
                reverse("game-import"), {"record": text}, format="json"
            )
            assert answer.status_code == 201, answer.content
            assert (answer.json()["game"], answer.json()["moves"]) == (game, moves)
        nothing = self.client.post(
            reverse("game-import"), {"record": "hello world"}, format="json"
        )
        detail = assert_error(nothing, 400, "invalid_record")["detail"]
        assert detail.startswith("the record reads as no game's moves")
        assert "game" in detail
        # Options without a game, as a body's or as tags, cannot be read.
        for body, words in (
            ({"options": {"size": 9}, "record": "e5"}, "options are given but no game"),
            ({"record": '[size "9"] e5'}, "the record does not say its game"),
        ):
            unnamed = self.client.post(reverse("game-import"), body, format="json")
            detail = assert_error(unnamed, 400, "invalid_record")["detail"]
            assert detail.startswith(words), body
        assert GameRow.objects.count() == 5  # the four, and the one played

    def test_import_of_an_unknown_game_is_400(self):
        response = self.client.post(
            reverse("game-import"), {"game": "go", "record": "d4"}, format="json"
        )
        assert_error(response, 400, "unknown_game")

    def test_boards_give_the_position_after_each_move(self):
        moves = _reversi_game_with_a_pass()
        game = import_game(
            self.client, "reversi", "".join(m for m in moves if m != "pass")
        )
        answer = self.client.get(url("game-boards", game["id"])).json()
        assert answer["id"] == game["id"] and answer["version"] == game["version"]
        boards = answer["boards"]
        assert len(boards) == len(moves) + 1
        assert boards[0] == "/".join(
            ["........"] * 3 + ["...ox...", "...xo...", "........"] + ["........"] * 2
        )
        mark = {"black": "x", "white": "o", None: "."}
        last = "/".join("".join(mark[c] for c in row) for row in game["board"]["cells"])
        assert boards[-1] == last
        # A pass leaves the board as it was.
        passed = moves.index("pass")
        assert boards[passed + 1] == boards[passed]
        before, after = boards[:passed], boards[1 : passed + 1]
        assert all(a != b for a, b in zip(before, after, strict=True))
        assert_error(
            self.client.get(url("game-boards", uuid.uuid4())), 404, "not_found"
        )

    def test_record_of_an_unknown_game_is_404(self):
        assert_error(
            self.client.get(url("game-record", uuid.uuid4())), 404, "not_found"
        )


def _reversi_game_with_a_pass() -> list[str]:
    """Return the moves of a seeded random Reversi game that contains a pass."""
    import random

    from mcts import find_game

    game = find_game("reversi")
    for seed in range(1000):
        rng = random.Random(seed)
        state, moves = game.initial_state(), []
        while not game.is_terminal(state):
            move = rng.choice(game.legal_move_texts(state))
            moves.append(move)
            state = game.play(state, move)
        if "pass" in moves:
            return moves
    raise AssertionError("no random game with a pass in 1000 seeds")


class SchemaTests(APITestCase):
    def test_schema_documents_every_endpoint(self):
        response = self.client.get(
            reverse("api-schema"), HTTP_ACCEPT="application/json"
        )
        assert response.status_code == status.HTTP_200_OK
        schema = json.loads(response.content)
        paths = schema["paths"]
        for path in (
            "/api/games/",
            "/api/games/kinds/",
            "/api/games/import/",
            "/api/games/{id}/",
            "/api/games/{id}/moves/",
            "/api/games/{id}/ai-move/",
            "/api/games/{id}/hint/",
            "/api/games/{id}/undo/",
            "/api/games/{id}/record/",
        ):
            assert path in paths, path
        assert "patch" in paths["/api/games/{id}/"]

    def test_docs_page_works_offline_from_local_static_files(self):
        response = self.client.get(reverse("api-docs"))
        assert response.status_code == status.HTTP_200_OK
        page = response.content.decode()
        assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
        assert "cdn" not in page.lower()
        assert finders.find(
            "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js"
        )


class EdgeTests(APITestCase):
    def test_a_version_that_is_not_a_count_is_400(self):
        game_id = create(self.client).json()["id"]
        for version in (-1, "one", 1.5):
            response = self.client.post(
                url("game-moves", game_id),
                {"move": "f5", "version": version},
                format="json",
            )
            assert_error(response, 400, "invalid_version")

    def test_a_missing_trailing_slash_is_a_json_404_not_a_redirect(self):
        game_id = create(self.client).json()["id"]
        response = self.client.post(
            f"/api/games/{game_id}/moves", {"move": "f5"}, format="json"
        )
        assert_error(response, 404, "not_found")

    def test_a_host_not_allowed_is_a_json_400(self):
        response = self.client.get(reverse("game-kinds"), HTTP_HOST="evil.example")
        assert_error(response, 400, "bad_request")

    def test_options_request_describes_the_endpoint(self):
        response = self.client.options(reverse("game-create"))
        assert response.status_code == status.HTTP_200_OK
        assert "POST" in response["Allow"]


class RepetitionTests(APITestCase):
    def test_the_computer_ahead_does_not_let_a_player_draw_by_repetition(self):
        """The page's AI is given the game's history (the search's kernels
        never see it): black, ahead, does not play the move after which
        white can bring a position back a third time."""
        from tests.search.test_search import REPEATING

        game_id = create(self.client, "loa").json()["id"]
        for text in REPEATING.split():
            response = self.client.post(
                url("game-moves", game_id), {"move": text}, format="json"
            )
            assert response.status_code == status.HTTP_200_OK, response.content
        ai = {"kind": "ai", "model": "light", "think_time": 0.3}
        response = self.client.patch(
            url("game-detail", game_id), {"players": {"black": ai}}, format="json"
        )
        assert response.status_code == status.HTTP_200_OK, response.content
        response = self.client.post(url("game-ai-move", game_id))
        assert response.status_code == status.HTTP_200_OK, response.content
        assert response.json()["game"]["moves"][-1] not in {"c8-d8", "C8-D8"}

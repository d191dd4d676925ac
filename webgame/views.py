"""The JSON API's views (the pages are :mod:`webgame.pages`).

Each API view validates its body with a serializer, calls one function of
:mod:`webgame.services` and returns what it gives (already JSON-ready; the
response serializers document it in the schema). Errors are raised, never
built here: :mod:`webgame.error_responses` shapes them.
"""

from __future__ import annotations

import contextlib

from django.urls import Resolver404, resolve, reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import serializers as s
from . import services
from .throttles import AIRateThrottle, GameCreateThrottle


def _errors(*codes: int) -> dict:
    """Return the schema's error responses for these status codes."""
    return {code: OpenApiResponse(s.ErrorSerializer) for code in codes}


def _token(request: Request) -> str | None:
    """Return the seat token the request carries (X-Seat-Token), or None."""
    return request.headers.get(services.TOKEN_HEADER)


def _valid(serializer_class, request: Request) -> dict:
    """Return the validated body, or raise ValidationError (400)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class GameKindsView(APIView):
    """The games offered, their options and the tree models for each."""

    @extend_schema(responses={200: s.KindSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Return the games, their options and models."""
        return Response(services.list_kinds())


class ApiRootView(APIView):
    """``GET /api/``: where the API's documentation and first endpoints are
    (long-session QA: a 404 where the README says the API is)."""

    schema = None  # an index, not part of the documented API

    def get(self, request: Request) -> Response:
        return Response(
            {
                "docs": reverse("api-docs"),
                "schema": reverse("api-schema"),
                "games": reverse("game-create"),
                "kinds": reverse("game-kinds"),
                "ai": reverse("ai-readiness"),
            }
        )


class ReadinessView(APIView):
    """Whether each game's AI is ready: a server's first start compiles it
    for a minute in the background; an AI move asked for meanwhile waits."""

    @extend_schema(responses={200: s.ReadinessSerializer})
    def get(self, request: Request) -> Response:
        """Return each game's readiness and progress."""
        return Response(services.ai_readiness())


class GameCreateView(APIView):
    """Start a game."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.CreateGameSerializer,
        responses={201: s.SeatedGameSerializer, **_errors(400, 429)},
        # The docs page's "Try it out" sends this; a generated one would name
        # a model "string" and options "additionalProp1" (400).
        examples=[
            OpenApiExample(
                "Gomoku against the AI",
                value={
                    "game": "gomoku",
                    "options": {"size": 15, "row": 5},
                    "players": {
                        "black": {"kind": "human"},
                        "white": {"kind": "ai", "model": None, "level": 2},
                    },
                },
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Return the new game (201)."""
        body = _valid(s.CreateGameSerializer, request)
        game = services.create_game(
            game=body["game"],
            options=body.get("options"),
            players=body.get("players"),
            clock=body.get("clock"),
            friend=body.get("friend"),
            opening=body.get("opening"),
        )
        return Response(game, status=status.HTTP_201_CREATED)


class GameImportView(APIView):
    """Start a game from a record (an Othello transcript or a move list)."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.ImportGameSerializer,
        responses={201: s.GameSerializer, **_errors(400, 429)},
        examples=[
            OpenApiExample(
                "A Reversi opening",
                value={"game": "reversi", "record": "f5d6c3d3c4"},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        """Return the new game holding the record's moves (201)."""
        body = _valid(s.ImportGameSerializer, request)
        game = services.import_record(
            game=body.get("game"),
            options=body.get("options"),
            record=body["record"],
            players=body.get("players"),
        )
        return Response(game, status=status.HTTP_201_CREATED)


class GameDetailView(APIView):
    """One game: read it, or change its players' settings."""

    @extend_schema(responses={200: s.GameSerializer, **_errors(404)})
    def get(self, request: Request, pk) -> Response:
        """Return the game; a seat's token says its player is still here."""
        return Response(services.get_game(pk, token=_token(request)))

    @extend_schema(
        request=s.UpdateGameSerializer,
        responses={200: s.GameSerializer, **_errors(400, 404, 409)},
    )
    def patch(self, request: Request, pk) -> Response:
        """Return the game after changing the named sides' settings."""
        body = _valid(s.UpdateGameSerializer, request)
        if not body.get("players"):  # nothing to change
            return Response(services.get_game(pk))
        return Response(
            services.update_players(
                pk, players=body["players"], version=body.get("version")
            )
        )


class MoveView(APIView):
    """A human move."""

    @extend_schema(
        request=s.MoveSerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the move (a seat's move needs its token)."""
        body = _valid(s.MoveSerializer, request)
        return Response(
            services.play_move(
                pk,
                move=body["move"],
                version=body.get("version"),
                token=_token(request),
            )
        )


class ChoiceView(APIView):
    """A Swap2 choice: the colour you play, or two more stones."""

    @extend_schema(
        request=s.ChoiceSerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the choice (a seat's choice needs its token)."""
        body = _valid(s.ChoiceSerializer, request)
        return Response(
            services.choose(
                pk,
                choice=body["choice"],
                version=body.get("version"),
                token=_token(request),
            )
        )


class JoinView(APIView):
    """Take the seat a friend's invitation offers."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.JoinSerializer,
        responses={200: s.SeatedGameSerializer, **_errors(400, 403, 404, 409, 429)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game and your seat (its token: keep it, send it as
        X-Seat-Token with your moves)."""
        body = _valid(s.JoinSerializer, request)
        return Response(services.join(pk, invite=body["invite"], token=_token(request)))


class PlayFromView(APIView):
    """A new game from a position of a game (study: play on from there)."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.PlayFromSerializer,
        responses={201: s.GameSerializer, **_errors(400, 403, 404, 429)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return a new game from the position after ``ply`` moves (201): the
        same game, options and players, untimed, at one screen; 403
        ``no_help`` while two seats play the game."""
        body = _valid(s.PlayFromSerializer, request)
        game = services.play_from(pk, body["ply"])
        return Response(game, status=status.HTTP_201_CREATED)


class ShareView(APIView):
    """Turn a game on the board into a game with a friend."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.ShareSerializer,
        responses={200: s.SeatedGameSerializer, **_errors(400, 404, 409, 429)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game, your seat and the invitation for your friend."""
        body = _valid(s.ShareSerializer, request)
        return Response(services.share(pk, side=body["side"], clock=body.get("clock")))


class ResignView(APIView):
    """Resign (a seat's resignation needs its token)."""

    @extend_schema(
        request=s.EmptySerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game, lost by the side that resigned; 409 ``too_early``
        between two seats before each player has made a first move."""
        _valid(s.EmptySerializer, request)
        return Response(services.resign(pk, token=_token(request)))


class AbortView(APIView):
    """Abort a game between two seats before each has made a first move."""

    @extend_schema(
        request=s.EmptySerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game, ended without a result (``result.reason``
        ``"aborted"``); 409 once each player has moved."""
        _valid(s.EmptySerializer, request)
        return Response(services.abort(pk, token=_token(request)))


class GiveTimeView(APIView):
    """Give your friend 15 s on their clock (seats only, a Fischer clock)."""

    @extend_schema(
        request=s.EmptySerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game, your friend's clock 15 s fuller (``clock.given``
        counts each side's gifts); 409 in a game without a Fischer clock."""
        _valid(s.EmptySerializer, request)
        return Response(services.give_time(pk, token=_token(request)))


class ChatView(APIView):
    """What the two players of a game between two seats say to each other
    (seats only: a watcher reads none of it)."""

    @extend_schema(responses={200: s.ChatLinesSerializer, **_errors(400, 403, 404)})
    def get(self, request: Request, pk) -> Response:
        """Return the lines said, oldest first, each ``mine`` or your friend's."""
        return Response(services.chat_lines(pk, token=_token(request)))

    @extend_schema(
        request=s.ChatSaySerializer,
        responses={
            201: s.ChatLineOutSerializer,
            **_errors(400, 403, 404, 409, 429),
        },
    )
    def post(self, request: Request, pk) -> Response:
        """Say a line to your friend (sent to their page at once); 409 before
        they joined, 429 ``too_fast`` for a sixth line within 10 s."""
        body = _valid(s.ChatSaySerializer, request)
        line = services.say(
            pk, token=_token(request), text=body.get("text"), preset=body.get("preset")
        )
        return Response(line, status=status.HTTP_201_CREATED)


class ClaimView(APIView):
    """Claim the win or a draw of a game your friend left (seats only)."""

    @extend_schema(
        request=s.ClaimSerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game, ended: your friend has had no socket open and made
        no request for ``LIVE_GONE_SECONDS`` (30 s; without a clock
        ``LIVE_GONE_UNTIMED_SECONDS``, two minutes); 409 before."""
        body = _valid(s.ClaimSerializer, request)
        return Response(
            services.claim(pk, result=body["result"], token=_token(request))
        )


class OfferView(APIView):
    """A draw offer or a takeback request, and their answers (seats only)."""

    offer = ""

    @extend_schema(
        request=s.OfferSerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the offer, its acceptance or its refusal."""
        body = _valid(s.OfferSerializer, request)
        return Response(
            services.answer_offer(
                pk, offer=self.offer, action=body["action"], token=_token(request)
            )
        )


class DrawView(OfferView):
    """Offer a draw, or accept or decline the other player's offer."""

    offer = "draw"


class TakebackView(OfferView):
    """Ask to take your last move back, or answer the other player's request."""

    offer = "takeback"


class RematchView(OfferView):
    """Once the game is over, offer a rematch or answer the other player's:
    accepted (at once in a game without seats), the game names the new one
    (``rematch``). Each answer may start a game: counted as new games are."""

    offer = "rematch"
    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.OfferSerializer,
        responses={200: s.GameSerializer, **_errors(400, 403, 404, 409, 429)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the offer, its acceptance or its refusal."""
        return super().post(request, pk)


class AIMoveView(APIView):
    """The AI of the side to move plays."""

    throttle_classes = [AIRateThrottle]

    @extend_schema(
        request=s.VersionedSerializer,
        responses={
            200: s.GameAndSearchSerializer,
            **_errors(400, 404, 409, 429, 503),
        },
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the AI's move and the search behind it.
        Asked at the version the AI is already thinking at, it waits for that
        move and answers with it; without a version, 409 meanwhile."""
        body = _valid(s.VersionedSerializer, request)
        return Response(services.ai_move(pk, version=body.get("version")))


class HintView(APIView):
    """The AI's search for the side to move, without playing."""

    throttle_classes = [AIRateThrottle]

    @extend_schema(
        request=s.HintSerializer,
        responses={
            200: s.GameAndSearchSerializer,
            **_errors(400, 403, 404, 409, 429, 503),
        },
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game and the search result."""
        body = _valid(s.HintSerializer, request)
        return Response(
            services.hint(
                pk,
                think_time=body.get("think_time"),
                level=body.get("level"),
                version=body.get("version"),
            )
        )


class StopView(APIView):
    """End the AI's running search in this game early (the board's Stop button)."""

    @extend_schema(
        request=s.EmptySerializer,
        responses={200: s.StopSerializer, **_errors(400, 404)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return whether a search was running and has been told to stop."""
        _valid(s.EmptySerializer, request)
        return Response(services.stop_search(pk))


class UndoView(APIView):
    """Take back a move (back to the human's turn against the AI)."""

    @extend_schema(
        request=s.VersionedSerializer,
        responses={200: s.GameSerializer, **_errors(400, 404, 409)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return the game after the take-back."""
        body = _valid(s.VersionedSerializer, request)
        return Response(services.undo(pk, version=body.get("version")))


class RecordView(APIView):
    """The game record as text."""

    @extend_schema(responses={200: s.RecordSerializer, **_errors(404)})
    def get(self, request: Request, pk) -> Response:
        """Return the record."""
        return Response(services.game_record(pk))


class BoardsView(APIView):
    """The board after each move, to step through a game."""

    @extend_schema(responses={200: s.BoardsSerializer, **_errors(404)})
    def get(self, request: Request, pk) -> Response:
        """Return the boards, from the first position to the game's."""
        return Response(services.game_boards(pk))


class ApiNotFoundView(APIView):
    """Every other URL under /api/: a JSON 404 whatever the method."""

    schema = None  # not part of the documented API

    def _not_found(self, request: Request, *args, **kwargs) -> Response:
        detail = _("no API endpoint at %(path)s; see /api/docs/") % {
            "path": request.path
        }
        slashed = request.path + "/"
        with contextlib.suppress(Resolver404):
            found = getattr(resolve(slashed).func, "view_class", None)
            if found is not ApiNotFoundView:
                detail += "; " + _("the API's URLs end with a slash: %(path)s") % {
                    "path": slashed
                }
        raise NotFound(detail)

    get = post = put = patch = delete = options = _not_found


class AnalysisView(APIView):
    """What the AI thinks of one position of a game (the page's game analysis
    asks ply by ply)."""

    throttle_classes = [AIRateThrottle]

    @extend_schema(
        request=s.AnalysisRequestSerializer,
        responses={200: s.AnalysisSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def post(self, request: Request, pk) -> Response:
        """Return Black's win probability and the best move after ``ply`` moves."""
        body = _valid(s.AnalysisRequestSerializer, request)
        return Response(services.analyse_ply(pk, ply=body["ply"]))


class EndingView(APIView):
    """How a game ended and the squares that won it."""

    @extend_schema(responses={200: s.EndingSerializer, **_errors(404)})
    def get(self, request: Request, pk) -> Response:
        """Return the winner, the reason and the squares to highlight."""
        return Response(services.ending(pk))


class ExplorerView(APIView):
    """The opening explorer: a tree model's moves in a position of a game. A
    large or packed model is prepared first, as by ``prepare/`` (503 with
    Retry-After meanwhile); both count against the AI throttle."""

    throttle_classes = [AIRateThrottle]

    @extend_schema(
        parameters=[s.ExplorerQuerySerializer],
        responses={200: s.ExplorerSerializer, **_errors(400, 403, 404, 429, 503)},
    )
    def get(self, request: Request, pk) -> Response:
        """Return the model's moves with visits, win % and proven marks."""
        query = s.ExplorerQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        body = query.validated_data
        return Response(
            services.explore(
                pk,
                ply=body["ply"],
                line=body.get("line", "").split(),
                model=body.get("model") or None,
            )
        )


class QrCodeView(APIView):
    """A link as a QR code, for a phone to scan (the page's invitation).
    Counted with new games and seats: each comes with a share, and a code
    costs milliseconds of CPU that no client may ask for without end."""

    throttle_classes = [GameCreateThrottle]

    @extend_schema(
        request=s.QrSerializer,
        responses={200: s.QrOutSerializer, **_errors(400, 429)},
    )
    def post(self, request: Request) -> Response:
        """Return the code's rows of modules (a POST: the link may hold a
        secret, which no URL should carry)."""
        body = _valid(s.QrSerializer, request)
        return Response({"rows": services.qr_rows(body["text"])})


class ModelStatusView(APIView):
    """A tree model's way to play: packed, unpacking, loading, ready."""

    @extend_schema(responses={200: s.ModelStatusSerializer, **_errors(404)})
    def get(self, request: Request, game: str, name: str) -> Response:
        """Return the model's status and, while it unpacks, its progress."""
        return Response(services.model_status(game, name))


class ModelPrepareView(APIView):
    """Get a tree model ready for play ahead of the AI's first move."""

    throttle_classes = [AIRateThrottle]

    @extend_schema(
        request=None,
        responses={202: s.ModelStatusSerializer, **_errors(400, 404, 429)},
    )
    def post(self, request: Request, game: str, name: str) -> Response:
        """Start unpacking and loading the model in the background (once);
        return its status, to be followed at the model's address."""
        _valid(s.EmptyBodySerializer, request)  # a body is a client's mistake
        return Response(
            services.prepare_model(game, name), status=status.HTTP_202_ACCEPTED
        )

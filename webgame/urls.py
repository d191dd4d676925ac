"""URL routes of the site: the start page, the API and its documentation."""

import uuid

from django.urls import include, path, re_path, register_converter
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import pages, services, views


class GameIdConverter:
    """A game id: a UUID in either case (Django's ``uuid`` takes lowercase
    only, so a client that upper-cased an id got "no API endpoint")."""

    regex = (
        "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
    )

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(GameIdConverter, "gameid")


class GameNameConverter:
    """A game's registry name (``reversi``, ``gomoku``, ``loa``)."""

    regex = "|".join(services.GAME_NAMES)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class ModelNameConverter(GameNameConverter):
    """A tree model's name as the catalogue lists it (a folder name, no path)."""

    regex = services.MODEL_NAME_PATTERN


register_converter(GameNameConverter, "game")
register_converter(ModelNameConverter, "modelname")

api = [
    path("", views.ApiRootView.as_view(), name="api-root"),
    path("ai/", views.ReadinessView.as_view(), name="ai-readiness"),
    path("games/kinds/", views.GameKindsView.as_view(), name="game-kinds"),
    path("games/", views.GameCreateView.as_view(), name="game-create"),
    path("games/import/", views.GameImportView.as_view(), name="game-import"),
    path("games/<gameid:pk>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<gameid:pk>/moves/", views.MoveView.as_view(), name="game-moves"),
    path("games/<gameid:pk>/choice/", views.ChoiceView.as_view(), name="game-choice"),
    path("games/<gameid:pk>/ai-move/", views.AIMoveView.as_view(), name="game-ai-move"),
    path("games/<gameid:pk>/hint/", views.HintView.as_view(), name="game-hint"),
    path("games/<gameid:pk>/stop/", views.StopView.as_view(), name="game-stop"),
    path("games/<gameid:pk>/undo/", views.UndoView.as_view(), name="game-undo"),
    path("games/<gameid:pk>/join/", views.JoinView.as_view(), name="game-join"),
    path("games/<gameid:pk>/share/", views.ShareView.as_view(), name="game-share"),
    path(
        "games/<gameid:pk>/play-from/",
        views.PlayFromView.as_view(),
        name="game-play-from",
    ),
    path("games/<gameid:pk>/resign/", views.ResignView.as_view(), name="game-resign"),
    path("games/<gameid:pk>/abort/", views.AbortView.as_view(), name="game-abort"),
    path("games/<gameid:pk>/draw/", views.DrawView.as_view(), name="game-draw"),
    path("games/<gameid:pk>/claim/", views.ClaimView.as_view(), name="game-claim"),
    path("games/<gameid:pk>/chat/", views.ChatView.as_view(), name="game-chat"),
    path(
        "games/<gameid:pk>/give-time/",
        views.GiveTimeView.as_view(),
        name="game-give-time",
    ),
    path(
        "games/<gameid:pk>/takeback/",
        views.TakebackView.as_view(),
        name="game-takeback",
    ),
    path(
        "games/<gameid:pk>/rematch/",
        views.RematchView.as_view(),
        name="game-rematch",
    ),
    path("games/<gameid:pk>/record/", views.RecordView.as_view(), name="game-record"),
    path("games/<gameid:pk>/boards/", views.BoardsView.as_view(), name="game-boards"),
    path(
        "games/<gameid:pk>/analysis/",
        views.AnalysisView.as_view(),
        name="game-analysis",
    ),
    path("games/<gameid:pk>/ending/", views.EndingView.as_view(), name="game-ending"),
    path(
        "games/<gameid:pk>/explorer/",
        views.ExplorerView.as_view(),
        name="game-explorer",
    ),
    path(
        "models/<game:game>/<modelname:name>/",
        views.ModelStatusView.as_view(),
        name="model-status",
    ),
    path(
        "models/<game:game>/<modelname:name>/prepare/",
        views.ModelPrepareView.as_view(),
        name="model-prepare",
    ),
    path("qr/", views.QrCodeView.as_view(), name="qr-code"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "docs/",
        # The split view loads its script from a URL: no inline script (CSP).
        SpectacularSwaggerSplitView.as_view(url_name="api-schema"),
        name="api-docs",
    ),
]

#: The scripts' strings change only with the server's code: compressed (they
#: hold no secret; 38 KB of Chinese become 9.5), and asked again each visit
#: with the time the server started (304 if it has not restarted since).
_STARTED = timezone.now()
javascript_catalog = gzip_page(
    cache_control(no_cache=True)(
        last_modified(lambda request: _STARTED)(JavaScriptCatalog.as_view())
    )
)

urlpatterns = [
    path("", pages.board_page, name="index"),
    path("favicon.ico", pages.favicon, name="favicon"),
    # The page's strings for its scripts, in the request's language, and the
    # language switch (Django's set_language: a POST that sets the cookie).
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include(api)),
    re_path(r"^api/", views.ApiNotFoundView.as_view(), name="api-not-found"),
]

handler400 = "webgame.error_responses.bad_request"
handler404 = "webgame.error_responses.not_found"
handler500 = "webgame.error_responses.json_server_error"

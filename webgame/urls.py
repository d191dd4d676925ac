"""URL routes of the site: the start page, the API and its documentation."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import pages, views

api = [
    path("games/kinds/", views.GameKindsView.as_view(), name="game-kinds"),
    path("games/", views.GameCreateView.as_view(), name="game-create"),
    path("games/import/", views.GameImportView.as_view(), name="game-import"),
    path("games/<uuid:pk>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<uuid:pk>/moves/", views.MoveView.as_view(), name="game-moves"),
    path("games/<uuid:pk>/ai-move/", views.AIMoveView.as_view(), name="game-ai-move"),
    path("games/<uuid:pk>/hint/", views.HintView.as_view(), name="game-hint"),
    path("games/<uuid:pk>/stop/", views.StopView.as_view(), name="game-stop"),
    path("games/<uuid:pk>/undo/", views.UndoView.as_view(), name="game-undo"),
    path("games/<uuid:pk>/record/", views.RecordView.as_view(), name="game-record"),
    path(
        "games/<uuid:pk>/analysis/", views.AnalysisView.as_view(), name="game-analysis"
    ),
    path("games/<uuid:pk>/ending/", views.EndingView.as_view(), name="game-ending"),
    path(
        "games/<uuid:pk>/explorer/", views.ExplorerView.as_view(), name="game-explorer"
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path(
        "docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"
    ),
]

urlpatterns = [
    path("", pages.board_page, name="index"),
    path("api/", include(api)),
    re_path(r"^api/", views.ApiNotFoundView.as_view(), name="api-not-found"),
]

handler400 = "webgame.exceptions.json_bad_request"
handler404 = "webgame.exceptions.json_not_found"
handler500 = "webgame.exceptions.json_server_error"

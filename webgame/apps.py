"""App configuration of webgame."""

from django.apps import AppConfig


class WebgameConfig(AppConfig):
    """The webgame app: games, API views and the board page."""

    name = "webgame"
    default_auto_field = "django.db.models.BigAutoField"

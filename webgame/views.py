"""Views of the site. The board page and the API arrive in later issues."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import services


def index(request: HttpRequest) -> HttpResponse:
    """Return the start page listing the games."""
    return render(request, "index.html", {"games": services.list_games()})

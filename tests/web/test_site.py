"""The Django project starts, passes its checks and serves the start page."""

from django.core.management import call_command
from django.urls import reverse


def test_system_checks_pass():
    call_command("check", fail_level="WARNING")


def test_start_page_lists_the_three_games(client):
    response = client.get(reverse("index"))
    assert response.status_code == 200
    body = response.content.decode()
    for name in ("reversi", "gomoku", "loa"):
        assert f'data-game="{name}"' in body


def test_page_assets_come_from_installed_packages(client):
    from django.contrib.staticfiles import finders

    assert finders.find("jquery.min.js")
    assert finders.find("bootstrap/css/bootstrap.min.css")
    assert finders.find("bootstrap/js/bootstrap.bundle.min.js")

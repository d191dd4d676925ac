"""The API's docs (webgame/api.md, served at /api/docs/): its worked
example runs as written."""

from __future__ import annotations

import json
import shlex

import pytest
from django.conf import settings
from rest_framework.test import APIClient

API_MD = settings.BASE_DIR / "webgame" / "api.md"
SERVER = "http://localhost:8000"


def curls(text: str) -> list[tuple[str, str, dict]]:
    """Return (method, path, body) of each curl command in ``text``, in order."""
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        if not line.startswith("    curl "):
            continue
        words = shlex.split(line)
        method = words[words.index("-X") + 1]
        url = next(word for word in words if word.startswith(SERVER))
        body = json.loads(words[words.index("-d") + 1])
        found.append((method, url.removeprefix(SERVER), body))
    return found


@pytest.mark.django_db
def test_the_worked_example_runs_as_written():
    # API walk: the docs were long, and had no example of a first game.
    client = APIClient()
    steps = curls(API_MD.read_text(encoding="utf-8"))
    assert len(steps) == 3
    answers = []
    for method, path, body in steps:
        if answers:
            path = path.replace("ID", answers[0]["id"])
        response = client.generic(
            method, path, json.dumps(body), content_type="application/json"
        )
        assert response.status_code in (200, 201), response.content
        answers.append(response.json())
    created, moved, replied = answers
    assert created["version"] == 0 and created["to_move"] == "black"
    assert created["legal_moves"] == ["d3", "c4", "f5", "e6"]
    assert moved["version"] == 1 and moved["to_move"] == "white"
    assert set(replied) == {"game", "search"}
    assert replied["game"]["last_move"] == replied["game"]["moves"][-1]
    assert replied["game"]["to_move"] == "black"

"""The API's docs (webgame/api.md, served at /api/docs/): its worked
example runs as written, and the numbers it gives are the code's."""

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


def _minute_rate(rate: str) -> str:
    """``"240/min"`` as the docs write it: ``"240 a minute"``."""
    count, per = rate.split("/")
    assert per in ("m", "min", "minute")
    return f"{count} a minute"


def test_the_numbers_the_docs_give_are_the_servers():
    # Newcomer's reading: the docs write by hand numbers the code defines;
    # each phrase below is built from the code's value, so that a change of
    # one without the other fails here.
    from webgame import consumers, parsers
    from webgame import settings as defaults
    from webgame.services import ai, clocks, players, spacing
    from webgame.services.catalog import list_think_times
    from webgame.services.spacing import _declined_wait

    text = " ".join(API_MD.read_text(encoding="utf-8").split())
    takebacks = [_declined_wait("takeback", n) for n in (1, 2, 3, 99)]
    fast = clocks.FIRST_MOVE_SECONDS[0][1]
    phrases = [
        f"no request for {defaults.LIVE_GONE_SECONDS} s has left (for two minutes in a"
        * (defaults.LIVE_GONE_UNTIMED_SECONDS == 120),
        f"{spacing.DRAW_SPACING + 1} moves (plies) after their last offer",
        "takeback again {} s after a declined one, {} s after two in a row, "
        "{} s after three … (up to {} s;".format(*takebacks),
        "a rematch again a minute after a declined one" * (spacing.REMATCH_WAIT == 60),
        f"gives their friend {clocks.GIVEN_SECONDS} s",
        f"`clock_full` past {clocks.FISCHER_LIMITS[1] // 3600} hours",
        f"each player has {fast} to {clocks.FIRST_MOVE_SLOW} s",
        "three times as long" * (clocks.OPENING_STEP_FACTOR == 3),
        f"over {consumers.MAX_MESSAGE // 1024} KiB",
        f"over {defaults.LIVE_MESSAGES_BURST} at once, then "
        f"{defaults.LIVE_MESSAGES_PER_SECOND:g} a second",
        f"at most {defaults.LIVE_MESSAGES_PER_SECOND:g} a second",
        f"beyond its {defaults.LIVE_SOCKETS_PER_CLIENT} (by default",
        f"think times go up to {max(list_think_times()):g} s",
        f"({_minute_rate(defaults.AI_THROTTLE_RATE)} unless the server sets",
        f"({_minute_rate(defaults.GAME_CREATE_RATE)}, `GAME_CREATE_RATE`)",
        f"at most {defaults.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024} KiB (413)",
        f"nest at most {parsers.MAX_DEPTH} levels deep",
        f"thinks {players.DEFAULT_THINK_TIME:g} s a move",
        "within a second of its clock" * (ai.UNASKED_SECONDS == 1),
        "one search running at a time and one more waiting"
        * ((defaults.AI_CLIENT_SEARCHES, defaults.AI_CLIENT_PENDING) == (1, 2)),
    ]
    missing = [phrase for phrase in phrases if not phrase or phrase not in text]
    assert not missing

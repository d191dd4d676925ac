"""``manage.py selfplay`` grows a tree model where the web app finds it."""

from __future__ import annotations

import io
import json

from django.core.management import call_command

from webgame import services


def test_selfplay_writes_a_model_into_model_dir_that_the_kinds_list(tmp_path, settings):
    settings.MODEL_DIR = str(tmp_path)
    out = io.StringIO()
    call_command(
        "selfplay",
        "gomoku",
        "--size=5",
        "--row=4",
        "--games=2",
        "--sims=20",
        "--model=tiny",
        "--quiet",
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    assert summary["game"] == "gomoku" and summary["nodes"] > 1
    listed = services.list_models("gomoku")
    assert [model["name"] for model in listed] == ["tiny"]
    assert listed[0]["nodes"] == summary["nodes"]

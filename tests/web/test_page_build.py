"""A page open across an upgrade learns it is out of date: every answer
names the page's build (X-Page-Build), which the page compares with its own
(webgame/build.py)."""

from __future__ import annotations

import re

from django.urls import reverse

from webgame import build


def test_every_answer_names_the_build_the_page_was_made_of(client):
    page = client.get(reverse("index"))
    made_of = re.search(rb'data-build="([0-9a-f]{12})"', page.content)
    assert made_of, "the page names its build"
    assert page["X-Page-Build"] == made_of.group(1).decode()
    kinds = client.get(reverse("game-kinds"))
    assert kinds["X-Page-Build"] == made_of.group(1).decode()


def test_the_build_changes_with_any_file_the_page_is_made_of(tmp_path, monkeypatch):
    (tmp_path / "board").mkdir()
    script = tmp_path / "board" / "main.js"
    script.write_text("one")
    monkeypatch.setattr(build, "SOURCES", (tmp_path,))
    before = build.compute()
    script.write_text("two")
    assert build.compute() != before
    assert len(before) == 12

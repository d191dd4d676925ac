"""The Django project starts, passes its checks and serves the start page."""

import gzip
import re
from pathlib import Path

from django.core.management import call_command
from django.test import Client
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


def test_the_page_preloads_each_module_its_script_imports_and_no_other(client):
    """The browser fetches the board script's modules at once, not import by
    import (four waves, one round trip each): the page names every module
    that main.js reaches through its imports, and nothing else."""
    folder = Path(__file__).resolve().parents[2] / "static" / "board"
    reached, todo = set(), ["main.js"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += re.findall(r'from "\./([\w-]+\.js)"', (folder / name).read_text())
    body = client.get(reverse("index")).content.decode()
    link = r'<link rel="modulepreload" href="/static/board/([\w-]+\.js)">'
    preloaded = re.findall(link, body)
    assert len(reached) > 20
    assert sorted(preloaded) == sorted(reached)


def test_the_ai_selectors_offer_the_levels_then_the_think_times(client):
    from webgame.pages import strengths

    named, custom = strengths()
    assert custom[0] == "Think time, longer is stronger"
    assert named == (
        "Strength, weakest first",
        [
            ("level:1", "Beginner", "Level 1: 10 simulations, a random move 1 in 2"),
            ("level:2", "Casual", "Level 2: 100 simulations, a random move 1 in 10"),
            ("level:3", "Club", "Level 3: 0.05 s a move"),
            ("level:4", "Strong", "Level 4: 0.15 s a move"),
            ("level:5", "Expert", "Level 5: 0.5 s a move"),
            ("level:6", "Master", "Level 6: 2 s a move"),
        ],
    )
    assert [value for value, _, _ in custom[1]] == [
        "time:0.1", "time:0.5", "time:1", "time:2", "time:5", "time:10"
    ]  # fmt: skip
    assert custom[1][0][1] == "Think 0.1 s"
    body = client.get(reverse("index")).content.decode()
    strong = '<option value="level:4" title="Level 4: 0.15 s a move">Strong</option>'
    assert strong in body
    assert '<option value="level:3" title="Level 3: 0.05 s a move" selected>' in body


def test_the_gomoku_form_offers_the_sizes_and_rows_the_rules_accept(client):
    response = client.get(reverse("index"))
    assert list(response.context["gomoku_sizes"]) == list(range(5, 20))
    assert list(response.context["gomoku_rows"]) == list(range(3, 8))


def test_the_schema_describes_the_options_from_the_games_option_specs():
    from webgame.services import describe_options

    assert describe_options() == (
        'gomoku: {"size": 5..19, "row": 3..size, "rule": '
        '"freestyle"|"standard"|"renju"}; loa: {"double_connection": '
        '"draw"|"mover_wins", "no_move": "pass"|"lose", "repetition": 3|2}; '
        "reversi: {}"
    )


def test_the_page_is_sent_compressed_to_a_browser_that_takes_it(client):
    plain = client.get(reverse("index"))
    packed = client.get(reverse("index"), HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) < len(plain.content) / 3
    assert b'data-game="gomoku"' in gzip.decompress(packed.content)


def test_the_scripts_strings_are_compressed_and_asked_again_only_if_changed(client):
    """QA (a slow phone): the Chinese strings, 38 KB, came whole on every
    visit, uncompressed, before the page could draw (9.5 KB gzipped)."""
    client.cookies["django_language"] = "zh-hans"
    packed = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_ENCODING="gzip")
    assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
    assert len(packed.content) * 3 < len(gzip.decompress(packed.content))
    assert "no-cache" in packed["Cache-Control"]
    again = client.get(
        reverse("javascript-catalog"),
        HTTP_IF_MODIFIED_SINCE=packed["Last-Modified"],
    )
    assert again.status_code == 304 and not again.content


def test_the_page_modules_import_one_another_without_a_cycle():
    """collectstatic names each module by a hash of its text, its imports
    named so first: a cycle has no first, and ``make run`` stopped with "Max
    post-process passes exceeded" (seated.js importing panel.js, which
    imports seated.js). A module reaches another that needs it through a
    handler it registers instead (seated.js's whenFlagDue)."""
    folder = Path(__file__).resolve().parents[2] / "static" / "board"
    imports = {
        path.name: re.findall(r'from "\./([\w-]+\.js)"', path.read_text())
        for path in folder.glob("*.js")
    }

    def cycle_from(name, path):
        if name in path:
            return path[path.index(name) :] + [name]
        for other in imports[name]:
            found = cycle_from(other, path + [name])
            if found:
                return found
        return None

    assert [cycle_from(name, []) for name in imports] == [None] * len(imports)


def test_the_page_has_an_icon_and_a_description_for_link_previews(client):
    """The page's tab showed a blank icon (an empty one, set so that the
    browser would not ask for /favicon.ico and log a 404), and a link sent to
    a friend said nothing in a chat's preview but the address. The icon is
    a file of the page's own; the description is in the reader's language."""
    from django.contrib.staticfiles import finders

    body = client.get(reverse("index")).content.decode()
    icon = re.search(
        r'<link rel="icon" type="image/svg\+xml" href="/static/([^"]+)">', body
    )
    assert icon, "an SVG icon"
    svg = Path(finders.find(icon.group(1))).read_text(encoding="utf-8")
    assert svg.startswith("<svg") and 'viewBox="0 0 32 32"' in svg
    english = re.search(r'<meta name="description" content="([^"]+)">', body)
    assert english and "Reversi" in english.group(1)
    assert f'<meta property="og:description" content="{english.group(1)}">' in body
    assert re.search(r'<meta property="og:title" content="[^"]+">', body)
    # A phone's home screen (iOS) takes a square PNG, 180 px.
    touch = re.search(r'<link rel="apple-touch-icon" href="/static/([^"]+)">', body)
    assert touch, "an icon for a phone's home screen"
    png = Path(finders.find(touch.group(1))).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (
        180,
        180,
    )
    # The page of a mistyped link shows them too.
    missing = client.get("/no-such-page", HTTP_ACCEPT="text/html").content.decode()
    assert icon.group(0) in missing and touch.group(0) in missing
    chinese = client.get(reverse("index"), HTTP_ACCEPT_LANGUAGE="zh-hans").content
    described = re.search(
        r'<meta name="description" content="([^"]+)">', chinese.decode()
    )
    assert described and "黑白棋" in described.group(1)


def test_a_browser_asking_for_favicon_ico_gets_the_icon_not_a_404(client):
    """Pages without the icon's link (the API's JSON and its docs opened in a
    browser) made the browser ask for /favicon.ico, and each visit logged a
    404. It leads to the home screen's PNG, which every browser shows."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302  # not permanent: the file's name changes
    touch = re.search(
        r'<link rel="apple-touch-icon" href="([^"]+)">',
        client.get(reverse("index")).content.decode(),
    )
    assert touch and answer["Location"] == touch.group(1)


def test_the_page_is_only_read():
    # Hostile-client QA: TRACE / answered the page, and PUT, DELETE or POST
    # Django's "CSRF verification failed", as if a form were lost.
    client = Client(enforce_csrf_checks=True)
    for method in ("post", "put", "delete", "patch", "trace"):
        response = getattr(client, method)(reverse("index"))
        assert response.status_code == 405, method
        assert response["Allow"] == "GET, HEAD"
    assert client.head(reverse("index")).status_code == 200


def test_no_template_comment_shows_on_a_page(client):
    # A {# … #} comment over two lines is text to Django: one showed in the
    # Moves card (a comment on "Play from here").
    for path in ("/", "/no-such-page/"):
        html = client.get(path, HTTP_ACCEPT="text/html").content.decode()
        assert "{#" not in html and "#}" not in html and "{%" not in html, path

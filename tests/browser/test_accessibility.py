"""An accessibility check in both colour schemes (issue 65, point 5): axe-core
finds no serious or critical violation on the board page, the first-minute
dialog or the rules, light or dark."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import DESKTOP
from .helpers import LOADED, two_players

SERIOUS = ("serious", "critical")


def serious(page) -> list[str]:
    """Return the serious and critical violations axe-core finds on the page."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes']][:5]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violation(new_page, scheme):
    page = new_page(viewport=DESKTOP, color_scheme=scheme)
    page.goto(page.base_url + "/")
    page.wait_for_function(LOADED)
    page.wait_for_selector("#start-dialog.show")
    assert serious(page) == [], "the first-minute dialog"
    two_players(page, "reversi")
    page.wait_for_function("() => BoardPage.state.game !== null")
    assert serious(page) == [], "the board page"
    page.click("#rules")
    page.wait_for_selector("#rules-dialog.show")
    page.wait_for_timeout(500)  # its fade-in over: colours at full strength
    assert serious(page) == [], "the rules"

"""The analysis says whose visits it counts (issue 65, point 8): this
search's simulations, and those the opening knowledge (the tree model)
brought."""

from __future__ import annotations

from .conftest import DESKTOP
from .helpers import (
    open_board,
    open_imported,
    select_game,
    set_ai,
    wait_idle,
    wait_plies,
)


def test_the_ais_analysis_separates_its_search_from_the_model(new_page):
    page = new_page(viewport=DESKTOP)
    open_board(page)
    select_game(page, "reversi")  # the light model knows the opening
    page.check("#show-analysis")
    set_ai(page, "black", True, "level:1")
    wait_plies(page, 1)
    wait_idle(page)
    stats = page.locator("#analysis-stats").inner_text()
    assert stats.startswith("This search: ") and " simulations in " in stats
    assert "from the opening knowledge" in stats


def test_one_is_singular_and_a_forced_result_needs_no_simulation(page):
    # "1 visits" and, for a Gomoku hint the threat search proved at once,
    # "This search: 0 simulations in 0.00 s", which read like a fault.
    open_board(page)
    said = page.evaluate(
        """async () => {
        const main = document.querySelector('script[src*="board/main"]').src;
        const panel = await import(main.replace("main.js", "panel.js"));
        const overlays = await import(main.replace("main.js", "overlays.js"));
        return {
            one: panel.searchStats({simulations: 1, elapsed: 0.01, root_visits: 1}),
            forced: panel.searchStats(
                {simulations: 0, elapsed: 0, root_visits: 1, found: "win"}),
            visit: overlays.statsText({visits: 1, value: 1, proven: "win"}),
            many: overlays.statsText({visits: 101972, value: 0.5}),
            margin: overlays.statsText(
                {visits: 7, value: 1, proven: "win", margin: 14}),
            one_disc: overlays.statsText(
                {visits: 20, value: 0.2, proven: "loss", margin: -1}),
        };
    }"""
    )
    assert said == {
        "one": "This search: 1 simulation in 0.01 s",
        "forced": "This search found a forced result at once: no simulation was needed",
        "visit": "1 visit, proven win",
        # Grouped as the simulations beside them are ("101972 visits").
        "many": "101,972 visits, win 50%",
        # A solved Reversi endgame's moves, by how much (Reversi walk).
        "margin": "7 visits, proven win by 14 discs",
        "one_disc": "20 visits, proven loss by 1 disc",
    }


def test_the_switch_turned_on_in_a_game_over_says_where_to_look(page):
    # Big-screen QA: a teacher stepping through a game over turned "What the
    # computer thinks of its moves" on, and nothing came, not even a word.
    open_imported(
        page, "gomoku", '[game "gomoku"] [size "7"] [row "4"] a1 a2 b1 b2 c1 c2 d1'
    )
    page.wait_for_function("() => BoardPage.state.game.status === 'finished'")
    page.check("#show-analysis")
    assert page.inner_text("#flash") == (
        "The game is over: \u201cAnalyse the game\u201d rates each of its moves."
    )


def test_of_mistakes_that_lost_as_much_the_later_are_listed(page):
    # Study walk: of moves that each threw away a won game, the first three
    # were listed, and the last, which lost it for good, was not. Here all
    # five moves do.
    open_imported(page, "gomoku", "h8 h9 i8 i9 j8")
    listed = page.evaluate(
        """async () => {
        const main = document.querySelector('script[src*="board/main"]').src;
        const lookback = await import(main.replace("main.js", "lookback.js"));
        const sides = ["black", "white", "black", "white", "black", null];
        const points = sides.map((to_move, k) => ({
            to_move: to_move, black: k % 2 ? 0.0 : 1.0, best: "a1"}));
        return lookback.mistakes({points: points}).map((m) => m.ply);
    }"""
    )
    assert listed == [3, 4, 5]

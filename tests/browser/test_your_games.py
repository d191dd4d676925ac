"""The first-minute dialog lists this browser's games with a friend that go
on (static/board/yourgames.js), its player's move first, and opens them with
their seats; a game that has ended is said and listed with its result
until it is opened, then leaves the list."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import DESKTOP
from .helpers import serious
from .test_play_a_friend import (
    a_friend_joins,
    a_friend_joins_timed,
    click,
    first_moves,
    invite_a_friend,
    ply_is,
)


def test_the_new_game_dialog_lists_ones_games_with_friends_and_opens_them(new_page):
    a, b = a_friend_joins(new_page)  # Gomoku without a clock, A black
    for tab, square, ply in ((a, "h8", 1), (b, "h9", 2)):
        click(tab, square)
        ply_is(a, ply, timeout=5000)
        ply_is(b, ply, timeout=5000)
    friends_game = a.evaluate("BoardPage.state.game.id")
    # A second invitation, not yet taken: the friend's move, and last.
    invite_a_friend(a, "d3", from_game=True)
    waiting = a.evaluate("BoardPage.state.game.id")
    a.locator("#share-dialog .btn-close").click()
    a.click("#new-game")
    a.wait_for_selector("#start-dialog.show")
    a.click("#two-players")  # A's own board: neither game shown
    a.wait_for_function("() => !BoardPage.state.game.seats")
    # New game counts the game where the friend waits for A's move.
    a.wait_for_selector("#your-move-count:not([hidden])")
    assert a.inner_text("#your-move-count-n") == "1"
    expect(a.locator("#new-game")).to_have_accessible_name(
        "New game 1 game with a friend awaits your move"
    )

    a.click("#new-game")
    a.wait_for_selector("#your-games:not([hidden])")
    assert a.locator("#start-leaving").is_hidden()
    a.wait_for_function("() => $('#your-games [data-game]').length === 2")
    entries = a.locator("#your-games [data-game]")
    assert [entries.nth(i).get_attribute("data-game") for i in range(2)] == [
        friends_game,
        waiting,
    ]
    assert entries.nth(0).inner_text().split("\n") == [
        " Gomoku · 15×15, five in a row · Freestyle",
        "2 moves played",
        "Your move (Black)",
    ]
    assert entries.nth(1).inner_text().split("\n")[1:] == [
        "3 days a move · 0 moves played",
        "Your friend has not joined yet",
    ]
    assert entries.nth(0).locator(".badge").count() == 1  # A's move stands out
    assert entries.nth(1).locator(".badge").count() == 0
    a.wait_for_timeout(400)  # the dialog's fade-in over: colours at full strength
    assert serious(a) == []

    entries.nth(0).click()
    a.wait_for_selector("#start-dialog", state="hidden")
    a.wait_for_function("id => BoardPage.state.game.id === id", arg=friends_game)
    assert a.evaluate("BoardPage.state.seat.side") == "black"
    assert a.inner_text("#status") == "Your move (Black)"
    assert a.locator("#your-move-count").is_hidden()  # the game on show
    click(a, "j8")  # played with the seat's token, and pushed to the friend
    ply_is(b, 3, timeout=5000)

    # Back on A's own board, the friend's move in the game left is counted
    # as the page comes back in sight (and every minute while in sight).
    a.go_back()
    a.wait_for_function("() => !BoardPage.state.game.seats")
    assert a.locator("#your-move-count").is_hidden()
    click(b, "k7")
    ply_is(b, 4, timeout=5000)
    visible_again = "() => document.dispatchEvent(new Event('visibilitychange'))"
    a.evaluate(visible_again)
    a.wait_for_selector("#your-move-count:not([hidden])")
    # The friend resigns: the game leaves A's count; the list shows it
    # ended, first, until A opens it (the test after next); the invitation
    # stays.
    b.click("#resign")
    b.click("#resign")  # "Resign?"
    b.wait_for_function("() => BoardPage.state.game.status === 'finished'")
    a.evaluate(visible_again)
    a.wait_for_selector("#your-move-count", state="hidden")
    a.click("#new-game")
    a.wait_for_selector("#start-dialog.show")
    a.wait_for_function(
        "ids => JSON.stringify($('#your-games [data-game]').map((i, e) =>"
        " $(e).data('game')).get()) === JSON.stringify(ids)",
        arg=[friends_game, waiting],
    )


def listed_after_a_game_at_one_screen(a) -> None:
    """A leaves the game with a friend for one at one screen, then opens New
    game, where the game left is listed."""
    a.click("#new-game")
    a.wait_for_selector("#start-dialog.show")
    a.click("#two-players")
    a.wait_for_function("() => !BoardPage.state.game.seats")
    a.click("#new-game")
    a.wait_for_function("() => $('#your-games [data-game]').length === 1")


def test_a_browser_without_games_with_friends_lists_none(new_page):
    page = new_page(viewport=DESKTOP)
    page.goto(page.base_url + "/")
    page.wait_for_selector("#start-dialog.show")
    page.wait_for_timeout(300)  # what the page asked as it loaded is in
    assert page.locator("#your-games").is_hidden()
    assert page.locator("#your-games [data-game]").count() == 0


def test_leaving_a_game_on_the_clock_for_a_new_one_is_warned(new_page):
    """Between friends nothing stops a player starting another game, but
    their clock runs on in the one left (they lost on time, unwarned); the
    list says how long they have."""
    a, b = a_friend_joins_timed(new_page)  # Gomoku at 3+2
    for tab, square, ply in ((a, "h8", 1), (b, "h9", 2)):
        click(tab, square)
        ply_is(a, ply, timeout=5000)
    a.click("#new-game")
    a.wait_for_selector("#start-dialog.show")
    assert a.locator("#start-leaving").inner_text() == (
        "Your game with your friend goes on, and its clock with it:"
        " close this dialog to go back to it."
    )
    a.click("#two-players")
    a.wait_for_function("() => !BoardPage.state.game.seats")
    a.click("#new-game")
    a.wait_for_function("() => $('#your-games [data-game]').length === 1")
    assert a.locator("#start-leaving").is_hidden()
    entry = a.locator("#your-games [data-game]")
    _, more, turn = entry.inner_text().split("\n")
    assert re.fullmatch(
        r"3 min \+ 2 s · 2 moves played · [23]:\d\d left on your clock", more
    ), more
    assert turn == "Your move (Black)"
    # ... and it runs down while the dialog is open (it stood still).
    # Read anew each time: the list may be drawn again meanwhile (the games
    # asked about as the dialog opened), and a line held from before stands
    # still (CI once).
    a.wait_for_function(
        "was => $('#your-games .your-game-more').first().text() !== was",
        arg=more,
        timeout=3000,
    )
    entry.click()
    a.wait_for_function("() => BoardPage.state.game.seats")
    a.click("#resign")
    a.click("#resign")  # "Resign?"
    a.wait_for_selector("#end-dialog.show")
    a.click("#new-game")  # over: nothing runs on
    a.wait_for_selector("#start-dialog.show")
    assert a.locator("#start-leaving").is_hidden()


def test_on_the_friends_move_the_list_says_the_players_own_time(new_page):
    """Friends QA: the time left showed only on the player's own move; on the
    friend's it is the player's still clock, said as such."""
    a, b = a_friend_joins_timed(new_page)  # Gomoku at 3+2
    for tab, square, ply in ((a, "h8", 1), (b, "h9", 2), (a, "j8", 3)):
        click(tab, square)
        ply_is(a, ply, timeout=5000)
    listed_after_a_game_at_one_screen(a)
    _, more, turn = a.locator("#your-games [data-game]").inner_text().split("\n")
    assert re.fullmatch(
        r"3 min \+ 2 s · 3 moves played · 3:0\d left on your clock", more
    ), more
    assert turn == "Your friend's move (White)"
    a.wait_for_timeout(1500)  # still: the friend's clock runs, not this one
    assert a.locator("#your-games .your-game-more").first.inner_text() == more


def test_a_clock_the_dialog_does_not_offer_is_named_in_words(new_page):
    """QA: a game made through the API at 15+0 was listed "0.25+0"."""
    from webgame.models import Game as GameRow
    from webgame.services import clocks

    a = new_page(viewport=DESKTOP)
    invite_a_friend(a, "d3")
    game_id = a.evaluate("BoardPage.state.game.id")
    a.locator("#share-dialog .btn-close").click()
    GameRow.objects.filter(pk=game_id).update(
        clock=clocks.new_clock({"initial": 15, "increment": 0})
    )
    listed_after_a_game_at_one_screen(a)
    line = a.locator("#your-games [data-game]").nth(0).inner_text().split("\n")[1]
    assert line == "15 s + 0 s · 0 moves played"


def test_a_game_that_ended_elsewhere_is_said_and_listed_until_seen(new_page):
    """Friends QA: the friend resigned a game of days a move while the
    player played another: it left the list without a word, and only its
    old link told the result. It is said, heads the list with the result,
    and opens on its end card; then it leaves the list."""
    a, b = a_friend_joins(new_page)  # Gomoku without a clock, A black
    first_moves(a, b)
    friends_game = a.evaluate("BoardPage.state.game.id")
    listed_after_a_game_at_one_screen(a)
    a.locator("#start-dialog .btn-close").click()
    a.wait_for_selector("#start-dialog", state="hidden")
    b.click("#resign")
    b.click("#resign")  # "Resign?"
    b.wait_for_selector("#end-dialog.show")
    a.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    a.wait_for_function(
        "t => document.getElementById('flash').textContent === t",
        arg="You won your game of Gomoku with your friend: New game lists it.",
    )
    a.click("#new-game")
    entry = a.locator(f'#your-games [data-game="{friends_game}"]')
    expect(entry).to_be_visible()
    assert entry.inner_text().split("\n")[-1] == "You won"
    assert a.inner_text("#your-move-count-n") in ("", "0")
    entry.click()
    a.wait_for_selector("#end-dialog.show")
    assert a.locator("#end-reason").inner_text() == "Your friend resigned."
    a.click("#new-game")
    a.wait_for_selector("#start-dialog.show")
    a.wait_for_timeout(500)  # the games asked about as it opened are in
    assert a.locator(f'#your-games [data-game="{friends_game}"]').count() == 0


def test_a_game_that_ended_while_the_page_was_closed_is_said_as_it_opens(new_page):
    """Correspondence QA: the friend resigned while the player was away; the
    site opened on another game, and nothing under the board said it (it
    was said before that game came, and went with its status)."""
    a, b = a_friend_joins(new_page)  # Gomoku without a clock, A black
    first_moves(a, b)
    listed_after_a_game_at_one_screen(a)
    a.locator("#start-dialog .btn-close").click()
    a.wait_for_selector("#start-dialog", state="hidden")
    shown = a.evaluate("BoardPage.state.game.id")
    a.goto("about:blank")
    b.click("#resign")
    b.click("#resign")  # "Resign?"
    b.wait_for_selector("#end-dialog.show")
    a.goto(a.base_url + "/")
    a.wait_for_function("id => BoardPage.state.game?.id === id", arg=shown)
    a.wait_for_timeout(1000)  # the page's own words about its game are in
    assert a.inner_text("#flash") == (
        "You won your game of Gomoku with your friend: New game lists it."
    )


def test_a_friends_move_in_a_game_without_a_clock_is_said(new_page):
    """Friends QA: a friend's move in a game of days a move not on show was
    told only by New game's count, a minute later."""
    a, b = a_friend_joins(new_page)
    first_moves(a, b)
    click(a, "j8")
    ply_is(b, 3, timeout=5000)
    listed_after_a_game_at_one_screen(a)
    a.locator("#start-dialog .btn-close").click()
    a.wait_for_selector("#start-dialog", state="hidden")
    click(b, "j9")
    a.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    a.wait_for_function(
        "t => document.getElementById('flash').textContent === t",
        arg="Your friend moved in your game of Gomoku: New game lists it.",
    )


def test_a_game_of_days_a_move_says_by_when_to_move(new_page):
    """Friends QA: a correspondence clock showed only the time left ("2 d
    23 h"), never when the move is due, to plan a day around."""
    a, b = (new_page(viewport=DESKTOP) for _ in range(2))
    invite, _ = invite_a_friend(a, "d3")
    a.locator("#share-dialog .btn-close").click()
    b.goto(invite)
    b.wait_for_function("() => BoardPage.state.seat !== null && BoardPage.state.live")
    first_moves(a, b, timeout=5000)
    a.wait_for_selector("#clock-black.running")
    due = a.get_attribute("#clock-black", "title")
    assert due and re.fullmatch(r"Move by .+\d:\d\d.*", due), due
    assert a.get_attribute("#clock-white", "title") is None  # the still one
    listed_after_a_game_at_one_screen(a)
    more = a.locator("#your-games .your-game-more").first.inner_text()
    assert re.fullmatch(
        r"3 days a move · 2 moves played · .+ left on your clock, due .+\d:\d\d.*", more
    ), more
    # On the friend's move, by when they must move (correspondence QA: it
    # said the player's own full clock, "1 d left on your clock", which
    # runs no more).
    listed_after_a_game_at_one_screen(b)
    more = b.locator("#your-games .your-game-more").first.inner_text()
    assert re.fullmatch(
        r"3 days a move · 2 moves played · your friend's move is due .+\d:\d\d.*",
        more,
    ), more


def test_a_rematch_accepted_while_the_page_was_closed_is_listed(new_page):
    """Correspondence walk: A offered a rematch and closed the page; the
    friend accepted and moved; back the next day, A found the rematch
    nowhere but on the old game's page."""
    a, b = a_friend_joins(new_page)  # Gomoku without a clock, A black
    first_moves(a, b)
    first = a.evaluate("BoardPage.state.game.id")
    b.click("#resign")
    b.click("#resign")  # "Resign?"
    a.wait_for_selector("#end-dialog.show")
    a.click("#rematch")
    a.wait_for_function("() => BoardPage.state.game.offers.rematch")
    a.goto("about:blank")
    b.wait_for_selector("#end-offer:not([hidden])")
    b.click("#rematch")
    b.wait_for_function("id => BoardPage.state.game.id !== id", arg=first)
    rematch = b.evaluate("BoardPage.state.game.id")
    click(b, "h8")  # B plays black in the rematch: A's move now
    ply_is(b, 1, timeout=5000)
    a.goto(a.base_url + "/")
    a.wait_for_function("() => BoardPage.state.game !== null")
    a.wait_for_function(
        "() => $('#flash').text().startsWith('Your friend accepted the rematch')"
    )
    assert a.inner_text("#flash") == (
        "Your friend accepted the rematch of your game of Gomoku: New game lists it."
    )
    a.click("#new-game")
    a.wait_for_selector("#your-games:not([hidden])")
    entry = a.locator(f'#your-games [data-game="{rematch}"]')
    expect(entry).to_have_count(1)
    assert entry.inner_text().split("\n")[-1] == "Your move (White)"
    entry.click()
    a.wait_for_function("id => BoardPage.state.game.id === id", arg=rematch)
    assert a.evaluate("BoardPage.state.seat.side") == "white"

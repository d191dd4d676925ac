/*
 * The games with a friend that this browser holds a seat in and that are
 * still being played, listed at the top of the first-minute dialog, those
 * where the friend waits for this player's move first (lichess's "playing
 * now"). A game of days a move, or one left to play another, is a tap away
 * rather than only in a link kept somewhere. The seats are this browser's
 * (history.js); their games' snapshots are asked for as the page loads, as
 * the dialog opens, and every minute while the page is in sight; New game
 * counts those awaiting this player's move. A game that ended since this
 * browser last saw it in play is said, and heads the list with its result
 * until it is opened; then, like any game seen finished, it is not asked
 * about again. One the server no longer has is forgotten.
 */
import * as api from "./api.js";
import { optionsText } from "./controls.js";
import { whenGameDrawn } from "./game.js";
import { awaitRematch, endUnseen, rememberRematch, seatEnded, seatsAwaitingRematch, seatsInPlay } from "./history.js";
import { flash } from "./panel.js";
import { clockText, controlName, dueText } from "./seated.js";
import { play } from "./sound.js";
import { gameTitle, movesPlayed, otherSide, resultText, seatSide, state, turnWords } from "./state.js";

/** How many of the latest seats are asked about, and how many games shown. */
const ASKED = 8;
const SHOWN = 5;

/** The games in play found by the last answer, [{seat, g, at}] (`at`: when
 *  `g` came, by performance.now()), or null before the first. */
let known = null;
/** The answer asked for last: an older one draws nothing. */
let asking = null;

/** Ask the server for the games whose rematch this browser offered: one
 *  accepted meanwhile gets its seat here (and is said), one declined or
 *  gone is no longer asked about. */
function askRematches() {
  const asked = seatsAwaitingRematch().map((seat) =>
    Promise.resolve(api.getGame(seat.id)).then(
      function (g) {
        if (g.rematch) {
          rememberRematch(g, seat);
          if (g.rematch !== shownId()) tell(rematchStarted, { seat: seat, g: g }, g.rematch);
        } else if (!(g.offers && g.offers.rematch)) awaitRematch(seat.id, false);
      },
      function (xhr) {
        if (xhr.status === 404) awaitRematch(seat.id, false);
      },
    ),
  );
  return Promise.all(asked);
}

/** Ask the server for the games of the latest seats in play (and of the
 *  rematches accepted meanwhile); those seen finished leave the seats in
 *  play, those gone are forgotten. */
function ask() {
  asking = askRematches().then(askInPlay);
  return asking;
}

function askInPlay() {
  const found = seatsInPlay()
    .slice(0, ASKED)
    .map((seat) =>
      Promise.resolve(api.getGame(seat.id)).then(
        (g) => ({ seat: seat, g: g, at: performance.now() }),
        function (xhr) {
          if (xhr.status === 404) seatEnded(seat.id, true);
          return null;
        },
      ),
    );
  return Promise.all(found).then(function (games) {
    // Ended: seen, it leaves the seats in play; not yet, it stays listed.
    games.forEach((x) => x && ended(x.g) && !endUnseen(x.g.id) && seatEnded(x.seat.id));
    known = games.filter((x) => x && (!ended(x.g) || endUnseen(x.g.id)));
    known.forEach(function (x) {
      const id = x.g.id;
      if (ended(x.g)) {
        awaited.delete(id);
        friendToMove.delete(id);
        if (!endSaid.has(id) && id !== shownId()) tell(friendEnded, x);
        endSaid.add(id);
        return;
      }
      const waits = waitingFor(x.g, seatSide(x.g, x.seat));
      if (waits === 2) awaited.add(id);
      else if (awaited.delete(id) && id !== shownId()) tell(friendCame, x);
      if (waits === 1) friendToMove.set(id, timed(x.g));
      else if (friendToMove.delete(id) && waits === 0 && id !== shownId()) tell(friendMoved, x);
    });
  });
}

/** The games of this browser's invitations last seen with the friend's
 *  seat open (asked for, or on show). */
const awaited = new Set();
/** The games last seen on the friend's move: id -> whether timed (the
 *  friend's move starts this player's clock: asked about more often). */
const friendToMove = new Map();
/** The games whose end, not seen, this page has said. */
const endSaid = new Set();

function ended(g) {
  return g.status !== "playing";
}

/** A timed game, whose friend's move starts this player's clock. */
function timed(g) {
  return Boolean(g.clock && !g.clock.control.days);
}

function shownId() {
  return state.game && state.game.id;
}

/** News found before the page shows its first game, said once it does
 *  (correspondence QA: a game ended while the page was closed was said as
 *  it opened, then went with the words of the game it opened on). */
let untilShown = [];

/** Say `news` of game `x` now, or once a game is on show (if not the
 *  game the news is about, `about`). */
function tell(news, x, about = x.g.id) {
  if (state.game) news(x);
  else untilShown.push(() => about !== shownId() && news(x));
}

/** The friend opened the invitation of a game not on show: say so (QA: the
 *  inviter, playing another game, was told nothing, and the game was
 *  aborted when their first move's time ran out). */
function friendCame(x) {
  const words = interpolate(gettext("Your friend joined your game of %(game)s: New game lists it."), { game: gameTitle(x.g) }, true);
  flash(words, "position"); // a live region: heard too; until a move here
  play("joined");
}

/** The friend moved in timed game `x`, not on show: say so (friends QA:
 *  playing the computer meanwhile, the player learnt it by New game's
 *  count, a minute later, their clock running all along). */
function friendMoved(x) {
  const words = timed(x.g)
    ? gettext("Your friend moved in your game of %(game)s, and your clock runs: New game lists it.")
    : gettext("Your friend moved in your game of %(game)s: New game lists it.");
  flash(interpolate(words, { game: gameTitle(x.g) }, true), "position"); // a live region: heard too; until a move here
  play("joined");
}

/** The friend accepted the rematch of game `x` while this page was closed
 *  or on another game: say so. */
function rematchStarted(x) {
  const words = interpolate(gettext("Your friend accepted the rematch of your game of %(game)s: New game lists it."), { game: gameTitle(x.g) }, true);
  flash(words, "position");
  play("joined");
}

/** Game `x`, not on show, has ended since this browser saw it in
 *  play: say so (friends QA: it left the list without a word). */
function friendEnded(x) {
  // With its result (correspondence walk: only the list said "You won").
  const r = x.g.result || {};
  const mine = seatSide(x.g, x.seat);
  let said = gettext("Your game of %(game)s with your friend ended in a draw: New game lists it.");
  if (r.winner) said = r.winner === mine ? gettext("You won your game of %(game)s with your friend: New game lists it.") : gettext("You lost your game of %(game)s with your friend: New game lists it.");
  else if (r.reason === "aborted") said = gettext("Your game of %(game)s with your friend was aborted: New game lists it.");
  const words = interpolate(said, { game: gameTitle(x.g) }, true);
  flash(words, "position");
  play("joined");
}

/** List the games in play with a friend other than the one on show: those
 *  known at once (asked for as the page loaded, so the dialog's choices do
 *  not move under a finger), then as the server answers now. */
export function drawYourGames() {
  draw();
  const answer = ask();
  answer.then(() => answer === asking && draw());
}

function draw() {
  const playing = others();
  // Where the friend waits for this player first, then where this player
  // waits for the friend's move, then the invitations not yet taken; the
  // latest seat first in each.
  const listed = [-1, 0, 1, 2].flatMap((n) => playing.filter((x) => rank(x) === n)).slice(0, SHOWN);
  $("#your-games-list").empty().append(listed.map(entry));
  $("#your-games").prop("hidden", listed.length === 0);
  drawCount();
}

/** The games known (in play, or ended unseen), but the one on show. */
function others() {
  const shown = state.game && state.game.id;
  return (known || []).filter((x) => x.g.id !== shown);
}

/** Where a game is listed: -1 ended (first), else whom it waits for. */
function rank(x) {
  return ended(x.g) ? -1 : waitingFor(x.g, seatSide(x.g, x.seat));
}

/** Count on New game the games where the friend waits for this player's
 *  move, as lichess counts a player's correspondence games awaiting them. */
function drawCount() {
  const n = others().filter((x) => rank(x) === 0).length;
  const words = interpolate(ngettext("%(n)s game with a friend awaits your move", "%(n)s games with friends await your move", n), { n: n }, true);
  $("#your-move-count").prop("hidden", n === 0).attr("title", words);
  $("#your-move-count-n").text(n);
  $("#your-move-count-words").text(" " + words); // "New game 1 game ..." to a screen reader
}

/** Ask again now and then while the page is in sight (and as it comes back
 *  in sight), if this browser has other games in play: a friend's move in
 *  a game of days a move comes while another game is on the board. */
function refresh() {
  if (document.visibilityState !== "visible" || !seatsInPlay().some((seat) => !state.game || seat.id !== state.game.id)) return;
  const answer = ask();
  answer.then(() => answer === asking && drawCount());
}

/** A button opening game `g` (asked for at `at`, by performance.now()) of
 *  this player's `seat`: the game and its options; under them the clock,
 *  how far it has gone and, on the player's move, the time they have left;
 *  and whose move it is. */
function entry(x) {
  const { seat, g } = x;
  const mine = seatSide(g, seat);
  const what = [gameTitle(g), optionsText(g)].filter(Boolean).join(" \u00b7 ");
  const waiting = ended(g) ? -1 : waitingFor(g, mine);
  const turn = waiting === -1 ? endWords(g, mine) : waiting === 2 ? gettext("Your friend has not joined yet") : turnWords(g, mine);
  // The turn beside the game where both fit, else under it (board.css).
  return $('<button type="button" class="list-group-item list-group-item-action your-game">')
    .attr("data-game", g.id)
    .data("entry", x)
    .append(
      $("<span>").append(
        $("<span class=d-block>").append($('<span aria-hidden="true">').addClass("piece-mini " + mine), " ", document.createTextNode(what)),
        $('<span class="d-block small text-body-secondary your-game-more">').text(moreWords(x)),
      ),
    )
    .append($("<span>").addClass(waiting === 0 ? "badge text-bg-primary" : waiting === -1 ? "badge text-bg-secondary" : "small text-body-secondary").text(turn));
}

/** How game `g` ended, to the player of side `mine`. */
function endWords(g, mine) {
  const r = g.result || {};
  if (r.winner) return r.winner === mine ? gettext("You won") : gettext("You lost");
  return r.reason === "aborted" ? gettext("Game aborted") : gettext("A draw");
}

/** The line under a listed game: its clock, how far it has gone and, once
 *  the clocks run, the time the player has left now (on the friend's move
 *  too, still: friends QA); in a game of days a move, on the friend's
 *  move, by when they must move (the player's own clock, full again, is
 *  not news: correspondence QA). */
function moreWords({ seat, g, at }) {
  const mine = seatSide(g, seat);
  const played = movesPlayed(g);
  const far = interpolate(ngettext("%(n)s move played", "%(n)s moves played", played), { n: played }, true);
  if (ended(g)) return [far, resultText(g.result)].join(" \u00b7 ");
  const running = g.clock && g.clock.running;
  const days = running && g.clock.control.days;
  const side = days && running !== mine ? running : mine;
  const seconds = running && g.clock[side] - (running === side ? (performance.now() - at) / 1000 : 0);
  const time = { time: clockText(seconds, g.clock && g.clock.control), when: dueText(seconds) };
  let left = running && interpolate(gettext("%(time)s left on your clock"), time, true);
  // A game of days a move: by when, too (friends QA).
  if (days) left = interpolate(side === mine ? gettext("%(time)s left on your clock, due %(when)s") : gettext("your friend's move is due %(when)s"), time, true);
  return [g.clock ? controlName(g.clock.control) : "", far, left].filter(Boolean).join(" \u00b7 ");
}

/** Who game `g` waits for, to the player of side `mine`: 0 this player
 *  (their move), 1 the friend (theirs), 2 the friend to join. */
function waitingFor(g, mine) {
  if (!g.seats[otherSide(mine)]) return 2;
  return g.to_move === mine ? 0 : 1;
}

/** How often the games in play are asked about again (ms): more often while
 *  an invitation waits, whose friend's coming starts a first move's 15-35 s,
 *  or a timed game waits for the friend's move, which starts this player's
 *  clock. */
const REFRESH_EVERY = 60000;
const INVITATION_EVERY = 5000;

let refreshedAt = performance.now();

// As the page loads (the dialog lists the games as it opens), then now and then.
ask().then(drawCount);
setInterval(function () {
  const inviting = [...awaited].some((id) => id !== shownId()) || [...friendToMove].some(([id, clocked]) => clocked && id !== shownId());
  if (!inviting && performance.now() - refreshedAt < REFRESH_EVERY - INVITATION_EVERY / 2) return;
  refreshedAt = performance.now();
  refresh();
}, INVITATION_EVERY);
document.addEventListener("visibilitychange", refresh);
// The time left of the games listed runs down while the dialog is open (QA:
// "9:33 left" stood still).
setInterval(function () {
  $("#your-games-list .your-game:visible").each(function () {
    $(this).find(".your-game-more").text(moreWords($(this).data("entry")));
  });
}, 1000);
whenGameDrawn(function () {
  const told = untilShown;
  untilShown = [];
  told.forEach((news) => news());
  const g = state.game;
  // An invitation of the game on show: its friend's coming is said here
  // (friends.js) while it is on show, by friendCame once another is.
  if (g.seats && state.seat && state.seat.id === g.id) {
    if (g.status === "playing" && waitingFor(g, seatSide(g, state.seat)) === 2) awaited.add(g.id);
    else awaited.delete(g.id);
  }
  // The game on show is not counted; its snapshot, the latest, is kept for
  // when another is shown (a move made here is no longer awaited).
  const shown = (known || []).find((x) => x.g.id === state.game.id);
  if (shown) Object.assign(shown, { g: state.game, at: state.receivedAt });
  drawCount();
});

/*
 * Drawing a game between two browsers, or one with a clock: who sits where
 * and whether they are connected, how many watch, the clocks (ticking here
 * from the server's last reading), an offer waiting for an answer, and which
 * of the players' buttons apply (resign, draw, takeback instead of undo,
 * Rematch after the game); a claim once the friend has left; and whether
 * this page's own connection holds.
 */
import { grey } from "./buttons.js";
import { endCardUp } from "./ending.js";
import { openingStones, openingStonesKept, opensSwap2, sideOrPart } from "./opening.js";
import { play } from "./sound.js";
import { SIDES, humanSide, mySeat, onlyWatching, otherSide, sideName, state } from "./state.js";

let ticking = null;
/** A Fischer clock under this many seconds reads red, and its player hears
 *  it once as it crosses (as on lichess; again only once it rose above half
 *  as much again, by increments or time given). */
const LOW_SECONDS = 20;
/** Whether this page's player hears their clock run low next, and the game
 *  that holds for. */
let lowTimeArmed = true;
let lowTimeGame = null;
/** A first move's time under this many seconds reads red, and the player
 *  who must make it hears it once (keyboard walk: the game was aborted
 *  with no word before). */
const FIRST_MOVE_LOW_SECONDS = 10;
/** The game and side last warned of its first move's time. */
let firstMoveWarned = null;
/** What to do when a clock on show has run out but no ending came (game.js
 *  registers it: ask the server, which settles the loss on time), and the
 *  game version it was done for. */
let onFlagDue = () => {};
let flagAskedAt = null;

/** Register `handler()`, called once per game version whose running clock
 *  has been at zero for a second with the game still on. */
export function whenFlagDue(handler) {
  onFlagDue = handler;
}

/** What says words to a screen reader (game.js registers panel.js's
 *  announce: panel.js draws the seats, so it is not imported here). */
let onLowTime = () => {};

export function whenLowTime(handler) {
  onLowTime = handler;
}

/** A time control as the selectors name it ("5 min + 3 s", "1 day a move"):
 *  clockOf's inverse; one they do not offer (made through the API) in the
 *  same words ("15 s + 0 s": it read "0.25+0"). */
export function controlName(control) {
  const value = control.days ? "d" + control.days : control.initial / 60 + "+" + control.increment;
  const offered = $('#friend-clock option[value="' + value + '"]').text();
  if (offered) return offered;
  if (control.days) return interpolate(ngettext("%(days)s day a move", "%(days)s days a move", control.days), { days: control.days }, true);
  const words = control.initial % 60 ? gettext("%(seconds)s s + %(increment)s s") : gettext("%(minutes)s min + %(increment)s s");
  return interpolate(words, { seconds: control.initial, minutes: control.initial / 60, increment: control.increment }, true);
}

/** A correspondence clock's last hour reads as a Fischer clock's, in red
 *  (QA: its last minute read "0 min", as if its time were up). */
const DAYS_LOW_SECONDS = 3600;

/** "4:05", "1:02:03", "2 d 3 h" or "1 d" (correspondence, "59:30" in its
 *  last hour), from seconds left. */
export function clockText(seconds, control) {
  const s = Math.max(0, seconds);
  if (control && control.days && s >= DAYS_LOW_SECONDS) {
    const days = Math.floor(s / 86400),
      hours = Math.floor((s % 86400) / 3600),
      minutes = Math.floor((s % 3600) / 60);
    const left = { days: days, hours: hours, minutes: minutes };
    if (days) return interpolate(hours ? gettext("%(days)s d %(hours)s h") : gettext("%(days)s d"), left, true);
    return interpolate(hours ? gettext("%(hours)s h %(minutes)s min") : gettext("%(minutes)s min"), left, true);
  }
  const whole = s < 10 ? Math.floor(s * 10) / 10 : Math.floor(s);
  const h = Math.floor(whole / 3600),
    m = Math.floor((whole % 3600) / 60),
    sec = whole % 60;
  const secText = s < 10 ? sec.toFixed(1).padStart(4, "0") : String(Math.floor(sec)).padStart(2, "0");
  return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + secText;
}

/** When a move `seconds` from now is due, in the page's language ("Tue,
 *  Dec 8, 02:05 PM"): a game of days a move is planned by the date (friends
 *  QA: "2 d 23 h" alone). */
export function dueText(seconds) {
  const when = new Date(Date.now() + Math.max(0, seconds) * 1000);
  return when.toLocaleString(document.documentElement.lang || undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** Seconds left on `side`'s clock now: the server's reading, less the time
 *  since it came for the running side. */
function secondsLeft(side) {
  const clock = state.game.clock;
  const left = clock[side];
  if (clock.running !== side) return left;
  return left - (performance.now() - state.receivedAt) / 1000;
}

/** Seconds left for the side to move to make its first move (between two
 *  seats, before the clocks run; the server then aborts the game), or null. */
function firstMoveLeft() {
  const g = state.game;
  if (!firstMoveCounted(g)) return null;
  return g.clock.first_move - (performance.now() - state.receivedAt) / 1000;
}

/** Whether a first move's time is counted down in the game `g` (or null). */
export function firstMoveCounted(g) {
  return Boolean(g && g.status === "playing" && g.clock && g.clock.first_move !== null && g.clock.first_move !== undefined);
}

function drawClocks() {
  const g = state.game;
  const firstMove = firstMoveLeft();
  const inOpening = Boolean(g.opening && g.opening.step !== "done");
  SIDES.forEach(function (side) {
    const $clock = $("#clock-" + side);
    if (!g.clock) return $clock.prop("hidden", true);
    // The side to make its first move: its clock counts that time down, in
    // its own colour (the same width: no board moves).
    const first = firstMove !== null && side === g.to_move;
    const left = first ? firstMove : secondsLeft(side);
    if (!$clock.data("label")) $clock.data("label", $clock.attr("aria-label"));
    // Written when it changes, not at each tick (QA: 20 times a second, a
    // still clock too).
    const text = clockText(left, first ? null : g.clock.control);
    if ($clock.text() !== text) $clock.text(text);
    $clock
      .prop("hidden", false)
      .toggleClass("running", g.clock.running === side)
      .toggleClass("first-move", first)
      // Red while in danger; in a game over, only the flag that fell.
      .toggleClass("low", g.status === "playing" ? left < (first ? FIRST_MOVE_LOW_SECONDS : g.clock.control.days ? DAYS_LOW_SECONDS : LOW_SECONDS) : left <= 0)
      // Days and hours are words (天, 小时), wide in a typewriter's font.
      .toggleClass("font-monospace", first || !g.clock.control.days || left < DAYS_LOW_SECONDS)
      // During a Swap2 opening, by part: the opener need not end up Black
      // (keyboard walk: "Black's time to make a first move").
      .attr("aria-label", first ? interpolate(gettext("%(side)s's time to make a first move"), { side: sideOrPart(g, side) }, true) : inOpening ? interpolate(gettext("%(side)s's time"), { side: sideOrPart(g, side) }, true) : $clock.data("label"))
      // A clock standing still at the start looked stuck.
      .attr("title", first ? gettext("Time to make a first move: then the game is aborted") : g.status !== "playing" ? null : !g.clock.running ? stillClock(g) : g.clock.control.days && g.clock.running === side ? interpolate(gettext("Move by %(when)s"), { when: dueText(left) }, true) : null);
  });
  const running = g.clock && g.clock.running && g.status === "playing";
  if (running) warnLowTime(g);
  if (firstMove !== null) warnFirstMoveTime(g, firstMove);
  // The server's flag watcher ends the game (or aborts it) and pushes it;
  // if nothing came (a socket down, another process), ask once.
  const key = g.id + ":" + g.version;
  const due = running ? secondsLeft(g.clock.running) : firstMove;
  if (due !== null && due < -1 && flagAskedAt !== key) {
    flagAskedAt = key;
    onFlagDue();
  }
  const counting = running || firstMove !== null;
  if (counting && !ticking) ticking = setInterval(() => state.game && drawClocks(), 100);
  if (!counting && ticking) {
    clearInterval(ticking);
    ticking = null;
  }
}

/** Sound and say the player's own running Fischer clock crossing LOW_SECONDS. */
function warnLowTime(g) {
  if (g.id !== lowTimeGame) {
    lowTimeGame = g.id;
    lowTimeArmed = true;
  }
  const mine = humanSide();
  if (!mine || g.clock.control.days) return;
  const left = secondsLeft(mine);
  if (left > 1.5 * LOW_SECONDS) lowTimeArmed = true;
  else if (lowTimeArmed && left < LOW_SECONDS && g.clock.running === mine) {
    lowTimeArmed = false;
    play("lowTime");
    // Heard without sound too (off by default): a screen reader says it.
    onLowTime(interpolate(gettext("Under %(n)s seconds left on your clock"), { n: LOW_SECONDS }, true));
  }
}

/** Sound and say the time to make the player's own first move (a Swap2
 *  opening's first turn) crossing FIRST_MOVE_LOW_SECONDS, once. */
function warnFirstMoveTime(g, left) {
  const mine = humanSide();
  const key = g.id + ":" + mine;
  if (!mine || mine !== g.to_move || left >= FIRST_MOVE_LOW_SECONDS || left <= 0 || firstMoveWarned === key) return;
  firstMoveWarned = key;
  play("lowTime");
  const turn = g.opening && g.opening.step !== "done";
  const words = turn ? gettext("Under %(n)s seconds left for your first turn") : gettext("Under %(n)s seconds left to make your first move");
  onLowTime(interpolate(words, { n: FIRST_MOVE_LOW_SECONDS }, true));
}

/** Who sits at `side`, in the words of this browser's player. */
function seatName(side) {
  const g = state.game;
  const mine = mySeat();
  if (mine && mine === side) return gettext("You");
  // Until the friend opens the invitation, nobody sits there yet.
  if (mine && !g.seats[side]) return g.status === "playing" ? gettext("Not joined yet") : gettext("Nobody joined");
  if (mine) return gettext("Your friend");
  // Under Swap2, parts until a colour is chosen (Gomoku QA).
  const part = opensSwap2(g, side);
  const name = { side: part === null ? sideName(side) : part ? gettext("Opener") : gettext("Second player") };
  // Over, nobody can take it any more (friends QA: "(open seat)").
  if (g.seats && !g.seats[side]) return interpolate(g.status === "playing" ? gettext("%(side)s (open seat)") : gettext("%(side)s (nobody joined)"), name, true);
  if (g.players[side].kind === "ai") return interpolate(gettext("%(side)s (computer)"), name, true);
  return name.side;
}

function drawPresence() {
  const g = state.game;
  // While this page's own connection is lost, what it knows of the others is old.
  const lost = state.liveLost;
  const who = (!lost && state.presence) || {};
  $("#connection-lost").prop("hidden", !lost);
  // A page that polls (its socket never connected) does not know who is
  // connected: no dots saying nobody is (network QA: both hollow all game).
  const known = Boolean(g.seats) && (state.live || lost);
  SIDES.forEach(function (side) {
    const on = Boolean(g.seats && who[side]);
    $("#seat-name-" + side).text(seatName(side));
    const presence = on ? gettext("connected") : gettext("not connected");
    $("#presence-" + side)
      .prop("hidden", !g.seats)
      .css("visibility", known ? "" : "hidden") // its room kept: the chip does not grow as the socket comes
      .toggleClass("on", on)
      .attr("title", presence);
    // The dot is seen: heard too (keyboard QA).
    // Translators: after a player's name, to a screen reader: "(connected)".
    $("#presence-said-" + side).text(known ? " " + interpolate(gettext("(%(presence)s)"), { presence: presence }, true) : "");
    $("#seat-" + side).toggleClass("to-move", g.status === "playing" && g.to_move === side);
    // No colour is anyone's before the Swap2 choice: a disc half of each.
    const undecided = opensSwap2(g, side) !== null;
    $("#seat-" + side + " .piece-mini")
      .toggleClass("undecided", undecided)
      .attr("title", undecided ? gettext("Colour chosen in the Swap2 opening") : null);
  });
  // The count keeps its place even when empty (board.css): a watcher coming
  // or going moves no board.
  // A watch link's page counts itself, as a spectators' list names its reader.
  $("#control-name").text(g.clock ? controlName(g.clock.control) : "");
  $("#watchers").text(watchersText(who.watchers || 0));
}

/** How many watch, said to a watcher as "You are watching" (network walk:
 *  nothing on a watch link's page said so until a tap was refused). */
function watchersText(watchers) {
  if (onlyWatching()) {
    const others = Math.max(0, watchers - (state.watching ? 1 : 0));
    if (!others) return gettext("You are watching");
    return interpolate(ngettext("You and %(n)s other are watching", "You and %(n)s others are watching", others), { n: others }, true);
  }
  return watchers ? interpolate(ngettext("%(n)s watching", "%(n)s watching", watchers), { n: watchers }, true) : "";
}

/** Whether a takeback asked by `side` takes back the friend's reply too:
 *  asked on the asker's own turn (correspondence walk: accepted, it took
 *  back the friend's own move, and the request had not said so). */
function withReply(side) {
  return state.game.to_move === side;
}

/** What a watcher reads of an offer (`side` made it). */
const OFFER_WORDS = {
  draw: (side) => interpolate(gettext("%(side)s offers a draw"), { side: sideOrPart(state.game, side) }, true),
  takeback: (side) =>
    interpolate(withReply(side) ? gettext("%(side)s asks to take back their last move and the reply") : gettext("%(side)s asks to take back their last move"), { side: sideOrPart(state.game, side) }, true),
  rematch: (side) => interpolate(gettext("%(side)s offers a rematch"), { side: sideName(side) }, true),
};

/** What a player reads of their friend's offer. */
const FRIEND_OFFER_WORDS = {
  draw: () => gettext("Your friend offers a draw"),
  takeback: (side) => (withReply(side) ? gettext("Your friend asks to take back their last move and yours") : gettext("Your friend asks to take back their last move")),
  rematch: () => gettext("Your friend offers a rematch"),
};

/** What this player reads of their own offer while the friend decides. */
const WAITING_WORDS = {
  draw: () => gettext("Draw offered: waiting for your friend"),
  takeback: () => gettext("Takeback asked: waiting for your friend"),
  rematch: () => gettext("Rematch offered: waiting for your friend"),
};

/** This player's own offer of `kind`, as they read it: a rematch offered to
 *  a friend who has left waits for their return (friends QA: "waiting for
 *  your friend" stood forever, a grey dot alone saying they were gone). */
function waitingWords(kind) {
  const who = state.presence;
  const away = kind === "rematch" && who && !state.liveLost && who[otherSide(mySeat())] === false;
  return away ? gettext("Rematch offered: your friend is away, and sees it when they come back") : WAITING_WORDS[kind]();
}

function drawOffers() {
  const g = state.game;
  const offers = g.offers || {};
  const mine = mySeat();
  // A draw or a takeback while the game is played, a rematch once it is over.
  const kinds = g.status === "playing" ? ["draw", "takeback"] : ["rematch"];
  const kind = kinds.find((k) => offers[k]);
  const $bar = $("#offer-bar");
  if (!kind) {
    drawEndOffer(null);
    return $bar.prop("hidden", true);
  }
  const from = offers[kind];
  const askingMe = mine && from !== mine;
  const text = !mine ? OFFER_WORDS[kind](from) : from === mine ? waitingWords(kind) : FRIEND_OFFER_WORDS[kind](from);
  // The end card, while it is up, holds the friend's rematch offer (its
  // Rematch accepts, Decline declines) and the bar stays down: both said it,
  // to the eye and to a screen reader. Closing the card brings the bar up.
  if (kind === "rematch") drawEndOffer(askingMe ? text : null);
  if (kind === "rematch" && askingMe && endCardUp()) return $bar.prop("hidden", true);
  const fresh = $bar.prop("hidden") || $bar.data("offer") !== kind;
  $bar.prop("hidden", false).data("offer", kind);
  // Written when it changes: the bar is a live region, and each write was
  // heard (keyboard walk: "Draw offered: waiting for your friend" twice).
  if ($("#offer-text").text() !== text || fresh) $("#offer-text").text(text);
  $("#offer-accept, #offer-decline").prop("hidden", !askingMe);
  $("#offer-withdraw").prop("hidden", !mine || from !== mine);
  // An offer to answer comes into sight whole: under the buttons it was half
  // below the window's edge (1366x768, with Swap2's line above the board).
  if (fresh && askingMe) $bar[0].scrollIntoView({ block: "nearest" });
}

/** The friend's rematch offer on the end card (`text`; null: none): its
 *  Rematch accepts, Decline declines. */
function drawEndOffer(text) {
  $("#end-offer").prop("hidden", !text).text(text || "");
  $("#end-decline").prop("hidden", !text);
  // Written only when it changes: a screen reader reads out every write.
  const label = text ? gettext("Accept rematch") : gettext("Rematch");
  if ($("#rematch").text() !== label) $("#rematch").text(label);
}

// The end card came or went (closed, or another game): the friend's
// rematch offer and Rematch under the board are on it while it is up, and
// back in the bar and under the board once it went.
["show.bs.toast", "hidden.bs.toast"].forEach(function (name) {
  document.addEventListener(name, function (event) {
    if (event.target.id === "end-dialog" && state.game) drawSeats();
  });
});

let goneTimer = null;
/** A friend away for less is not said to have left: they are reloading, or
 *  joining (their seat is taken a moment before their socket comes). */
const NOTICE_AFTER = 2;

/** Seconds the friend has been gone, or null while they are here (or a
 *  game cannot be claimed from them: their seat open, a correspondence
 *  game, a game over); to a watcher of two seats, either player's. */
function goneFor(side) {
  const g = state.game;
  const who = state.presence;
  if (!g.seats || !who || state.liveLost || g.status !== "playing" || (g.clock && g.clock.control.days)) return null;
  const gone = who.gone[side];
  if (!who.taken[side] || who[side] || gone === undefined) return null;
  return gone + (performance.now() - who.at) / 1000;
}

/** The side whose player the gone bar is about: this player's friend, or
 *  for a watcher the first player gone (spectators QA: only a hollow dot
 *  told them); null if none. */
function goneSide() {
  const mine = mySeat();
  if (mine) return otherSide(mine);
  return onlyWatching() ? SIDES.find((side) => goneFor(side) !== null) || null : null;
}

/** The friend left: wait, or once they have been gone long enough claim
 *  the win or a draw (the bar counts down to it); before each player's
 *  first move, abort (the server's rule, as lichess's: the claim's
 *  countdown ran past the first move's deadline, at which the game is
 *  aborted). */
function drawGone() {
  const side = goneSide();
  const since = side && goneFor(side);
  clearTimeout(goneTimer);
  const shown = since !== null && since >= NOTICE_AFTER;
  $("#gone-bar").prop("hidden", !shown);
  if (!shown) goneSaid = null;
  if (since === null) return;
  if (since < NOTICE_AFTER) {
    goneTimer = setTimeout(() => state.game && drawGone(), (NOTICE_AFTER - since) * 1000);
    return;
  }
  if (!mySeat()) {
    // A watcher: who is gone, and nothing to claim. Not "left the game":
    // a phone in a tunnel has not left it (network QA).
    sayGone(interpolate(gettext("%(side)s is not connected."), { side: sideName(side) }, true), "watching");
    $("#gone-claims").prop("hidden", true);
    return;
  }
  if (beforeFirstMoves(state.game)) {
    sayGone(gettext("Your friend is not connected, and you have not both moved yet: you can abort the game, or wait for them."), "before");
    $("#gone-claims").prop("hidden", true);
    return;
  }
  // A game without a clock waits longer (the server's presence.gone_after).
  const after = state.game.clock ? state.presence.goneAfter : state.presence.goneAfterUntimed;
  const wait = Math.max(0, Math.ceil(after - since));
  const text = wait
    ? interpolate(ngettext("Your friend is not connected. You can claim victory in %(n)s second.", "Your friend is not connected. You can claim victory in %(n)s seconds.", wait), { n: wait }, true)
    : gettext("Your friend is not connected. You can claim victory, call it a draw, or wait.");
  sayGone(text, wait ? "waiting" : "claims");
  const claims = $("#gone-claims");
  const come = claims.prop("hidden") && wait === 0;
  claims.prop("hidden", wait > 0);
  // In sight as they come (friends QA: at 1280x800 below the window's edge).
  if (come) document.getElementById("gone-bar").scrollIntoView({ block: "nearest" });
  if (wait > 0) goneTimer = setTimeout(() => state.game && drawGone(), 1000);
}

/** What the gone bar last said aloud: "before", "waiting" or "claims". */
let goneSaid = null;

/** Show `text` on the gone bar; a screen reader hears it as `phase` begins,
 *  not at each second of the countdown (keyboard QA: the bar's live region
 *  was rewritten each second for half a minute). */
function sayGone(text, phase) {
  $("#gone-text").text(text);
  if (phase === goneSaid) return;
  goneSaid = phase;
  $("#gone-said").text(text);
}

/** What Rematch starts: under Swap2 the parts change hands, not the colours
 *  the choice gave (Gomoku QA). */
function rematchWords(g) {
  return g.opening ? gettext("A new game where the second player opens") : gettext("A new game with the colours swapped");
}

/** Whether `side` has played a move of its own, one a takeback can take
 *  back (not a Swap2 opening's stones). */
function hasOwnMove(g, side) {
  const after = g.moves.length - openingStones(g);
  return after >= 2 || (after === 1 && g.to_move !== side);
}

/** Whether `g` is a person's game against the computer on a clock, where
 *  nothing pauses. */
function computerOnClock(g) {
  return !g.seats && Boolean(g.clock) && humanSide() !== null;
}

/** Whether the person playing the computer in `g`, a game on a clock
 *  going on, resigns by its Resign. */
export function resignsAgainstComputer(g) {
  return computerOnClock(g) && g.status === "playing";
}

/** How long Resign stays disabled after its first click (friends.resign). */
export const RESIGN_PAUSE = 500;

/** Whether Resign's first click is too recent for a second to confirm it. */
export function resignPausing() {
  return Date.now() - state.resignAsked < RESIGN_PAUSE;
}

/** What `side` waits now before asking `offer` again (the server's
 *  `waits`, as on lichess): moves for a draw, seconds for a takeback or a
 *  rematch (counted down since the snapshot came); 0: none. */
export function waitToAsk(g, offer, side) {
  const wait = ((g.waits || {})[offer] || {})[side];
  if (!wait) return 0;
  if (offer === "draw") return wait.moves;
  return Math.max(0, Math.ceil(wait.seconds - (performance.now() - state.receivedAt) / 1000));
}

/** Why this player's button for `offer` waits `n` (moves, seconds). */
function waitWords(offer, n) {
  if (offer === "draw") return interpolate(ngettext("You may offer a draw again in %(n)s move (yours or your friend's)", "You may offer a draw again in %(n)s moves (yours and your friend's)", n), { n: n }, true);
  if (offer === "takeback") return interpolate(ngettext("You may ask again in %(n)s second", "You may ask again in %(n)s seconds", n), { n: n }, true);
  return interpolate(ngettext("You may offer a rematch again in %(n)s second", "You may offer a rematch again in %(n)s seconds", n), { n: n }, true);
}

/** Why this player's button for `offer` is greyed while an offer waits
 *  for its answer (theirs, or their friend's), as its bar says; or null. */
function pendingWords(g, offer, mine) {
  const by = g.offers && g.offers[offer];
  if (!by) return null;
  return by === mine ? WAITING_WORDS[offer]() : FRIEND_OFFER_WORDS[offer](by);
}

/** Counts a wait down on its button's title (null: no wait running). */
let waitTimer = null;

/** Grey this player's button for `offer` (`selector`) while it waits,
 *  saying for how long; true if it waits. */
function drawWait(selector, offer, mine) {
  const n = mine ? waitToAsk(state.game, offer, mine) : 0;
  if (n) grey($(selector), true).attr("title", pendingWords(state.game, offer, mine) || waitWords(offer, n));
  if (n && offer !== "draw" && !waitTimer) waitTimer = setTimeout(() => state.game && drawButtons(), 1000);
  return n > 0;
}

function drawButtons() {
  clearTimeout(waitTimer);
  waitTimer = null;
  const g = state.game;
  const mine = mySeat();
  const watching = onlyWatching();
  const seated = Boolean(g.seats);
  const playing = g.status === "playing";
  const alone = Boolean(mine && !g.seats[otherSide(mine)]);
  $("#undo, #hint").prop("hidden", seated || watching);
  // After the game, as on the end card once it is closed (Analyse, or the
  // page reloaded), for whoever played it, the computer too; the friend's
  // offer is answered in its bar.
  const friendOffers = Boolean(mine && g.offers && g.offers.rematch === otherSide(mine));
  const rematchUnder = !watching && g.status === "finished" && !g.rematch && !alone && !friendOffers && !endCardUp();
  // Its rematch started already (the page opened the finished game later,
  // a watcher too): the way to it (spectators QA: only the result showed).
  const rematchStarted = g.status === "finished" && Boolean(g.rematch);
  // Pause is for a game the computer plays in: at one screen it only takes
  // room; after the game Rematch takes its place (nothing to pause then, and
  // a seventh button squeezed New game onto two lines of a phone's row).
  // Against the computer on a clock, as on lichess, Resign, where Pause
  // (greyed with a clock) stood (blitz QA: only New game gave up, and the
  // game left ran on unseen until its flag fell).
  // Nor Pause after the end (verification QA: it came back, greyed).
  const resignsAlone = resignsAgainstComputer(g);
  $("#pause").prop("hidden", seated || watching || rematchUnder || computerOnClock(g) || !SIDES.some((side) => g.players[side].kind === "ai"));
  $("#resign, #offer-draw, #ask-takeback").prop("hidden", !(mine && playing));
  if (resignsAlone) $("#resign").prop("hidden", false);
  // Before each player has moved, as on lichess: Abort (no result), not Resign.
  const abortable = Boolean(mine && playing && beforeFirstMoves(g));
  $("#abort").prop("hidden", !abortable);
  if (abortable) $("#resign").prop("hidden", true);
  // Nobody to answer an offer, nor to win by a resignation, before the
  // friend opens the invitation (the server refuses them too).
  $("#resign, #offer-draw, #ask-takeback").attr("title", alone ? gettext("Your friend has not joined yet") : null);
  // Before the friend came, Abort withdraws the invitation (lichess's cancel).
  $("#abort").attr("title", alone ? gettext("Withdraw the invitation: the game ends without a result") : gettext("End the game without a result (until each player has moved)"));
  // Nor, as on lichess, a draw or a takeback before each has moved (Abort then).
  if (abortable && !alone) {
    $("#offer-draw").attr("title", gettext("A draw waits until each player has made a first move"));
    $("#ask-takeback").attr("title", gettext("A takeback waits until each player has made a first move"));
  }
  grey($("#resign"), alone || resignPausing());
  $("#abort").prop("disabled", false);
  // Beside the friend's Fischer clock, as on lichess: give them time.
  // Not before each has moved: a first move's own countdown decides then;
  // nor before the friend came (a game shared after its first moves).
  const canGive = Boolean(mine && playing && !alone && !abortable && g.clock && !g.clock.control.days);
  SIDES.forEach((side) => $("#give-time-" + side).prop("hidden", !canGive || side === mine));
  grey($("#offer-draw"), alone || abortable || Boolean(g.offers && g.offers.draw));
  grey($("#ask-takeback"), alone || abortable || Boolean(g.offers && g.offers.takeback) || !hasOwnMove(g, mine));
  // A greyed button, tapped, says why (events.js): an offer already made.
  if (mine && !alone && !abortable) {
    $("#offer-draw").attr("title", pendingWords(g, "draw", mine));
    // Swap2's stones said as Undo says them (QA: "None of your moves" to a
    // second player who had just placed two).
    const noneYet = openingStonesKept(g) || gettext("None of your moves can be taken back yet");
    $("#ask-takeback").attr("title", pendingWords(g, "takeback", mine) || (hasOwnMove(g, mine) ? null : noneYet));
  }
  // Greyed, it keeps the keyboard's focus (keyboard walk: Enter on it sent
  // the focus to "The starting position").
  grey($("#board-rematch").prop("hidden", !rematchUnder && !rematchStarted), !rematchStarted && Boolean(g.offers && g.offers.rematch === mine))
    .text(rematchStarted ? gettext("Go to the rematch") : gettext("Rematch"))
    .attr("title", rematchStarted ? null : mine ? pendingWords(g, "rematch", mine) : rematchWords(g));
  $("#rematch").prop("disabled", false).attr("title", rematchWords(g));
  // As on lichess, nobody pesters a friend: a draw offered again 20 moves
  // on, a declined takeback or rematch asked again after a wait.
  if (playing && !alone && !abortable) {
    drawWait("#offer-draw", "draw", mine);
    drawWait("#ask-takeback", "takeback", mine);
  }
  if (!friendOffers && !rematchStarted && drawWait("#board-rematch", "rematch", mine)) drawWait("#rematch", "rematch", mine);
  $("#share").text(seated || watching ? gettext("Links") : gettext("Share"));
  $("#players").prop("hidden", seated || watching);
  // No help from the computer while two people play (the server refuses it).
  $("#review, #explorer").prop("hidden", seated && playing);
  $("#board").toggleClass("watching", watching);
}

/** The game whose playing page has had watchers: its seats row, where the
 *  count is, stays from the first watcher on (coming and going, it would
 *  move the board each time). */
let watchedGame = null;

/** Words for this browser's player when a first move's countdown began in
 *  `g` (since `before`, null for a game just opened): theirs, or their
 *  friend's; null otherwise, to a watcher, and when the friend just joined
 *  (friendJoined says it with its news). The clock counting it down is
 *  the only other sign, and a phone shows no tooltip (QA). */
export function firstMoveNews(before, g) {
  const mine = mySeat();
  if (!mine || !firstMoveCounted(g)) return null;
  if (firstMoveCounted(before) && before.to_move === g.to_move) return null; // said already
  const friend = otherSide(mine);
  if (before && before.seats && !before.seats[friend] && g.seats[friend]) return null;
  // What the clock shows now, and that the player's own time is not gone
  // (network walk: 0:22 where 3:00 had been read as the time cut).
  // Under Swap2 a first turn has steps (stones, a choice), each timed
  // (Gomoku QA: "first move" read as the first stone alone).
  if (opensSwap2(g, mine) !== null) {
    return g.to_move === mine
      ? gettext("Your clock now counts down the time for each step of your first turn: if it runs out, the game is aborted. Your own time starts after that turn.")
      : gettext("Your friend's clock now counts down the time for each step of their first turn: if it runs out, the game is aborted.");
  }
  return g.to_move === mine
    ? gettext("Your clock now counts down the time for your first move: if it runs out, the game is aborted. Your own time starts after that move.")
    : gettext("Your friend's clock now counts down the time for their first move: if it runs out, the game is aborted.");
}

/** Words for the time a restart of the server gave the clocks of `g` since
 *  snapshot `before` (clocks that grew by themselves looked wrong), or null. */
export function restartNews(before, g) {
  const restarts = (game) => (game.clock && game.clock.restarts) || 0;
  return restarts(g) > restarts(before) ? gettext("The server was interrupted: the clocks were given time to make up for it") : null;
}

/** Draw everything about seats, clocks and offers for the game on show. */
export function drawSeats() {
  const g = state.game;
  // The person playing a game that others watch sees how many: the row with
  // the count showed only with seats, a clock or to the watchers.
  if (state.presence && state.presence.watchers) watchedGame = g.id;
  $("#seats-row").prop("hidden", !(g.seats || g.clock || state.watching || watchedGame === g.id));
  drawPresence();
  drawClocks();
  drawOffers();
  drawGone();
  drawButtons();
}

/** Why the clocks of `g` stand still at its start, or null: as in any game
 *  no clock runs before each side's first move, and in a Swap2 opening
 *  before each player's first turn (the opener's stones, the first choice). */
function stillClock(g) {
  if (!beforeFirstMoves(g)) return null;
  if (g.opening) return gettext("The clocks start after each player's first turn");
  return gettext("The clocks start after each side's first move");
}

/** Whether `g` is before each player's first move (or Swap2 turn), when no
 *  clock runs and a game between two seats may still be aborted (the
 *  server's rule: openings.clock_runs). */
function beforeFirstMoves(g) {
  if (g.opening) return ["place3", "choose"].includes(g.opening.step);
  return g.ply < 2;
}

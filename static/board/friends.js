/*
 * Playing a friend: a new game with a friend (the first-minute dialog), a
 * game on the board shared (Share), the invitation taken from the link,
 * resigning, and the offers one player answers for the other. The seat this
 * browser takes is remembered in local storage (history.js) and its token
 * goes with every request about that game (api.js).
 */
import * as api from "./api.js";
import { grey } from "./buttons.js";
import { newGameBody } from "./controls.js";
import { hideEnd } from "./ending.js";
import { askNewGame, changeGame, setGame, stopThinking, whenGameDrawn, whenSeatedGameChanges } from "./game.js";
import { awaitRematch, forgetInvite, gameLinks, markDrawOffer, rememberRematch, rememberSeat, seatFor } from "./history.js";
import { sayHello } from "./live.js";
import { openingStep, opensSwap2 } from "./opening.js";
import { announce, clearFlash, copyField, flash, labelButton, labelResign, sayStatus } from "./panel.js";
import { RESIGN_PAUSE, firstMoveNews, resignPausing, resignsAgainstComputer, waitToAsk } from "./seated.js";
import { play } from "./sound.js";
import { SIDES, joinWords, moveText, mySeat, otherSide, sideName, state } from "./state.js";

function modal(id) {
  return bootstrap.Modal.getOrCreateInstance(document.getElementById(id));
}

/** A clock's control as the time-control selectors write it ("5+3", "d3"),
 *  the reverse of clockOf; "" for none. */
export function clockValue(control) {
  if (!control) return "";
  if (control.days) return "d" + control.days;
  return control.initial / 60 + "+" + control.increment;
}

/** The time control of a selector's value: "5+3" (minutes + seconds),
 *  "d3" (days a move) or "" (none). */
export function clockOf(value) {
  if (!value) return null;
  if (value.charAt(0) === "d") return { days: parseInt(value.slice(1), 10) };
  const parts = value.split("+");
  return { initial: 60 * parseInt(parts[0], 10), increment: parseInt(parts[1], 10) };
}

/** Take the answer of a request that seated this browser: keep the seat,
 *  show the game. */
function seated(g) {
  const swapped = Boolean(g.opening && g.opening.swapped);
  rememberSeat(g.id, { side: g.seat.side, token: g.seat.token, invite: g.invite, swapped: swapped });
  state.seat = seatFor(g.id);
  state.watching = false;
  setGame(g);
  sayHello();
}

/** A new game with a friend: `side` (black, white, random) and `clock`
 *  (the API's time control, or null); `base` the game and options (default:
 *  the controls'). The links dialog opens. */
export function createFriendGame(side, clock, base) {
  base = base || newGameBody();
  stopThinking();
  return askNewGame(api.createGame({ game: base.game, options: base.options, opening: base.opening, friend: { side: side }, clock: clock }))
    .done(function (g) {
      seated(g);
      announce(seatWords(g, g.seat.side, SEAT_WORDS.created));
      showLinks();
    })
    .fail((xhr) => flash(api.errorText(xhr)));
}

/** Share: the links of a game with seats, else the form that makes one,
 *  and the watch link (the computer playing itself is worth watching); of
 *  a finished game, its watch link (Chinese QA: the form's invitation was
 *  refused behind the dialog, the game being over). */
export function openShare() {
  const g = state.game;
  if (!g) return;
  if (g.seats || state.watching || g.status !== "playing") return showLinks();
  // In a Swap2 opening the colour picked is the opener's side, as in the
  // New game dialog (Gomoku QA: Black and White were offered).
  const swap2 = Boolean(openingStep());
  $("#share-dialog .if-swap2").prop("hidden", !swap2);
  $("#share-dialog .unless-swap2").prop("hidden", swap2);
  $("#share-form").prop("hidden", false);
  $("#share-links").prop("hidden", true);
  $("#watch-link").val(gameLinks(state.game.id, null).watch);
  watchLabel(g);
  // The game's own clock first, if offered (QA: a 3+2 game offered 5+3).
  const own = controlValue(g.clock);
  if (own && $("#share-clock option").filter((i, option) => option.value === own).length) $("#share-clock").val(own);
  $("#share-title").text(gettext("Share this game"));
  modal("share-dialog").show();
}

/** The value of `clock`'s control as the time controls write it ("3+2",
 *  "d3"), or null for none: clockOf's inverse. */
function controlValue(clock) {
  if (!clock) return null;
  const control = clock.control;
  return control.days ? "d" + control.days : control.initial / 60 + "+" + control.increment;
}

/** What the watch link gives: a game on, to watch; a game over, to look at
 *  (QA: "can watch" a game that was over). */
function watchLabel(g) {
  $("#watch-link-label").text(g.status === "playing" ? gettext("Anyone with this link can watch") : gettext("Anyone with this link can see this game, move by move"));
}

/** The form's choice: this game becomes a game with a friend. */
export function shareGame() {
  const g = state.game;
  const body = { side: $("input[name=share-side]:checked").val(), clock: clockOf($("#share-clock").val()) };
  stopThinking();
  api
    .shareGame(g.id, body)
    .done(function (shared) {
      seated(shared);
      showLinks();
    })
    .fail((xhr) => flash(api.errorText(xhr)));
}

/** The links dialog: the invitation while the friend's seat is open (only
 *  the browser that made it holds it) and the game goes on (not once Abort
 *  withdrew it), and the watch link. */
function showLinks() {
  const g = state.game;
  const seat = state.seat && state.seat.id === g.id ? state.seat : null;
  const open = g.status === "playing" && g.seats && !(g.seats.black && g.seats.white);
  const links = gameLinks(g.id, seat && open ? seat.invite : null);
  $("#share-form").prop("hidden", true);
  $("#share-links").prop("hidden", false);
  $("#invite-part").prop("hidden", !links.invite);
  $("#invite-link").val(links.invite || "");
  // A friend's phone would open its own localhost (README: a friend on your network).
  const local = /^(localhost|127(\.\d+){3}|\[::1\])$/.test(location.hostname);
  $("#invite-local")
    .text(interpolate(gettext("This link names this computer as %(host)s: it opens on this computer only. For a friend's phone or computer, open this page at this computer's network address first."), { host: location.hostname }, true))
    .prop("hidden", !local);
  drawQr(links.invite);
  $("#watch-link").val(links.watch);
  watchLabel(g);
  $("#share-title").text(links.invite ? gettext("Invite a friend") : g.status === "playing" ? gettext("Watch link") : gettext("Link to this game"));
  modal("share-dialog").show();
  // The form's button, pressed, hid: the keyboard goes on at the first link.
  if (document.activeElement.closest("#share-dialog [hidden]")) $(links.invite ? "#invite-link" : "#watch-link").trigger("focus");
}

/** The QR code of the invitation `link` (none: hidden), drawn as one path
 *  with four light modules around it. Its place shows at once, so that the
 *  watch link under it does not move as the code comes. */
function drawQr(link) {
  const $figure = $("#invite-qr").prop("hidden", !link);
  const svg = $figure.find("svg").empty()[0];
  if (!link) return;
  api
    .qrCode(link)
    .done(function (code) {
      if ($("#invite-link").val() !== link) return; // the dialog moved on
      const size = code.rows.length + 8;
      let d = "";
      code.rows.forEach((row, y) => [...row].forEach((dark, x) => dark === "1" && (d += `M${x + 4} ${y + 4}h1v1h-1z`)));
      svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
      svg.setAttribute("shape-rendering", "crispEdges");
      const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
      path.setAttribute("d", d);
      svg.appendChild(path);
    })
    .fail(() => $figure.prop("hidden", true));
}

/** The friend took the other seat: the invitation has done its work, so
 *  its dialog closes (the watch link stays under Links) and the player
 *  hears it. */
function friendJoined(g) {
  if ($("#share-dialog").hasClass("show") && !$("#invite-part").prop("hidden")) modal("share-dialog").hide();
  const words = seatWords(g, otherSide(mySeat() || "black"), SEAT_WORDS.friend);
  // With the first move's countdown that their coming began, if timed.
  const due = firstMoveNews(null, g);
  if (due) flash(interpolate(gettext("%(joined)s. %(due)s"), { joined: words, due: due }, true), "position");
  else flash(words, "info"); // a live region: heard too
  play("joined"); // the invitation may have waited in another tab
}

/** The rematch started (the finished game `g` names it): go to it, this
 *  browser's seat at the other colour with the same token; a watcher
 *  watches it. */
export function followRematch(g) {
  const seat = state.seat && state.seat.id === g.id ? state.seat : null;
  if (seat) rememberRematch(g, seat);
  hideEnd();
  api
    .getGame(g.rematch)
    .done(function (next) {
      setGame(next);
      flash(rematchWords(g, next), "info"); // a live region: heard too
    })
    .fail((xhr) => flash(api.errorText(xhr)));
}

/** What the rematch `next` of `g` is to this page: the colour its player
 *  has now (a seat's, or the one side a person plays against the computer);
 *  to the watchers of two seats, that the players swapped; else only that
 *  it started ("the colours are swapped" said nothing to the computer
 *  playing itself, and a player against it was not told their colour). */
function rematchWords(g, next) {
  const people = SIDES.filter((side) => next.players[side].kind === "human");
  const mine = mySeat() || (!state.watching && people.length === 1 ? people[0] : null);
  if (mine) return seatWords(next, mine, SEAT_WORDS.rematch);
  // Under Swap2 the seats swap their parts: no colour is anyone's yet.
  if (g.seats && opensSwap2(next, "black") !== null) return gettext("The rematch has started: the players swapped their parts");
  if (g.seats) return gettext("The rematch has started: the colours are swapped");
  return gettext("The rematch has started");
}

/** What is said of a seat's player (its side, or under a Swap2 opening not
 *  chosen yet its part: Gomoku QA, "they play White" before anyone chose). */
const SEAT_WORDS = {
  created: {
    black: () => gettext("New game with a friend: you play Black"),
    white: () => gettext("New game with a friend: you play White"),
    opener: () => gettext("New game with a friend: you are the opener"),
    second: () => gettext("New game with a friend: you are the second player"),
  },
  joined: {
    black: () => gettext("You joined the game: you play Black"),
    white: () => gettext("You joined the game: you play White"),
    opener: () => gettext("You joined the game: you are the opener"),
    second: () => gettext("You joined the game: you are the second player"),
  },
  friend: {
    black: () => gettext("Your friend joined: they play Black"),
    white: () => gettext("Your friend joined: they play White"),
    opener: () => gettext("Your friend joined: they are the opener"),
    second: () => gettext("Your friend joined: they are the second player"),
  },
  rematch: {
    black: () => gettext("The rematch has started: you play Black"),
    white: () => gettext("The rematch has started: you play White"),
    opener: () => gettext("The rematch has started: you are the opener"),
    second: () => gettext("The rematch has started: you are the second player"),
  },
};

/** The words of `said` (one of SEAT_WORDS) for `side`'s player in `g`. */
function seatWords(g, side, said) {
  const opens = opensSwap2(g, side);
  return said[opens === null ? side : opens ? "opener" : "second"]();
}

/** True if `g` has both seats taken where `before` had one open. */
function seatTaken(before, g) {
  const full = (game) => Boolean(game.seats && game.seats.black && game.seats.white);
  return Boolean(before.seats) && !full(before) && full(g);
}

const DECLINED = {
  // Moves of either player (friends QA: "21 moves" read as one's own).
  draw: (n) => interpolate(ngettext("Your friend declined the draw: you may offer one again in %(n)s move (yours or your friend's)", "Your friend declined the draw: you may offer one again in %(n)s moves (yours and your friend's)", n), { n: n }, true),
  takeback: (n) => interpolate(ngettext("Your friend declined the takeback: you may ask again in %(n)s second", "Your friend declined the takeback: you may ask again in %(n)s seconds", n), { n: n }, true),
  rematch: (n) => interpolate(ngettext("Your friend declined the rematch: you may offer it again in %(n)s second", "Your friend declined the rematch: you may offer it again in %(n)s seconds", n), { n: n }, true),
};

/** The offer this page withdrew, until it is gone: no friend declined it
 *  (friends QA: a withdrawn offer was said to be declined). */
let withdrawn = null;

/** This player's offer that is gone while nothing else changed: declined,
 *  unless this page withdrew it. */
function declinedOffer(before, g) {
  const mine = mySeat();
  const same = g.ply === before.ply && g.status === before.status;
  const gone = (kind) => mine && (before.offers || {})[kind] === mine && !(g.offers || {})[kind];
  const declined = Object.keys(DECLINED).find((kind) => same && gone(kind) && kind !== withdrawn);
  if (withdrawn && gone(withdrawn)) withdrawn = null;
  return declined;
}

/** Whether the friend makes an offer they did not make before. */
function friendOffers(before, g) {
  const mine = mySeat();
  const friends = (game) => mine && Object.keys(DECLINED).filter((kind) => (game.offers || {})[kind] === otherSide(mine));
  return Boolean(mine) && friends(g).some((kind) => !friends(before).includes(kind));
}

/** Time one side just gave the other, in words to this page: to the player
 *  given it, and to a watcher, whose clock jumped; null to the giver (their
 *  page said it as they gave), or if none was given (a Swap2 swap moves each
 *  side's count to the other colour: no gift). */
function timeGivenWords(before, g) {
  const given = (game, side) => (game.clock && game.clock.given[side]) || 0;
  const swapped = (game) => Boolean(game.opening && game.opening.swapped);
  const side = swapped(before) === swapped(g) && SIDES.find((s) => given(g, s) > given(before, s));
  const mine = mySeat();
  if (!side || (mine && mine !== side)) return null;
  const n = given(g, side) - given(before, side);
  if (mine) return interpolate(ngettext("Your friend gave you %(n)s second", "Your friend gave you %(n)s seconds", n), { n: n }, true);
  const words = ngettext("%(giver)s gave %(side)s %(n)s second", "%(giver)s gave %(side)s %(n)s seconds", n);
  return interpolate(words, { giver: sideName(otherSide(side)), side: sideName(side), n: n }, true);
}

/** The side whose takeback was just granted (the request gone with the
 *  moves), or null. */
function takebackGranted(before, g) {
  const asker = (before.offers || {}).takeback;
  return asker && !(g.offers || {}).takeback && g.ply < before.ply ? asker : null;
}

/** A new snapshot of the game between two seats on show: tell this player
 *  what the friend did. Answers true if the page went to the rematch. */
function seatedGameChanged(before, g) {
  // The friend's new offer ends what was said of the last one (friends QA:
  // "declined ... again in 60 seconds" stood beside it).
  if (friendOffers(before, g)) clearFlash();
  // Only the inviter holds the invitation: the friend's own join is no news to them.
  if (state.seat && state.seat.invite && seatTaken(before, g)) friendJoined(g);
  // Only while it is on show: a finished game opened later stays on the board.
  if (g.rematch && !before.rematch) {
    followRematch(g);
    return true;
  }
  const declined = declinedOffer(before, g);
  const given = timeGivenWords(before, g);
  const granted = takebackGranted(before, g);
  const answeredByMove = movedOver(before, g);
  const over = !mySeat() && offerOver(before, g);
  if (declined) {
    // With the wait the server set before asking again (as on lichess).
    flash(DECLINED[declined](waitToAsk(g, declined, mySeat())), "info"); // a live region: heard too
  } else if (given) {
    flash(given, "info");
  } else if (granted && granted === mySeat()) {
    // The moves just went: said, as a refusal is, naming them (keyboard
    // walk: neither player heard which).
    flash(interpolate(gettext("Your friend accepted the takeback: %(moves)s taken back"), { moves: takenBack(before, g) }, true), "info");
  } else if (granted && mySeat()) {
    flash(interpolate(gettext("Takeback accepted: %(moves)s taken back"), { moves: takenBack(before, g) }, true), "info");
  } else if (granted && !mySeat()) {
    // To a watcher, whose board lost moves (friends QA: without a word).
    flash(interpolate(gettext("%(giver)s accepted %(asker)s's takeback"), { giver: sideName(otherSide(granted)), asker: sideName(granted) }, true), "info");
  } else if (answeredByMove) {
    flash(MOVED_OVER[answeredByMove](), "info");
  } else if (over) {
    // To a watcher, who saw it made (spectator QA: the bar went without a
    // word); declined or withdrawn, the snapshot does not tell.
    flash(OVER[over](sideName(before.offers[over])), "info");
  }
  return false;
}

/** The game of the last snapshot drawn. */
let drawnId = null;

/** A draw this player offered, which the friend declined while the page was
 *  closed (their move declines it): said as the game opens (correspondence
 *  walk: "Offer a draw" came back greyed, with nothing saying why). */
function drawDeclinedAway() {
  const g = state.game;
  const opened = g.id !== drawnId;
  drawnId = g.id;
  const mine = mySeat();
  if (!g.seats || !mine) return;
  const offered = (g.offers || {}).draw === mine;
  const waited = markDrawOffer(g.id, offered);
  if (!opened || !waited || offered || g.status !== "playing") return;
  const n = waitToAsk(g, "draw", mine);
  flash(interpolate(ngettext("Your friend declined your draw offer while you were away: you may offer one again in %(n)s move (yours or your friend's)", "Your friend declined your draw offer while you were away: you may offer one again in %(n)s moves (yours and your friend's)", n), { n: n }, true), "info");
}

whenGameDrawn(drawDeclinedAway);

/** The moves a takeback took back between snapshots `before` and `g`:
 *  "h9", "h9, j10". */
function takenBack(before, g) {
  return joinWords(before.moves.slice(g.moves.length).map(moveText), true);
}

const OVER = {
  draw: (side) => interpolate(gettext("%(side)s's draw offer is over: the game goes on."), { side: side }, true),
  takeback: (side) => interpolate(gettext("%(side)s's takeback request is over: the game goes on."), { side: side }, true),
};

/** The offer (draw, takeback) gone while nothing else changed, or null. */
function offerOver(before, g) {
  const same = g.ply === before.ply && g.status === before.status;
  return (same && Object.keys(OVER).find((kind) => (before.offers || {})[kind] && !(g.offers || {})[kind])) || null;
}

const MOVED_OVER = {
  draw: () => gettext("Your friend moved instead of answering: the draw is declined."),
  takeback: () => gettext("Your friend moved instead of answering: your takeback request is over."),
};

/** This player's offer that the friend's move answered (a move answers
 *  every offer: services/games.py), or undefined (friends QA: the request
 *  went without a word, as if never made). */
function movedOver(before, g) {
  const mine = mySeat();
  const gone = (kind) => (before.offers || {})[kind] === mine && !(g.offers || {})[kind];
  if (!mine || g.ply <= before.ply || g.status !== "playing") return undefined;
  return Object.keys(MOVED_OVER).find((kind) => gone(kind) && kind !== withdrawn);
}

whenSeatedGameChanges(seatedGameChanged);

/** Copy the link of the input `selector` (selected where copying is not
 *  allowed); `button`, the Copy pressed, says it is done. */
export function copyLink(selector, button) {
  const $button = $(button);
  const labels = [gettext("Copy"), gettext("Copied")];
  // Said on the button that was pressed: under the board, the word was
  // greyed behind the dialog's backdrop.
  const copied = function () {
    labelButton($button, gettext("Copied"), labels);
    announce(gettext("Link copied."));
    setTimeout(() => labelButton($button, gettext("Copy"), labels), 2000);
  };
  copyField($(selector)[0]).then(function (done) {
    if (done) copied();
    else flash(gettext("Link selected: press Ctrl+C to copy."), "info");
  });
}

/** The page was opened by an invitation to game `id`: take the seat (once;
 *  a reload finds it in local storage), else watch; `missing()` if there is
 *  no such game. */
export function joinFromLink(id, invite, missing) {
  forgetInvite();
  const mine = seatFor(id);
  if (mine) {
    return api
      .untilAnswered(() => api.getGame(id), sayStatus)
      .done(function (g) {
        setGame(g);
        // Opened to test it (browser walk: their own seat came without a word).
        const friend = otherSide(mySeat());
        if (mine.invite === invite && !g.seats[friend]) flash(gettext("This is the invitation you made: send it to your friend. Here it opens your own seat."), "info");
      })
      .fail(missing);
  }
  // Sent again while the server is away (the invitation has left the
  // address): its seat is not lost to a restart.
  api
    .untilAnswered(() => api.joinGame(id, invite), sayStatus)
    .done(function (g) {
      seated(g);
      announce(seatWords(g, g.seat.side, SEAT_WORDS.joined));
    })
    .fail(function (xhr) {
      // Both seats taken (the link was used), or a wrong invitation: watch.
      // The friend opening it on a second device learns where the seat is.
      // A game without seats is anyone's with its link: played, not watched
      // (links QA: it said so, then made the page's own game read-only).
      const error = xhr.responseJSON && xhr.responseJSON.error;
      state.watching = error !== "no_seats";
      api
        .untilAnswered(() => api.getGame(id), sayStatus)
        .done(function (g) {
          setGame(g);
          flash(error === "seat_taken" ? seatsTakenWords(g) : api.errorText(xhr), "info");
        })
        .fail(missing);
    });
}

/** Why the page of a used invitation to `g` watches; a game over has no
 *  seat to speak of (verification QA: "Both seats are taken: you are
 *  watching" over a game aborted after the join). */
function seatsTakenWords(g) {
  if (g.status !== "finished") return gettext("Both seats are taken: you are watching. If this game is yours, open it in the browser you joined it from.");
  return g.ply ? gettext("This game is over: you can see it move by move.") : gettext("This game is over.");
}

/** How long Resign's question waits for its answer (ms): after a click 3 s,
 *  as lichess's; after a key longer, as a screen reader reads the question
 *  first (keyboard QA: it went before it was heard, and Enter asked again). */
const RESIGN_ASKS = { click: 3000, key: 10000 };

/** The question's end: its words go back, and say so; and the game it
 *  asks about (a new game's Resign asks anew). */
let resignTimer = null;
let resignFor = null;

/** Resign (`event`: its click, a key's has no detail): a second click
 *  confirms, from half a second after the first (a double tap is not a
 *  decision: the button is disabled until then) until the question goes. */
export function resign(event) {
  const g = state.game;
  if (!g || !(mySeat() || resignsAgainstComputer(g)) || resignPausing()) return;
  if (!resignTimer || resignFor !== g.id) {
    clearTimeout(resignTimer);
    resignFor = g.id;
    state.resignAsked = Date.now();
    labelResign(gettext("Resign?"));
    grey($("#resign"), true);
    announce(gettext("Really resign? Press Resign again to confirm."));
    setTimeout(() => grey($("#resign"), false), RESIGN_PAUSE);
    resignTimer = setTimeout(function () {
      resignTimer = null;
      labelResign(gettext("Resign"));
      if ($("#resign").is(":visible")) announce(gettext("Resignation cancelled"));
    }, event && event.detail === 0 ? RESIGN_ASKS.key : RESIGN_ASKS.click);
    return;
  }
  clearTimeout(resignTimer);
  resignTimer = null;
  state.resignAsked = 0;
  labelResign(gettext("Resign"));
  changeGame(api.resign(g.id));
}

/** Abort the game, before each player has moved: it ends without a result. */
export function abort() {
  const g = state.game;
  if (g && mySeat()) changeGame(api.abort(g.id));
}

/** Offer a draw, ask for a takeback, or once the game is over offer a
 *  rematch (`offer`: draw, takeback, rematch); offering what the friend
 *  offers accepts it. */
export function makeOffer(offer) {
  const g = state.game;
  if (!g || !mySeat()) return;
  if (withdrawn === offer) withdrawn = null; // a new one, which may be declined
  if (offer === "rematch") awaitRematch(g.id, true);
  // Its bar says it is made, and waits (keyboard walk: "Draw offered" was
  // said after it too).
  changeGame(api.answerOffer(g.id, offer, "offer"));
}

/** Claim the win or a draw (`result`) of the game the friend left. */
export function claim(result) {
  const g = state.game;
  if (!g || !mySeat()) return;
  changeGame(api.claim(g.id, result));
}

/** Give the friend time on their clock, as on lichess. */
export function giveTime() {
  const g = state.game;
  if (!g || !mySeat()) return;
  const n = Number($(".give-time").first().data("seconds"));
  const words = interpolate(ngettext("You gave your friend %(n)s second", "You gave your friend %(n)s seconds", n), { n: n }, true);
  // Shown, not only heard (friends QA: the giver's page said nothing).
  changeGame(api.giveTime(g.id), () => flash(words, "info"));
}

/** Accept or decline the friend's `offer`, or withdraw one's own
 *  (`action`), by default the one the offer bar shows. */
export function answerOffer(action, offer = $("#offer-bar").data("offer")) {
  const g = state.game;
  if (!g || !offer) return;
  if (action === "withdraw") withdrawn = offer;
  changeGame(api.answerOffer(g.id, offer, action));
}

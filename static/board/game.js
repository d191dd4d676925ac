/*
 * The game as this page holds it: take in the server's snapshots (setGame),
 * and run the AI's turns. After each snapshot the page asks the AI to move if
 * the side to move is an AI; a search can be abandoned (the game changed under
 * it) and player settings changed during a search wait for its end.
 */
import * as api from "./api.js";
import { syncControls } from "./controls.js";
import { endMissed, loadBoards, pausedBefore, rememberGame, rememberSearch, savedReview, searchInFlight, seatFor } from "./history.js";
import { follow, reconnect, tellPause } from "./live.js";
import { modelReady, prepareModel } from "./models.js";
import { openingNews } from "./opening.js";
import { expectEnd } from "./ending.js";
import { aiReady, whenAiReady } from "./readiness.js";
import { announce, clearFlash, clearPositionFlash, clearRecordNote, flash, releaseRows, sayStatus, startProgress, stopProgress, withdrawFlash } from "./panel.js";
import { render } from "./render.js";
import { keepReviewOf } from "./review.js";
import { firstMoveCounted, firstMoveNews, restartNews, whenFlagDue, whenLowTime } from "./seated.js";
import { hintFirstLoa, overlineNews } from "./rules.js";
import { play } from "./sound.js";
import { SIDES, discCounts, endSentence, expectedSeconds, movesKey, onlyWatching, personPlaysHere, sideName, spokenMove, state, unendSentence } from "./state.js";

let slotTimer = null;
let recordXhr = null;
/** The game and version ("id/version") whose record the box shows. */
let recordShown = null;
/** That record: {id, text}, for the box once the player leaves it. */
let latestRecord = null;
/** Milliseconds the server takes to stop a search abandoned by a change of
 *  the game and free its slot (it looks every 50 ms). */
const ABANDONED_SEARCH_MS = 400;
/** Conflicts (409) in a row when asking the AI to move: the retries back off. */
let conflicts = 0;
/** The page is being left (reload, another address): the browser cancels its
 *  requests, which must not count as failures nor forget the search. */
let leaving = false;
window.addEventListener("beforeunload", () => (leaving = true));
window.addEventListener("pagehide", () => (leaving = true));
/** The end card's opener (events.js registers it; game.js only says when). */
let onGameEnd = null;

/** Register what to do when a game ends while this page watches it. */
export function whenGameEnds(handler) {
  onGameEnd = handler;
}

/** What to tell the players of a game between two seats when its snapshot
 *  changes on show (friends.js registers it): a join, an answered offer,
 *  the rematch (which any game's watchers follow too). */
let onSeatedChange = null;

/** Register `handler(before, g)`, called with each new snapshot of a game
 *  between two seats or that names its rematch; it answers true if the
 *  page went to another game. */
export function whenSeatedGameChanges(handler) {
  onSeatedChange = handler;
}

/** What else follows each snapshot shown (chat.js, actions.js register). */
const onDrawn = [];

/** Register `handler()`, called once each snapshot shown is drawn. */
export function whenGameDrawn(handler) {
  onDrawn.push(handler);
}

whenFlagDue(() => state.game && reload());
whenLowTime(announce);

/** Snapshots `a` and `b` show the same game in play at the same position,
 *  the same side to move and the same opening's turn: a piece picked or a
 *  tap waiting for its confirming tap outlives the change between them (the
 *  friend joined, an offer, a watcher), else the confirming tap would only
 *  mark the move again. */
function samePosition(a, b) {
  return (
    Boolean(a) &&
    a.id === b.id &&
    b.status === "playing" &&
    a.ply === b.ply &&
    a.to_move === b.to_move &&
    movesKey(a.moves, a.ply) === movesKey(b.moves, b.ply) &&
    JSON.stringify(a.opening || null) === JSON.stringify(b.opening || null)
  );
}

/** Draw the server's snapshot `g`, remember it, and let the AI move if it is its turn. */
export function setGame(g) {
  const before = state.game;
  const sameGame = before && before.id === g.id;
  // Another page's search, or one a reload waits for (awaitSearch): its
  // move is in, by the socket as often as by the poll (QA: "Your move" was
  // refused with "Wait: the AI is thinking" until the next poll).
  const awaited = state.thinking && state.thinking.resumed && sameGame && g.version !== before.version;
  if (state.thinking && (state.thinking.remote || awaited)) {
    state.thinking = null;
    stopProgress();
    if (awaited) rememberSearch(null);
  }
  // This page's search: its move came by the socket before the request's
  // answer, which brings what the computer thought; the player may move
  // meanwhile (QA, a slow network: "Wait: the AI is thinking" under "Your
  // move", and the tap lost).
  const mine = state.thinking;
  if (mine && !mine.hint && sameGame && g.ply > before.ply && before.to_move === mine.side) {
    mine.moved = true;
    stopProgress();
  }
  if (!sameGame) {
    clearRecordNote(); // a refused import's words are not this game's
    state.queuedTaps = [];
    state.seat = seatFor(g.id);
    state.presence = null;
    loadBoards(g.id);
    state.viewPly = null;
    state.analysis = null;
    state.explore = null;
    state.paused = pausedBefore(g.id);
    $("#flash").text(""); // a message about the game before
    const review = state.review;
    if (review && review.running) {
      // The analysis of the game before stops asking (its chart is kept for it).
      review.running = false;
      if (review.xhr) review.xhr.abort();
    }
    // This game's analysis, kept from a page before (a reload).
    const kept = !(review && review.id === g.id) && savedReview(g.id);
    if (kept) state.review = kept;
  }
  state.game = g;
  state.receivedAt = performance.now();
  keepReviewOf(g); // moves taken back (here or elsewhere since): its analysis too
  if (!samePosition(before, g)) {
    state.selected = null;
    state.pending = null;
  }
  if (state.viewPly !== null && state.viewPly >= g.ply) state.viewPly = null;
  rememberGame(g);
  syncControls(g);
  const justEnded = sameGame && before.status === "playing" && g.status === "finished";
  if (justEnded && !personPlaysHere()) releaseRows();
  // The end card shows to a player who sees the game end, here or on coming
  // back to it (QA: a friend's resignation while the page was closed was
  // told only by the status line); not to a watcher.
  const endNews = !onlyWatching() && endMissed(g);
  // Its card comes with its ending (fetchEnding): the drawings meanwhile know.
  if ((justEnded || endNews) && state.endShownFor !== g.id) expectEnd(g.id);
  render();
  onDrawn.forEach((handler) => handler());
  if (sameGame && (g.seats || g.rematch) && onSeatedChange && onSeatedChange(before, g)) return;
  const swapped = (game) => Boolean(game.opening && game.opening.swapped);
  if (sameGame && state.seat && swapped(g) !== swapped(before)) reconnect();
  if (sameGame && g.ply > before.ply) {
    const move = g.moves[before.ply];
    play(g.status === "finished" ? "end" : move && move.indexOf("x") > 0 ? "capture" : "move");
  } else if (justEnded) {
    play("end"); // without a move: a resignation, a flag, an abort, a draw agreed
  }
  // Taken back: a word about the position before (a hint, a pass) no
  // longer holds (it stays while its position does: panel.flash).
  if (sameGame && g.ply < before.ply) clearPositionFlash();
  // No first move awaited now (a Swap2 choice set the clocks going): its
  // word no longer holds (renju-friends QA: it came back after the
  // choice's news).
  if (sameGame && firstMoveCounted(before) && !firstMoveCounted(g)) clearPositionFlash();
  // A switch flipped: "It is the AI's turn" may no longer hold.
  const kinds = (game) => SIDES.map((side) => game.players[side].kind).join();
  if (sameGame && kinds(g) !== kinds(before)) clearPositionFlash();
  if (sameGame && g.ply > before.ply && g.last_move === "pass") {
    // The server plays a forced pass at once: say so, the record keeps it.
    const other = g.ply % 2 === 1 ? "white" : "black";
    const words = passWords(g);
    // Heard with the move that left no move (the computer's, perhaps): the
    // pass came in the same snapshot, and only the pass was said. Shown
    // alone under the board, and said once.
    flash(words, "turn", true);
    const move = g.ply >= before.ply + 2 ? g.moves[g.ply - 2] : null;
    // With the discs it turned, as any move is said (verification walk).
    const turned = g.ply === before.ply + 2 && reversiPlayed(before, g, other, move);
    const played = move && (turned || interpolate(gettext("%(side)s played %(move)s"), { side: sideName(other), move: spokenMove(move) }, true));
    // Translators: a move, then the pass it forced: "White played c1. Black has no move: White plays again".
    announce(played ? interpolate(gettext("%(played)s. %(pass)s"), { played: played, pass: words }, true) : words);
  } else if (sameGame && g.ply > before.ply && g.last_move) {
    // A message about the position before (a pass, a hint) no longer holds.
    clearPositionFlash();
    const mover = g.ply % 2 === 1 ? "black" : "white";
    // The result is the status line's to say, once (QA: it was said three
    // times: here, by the status line and by the end card).
    const last = (g.ply === before.ply + 1 && reversiPlayed(before, g, mover, g.last_move)) || interpolate(gettext("%(side)s played %(move)s"), { side: sideName(mover), move: spokenMove(g.last_move) }, true);
    // A few moves in one snapshot (Swap2's stones placed together): each is
    // said, not only the last (QA: the choice of colour followed, and two
    // of the three stones were never heard). More is a catch-up: the last.
    const earlier = g.ply - before.ply <= FEW_MOVES ? g.moves.slice(before.ply, g.ply - 1) : [];
    const sentences = earlier.map(function (move, i) {
      const side = sideName((before.ply + i) % 2 === 0 ? "black" : "white");
      return interpolate(gettext("%(side)s played %(move)s"), { side: side, move: spokenMove(move) }, true);
    });
    sentences.push(last);
    // Translators: two sentences said one after the other: "Black played h8. White played i7".
    announce(sentences.reduce((first, then) => interpolate(gettext("%(first)s. %(then)s"), { first: first, then: then }, true)));
  } else if (!sameGame && g.status === "playing" && g.last_move === "pass") {
    // A game opened (or imported) after a pass: why the same side moves
    // again (verification QA: only "White to move" said it).
    flash(passWords(g), "turn");
  }
  // What was said during the game (a declined offer, say) is stale at its end.
  if (justEnded) clearFlash();
  const restart = sameGame && restartNews(before, g);
  const opening = sameGame && openingNews(before, g);
  const news = opening || restart || (sameGame && overlineNews(before, g));
  let due = firstMoveNews(sameGame ? before : null, g);
  // A restart gives a first move awaited its whole time again: said again
  // with it, and kept (QA: the restart's word faded, and with it this one).
  if (restart && news === restart && !due) due = firstMoveNews(null, g);
  if (news && due) {
    // Translators: news of the game, then the first move it still awaits.
    flash(interpolate(gettext("%(news)s. %(due)s"), { news: unendSentence(news), due: due }, true), "position");
  } else if (news) {
    // A live region: heard too. The computer's Swap2 stones stay said
    // while the player's choice waits, and a restart's word while the
    // clocks it grew do (network QA: gone in 3.5 s, the clocks 40 s more).
    const stays = news === restart || (opening && ["choose", "choose-again"].includes(g.opening.step));
    // The computer's Swap2 news is shown, not said: the stones' own words
    // and the Swap2 bar say it (keyboard walk: "you choose black, or white
    // and the next move…" heard twice, the stones twice).
    flash(endSentence(news), stays ? "position" : "info", news === opening);
  } else if (due) {
    flash(due, "position"); // until the move: the countdown runs till then
  } else if (!sameGame && g.seats && g.status === "playing" && !state.watching && onlyWatching()) {
    // Given the game's address, not its watch link: told at once (links QA:
    // only a click that played nothing said so).
    flash(gettext("You are watching this game: only its two players move. If it is yours, open it in the browser you joined it from."), "position");
  }
  fetchRecord();
  // Taken back after its end: a new end shows its card again.
  if (sameGame && before.status === "finished" && g.status === "playing") state.endShownFor = state.ending = null;
  if (g.status === "finished") fetchEnding(g, justEnded || endNews);
  follow(g.id, takeLive, takePresence, render, takeThinking);
  if (!sameGame) hintFirstLoa(g);
  if (!sameGame) {
    // A reload during the AI's search: wait for that search, do not ask again.
    const search = searchInFlight(g.id, g.version);
    if (search && !search.hint) return awaitSearch(search);
    if (search) state.searchSlotFree = { id: g.id, at: search.until };
  }
  // A short pause lets the browser paint the move before the next search.
  setTimeout(maybeRunAi, 60);
}

/** A snapshot pushed by the live socket (or a poll): drawn if it is newer
 *  than the one on show (this page's own move comes back this way too). */
function takeLive(g) {
  const shown = state.game;
  if (!shown || shown.id !== g.id || g.version <= shown.version) return;
  // A change this page sent is in (or overtaken: its answer will say so): the
  // push often comes before the request's own answer, and the player may go on.
  if (state.busy && state.busy.from < g.version) state.busy = false;
  setGame(g);
}

/** The game's computer started a search. One that another page asked for
 *  (this page watches, or shows the game twice) is shown as this page's own
 *  search would be, until its move comes (setGame), or long after it should
 *  have; this page's own takes the time the server gives it (within its
 *  clock, or a Swap2 opening's turn of several searches). */
function takeThinking(told) {
  const g = state.game;
  if (!g || g.version !== told.version || g.status !== "playing") return;
  const own = state.thinking;
  // (Only this page's own search has its start: not a watched nor a resumed one.)
  if (own && own.at && !own.hint && told.seconds && told.seconds !== own.seconds) {
    // This page's search, as the server counts it: a Swap2 opening's turn
    // is several searches (as the opener, one for each candidate).
    own.seconds = told.seconds;
    rememberThinking(g, own);
    startProgress(own.seconds, own.at);
    return;
  }
  if (own) return;
  // A level is counted in simulations: its time as this page would expect it.
  const seconds = told.seconds || expectedSeconds(g.game, g.players[told.side]);
  const remote = { xhr: null, side: told.side, hint: false, seconds: seconds, remote: true };
  state.thinking = remote;
  startProgress(seconds);
  render();
  setTimeout(function () {
    if (state.thinking !== remote) return;
    state.thinking = null;
    stopProgress();
    render();
  }, 1000 * (2 * (seconds || 10) + 5));
}

/** Who is connected changed. */
function takePresence(who) {
  const g = state.game;
  const now = {
    black: who.black,
    white: who.white,
    watchers: who.watchers,
    playing: who.playing,
    paused: who.paused,
    gone: { ...(who.gone || {}) },
    goneAfter: who.gone_after,
    goneAfterUntimed: who.gone_after_untimed,
    at: performance.now(),
    // A seat open then is not "gone" once taken: its player just came.
    taken: { black: Boolean(g && g.seats && g.seats.black), white: Boolean(g && g.seats && g.seats.white) },
  };
  state.presence = now;
  // A seat here by its requests alone (its page polls: no socket) is gone,
  // from its last request, once the server's time for them has passed with
  // no word since (verification QA: a friend who polled was shown gone, and
  // a claim offered that the server refused).
  Object.entries(who.polled || {}).forEach(function ([side, ago]) {
    setTimeout(function () {
      if (state.presence !== now) return;
      now[side] = false;
      now.gone[side] = ago;
      render();
    }, (who.polled_here - ago) * 1000);
  });
  render();
}

/** At most how many moves one snapshot brings that are each said (more is
 *  a catch-up, and only its last move is said). */
const FEW_MOVES = 5;

/** Light the squares that won the game; `showCard`: its end is news to
 *  this page (it ended on show, or since this browser saw it in play), so
 *  the end card shows. */
function fetchEnding(g, showCard) {
  const e = state.ending;
  if (e && e.id === g.id && e.ply === g.ply) return;
  api
    .getEnding(g.id)
    .done(function (ending) {
      if (!state.game || state.game.id !== g.id || state.game.ply !== g.ply) return;
      state.ending = $.extend({ id: g.id, ply: g.ply }, ending);
      render();
      if (showCard && onGameEnd && state.endShownFor !== g.id) {
        state.endShownFor = g.id;
        onGameEnd(g, ending);
      }
    })
    .fail(function () {
      expectEnd(null); // no card comes
      render();
    });
}

/** Wait for the AI search that a page before a reload asked for: the game
 *  is polled until the AI's move is in (or the search must be over). */
function awaitSearch(search) {
  const g = state.game;
  state.thinking = { xhr: null, side: g.to_move, hint: false, seconds: search.seconds, resumed: true };
  startProgress(search.seconds, search.at);
  render();
  const mine = state.thinking;
  const poll = function () {
    if (state.thinking !== mine) return; // stopped or handed over meanwhile
    api
      .getGame(g.id)
      .done(function (next) {
        if (state.thinking !== mine) return;
        if (next.version === g.version && Date.now() < search.until) return setTimeout(poll, 400);
        state.thinking = null;
        stopProgress();
        rememberSearch(null);
        setGame(next);
      })
      .fail(function (x) {
        if (state.thinking !== mine) return;
        state.thinking = null;
        stopProgress();
        flash(api.errorText(x));
        render();
      });
  };
  setTimeout(poll, 400);
}

/** Fill the record box and the download link with the game's record, once
 *  a version (QA: a snapshot drawn twice, pushed then answered, fetched it
 *  twice: 8,060 requests for 4,730 moves in a long session). */
function fetchRecord() {
  const g = state.game;
  const key = g.id + "/" + g.version;
  if (recordXhr && recordXhr.key === key) return;
  if (key === recordShown && $("#record").val() !== "") return;
  if (recordXhr) recordXhr.abort();
  recordXhr = api.getRecord(g.id);
  recordXhr.key = key;
  recordXhr
    .done(function (rec) {
      if (!state.game || state.game.id !== g.id) return;
      const another = !recordShown || !recordShown.startsWith(g.id + "/");
      recordShown = key;
      latestRecord = { id: g.id, text: rec.record };
      // A record the user is typing (to import) is theirs: do not overwrite
      // it; nor the box they are in, until they leave it (CI: the record
      // came between a select-all and the paste, and the paste went on its
      // end, "h8h8 h9 i8 i9").
      const theirs = state.recordEdited || document.activeElement === document.getElementById("record");
      if (!theirs) $("#record").val(rec.record);
      // Another game's from its start, its tags (records QA: after an
      // import, the box stayed scrolled to the pasted record's end).
      if (!theirs && another) $("#record").scrollTop(0);
      $("#download-record")
        .attr("href", "data:text/plain;charset=utf-8," + encodeURIComponent(rec.record + "\n"))
        .attr("download", g.game + "-" + g.id.slice(0, 8) + ".txt");
    })
    .always(() => (recordXhr = null));
}

/** The player left the record box: it shows the game's record again, unless
 *  they typed one of their own. */
export function recordBoxLeft() {
  const latest = latestRecord && state.game && latestRecord.id === state.game.id ? latestRecord.text : null;
  if (!state.recordEdited && latest !== null) $("#record").val(latest);
}

/** Fetch the game afresh (after a failure: the server's state is the truth). */
export function reload() {
  return api.getGame(state.game.id).done(setGame);
}

/** Ask for the game on show until the server answers (the `tries`th time
 *  now, later each time), and draw it: its AI moves again (setGame); then
 *  `then(game)` if given. */
function reloadWhenBack(tries, then) {
  setTimeout(function () {
    if (state.game)
      reload()
        .done((g) => then && then(g))
        .fail(() => reloadWhenBack(tries + 1, then));
  }, Math.min(8000, 500 * 2 ** tries));
}

/** Look at the game again in `ms`, and until the server answers: it may
 *  be down by then (a restart: QA, the one look fell, and the computer
 *  never moved again until Pause and Resume). */
function lookAgain(ms) {
  setTimeout(() => state.game && reload().fail(() => reloadWhenBack(0)), ms);
}

/** The usual ending of a request that changes the game: take in its answer,
 *  or say what went wrong and fetch the game afresh. */
export function changeGame(xhr, then) {
  const sent = { id: state.game.id, from: state.game.version };
  state.busy = sent;
  xhr
    .done(function (next) {
      if (state.busy === sent) state.busy = false;
      // Pushed snapshots may have overtaken the answer: it is not drawn back,
      // nor is the game it is about once the page has gone on (to the
      // rematch a push named), nor drawn again when its push came first (the
      // board redrawn under a tap, between press and release, lost the tap).
      const shown = state.game;
      if (shown.id === sent.id && next.version > shown.version) setGame(next);
      else render(); // not busy now: the board is no longer greyed
      if (then) then(next);
    })
    .fail(function (x) {
      if (state.busy === sent) state.busy = false;
      state.queuedTaps = []; // made for a position that did not come
      // The move's faint stone goes, and the board is no longer greyed,
      // though the game's reload may fail too (network QA: offline, they
      // stayed after the error had gone, the move's fate unclear).
      render();
      // The game moved on unheard of (another tab of it): the API's words
      // ask to reload it, which the page does; it says what happened.
      const changed = x.status === 409 && x.responseJSON && x.responseJSON.error === "conflict";
      if (!changed) flash(api.errorText(x));
      // An answer lost on the way (the connection dropped, a proxy gave up)
      // may follow a change the server made: the game fetched shows it, and
      // the error no longer holds (network QA: a move played, drawn, and
      // "The server cannot be reached." under it).
      const lost = [0, 502, 504].includes(x.status);
      reload()
        .done(function (g) {
          if (changed) flash(g.version > sent.from ? gettext("The game changed meanwhile, in another tab or window: here it is now.") : api.errorText(x));
          else if (lost && g.id === sent.id && g.version > sent.from) withdrawFlash(api.errorText(x));
        })
        .fail(function () {
          if (lost) tellWhenBack(sent, api.errorText(x));
        });
    });
}

/** The server is down (a restart, the network) since a change `sent` was
 *  lost on its way: the `words` saying so stay until it is back, and then
 *  say whether the change was made (operator QA: a move clicked during a
 *  restart said so for 3.5 s, then nothing, and was not played). */
function tellWhenBack(sent, words) {
  flash(words, "stays");
  reloadWhenBack(0, function (g) {
    if ($("#flash").text() !== words) return; // the page has said more since
    // Until the next message: a player who looked away found them gone.
    if (g.id === sent.id && g.version === sent.from) flash(gettext("Connected again, but what you did while the connection was lost did not arrive: do it again."), "stays");
    else withdrawFlash(words);
  });
}

/** A new game asked for (`xhr`): the page is busy until the answer, and
 *  before its first game says one is starting (nothing else on the page
 *  does on a slow link), back to the choice if it is refused. */
export function askNewGame(xhr) {
  state.busy = true;
  if (!state.game) sayStatus(gettext("A new game is starting"));
  return xhr
    .always(() => (state.busy = false))
    .fail(() => !state.game && sayStatus(gettext("Choose a game to start")));
}

/** "Black played f5, turning 1 disc. Black 4, White 1": a Reversi move
 *  of `mover`, the last before snapshot `g` (after `before`), heard, not
 *  seen: how many discs turned, and the score after (the last move's score
 *  is the result's, which the status says); null in the other games. */
function reversiPlayed(before, g, mover, move) {
  if (g.game !== "reversi") return null;
  const played = $.extend({ side: sideName(mover), move: spokenMove(move) }, discCounts(g.board.cells));
  played.turned = played[mover] - discCounts(before.board.cells)[mover] - 1;
  const words =
    g.status === "finished"
      ? ngettext("%(side)s played %(move)s, turning %(turned)s disc", "%(side)s played %(move)s, turning %(turned)s discs", played.turned)
      : ngettext(
          "%(side)s played %(move)s, turning %(turned)s disc. Black %(black)s, White %(white)s",
          "%(side)s played %(move)s, turning %(turned)s discs. Black %(black)s, White %(white)s",
          played.turned
        );
  return interpolate(words, played, true);
}

/** "Black has no move: White plays again", after the pass that ends `g`'s moves. */
export function passWords(g) {
  const passer = g.ply % 2 === 1 ? "black" : "white";
  const other = passer === "black" ? "white" : "black";
  return interpolate(gettext("%(side)s has no move: %(other)s plays again"), { side: sideName(passer), other: sideName(other) }, true);
}

/** PATCH the players; the game counts as busy meanwhile, so that no AI move
 *  starts from the version this request is about to replace (a 409). */
export function sendPlayers(id, players) {
  changeGame(api.setPlayers(id, players));
}

/** Milliseconds until the server's abandoned search in this game is over. */
export function slotWait() {
  const slot = state.searchSlotFree;
  return slot && state.game && slot.id === state.game.id ? slot.at - Date.now() : 0;
}

/** Start a search (`xhr`) for `side`; returns a guard that is true while the
 *  answer is still wanted (not stopped or aborted meanwhile), and ends the
 *  thinking state when it is. */
export function think(xhr, side, hint, seconds) {
  const g = state.game;
  const at = Date.now();
  state.thinking = { xhr: xhr, side: side, hint: hint, seconds: seconds, at: at };
  rememberThinking(g, state.thinking);
  startProgress(seconds);
  render();
  return function stillWanted() {
    if (leaving || !state.thinking || state.thinking.xhr !== xhr) return false;
    state.thinking = null;
    rememberSearch(null);
    stopProgress();
    return true;
  };
}

/** Keep the page's search for a reload: the server's search outlives it. */
function rememberThinking(g, thinking) {
  const until = thinking.at + 2000 * (thinking.seconds || 10) + 5000;
  rememberSearch({ id: g.id, version: g.version, hint: thinking.hint, at: thinking.at, seconds: thinking.seconds, until: until });
}

/** The least time between two moves of the computer against itself (ms):
 *  each move shows long enough for its animation (400 ms) to be seen, and
 *  the page keeps under the server's AI rate (240 requests a minute a
 *  client). QA, a long session: at its fastest level it asked 30 ms after
 *  the last move, and met "The server is busy" 420 times in 20 minutes. */
const AI_PACE = 500;
let lastAsked = 0;

/** How long the computer against itself still waits before its next move
 *  (ms): none against a person. */
function paceWait(g) {
  if (!SIDES.every((side) => g.players[side].kind === "ai")) return 0;
  return lastAsked + AI_PACE - Date.now();
}

/** If the side to move is an AI (and nothing holds it back), ask it to move. */
export function maybeRunAi() {
  const g = state.game;
  if (!g || g.status !== "playing" || state.paused || state.busy || state.thinking) return;
  if (g.players[g.to_move].kind !== "ai") return;
  if (state.watching) {
    // The game's own page drives its AI; a watcher sees the first start's
    // progress as that page does.
    if (!aiReady(g.game)) whenAiReady(g.game);
    return;
  }
  const wait = Math.max(slotWait(), paceWait(g));
  if (wait > 0) {
    clearTimeout(slotTimer);
    slotTimer = setTimeout(maybeRunAi, wait);
    return;
  }
  const side = g.to_move;
  const model = g.players[side].model;
  // Each with its bar, side by side: a packed or large model the server
  // gets ready, and at a server's first start its AI compiling (the model
  // loads slowly then too: the page showed nothing near the board meanwhile).
  const waits = [];
  if (!modelReady(g.game, model)) {
    waits.push(
      prepareModel(g.game, model).fail((detail) => pauseForFault(detail))
    );
  }
  if (!aiReady(g.game)) waits.push(whenAiReady(g.game));
  if (waits.length) {
    $.when(...waits).done(maybeRunAi);
    return;
  }
  const ply = g.ply,
    key = movesKey(g.moves, g.ply);
  lastAsked = Date.now();
  const xhr = api.aiMove(g.id, g.version);
  const wanted = think(xhr, side, false, expectedSeconds(g.game, g.players[side]));
  xhr
    .done(function (resp) {
      if (!wanted()) return; // stopped meanwhile
      conflicts = 0;
      // A Swap2 opening's turn answers no search (it made several).
      state.analysis = resp.search ? { search: resp.search, ply: ply, key: key, hint: false } : null;
      // The player moved since its push came: the game shown is newer.
      const shown = state.game;
      const stale = shown && shown.id === resp.game.id && resp.game.version < shown.version;
      if (flushQueuedPlayers(stale ? shown : resp.game)) return;
      if (!stale) return setGame(resp.game);
      render();
      maybeRunAi();
    })
    .fail(function (x) {
      if (!wanted()) return; // aborted on purpose
      const wait = parseFloat(x.getResponseHeader("Retry-After") || "0");
      const restarting = x.responseJSON && x.responseJSON.error === "restarting";
      if (restarting) {
        // Not "busy" (verification QA).
        flash(gettext("The server is restarting: the AI goes on when it is back."), "info");
        lookAgain(Math.max(1, wait) * 1000);
      } else if (x.status === 429 || x.status === 503) {
        flash(interpolate(gettext("The server is busy; the AI tries again in %(seconds)s s."), { seconds: Math.max(1, wait) }, true), "info");
        lookAgain(Math.max(1, wait) * 1000);
      } else if (x.status === 409) {
        // The game changed, or a search still runs on it: look again, later each time.
        conflicts += 1;
        lookAgain(Math.min(4000, 250 * 2 ** conflicts));
      } else if (x.status === 0 || x.status === 502 || x.status === 504) {
        // The server went (a restart, the network): not a fault of the
        // search, which it runs again once back (QA: the page paused
        // itself, and the computer's clock ran out while it waited).
        flash(gettext("Connection lost: the AI goes on when the server is back."), "info");
        reloadWhenBack(0);
      } else {
        pauseForFault(api.errorText(x)); // do not hammer a failing endpoint in a loop
      }
    });
}

/** Pause the computer after a fault the server will not mend by itself (a
 *  500, a damaged model), saying `why` until Resume, which asks again (QA:
 *  the words went after 3.5 s, and a player who looked away found a
 *  computer that did not move, and no reason). */
function pauseForFault(why) {
  state.paused = true;
  tellPause();
  flash(why + " " + gettext("The computer is paused: Resume to try again."), "stays");
  render();
}

/** After a search: draw its move, then send the settings queued during it
 *  (a finished game keeps them for its rematch); true if that takes over.
 *  The move is drawn as any: put on the page without it, it was not said,
 *  and a move that ended the game brought no end card. */
function flushQueuedPlayers(game) {
  if (!state.queuedPlayers) return false;
  const players = state.queuedPlayers;
  state.queuedPlayers = null;
  setGame(game);
  // Busy at once: the next search waits for the settings (setGame asks
  // for it a moment later).
  sendPlayers(game.id, players);
  return true;
}

/** Drop the running search's answer (the game changes under it). */
export function stopThinking() {
  if (state.thinking) {
    const xhr = state.thinking.xhr;
    // The change that follows (an undo, new players, sharing the game)
    // stops the server's search within its next look; the game's search
    // slot is free soon after (the next AI request waited out its whole
    // budget before: 10 s for a 5 s computer after an undo).
    state.searchSlotFree = { id: state.game.id, at: Date.now() + ABANDONED_SEARCH_MS };
    state.thinking = null;
    rememberSearch(null);
    if (xhr) xhr.abort();
  }
  stopProgress();
}

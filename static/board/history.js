/*
 * What the browser remembers of games: the positions it has seen (so one can
 * step back through the moves without asking the server; a game played
 * elsewhere gets them once from its boards/), the last game played here,
 * the last game analysis, and the game in the address (`/?game=<id>`).
 * Local storage may be full or off: then the page just knows less.
 */
import { whenHistorySettled } from "./dialogback.js";
import { movesKey, otherSide, state } from "./state.js";

const STORE_LAST = "webgame.last";
const STORE_BOARDS = "webgame.boards";
const STORE_PAUSED = "webgame.paused";
/** Seats this browser holds in games between two browsers: id -> {side,
 *  token, invite}. Only here: a seat's token is in no link and no page. */
const STORE_SEATS = "webgame.seats";
/** How many seats are kept (the oldest are dropped). */
const SEATS_KEPT = 50;
/** The last game analyses made here: [{id, moves, points}], the latest last. */
const STORE_REVIEW = "webgame.review";
/** How many are kept (the oldest are dropped). */
const REVIEWS_KEPT = 10;
/** Games this browser last saw in play (their ids, the latest last). */
const STORE_PLAYING = "webgame.playing";
/** How many of them are kept (the oldest are dropped). */
const PLAYING_KEPT = 20;
/** In the tab's session storage: the AI search this page was waiting for. */
const STORE_SEARCH = "webgame.search";

// A board in storage: rows of x (black), o (white), . (empty), joined by "/".
function encodeCells(cells) {
  return cells
    .map((row) => row.map((c) => (c === "black" ? "x" : c === "white" ? "o" : ".")).join(""))
    .join("/");
}

function decodeCells(text) {
  return text.split("/").map((row) => row.split("").map((ch) => (ch === "x" ? "black" : ch === "o" ? "white" : null)));
}

/** Keep the snapshot's position, and the game as the one to reopen. */
export function rememberGame(game) {
  const cells = encodeCells(game.board.cells);
  state.boards[movesKey(game.moves, game.ply)] = cells;
  if (game.forbidden) state.forbiddenSeen[movesKey(game.moves, game.ply)] = game.forbidden;
  // A pass leaves the board as it was: the position before it is this one too
  // (a forced pass comes in the same snapshot as the move before it).
  for (let ply = game.ply; ply > 0 && game.moves[ply - 1] === "pass"; ply--) {
    state.boards[movesKey(game.moves, ply - 1)] = cells;
  }
  saveBoards(game.id);
  try {
    // A game watched through a link is not the one to reopen as one's own.
    if (!state.watching) localStorage.setItem(STORE_LAST, game.id);
  } catch (e) {
    /* no storage: a reload starts afresh */
  }
  whenHistorySettled(() => showInAddress(game.id));
}

/** Put game `id` in the address. */
function showInAddress(id) {
  // Another game gets its own history entry, so Back returns to the one before.
  const shown = gameInAddress();
  const address = "?game=" + id + (state.watching ? "&watch" : "");
  if (shown && shown !== id) history.pushState(null, "", address);
  // A used invitation's page watches: its address becomes the watch link;
  // a seat's page on the watch link plays: its address becomes the game's.
  else if (!shown || state.watching !== watchInAddress()) history.replaceState(null, "", address);
}

function saveBoards(id) {
  try {
    localStorage.setItem(STORE_BOARDS, JSON.stringify({ id: id, boards: state.boards }));
  } catch (e) {
    /* storage full or off: view mode just knows less */
  }
}

/** Keep `boards` (the API's boards/ of game `g`: the board after each
 *  move, encoded as here) as positions seen, and under renju `forbidden`
 *  (the points forbidden to Black after each move). */
export function learnBoards(g, boards, forbidden) {
  boards.forEach(function (cells, ply) {
    state.boards[movesKey(g.moves, ply)] = cells;
  });
  (forbidden || []).forEach(function (points, ply) {
    state.forbiddenSeen[movesKey(g.moves, ply)] = points;
  });
  saveBoards(g.id);
}

function seats() {
  try {
    return JSON.parse(localStorage.getItem(STORE_SEATS) || "{}") || {};
  } catch (e) {
    return {};
  }
}

/** This browser's seat in game `id`: {id, side, token, invite}, or null. */
export function seatFor(id) {
  const seat = seats()[id];
  return seat ? $.extend({ id: id }, seat) : null;
}

/** Whether game `id` was last seen in play here: if it has ended, its end
 *  is still news to this browser's player (endMissed). */
export function endUnseen(id) {
  return seenPlaying().indexOf(id) >= 0;
}

/** The ids of the games this browser last saw in play, the latest last. */
function seenPlaying() {
  try {
    return JSON.parse(localStorage.getItem(STORE_PLAYING)) || [];
  } catch (e) {
    return []; // no storage or not ours: nothing seen
  }
}

/** Note the snapshot `game` shown to one of its players; true if it has
 *  ended since this browser last saw it in play (a friend resigned, a flag
 *  fell, the computer won while the page was closed): its end, not seen,
 *  is to be shown, once. */
export function endMissed(game) {
  const ids = seenPlaying();
  const at = ids.indexOf(game.id);
  const playing = game.status === "playing";
  if (playing === (at >= 0) && (!playing || at === ids.length - 1)) return false; // nothing new
  if (at >= 0) ids.splice(at, 1);
  if (playing) ids.push(game.id);
  try {
    localStorage.setItem(STORE_PLAYING, JSON.stringify(ids.slice(-PLAYING_KEPT)));
  } catch (e) {
    /* storage full or off: an end missed is not shown */
  }
  return !playing && at >= 0;
}

/** Keep the seat `seat` ({side, token, invite?, swapped?}) taken in game
 *  `id`; `swapped`: whether a Swap2 choice had swapped the sides by then. */
export function rememberSeat(id, seat) {
  const all = seats();
  delete all[id];
  all[id] = { side: seat.side, token: seat.token, invite: seat.invite || null, swapped: Boolean(seat.swapped) };
  const ids = Object.keys(all);
  ids.slice(0, Math.max(0, ids.length - SEATS_KEPT)).forEach((old) => delete all[old]);
  saveSeats(all);
}

function saveSeats(all) {
  try {
    localStorage.setItem(STORE_SEATS, JSON.stringify(all));
  } catch (e) {
    /* no storage: the seat lasts as long as this page */
  }
}

/** The seats this browser holds in games it has not seen end, the latest
 *  taken first: [{id, side, token, invite, swapped}]. */
export function seatsInPlay() {
  const all = seats();
  return Object.keys(all)
    .reverse()
    .filter((id) => !all[id].ended)
    .map((id) => $.extend({ id: id }, all[id]));
}

/** This browser offered a rematch of game `id` (`asked`), or no longer
 *  waits for the answer: a rematch accepted while the page was closed is
 *  found and listed (correspondence walk: only the old game's page led to
 *  it). */
export function awaitRematch(id, asked) {
  const all = seats();
  if (!all[id]) return;
  if (asked) all[id].rematch = true;
  else delete all[id].rematch;
  saveSeats(all);
}

/** This browser's draw offer in game `id` waits for the friend's answer
 *  (`offered`), or no longer; answers whether it waited before. */
export function markDrawOffer(id, offered) {
  const all = seats();
  if (!all[id]) return false;
  const waited = Boolean(all[id].draw);
  if (waited === offered) return waited;
  if (offered) all[id].draw = true;
  else delete all[id].draw;
  saveSeats(all);
  return waited;
}

/** The seats of the games whose rematch this browser offered, unanswered. */
export function seatsAwaitingRematch() {
  const all = seats();
  return Object.keys(all)
    .filter((id) => all[id].rematch)
    .map((id) => $.extend({ id: id }, all[id]));
}

/** Keep this browser's seat in the rematch of finished game `g`, where it
 *  held `seat`: the other colour, the same token. */
export function rememberRematch(g, seat) {
  rememberSeat(g.rematch, { side: otherSide(seat.side), token: seat.token });
  awaitRematch(g.id, false);
}

/** Game `id` has ended: its seat is kept (the rematch, the chat) but no
 *  longer among those in play; `gone`: the server has no such game, and the
 *  seat is dropped. */
export function seatEnded(id, gone) {
  const all = seats();
  if (!all[id]) return;
  if (gone) delete all[id];
  else all[id].ended = true;
  saveSeats(all);
}

/** The invitation in the address (`#invite=...`: a fragment never reaches a
 *  server's logs), or null. */
export function inviteInAddress() {
  const match = location.hash.match(/invite=([A-Za-z0-9_-]+)/);
  return match ? match[1] : null;
}

/** The page was opened by a watch link (`/?game=<id>&watch`). */
function watchInAddress() {
  return new URLSearchParams(location.search).has("watch");
}

/** Whether the page opening game `id` watches it: its address is a watch
 *  link, and this browser holds no seat in it. A seat wins, as one address
 *  serves players and watchers on lichess (links QA: the host on the watch
 *  link was told to move and could not, yet aborted the game in a click). */
export function watchesFromAddress(id) {
  return watchInAddress() && Boolean(gameInAddress()) && !seatFor(id);
}

/** The links of game `id`: {invite (with the invitation, if given), watch}. */
export function gameLinks(id, invite) {
  const base = location.origin + location.pathname + "?game=" + id;
  return { invite: invite ? base + "#invite=" + invite : null, watch: base + "&watch" };
}

/** Remember whether game `id` is paused (a reload keeps the pause). */
export function rememberPause(id, paused) {
  try {
    if (paused) localStorage.setItem(STORE_PAUSED, id);
    else if (localStorage.getItem(STORE_PAUSED) === id) localStorage.removeItem(STORE_PAUSED);
  } catch (e) {
    /* no storage: a reload resumes */
  }
}

export function pausedBefore(id) {
  try {
    return localStorage.getItem(STORE_PAUSED) === id;
  } catch (e) {
    return false;
  }
}

/** Remember the search this page has asked for ({id, version, hint, at,
 *  seconds}), or forget it (null): after a reload the page waits for it
 *  instead of asking again while the server still runs it. */
export function rememberSearch(search) {
  try {
    if (search) sessionStorage.setItem(STORE_SEARCH, JSON.stringify(search));
    else sessionStorage.removeItem(STORE_SEARCH);
  } catch (e) {
    /* no storage: a reload may ask while the old search runs (the server
       answers an AI move's request with that search's move, a hint's with
       a 409, retried) */
  }
}

/** The remembered search of game `id` at `version`, if it may still run. */
export function searchInFlight(id, version) {
  try {
    const s = JSON.parse(sessionStorage.getItem(STORE_SEARCH) || "null");
    return s && s.id === id && s.version === version && Date.now() < s.until ? s : null;
  } catch (e) {
    return null;
  }
}

/** Keep the game analysis `r` ({id, moves, points}) with the last few: a
 *  reload, or the game opened again, shows its chart and mistakes without
 *  asking again (a strong player's walk: a reload threw a minute's analysis
 *  away; a teacher's: a second game's analysis threw the first's away). Its
 *  lines (pv) are left out: only the card reads a point. */
export function saveReview(r) {
  const point = (p) => p && { ply: p.ply, black: p.black, best: p.best, to_move: p.to_move, proven: p.proven };
  const kept = savedReviews().filter((saved) => saved.id !== r.id);
  kept.push({ id: r.id, moves: r.moves, points: r.points.map(point) });
  try {
    localStorage.setItem(STORE_REVIEW, JSON.stringify(kept.slice(-REVIEWS_KEPT)));
  } catch (e) {
    /* storage full or off: the analysis lasts as long as the page */
  }
}

/** The analyses kept, the latest last (one alone before there were more). */
function savedReviews() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_REVIEW) || "[]") || [];
    return Array.isArray(saved) ? saved : [saved];
  } catch (e) {
    return [];
  }
}

/** The game analysis kept of game `id`, as state.review holds one (not
 *  running), or null. */
export function savedReview(id) {
  const saved = savedReviews().find((r) => r && r.id === id);
  return saved ? { id: id, moves: saved.moves, points: saved.points, running: false, xhr: null } : null;
}

/** Load the positions seen of game `id` (a new game: none). */
export function loadBoards(id) {
  state.forbiddenSeen = {};
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_BOARDS) || "null");
    state.boards = saved && saved.id === id ? saved.boards : {};
  } catch (e) {
    state.boards = {};
  }
}

/** Black's forbidden points at `ply` of the current game ({} but under
 *  renju), or null if this browser does not know them (teacher walk:
 *  stepping back through a renju game marked none). */
export function forbiddenAt(ply) {
  const g = state.game;
  if (!g.forbidden) return {};
  if (ply === g.ply) return g.forbidden;
  return state.forbiddenSeen[movesKey(g.moves, ply)] || null;
}

/** The cells at `ply` of the current game, or null if this browser never saw them. */
export function cellsAt(ply) {
  const g = state.game;
  if (ply === g.ply) return g.board.cells;
  const known = state.boards[movesKey(g.moves, ply)];
  if (known) return decodeCells(known);
  if (g.game === "gomoku") {
    // Gomoku stones never move or flip, so an earlier position is the
    // current one less the later stones: no rule needed.
    const later = new Set(g.moves.slice(ply));
    return g.board.cells.map((row, r) => row.map((c, col) => (later.has(g.board.files[col] + g.board.ranks[r]) ? null : c)));
  }
  return null;
}

/** The ply that a step of `delta` (+-1, or +-Infinity for the ends) leads to. */
export function stepTarget(delta) {
  const g = state.game;
  const current = state.viewPly === null ? g.ply : state.viewPly;
  const target = delta === Infinity ? g.ply : delta === -Infinity ? 0 : current + delta;
  return Math.max(0, Math.min(g.ply, target));
}

/** The game to reopen: the one in the address, else the last one played here. */
export function gameToReopen() {
  return gameInAddress() || lastGame();
}

/** The game this browser played last (null: none, or no storage). */
export function lastGame() {
  try {
    return localStorage.getItem(STORE_LAST);
  } catch (e) {
    return null; // no storage
  }
}

/** Drop an unknown game from the address. */
export function forgetAddress() {
  history.replaceState(null, "", location.pathname);
}

/** Drop the invitation from the address once used (a reload must not try it). */
export function forgetInvite() {
  history.replaceState(null, "", location.pathname + location.search);
}

export function gameInAddress() {
  return new URLSearchParams(location.search).get("game");
}

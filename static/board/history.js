/*
 * What the browser remembers of games: the positions it has seen (so one can
 * step back through the moves without asking the server, which serves only
 * the current position), the last game played here, and the game in the
 * address (`/?game=<id>`). Local storage may be full or off: then the page
 * just knows less.
 */
import { movesKey, state } from "./state.js";

const STORE_LAST = "webgame.last";
const STORE_BOARDS = "webgame.boards";

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
  state.boards[movesKey(game.moves, game.ply)] = encodeCells(game.board.cells);
  try {
    localStorage.setItem(STORE_BOARDS, JSON.stringify({ id: game.id, boards: state.boards }));
  } catch (e) {
    /* storage full or off: view mode just knows less */
  }
  try {
    localStorage.setItem(STORE_LAST, game.id);
  } catch (e) {
    /* no storage: a reload starts afresh */
  }
  if (gameInAddress() !== game.id) history.replaceState(null, "", "?game=" + game.id);
}

/** Load the positions seen of game `id` (a new game: none). */
export function loadBoards(id) {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_BOARDS) || "null");
    state.boards = saved && saved.id === id ? saved.boards : {};
  } catch (e) {
    state.boards = {};
  }
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
  let id = gameInAddress();
  try {
    id = id || localStorage.getItem(STORE_LAST);
  } catch (e) {
    /* no storage */
  }
  return id;
}

/** Drop an unknown game from the address. */
export function forgetAddress() {
  history.replaceState(null, "", location.pathname);
}

function gameInAddress() {
  return new URLSearchParams(location.search).get("game");
}

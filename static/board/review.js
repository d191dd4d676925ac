/*
 * Looking back at a game, the requests: the game analysis asks the server
 * what the AI thinks of each position, one ply after the other (each a short
 * search on the server's AI pool, so a progress bar can follow it and Stop
 * can end it), and the opening explorer asks the tree model for the position
 * on the board and the moves stepped into. lookback.js draws both.
 */
import * as api from "./api.js";
import { saveReview } from "./history.js";
import { drawReview, mistakes } from "./lookback.js";
import { announce, clearPositionFlash, flash } from "./panel.js";
import { render } from "./render.js";
import { prepareModel } from "./models.js";
import { isLoa, SIDES, squaresOfMove, state } from "./state.js";

// ---- the game analysis ------------------------------------------------------------

/** Analyse the game (every position so far), or stop the analysis running. */
export function toggleReview() {
  const g = state.game;
  if (!g) return;
  const r = state.review;
  if (r && r.id === g.id && r.running) {
    r.running = false;
    if (r.xhr) r.xhr.abort();
    return render();
  }
  if (!g.ply) return flash(gettext("No move to analyse yet."), "info");
  const points = new Array(g.ply + 1).fill(null);
  if (r && r.id === g.id) {
    // Again: what the analysis before knew of the same moves is kept, and
    // only the rest asked for (a stop, or moves since, threw it all away);
    // with nothing left, all of it is asked for again.
    const same = sharedPlies(r.moves, g.moves);
    for (let ply = 0; ply <= same && ply < r.points.length && ply <= g.ply; ply++) points[ply] = r.points[ply];
    if (points.every(Boolean)) points.fill(null);
  }
  state.review = { id: g.id, moves: g.moves.slice(0, g.ply), points: points, running: true, xhr: null };
  render();
  analyseNext(state.review);
}

/** Game `g` (on show) has had moves taken back since its analysis: the
 *  analysis keeps only the positions still in the game, and stops asking
 *  for the others (QA: after Undo its mistakes named "55. undefined", and
 *  one led to "Move 55 of 53"). */
export function keepReviewOf(g) {
  const r = state.review;
  if (!r || r.id !== g.id) return;
  const same = sharedPlies(r.moves, g.moves);
  if (same === r.moves.length) return;
  if (r.running) {
    r.running = false;
    if (r.xhr) r.xhr.abort();
  }
  r.moves = r.moves.slice(0, same);
  r.points = r.points.slice(0, same + 1);
  saveReview(r);
}

/** How many moves two move lists share from the start. */
function sharedPlies(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function analyseNext(r) {
  if (state.review !== r || !r.running) return;
  const ply = r.points.indexOf(null);
  if (ply < 0) {
    r.running = false;
    render();
    // Heard too: only the button's name changed (QA).
    const n = mistakes(r).length;
    return announce(n ? interpolate(ngettext("Analysis done: %(n)s mistake, listed under the chart", "Analysis done: %(n)s mistakes, listed under the chart", n), { n: n }, true) : gettext("Analysis done: no move lost much."));
  }
  r.xhr = api
    .analysePly(r.id, ply)
    .done(function (point) {
      if (state.review !== r) return;
      r.points[ply] = point;
      saveReview(r);
      // Only its card changes until the last (each answer drew the whole
      // page: 25 s of a 60-move analysis on a slow phone, QA).
      drawReview();
      analyseNext(r);
    })
    .fail(function (x) {
      if (state.review !== r || x.statusText === "abort") return;
      if (x.status === 429 || x.status === 503) {
        const wait = Math.max(1, parseFloat(x.getResponseHeader("Retry-After") || "1"));
        return setTimeout(() => analyseNext(r), wait * 1000);
      }
      r.running = false;
      flash(api.errorText(x));
      render();
    });
}

// ---- the opening explorer ---------------------------------------------------------

/** Open the explorer at the position on the board, or close it. */
export function toggleExplorer() {
  const g = state.game;
  if (!g) return;
  if (state.explore) {
    state.explore = null;
    state.selected = null;
    return render();
  }
  state.selected = null;
  // A hint's line under the board was about the game, not what it shows now.
  clearPositionFlash();
  const model = explorerModel(g);
  const e = (state.explore = { ply: state.viewPly === null ? g.ply : state.viewPly, line: [], asked: [], ahead: [], data: null, model: model });
  // A large model is got ready first, its bar under the model selectors.
  prepareModel(g.game, model)
    .done(() => fetchExplorer(e.line))
    .fail(function (detail) {
      if (state.explore !== e) return;
      state.explore = null;
      flash(detail);
      render();
    });
  render();
}

/** The tree model the explorer shows: the one the game's computer plays
 *  (Black's first), else null, the server's choice for the game (records
 *  QA: the full model playing, the explorer still showed the light one). A
 *  network has no tree to show. */
function explorerModel(g) {
  const models = (state.kinds[g.game] && state.kinds[g.game].models) || [];
  const tree = (name) => models.some((m) => m.name === name && !m.network);
  const side = SIDES.find((s) => g.players[s].kind === "ai" && tree(g.players[s].model));
  return side ? g.players[side].model : null;
}

/** Step into one of the model's moves. */
export function exploreMove(move) {
  const e = state.explore;
  if (!e || !e.data) return;
  // Another move than the one stepped back from: the line ahead is gone.
  if (e.ahead[e.ahead.length - 1] === move) e.ahead.pop();
  else e.ahead = [];
  fetchExplorer(e.asked.concat([move]));
}

/** One move back along the explored line; at its start the explorer stays
 *  and says so (QA: it left without a word). Quick steps go on from the
 *  line asked for last, its answer perhaps still on its way. */
export function exploreBack() {
  const e = state.explore;
  if (!e) return;
  if (!e.asked.length) return flash(gettext("The explored line starts here: \u201cStop exploring\u201d goes back to the game."), "position");
  e.ahead.push(e.asked[e.asked.length - 1]);
  fetchExplorer(e.asked.slice(0, -1));
}

/** One move on along the explored line, the one stepped back from; past
 *  its end the explorer stays and says so (verification QA: the right
 *  arrow left the explorer and threw the line away). */
export function exploreForward() {
  const e = state.explore;
  if (!e) return;
  if (e.ahead.length) return exploreMove(e.ahead[e.ahead.length - 1]);
  flash(gettext("Pick one of the model's moves to go on: \u201cStop exploring\u201d goes back to the game."), "position");
}

/** A click on the board while exploring: step into the model's move there.
 *  Lines of Action, as in a game: a piece the model moves, then one of its
 *  destinations (marked); a click elsewhere puts the piece down. */
export function exploreSquare(square) {
  const e = state.explore;
  if (!e || !e.data) return;
  const known = e.data.moves.map((m) => m.move);
  if (!isLoa()) {
    if (known.indexOf(square) >= 0) return exploreMove(square);
  } else {
    const from = (m) => squaresOfMove(m)[0];
    const chosen = known.find((m) => from(m) === state.selected && squaresOfMove(m)[1] === square);
    if (chosen) return exploreMove(chosen);
    const picked = state.selected;
    state.selected = square !== picked && known.some((m) => from(m) === square) ? square : null;
    render();
    if (state.selected || picked) return;
  }
  // About the position explored: it goes when another is shown.
  flash(gettext("Exploring: pick one of the model's moves (Stop exploring goes back to the game)."), "position");
}

function fetchExplorer(line) {
  const e = state.explore,
    g = state.game;
  e.asked = line;
  api
    .explore(g.id, e.ply, line, e.model)
    .done(function (data) {
      if (state.explore !== e || e.asked !== line) return; // another asked since
      e.line = data.line;
      e.data = data;
      clearPositionFlash();
      state.selected = null;
      render();
    })
    .fail(function (x) {
      if (state.explore !== e || e.asked !== line) return;
      e.asked = e.line; // the next step goes on from the line on show
      flash(api.errorText(x));
      if (!e.data) state.explore = null;
      render();
    });
  render();
}

/*
 * What the AI thinks, on the board: a layer over the cells drawn from the last
 * search result. Reversi and Gomoku get a heat map (visits per candidate
 * square, heat-0..9); Lines of Action gets SVG arrows from piece to
 * destination, width by visits, because a move there is two squares.
 */
import { COUNT, humanPlays, isLoa, joinWords, moveText, movesKey, onlyWatching, squaresOfMove, state } from "./state.js";

/** How many candidates the arrows and the analysis panel show. */
const TOP_MOVES = 8;

/** The search to show now, or null (hidden, stale or none). A hint shows in
 *  the position it was asked in. The AI's own search shows with its move on
 *  the board, and while a person plays the AI only if the "What the AI thinks
 *  of its moves" switch is on. Nothing shows once the game is over. */
export function visibleAnalysis() {
  const a = state.analysis,
    g = state.game;
  if (!a || !g || state.viewPly !== null || state.explore || g.status === "finished") return null;
  if (g.seats) return null; // between seats no hint is asked (one from before the game was shared)
  if (a.key !== movesKey(g.moves, a.ply)) return null;
  if (a.hint) return g.ply === a.ply ? a : null;
  if (g.ply !== a.ply + 1) return null;
  return showAnalysis() || !humanPlays() ? a : null;
}

/** What lies over the board: {moves, best} from the search on show or the
 *  opening explorer; null for nothing. `best` is the move played (or to
 *  play), so the marked arrow never contradicts the board. */
function boardLayer() {
  const data = state.explore && state.explore.data;
  if (data) return { moves: data.moves, best: data.moves.length ? data.moves[0].move : null };
  const a = visibleAnalysis();
  return a ? { moves: a.search.moves || [], best: a.search.move } : null;
}

/** The "What the AI thinks of its moves" switch. */
function showAnalysis() {
  return $("#show-analysis").prop("checked");
}

/** The computer's moves in this game show its estimate unasked: one side
 *  is the computer, and the switch is on or no person plays. */
export function estimatesUnasked() {
  const g = state.game;
  if (!g || g.status === "finished") return false;
  const aiPlays = g.players.black.kind === "ai" || g.players.white.kind === "ai";
  return aiPlays && (showAnalysis() || !humanPlays());
}

/** An estimate may show in this game before it ends: unasked
 *  (estimatesUnasked), or asked for by a person's hint (none while two
 *  seats play). Never to a watcher: estimates come with a page's own
 *  searches. */
export function estimatesMayShow() {
  const g = state.game;
  if (!g || g.status === "finished" || onlyWatching()) return false;
  return estimatesUnasked() || (humanPlays() && !g.seats);
}

/** "120 visits, win 55%, proven win" for one move of a search: its
 *  numbers, each told in words, as a list. */
export function statsText(m) {
  const parts = [interpolate(ngettext("%(n)s visit", "%(n)s visits", m.visits), { n: COUNT.format(m.visits) }, true)];
  // A proof says it all: "win 100%, proven win" said it twice, and "0
  // visits, win 100%" read as wrong (verification walk).
  const value = m.proven ? null : shownValue(m);
  if (value !== null && value !== undefined) parts.push(interpolate(gettext("win %(pct)s%"), { pct: Math.round(value * 100) }, true));
  if (m.proven) parts.push(provenText(m.proven, m.margin));
  return joinWords(parts);
}

/** The visits under which a move's average is noise, not an estimate
 *  (long-session QA: Beginner's 10 simulations, one visit a move, read
 *  "win 94%" where a long search said 32%). */
const FEW_VISITS = 20;

/** A move's chance to win as the page shows it: a proven result's own
 *  (a proven loss is 0%, whatever the search's average said before the
 *  proof), else the search's estimate; null for a move of too few visits
 *  (null or undefined: none). */
export function shownValue(m) {
  if (m.proven === "win") return 1;
  if (m.proven === "loss") return 0;
  if (m.proven === "draw") return 0.5;
  if (tooFewVisits(m)) return null;
  return m.value;
}

/** Whether move `m` of a search, not proven, has too few visits for its
 *  average to be an estimate. */
export function tooFewVisits(m) {
  return !m.proven && m.visits !== undefined && m.visits < FEW_VISITS;
}

/** The move the tree search rates best (its most visited: the API lists
 *  them so), if another than the search's move, chosen by the look-ahead
 *  (Gomoku's alpha-beta over threats) and not proven; else null. Its chance
 *  is the position's estimate: the chosen move's may be none, or the few
 *  visits the tree gave it (Gomoku QA: the hint looked broken). */
export function treeBestOver(search) {
  // Only Gomoku looks ahead over threats: a weak level's move chosen at
  // random is not the look-ahead's (QA: Reversi's Beginner read so).
  if (!state.game || state.game.game !== "gomoku") return null;
  const best = (search.moves || [])[0];
  const chosen = (search.moves || []).find((m) => m.move === search.move);
  if (!best || !best.visits || best.move === search.move || (chosen && chosen.proven)) return null;
  return best;
}

/** Said after the move the look-ahead chose ("h6 (chosen by the look-ahead)"). */
export function lookAheadWords() {
  return gettext("chosen by the look-ahead");
}

/** "proven win", "proven loss", "proven draw" (the API's win, loss, draw;
 *  another word is shown as it is). */
export function provenText(proven, margin) {
  // A solved Reversi endgame's move: by how many discs (a strong player's
  // walk: every move of a solved endgame scored, as Othello programs do).
  const n = Math.abs(margin || 0);
  if (proven === "win" && n) return interpolate(ngettext("proven win by %(n)s disc", "proven win by %(n)s discs", n), { n: n }, true);
  if (proven === "loss" && n) return interpolate(ngettext("proven loss by %(n)s disc", "proven loss by %(n)s discs", n), { n: n }, true);
  if (proven === "win") return gettext("proven win");
  if (proven === "loss") return gettext("proven loss");
  if (proven === "draw") return gettext("proven draw");
  return proven;
}

/** The searched moves worth drawing, most visited first, and the move
 *  played (`best`) among them even when others had more visits; a solved
 *  endgame's moves each, the best margin first (verification walk: moves
 *  no visit reached went unlisted, and a win by 4 came before one by 10). */
export function topMoves(search, best) {
  const all = search.moves || [];
  if (all.length && all.every((m) => typeof m.margin === "number")) {
    return all.slice().sort((a, b) => b.margin - a.margin || b.visits - a.visits).slice(0, TOP_MOVES);
  }
  // The move chosen may have few visits or none (Gomoku's alpha-beta or
  // threat search chose it): it is listed all the same.
  const moves = (search.moves || []).filter((m) => m.visits > 0 || m.move === best);
  const top = moves.filter((m) => m.visits > 0).slice(0, TOP_MOVES);
  const played = moves.find((m) => m.move === best);
  if (played && top.indexOf(played) < 0) top[Math.min(top.length, TOP_MOVES - 1)] = played;
  return top;
}

/** Heat map: square -> the move's stats plus `heat` 0..9 (visits against the
 *  most visited) and `chosen` (the move played, or hinted: not always the
 *  most visited); empty unless the heat map is on show. */
export function heatBySquare() {
  const map = {};
  const layer = isLoa() ? null : boardLayer();
  if (!layer) return map;
  const moves = layer.moves;
  const most = Math.max(1, ...moves.map((m) => m.visits));
  moves.forEach(function (m) {
    const chosen = m.move === layer.best;
    if (m.move === "pass" || (!m.visits && !chosen)) return;
    map[m.move] = $.extend({ heat: Math.min(9, Math.floor((9.99 * m.visits) / most)), chosen: chosen }, m);
  });
  return map;
}

/** Lines of Action: destination square -> the arrows' numbers ending there.
 *  The arrows catch no pointer (clicks go to the cells), so the numbers behind
 *  them are told on the destination cells: tooltip and label. */
export function arrowNotes() {
  const notes = {};
  const layer = isLoa() ? boardLayer() : null;
  if (!layer) return notes;
  topMoves(layer, layer.best).forEach(function (m) {
    const to = squaresOfMove(m.move)[1];
    if (to) (notes[to] = notes[to] || []).push(moveText(m.move) + ": " + statsText(m));
  });
  return notes;
}

/** Return the on-screen (row, col) of a square, honouring the flip. */
function screenPos(square) {
  const b = state.game.board,
    n = b.size;
  const c = b.files.indexOf(square.charAt(0)),
    r = b.ranks.indexOf(square.slice(1));
  return state.flipped ? { r: n - 1 - r, c: n - 1 - c } : { r: r, c: c };
}

/** What the layer over the board shows (the analysis card's key to it):
 *  "studied" (the heat or the arrows), "chosen" (ringed, or the red
 *  arrow), and "win" or "loss" where a proven move is coloured. */
export function layerKey() {
  const loa = isLoa();
  const layer = boardLayer();
  if (!layer) return [];
  const moves = loa ? arrowMoves(layer) : Object.values(heatBySquare());
  const key = ["studied", "chosen"];
  if (moves.some((m) => m.proven === "win")) key.push("win");
  // An arrow of a proven loss looks as any other.
  if (!loa && moves.some((m) => m.proven === "loss")) key.push("loss");
  return key;
}

/** The moves the arrows show, most visited first. */
function arrowMoves(layer) {
  return topMoves(layer, layer.best).filter((m) => m.move !== "pass");
}

/** LOA's layer of arrows, from piece to destination, width by visits; or,
 *  looking back at a mistake, the one arrow of the move the analysis chose
 *  instead (`better`: {move}, from render.js). */
export function drawArrows(better) {
  const $layer = $("#arrow-layer").empty();
  const n = state.game.board.size;
  $("#arrows").attr("viewBox", "0 0 " + n + " " + n);
  if (!isLoa()) return;
  if (better) {
    const line = arrow(better.move, 0.15, "better", "arrowhead-better");
    line.querySelector("title").textContent = moveText(better.move) + ": " + bestWords();
    return $layer.append(line);
  }
  const layer = boardLayer();
  if (!layer) return;
  // A piece picked: its own arrows alone, so that its destinations' dots
  // stand out (phone QA: lost among arrows of the same orange).
  // Their widths as with every arrow shown.
  const picked = state.selected;
  const all = arrowMoves(layer);
  const moves = all.filter((m) => !picked || squaresOfMove(m.move)[0] === picked);
  const most = Math.max(1, ...all.map((m) => m.visits));
  // Drawn weakest first, and the move played last, so that it lies on top.
  moves
    .slice()
    .reverse()
    .sort((x, y) => (x.move === layer.best) - (y.move === layer.best))
    .forEach(function (m) {
      const cls = [m.proven === "win" ? "proven-win" : "", m.move === layer.best ? "best" : ""].join(" ").trim();
      // The head in the line's colour (it was orange on the red and the green).
      const head = m.proven === "win" ? "arrowhead-win" : m.move === layer.best ? "arrowhead-best" : "arrowhead";
      const line = arrow(m.move, 0.05 + 0.2 * (m.visits / most), cls, head);
      line.querySelector("title").textContent = m.move + ": " + statsText(m);
      $layer.append(line);
    });
}

/** Said of the move the analysis chose instead of a mistake looked back at,
 *  on its square (its destination) or arrow: "a6: the analysis's best move". */
export function bestWords() {
  return pgettext("square", "the analysis's best move");
}

/** One arrow of a Lines of Action move ("b1-b3"), as an SVG line `width`
 *  wide with classes `cls` and the arrowhead marker `head`, titled. */
function arrow(move, width, cls, head) {
  const ns = "http://www.w3.org/2000/svg";
  const sq = squaresOfMove(move),
    a = screenPos(sq[0]),
    z = screenPos(sq[1]);
  // Stop short of the centre so the arrowhead sits inside the target square.
  const dx = z.c - a.c,
    dy = z.r - a.r,
    len = Math.hypot(dx, dy) || 1,
    cut = 0.25 / len;
  const line = document.createElementNS(ns, "line");
  line.setAttribute("x1", a.c + 0.5);
  line.setAttribute("y1", a.r + 0.5);
  line.setAttribute("x2", z.c + 0.5 - dx * cut);
  line.setAttribute("y2", z.r + 0.5 - dy * cut);
  line.setAttribute("stroke-width", width.toFixed(3));
  line.setAttribute("data-move", move);
  if (cls) line.setAttribute("class", cls);
  line.setAttribute("marker-end", "url(#" + head + ")");
  line.appendChild(document.createElementNS(ns, "title"));
  return line;
}

/*
 * Drawing: render() redraws the whole page from the state. The board is a grid
 * of buttons rebuilt on every call; how a cell looks is decided in one
 * function, cellClasses(). What the AI thinks lies over the cells as a
 * separate layer (overlays.js); the panels around the board are panel.js.
 */
import { dropStaleEnd } from "./ending.js";
import { cellsAt, forbiddenAt } from "./history.js";
import { stoneSide } from "./opening.js";
import { arrowNotes, bestWords, drawArrows, heatBySquare, shownValue, statsText } from "./overlays.js";
import { betterMoveShown, drawExplorer, drawReview } from "./lookback.js";
import { drawAnalysis, drawMoveList, drawPanel, heldControl } from "./panel.js";
import { aiThinking, canClick, gameTitle, isLoa, joinWords, moveNumber, squaresOfMove, state } from "./state.js";

/** Redraw everything from the state (nothing to draw before the first game). */
export function render() {
  if (!state.game) return;
  const held = heldControl();
  drawBoard();
  drawAnalysis();
  drawMoveList();
  drawPanel();
  drawReview();
  drawExplorer();
  dropStaleEnd();
  held();
}

/**
 * The one place that decides how a cell looks: returns its CSS classes.
 * ctx (drawingContext()) carries what is the same for every cell of one drawing.
 */
export function cellClasses(square, piece, ctx) {
  const classes = ["cell"];
  if (ctx.loa) classes.push(ctx.dark[square] ? "dark" : "light");
  if (piece) classes.push("occupied");
  if (ctx.last[square]) classes.push("last-move");
  if (ctx.legal[square]) classes.push("legal");
  if (ctx.targets[square]) classes.push("target");
  if (square === state.selected || ctx.pending[square]) classes.push("selected");
  if (ctx.winning[square]) classes.push("winning");
  if (ctx.forbidden && ctx.forbidden[square]) classes.push("forbidden");
  if (ctx.stars && ctx.stars[square]) classes.push("star");
  if (ctx.better && ctx.better.to === square && !ctx.loa) classes.push("better");
  const stats = ctx.stats[square];
  if (stats) {
    classes.push("heat-" + stats.heat);
    if (stats.chosen) classes.push("chosen");
    if (stats.proven === "win") classes.push("proven-win");
    if (stats.proven === "loss") classes.push("proven-loss");
  }
  return classes.join(" ");
}

/** Square sets for one drawing: {loa, last, legal, targets, pending, dark, winning, forbidden,
 *  stars} (square -> true), `stats` (the heat map), `notes` (LOA arrow numbers)
 *  and `better` ({to, move, side}: the analysis's move instead of a mistake looked back at). */
function drawingContext() {
  const g = state.game;
  const live = state.viewPly === null;
  const ctx = { loa: isLoa(), last: {}, legal: {}, targets: {}, pending: {}, dark: {}, winning: {} };
  // Every empty point is a Gomoku move (a forbidden one is labelled so):
  // "legal" on each of 225 points said nothing.
  ctx.sayLegal = g.game !== "gomoku";
  // Renju: black's forbidden points, marked while black is to move.
  ctx.forbidden = state.explore ? {} : forbiddenAt(live ? g.ply : state.viewPly) || {};
  const line = state.explore && state.explore.data ? state.explore.data.line : [];
  // After a pass, the move before it keeps the mark (Reversi QA: none was
  // marked, and what was just played could not be seen).
  const played = line.length ? line : g.moves;
  const end = line.length ? line.length : live ? g.ply : state.viewPly;
  const lastMove = played[end - (played[end - 1] === "pass" ? 2 : 1)];
  squaresOfMove(lastMove).forEach(function (sq) {
    ctx.last[sq] = true;
  });
  const explored = state.explore && state.explore.data;
  if (explored && ctx.loa && state.selected) {
    // The model's moves of the piece picked in the explorer.
    explored.moves.forEach(function (m) {
      const [from, to] = squaresOfMove(m.move);
      if (from === state.selected) ctx.targets[to] = ctx.legal[to] = true;
    });
  } else if (canClick()) {
    if (ctx.loa) {
      const dests = (g.legal_by_from || {})[state.selected] || [];
      dests.forEach(function (m) {
        const to = squaresOfMove(m)[1];
        ctx.targets[to] = ctx.legal[to] = true;
      });
    } else {
      g.legal_moves.forEach(function (m) {
        if (m !== "pass") ctx.legal[m] = true;
      });
    }
  }
  // A move proposed (waiting for its confirming tap), or sent and not yet
  // answered, in the position it was made in.
  const sent = state.busy && state.busy.move && state.busy.id === g.id && state.busy.from === g.version && live && !state.explore;
  squaresOfMove(state.pending || (sent ? state.busy.move : null)).forEach(function (sq) {
    ctx.pending[sq] = true;
  });
  const ending = state.ending;
  if (live && !state.explore && ending && ending.id === g.id && ending.ply === g.ply) {
    ending.squares.forEach(function (sq) {
      ctx.winning[sq] = true;
    });
  }
  ctx.stars = g.game === "gomoku" ? starPoints(g.board) : {};
  ctx.stats = heatBySquare();
  ctx.notes = arrowNotes();
  const better = betterMoveShown();
  ctx.better = better && { to: squaresOfMove(better.move).slice(-1)[0], move: better.move, side: better.side };
  if (ctx.loa) {
    g.board.files.forEach(function (f, c) {
      g.board.ranks.forEach(function (rk, r) {
        ctx.dark[f + rk] = (r + c) % 2 === 1;
      });
    });
  }
  return ctx;
}

/** A Gomoku board's star points, as on a wooden one: the centre, and from
 *  9x9 up the four points on the third line (the fourth from 13x13 up). */
export function starPoints(board) {
  const n = board.files.length,
    stars = {};
  const mark = (c, r) => (stars[board.files[c] + board.ranks[r]] = true);
  if (n % 2) mark((n - 1) / 2, (n - 1) / 2);
  const edge = n >= 13 ? 3 : n >= 9 ? 2 : -1;
  if (edge >= 0) [edge, n - 1 - edge].forEach((c) => [edge, n - 1 - edge].forEach((r) => mark(c, r)));
  return stars;
}

/** Square -> move number, for Gomoku and Reversi (where a move is a square). */
function stoneNumbers() {
  const mode = $("#stone-numbers").val(),
    g = state.game,
    numbers = {};
  if (mode === "none" || isLoa()) return numbers;
  if (state.explore) return numbers;
  const upto = state.viewPly === null ? g.ply : state.viewPly;
  const from = mode === "last" ? Math.max(0, upto - 10) : 0;
  for (let i = from; i < upto; i++) if (g.moves[i] !== "pass") numbers[g.moves[i]] = moveNumber(g, i + 1);
  return numbers;
}

/** A renju forbidden point in its cell's label and tooltip (the red cross's
 *  words): "forbidden to Black: double three". */
function forbiddenWord(why) {
  const words = {
    "double three": () => pgettext("square", "forbidden to Black: double three"),
    "double four": () => pgettext("square", "forbidden to Black: double four"),
    overline: () => pgettext("square", "forbidden to Black: overline"),
  }[why];
  return words ? words() : pgettext("square", "forbidden to Black");
}

/** One cell: a grid button with its classes, screen-reader label and tooltip. */
function cellHtml(square, piece, ctx, number, moved) {
  const stats = ctx.stats[square];
  const notes = ctx.notes[square];
  // The label lists what is on and about the square: "d3, empty, legal".
  const about = [square, pieceWord(piece)];
  if (ctx.legal[square] && ctx.sayLegal) about.push(pgettext("square", "legal"));
  if (square === state.selected) about.push(pgettext("square", "selected"));
  if (ctx.last[square]) about.push(pgettext("square", "last move"));
  // A draw of both sides joined at once lights both groups: not "winning".
  if (ctx.winning[square]) about.push(state.ending.winner ? pgettext("square", "winning") : pgettext("square", "in a joined group"));
  if (ctx.forbidden[square]) about.push(forbiddenWord(ctx.forbidden[square]));
  if (stats && stats.chosen) about.push(pgettext("square", "the AI's move"));
  if (stats) about.push(interpolate(gettext("AI: %(stats)s"), { stats: statsText(stats) }, true));
  // Looking back at a mistake: the square of the move the analysis chose.
  const better = ctx.better && ctx.better.to === square ? bestWords() : "";
  if (better) about.push(better);
  if (notes) about.push(interpolate(gettext("AI: %(stats)s"), { stats: notes.join("; ") }, true));
  const label = joinWords(about);
  const forbidden = ctx.forbidden[square] ? square + ": " + forbiddenWord(ctx.forbidden[square]) : "";
  const title = stats ? square + ": " + statsText(stats) : notes ? notes.join("\n") : forbidden || (better && square + ": " + better);
  return (
    '<button type="button" role="gridcell" class="' + cellClasses(square, piece, ctx) + '" data-square="' + square +
    '" aria-label="' + label + '"' + (title ? ' title="' + title + '"' : "") + ' tabindex="-1">' +
    (stats ? '<span class="heat"></span>' : "") +
    (moved && moved.taken ? takenHtml(moved.taken) : "") +
    (piece ? pieceHtml(piece, number, moved) : "") +
    // Reversi and Gomoku: the stone a first tap proposes, half drawn (a second tap plays it).
    (!piece && !ctx.loa && ctx.pending[square] ? '<span class="ghost ' + stoneSide(state.game) + '"></span>' : "") +
    // Looking back at a mistake: the stone the analysis would have put down.
    (better && !piece && !ctx.loa ? '<span class="ghost better-stone ' + ctx.better.side + '"></span>' : "") +
    // A tap kept while the last move is on its way (actions.js queueTap).
    (state.queuedTaps.indexOf(square) >= 0 ? '<span class="queued-mark"></span>' : "") +
    (stats && shownValue(stats) !== null && !piece ? '<span class="heat-label">' + Math.round(shownValue(stats) * 100) + "</span>" : "") +
    "</button>"
  );
}

/** What is on a square, for its label: "black", "white" or "empty". */
function pieceWord(piece) {
  if (piece === "black") return pgettext("square", "black");
  if (piece === "white") return pgettext("square", "white");
  return pgettext("square", "empty");
}

/** A piece, with the animation its last move gives it (see changes()). */
function pieceHtml(piece, number, moved) {
  const kind = moved ? " " + moved.kind : "";
  let style = "";
  if (moved && moved.kind === "slid") style += "--dx: " + moved.dx + "; --dy: " + moved.dy + "; ";
  if (moved && drawn && drawn.elapsed) style += "animation-delay: -" + Math.round(drawn.elapsed) + "ms; ";
  return '<span class="piece ' + piece + kind + '"' + (style ? ' style="' + style + '"' : "") + ">" + (number || "") + "</span>";
}

/** The piece a Lines of Action move captures, shown under the piece sliding
 *  onto it until that arrives (board.css), at the same point of the
 *  animation after a redraw. */
function takenHtml(piece) {
  const elapsed = drawn && drawn.elapsed ? ' style="animation-delay: -' + Math.round(drawn.elapsed) + 'ms"' : "";
  return '<span class="piece taken ' + piece + '"' + elapsed + "></span>";
}

/** The cells on show: the explorer's position, a viewed move, or the game's. */
function shownCells() {
  const b = state.game.board;
  if (state.explore && state.explore.data) return state.explore.data.board.cells;
  return state.viewPly === null ? b.cells : cellsAt(state.viewPly) || b.cells;
}

/** The live position drawn last: {id, ply, cells, moved, at, elapsed}, to
 *  tell what a new move changed and animate only that, once. */
let drawn = null;
/** The board's cells as drawn last, still (drawBoard). */
let drawnKey = null;
/** The game whose board has the roving tab stop now. */
let stopFor = null;
/** The longest piece animation, in ms (board.css). */
const ANIMATION_MS = 400;

/** Square -> the animation a piece gets in this drawing: "placed" (a stone
 *  put down), "flipped" (a Reversi disc turned), "slid" (a Lines of Action
 *  piece moved; with its offset from where it came). Only for the live
 *  position, one or two plies (a forced pass) after the one drawn before. */
function changes(g, cells, n) {
  const before = drawn;
  const live = state.viewPly === null && !state.explore;
  if (live && before && before.id === g.id && before.ply === g.ply) {
    // The same position drawn again (a redraw): its animations go on where
    // they are, not from the start nor cut short.
    before.elapsed = performance.now() - before.at;
    return before.elapsed < ANIMATION_MS ? before.moved : {};
  }
  const moved = {};
  drawn = live ? { id: g.id, ply: g.ply, cells: cells, moved: moved, at: performance.now(), elapsed: 0 } : null;
  if (!live || !before || before.id !== g.id || g.ply <= before.ply || g.ply > before.ply + 2) return moved;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const was = before.cells[r][c],
        now = cells[r][c];
      if (now && !was) moved[g.board.files[c] + g.board.ranks[r]] = { kind: "placed" };
      else if (now && was && now !== was) moved[g.board.files[c] + g.board.ranks[r]] = { kind: "flipped" };
    }
  }
  const move = g.moves[before.ply];
  if (isLoa() && move && move !== "pass") {
    // The piece slides from its square: its offset in cells, as drawn.
    const [from, to] = squaresOfMove(move);
    const at = (sq) => [g.board.ranks.indexOf(sq.slice(1)), g.board.files.indexOf(sq[0])];
    const [r0, c0] = at(from),
      [r1, c1] = at(to);
    const sign = state.flipped ? -1 : 1;
    // A piece it captures stays under it until it arrives (taken: its colour).
    const taken = before.cells[r1][c1] || null;
    moved[to] = { kind: "slid", dx: sign * (c0 - c1), dy: sign * (r0 - r1), taken: taken };
  }
  return moved;
}

function drawBoard() {
  const g = state.game,
    b = g.board,
    n = b.size;
  const cells = shownCells();
  const moved = changes(g, cells, n);
  const ctx = drawingContext();
  const numbers = stoneNumbers();
  const order = [...Array(n).keys()];
  const rows = state.flipped ? order.slice().reverse() : order;
  // The cells, and the same cells still (no piece moving), which tell a
  // redraw that changes nothing from one that does.
  const html = [],
    still = [];
  rows.forEach(function (r) {
    html.push('<div role="row">');
    rows.forEach(function (c) {
      const square = b.files[c] + b.ranks[r];
      html.push(cellHtml(square, cells[r][c], ctx, numbers[square], moved[square]));
      still.push(moved[square] ? cellHtml(square, cells[r][c], ctx, numbers[square], null) : html[html.length - 1]);
    });
    html.push("</div>");
    still.push("|");
  });
  const $board = $("#board");
  const focused = $board.find(":focus").data("square");
  // The roving tab stop's square, kept while the focus is elsewhere (QA:
  // Tab back after the computer's move landed in the corner, a15); in
  // another game, its last move's, or the centre's (keyboard QA: a 9x9
  // Gomoku board was entered at h8, Reversi's last move).
  const kept = stopFor === g.id && (focused || $board.find('.cell[tabindex="0"]').data("square"));
  const stop = kept || (g.last_move && squaresOfMove(g.last_move).slice(-1)[0]) || b.files[n >> 1] + b.ranks[n >> 1];
  stopFor = g.id;
  const busy = Boolean(state.busy) || aiThinking();
  $board.attr("class", "board game-" + g.game).css("--n", n);
  // A redraw that changes nothing (who is connected changed, say) leaves
  // the cells be: replaced between a tap's press and release, they lost the
  // tap. A piece's animation under way goes on as it is.
  const key = still.join("");
  if (key !== drawnKey) {
    $board.html(html.join(""));
    // One cell is in the tab order (a roving tab stop), as grids expect.
    const $stop = stop ? $board.find('[data-square="' + stop + '"]') : $();
    ($stop.length ? $stop : $board.find(".cell").first()).attr("tabindex", "0");
    // The redrawn square gets the focus back where it is: scrolled into sight,
    // a move the computer made pulled a phone's page up from the moves.
    if (focused && $stop.length) $stop[0].focus({ preventScroll: true });
  }
  drawnKey = key;
  $board.attr("aria-label", interpolate(gettext("%(title)s board, %(n)s by %(n)s"), { title: gameTitle(g), n: n }, true));
  $board.toggleClass("busy", busy).attr("aria-busy", busy);
  $board.toggleClass("viewing", state.viewPly !== null || Boolean(state.explore));
  $board.toggleClass("hide-legal", !$("#show-legal").prop("checked"));
  if (state.focusBoard && !$board.find(":focus").length) $board.find('.cell[tabindex="0"]')[0].focus({ preventScroll: true });
  state.focusBoard = false;

  $("#rank-labels").html(rows.map((r) => "<span>" + b.ranks[r] + "</span>").join(""));
  $("#file-labels").html(rows.map((c) => "<span>" + b.files[c] + "</span>").join(""));
  drawArrows(ctx.better);
  confirmOnSmallCells();
}

/** Cells narrower than this (px) are truly small for a finger: Gomoku 15×15
 *  on a phone (about 23 px). The 8×8 boards' 40-44 px cells at 360-390 px
 *  play with one tap. */
const TAP_MIN = 32;

/** Cells narrower than this (px) have no room for a move's percentage:
 *  the heat map's tints stay, the list beside gives the figures (teacher
 *  walk: Gomoku 15×15 on a phone had 7 px numbers). */
const LABEL_MIN = 30;

/** The board and window sizes the cells were last measured for. */
let cellsMeasuredFor = null;

/** On a touch screen, truly small cells need a second tap to play: the
 *  confirm switch turns on by itself, unless the player set it. Small
 *  cells drop their percentages (.small-cells). */
function confirmOnSmallCells() {
  const cells = document.querySelectorAll("#board .cell");
  // Measured when the board or the window changed, not at every drawing:
  // a forced layout each time, 174 ms a move on a slow phone (QA).
  const key = cells.length + " " + window.innerWidth + "x" + window.innerHeight;
  if (!cells.length || key === cellsMeasuredFor) return;
  cellsMeasuredFor = key;
  const width = cells[0].getBoundingClientRect().width;
  document.getElementById("board-wrap").classList.toggle("small-cells", width < LABEL_MIN);
  const $switch = $("#confirm-moves");
  if ($switch.data("user-set") || !window.matchMedia("(pointer: coarse)").matches) return;
  $switch.prop("checked", width < TAP_MIN);
}

// A phone turned sideways shrinks the cells with no move to redraw the
// board: the first tap after turning played at once (touch QA).
window.addEventListener("resize", confirmOnSmallCells);
